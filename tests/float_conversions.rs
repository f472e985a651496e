//! `convert_float_rtz/_rtp/_rtn/_rte` from `int`, `uint`, `long`, `ulong`
//! and `double`, and `convert_double_rtz/_rtp/_rtn` from `long`/`ulong`,
//! through the ICD, against exact host arithmetic (i128 and f64).

mod common;

use opencl3::device::Device;
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::types::CL_BLOCKING;
use std::ptr;

const SOURCE: &str = r#"
#define FOUR(x, o) o[0] = convert_float_rtz(x); o[1] = convert_float_rtp(x); \
                   o[2] = convert_float_rtn(x); o[3] = convert_float_rte(x);
__kernel void to_float(__global const long *v, __global float *o) {
    size_t i = get_global_id(0);
    long x = v[i];
    __global float *r = o + 16 * i;
    FOUR((int)x, r)
    FOUR((uint)x, (r + 4))
    FOUR(x, (r + 8))
    FOUR((ulong)x, (r + 12))
}
#ifdef cl_khr_fp64
__kernel void to_double(__global const long *v, __global const double *d,
                        __global double *o, __global float *f) {
    size_t i = get_global_id(0);
    long x = v[i];
    __global double *r = o + 6 * i;
    r[0] = convert_double_rtz(x); r[1] = convert_double_rtp(x); r[2] = convert_double_rtn(x);
    r[3] = convert_double_rtz((ulong)x); r[4] = convert_double_rtp((ulong)x); r[5] = convert_double_rtn((ulong)x);
    __global float *s = f + 4 * i;
    FOUR(d[i], s)
}
#endif
"#;

/// The floats (of a type with `bits` significand bits) on either side of
/// the integer `x`: both equal when `x` is representable.
fn neighbours_f32(x: i128) -> (f32, f32) {
    let near = x as f32;
    let exact = near as f64 as i128;
    if exact == x || near.is_infinite() {
        return (near, near);
    }
    let step = |v: f32, up: bool| {
        let b = v.to_bits();
        f32::from_bits(if (v > 0.0) == up { b + 1 } else { b - 1 })
    };
    if exact < x {
        (near, step(near, true))
    } else {
        (step(near, false), near)
    }
}

fn neighbours_f64(x: i128) -> (f64, f64) {
    let near = x as f64;
    let exact = near as i128;
    if exact == x {
        return (near, near);
    }
    let step = |v: f64, up: bool| {
        let b = v.to_bits();
        f64::from_bits(if (v > 0.0) == up { b + 1 } else { b - 1 })
    };
    if exact < x {
        (near, step(near, true))
    } else {
        (step(near, false), near)
    }
}

/// (rtz, rtp, rtn) from the neighbours below and above `x`.
fn directed<T: Copy + PartialOrd + Default>(below: T, above: T, negative: bool) -> [T; 3] {
    let rtz = if negative { above } else { below };
    [rtz, above, below]
}

fn operands() -> Vec<i64> {
    let mut s = 0x5851_f42d_4c95_7f2du64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let edges = [
        0i64,
        1,
        -1,
        (1 << 24) + 1,
        -(1 << 24) - 1,
        i64::MAX,
        i64::MIN,
        u32::MAX as i64,
        i32::MIN as i64,
    ];
    (0..4096)
        .map(|i| match i % 4 {
            0 => edges[i / 4 % edges.len()],
            1 => (next() as i64) >> (next() % 40),
            2 => next() as i32 as i64,
            _ => next() as i64,
        })
        .collect()
}

