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
