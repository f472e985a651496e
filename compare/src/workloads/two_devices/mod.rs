//! The `clcompare --devices 2` workloads: each runs on a [`Pair`] (one
//! context, two devices, a queue each) and gives its two-device figure
//! and, where the work can be done by one device, the figure of the same
//! work on device 0 of that same context alone, measured in the same
//! process so that the report can show how the implementation scales.

use crate::config::Config;
use crate::harness::{guarded, Outcome};
use crate::pair::Pair;

pub mod migrate;
pub mod sgemm_split;
pub mod stream_split;

/// What one workload on one side ended as.
#[derive(Debug, Clone, PartialEq)]
pub struct Figures {
    /// The work spread over (or moved between) the two devices.
    pub two: Outcome,
    /// The same work on device 0 alone; `None` where there is no such
    /// work (moving a buffer between devices).
    pub one: Option<Outcome>,
}

/// Measures a workload on a pair, both figures.
pub type MeasureFn = fn(&Pair, &Config) -> Figures;

pub struct PairWorkload {
    pub name: &'static str,
    pub what: &'static str,
    pub measure: MeasureFn,
}

pub fn all() -> Vec<PairWorkload> {
    let w = |name, what, measure| PairWorkload {
        name,
        what,
        measure,
    };
    vec![
        w(
            "sgemm-split",
            "tiled SGEMM, top half of C on device 0, bottom half on device 1; 1 device: the whole on device 0",
            sgemm_split::measure as MeasureFn,
        ),
        w(
            "stream-split",
            "float4 copy kernel, each device copying its own half; 1 device: the whole on device 0; bytes read + written",
            stream_split::measure,
        ),
        w(
            "migrate",
            "kernel on device 0 writes a buffer, kernel on device 1 waits on its event and reads it: the implementation moves it; GB/s over the time beyond the same kernels on one device",
            migrate::measure_implicit,
        ),
        w(
            "migrate-host",
            "the same moved by the application: blocking read from device 0 into pageable host memory, blocking write to device 1's own buffer",
            migrate::measure_through_host,
        ),
    ]
}

/// The workload called `name`.
pub fn by_name(name: &str) -> Option<PairWorkload> {
    all().into_iter().find(|w| w.name == name)
}

/// Measures `workload` on `pair`; a panic inside it becomes a failure of
/// that workload alone.
pub fn run(workload: &PairWorkload, pair: &Pair, cfg: &Config) -> Figures {
    guarded(|| (workload.measure)(pair, cfg)).unwrap_or_else(|failed| Figures {
        two: failed,
        one: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_apart_from_the_one_device_workloads() {
        let names: Vec<_> = all().iter().map(|w| w.name).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
        assert!(names.iter().all(|n| crate::by_name(n).is_none()));
        assert!(by_name("sgemm-split").is_some());
    }
}
