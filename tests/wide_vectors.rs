//! 8- and 16-element vectors end to end (`tests/kernels/wide_vectors*.cl`):
//! every operation for int, uchar, short, ulong and float (double when the
//! device reports cl_khr_fp64), vloadN/vstoreN in every address space,
//! struct members, `__local` and private arrays, kernel arguments by value
//! and reinterpretations, each lane checked against a host reference.

mod common;

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::Device;
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::program::Program;
use std::fmt::Debug;

/// Work-items per launch: several groups of the kernels' local size 4.
const G: usize = 12;

fn build(context: &Context, file: &str) -> Program {
    let source = std::fs::read_to_string(common::repo_path(file)).expect("kernel source");
    Program::create_and_build_from_source(context, &source, "")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"))
}

/// splitmix64: deterministic pseudo-random inputs.
fn mix(i: u64) -> u64 {
    let mut z = i.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// An integer lane type as OpenCL C computes with it (wrapping, shifts
/// masked to the width), through i128 for the exact parts.
trait IntLane: Copy + Default + PartialEq + PartialOrd + Debug + 'static {
    const NAME: &'static str;
    const BITS: u32;
    fn from_bits(v: u64) -> Self;
    fn wide(self) -> i128;
    /// The lane with value `v` modulo 2^BITS.
    fn wrap(v: i128) -> Self;
    fn min_value() -> i128;
    fn max_value() -> i128;
    fn saturate(v: i128) -> Self {
        Self::wrap(v.clamp(Self::min_value(), Self::max_value()))
    }
    /// The lane's bits, as `convert_long` sees them (a bit copy for ulong).
    fn as_long(self) -> i64 {
        self.wide() as i64
    }
}

macro_rules! int_lane {
    ($t:ty, $name:literal) => {
        impl IntLane for $t {
            const NAME: &'static str = $name;
            const BITS: u32 = <$t>::BITS;
            fn from_bits(v: u64) -> Self {
                v as $t
            }
            fn wide(self) -> i128 {
                self as i128
            }
            fn wrap(v: i128) -> Self {
                v as $t
            }
            fn min_value() -> i128 {
                <$t>::MIN as i128
            }
            fn max_value() -> i128 {
                <$t>::MAX as i128
            }
        }
    };
}
int_lane!(i32, "int");
int_lane!(u8, "uchar");
int_lane!(i16, "short");
int_lane!(u64, "ulong");

fn lanes<T: IntLane>(x: &[T], f: impl Fn(usize, T) -> T) -> Vec<T> {
    x.iter().enumerate().map(|(j, &v)| f(j, v)).collect()
}

/// The twelve value outputs and four comparison outputs of `int_ops_<T><N>`
/// for one work-item.
fn int_reference<T: IntLane>(x: &[T], y: &[T], k: &[T], g: usize) -> (Vec<Vec<T>>, Vec<Vec<i32>>) {
    let n = x.len();
    let w = |v: i128| T::wrap(v);
    let mask = u128::MAX >> (128 - T::BITS);
    let bits = |v: T| (v.wide() as u128) & mask;
    let from_u = |v: u128| T::wrap((v & mask) as i128);
    let shl = |v: T, s: T| from_u(bits(v) << (bits(s) % u128::from(T::BITS)));
    // Arithmetic shift for signed lanes, logical for unsigned.
    let shr = |v: T, s: u32| w(v.wide() >> s);
    let d = lanes(y, |_, v| from_u((bits(v) & 0x3f) | 1));
    let mut o = Vec::new();
    o.push(lanes(x, |j, v| w(v.wide() + y[j].wide() * k[j].wide())));
    o.push(lanes(x, |j, v| {
        let (q, r) = (v.wide() / d[j].wide(), v.wide() % d[j].wide());
        w(q - r)
    }));
    o.push(lanes(x, |j, v| {
        from_u((bits(v) & bits(y[j])) ^ (!bits(v) | bits(y[j])))
    }));
    o.push(lanes(x, |j, v| {
        w(shl(v, y[j]).wide() + shr(v, 3).wide() + shr(y[j], 1).wide())
    }));
    let mut z = lanes(x, |j, v| shr(w((v.wide() + y[j].wide()) * 3), 1));
    z[0] = y[1];
    z[7] = w(z[7].wide() - 1);
    for i in 0..n / 4 {
        z[n / 2 + i] = y[n / 4 + i];
    }
    o.push(z.clone());
    for i in 0..n / 2 {
        z[2 * i + 1] = x[2 * i];
    }
    o.push(z);
    o.push(lanes(y, |_, v| w(1 - v.wide())));
    o.push(x[..n / 2].iter().chain(&y[n / 2..]).copied().collect());
    o.push(
        (0..n / 2)
            .map(|i| x[2 * i + 1])
            .chain((0..n / 2).map(|i| y[2 * i]))
            .collect(),
    );
    o.push(lanes(x, |j, v| {
        let m = v.wide().min(y[j].wide());
        w(m + m + g as i128)
    }));
    o.push(lanes(x, |j, v| {
        let diff = v.as_long().wrapping_sub(y[j].as_long().wrapping_mul(2));
        T::saturate(i128::from(diff))
    }));
    o.push(lanes(x, |j, v| {
        let (a, b) = (v.wide(), y[j].wide());
        let clamped = a.clamp(10, 100);
        let abs_diff = (a - b).abs();
        let hadd = (a + b) >> 1;
        let add_sat = (a + b).clamp(T::min_value(), T::max_value());
        w(clamped + abs_diff + hadd + add_sat)
    }));
    let t = |c: bool| -i32::from(c);
    let any = x.iter().zip(y).any(|(a, b)| a > b);
    let all = x.iter().zip(y).all(|(a, b)| a != b);
    let c = vec![
        (0..n).map(|j| t(x[j] < y[j])).collect(),
        (0..n)
            .map(|j| t(x[j] == y[j]) + t(x[j] >= y[j]) * 2)
            .collect(),
        (0..n)
            .map(|j| t(x[j] == T::default()) + t(x[j] != y[j]) * 4)
            .collect(),
        vec![i32::from(any) + i32::from(all) * 2 + n as i32 * 4; n],
    ];
    (o, c)
}

