//! The Debian package (`[package.metadata.deb]` in the top-level
//! Cargo.toml, built by cargo-deb from `scripts/install-deps.sh`) holds the
//! ICD, the CLI and an `.icd` naming the library's installed path, depends
//! on the Vulkan loader and a Vulkan driver, and its library, taken out of
//! the package, is a working ICD. Built here from the test build's own
//! artifacts (`--no-build`), so it costs seconds; `cargo deb -p clvulkan --
//! -p clvulkan-layer` builds the release package (README, "Installing").

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn run(command: &mut Command) -> String {
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("{command:?}: {e}"));
    assert!(
        out.status.success(),
        "{command:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Builds the package from this test build's library and CLI.
fn package(dir: &Path) -> PathBuf {
    let library = common::icd_library();
    let profile = library.parent().and_then(Path::file_name).unwrap();
    let profile = if profile == "debug" { "dev" } else { "release" };
    assert!(
        Path::new(env!("CARGO_BIN_EXE_clvulkan")).starts_with(library.parent().unwrap()),
        "the CLI and the library come from one build"
    );
    let cargo_deb = Command::new(env!("CARGO"))
        .args(["deb", "--version"])
        .output()
        .is_ok_and(|out| out.status.success());
    assert!(
        cargo_deb,
        "cargo-deb is needed: bash scripts/install-deps.sh"
    );
    run(Command::new(env!("CARGO"))
        .args([
            "deb",
            "-q",
            "-p",
            "clvulkan",
            "--no-build",
            "--fast",
            "--profile",
            profile,
        ])
        .arg("-o")
        .arg(dir)
        .current_dir(env!("CARGO_MANIFEST_DIR")));
    let debs: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "deb"))
        .collect();
    assert_eq!(debs.len(), 1, "{debs:?}");
    debs[0].clone()
}

#[test]
fn the_package_registers_its_library_and_depends_on_vulkan() {
    let dir = std::env::temp_dir().join(format!("clvulkan-deb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let deb = package(&dir);
    assert!(deb
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .starts_with("clvulkan_"));

    let listing = run(Command::new("dpkg-deb").arg("-c").arg(&deb));
    let files: Vec<&str> = listing
        .lines()
        .filter_map(|line| line.split_whitespace().last())
        .collect();
    for wanted in ["./usr/bin/clvulkan", "./etc/OpenCL/vendors/clvulkan.icd"] {
        assert!(files.contains(&wanted), "{wanted} missing:\n{listing}");
    }
    // The .icd names the library by the absolute path the package puts it at.
    let root = dir.join("root");
    run(Command::new("dpkg-deb").arg("-x").arg(&deb).arg(&root));
    let named = std::fs::read_to_string(root.join("etc/OpenCL/vendors/clvulkan.icd")).unwrap();
    let named = named.trim();
    assert!(
        named.starts_with('/') && named.ends_with("/libclvulkan.so"),
        "{named}"
    );
    assert!(
        files.contains(&format!(".{named}").as_str()),
        "{named} not in:\n{listing}"
    );
    // The .icd is a configuration file: an administrator's edit survives
    // upgrades.
    let conffiles = run(Command::new("dpkg-deb")
        .arg("-I")
        .arg(&deb)
        .arg("conffiles"));
    assert!(
        conffiles.contains("/etc/OpenCL/vendors/clvulkan.icd"),
        "{conffiles}"
    );

    let depends = run(Command::new("dpkg-deb")
        .args(["-f"])
        .arg(&deb)
        .arg("Depends"));
    assert!(depends.contains("libvulkan1"), "{depends}");
    assert!(
        depends.contains("mesa-vulkan-drivers | vulkan-icd"),
        "{depends}"
    );

    // The packaged library is a working ICD: the loader, given it, lists
    // the platform and a device.
    let packaged = root.join(named.trim_start_matches('/'));
    let mut clinfo = Command::new("clinfo");
    clinfo.arg("-l");
    for (name, value) in common::opencl_env() {
        clinfo.env(name, value);
    }
    let listed = run(clinfo
        .env("OCL_ICD_VENDORS", &packaged)
        .env("OCL_ICD_FILENAMES", &packaged));
    assert!(listed.contains("Platform #0: clvulkan"), "{listed}");
    assert!(listed.contains("Device #0"), "{listed}");
    std::fs::remove_dir_all(&dir).unwrap();
}
