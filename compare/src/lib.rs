//! Workloads that measure an OpenCL implementation, written once and run
//! two ways: side by side on two platforms by the `clcompare` binary, and
//! on clvulkan alone by the root package's criterion benches.

pub mod config;
pub mod harness;
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
    let attempt = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        match (workload.prepare)(side, cfg) {
            Ok(mut prepared) => measure(prepared.as_mut(), cfg.reps),
            Err(f) => f.into(),
        }
    }));
    attempt.unwrap_or_else(|panic| {
        let msg = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("panic");
        Outcome::Failed(format!("panicked: {msg}"))
    })
}