/// Inputs for the integer kernels: random lanes, with every fifth lane of
/// `b` equal to `a`'s and some zeros, so equality and `!` see both answers.
fn int_inputs<T: IntLane>(n: usize, seed: u64) -> (Vec<T>, Vec<T>) {
    let a: Vec<T> = (0..G * n)
        .map(|i| match i % 7 {
            3 => T::default(),
            _ => T::from_bits(mix(seed + i as u64)),
        })
        .collect();
    let b = (0..G * n)
        .map(|i| match i % 5 {
            2 => a[i],
            _ => T::from_bits(mix(seed + 1000 + i as u64)),
        })
        .collect();
    (a, b)
}

fn check_int_ops<T: IntLane>(context: &Context, queue: &CommandQueue, program: &Program, n: usize) {
    let name = format!("int_ops_{}{n}", T::NAME);
    let kernel = Kernel::create(program, &name).expect("kernel");
    let (a, b) = int_inputs::<T>(n, n as u64 * 77 + u64::from(T::BITS));
    // An 8-lane argument, repeated to 16 lanes by the kernel.
    let k8: [T; 8] = std::array::from_fn(|j| T::from_bits(mix(j as u64 + 5) % 9));
    let k: Vec<T> = (0..n).map(|j| k8[j % 8]).collect();
    let da = common::buffer_with(context, queue, &a);
    let db = common::buffer_with(context, queue, &b);
    let out = common::buffer_with(context, queue, &vec![T::default(); G * n * 12]);
    let cmp = common::buffer_with(context, queue, &vec![0i32; G * n * 4]);
    // SAFETY: four buffers and an 8-lane vector of T by value, as the
    // kernel declares (`k8`'s bytes are the vector's).
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&da)
            .set_arg(&db)
            .set_arg(&out)
            .set_arg(&cmp)
            .set_arg(&k8)
            .set_global_work_size(G)
            .set_local_work_size(4)
            .enqueue_nd_range(queue)
    }
    .unwrap_or_else(|e| panic!("{name}: enqueue: {e}"));
    let got = common::read_buffer(queue, &out, G * n * 12);
    let got_cmp = common::read_buffer(queue, &cmp, G * n * 4);
    for g in 0..G {
        let (x, y) = (&a[g * n..(g + 1) * n], &b[g * n..(g + 1) * n]);
        let (o, c) = int_reference(x, y, &k, g);
        for (i, expected) in o.iter().enumerate() {
            let at = (g * 12 + i) * n;
            assert_eq!(
                &got[at..at + n],
                &expected[..],
                "{name}: out {i} of work-item {g}"
            );
        }
        for (i, expected) in c.iter().enumerate() {
            let at = (g * 4 + i) * n;
            assert_eq!(
                &got_cmp[at..at + n],
                &expected[..],
                "{name}: cmp {i} of work-item {g}"
            );
        }
    }
}

