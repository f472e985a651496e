//! Paired comparison of the front end with and without the preprocessing
//! helper thread: alternates rounds of ten `check_source` calls (helper
//! thread) and ten `check_source_on_this_thread` calls on
//! `benches/data/kernels_1000.cl` (or the file given as the first
//! argument), 150 rounds each, and prints both distributions and the
//! distribution of each round pair's ratio. Pairing controls for a shared
//! machine whose speed drifts over the run, which separate criterion runs
//! do not. Links the ICD's allocator, as `clBuildProgram` runs inside it.

use layer as _;
use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data/kernels_1000.cl").to_string()
    });
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let caps = translator::DeviceCaps::full();
    let mut rounds: [Vec<f64>; 2] = Default::default();
    for round in 0..300 {
        let overlapped = round % 2 == 1;
        let start = Instant::now();
        for _ in 0..10 {
            let source = std::hint::black_box(&source);
            let checked = if overlapped {
                translator::check_source(source, "", &caps)
            } else {
                translator::check_source_on_this_thread(source, "", &caps)
            };
            assert!(checked.is_ok(), "{path} must check");
        }
        rounds[usize::from(overlapped)].push(start.elapsed().as_secs_f64() / 10.0 * 1e3);
    }
    let mut ratios: Vec<f64> = rounds[1]
        .iter()
        .zip(&rounds[0])
        .map(|(o, a)| o / a)
        .collect();
    let quantiles = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let q = |f: f64| v[(v.len() as f64 * f) as usize];
        format!("p10 {:.3} median {:.3} p90 {:.3}", q(0.1), q(0.5), q(0.9))
    };
    println!("one thread ms: {}", quantiles(&mut rounds[0]));
    println!("overlapped ms: {}", quantiles(&mut rounds[1]));
    println!("ratio:         {}", quantiles(&mut ratios));
}
