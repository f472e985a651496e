//! `clvulkan install --prefix DIR` puts the library and the CLI under the
//! prefix and an `.icd` naming the installed library beside them, which the
//! real loader then follows to a working platform; `clvulkan uninstall`
//! takes it all away and leaves another install's `.icd` alone.

mod common;

use std::path::Path;
use std::process::Command;

fn clvulkan(args: &[&str], prefix: &Path) -> std::process::Output {
    let out = Command::new(env!("CARGO_BIN_EXE_clvulkan"))
        .args(args)
        .arg("--prefix")
        .arg(prefix)
        .env("CLVULKAN_LIBRARY", common::icd_library())
        .output()
        .expect("run clvulkan");
    assert!(
        out.status.success(),
        "clvulkan {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn install_into_a_prefix_registers_the_library_and_uninstall_removes_it() {
    let prefix = std::env::temp_dir().join(format!("clvulkan-install-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&prefix);
    let out = clvulkan(&["install"], &prefix);
    let said = String::from_utf8_lossy(&out.stdout);

    let library = prefix.join("lib/libclvulkan.so");
    let program = prefix.join("bin/clvulkan");
    let vendors = prefix.join("etc/OpenCL/vendors");
    let icd = vendors.join("clvulkan.icd");
    assert_eq!(
        std::fs::read(&library).unwrap(),
        std::fs::read(common::icd_library()).unwrap()
    );
    assert!(program.exists());
    assert_eq!(
        std::fs::read_to_string(&icd).unwrap().trim(),
        library.to_str().unwrap()
    );
    assert!(
        said.contains(&format!("OCL_ICD_VENDORS={}", vendors.display())),
        "{said}"
    );

    // The loader, pointed at the installed folder of .icd files, finds the
    // installed library and a device on it.
    let clinfo = Command::new("clinfo")
        .arg("-l")
        .env("OCL_ICD_VENDORS", &vendors)
        .env_remove("OCL_ICD_FILENAMES")
        .output()
        .expect("clinfo");
    let listed = String::from_utf8_lossy(&clinfo.stdout);
    assert!(listed.contains("Platform #0: clvulkan"), "{listed}");
    assert!(listed.contains("Device #0"), "{listed}");

    // The installed CLI finds the installed library for `run`.
    let run = Command::new(&program)
        .args(["run", "--", "clinfo", "-l"])
        .env_remove("CLVULKAN_LIBRARY")
        .output()
        .expect("installed clvulkan");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(String::from_utf8_lossy(&run.stdout).contains("clvulkan"));

    // An .icd naming another library is not this install's to remove.
    std::fs::write(&icd, "/usr/lib/libclvulkan.so\n").unwrap();
    let refused = Command::new(env!("CARGO_BIN_EXE_clvulkan"))
        .args(["uninstall", "--prefix"])
        .arg(&prefix)
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(icd.exists() && library.exists());
    std::fs::write(&icd, format!("{}\n", library.display())).unwrap();

    clvulkan(&["uninstall"], &prefix);
    assert!(!library.exists() && !program.exists() && !icd.exists());
    // Again: nothing left to remove is not an error.
    clvulkan(&["uninstall"], &prefix);
    std::fs::remove_dir_all(&prefix).unwrap();
}