#[test]
fn integer_vectors_of_8_and_16_lanes() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/wide_vectors.cl");
    check_int_ops::<i32>(&context, &queue, &program, 8);
    check_int_ops::<i32>(&context, &queue, &program, 16);
    check_int_ops::<u8>(&context, &queue, &program, 8);
    check_int_ops::<u8>(&context, &queue, &program, 16);
    check_int_ops::<i16>(&context, &queue, &program, 8);
    check_int_ops::<i16>(&context, &queue, &program, 16);
    check_int_ops::<u64>(&context, &queue, &program, 8);
    check_int_ops::<u64>(&context, &queue, &program, 16);
}

/// Multiples of 1/4 in [-64, 64): sums and products stay exact.
fn quarter(v: u64) -> f32 {
    (v % 512) as f32 / 4.0 - 64.0
}

fn float_reference(x: &[f32], y: &[f32], k: &[f32]) -> (Vec<Vec<f32>>, Vec<Vec<i32>>) {
    let n = x.len();
    let map = |f: &dyn Fn(usize) -> f32| (0..n).map(f).collect::<Vec<f32>>();
    let mut o = Vec::new();
    o.push(map(&|j| x[j] + y[j] * k[j]));
    o.push(map(&|j| -x[j] - y[j] * 0.5 + 1.0));
    o.push(map(&|j| {
        x[j].max(y[j]) + x[j].min(2.0) + x[j].floor() + y[j].abs()
    }));
    o.push(map(&|j| {
        x[j].clamp(-1.0, 1.0) + if x[j] > y[j] { y[j] } else { x[j] }
    }));
    let mut z = map(&|j| x[j] * 2.0);
    z[1] = y[0];
    for i in 0..n / 4 {
        z[3 * n / 4 + i] = x[i];
    }
    for i in 0..n / 2 {
        z[2 * i] += y[2 * i + 1];
    }
    o.push(z.iter().map(|v| v + 1.0).collect());
    o.push(y[n / 2..].iter().chain(&x[..n / 2]).copied().collect());
    o.push(map(&|j| {
        (x[j] * 4.0) as i32 as f32 + if x[j] > y[j] { -1.0 } else { 0.0 }
    }));
    o.push(vec![1.5; n]);
    let any = (0..n).any(|j| x[j] > y[j]);
    let all = (0..n).all(|j| x[j] != 0.0);
    let c = vec![
        (0..n).map(|j| -i32::from(x[j] < y[j])).collect(),
        (0..n).map(|j| (x[j] * 1.0e9) as i32).collect(),
        (0..n)
            .map(|j| (x[j].to_bits() ^ y[j].to_bits()) as i32)
            .collect(),
        (0..n)
            .map(|j| x[j].floor() as i32 + i32::from(any) * 100 + i32::from(all) * 1000)
            .collect(),
    ];
    (o, c)
}

#[test]
fn float_vectors_of_8_and_16_lanes() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/wide_vectors.cl");
    check_float_ops::<8>(&context, &queue, &program);
    check_float_ops::<16>(&context, &queue, &program);
}

fn check_float_ops<const N: usize>(context: &Context, queue: &CommandQueue, program: &Program) {
    let (context, queue, program) = (context, queue, program);
    {
        let n = N;
        let name = format!("float_ops_{n}");
        let kernel = Kernel::create(program, &name).expect("kernel");
        let a: Vec<f32> = (0..G * n).map(|i| quarter(mix(i as u64))).collect();
        let b: Vec<f32> = (0..G * n)
            .map(|i| match i % 6 {
                1 => a[i],
                4 => 0.0,
                _ => quarter(mix(i as u64 + 999)),
            })
            .collect();
        let k: [f32; N] = std::array::from_fn(|j| quarter(mix(j as u64 + 17)) / 16.0);
        let da = common::buffer_with(context, queue, &a);
        let db = common::buffer_with(context, queue, &b);
        let out = common::buffer_with(context, queue, &vec![0f32; G * n * 8]);
        let bits = common::buffer_with(context, queue, &vec![0i32; G * n * 4]);
        // SAFETY: four buffers and a float vector by value.
        unsafe {
            ExecuteKernel::new(&kernel)
                .set_arg(&da)
                .set_arg(&db)
                .set_arg(&out)
                .set_arg(&bits)
                .set_arg(&k)
                .set_global_work_size(G)
                .set_local_work_size(4)
                .enqueue_nd_range(queue)
        }
        .expect("enqueue");
        let got = common::read_buffer(queue, &out, G * n * 8);
        let got_bits = common::read_buffer(queue, &bits, G * n * 4);
        for g in 0..G {
            let (x, y) = (&a[g * n..(g + 1) * n], &b[g * n..(g + 1) * n]);
            let (o, c) = float_reference(x, y, &k);
            for (i, expected) in o.iter().enumerate() {
                let at = (g * 8 + i) * n;
                assert_eq!(
                    &got[at..at + n],
                    &expected[..],
                    "{name}: out {i} of work-item {g}"
                );
            }
            for (i, expected) in c.iter().enumerate() {
                let at = (g * 4 + i) * n;
                assert_eq!(
                    &got_bits[at..at + n],
                    &expected[..],
                    "{name}: int {i} of work-item {g}"
                );
            }
        }
    }
}

