//! `clinfo`, a real OpenCL client, sees the clvulkan platform and its device
//! through the loader and exits 0.

mod common;

use std::process::Command;

#[test]
fn clinfo_lists_platform_and_device() {
    let out = common::run_checked(&mut Command::new("clinfo"));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Number of platforms                               1"),
        "{text}"
    );
    assert!(text.contains("clvulkan"), "{text}");
    let devices = text
        .lines()
        .find(|l| l.trim_start().starts_with("Number of devices"))
        .unwrap_or_else(|| panic!("no device count in:\n{text}"));
    assert!(!devices.trim_end().ends_with(" 0"), "{devices}");
    // The device name comes from Vulkan (llvmpipe on CI).
    assert!(text.contains("Device Name"), "{text}");
}

#[test]
fn clinfo_list_mode_names_device() {
    let out = common::run_checked(Command::new("clinfo").arg("-l"));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Platform #0: clvulkan"), "{text}");
    assert!(text.contains("Device #0"), "{text}");
}

/// The values of `clinfo --raw` for the first device, by query name.
fn raw_device_values() -> std::collections::HashMap<String, String> {
    let out = common::run_checked(Command::new("clinfo").arg("--raw"));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| line.strip_prefix("[VK/0]"))
        .filter_map(|line| {
            let line = line.trim_start();
            let (name, value) = line.split_once(char::is_whitespace)?;
            Some((name.to_string(), value.trim().to_string()))
        })
        .collect()
}

/// Values the spec fixes or ties together, as a client reads them.
#[test]
fn clinfo_values_meet_the_spec() {
    let values = raw_device_values();
    let get = |name: &str| {
        values
            .get(name)
            .unwrap_or_else(|| panic!("no {name} in {values:?}"))
            .as_str()
    };
    let number = |name: &str| -> u64 {
        get(name)
            .parse()
            .unwrap_or_else(|_| panic!("{name} = {:?}", get(name)))
    };

    // max(min(1 GiB, a quarter of the global memory), 32 MiB).
    let global = number("CL_DEVICE_GLOBAL_MEM_SIZE");
    let floor = (global / 4).clamp(32 << 20, 1 << 30);
    assert!(
        number("CL_DEVICE_MAX_MEM_ALLOC_SIZE") >= floor,
        "max alloc below {floor} for {global} bytes of memory"
    );

    // "OpenCL C<space><major.minor><space><vendor-specific information>".
    let c_version = get("CL_DEVICE_OPENCL_C_VERSION");
    let words: Vec<&str> = c_version.split(' ').collect();
    assert!(
        words.len() >= 4 && words[..2] == ["OpenCL", "C"] && words.iter().all(|w| !w.is_empty()),
        "{c_version:?}"
    );
    assert!(
        words[2].split('.').all(|n| n.parse::<u32>().is_ok()),
        "{c_version:?}"
    );

    if get("CL_DEVICE_TYPE").contains("CPU") {
        assert!(number("CL_DEVICE_MAX_CLOCK_FREQUENCY") > 0);
    }

    // The query and the feature macro agree.
    let features = get("CL_DEVICE_OPENCL_C_FEATURES");
    assert_eq!(
        get("CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT") == "CL_TRUE",
        features.contains("__opencl_c_work_group_collective_functions"),
        "{features}"
    );

    // A type the device lacks has width 0; one it has, at least 1.
    for (ty, extension) in [("HALF", "cl_khr_fp16"), ("DOUBLE", "cl_khr_fp64")] {
        let supported = get("CL_DEVICE_EXTENSIONS").contains(extension);
        for kind in ["PREFERRED", "NATIVE"] {
            let width = number(&format!("CL_DEVICE_{kind}_VECTOR_WIDTH_{ty}"));
            assert_eq!(width > 0, supported, "{kind} {ty}");
        }
    }
    for ty in ["CHAR", "SHORT", "INT", "LONG", "FLOAT"] {
        for kind in ["PREFERRED", "NATIVE"] {
            let width = number(&format!("CL_DEVICE_{kind}_VECTOR_WIDTH_{ty}"));
            assert!([1, 2, 4, 8, 16].contains(&width), "{kind} {ty}: {width}");
        }
    }
}
