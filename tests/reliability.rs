//! The misuse a careless or hostile application makes, through the real
//! loader from C (`tests/c/`): one negative-path program per entry-point
//! family (contexts and queues, memory objects, programs and kernels,
//! enqueues, events), each with released handles, objects of another
//! context and arithmetic that overflows, plus the reproducers of issue
//! 18's crashes and the OpenCL-CTS hangs (a watchdog fails a program that
//! hangs); and `leaks.c`, which counts live objects over 10,000 cycles of
//! every enqueue kind and watches resident memory over 20,000 context
//! cycles. Each runs on the host-direct path lavapipe allows and again
//! forced onto the staged path (`CLVULKAN_HOST_DIRECT=0`), which is what
//! device-local memory on a discrete GPU takes.

mod common;

use std::process::Command;

/// The host transfer paths a program runs on.
#[derive(Clone, Copy)]
enum HostPath {
    /// Whatever the device allows (host-direct on lavapipe).
    Default,
    /// Every read, write and map through staging.
    Staged,
}

/// Compiles and runs `tests/c/<name>.c` on `path`; it must end with
/// "0 failures".
fn run_c(name: &str, path: HostPath) -> String {
    let source = common::repo_path(&format!("tests/c/{name}.c"));
    // One executable per path: the two runs of a program are concurrent.
    let exe = match path {
        HostPath::Default => common::compile_c(&source, name),
        HostPath::Staged => common::compile_c(&source, &format!("{name}-staged")),
    };
    let mut command = Command::new(&exe);
    if let HostPath::Staged = path {
        command.env("CLVULKAN_HOST_DIRECT", "0");
    }
    let out = common::run_checked(&mut command);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(stdout.trim_end().ends_with("0 failures"), "{stdout}");
    stdout
}

#[test]
fn contexts_and_queues() {
    run_c("negative_context", HostPath::Default);
}

#[test]
fn contexts_and_queues_staged() {
    run_c("negative_context", HostPath::Staged);
}

#[test]
fn memory_objects() {
    run_c("negative_memory", HostPath::Default);
}

#[test]
fn memory_objects_staged() {
    run_c("negative_memory", HostPath::Staged);
}

#[test]
fn programs_and_kernels() {
    run_c("negative_kernel", HostPath::Default);
}

#[test]
fn programs_and_kernels_staged() {
    run_c("negative_kernel", HostPath::Staged);
}

#[test]
fn enqueues() {
    run_c("negative_enqueue", HostPath::Default);
}

#[test]
fn enqueues_staged() {
    run_c("negative_enqueue", HostPath::Staged);
}

#[test]
fn events_and_the_cts_hangs() {
    run_c("negative_events", HostPath::Default);
}

#[test]
fn events_and_the_cts_hangs_staged() {
    run_c("negative_events", HostPath::Staged);
}

#[test]
fn live_objects_and_resident_memory_stay_flat() {
    print_figures(&run_c("leaks", HostPath::Default));
}

#[test]
fn live_objects_and_resident_memory_stay_flat_staged() {
    print_figures(&run_c("leaks", HostPath::Staged));
}

/// The figures, for whoever runs this with --nocapture.
fn print_figures(stdout: &str) {
    for line in stdout.lines().filter(|l| l.contains("->")) {
        println!("{line}");
    }
}
