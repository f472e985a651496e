//! Program-scope `__global` variables (`tests/kernels/program_globals.cl`,
//! OpenCL C 2.0 s6.8) through the ICD: the first launch sees their
//! initializers, what one launch writes (atomically from every work-item,
//! or element by element) the next launch of another kernel reads,
//! pointers to them reach helpers and are kept in pointer variables, each program (and each build of it)
//! has its own copy (a program loaded from a binary too), and
//! `CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE`
//! counts their bytes. OpenCL C 1.2 still rejects them.

mod common;

use common::launch::launch;

use common::{buffer_with, context_and_queue, read_buffer};
use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::program::Program;

const SOURCE: &str = "tests/kernels/program_globals.cl";
const OPTIONS: &str = "-cl-std=CL2.0";

/// The kernel file's initializers, as the host sees them.
const COUNTER: i32 = 5;
const TABLE: [f32; 4] = [1.0, 2.0, 3.0, 4.0];
const BYTES: [u8; 6] = [1, 2, 3, 4, 5, 6];
const BIG: i64 = 0x1_0000_0000;

fn grid() -> [[i32; 4]; 3] {
    let mut grid = [[0; 4]; 3];
    for (r, row) in grid.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            *cell = (r * 4 + c + 1) as i32;
        }
    }
    grid
}

fn build(context: &Context, options: &str) -> Result<Program, String> {
    let source = std::fs::read_to_string(common::repo_path(SOURCE)).expect("kernel source");
    Program::create_and_build_from_source(context, &source, options)
}

fn program(context: &Context) -> Program {
    build(context, OPTIONS).unwrap_or_else(|log| panic!("build failed:\n{log}"))
}

/// `counter` and `tickets`, read by the `report` kernel.
fn report(context: &Context, queue: &CommandQueue, program: &Program) -> [i32; 2] {
    let out = buffer_with(context, queue, &[-1i32; 2]);
    launch(queue, program, "report", 1, |k| {
        // SAFETY: `out` is a cl_mem of two ints, the kernel's argument.
        unsafe { k.set_arg(&out) };
    });
    let values = read_buffer(queue, &out, 2);
    [values[0], values[1]]
}

#[test]
fn the_first_launch_sees_the_initializers() {
    let (context, queue) = context_and_queue();
    let program = program(&context);
    let ints = buffer_with(&context, &queue, &[-1i32; 26]);
    let floats = buffer_with(&context, &queue, &[-1.0f32; 7]);
    let longs = buffer_with(&context, &queue, &[-1i64; 1]);
    launch(&queue, &program, "read_initial", 4, |k| {
        // SAFETY: buffers of the argument types, as large as the kernel
        // writes.
        unsafe { k.set_arg(&ints).set_arg(&floats).set_arg(&longs) };
    });
    let mut expected_ints = vec![COUNTER, 0, 7, -7, 0];
    expected_ints.extend(BYTES.iter().map(|&b| i32::from(b)));
    expected_ints.extend(grid().iter().flatten());
    expected_ints.extend([10, 20, 30]);
    assert_eq!(read_buffer(&queue, &ints, 26), expected_ints);
    let mut expected_floats = TABLE.to_vec();
    expected_floats.extend([1.0 + 4.0, -1.0, 0.5 + 2.5]);
    assert_eq!(read_buffer(&queue, &floats, 7), expected_floats);
    assert_eq!(read_buffer(&queue, &longs, 1), [BIG]);
}

#[test]
fn atomic_counts_persist_into_later_launches() {
    let (context, queue) = context_and_queue();
    let program = program(&context);
    let work_items = 4096;
    let count = |program: &Program| launch(&queue, program, "count", work_items, |_| {});
    count(&program);
    let n = work_items as i32;
    assert_eq!(report(&context, &queue, &program), [COUNTER + n, 2 * n]);
    count(&program);
    assert_eq!(report(&context, &queue, &program), [COUNTER + 2 * n, 4 * n]);
    // Back to back in the in-order queue, with no wait between them: the
    // queue orders the launches' accesses to the variables.
    let kernel = Kernel::create(&program, "count").expect("kernel");
    for _ in 0..3 {
        // SAFETY: `count` takes no arguments.
        unsafe {
            ExecuteKernel::new(&kernel)
                .set_global_work_size(work_items)
                .enqueue_nd_range(&queue)
        }
        .expect("enqueue");
    }
    assert_eq!(
        report(&context, &queue, &program),
        [COUNTER + 5 * n, 10 * n]
    );
}

