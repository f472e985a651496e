//! The misuse a careless or hostile application makes, through the real
//! loader from C (`tests/c/`): one negative-path program per entry-point
//! family (contexts and queues, memory objects, programs and kernels,
//! enqueues, events), each with released handles, objects of another
//! context and arithmetic that overflows, plus the reproducers of issue
//! 18's crashes and the OpenCL-CTS hangs (a watchdog fails a program that
//! hangs); and `leaks.c`, which counts live objects over 10,000 cycles of
//! every enqueue kind and watches resident memory over 20,000 context
//! cycles.

mod common;

use std::process::Command;

/// Compiles and runs `tests/c/<name>.c`; it must end with "0 failures".
fn run_c(name: &str) -> String {
    let exe = common::compile_c(&common::repo_path(&format!("tests/c/{name}.c")), name);
    let out = common::run_checked(&mut Command::new(&exe));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(stdout.trim_end().ends_with("0 failures"), "{stdout}");
    stdout
}

#[test]
fn contexts_and_queues() {
    run_c("negative_context");
}

#[test]
fn memory_objects() {
    run_c("negative_memory");
}

#[test]
fn programs_and_kernels() {
    run_c("negative_kernel");
}

#[test]
fn enqueues() {
    run_c("negative_enqueue");
}

#[test]
fn events_and_the_cts_hangs() {
    run_c("negative_events");
}

#[test]
fn live_objects_and_resident_memory_stay_flat() {
    let stdout = run_c("leaks");
    // The figures, for whoever runs this with --nocapture.
    for line in stdout.lines().filter(|l| l.contains("->")) {
        println!("{line}");
    }
}