/// A lane type for the vload/vstore kernels: made from random bits and
/// added as the kernel adds.
trait MemoryLane: Copy + Default + PartialEq + Debug {
    fn from_bits(v: u64) -> Self;
    fn add(self, other: Self) -> Self;
}

macro_rules! memory_int_lane {
    ($($t:ty),*) => {$(
        impl MemoryLane for $t {
            fn from_bits(v: u64) -> Self {
                v as $t
            }
            fn add(self, other: Self) -> Self {
                self.wrapping_add(other)
            }
        }
    )*};
}
memory_int_lane!(i32, u8, i16, u64);

impl MemoryLane for f32 {
    fn from_bits(v: u64) -> Self {
        quarter(v)
    }
    fn add(self, other: Self) -> Self {
        self + other
    }
}

fn check_memory<T: MemoryLane>(
    context: &Context,
    queue: &CommandQueue,
    program: &Program,
    name: &str,
    n: usize,
) {
    let kernel = Kernel::create(program, name).expect("kernel");
    let src: Vec<T> = (0..G * n)
        .map(|i| T::from_bits(mix(i as u64 * 3)))
        .collect();
    let odd: Vec<T> = (0..G * n + 1)
        .map(|i| T::from_bits(mix(i as u64 * 5 + 1)))
        .collect();
    let sentinel = T::from_bits(7);
    let dsrc = common::buffer_with(context, queue, &src);
    let ddst = common::buffer_with(context, queue, &vec![sentinel; G * n + 1]);
    let dodd = common::buffer_with(context, queue, &odd);
    // SAFETY: three buffers, as the kernel declares.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&dsrc)
            .set_arg(&ddst)
            .set_arg(&dodd)
            .set_global_work_size(G)
            .set_local_work_size(4)
            .enqueue_nd_range(queue)
    }
    .expect("enqueue");
    let got = common::read_buffer(queue, &ddst, G * n + 1);
    assert_eq!(got[0], sentinel, "{name}: element before the first vector");
    for g in 0..G {
        // Each work-item stores what its right neighbour in the group loaded.
        let partner = g - g % 4 + (g % 4 + 1) % 4;
        for j in 0..n {
            let expected = src[partner * n + j].add(odd[1 + partner * n + j]);
            assert_eq!(
                got[1 + g * n + j],
                expected,
                "{name}: work-item {g} lane {j}"
            );
        }
    }
}

#[test]
fn vload_vstore_8_and_16_in_every_address_space() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/wide_vectors.cl");
    check_memory::<f32>(&context, &queue, &program, "memory_float8", 8);
    check_memory::<f32>(&context, &queue, &program, "memory_float16", 16);
    check_memory::<i32>(&context, &queue, &program, "memory_int16", 16);
    check_memory::<u8>(&context, &queue, &program, "memory_uchar8", 8);
    check_memory::<u8>(&context, &queue, &program, "memory_uchar16", 16);
    check_memory::<i16>(&context, &queue, &program, "memory_short8", 8);
    check_memory::<i16>(&context, &queue, &program, "memory_short16", 16);
    check_memory::<u64>(&context, &queue, &program, "memory_ulong8", 8);
}

/// `Record` of wide_vectors.cl, laid out as OpenCL lays it out (an
/// n-vector aligned to its size).
#[repr(C, align(64))]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Record {
    tag: i32,
    pad: [i32; 7],
    f: [f32; 8],
    i: [i32; 16],
    l: [u64; 8],
}

