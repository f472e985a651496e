//! 64-bit `clz`, `ctz`, `popcount`, `rotate`, `mul_hi`, `mad_hi`,
//! `mad_sat` (built from 32-bit pieces: Vulkan's bit instructions are
//! 32-bit) and `mad_sat`/`upsample` on every width, through the ICD,
//! against 128-bit host arithmetic over random and edge operands.

mod common;

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::program::Program;
use opencl3::types::CL_BLOCKING;
use std::ptr;

const N: usize = 2048;

fn operands() -> (Vec<u64>, Vec<u64>) {
    let mut s = 0x0123_4567_89ab_cdefu64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let edges = [
        0,
        1,
        u64::MAX,
        1 << 63,
        (1 << 63) - 1,
        1 << 32,
        u64::from(u32::MAX),
    ];
    let mut a = Vec::new();
    let mut b = Vec::new();
    for i in 0..N {
        let (x, y) = (next(), next());
        let (x, y) = match i % 5 {
            0 => (edges[i / 5 % edges.len()], y),
            1 => (x, edges[i / 5 % edges.len()]),
            2 => (x >> (y % 64), y >> (x % 64)),
            _ => (x, y),
        };
        a.push(x);
        b.push(y);
    }
    (a, b)
}

/// Runs kernel `name` on operand vectors `a` and `b`, with `outputs`
/// results of type `U` per work-item.
fn run<T: Copy, U: Copy + Default>(
    context: &Context,
    queue: &CommandQueue,
    program: &Program,
    name: &str,
    (a, b): (&[T], &[T]),
    outputs: usize,
) -> Vec<U> {
    let kernel = Kernel::create(program, name).expect("kernel");
    let mut got = vec![U::default(); a.len() * outputs];
    // SAFETY: null host pointers; blocking transfers of vectors of the
    // buffers' sizes; the kernels take three buffers.
    unsafe {
        let mut da =
            Buffer::<T>::create(context, CL_MEM_READ_WRITE, a.len(), ptr::null_mut()).expect("a");
        let mut db =
            Buffer::<T>::create(context, CL_MEM_READ_WRITE, b.len(), ptr::null_mut()).expect("b");
        let out = Buffer::<U>::create(context, CL_MEM_READ_WRITE, got.len(), ptr::null_mut())
            .expect("out");
        queue
            .enqueue_write_buffer(&mut da, CL_BLOCKING, 0, a, &[])
            .expect("write");
        queue
            .enqueue_write_buffer(&mut db, CL_BLOCKING, 0, b, &[])
            .expect("write");
        ExecuteKernel::new(&kernel)
            .set_arg(&da)
            .set_arg(&db)
            .set_arg(&out)
            .set_global_work_size(a.len())
            .enqueue_nd_range(queue)
            .expect("launch");
        queue
            .enqueue_read_buffer(&out, CL_BLOCKING, 0, &mut got, &[])
            .expect("read");
    }
    got
}

fn mad_sat_u64(x: u64, y: u64, z: u64) -> u64 {
    let sum = u128::from(x) * u128::from(y) + u128::from(z);
    u64::try_from(sum).unwrap_or(u64::MAX)
}

