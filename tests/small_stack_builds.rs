//! Issue 18's build reproducers through the C ABI, from a thread with a
//! 1 MiB stack as an application's may have: a 6,000-term chain builds
//! and computes its sum, and the initializer that once hung
//! `clBuildProgram` fails with clang's diagnostic in the build log.

mod common;

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::CL_BLOCKING;
use std::ptr;

const TERMS: usize = 6_000;

fn on_small_stack(job: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(job)
        .expect("spawn")
        .join()
        .expect("the thread panicked");
}

fn setup() -> (Context, CommandQueue) {
    // The loader reads these on its first call; every test sets the same.
    for (k, v) in common::opencl_env() {
        // SAFETY: tests in this binary only ever set these same values.
        unsafe { std::env::set_var(k, v) };
    }
    let platforms = get_platforms().expect("platforms");
    let ids = platforms[0]
        .get_devices(CL_DEVICE_TYPE_ALL)
        .expect("devices");
    let context = Context::from_device(&Device::new(ids[0])).expect("context");
    #[allow(deprecated)]
    let queue = CommandQueue::create_default(&context, 0).expect("queue");
    (context, queue)
}

#[test]
fn a_long_chain_builds_and_runs_from_a_small_stack() {
    on_small_stack(|| {
        let (context, queue) = setup();
        let sum = vec!["a[1]"; TERMS].join(" + ");
        let source = format!("kernel void k(global int *a) {{ a[0] = {sum}; }}\n");
        let program = Program::create_and_build_from_source(&context, &source, "")
            .unwrap_or_else(|log| panic!("build failed:\n{log}"));
        let kernel = Kernel::create(&program, "k").expect("kernel");
        // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
        let mut a =
            unsafe { Buffer::<i32>::create(&context, CL_MEM_READ_WRITE, 2, ptr::null_mut()) }
                .expect("buffer");
        // SAFETY: blocking, so the data outlives the transfer.
        unsafe { queue.enqueue_write_buffer(&mut a, CL_BLOCKING, 0, &[0, 3], &[]) }.expect("write");
        // SAFETY: the argument matches the kernel's signature.
        unsafe {
            ExecuteKernel::new(&kernel)
                .set_arg(&a)
                .set_global_work_size(1)
                .enqueue_nd_range(&queue)
        }
        .expect("enqueue");
        let mut out = [0i32; 2];
        // SAFETY: blocking, so `out` outlives the transfer.
        unsafe { queue.enqueue_read_buffer(&a, CL_BLOCKING, 0, &mut out, &[]) }.expect("read");
        assert_eq!(out[0], 3 * TERMS as i32);
    });
}

#[test]
fn the_initializer_that_hung_fails_with_a_diagnostic() {
    on_small_stack(|| {
        let (context, _queue) = setup();
        let source = "struct S { float2 b; };\n\
                      kernel void k(global float *o){ struct S s = {.b = (float4)(1.0f)}; o[0]=s.b.x; }\n";
        match Program::create_and_build_from_source(&context, source, "") {
            Ok(_) => panic!("the build succeeded"),
            Err(log) => assert!(
                log.contains(
                    "2:52: error: initializing 'float2' with an expression of incompatible type 'float4'"
                ),
                "{log}"
            ),
        }
    });
}