#[test]
fn wide_vectors_in_structs_local_and_private_arrays_and_arguments() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/wide_vectors.cl");
    let kernel = Kernel::create(&program, "aggregates").expect("kernel");
    let records: Vec<Record> = (0..G)
        .map(|g| Record {
            tag: g as i32 - 5,
            pad: [0; 7],
            f: std::array::from_fn(|j| quarter(mix((g * 8 + j) as u64))),
            i: std::array::from_fn(|j| (mix((g * 16 + j) as u64 + 50) % 2000) as i32 - 1000),
            l: std::array::from_fn(|j| mix((g * 8 + j) as u64 + 90)),
        })
        .collect();
    let bytes: Vec<[u8; 16]> = (0..G)
        .map(|g| std::array::from_fn(|j| mix((g * 16 + j) as u64 + 7) as u8))
        .collect();
    let shorts: Vec<[i16; 8]> = (0..G)
        .map(|g| std::array::from_fn(|j| mix((g * 8 + j) as u64 + 3) as i16))
        .collect();
    let scale: [u8; 8] = std::array::from_fn(|j| (j as u8).wrapping_mul(37).wrapping_add(3));
    let offset: [i16; 16] = std::array::from_fn(|j| (j as i16 - 8) * 1111);
    let drecords = common::buffer_with(&context, &queue, &records);
    let dbytes = common::buffer_with(&context, &queue, &bytes);
    let dshorts = common::buffer_with(&context, &queue, &shorts);
    let dreinterpreted = common::buffer_with(&context, &queue, &[[0i8; 16]; G]);
    // SAFETY: four buffers, a uchar8 and a short16 by value.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&drecords)
            .set_arg(&dbytes)
            .set_arg(&dshorts)
            .set_arg(&dreinterpreted)
            .set_arg(&scale)
            .set_arg(&offset)
            .set_global_work_size(G)
            .set_local_work_size(4)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let got_records = common::read_buffer(&queue, &drecords, G);
    let got_bytes = common::read_buffer(&queue, &dbytes, G);
    let got_shorts = common::read_buffer(&queue, &dshorts, G);
    let got_reinterpreted = common::read_buffer(&queue, &dreinterpreted, G);
    let staged = |g: usize| -> [f32; 8] {
        let r = &records[g];
        std::array::from_fn(|j| r.f[j] + r.i[j] as f32 * r.tag as f32)
    };
    for g in 0..G {
        let r = &records[g];
        let partner = g - g % 4 + (g % 4 + 1) % 4;
        let expected = Record {
            tag: r.tag,
            pad: [0; 7],
            f: staged(partner),
            i: std::array::from_fn(|j| r.i[15 - j] + r.tag),
            l: std::array::from_fn(|j| (r.l[j] << 4) | u64::from(bytes[g][j])),
        };
        assert_eq!(got_records[g], expected, "record {g}");
        let mut b = bytes[g];
        for j in 0..8 {
            b[j] = b[j].wrapping_mul(scale[j]);
        }
        b[9] = g as u8;
        b[12] = b[12].wrapping_add(1);
        b[10] = b[10].wrapping_add(2);
        assert_eq!(got_bytes[g], b, "bytes {g}");
        let mut s: [i16; 8] = std::array::from_fn(|j| {
            shorts[g][j]
                .wrapping_add(offset[2 * j])
                .wrapping_sub(offset[8 + j])
        });
        s[5] = g as i16;
        assert_eq!(got_shorts[g], s, "shorts {g}");
        let float_bytes: Vec<u8> = expected.f[..4]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let short_bytes: Vec<u8> = shorts[g].iter().flat_map(|v| v.to_le_bytes()).collect();
        let mut rr: [i8; 16] =
            std::array::from_fn(|j| float_bytes[j].wrapping_add(short_bytes[j]) as i8);
        rr[15] = expected.l[0].to_le_bytes()[1] as i8;
        assert_eq!(got_reinterpreted[g], rr, "reinterpreted {g}");
    }
}

