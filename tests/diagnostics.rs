//! The diagnostics users run an application with, through the real loader:
//! the API trace (`CLVULKAN_LOG=api`, here into `CLVULKAN_LOG_FILE`) of
//! `examples/vecadd_saxpy.c` names every call the program makes, once, with
//! its arguments decoded and its result; `CLVULKAN_LOG=debug` reports the
//! slow paths a run takes; `CLVULKAN_DEVICES` picks devices by index or
//! name, and one matching nothing leaves the platform without devices and
//! says what there was.

mod common;

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Output};

/// The example's calls in the order of its source, which is the order it
/// makes them: it has no loops around OpenCL calls.
fn calls_in_source(source: &str) -> Vec<String> {
    let mut calls = Vec::new();
    for line in source.lines() {
        let mut rest = line;
        while let Some(at) = rest.find("cl") {
            let name: String = rest[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            let after = &rest[at + name.len()..];
            let starts_word = rest[..at]
                .chars()
                .last()
                .is_none_or(|c| !c.is_ascii_alphanumeric() && c != '_');
            if starts_word
                && after.starts_with('(')
                && name[2..].starts_with(|c: char| c.is_ascii_uppercase())
            {
                calls.push(name.clone());
            }
            rest = &rest[at + name.len().max(2)..];
        }
    }
    calls
}

/// The example, compiled under a name of the test's own: tests run in
/// parallel, and one must not write the program while another runs it.
fn vecadd(test: &str) -> std::path::PathBuf {
    common::compile_c(
        &common::repo_path("examples/vecadd_saxpy.c"),
        &format!("vecadd-{test}"),
    )
}

#[test]
fn api_trace_of_the_example_names_every_call_with_its_result() {
    let source = std::fs::read_to_string(common::repo_path("examples/vecadd_saxpy.c")).unwrap();
    // clGetProgramBuildInfo runs only when the build fails; the loader
    // answers clGetPlatformIDs from its own list (what the ICD sees are the
    // loader's own calls when it loads it), and probes the platform with
    // clGetPlatformInfo, so those two are counted as at least.
    let expected: Vec<String> = calls_in_source(&source)
        .into_iter()
        .filter(|name| name != "clGetProgramBuildInfo")
        .collect();
    assert!(expected.len() > 30, "{expected:?}");
    let trace_file = std::env::temp_dir().join(format!("clvulkan-trace-{}", std::process::id()));
    let _ = std::fs::remove_file(&trace_file);
    let out = common::run_checked(
        Command::new(vecadd("trace"))
            .arg("4096")
            .env("CLVULKAN_LOG", "api")
            .env("CLVULKAN_LOG_FILE", &trace_file),
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("PASS"));
    // Into the file, not onto stderr.
    assert!(!String::from_utf8_lossy(&out.stderr).contains("clvulkan: api:"));
    let trace = std::fs::read_to_string(&trace_file).expect("the trace file");
    let _ = std::fs::remove_file(&trace_file);

    // Every line is one call with its result by name.
    let mut traced = Vec::new();
    for line in trace.lines() {
        let call = line
            .strip_prefix("clvulkan: api: ")
            .unwrap_or_else(|| panic!("not a trace line: {line}"));
        let name = &call[..call.find('(').expect("(")];
        let result = call.rsplit(" = ").next().unwrap();
        let code = result.rsplit(", ").next().unwrap();
        assert!(
            code.starts_with("CL_") || name.starts_with("clGetExtensionFunctionAddress"),
            "no result code: {line}"
        );
        traced.push((name.to_string(), call.to_string()));
    }
    // Each call of the program appears as often as the program makes it, in
    // its order.
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for name in &expected {
        *counts.entry(name).or_default() += 1;
    }
    for (name, count) in &counts {
        let seen = traced.iter().filter(|(n, _)| n == name).count();
        let probed_by_loader = matches!(*name, "clGetPlatformIDs" | "clGetPlatformInfo");
        assert!(
            seen == *count || (probed_by_loader && seen >= *count),
            "{name}: {seen} lines for {count} calls in:\n{trace}"
        );
    }
    let mut position = 0;
    for name in expected.iter().filter(|n| *n != "clGetPlatformIDs") {
        let found = traced[position..].iter().position(|(n, _)| n == name);
        position += found.unwrap_or_else(|| panic!("{name} missing or out of order:\n{trace}")) + 1;
    }
    // The arguments are decoded: handles by name, flags, enums and lists.
    let line_of = |needle: &str| {
        traced
            .iter()
            .map(|(_, call)| call.as_str())
            .find(|call| call.contains(needle))
            .unwrap_or_else(|| panic!("no call with {needle}:\n{trace}"))
    };
    assert!(line_of("clGetDeviceInfo(").contains("param_name=CL_DEVICE_NAME"));
    assert!(line_of("clGetDeviceIDs(").contains("CL_DEVICE_TYPE_DEFAULT"));
    let first_buffer = line_of("clCreateBuffer(");
    assert!(
        first_buffer.contains("flags=CL_MEM_READ_ONLY|CL_MEM_COPY_HOST_PTR, size=16384,"),
        "{first_buffer}"
    );
    assert!(
        first_buffer.ends_with("= cl_mem#1, CL_SUCCESS"),
        "{first_buffer}"
    );
    assert!(
        line_of("clCreateBuffer(context=cl_context#1, flags=CL_MEM_READ_WRITE")
            .contains("cl_mem#3")
    );
    let write = line_of("clEnqueueWriteBuffer(");
    assert!(
        write.contains("buffer=cl_mem#2, blocking_write=CL_FALSE"),
        "{write}"
    );
    assert!(write.contains("event=&cl_event#1"), "{write}");
    let launch = line_of("clEnqueueNDRangeKernel(");
    assert!(
        launch.contains(
            "kernel=cl_kernel#1, work_dim=1, global_work_offset=NULL, global_work_size=[4096]"
        ),
        "{launch}"
    );
    assert!(launch.contains("event_wait_list=[cl_event#1]"), "{launch}");
    assert!(
        line_of("clCreateKernel(program=cl_program#1, kernel_name=\"saxpy\"")
            .contains("cl_kernel#2")
    );
    assert!(line_of("clReleaseContext(").contains("cl_context#1) = CL_SUCCESS"));
}

#[test]
fn api_trace_names_error_codes_and_info_queries() {
    let out = common::run_checked(Command::new("clinfo").env("CLVULKAN_LOG", "API"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    // clinfo asks for a context of every device type; no Vulkan device is
    // an accelerator.
    let accelerator = stderr
        .lines()
        .find(|line| {
            line.contains(
                "clCreateContextFromType(properties=NULL, device_type=CL_DEVICE_TYPE_ACCELERATOR,",
            )
        })
        .unwrap_or_else(|| panic!("no accelerator context asked for in:\n{stderr}"));
    assert!(
        accelerator.ends_with(") = NULL, CL_DEVICE_NOT_FOUND"),
        "{accelerator}"
    );
    for query in [
        "CL_DEVICE_MAX_MEM_ALLOC_SIZE",
        "CL_PLATFORM_VERSION",
        "CL_DEVICE_EXTENSIONS_WITH_VERSION",
    ] {
        assert!(
            stderr.contains(&format!("param_name={query},")),
            "{query} in:\n{stderr}"
        );
    }
}

/// Runs clinfo's list mode with the given variables; its output and the
/// number of devices it lists.
fn clinfo_devices(vars: &[(&str, &str)]) -> (Output, usize) {
    let mut command = Command::new("clinfo");
    command.arg("-l").envs(vars.iter().copied());
    let out = common::run_checked(&mut command);
    let devices = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|line| line.contains("Device #"))
        .count();
    (out, devices)
}

/// The name of Vulkan device 0, as `clvulkan info` prints it.
fn first_vulkan_device() -> String {
    let cli = common::icd_library().with_file_name("clvulkan");
    let info = Command::new(&cli).arg("info").output();
    let info = match info {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).into_owned(),
        _ => {
            let status = Command::new(env!("CARGO"))
                .args(["build", "-q", "--bin", "clvulkan"])
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .status()
                .expect("cargo");
            assert!(status.success() && Path::new(&cli).exists());
            let out = Command::new(&cli)
                .arg("info")
                .output()
                .expect("clvulkan info");
            String::from_utf8_lossy(&out.stdout).into_owned()
        }
    };
    info.lines()
        .find_map(|line| line.strip_prefix("device 0: "))
        .unwrap_or_else(|| panic!("no device 0 in:\n{info}"))
        .to_string()
}

#[test]
fn devices_are_picked_by_index_or_name() {
    let (_, all) = clinfo_devices(&[("CLVULKAN_DEVICE_COPIES", "2")]);
    assert!(all >= 2, "two copies of each device");
    let name = first_vulkan_device();
    // A part of the name, in other case, picks the device (twice, with
    // its copy).
    let part = name[..name.len().min(5)].to_uppercase();
    let (_, by_name) =
        clinfo_devices(&[("CLVULKAN_DEVICE_COPIES", "2"), ("CLVULKAN_DEVICES", &part)]);
    assert!(by_name >= 2 && by_name % 2 == 0, "{part}: {by_name}");
    let (_, by_index) =
        clinfo_devices(&[("CLVULKAN_DEVICE_COPIES", "2"), ("CLVULKAN_DEVICES", "0")]);
    assert_eq!(by_index, 2, "device 0 and its copy");
    let (_, listed) = clinfo_devices(&[
        ("CLVULKAN_DEVICE_COPIES", "2"),
        ("CLVULKAN_DEVICES", "99, 0"),
    ]);
    assert_eq!(
        listed, 2,
        "an entry that matches nothing does not hide the others"
    );
}

#[test]
fn a_selection_matching_nothing_gives_no_devices_and_says_what_there_is() {
    let (out, devices) = clinfo_devices(&[
        ("CLVULKAN_DEVICE_COPIES", "2"),
        ("CLVULKAN_DEVICES", "no-such-device"),
    ]);
    assert_eq!(devices, 0);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let name = first_vulkan_device();
    let warning = stderr
        .lines()
        .find(|line| line.starts_with("clvulkan: warn: CLVULKAN_DEVICES=no-such-device"))
        .unwrap_or_else(|| panic!("no warning in:\n{stderr}"));
    assert!(warning.contains(&format!("0: {name}")), "{warning}");
}

#[test]
fn debug_logging_reports_staging_and_host_waits_and_warn_is_quiet() {
    let exe = vecadd("debug-log");
    let out = common::run_checked(
        Command::new(&exe)
            .arg("4096")
            .env("CLVULKAN_HOST_DIRECT", "0")
            .env("CLVULKAN_LOG", "debug"),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("clvulkan: debug: slow path: read of 16384 bytes staged"),
        "{stderr}"
    );
    assert!(
        stderr.contains("clvulkan: debug: host-side wait"),
        "{stderr}"
    );
    assert!(!stderr.contains("clvulkan: api:"), "{stderr}");
    // The default level says nothing on a run that goes well.
    let out = common::run_checked(
        Command::new(&exe)
            .arg("4096")
            .env("CLVULKAN_HOST_DIRECT", "0"),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("clvulkan:"), "{stderr}");
}

#[test]
fn unknown_log_words_are_warned_about() {
    let (out, _) = clinfo_devices(&[("CLVULKAN_LOG", "verbose")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("clvulkan: warn: CLVULKAN_LOG: unknown word 'verbose'"),
        "{stderr}"
    );
}
