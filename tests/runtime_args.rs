//! Kernel arguments and attributes as the OpenCL-CTS found them on lavapipe
//! (issue 19): `__local` chars and shorts at their real size, NULL `cl_mem`
//! arguments that read as null pointers, `CL_KERNEL_ATTRIBUTES` with
//! `vec_type_hint`, and as many `__constant` arguments as
//! `CL_DEVICE_MAX_CONSTANT_ARGS` promises, each checked against the host.

mod common;

use opencl3::context::Context;
use opencl3::kernel::{set_kernel_arg, Kernel};
use opencl3::memory::{Buffer, ClMem, CL_MEM_READ_ONLY};
use opencl3::program::Program;
use opencl3::types::{cl_mem, CL_BLOCKING};
use std::ptr;

fn build(context: &Context, source: &str) -> Program {
    Program::create_and_build_from_source(context, source, "")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"))
}

fn kernel_file(context: &Context, file: &str) -> Program {
    let source = std::fs::read_to_string(common::repo_path(file)).expect("kernel source");
    build(context, &source)
}

fn run(queue: &opencl3::command_queue::CommandQueue, kernel: &Kernel, global: usize, local: usize) {
    let (global, local) = ([global], [local]);
    // SAFETY: each caller set every argument of the kernel to match it;
    // the sizes are one-dimensional arrays that outlive the call.
    unsafe {
        queue.enqueue_nd_range_kernel(
            kernel.get(),
            1,
            ptr::null(),
            global.as_ptr(),
            local.as_ptr(),
            &[],
        )
    }
    .expect("enqueue");
    queue.finish().expect("finish");
}

/// A 16 KiB `__local uchar` argument next to 14 KiB of `__local` uchar and
/// short2 arrays: 30 KiB in all, which fit a CPU device's 32 KiB only at
/// their real size (each `char` took 4 bytes before).
#[test]
fn local_chars_and_shorts_take_their_real_size() {
    let (context, queue) = common::context_and_queue();
    let device = context.devices()[0];
    let program = kernel_file(&context, "tests/kernels/narrow_local.cl");
    let kernel = Kernel::create(&program, "local_bytes").expect("kernel");
    let (groups, n) = (2usize, 64usize);
    let input: Vec<u8> = (0..groups * 16384)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 7) as u8)
        .collect();
    let in_buf = common::buffer_with(&context, &queue, &input);
    let out_buf = common::buffer_with(&context, &queue, &vec![0u8; groups * 16384]);
    let words_buf = common::buffer_with(&context, &queue, &vec![0u32; groups * 4096]);
    // SAFETY: arguments match the kernel's parameters.
    unsafe {
        kernel.set_arg(0, &in_buf.get()).expect("arg 0");
        kernel.set_arg(1, &out_buf.get()).expect("arg 1");
        kernel.set_arg_local_buffer(2, 16384).expect("arg 2");
        kernel.set_arg(3, &words_buf.get()).expect("arg 3");
    }
    let local_mem = kernel.get_local_mem_size(device).expect("local mem size");
    assert_eq!(local_mem, 12288 + 2048 + 16384, "CL_KERNEL_LOCAL_MEM_SIZE");
    run(&queue, &kernel, groups * n, n);
    let out = common::read_buffer(&queue, &out_buf, groups * 16384);
    let words = common::read_buffer(&queue, &words_buf, groups * 4096);
    let tile = |j: usize| ((j / n) * 7 + j % n) as u8;
    for g in 0..groups {
        let scratch: Vec<u8> = (0..16384)
            .map(|j| input[g * 16384 + j].wrapping_add(1))
            .collect();
        for j in 0..16384 {
            let want = scratch[j] ^ tile(j % 12288);
            assert_eq!(out[g * 16384 + j], want, "group {g} byte {j}");
        }
        for l in 0..n {
            let want = u32::from_le_bytes(scratch[4 * l..4 * l + 4].try_into().unwrap());
            assert_eq!(
                words[g * 4096 + l],
                want,
                "group {g} word {l} of the argument"
            );
            let j = (l * 5) % 512;
            let (x, y) = ((j % n) as i16 - (j / n) as i16, ((j / n) * 300) as i16);
            let want = u32::from(x as u16) | u32::from(y as u16) << 16;
            assert_eq!(words[g * 4096 + n + l], want, "group {g} short2 {j}");
        }
    }

    let kernel = Kernel::create(&program, "local_shorts").expect("kernel");
    let input: Vec<i16> = (0..n as i32).map(|i| (i * 1237 - 20000) as i16).collect();
    let in_buf = common::buffer_with(&context, &queue, &input);
    let out_buf = common::buffer_with(&context, &queue, &vec![0i16; n]);
    // SAFETY: arguments match the kernel's parameters.
    unsafe {
        kernel.set_arg(0, &in_buf.get()).expect("arg 0");
        kernel.set_arg(1, &out_buf.get()).expect("arg 1");
        kernel.set_arg_local_buffer(2, 2 * n).expect("arg 2");
        kernel.set_arg_local_buffer(3, 4 * n).expect("arg 3");
    }
    assert_eq!(
        kernel.get_local_mem_size(device).expect("size"),
        6 * n as u64
    );
    run(&queue, &kernel, n, n);
    let out = common::read_buffer(&queue, &out_buf, n);
    for (l, &got) in out.iter().enumerate() {
        let r = n - 1 - l;
        let c = [r as i8, (-(r as i32)) as i8, (r * 3) as i8].map(i32::from);
        let want = (i32::from(input[r].wrapping_mul(3)) + c.iter().sum::<i32>()) as i16;
        assert_eq!(got, want, "work-item {l}");
    }
}