#[test]
fn double_vectors_when_the_device_reports_fp64() {
    let (context, queue) = common::context_and_queue();
    let device = Device::new(context.devices()[0]);
    if !device
        .extensions()
        .expect("extensions")
        .contains("cl_khr_fp64")
    {
        eprintln!("skipped: the device does not report cl_khr_fp64");
        return;
    }
    let program = build(&context, "tests/kernels/wide_vectors_double.cl");
    let kernel = Kernel::create(&program, "double_ops").expect("kernel");
    let a: Vec<f64> = (0..G * 8)
        .map(|i| f64::from(quarter(mix(i as u64 + 40))) * 1.5)
        .collect();
    let k: [f64; 8] = std::array::from_fn(|j| j as f64 * 0.75 - 2.0);
    let da = common::buffer_with(&context, &queue, &a);
    let out = common::buffer_with(&context, &queue, &vec![0f64; G * 8 * 4]);
    let joined = common::buffer_with(&context, &queue, &vec![0f64; G * 16]);
    let halves = common::buffer_with(&context, &queue, &vec![0f32; G * 8]);
    // SAFETY: four buffers and a double8 by value.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&da)
            .set_arg(&out)
            .set_arg(&joined)
            .set_arg(&halves)
            .set_arg(&k)
            .set_global_work_size(G)
            .set_local_work_size(4)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let got = common::read_buffer(&queue, &out, G * 8 * 4);
    let got_joined = common::read_buffer(&queue, &joined, G * 16);
    let got_halves = common::read_buffer(&queue, &halves, G * 8);
    for g in 0..G {
        let x = &a[g * 8..(g + 1) * 8];
        let expected: [[f64; 8]; 4] = [
            std::array::from_fn(|j| x[j] * 2.0 + k[j]),
            std::array::from_fn(|j| x[j].max(1.0) - x[j].floor()),
            std::array::from_fn(|j| x[j] as i32 as f64 + if x[j] > k[j] { -1.0 } else { 0.0 }),
            std::array::from_fn(|j| f64::from_bits(x[j].to_bits() ^ 1)),
        ];
        for (i, e) in expected.iter().enumerate() {
            let at = (g * 4 + i) * 8;
            assert_eq!(&got[at..at + 8], &e[..], "double out {i} of work-item {g}");
        }
        let j: Vec<f64> = x.iter().chain(x.iter().rev()).copied().collect();
        assert_eq!(&got_joined[g * 16..(g + 1) * 16], &j[..], "joined {g}");
        let words = |v: f64| {
            let b = v.to_bits();
            [f32::from_bits(b as u32), f32::from_bits((b >> 32) as u32)]
        };
        let lo: Vec<f32> = x[..4].iter().flat_map(|&v| words(v)).collect();
        let s0101: Vec<f32> = [x[4], x[5], x[4], x[5]]
            .iter()
            .flat_map(|&v| words(v))
            .collect();
        for jj in 0..8 {
            let e = lo[jj] + s0101[jj];
            let got = got_halves[g * 8 + jj];
            assert!(
                got.to_bits() == e.to_bits() || (got.is_nan() && e.is_nan()),
                "halves {g} lane {jj}: {got} != {e}"
            );
        }
    }
}

