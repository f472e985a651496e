//! Independent jobs run on the machine's cores: each kernel of a program
//! is lowered, validated and written on its own.

/// `job` of each of `items`, in order, run on as many threads as there
/// are cores and items (the calling thread one of them).
pub(super) fn in_parallel<T: Sync, R: Send>(items: &[T], job: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = items.len().min(crate::cores::available());
    if threads <= 1 {
        return items.iter().map(job).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(item) = items.get(i) else { break };
            done.push((i, job(item)));
        }
        done
    };
    let mut results: Vec<Option<R>> = items.iter().map(|_| None).collect();
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        let own = work();
        let theirs = helpers.into_iter().flat_map(|h| match h.join() {
            Ok(done) => done,
            Err(panic) => std::panic::resume_unwind(panic),
        });
        for (i, r) in own.into_iter().chain(theirs) {
            results[i] = Some(r);
        }
    });
    results
        .into_iter()
        .map(|r| r.expect("every item was taken"))
        .collect()
}