/// NULL `cl_mem` arguments, set through a pointer to NULL and as a NULL
/// `arg_value`, compare equal to 0 and to each other in the kernel and in
/// a helper, as hashcat's kernels rely on.
#[test]
fn null_buffer_arguments_are_null_pointers() {
    let (context, queue) = common::context_and_queue();
    let program = kernel_file(&context, "tests/kernels/null_buffer_args.cl");
    let kernel = Kernel::create(&program, "null_args").expect("kernel");
    let n = 16;
    let data: Vec<i32> = (0..n as i32).map(|i| i * 11 - 40).collect();
    let data_buf = common::buffer_with(&context, &queue, &data);
    let out_buf = common::buffer_with(&context, &queue, &vec![0i32; 2 * n]);
    let null: cl_mem = ptr::null_mut();
    let set_null_value = |index| {
        // SAFETY: a NULL arg_value for a buffer argument, which the spec
        // allows.
        unsafe { set_kernel_arg(kernel.get(), index, size_of::<cl_mem>(), ptr::null()) }
            .expect("NULL arg_value");
    };
    // (maybe, also_maybe) -> the flags every work-item must see.
    type Case<'a> = (Option<&'a Buffer<i32>>, Option<&'a Buffer<i32>>, i32);
    let cases: [Case; 3] = [
        (None, None, 1 | 2 | 4 | 8 | 32),
        (Some(&data_buf), None, 2 | 32),
        (None, Some(&data_buf), 1 | 8 | 32),
    ];
    for (maybe, also_maybe, flags) in cases {
        // SAFETY: arguments match the kernel's parameters.
        unsafe {
            match maybe {
                Some(b) => kernel.set_arg(0, &b.get()),
                None => kernel.set_arg(0, &null),
            }
            .expect("arg 0");
            kernel.set_arg(1, &out_buf.get()).expect("arg 1");
            match also_maybe {
                Some(b) => kernel.set_arg(2, &b.get()).expect("arg 2"),
                None => set_null_value(2),
            }
        }
        run(&queue, &kernel, n, n);
        let out = common::read_buffer(&queue, &out_buf, 2 * n);
        for i in 0..n {
            let value = if maybe.is_some() { data[i] } else { -1 };
            assert_eq!(
                (out[2 * i], out[2 * i + 1]),
                (flags, value),
                "work-item {i}, maybe {:?}, also_maybe {:?}",
                maybe.is_some(),
                also_maybe.is_some()
            );
        }
    }
}

/// `CL_KERNEL_ATTRIBUTES` lists the kernel attributes as clang spells them,
/// `vec_type_hint` included (a typedef by the type it names).
#[test]
fn kernel_attributes_include_vec_type_hint() {
    let (context, _queue) = common::context_and_queue();
    let source = "typedef uchar8 bytes8;\n\
        __attribute__((vec_type_hint(float4))) __attribute__((reqd_work_group_size(1,2,3)))\n\
        __kernel void a(__global int *p) { p[0] = 1; }\n\
        __attribute__((work_group_size_hint(8, 1, 1))) __attribute__((vec_type_hint(bytes8)))\n\
        __kernel void b(__global int *p) { p[0] = 2; }\n\
        __attribute__((vec_type_hint(double))) __kernel void c(__global int *p) { p[0] = 3; }\n\
        __kernel void d(__global int *p) { p[0] = 4; }\n";
    let program = build(&context, source);
    let attributes = |name| {
        Kernel::create(&program, name)
            .expect("kernel")
            .attributes()
            .expect("CL_KERNEL_ATTRIBUTES")
    };
    assert_eq!(
        attributes("a"),
        "vec_type_hint(float4) reqd_work_group_size(1,2,3)"
    );
    assert_eq!(
        attributes("b"),
        "work_group_size_hint(8,1,1) vec_type_hint(uchar8)"
    );
    assert_eq!(attributes("c"), "vec_type_hint(double)");
    assert_eq!(attributes("d"), "");
}