#[test]
fn constant_tables_initializers_helpers_and_logical_operators() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/wide_vectors_misc.cl");
    let kernel = Kernel::create(&program, "misc").expect("kernel");
    let floats = common::buffer_with(&context, &queue, &[[0f32; 8]; G]);
    let ints = common::buffer_with(&context, &queue, &[[0i32; 16]; G]);
    let logic = common::buffer_with(&context, &queue, &[[0i32; 8]; 2 * G]);
    let constants: Vec<[i32; 16]> = (0..G)
        .map(|g| std::array::from_fn(|j| (mix((g * 16 + j) as u64) % 100) as i32 - 50))
        .collect();
    let dconstants = common::buffer_with(&context, &queue, &constants);
    // SAFETY: four buffers, as the kernel declares.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&floats)
            .set_arg(&ints)
            .set_arg(&logic)
            .set_arg(&dconstants)
            .set_global_work_size(G)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let got_floats = common::read_buffer(&queue, &floats, G);
    let got_ints = common::read_buffer(&queue, &ints, G);
    let got_logic = common::read_buffer(&queue, &logic, 2 * G);
    let table = [[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [0.5; 8]];
    let pieces = [1, 2, 3, 4, 4, 4, 4, 5];
    let b = [1, 0, 2, 0, 3, 0, 4, 0];
    let t = |c: bool| -i32::from(c);
    for g in 0..G {
        let a = g as i32 - 3;
        let and: [i32; 8] = std::array::from_fn(|j| t(a != 0 && b[j] != 0));
        let or: [i32; 8] = std::array::from_fn(|j| t(a != 0 || b[j] != 0) + t(a != 0));
        assert_eq!(got_logic[2 * g], and, "a && b of work-item {g}");
        assert_eq!(got_logic[2 * g + 1], or, "a || b of work-item {g}");
        let init = [1.0f32, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        let chosen = if g & 1 == 1 { [2.0; 8] } else { init };
        let v: [f32; 8] = std::array::from_fn(|j| table[g & 1][j] + 2.0 * g as f32 + chosen[j]);
        let ints: [i32; 16] = std::array::from_fn(|j| if j < 8 { v[j] } else { v[15 - j] } as i32);
        assert_eq!(got_ints[g], ints, "ints {g}");
        let f: [f32; 8] =
            std::array::from_fn(|j| v[j] * 2.0 + (a + 3 + pieces[j] + constants[g][8 + j]) as f32);
        assert_eq!(got_floats[g], f, "floats {g}");
    }
}

/// The bits of `x`, a half-precision value (normal or zero) held in an f32.
fn half_bits(x: f32) -> u16 {
    if x == 0.0 {
        return 0;
    }
    let b = x.to_bits();
    let sign = (b >> 16) & 0x8000;
    let exponent = ((b >> 23) & 0xff) as i32 - 127 + 15;
    (sign | ((exponent as u32) << 10) | ((b >> 13) & 0x3ff)) as u16
}

#[test]
fn vload_half_and_vstore_half_of_8_and_16() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/wide_vectors_misc.cl");
    let kernel = Kernel::create(&program, "halfs16").expect("kernel");
    // Multiples of 1/8 below 256 in magnitude: exact in half, and doubled
    // exactly.
    let value = |i: u64| ((mix(i) % 4000) as f32 - 2000.0) / 8.0;
    let h16: Vec<f32> = (0..G * 16).map(|i| value(i as u64)).collect();
    let h8: Vec<f32> = (0..G * 8 + 1).map(|i| value(i as u64 + 7777)).collect();
    let h16_bits: Vec<u16> = h16.iter().map(|&v| half_bits(v)).collect();
    let h8_bits: Vec<u16> = h8.iter().map(|&v| half_bits(v)).collect();
    let d16 = common::buffer_with(&context, &queue, &h16_bits);
    let d8 = common::buffer_with(&context, &queue, &h8_bits);
    let widened = common::buffer_with(&context, &queue, &vec![0f32; G * 16]);
    // SAFETY: three buffers, as the kernel declares.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&d16)
            .set_arg(&d8)
            .set_arg(&widened)
            .set_global_work_size(G)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    assert_eq!(
        common::read_buffer(&queue, &widened, G * 16),
        h16,
        "vload_half16"
    );
    let doubled: Vec<u16> = h16.iter().map(|&v| half_bits(v * 2.0)).collect();
    assert_eq!(
        common::read_buffer(&queue, &d16, G * 16),
        doubled,
        "vstore_half16"
    );
    let got8 = common::read_buffer(&queue, &d8, G * 8 + 1);
    assert_eq!(got8[0], h8_bits[0], "the half before the first vector");
    let order = [1, 3, 5, 7, 0, 2, 4, 6];
    for g in 0..G {
        for (j, &from) in order.iter().enumerate() {
            assert_eq!(
                got8[1 + g * 8 + j],
                h8_bits[1 + g * 8 + from],
                "vstore_half8 work-item {g} lane {j}"
            );
        }
    }
}

