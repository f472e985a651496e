//! Built-ins with an output pointer on 8- and 16-element vectors
//! (`tests/kernels/wide_pointer_builtins.cl`): fract, modf, frexp, remquo,
//! sincos and lgamma_r on float8, float16 and (with cl_khr_fp64) double8
//! and double16,
//! writing to private variables, a private array element, `__global`
//! buffers, `__local` memory (a variable, an array element, struct
//! members) and private struct members. Every lane of the values and
//! outputs must equal the same built-in on the 4-lane parts bit for bit;
//! fract, modf, frexp and sincos are also checked against a host
//! reference, and the pointer arguments `&parts[k++]` and
//! `&quotients[++k]` must be evaluated once.

mod common;

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::Device;
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::Buffer;
use opencl3::program::Program;
use std::fmt::Debug;

/// Work-items per launch.
const G: usize = 8;
/// Results (values) per work-item: one per built-in.
const VALUES: usize = 6;
/// Float and int outputs per work-item.
const OUTPUTS: usize = 3;

/// splitmix64: deterministic pseudo-random inputs.
fn mix(i: u64) -> u64 {
    let mut z = i.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A floating-point lane type and the host reference of the exact
/// built-ins on it.
trait FloatLane: Copy + Default + Debug + PartialEq + 'static {
    const NAME: &'static str;
    fn from_f64(v: f64) -> Self;
    fn to_f64(self) -> f64;
    fn bits(self) -> u64;
    /// `frexp`: the mantissa in [0.5, 1) and the exponent, for a nonzero
    /// normal value.
    fn frexp(self) -> (Self, i32);
    /// The largest value below 1 (`fract`'s upper bound).
    fn below_one() -> Self;
}

