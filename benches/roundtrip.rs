//! Empty-kernel round trip (clEnqueueNDRangeKernel + clFinish) through the
//! ICD loader, the floor under every launch an application makes.

use criterion::{criterion_group, criterion_main, Criterion};
use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::platform::get_platforms;
use opencl3::program::Program;

/// Points the loader at the freshly built ICD unless the caller chose one
/// (`OCL_ICD_VENDORS` set: compare against another platform).
fn select_icd() {
    if std::env::var_os("OCL_ICD_VENDORS").is_some() {
        return;
    }
    let exe = std::env::current_exe().expect("bench path");
    let lib = exe
        .parent()
        .and_then(|d| d.parent())
        .expect("target/<profile>")
        .join("libclvulkan.so");
    assert!(
        lib.exists(),
        "{} missing: cargo build --release -p clvulkan-layer",
        lib.display()
    );
    // SAFETY: set before any thread that reads the environment starts.
    unsafe {
        std::env::set_var("OCL_ICD_VENDORS", &lib);
        std::env::set_var("OCL_ICD_FILENAMES", &lib);
    }
}

fn roundtrip(c: &mut Criterion) {
    select_icd();
    let platform = get_platforms().expect("platforms").remove(0);
    let device = Device::new(platform.get_devices(CL_DEVICE_TYPE_ALL).expect("devices")[0]);
    let context = Context::from_device(&device).expect("context");
    #[allow(deprecated)]
    let queue = CommandQueue::create_default(&context, 0).expect("queue");
    let repo = std::env::var("CLVULKAN_REPO").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").into());
    let source =
        std::fs::read_to_string(format!("{repo}/tests/kernels/empty.cl")).expect("empty.cl");
    let program = Program::create_and_build_from_source(&context, &source, "").expect("build");
    let kernel = Kernel::create(&program, "empty").expect("kernel");
    let name = platform.name().unwrap_or_default();
    c.bench_function(&format!("roundtrip/empty-kernel/{name}"), |b| {
        b.iter(|| {
            // SAFETY: the kernel takes no arguments.
            unsafe {
                ExecuteKernel::new(&kernel)
                    .set_global_work_size(1)
                    .enqueue_nd_range(&queue)
            }
            .expect("enqueue");
            queue.finish().expect("finish");
        })
    });
}

criterion_group!(benches, roundtrip);
criterion_main!(benches);