/// `CL_KERNEL_ARG_TYPE_QUALIFIER` is a `cl_bitfield`, 8 bytes (it was
/// answered in the 4 of opencl-sys's `cl_uint` type, issue 20).
#[test]
fn kernel_arg_type_qualifiers_are_bitfields() {
    use opencl3::kernel::{
        get_kernel_arg_data, CL_KERNEL_ARG_TYPE_CONST, CL_KERNEL_ARG_TYPE_QUALIFIER,
        CL_KERNEL_ARG_TYPE_RESTRICT, CL_KERNEL_ARG_TYPE_VOLATILE,
    };
    let (context, _queue) = common::context_and_queue();
    let source = "kernel void k(global const int *restrict a, global volatile int *b, int c) { b[0] = a[0] + c; }";
    let program = Program::create_and_build_from_source(&context, source, "-cl-kernel-arg-info")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"));
    let kernel = Kernel::create(&program, "k").expect("kernel");
    let expected = [
        u64::from(CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT),
        u64::from(CL_KERNEL_ARG_TYPE_VOLATILE),
        0,
    ];
    for (index, want) in expected.into_iter().enumerate() {
        let bytes = get_kernel_arg_data(kernel.get(), index as u32, CL_KERNEL_ARG_TYPE_QUALIFIER)
            .expect("CL_KERNEL_ARG_TYPE_QUALIFIER");
        assert_eq!(bytes.len(), 8, "argument {index}: a cl_bitfield");
        let got = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
        assert_eq!(got, want, "argument {index}");
    }
}

/// A kernel with `CL_DEVICE_MAX_CONSTANT_ARGS` `__constant` arguments and a
/// `__global` one for its result runs, and that number is at least the
/// full profile's 8.
#[test]
fn max_constant_args_run() {
    let (context, queue) = common::context_and_queue();
    let device = opencl3::device::Device::new(context.devices()[0]);
    let count = device
        .max_constant_args()
        .expect("CL_DEVICE_MAX_CONSTANT_ARGS") as usize;
    assert!(count >= 8, "CL_DEVICE_MAX_CONSTANT_ARGS {count} under 8");
    let params: Vec<String> = (0..count)
        .map(|k| format!("__constant int *c{k}"))
        .collect();
    let sum: Vec<String> = (0..count).map(|k| format!("c{k}[i] * {}", k + 1)).collect();
    let source = format!(
        "__kernel void sum({}, __global int *out) {{ size_t i = get_global_id(0); out[i] = {}; }}",
        params.join(", "),
        sum.join(" + ")
    );
    let program = build(&context, &source);
    let kernel = Kernel::create(&program, "sum").expect("kernel");
    let n = 8;
    let tables: Vec<Vec<i32>> = (0..count)
        .map(|k| (0..n as i32).map(|i| i * 3 + k as i32 * 5 - 7).collect())
        .collect();
    let buffers: Vec<Buffer<i32>> = tables
        .iter()
        .map(|t| {
            // SAFETY: a null host pointer with no host-pointer flag.
            let mut b =
                unsafe { Buffer::<i32>::create(&context, CL_MEM_READ_ONLY, n, ptr::null_mut()) }
                    .expect("buffer");
            // SAFETY: blocking, so `t` outlives the transfer.
            unsafe { queue.enqueue_write_buffer(&mut b, CL_BLOCKING, 0, t, &[]) }.expect("write");
            b
        })
        .collect();
    let out_buf = common::buffer_with(&context, &queue, &vec![0i32; n]);
    for (k, b) in buffers.iter().enumerate() {
        // SAFETY: a buffer for a `__constant int *` parameter.
        unsafe { kernel.set_arg(k as u32, &b.get()) }.expect("constant arg");
    }
    // SAFETY: the result buffer for the last parameter.
    unsafe { kernel.set_arg(count as u32, &out_buf.get()) }.expect("out arg");
    run(&queue, &kernel, n, 1);
    let out = common::read_buffer(&queue, &out_buf, n);
    for i in 0..n {
        let want: i32 = (0..count).map(|k| tables[k][i] * (k as i32 + 1)).sum();
        assert_eq!(out[i], want, "work-item {i}");
    }
}
