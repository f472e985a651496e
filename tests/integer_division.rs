//! 64-bit `/` and `%` through the ICD: operands above and below 2^32,
//! divisors with their top bit set, negative values, and vectors, against
//! Rust's own division.

mod common;

use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::types::CL_BLOCKING;
use std::ptr;

fn operands() -> (Vec<u64>, Vec<u64>) {
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut a = Vec::new();
    let mut b = Vec::new();
    for i in 0..4096u64 {
        let x = next();
        let y = next();
        // Mix magnitudes: 32-bit operands, 64-bit ones, small divisors,
        // divisors with the top bit set, equal operands.
        let (x, y) = match i % 6 {
            0 => (x >> 32, (y >> 40) + 1),
            1 => (x, (y >> 50) + 1),
            2 => (x, y | (1 << 63)),
            3 => (x >> 1, y >> 33 | 1),
            4 => (x, x | 1),
            _ => (x, y | 1),
        };
        a.push(x);
        b.push(y);
    }
    (a, b)
}

#[test]
fn sixty_four_bit_division_matches_the_host() {
    let (context, queue) = common::context_and_queue();
    let source = std::fs::read_to_string(common::repo_path("tests/kernels/divide64.cl"))
        .expect("kernel source");
    let program = common::launch::build_source(&context, &source, "");
    let (a, b) = operands();
    let n = a.len();
    let run = |name: &str, outputs: usize| -> Vec<u64> {
        let kernel = Kernel::create(&program, name).expect("kernel");
        // SAFETY: null host pointers; blocking transfers of vectors of the
        // buffers' sizes; the kernel takes three buffers.
        unsafe {
            let mut da =
                Buffer::<u64>::create(&context, CL_MEM_READ_WRITE, n, ptr::null_mut()).expect("a");
            let mut db =
                Buffer::<u64>::create(&context, CL_MEM_READ_WRITE, n, ptr::null_mut()).expect("b");
            let out =
                Buffer::<u64>::create(&context, CL_MEM_READ_WRITE, n * outputs, ptr::null_mut())
                    .expect("out");
            queue
                .enqueue_write_buffer(&mut da, CL_BLOCKING, 0, &a, &[])
                .expect("write");
            queue
                .enqueue_write_buffer(&mut db, CL_BLOCKING, 0, &b, &[])
                .expect("write");
            ExecuteKernel::new(&kernel)
                .set_arg(&da)
                .set_arg(&db)
                .set_arg(&out)
                .set_global_work_size(n)
                .enqueue_nd_range(&queue)
                .expect("launch");
            let mut got = vec![0u64; n * outputs];
            queue
                .enqueue_read_buffer(&out, CL_BLOCKING, 0, &mut got, &[])
                .expect("read");
            got
        }
    };
    let got = run("divide_u64", 4);
    for i in 0..n {
        let (x, y) = (a[i], b[i]);
        let expected = [x / y, x % y, x.saturating_add(y), (x / (y | 1)) ^ (y / 3)];
        assert_eq!(&got[4 * i..4 * i + 4], &expected, "unsigned {x:#x}, {y:#x}");
    }
    let got = run("divide_s64", 3);
    for i in 0..n {
        let (x, y) = (a[i] as i64, b[i] as i64);
        if y == -1 && x == i64::MIN {
            continue;
        }
        let v = [
            x.wrapping_rem(y),
            x.wrapping_neg().wrapping_rem(y),
            x.wrapping_rem(y.wrapping_neg()),
            7 % -3,
        ];
        let weighted = v[0]
            .wrapping_add(v[1].wrapping_mul(3))
            .wrapping_add(v[2].wrapping_mul(5))
            .wrapping_add(v[3].wrapping_mul(7));
        let expected = [
            x.wrapping_div(y) as u64,
            x.wrapping_rem(y) as u64,
            weighted as u64,
        ];
        assert_eq!(&got[3 * i..3 * i + 3], &expected, "signed {x}, {y}");
    }
}
