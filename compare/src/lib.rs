//! Workloads that measure an OpenCL implementation, written once and run
//! two ways: side by side on two platforms by the `clcompare` binary, and
//! on clvulkan alone by the root package's criterion benches.

pub mod config;
pub mod harness;
pub mod pair;
pub mod pair_report;
pub mod report;
pub mod side;
pub mod verify;
pub mod workloads;

pub use config::Config;
pub use harness::{measure, Outcome, Prepared};
pub use side::Side;
pub use workloads::{all, by_name, Group, Workload};

/// Prepares and measures `workload` on `side`; a panic inside it (opencl3
/// asserts on misuse) becomes a failure of that workload alone.
pub fn run_workload(workload: &Workload, side: &Side, cfg: &Config) -> Outcome {
    harness::guarded(|| harness::measure_prepared((workload.prepare)(side, cfg), cfg.reps))
        .unwrap_or_else(|failed| failed)
}

/// Prepares `workload` on both sides and measures them with their runs
/// alternating ([`harness::measure_alternating`]); a side whose
/// preparation fails or panics gets that as its outcome, and the other is
/// measured alone.
pub fn run_workload_on_both(
    workload: &Workload,
    a: &Side,
    b: &Side,
    cfg: &Config,
) -> (Outcome, Outcome) {
    let prepare = |side| {
        harness::guarded(|| (workload.prepare)(side, cfg))
            .and_then(|prepared| prepared.map_err(Outcome::from))
    };
    match (prepare(a), prepare(b)) {
        (Ok(mut pa), Ok(mut pb)) => {
            harness::measure_alternating(pa.as_mut(), pb.as_mut(), cfg.reps)
        }
        (Ok(pa), Err(fb)) => (harness::measure_prepared(Ok(pa), cfg.reps), fb),
        (Err(fa), Ok(pb)) => (fa, harness::measure_prepared(Ok(pb), cfg.reps)),
        (Err(fa), Err(fb)) => (fa, fb),
    }
}
