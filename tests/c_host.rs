//! A real C host program, compiled with the system C compiler against the
//! Khronos headers and linked to ocl-icd, runs vecadd and saxpy on 1M
//! elements through the ICD loader and checks every element. The same
//! program on PoCL is the differential reference. A second program checks
//! the error codes of bad calls.

mod common;

use std::process::Command;

#[test]
fn vecadd_and_saxpy_through_the_loader() {
    let exe = common::compile_c(&common::repo_path("examples/vecadd_saxpy.c"), "vecadd");
    let out = common::run_checked(Command::new(&exe).arg("1048576"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("platform: clvulkan"), "{stdout}");
    assert!(
        stdout.contains("vecadd: 1048576/1048576 correct"),
        "{stdout}"
    );
    assert!(
        stdout.contains("saxpy: 1048576/1048576 correct"),
        "{stdout}"
    );
    assert!(stdout.trim_end().ends_with("PASS"), "{stdout}");
}

#[test]
fn odd_sizes_pick_a_work_group_size_that_divides() {
    // 1000003 is prime: the runtime must choose a local size of 1 or split
    // the launch, never drop or duplicate work-items.
    let exe = common::compile_c(&common::repo_path("examples/vecadd_saxpy.c"), "vecadd-odd");
    let out = common::run_checked(Command::new(&exe).arg("1000003"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("vecadd: 1000003/1000003 correct"),
        "{stdout}"
    );
    assert!(
        stdout.contains("saxpy: 1000003/1000003 correct"),
        "{stdout}"
    );
}

#[test]
fn same_program_agrees_with_pocl() {
    let pocl = std::path::Path::new("/etc/OpenCL/vendors/pocl.icd");
    assert!(
        pocl.exists(),
        "PoCL (pocl-opencl-icd) is the differential reference; install it (scripts/install-deps.sh)"
    );
    let exe = common::compile_c(&common::repo_path("examples/vecadd_saxpy.c"), "vecadd-pocl");
    let reference = Command::new(&exe)
        .arg("4096")
        .env("OCL_ICD_VENDORS", pocl)
        .output()
        .expect("run on PoCL");
    let ours = common::run_checked(Command::new(&exe).arg("4096"));
    let summary = |bytes: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(bytes)
            .lines()
            .filter(|l| l.contains("correct") || *l == "PASS" || *l == "FAIL")
            .map(str::to_string)
            .collect()
    };
    assert!(reference.status.success(), "PoCL run failed");
    assert_eq!(summary(&ours.stdout), summary(&reference.stdout));
}

#[test]
fn negative_paths_return_the_spec_error_codes() {
    let exe = common::compile_c(&common::repo_path("tests/c/errors.c"), "errors");
    let out = common::run_checked(&mut Command::new(&exe));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.trim_end().ends_with("0 failures"), "{stdout}");
}