#[test]
fn indexed_writes_to_arrays_and_structs_persist() {
    let (context, queue) = context_and_queue();
    let program = program(&context);
    let factor = 2.5f32;
    launch(&queue, &program, "scale_tables", 16, |k| {
        // SAFETY: the kernel's one argument is a float.
        unsafe { k.set_arg(&factor) };
    });
    let floats = buffer_with(&context, &queue, &[-1.0f32; 6]);
    let ints = buffer_with(&context, &queue, &[-1i32; 20]);
    let longs = buffer_with(&context, &queue, &[-1i64; 1]);
    launch(&queue, &program, "read_tables", 16, |k| {
        // SAFETY: buffers of the argument types, as large as the kernel
        // writes.
        unsafe { k.set_arg(&floats).set_arg(&ints).set_arg(&longs) };
    });
    let mut expected_floats: Vec<f32> = TABLE.iter().map(|v| v * factor).collect();
    expected_floats.extend([0.0, factor]);
    assert_eq!(read_buffer(&queue, &floats, 6), expected_floats);
    let mut expected_ints: Vec<i32> = grid()
        .iter()
        .flatten()
        .enumerate()
        .map(|(i, v)| v + i as i32 * 100)
        .collect();
    expected_ints.extend([7 + 1, -7 + 2]);
    expected_ints.extend(BYTES.iter().map(|&b| i32::from(b * 3)));
    assert_eq!(read_buffer(&queue, &ints, 20), expected_ints);
    assert_eq!(read_buffer(&queue, &longs, 1), [BIG + 5]);
}

#[test]
fn pointers_to_globals_reach_helpers() {
    let (context, queue) = context_and_queue();
    let program = program(&context);
    let out = buffer_with(&context, &queue, &[-1.0f32; 4]);
    let amount = 7i32;
    launch(&queue, &program, "through_pointers", 1, |k| {
        // SAFETY: a float buffer of four and an int, the argument types.
        unsafe { k.set_arg(&out).set_arg(&amount) };
    });
    let total: f32 = TABLE.iter().sum();
    let expected = [
        total,
        total - TABLE[0],
        (COUNTER + amount) as f32,
        (grid()[2][1] + amount) as f32,
    ];
    assert_eq!(read_buffer(&queue, &out, 4), expected);
    // The helper's writes are in the variables themselves.
    assert_eq!(report(&context, &queue, &program), [COUNTER + amount, 0]);
}

#[test]
fn statics_and_extern_declarations_name_one_object() {
    let (context, queue) = context_and_queue();
    let program = program(&context);
    for launch_number in 0..3 {
        let out = buffer_with(&context, &queue, &[-1i32; 3]);
        launch(&queue, &program, "count_calls", 8, |k| {
            // SAFETY: `out` is a cl_mem of three ints, the kernel's argument.
            unsafe { k.set_arg(&out) };
        });
        assert_eq!(
            read_buffer(&queue, &out, 3),
            [launch_number, 100 + launch_number, 5],
            "launch {launch_number}"
        );
    }
}

#[test]
fn a_pointer_variable_keeps_where_it_points() {
    let (context, queue) = context_and_queue();
    let program = program(&context);
    // `cursor` starts at walk + 1 and moves on by 2 per launch; `nowhere`
    // starts null and is pointed at walk[7] by the first launch.
    let walk: Vec<i32> = (10..18).collect();
    for launch_number in 0..3usize {
        let out = buffer_with(&context, &queue, &[-1i32; 4]);
        launch(&queue, &program, "step", 4, |k| {
            // SAFETY: `out` is a cl_mem of four ints, the kernel's argument.
            unsafe { k.set_arg(&out) };
        });
        let at = 1 + 2 * launch_number;
        let was_null = i32::from(launch_number == 0);
        assert_eq!(
            read_buffer(&queue, &out, 4),
            [walk[at], at as i32, was_null, walk[7]],
            "launch {launch_number}"
        );
    }
}

#[test]
fn each_program_and_each_build_has_its_own_copy() {
    let (context, queue) = context_and_queue();
    let mut first = program(&context);
    let second = program(&context);
    launch(&queue, &first, "count", 64, |_| {});
    assert_eq!(report(&context, &queue, &second), [COUNTER, 0]);
    assert_eq!(report(&context, &queue, &first), [COUNTER + 64, 128]);
    // Building again starts over from the initializers.
    first.build(context.devices(), OPTIONS).expect("rebuild");
    assert_eq!(report(&context, &queue, &first), [COUNTER, 0]);
}

#[test]
fn a_program_loaded_from_its_binary_starts_from_the_initializers() {
    let (context, queue) = context_and_queue();
    let original = program(&context);
    launch(&queue, &original, "count", 16, |_| {});
    let binaries = original.get_binaries().expect("binaries");
    let slices: Vec<&[u8]> = binaries.iter().map(Vec::as_slice).collect();
    let loaded = Program::create_and_build_from_binary(&context, &slices, OPTIONS)
        .expect("build from binary");
    assert_eq!(report(&context, &queue, &loaded), [COUNTER, 0]);
    launch(&queue, &loaded, "count", 8, |_| {});
    assert_eq!(report(&context, &queue, &loaded), [COUNTER + 8, 16]);
    assert_eq!(report(&context, &queue, &original), [COUNTER + 16, 32]);
}

