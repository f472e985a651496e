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