fn mad_sat_i64(x: i64, y: i64, z: i64) -> i64 {
    let sum = i128::from(x) * i128::from(y) + i128::from(z);
    sum.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

fn mul_hi_u64(x: u64, y: u64) -> u64 {
    ((u128::from(x) * u128::from(y)) >> 64) as u64
}

fn mul_hi_i64(x: i64, y: i64) -> i64 {
    ((i128::from(x) * i128::from(y)) >> 64) as i64
}

#[test]
fn sixty_four_bit_and_saturating_integer_builtins() {
    let (context, queue) = common::context_and_queue();
    let source = std::fs::read_to_string(common::repo_path("tests/kernels/int64_builtins.cl"))
        .expect("kernel source");
    let program = common::launch::build_source(&context, &source, "-cl-std=CL2.0");
    let (a, b) = operands();

    let got = run::<u64, u64>(&context, &queue, &program, "ulong_ops", (&a, &b), 8);
    for i in 0..N {
        let (x, y) = (a[i], b[i]);
        let v = [
            mul_hi_u64(x, y).wrapping_add(u64::from(y.leading_zeros())),
            mul_hi_u64(y, x).wrapping_add(u64::from(x.leading_zeros())),
        ];
        let expected = [
            u64::from(x.leading_zeros()),
            u64::from(x.trailing_zeros()),
            u64::from(x.count_ones()),
            x.rotate_left((y % 64) as u32),
            mul_hi_u64(x, y),
            mul_hi_u64(x, y).wrapping_add(x),
            mad_sat_u64(x, y >> (y & 63), x),
            v[0] ^ v[1],
        ];
        assert_eq!(&got[8 * i..8 * i + 8], &expected, "ulong {x:#x}, {y:#x}");
    }

    let (sa, sb): (Vec<i64>, Vec<i64>) = (
        a.iter().map(|&v| v as i64).collect(),
        b.iter().map(|&v| v as i64).collect(),
    );
    let got = run::<i64, i64>(&context, &queue, &program, "long_ops", (&sa, &sb), 5);
    for i in 0..N {
        let (x, y) = (sa[i], sb[i]);
        let expected = [
            mul_hi_i64(x, y),
            mad_sat_i64(x, y >> (y & 63), x),
            x.rotate_left((y as u64 % 64) as u32),
            i64::from(x.leading_zeros()) + 100 * i64::from(y.count_ones()),
            mul_hi_i64(x, y).wrapping_add(y),
        ];
        assert_eq!(&got[5 * i..5 * i + 5], &expected, "long {x}, {y}");
    }

    let (ia, ib): (Vec<i32>, Vec<i32>) = (
        a.iter().map(|&v| v as i32).collect(),
        b.iter().map(|&v| (v >> 32) as i32).collect(),
    );
    let got = run::<i32, i32>(&context, &queue, &program, "narrow_ops", (&ia, &ib), 8);
    let clamp = |v: i64, lo: i64, hi: i64| v.clamp(lo, hi);
    for i in 0..N {
        let (x, y) = (ia[i], ib[i]);
        let (c, uc) = (|v: i32| i64::from(v as i8), |v: i32| i64::from(v as u8));
        let (s, us) = (|v: i32| i64::from(v as i16), |v: i32| i64::from(v as u16));
        let expected = [
            clamp(c(x) * c(y) + c(x >> 8), -128, 127) as i32,
            clamp(uc(x) * uc(y) + uc(x >> 8), 0, 255) as i32,
            clamp(s(x) * s(y) + s(x >> 16), -32768, 32767) as i32,
            clamp(us(x) * us(y) + us(x >> 16), 0, 65535) as i32,
            clamp(
                i64::from(x) * i64::from(y) + i64::from(x ^ y),
                i64::from(i32::MIN),
                i64::from(i32::MAX),
            ) as i32,
            (u64::from(x as u32) * u64::from(y as u32) + u64::from((x ^ y) as u32))
                .min(u64::from(u32::MAX)) as u32 as i32,
            ((i32::from((x >> 16) as i16) << 16) | i32::from(y as u16)),
            i32::from((i16::from((x >> 24) as i8) << 8) | i16::from(y as u8)),
        ];
        assert_eq!(&got[8 * i..8 * i + 8], &expected, "narrow {x}, {y}");
    }

    let got = run::<i32, i64>(&context, &queue, &program, "upsample_long", (&ia, &ib), 1);
    for i in 0..N {
        let expected = (i64::from(ia[i]) << 32) | i64::from(ib[i] as u32);
        assert_eq!(got[i], expected, "upsample({}, {})", ia[i], ib[i] as u32);
    }
}