#[test]
fn directed_rounding_to_floating_point() {
    let (context, queue) = common::context_and_queue();
    let fp64 = Device::new(context.default_device())
        .double_fp_config()
        .is_ok_and(|c| c != 0);
    let program = common::launch::build_source(&context, SOURCE, "");
    let v = operands();
    let n = v.len();
    // SAFETY: null host pointers; blocking transfers of vectors of the
    // buffers' sizes; the kernels' arguments as they declare them.
    let (got, doubles) = unsafe {
        let mut dv =
            Buffer::<i64>::create(&context, CL_MEM_READ_WRITE, n, ptr::null_mut()).expect("v");
        queue
            .enqueue_write_buffer(&mut dv, CL_BLOCKING, 0, &v, &[])
            .expect("write");
        let out = Buffer::<f32>::create(&context, CL_MEM_READ_WRITE, 16 * n, ptr::null_mut())
            .expect("out");
        let kernel = Kernel::create(&program, "to_float").expect("kernel");
        ExecuteKernel::new(&kernel)
            .set_arg(&dv)
            .set_arg(&out)
            .set_global_work_size(n)
            .enqueue_nd_range(&queue)
            .expect("launch");
        let mut got = vec![0f32; 16 * n];
        queue
            .enqueue_read_buffer(&out, CL_BLOCKING, 0, &mut got, &[])
            .expect("read");
        let mut doubles = vec![0f64; 6 * n];
        let mut narrowed = vec![0f32; 4 * n];
        if fp64 {
            let d: Vec<f64> = v
                .iter()
                .map(|&x| {
                    f64::from_bits(x as u64 & !(0x7ff << 52) | (0x3f0 + (x as u64 & 0x7f)) << 52)
                })
                .collect();
            let mut dd =
                Buffer::<f64>::create(&context, CL_MEM_READ_WRITE, n, ptr::null_mut()).expect("d");
            queue
                .enqueue_write_buffer(&mut dd, CL_BLOCKING, 0, &d, &[])
                .expect("write");
            let od = Buffer::<f64>::create(&context, CL_MEM_READ_WRITE, 6 * n, ptr::null_mut())
                .expect("od");
            let of = Buffer::<f32>::create(&context, CL_MEM_READ_WRITE, 4 * n, ptr::null_mut())
                .expect("of");
            let kernel = Kernel::create(&program, "to_double").expect("kernel");
            ExecuteKernel::new(&kernel)
                .set_arg(&dv)
                .set_arg(&dd)
                .set_arg(&od)
                .set_arg(&of)
                .set_global_work_size(n)
                .enqueue_nd_range(&queue)
                .expect("launch");
            queue
                .enqueue_read_buffer(&od, CL_BLOCKING, 0, &mut doubles, &[])
                .expect("read");
            queue
                .enqueue_read_buffer(&of, CL_BLOCKING, 0, &mut narrowed, &[])
                .expect("read");
            for (i, &x) in d.iter().enumerate() {
                let near = x as f32;
                let step = |v: f32, up: bool| {
                    let b = v.to_bits();
                    f32::from_bits(if (v > 0.0) == up { b + 1 } else { b - 1 })
                };
                let (below, above) = if f64::from(near) == x {
                    (near, near)
                } else if f64::from(near) < x {
                    (near, step(near, true))
                } else {
                    (step(near, false), near)
                };
                let mut want = directed(below, above, x < 0.0).to_vec();
                want.push(near);
                assert_eq!(&narrowed[4 * i..4 * i + 4], &want[..], "double {x:e}");
            }
        }
        (got, doubles)
    };
    for (i, &x) in v.iter().enumerate() {
        let sources = [
            i128::from(x as i32),
            i128::from(x as u32),
            i128::from(x),
            i128::from(x as u64),
        ];
        for (k, &s) in sources.iter().enumerate() {
            let (below, above) = neighbours_f32(s);
            let mut want = directed(below, above, s < 0).to_vec();
            want.push(s as f32);
            let at = 16 * i + 4 * k;
            assert_eq!(&got[at..at + 4], &want[..], "source {k} value {s}");
        }
        if fp64 {
            for (k, &s) in [i128::from(x), i128::from(x as u64)].iter().enumerate() {
                let (below, above) = neighbours_f64(s);
                let want = directed(below, above, s < 0);
                let at = 6 * i + 3 * k;
                assert_eq!(
                    &doubles[at..at + 3],
                    &want[..],
                    "to double, source {k} value {s}"
                );
            }
        }
    }
}