#[test]
fn shuffles_with_constant_and_run_time_masks() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/wide_vectors_misc.cl");
    let kernel = Kernel::create(&program, "shuffles").expect("kernel");
    let x: Vec<[f32; 8]> = (0..G)
        .map(|g| std::array::from_fn(|j| quarter(mix((g * 8 + j) as u64 + 300))))
        .collect();
    let masks: Vec<[u32; 8]> = (0..G)
        .map(|g| std::array::from_fn(|j| mix((g * 8 + j) as u64 + 400) as u32))
        .collect();
    let s: Vec<[i16; 16]> = (0..G)
        .map(|g| std::array::from_fn(|j| mix((g * 16 + j) as u64 + 500) as i16))
        .collect();
    let l: Vec<[u64; 2]> = (0..G)
        .map(|g| std::array::from_fn(|j| mix((g * 2 + j) as u64 + 600)))
        .collect();
    let dx = common::buffer_with(&context, &queue, &x);
    let dmasks = common::buffer_with(&context, &queue, &masks);
    let out = common::buffer_with(&context, &queue, &vec![[0f32; 8]; 3 * G]);
    let ds = common::buffer_with(&context, &queue, &s);
    let sout = common::buffer_with(&context, &queue, &[[0i16; 16]; G]);
    let dl = common::buffer_with(&context, &queue, &l);
    let lout = common::buffer_with(&context, &queue, &[[0u64; 4]; G]);
    // SAFETY: seven buffers, as the kernel declares.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&dx)
            .set_arg(&dmasks)
            .set_arg(&out)
            .set_arg(&ds)
            .set_arg(&sout)
            .set_arg(&dl)
            .set_arg(&lout)
            .set_global_work_size(G)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let got = common::read_buffer(&queue, &out, 3 * G);
    let got_s = common::read_buffer(&queue, &sout, G);
    let got_l = common::read_buffer(&queue, &lout, G);
    let y = [1.0f32, 2.0, 3.0, 4.0];
    for g in 0..G {
        let a = x[g];
        let m = masks[g];
        let both: Vec<f32> = a.iter().chain(a.map(|v| v * 2.0).iter()).copied().collect();
        let expected: [[f32; 8]; 3] = [
            std::array::from_fn(|i| a[(m[i] & 7) as usize]),
            std::array::from_fn(|i| both[((m[i] >> 1) & 15) as usize]),
            std::array::from_fn(|i| {
                y[[3, 2, 1, 0, 0, 1, 2, 3][i]] + a[[7, 6, 5, 4, 3, 2, 1, 0][i]]
            }),
        ];
        for (k, e) in expected.iter().enumerate() {
            assert_eq!(got[3 * g + k], *e, "shuffle {k} of work-item {g}");
        }
        let s_both: Vec<i16> = s[g]
            .iter()
            .chain(s[g].map(|v| v.wrapping_add(1)).iter())
            .copied()
            .collect();
        let es: [i16; 16] = std::array::from_fn(|i| s_both[(s[g][i] as u16 & 31) as usize]);
        assert_eq!(got_s[g], es, "shuffle2 of short16, work-item {g}");
        let lv = l[g];
        let l_both = [lv[0], lv[1], lv[0] << 1, lv[1] << 1];
        let mask2 = [lv[0], 2, 3, 0];
        let el: [u64; 4] = std::array::from_fn(|i| {
            lv[[1, 0, 1, 1][i]].wrapping_add(l_both[(mask2[i] & 3) as usize])
        });
        assert_eq!(got_l[g], el, "shuffles of ulong2, work-item {g}");
    }
}

#[test]
fn subscripts_with_run_time_indices() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/wide_vectors_misc.cl");
    let kernel = Kernel::create(&program, "subscripts").expect("kernel");
    let v: Vec<[i32; 16]> = (0..G)
        .map(|g| std::array::from_fn(|j| (mix((g * 16 + j) as u64 + 800) % 1000) as i32))
        .collect();
    let idx: Vec<i32> = (0..G).map(|g| (mix(g as u64 + 900) % 16) as i32).collect();
    let bytes: Vec<[u8; 8]> = (0..G)
        .map(|g| std::array::from_fn(|j| mix((g * 8 + j) as u64 + 950) as u8))
        .collect();
    let dv = common::buffer_with(&context, &queue, &v);
    let didx = common::buffer_with(&context, &queue, &idx);
    let dbytes = common::buffer_with(&context, &queue, &bytes);
    let out = common::buffer_with(&context, &queue, &[0i32; G]);
    // SAFETY: four buffers, as the kernel declares.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&dv)
            .set_arg(&didx)
            .set_arg(&dbytes)
            .set_arg(&out)
            .set_global_work_size(G)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let got_v = common::read_buffer(&queue, &dv, G);
    let got_bytes = common::read_buffer(&queue, &dbytes, G);
    let got_out = common::read_buffer(&queue, &out, G);
    for g in 0..G {
        let i = idx[g] as usize;
        let mut x = v[g];
        x[i] = 100 + g as i32;
        x[8 + (i & 7)] += 1;
        let mut stored = x;
        stored[i ^ 3] = -1;
        assert_eq!(got_v[g], stored, "v[{g}]");
        let mut b = bytes[g];
        b[i & 7] = i as u8;
        assert_eq!(got_bytes[g], b, "bytes[{g}]");
        let expected = x[i] * 2 + i32::from(b[2 * (i & 3) + 1]);
        assert_eq!(got_out[g], expected, "out[{g}]");
    }
}
