//! Shared set-up for the end-to-end tests: where the ICD library is, and an
//! environment that makes the OpenCL loader see clvulkan alone with the
//! Vulkan validation layers on and fatal.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The target directory's profile folder (`target/debug`), found from the
/// test executable (`target/debug/deps/test-hash`).
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    exe.parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps")
        .to_path_buf()
}

/// `libclvulkan.so`, built once if it is not there yet (cargo does not build
/// a dependency's cdylib for tests).
pub fn icd_library() -> &'static Path {
    static LIB: OnceLock<PathBuf> = OnceLock::new();
    LIB.get_or_init(|| {
        if let Some(p) = std::env::var_os("CLVULKAN_LIBRARY") {
            return PathBuf::from(p);
        }
        let dir = profile_dir();
        let lib = dir.join("libclvulkan.so");
        let release = dir.file_name().is_some_and(|n| n == "release");
        let mut cargo = Command::new(env!("CARGO"));
        cargo.args(["build", "-q", "-p", "clvulkan-layer", "--lib"]);
        if release {
            cargo.arg("--release");
        }
        // Cheap when up to date; makes a stale library impossible.
        let status = cargo
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("run cargo");
        assert!(status.success(), "building libclvulkan.so failed");
        assert!(lib.exists(), "{} missing after build", lib.display());
        lib
    })
}

/// Environment for a child process (or this one) that loads OpenCL: only
/// clvulkan, validation fatal.
pub fn opencl_env() -> Vec<(&'static str, String)> {
    let lib = icd_library().display().to_string();
    vec![
        ("OCL_ICD_VENDORS", lib.clone()),
        ("OCL_ICD_FILENAMES", lib),
        // Fatal unless the caller chose (a GPU machine without the layers).
        (
            "CLVULKAN_VALIDATION",
            std::env::var("CLVULKAN_VALIDATION").unwrap_or_else(|_| "fatal".into()),
        ),
    ]
}

/// Runs `cmd` with [`opencl_env`] and checks that it succeeded and that the
/// validation layers said nothing.
pub fn run_checked(cmd: &mut Command) -> Output {
    for (k, v) in opencl_env() {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("spawn");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    assert!(
        !stderr.contains("vulkan validation"),
        "validation messages:\n{stderr}"
    );
    out
}

/// Runs test `name` of this test binary in a child process with `marker`
/// set (the child test does its work only then), checked as
/// [`run_checked`] does, and returns its stdout: for output that goes to the
/// process's stdout, such as `printf`'s, which libtest would capture.
pub fn run_child_test(name: &str, marker: &str) -> String {
    let mut child = Command::new(std::env::current_exe().expect("test executable"));
    child
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env(marker, "1");
    let output = run_checked(&mut child);
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Compiles a C host program against the Khronos headers, clvulkan's own
/// (`layer/include`) and ocl-icd.
pub fn compile_c(source: &Path, name: &str) -> PathBuf {
    let out = std::env::temp_dir().join(format!("clvulkan-{name}-{}", std::process::id()));
    let status = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .arg("-O1")
        .arg("-Wall")
        .arg("-Werror")
        .arg("-I")
        .arg(repo_path("layer/include"))
        .arg(source)
        .arg("-o")
        .arg(&out)
        .args(["-lOpenCL", "-lm"])
        .status()
        .expect("a C compiler (cc) must be installed");
    assert!(status.success(), "compiling {} failed", source.display());
    out
}

/// A file of the repository; `CLVULKAN_REPO` overrides the checkout the
/// test was built in (for test binaries carried to another machine).
pub fn repo_path(relative: &str) -> PathBuf {
    std::env::var_os("CLVULKAN_REPO")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from)
        .join(relative)
}

/// Points this process's OpenCL loader at clvulkan ([`opencl_env`]), then
/// opens the first device: its context and an in-order queue.
pub fn context_and_queue() -> (
    opencl3::context::Context,
    opencl3::command_queue::CommandQueue,
) {
    for (k, v) in opencl_env() {
        // SAFETY: tests that call this set the environment before the
        // loader or any other thread reads it.
        unsafe { std::env::set_var(k, v) };
    }
    let platform = opencl3::platform::get_platforms()
        .expect("platforms")
        .remove(0);
    let ids = platform
        .get_devices(opencl3::device::CL_DEVICE_TYPE_ALL)
        .expect("devices");
    let device = opencl3::device::Device::new(ids[0]);
    let context = opencl3::context::Context::from_device(&device).expect("context");
    #[allow(deprecated)]
    let queue = opencl3::command_queue::CommandQueue::create_default(&context, 0).expect("queue");
    (context, queue)
}

/// A read-write buffer holding `data`, written before this returns.
pub fn buffer_with<T>(
    context: &opencl3::context::Context,
    queue: &opencl3::command_queue::CommandQueue,
    data: &[T],
) -> opencl3::memory::Buffer<T> {
    use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
    // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
    let mut b = unsafe {
        Buffer::<T>::create(context, CL_MEM_READ_WRITE, data.len(), std::ptr::null_mut())
    }
    .expect("create buffer");
    // SAFETY: blocking, so `data` outlives the transfer.
    unsafe { queue.enqueue_write_buffer(&mut b, opencl3::types::CL_BLOCKING, 0, data, &[]) }
        .expect("write");
    b
}

/// The first `n` elements of `buffer`.
pub fn read_buffer<T: Clone + Default>(
    queue: &opencl3::command_queue::CommandQueue,
    buffer: &opencl3::memory::Buffer<T>,
    n: usize,
) -> Vec<T> {
    let mut out = vec![T::default(); n];
    // SAFETY: blocking, so `out` outlives the transfer, and `n` is at most
    // the buffer's length at every caller.
    unsafe { queue.enqueue_read_buffer(buffer, opencl3::types::CL_BLOCKING, 0, &mut out, &[]) }
        .expect("read");
    out
}

pub mod dd;
pub mod fp16;
pub mod il;
pub mod image_api;
pub mod image_model;
pub mod launch;
pub mod sweep;
pub mod two_over_pi;
pub mod ulp;
