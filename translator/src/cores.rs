//! How many threads the translator may keep busy at once.

use std::sync::OnceLock;

/// The cores this process may run on. `available_parallelism` reads cgroup
/// files on Linux, tens of microseconds, so it is asked once per process.
pub(crate) fn available() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}