impl FloatLane for f32 {
    const NAME: &'static str = "float";
    fn from_f64(v: f64) -> Self {
        v as f32
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    fn bits(self) -> u64 {
        u64::from(self.to_bits())
    }
    fn frexp(self) -> (Self, i32) {
        let b = self.to_bits();
        let exponent = ((b >> 23) & 0xff) as i32 - 126;
        (f32::from_bits((b & !(0xff << 23)) | (126 << 23)), exponent)
    }
    fn below_one() -> Self {
        f32::from_bits(0x3f7f_ffff)
    }
}

impl FloatLane for f64 {
    const NAME: &'static str = "double";
    fn from_f64(v: f64) -> Self {
        v
    }
    fn to_f64(self) -> f64 {
        self
    }
    fn bits(self) -> u64 {
        self.to_bits()
    }
    fn frexp(self) -> (Self, i32) {
        let b = self.to_bits();
        let exponent = ((b >> 52) & 0x7ff) as i32 - 1022;
        (
            f64::from_bits((b & !(0x7ff << 52)) | (1022 << 52)),
            exponent,
        )
    }
    fn below_one() -> Self {
        f64::from_bits(0x3fef_ffff_ffff_ffff)
    }
}

/// Equal bits, or both NaN.
fn same<T: FloatLane>(a: T, b: T) -> bool {
    a.bits() == b.bits() || (a.to_f64().is_nan() && b.to_f64().is_nan())
}

/// Inputs: multiples of 1/32 in [-64, 64) with some larger and tiny
/// magnitudes, both zeros and negative integers (lgamma's poles); `y`
/// (remquo's divisor) is never zero.
fn inputs<T: FloatLane>(n: usize) -> (Vec<T>, Vec<T>) {
    let x = (0..n)
        .map(|i| {
            let r = mix(i as u64);
            let v = match r % 16 {
                0 => 0.0,
                1 => -0.0,
                2 => -(((r >> 8) % 8) as f64),
                3 => ((r >> 8) % 100_000) as f64 * 1234.5,
                4 => ((r >> 8) % 1000) as f64 / 65536.0 + 1.0 / 1024.0,
                _ => ((r >> 8) % 4096) as f64 / 32.0 - 64.0,
            };
            T::from_f64(v)
        })
        .collect();
    let y = (0..n)
        .map(|i| {
            let r = mix(i as u64 + 1_000_000);
            let v = ((r % 255) as f64 + 1.0) / 8.0;
            T::from_f64(if r & 256 != 0 { -v } else { v })
        })
        .collect();
    (x, y)
}

fn check<T: FloatLane>(context: &Context, queue: &CommandQueue, program: &Program, n: usize) {
    let what = format!("{}{n}", T::NAME);
    let (x, y) = inputs::<T>(G * n);
    let dx = common::buffer_with(context, queue, &x);
    let dy = common::buffer_with(context, queue, &y);
    let launch = |name: &str, evaluations: Option<&Buffer<i32>>| {
        let values = common::buffer_with(context, queue, &vec![T::default(); G * VALUES * n]);
        let outputs = common::buffer_with(context, queue, &vec![T::default(); G * OUTPUTS * n]);
        let ints = common::buffer_with(context, queue, &vec![0i32; G * OUTPUTS * n]);
        let kernel = Kernel::create(program, name).expect("kernel");
        let mut run = ExecuteKernel::new(&kernel);
        // SAFETY: the kernel's buffer arguments, in order.
        unsafe {
            run.set_arg(&dx)
                .set_arg(&dy)
                .set_arg(&values)
                .set_arg(&outputs)
                .set_arg(&ints);
            if let Some(e) = evaluations {
                run.set_arg(e);
            }
            // One work-item per work-group: the `__local` outputs are
            // one per work-group.
            run.set_global_work_size(G)
                .set_local_work_size(1)
                .enqueue_nd_range(queue)
                .expect("enqueue");
        }
        (
            common::read_buffer(queue, &values, G * VALUES * n),
            common::read_buffer(queue, &outputs, G * OUTPUTS * n),
            common::read_buffer(queue, &ints, G * OUTPUTS * n),
        )
    };
    let (part_values, part_outputs, part_ints) = launch(&format!("parts_{what}"), None);
    for kernel in [
        "pointer_builtins",
        "local_builtins",
        "private_record_builtins",
    ] {
        let evaluations = common::buffer_with(context, queue, &[0i32; G]);
        let (values, outputs, ints) = launch(&format!("{kernel}_{what}"), Some(&evaluations));
        assert_eq!(
            common::read_buffer(queue, &evaluations, G),
            [1; G],
            "{kernel}_{what}: the pointer argument evaluated once"
        );
        let what = format!("{kernel}_{what}");
        compare(
            &what,
            &x,
            n,
            (values.as_slice(), outputs.as_slice(), ints.as_slice()),
            (
                part_values.as_slice(),
                part_outputs.as_slice(),
                part_ints.as_slice(),
            ),
        );
    }
}

/// A wide kernel's values and outputs (`got`) against the parts kernel's
/// (`parts`) and the host reference.
fn compare<T: FloatLane>(
    what: &str,
    x: &[T],
    n: usize,
    (values, outputs, ints): (&[T], &[T], &[i32]),
    (part_values, part_outputs, part_ints): (&[T], &[T], &[i32]),
) {
    let names = ["fract", "modf", "frexp", "remquo", "sincos", "lgamma_r"];
    let output_names = ["fract's floor", "modf's integral part", "sincos's cosine"];
    let int_names = ["frexp's exponent", "remquo's quotient", "lgamma_r's sign"];
    for g in 0..G {
        for j in 0..n {
            let lane = |slot: usize| slot * n + j;
            let a = x[g * n + j];
            for (f, name) in names.iter().enumerate() {
                let (got, part) = (
                    values[lane(g * VALUES + f)],
                    part_values[lane(g * VALUES + f)],
                );
                assert!(
                    same(got, part),
                    "{what} {name}({a:?}) lane {j} of {g}: {got:?}, parts {part:?}"
                );
            }
            for (o, name) in output_names.iter().enumerate() {
                let (got, part) = (
                    outputs[lane(g * OUTPUTS + o)],
                    part_outputs[lane(g * OUTPUTS + o)],
                );
                assert!(
                    same(got, part),
                    "{what} {name} of {a:?} lane {j} of {g}: {got:?}, parts {part:?}"
                );
            }
            for (o, name) in int_names.iter().enumerate() {
                let (got, part) = (
                    ints[lane(g * OUTPUTS + o)],
                    part_ints[lane(g * OUTPUTS + o)],
                );
                assert_eq!(got, part, "{what} {name} of {a:?} lane {j} of {g}");
            }
            // The host reference where the results are exact.
            let v = a.to_f64();
            if v == 0.0 {
                continue;
            }
            let floor = v.floor();
            let fract = T::from_f64((v - floor).min(T::below_one().to_f64()));
            assert!(same(values[lane(g * VALUES)], fract), "{what} fract({a:?})");
            assert!(
                same(outputs[lane(g * OUTPUTS)], T::from_f64(floor)),
                "{what} fract({a:?}) floor"
            );
            let whole = v.trunc();
            let frac = T::from_f64((v - whole).abs().copysign(v));
            assert!(
                same(values[lane(g * VALUES + 1)], frac),
                "{what} modf({a:?})"
            );
            assert!(
                same(outputs[lane(g * OUTPUTS + 1)], T::from_f64(whole)),
                "{what} modf({a:?}) whole"
            );
            let (mantissa, exponent) = a.frexp();
            assert!(
                same(values[lane(g * VALUES + 2)], mantissa),
                "{what} frexp({a:?})"
            );
            assert_eq!(
                ints[lane(g * OUTPUTS)],
                exponent,
                "{what} frexp({a:?}) exponent"
            );
            if v > 0.0 {
                assert_eq!(
                    ints[lane(g * OUTPUTS + 2)],
                    1,
                    "{what} lgamma_r({a:?}) sign"
                );
            }
            if v.abs() < 100.0 {
                let (sin, cos) = v.sin_cos();
                let (got_sin, got_cos) =
                    (values[lane(g * VALUES + 4)], outputs[lane(g * OUTPUTS + 2)]);
                assert!(
                    (got_sin.to_f64() - sin).abs() < 1e-6,
                    "{what} sin({a:?}) = {got_sin:?}"
                );
                assert!(
                    (got_cos.to_f64() - cos).abs() < 1e-6,
                    "{what} cos({a:?}) = {got_cos:?}"
                );
            }
        }
    }
}

#[test]
fn pointer_builtins_on_float8_and_float16() {
    let (context, queue) = common::context_and_queue();
    let source =
        std::fs::read_to_string(common::repo_path("tests/kernels/wide_pointer_builtins.cl"))
            .expect("kernel source");
    let program = common::launch::build_source(&context, &source, "");
    check::<f32>(&context, &queue, &program, 8);
    check::<f32>(&context, &queue, &program, 16);
}

#[test]
fn pointer_builtins_on_double8_and_double16_when_the_device_reports_fp64() {
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
    let source =
        std::fs::read_to_string(common::repo_path("tests/kernels/wide_pointer_builtins.cl"))
            .expect("kernel source");
    let program = common::launch::build_source(&context, &source, "-D WITH_DOUBLE");
    check::<f64>(&context, &queue, &program, 8);
    check::<f64>(&context, &queue, &program, 16);
}