/// Variables whose sizes the host adds up: the block holds exactly their
/// bytes (the translator puts larger units first, so none needs padding
/// whatever the declaration order).
const SIZED: &str = "
    global uchar flags[3] = { 1, 2, 3 };
    global int count = 1;
    global long total;
    global float4 colours[2];
    global struct pair { long a; long b; } pairs[3];
    kernel void touch(global long *out)
    {
        out[0] = flags[2] + count + total + (long)colours[1].x + pairs[2].b;
    }";

#[repr(C)]
struct Pair {
    _a: i64,
    _b: i64,
}

#[test]
fn total_size_counts_the_variables_bytes() {
    let (context, queue) = context_and_queue();
    let sized = common::launch::build_source(&context, SIZED, OPTIONS);
    let device = context.devices()[0];
    let expected = std::mem::size_of::<[u8; 3]>()
        + std::mem::size_of::<i32>()
        + std::mem::size_of::<i64>()
        + std::mem::size_of::<[[f32; 4]; 2]>()
        + std::mem::size_of::<[Pair; 3]>();
    assert_eq!(
        sized
            .get_build_global_variable_total_size(device)
            .expect("total size"),
        expected
    );
    // The variables are where the kernel looks for them.
    let out = buffer_with(&context, &queue, &[-1i64; 1]);
    launch(&queue, &sized, "touch", 1, |k| {
        // SAFETY: `out` is a cl_mem of one long, the kernel's argument.
        unsafe { k.set_arg(&out) };
    });
    assert_eq!(read_buffer(&queue, &out, 1), [3 + 1]);
    let none = Program::create_and_build_from_source(
        &context,
        "kernel void k(global int *p) { p[0] = 1; }",
        OPTIONS,
    )
    .expect("build");
    assert_eq!(
        none.get_build_global_variable_total_size(device)
            .expect("total size"),
        0
    );
}

#[test]
fn opencl_c_1_2_rejects_them() {
    let (context, _queue) = context_and_queue();
    let log = match build(&context, "-cl-std=CL1.2") {
        Ok(_) => panic!("program-scope __global variables built as OpenCL C 1.2"),
        Err(log) => log,
    };
    assert!(
        log.contains("program scope variable must reside in constant address space"),
        "{log}"
    );
}

#[test]
fn byte_images_narrow_and_wide_types_keep_their_values() {
    let (context, queue) = context_and_queue();
    let source =
        std::fs::read_to_string(common::repo_path("tests/kernels/program_globals_types.cl"))
            .expect("kernel source");
    let program = common::launch::build_source(&context, &source, OPTIONS);
    let run = || {
        let out = buffer_with(&context, &queue, &[-1i32; 22]);
        launch(&queue, &program, "read_and_update", 4, |k| {
            // SAFETY: `out` is a cl_mem of 22 ints, the kernel's argument.
            unsafe { k.set_arg(&out) };
        });
        read_buffer(&queue, &out, 22)
    };
    let wide_bits: u64 = 0xffff_ffff_0000_0001;
    let first = run();
    let mut expected: Vec<i32> = (1..=9).collect();
    expected.extend([1, -2, 3, 0x3f80_0000, 4, -1, 2, -3, 3, 7]);
    expected.extend([(wide_bits >> 32) as i32, wide_bits as i32, 1 + 8]);
    assert_eq!(first, expected, "first launch");
    let second = run();
    let mut expected = vec![1, 12, 3, 4, 15, 6, 7, 18, 9, 2, -4, 6];
    expected.extend([2.0f32.to_bits() as i32, 8, -1, 20, -3, 3, 20]);
    let bumped = wide_bits + 1;
    expected.extend([(bumped >> 32) as i32, bumped as i32, 1 + 80]);
    assert_eq!(second, expected, "second launch");
}

#[test]
fn the_device_reports_the_feature_and_its_limits() {
    let (context, _queue) = context_and_queue();
    let device = opencl3::device::Device::new(context.devices()[0]);
    let names: Vec<String> = device
        .opencl_c_features()
        .expect("features")
        .iter()
        .map(|f| {
            let end = f.name.iter().position(|&b| b == 0).unwrap_or(f.name.len());
            String::from_utf8_lossy(&f.name[..end]).into_owned()
        })
        .collect();
    assert!(
        names
            .iter()
            .any(|n| n == "__opencl_c_program_scope_global_variables"),
        "{names:?}"
    );
    // OpenCL 3.0's minimum for a device with the feature.
    let max = device.max_global_variable_size().expect("max size");
    assert!(max >= 64 * 1024, "{max}");
    let preferred = device
        .global_variable_preferred_total_size()
        .expect("preferred total size");
    assert!(preferred > 0, "no preferred total size");
}
