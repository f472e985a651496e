//! Accuracy of the single-precision trigonometric built-ins
//! (`tests/kernels/math_trig*.cl`) against the OpenCL C full-profile ULP
//! bounds: dense sweeps (linear over [-4pi, 4pi], log-spaced magnitudes up
//! to FLT_MAX, floats at and next to multiples of pi/4, the floats closest
//! to multiples of pi/2 found from continued fractions of 2^e 2/pi, and the
//! special values) evaluated on the device and compared with an f64 host
//! reference. The `*pi` references reduce their argument exactly in f64
//! first. The device flushes subnormals (no CL_FP_DENORM), so a subnormal
//! input may act as a zero and a subnormal result may be flushed.
//! A table of the worst error per function is printed.

mod common;

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::CL_BLOCKING;
use std::f64::consts::PI;
use std::ptr;

// ---------------------------------------------------------------- device

struct Gpu {
    context: Context,
    queue: CommandQueue,
}

impl Gpu {
    fn new() -> Self {
        for (k, v) in common::opencl_env() {
            // SAFETY: tests in this binary only ever set these same values.
            unsafe { std::env::set_var(k, v) };
        }
        let platforms = get_platforms().expect("platforms");
        let ids = platforms[0]
            .get_devices(CL_DEVICE_TYPE_ALL)
            .expect("devices");
        let device = Device::new(ids[0]);
        let context = Context::from_device(&device).expect("context");
        #[allow(deprecated)]
        let queue = CommandQueue::create_default(&context, 0).expect("queue");
        Gpu { context, queue }
    }

    /// Builds a kernel file; a first line `// options: ...` gives options.
    fn build(&self, file: &str) -> Program {
        let source = std::fs::read_to_string(common::repo_path(file)).expect("kernel source");
        let options = source
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("// options:"))
            .unwrap_or("")
            .trim()
            .to_string();
        Program::create_and_build_from_source(&self.context, &source, &options)
            .unwrap_or_else(|log| panic!("build of {file} failed:\n{log}"))
    }

    fn buffer(&self, data: &[f32]) -> Buffer<f32> {
        // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
        let mut b = unsafe {
            Buffer::<f32>::create(
                &self.context,
                CL_MEM_READ_WRITE,
                data.len(),
                ptr::null_mut(),
            )
        }
        .expect("create buffer");
        // SAFETY: blocking, so `data` outlives the transfer.
        unsafe {
            self.queue
                .enqueue_write_buffer(&mut b, CL_BLOCKING, 0, data, &[])
        }
        .expect("write");
        b
    }

    fn read(&self, buffer: &Buffer<f32>, n: usize) -> Vec<f32> {
        let mut out = vec![0.0f32; n];
        // SAFETY: blocking, so `out` outlives the transfer.
        unsafe {
            self.queue
                .enqueue_read_buffer(buffer, CL_BLOCKING, 0, &mut out, &[])
        }
        .expect("read");
        out
    }

    /// Runs `kernel` over `work_items` with the given input buffers
    /// followed by `outputs` output buffers of `output_len` floats each.
    fn run(
        &self,
        program: &Program,
        kernel: &str,
        inputs: &[&[f32]],
        outputs: usize,
        output_len: usize,
        work_items: usize,
    ) -> Vec<Vec<f32>> {
        let kernel = Kernel::create(program, kernel).expect("kernel");
        let ins: Vec<_> = inputs.iter().map(|d| self.buffer(d)).collect();
        let outs: Vec<_> = (0..outputs)
            .map(|_| self.buffer(&vec![0.0; output_len]))
            .collect();
        let mut exec = ExecuteKernel::new(&kernel);
        for b in ins.iter().chain(&outs) {
            // SAFETY: every kernel argument is a float buffer this big.
            unsafe { exec.set_arg(b) };
        }
        // SAFETY: arguments set above; buffers outlive the blocking reads.
        unsafe {
            exec.set_global_work_size(work_items)
                .enqueue_nd_range(&self.queue)
        }
        .expect("enqueue");
        outs.iter().map(|b| self.read(b, output_len)).collect()
    }
}

// ---------------------------------------------------------------- ULPs

/// The error of `got` in ulps of the float nearest `want`; infinite for a
/// wrong special value (NaN, infinity, or a zero of the wrong sign).
fn ulp_error(got: f32, want: f64) -> f64 {
    if want.is_nan() || got.is_nan() {
        return if want.is_nan() && got.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    let got = f64::from(got);
    if want.is_infinite() || want == 0.0 {
        let same = got == want && got.is_sign_negative() == want.is_sign_negative();
        return if same { 0.0 } else { f64::INFINITY };
    }
    let aw = want.abs();
    // A result the device may flush: any zero, or the subnormal itself.
    if aw < f64::from(f32::MIN_POSITIVE) && got == 0.0 {
        return 0.0;
    }
    let exponent = ((aw.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let ulp = 2f64.powi(exponent.max(-126) - 23);
    (got - want).abs() / ulp
}

fn is_subnormal(x: f32) -> bool {
    x != 0.0 && x.abs() < f32::MIN_POSITIVE
}

/// A subnormal input may be read as a zero of its sign.
fn flushed(x: f32) -> f32 {
    if is_subnormal(x) {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// The error of `got` for a function of one argument, allowing the
/// flushed reading of a subnormal argument.
fn error1(got: f32, x: f32, reference: fn(f32) -> f64) -> f64 {
    let e = ulp_error(got, reference(x));
    if is_subnormal(x) {
        e.min(ulp_error(got, reference(flushed(x))))
    } else {
        e
    }
}

fn error2(got: f32, y: f32, x: f32, reference: fn(f32, f32) -> f64) -> f64 {
    let mut e = ulp_error(got, reference(y, x));
    for (yy, xx) in [(flushed(y), x), (y, flushed(x)), (flushed(y), flushed(x))] {
        e = e.min(ulp_error(got, reference(yy, xx)));
    }
    e
}

/// Worst error seen for one function, and where.
struct Worst {
    name: &'static str,
    bound: f64,
    ulps: f64,
    at: String,
    failures: Vec<String>,
    count: usize,
}

impl Worst {
    fn new(name: &'static str, bound: f64) -> Self {
        Worst {
            name,
            bound,
            ulps: 0.0,
            at: String::new(),
            failures: Vec::new(),
            count: 0,
        }
    }
    fn record(&mut self, e: f64, describe: impl Fn() -> String) {
        self.count += 1;
        if e > self.ulps {
            self.ulps = e;
            self.at = describe();
        }
        if e > self.bound && self.failures.len() < 8 {
            self.failures.push(describe());
        }
    }
}

// ---------------------------------------------------------------- references

fn sinpi_ref(x: f32) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let x = f64::from(x);
    let t = x.abs() % 2.0;
    let (r, negate) = if t < 1.0 { (t, false) } else { (t - 1.0, true) };
    let magnitude = (PI * r.min(1.0 - r)).sin();
    // sinpi(+n) = +0, sinpi(-n) = -0.
    let v = if negate { -magnitude } else { magnitude };
    let v = if v == 0.0 { 0.0 } else { v };
    if x.is_sign_negative() {
        -v
    } else {
        v
    }
}

fn cospi_ref(x: f32) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let t = f64::from(x).abs() % 2.0;
    let u = if t > 1.0 { 2.0 - t } else { t };
    let v = if u <= 0.25 {
        (PI * u).cos()
    } else if u < 0.75 {
        (PI * (0.5 - u)).sin()
    } else {
        -(PI * (1.0 - u)).cos()
    };
    // cospi(n + 0.5) = +0.
    if v == 0.0 {
        0.0
    } else {
        v
    }
}

fn tanpi_ref(x: f32) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let x = f64::from(x);
    let a = x.abs();
    let odd = a % 2.0 >= 1.0;
    let f = a % 1.0;
    let v = if f == 0.0 {
        // tanpi(n) = copysign(0, n) for even n, copysign(0, -n) for odd n.
        if odd {
            -0.0
        } else {
            0.0
        }
    } else if f == 0.5 {
        // tanpi(n + 0.5) = +inf for even n, -inf for odd n.
        if odd {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        }
    } else if f < 0.25 {
        (PI * f).tan()
    } else if f <= 0.75 {
        1.0 / (PI * (0.5 - f)).tan()
    } else {
        -(PI * (1.0 - f)).tan()
    };
    if x.is_sign_negative() {
        -v
    } else {
        v
    }
}

fn sin_ref(x: f32) -> f64 {
    f64::from(x).sin()
}
fn cos_ref(x: f32) -> f64 {
    f64::from(x).cos()
}
fn tan_ref(x: f32) -> f64 {
    f64::from(x).tan()
}
fn asin_ref(x: f32) -> f64 {
    f64::from(x).asin()
}
fn acos_ref(x: f32) -> f64 {
    f64::from(x).acos()
}
fn atan_ref(x: f32) -> f64 {
    f64::from(x).atan()
}
fn asinpi_ref(x: f32) -> f64 {
    f64::from(x).asin() / PI
}
fn acospi_ref(x: f32) -> f64 {
    f64::from(x).acos() / PI
}
fn atanpi_ref(x: f32) -> f64 {
    f64::from(x).atan() / PI
}
fn atan2_ref(y: f32, x: f32) -> f64 {
    f64::from(y).atan2(f64::from(x))
}
fn atan2pi_ref(y: f32, x: f32) -> f64 {
    f64::from(y).atan2(f64::from(x)) / PI
}

// ---------------------------------------------------------------- inputs

/// A small deterministic generator (64-bit LCG, high bits).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 32) as u32
    }
}

const SPECIALS: [f32; 12] = [
    0.0,
    -0.0,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    f32::MAX,
    -f32::MAX,
    f32::MIN_POSITIVE,
    -f32::MIN_POSITIVE,
    1.0e-40,
    -1.0e-40,
    1.0,
];

/// Tiny normal magnitudes where a device that flushes subnormals loses
/// the low part of a split product (`x * pi_hi + x * pi_lo` and the like)
/// unless the implementation rescales: the inputs that failed on such a
/// device, and the binades around the rescaling limit 2^-60 and FLT_MIN,
/// both signs.
fn tiny_edges() -> Vec<f32> {
    let mut v = vec![
        2.583_732_6e-35,
        1.461_719_9e-35,
        1.794_970_5e-35,
        2.256_893e-35,
        2.141_688e-35,
        1.0e-35,
        3.0e-38,
    ];
    for e in [
        -126, -125, -120, -110, -100, -90, -80, -70, -61, -60, -59, -50,
    ] {
        for m in [1.0f32, 1.000_000_1, 1.333_333_4, 1.5, 1.999_999_9] {
            v.extend(with_neighbours(m * 2f32.powi(e)));
        }
    }
    let negated: Vec<f32> = v.iter().map(|x| -x).collect();
    v.extend(negated);
    v
}

fn linear(lo: f64, hi: f64, n: usize) -> impl Iterator<Item = f32> {
    (0..n).map(move |i| (lo + (hi - lo) * i as f64 / (n - 1) as f64) as f32)
}

/// `per_binade` random floats in each binade 2^e for e in `exponents`,
/// both signs.
fn log_spaced(exponents: std::ops::RangeInclusive<i32>, per_binade: usize) -> Vec<f32> {
    let mut rng = Lcg(0x5eed);
    let mut out = Vec::new();
    for e in exponents {
        for _ in 0..per_binade {
            let bits = (((e + 127) as u32) << 23) | (rng.next() >> 9);
            let v = f32::from_bits(bits);
            out.push(v);
            out.push(-v);
        }
    }
    out
}

/// `x` and its two float neighbours.
fn with_neighbours(x: f32) -> [f32; 3] {
    [x.next_down(), x, x.next_up()]
}

/// The bits of 2/pi after the binary point (independent of the
/// translator's table: recomputed from pi with arbitrary precision offline
/// and checked here against f64 for the leading word).
const TWO_OVER_PI: [u32; 9] = [
    0xa2f9_836e,
    0x4e44_1529,
    0xfc27_57d1,
    0xf534_ddc0,
    0xdb62_9599,
    0x3c43_9041,
    0xfe51_63ab,
    0xdebb_c561,
    0xb724_6e3a,
];

/// frac(2^s * 2/pi) as a 64-bit binary fraction.
fn scaled_two_over_pi(s: i32) -> u64 {
    let bit = |k: i64| -> u64 {
        // bit k >= 1 of 2/pi (k = 1 is the first after the point).
        if !(1..=288).contains(&k) {
            return 0;
        }
        let k = (k - 1) as usize;
        u64::from((TWO_OVER_PI[k / 32] >> (31 - k % 32)) & 1)
    };
    (0..64).fold(0u64, |acc, i| (acc << 1) | bit(i64::from(s) + 1 + i))
}

/// For each exponent s (floats m 2^s, m in [2^23, 2^24)), the mantissas
/// whose multiple of 2/pi is nearest an integer: built from the
/// continued-fraction convergents of frac(2^s 2/pi), which give the best
/// approximations, and the four closest kept. Those are the floats nearest
/// to multiples of pi/2, where reduction cancels the most.
fn near_multiples_of_half_pi() -> Vec<f32> {
    let mut out = Vec::new();
    for s in -22..=104 {
        let c = scaled_two_over_pi(s);
        // Convergent denominators of c / 2^64.
        let (mut a, mut b) = (1u128 << 64, u128::from(c));
        let (mut q_prev, mut q) = (0u128, 1u128);
        let mut denominators = vec![1u128];
        while b != 0 && q < 1 << 24 {
            let t = a / b;
            (a, b) = (b, a - t * b);
            (q_prev, q) = (q, t * q + q_prev);
            denominators.push(q);
        }
        let distance = |m: u64| {
            let f = m.wrapping_mul(c);
            f.min(f.wrapping_neg())
        };
        let mut candidates: Vec<u64> = Vec::new();
        for w in denominators.windows(2) {
            for i in 0..64u128 {
                for j in 0..4u128 {
                    let m = i * w[1] + j * w[0];
                    if (1 << 23..1 << 24).contains(&m) {
                        candidates.push(m as u64);
                    }
                }
            }
        }
        candidates.sort_by_key(|&m| distance(m));
        candidates.dedup();
        for &m in candidates.iter().take(4) {
            let bits = (((s + 150) as u32) << 23) | (m as u32 - (1 << 23));
            for v in with_neighbours(f32::from_bits(bits)) {
                out.push(v);
                out.push(-v);
            }
        }
    }
    out
}

fn trig_inputs() -> Vec<f32> {
    let mut v: Vec<f32> = linear(-4.0 * PI, 4.0 * PI, 200_001).collect();
    v.extend(log_spaced(-126..=127, 300));
    for k in 1..=4096 {
        for x in with_neighbours((k as f64 * PI / 4.0) as f32) {
            v.extend([x, -x]);
        }
    }
    // Multiples of pi/2 with large k, rounded to float (f64 is exact
    // enough to round k pi/2 for k below 2^26).
    let mut k = 1.0f64;
    while k < 67_108_864.0 {
        for x in with_neighbours((k.round() * PI / 2.0) as f32) {
            v.extend([x, -x]);
        }
        k *= 1.05;
    }
    v.extend(near_multiples_of_half_pi());
    v.extend(tiny_edges());
    v.extend(SPECIALS);
    v
}

fn pi_inputs() -> Vec<f32> {
    let mut v: Vec<f32> = linear(-4.0, 4.0, 200_001).collect();
    v.extend(log_spaced(-126..=127, 200));
    for n in -2000..=2000 {
        let n = n as f32;
        for x in [n, n + 0.5, n + 0.25, n + 0.75] {
            v.extend(with_neighbours(x));
        }
    }
    for e in 20..=30 {
        let big = 2f32.powi(e);
        for x in [big, big + 0.5, big + 1.0, big - 0.5, big + 2.0, big + 3.0] {
            v.extend([x, -x]);
        }
    }
    v.extend(tiny_edges());
    v.extend(SPECIALS);
    v
}

fn asin_inputs() -> Vec<f32> {
    let mut v: Vec<f32> = linear(-1.0, 1.0, 200_001).collect();
    v.extend(log_spaced(-126..=-1, 300));
    for k in 0..2000u32 {
        let x = f32::from_bits(1.0f32.to_bits() - k);
        v.extend([x, -x]);
        let half = f32::from_bits(0.5f32.to_bits() - 1000 + k);
        v.extend([half, -half]);
    }
    v.extend([1.000_000_1, -1.000_000_1, 2.0, -2.0]);
    v.extend(tiny_edges());
    v.extend(SPECIALS);
    v
}

fn atan_inputs() -> Vec<f32> {
    let mut v: Vec<f32> = linear(-10.0, 10.0, 200_001).collect();
    v.extend(log_spaced(-126..=127, 400));
    for edge in [0.414_213_57f32, 2.414_213_5, 1.0] {
        let b = edge.to_bits();
        for k in 0..200u32 {
            let x = f32::from_bits(b - 100 + k);
            v.extend([x, -x]);
        }
    }
    // Huge arguments, where -1/x is tiny, and the infinities on their own
    // (atan(+-inf) = +-pi/2 must not come from inf/inf or inf * 0).
    for e in [64, 100, 120, 126, 127] {
        v.extend(with_neighbours(2f32.powi(e)));
    }
    v.extend(tiny_edges());
    v.extend([f32::INFINITY, f32::NEG_INFINITY]);
    v.extend(SPECIALS);
    v
}

/// (y, x) pairs: a grid over log-spaced magnitudes of both signs and the
/// special values, and pairs of nearly equal magnitudes.
fn atan2_inputs() -> (Vec<f32>, Vec<f32>) {
    let mut values = log_spaced(-126..=127, 2);
    values.extend(linear(-3.0, 3.0, 61));
    values.extend(SPECIALS);
    values.extend([-1.0, 2.0, -2.0]);
    let (mut ys, mut xs) = (Vec::new(), Vec::new());
    for &y in &values {
        for &x in &values {
            ys.push(y);
            xs.push(x);
        }
    }
    // Ratios whose angle is tiny but normal (the failing pairs of a
    // device that flushes subnormals among them), with both signs of
    // each, and finite values against the infinities.
    let mut tiny_ratio = Vec::new();
    for &y in &[9.546_681e-28f32, 1.0e-30, 2f32.powi(-100), 3.0e-20, 1.0e-35] {
        for &x in &[
            5.316_388_5e6f32,
            1.433_119_4e7,
            1.637_125_8e7,
            2.441_029_6e7,
            1.971_088e7,
            6.393_564_4e7,
            6.228_262_4e7,
            1.163_477e8,
            1.0e3,
            7.0e10,
        ] {
            tiny_ratio.push((y, x));
        }
    }
    for &y in &values {
        if y.is_finite() {
            tiny_ratio.push((y, f32::INFINITY));
            tiny_ratio.push((f32::INFINITY, y));
        }
    }
    for (y, x) in tiny_ratio {
        for (sy, sx) in [(1.0, 1.0), (-1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)] {
            ys.push(sy * y);
            xs.push(sx * x);
        }
    }
    let mut rng = Lcg(7);
    for _ in 0..100_000 {
        let y = f32::from_bits(rng.next() & 0x7fff_ffff | (rng.next() & 0x8000_0000));
        let x = f32::from_bits(
            y.to_bits().wrapping_add(rng.next() % 2_000_000) ^ (rng.next() & 0x8000_0000),
        );
        if y.is_finite() && x.is_finite() {
            ys.push(y);
            xs.push(x);
        }
    }
    (ys, xs)
}

// ---------------------------------------------------------------- tests

struct Unary {
    name: &'static str,
    kernel: &'static str,
    bound: f64,
    reference: fn(f32) -> f64,
    inputs: fn() -> Vec<f32>,
}

const UNARY: [Unary; 12] = [
    Unary {
        name: "sin",
        kernel: "k_sin",
        bound: 4.0,
        reference: sin_ref,
        inputs: trig_inputs,
    },
    Unary {
        name: "cos",
        kernel: "k_cos",
        bound: 4.0,
        reference: cos_ref,
        inputs: trig_inputs,
    },
    Unary {
        name: "tan",
        kernel: "k_tan",
        bound: 5.0,
        reference: tan_ref,
        inputs: trig_inputs,
    },
    Unary {
        name: "sinpi",
        kernel: "k_sinpi",
        bound: 4.0,
        reference: sinpi_ref,
        inputs: pi_inputs,
    },
    Unary {
        name: "cospi",
        kernel: "k_cospi",
        bound: 4.0,
        reference: cospi_ref,
        inputs: pi_inputs,
    },
    Unary {
        name: "tanpi",
        kernel: "k_tanpi",
        bound: 6.0,
        reference: tanpi_ref,
        inputs: pi_inputs,
    },
    Unary {
        name: "asin",
        kernel: "k_asin",
        bound: 4.0,
        reference: asin_ref,
        inputs: asin_inputs,
    },
    Unary {
        name: "acos",
        kernel: "k_acos",
        bound: 4.0,
        reference: acos_ref,
        inputs: asin_inputs,
    },
    Unary {
        name: "asinpi",
        kernel: "k_asinpi",
        bound: 5.0,
        reference: asinpi_ref,
        inputs: asin_inputs,
    },
    Unary {
        name: "acospi",
        kernel: "k_acospi",
        bound: 5.0,
        reference: acospi_ref,
        inputs: asin_inputs,
    },
    Unary {
        name: "atan",
        kernel: "k_atan",
        bound: 5.0,
        reference: atan_ref,
        inputs: atan_inputs,
    },
    Unary {
        name: "atanpi",
        kernel: "k_atanpi",
        bound: 5.0,
        reference: atanpi_ref,
        inputs: atan_inputs,
    },
];

fn check_unary(worst: &mut Worst, xs: &[f32], got: &[f32], reference: fn(f32) -> f64) {
    for (&x, &g) in xs.iter().zip(got) {
        let e = error1(g, x, reference);
        worst.record(e, || {
            format!(
                "x = {x:e} ({:#010x}): got {g:e}, want {:e}",
                x.to_bits(),
                reference(x)
            )
        });
    }
}

/// Prints the table (`*`: `sincos` writing straight into a buffer) and
/// fails on any bound exceeded.
fn report(results: &[Worst]) {
    println!(
        "\n{:<10} {:>6} {:>10} {:>9}  worst at",
        "function", "bound", "max ulp", "inputs"
    );
    for w in results {
        println!(
            "{:<10} {:>6} {:>10.3} {:>9}  {}",
            w.name, w.bound, w.ulps, w.count, w.at
        );
    }
    let failures: Vec<_> = results
        .iter()
        .filter(|w| !w.failures.is_empty())
        .map(|w| {
            format!(
                "{} (bound {} ulp):\n  {}",
                w.name,
                w.bound,
                w.failures.join("\n  ")
            )
        })
        .collect();
    assert!(
        failures.is_empty(),
        "bounds exceeded:\n{}",
        failures.join("\n")
    );
}

#[test]
fn trig_builtins_meet_full_profile_ulp_bounds() {
    // The reference table itself: its first 53 bits are f64's 2/pi.
    let leading =
        (u64::from(TWO_OVER_PI[0]) << 32 | u64::from(TWO_OVER_PI[1])) as f64 / 2f64.powi(64);
    assert!((leading - 2.0 / PI).abs() < 1e-15);
    let gpu = Gpu::new();
    let program = gpu.build("tests/kernels/math_trig.cl");
    let mut results = Vec::new();
    for f in &UNARY {
        let xs = (f.inputs)();
        let got = gpu.run(&program, f.kernel, &[&xs], 1, xs.len(), xs.len());
        let mut worst = Worst::new(f.name, f.bound);
        check_unary(&mut worst, &xs, &got[0], f.reference);
        results.push(worst);
    }
    let xs = trig_inputs();
    for (kernel, sin_name, cos_name) in [
        ("k_sincos", "sincos s", "sincos c"),
        ("k_sincos_global", "sincos s*", "sincos c*"),
    ] {
        let got = gpu.run(&program, kernel, &[&xs], 2, xs.len(), xs.len());
        let mut sin = Worst::new(sin_name, 4.0);
        let mut cos = Worst::new(cos_name, 4.0);
        check_unary(&mut sin, &xs, &got[0], sin_ref);
        check_unary(&mut cos, &xs, &got[1], cos_ref);
        results.extend([sin, cos]);
    }
    let (ys, xs) = atan2_inputs();
    for (name, kernel, reference) in [
        ("atan2", "k_atan2", atan2_ref as fn(f32, f32) -> f64),
        ("atan2pi", "k_atan2pi", atan2pi_ref),
    ] {
        let got = gpu.run(&program, kernel, &[&ys, &xs], 1, xs.len(), xs.len());
        let mut worst = Worst::new(name, 6.0);
        for ((&y, &x), &g) in ys.iter().zip(&xs).zip(&got[0]) {
            let e = error2(g, y, x, reference);
            worst.record(e, || {
                format!(
                    "y = {y:e}, x = {x:e}: got {g:e}, want {:e}",
                    reference(y, x)
                )
            });
        }
        results.push(worst);
    }
    report(&results);
}

/// Every vector width computes lane by lane what the scalar function
/// computes (bit for bit), including the 8- and 16-lane vectors split into
/// parts.
#[test]
fn trig_builtins_on_vectors_match_scalars() {
    const G: usize = 2048;
    let gpu = Gpu::new();
    let scalar = gpu.build("tests/kernels/math_trig.cl");
    let vector = gpu.build("tests/kernels/math_trig_vectors.cl");
    let pool = trig_inputs();
    let xs: Vec<f32> = (0..33 * G).map(|i| pool[(i * 7919) % pool.len()]).collect();
    let same = |a: f32, b: f32| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
    for f in &UNARY {
        let want = gpu.run(&scalar, f.kernel, &[&xs], 1, xs.len(), xs.len());
        let got = gpu.run(&vector, &format!("v_{}", f.name), &[&xs], 1, xs.len(), G);
        let bad: Vec<_> = (0..xs.len())
            .filter(|&i| !same(got[0][i], want[0][i]))
            .take(5)
            .map(|i| {
                format!(
                    "lane {i}: x = {:e} vector {:e} scalar {:e}",
                    xs[i], got[0][i], want[0][i]
                )
            })
            .collect();
        assert!(bad.is_empty(), "{}: {}", f.name, bad.join("; "));
    }
    // atan2 with x = 0.75 y - 1 computed in the kernel: checked against
    // the bound.
    let second: Vec<f32> = xs.iter().map(|&v| v * 0.75 - 1.0).collect();
    for (name, reference) in [
        ("atan2_x", atan2_ref as fn(f32, f32) -> f64),
        ("atan2pi_x", atan2pi_ref),
    ] {
        let got = gpu.run(&vector, &format!("v_{name}"), &[&xs], 1, xs.len(), G);
        let mut worst = Worst::new("atan2 vec", 6.0);
        for i in 0..xs.len() {
            let e = error2(got[0][i], xs[i], second[i], reference);
            worst.record(e, || {
                format!("{name} lane {i}: y = {:e} got {:e}", xs[i], got[0][i])
            });
        }
        assert!(worst.failures.is_empty(), "{name}: {:?}", worst.failures);
    }
    // sincos on 4 lanes, and on 8 and 16 lanes (split in 4-lane parts
    // at the call, the output pointer cast to each part).
    for (kernel, lanes) in [("v_sincos", 4), ("v_sincos_wide", 24)] {
        let n = lanes * G;
        let want = gpu.run(&scalar, "k_sincos", &[&xs[..n]], 2, n, n);
        let got = gpu.run(&vector, kernel, &[&xs[..n]], 2, n, G);
        for k in 0..2 {
            for i in 0..n {
                assert!(
                    same(got[k][i], want[k][i]),
                    "{kernel} output {k} lane {i}: x = {:e} vector {:e} scalar {:e}",
                    xs[i],
                    got[k][i],
                    want[k][i]
                );
            }
        }
    }
}

/// `-cl-fast-relaxed-math` uses the hardware functions: sin and cos within
/// the relaxed 2^-11 absolute error on [-pi, pi], the inverse functions
/// within their relaxed ulp bounds; half_* within 8192 ulp (checked here
/// away from the zeros too; `half_and_native_trig_over_their_domains`
/// checks them everywhere).
#[test]
fn relaxed_and_half_trig_builtins() {
    let gpu = Gpu::new();
    let program = gpu.build("tests/kernels/math_trig_fast.cl");
    let xs: Vec<f32> = linear(-PI, PI, 20_001).collect();
    let n = xs.len();
    let got = gpu.run(&program, "fast", &[&xs], 1, 10 * n, n);
    let y = &got[0];
    for (i, &x) in xs.iter().enumerate() {
        let (s, c, t) = (sin_ref(x), cos_ref(x), tan_ref(x));
        assert!(
            (f64::from(y[i]) - s).abs() <= 2f64.powi(-11),
            "fast sin({x})"
        );
        assert!(
            (f64::from(y[n + i]) - c).abs() <= 2f64.powi(-11),
            "fast cos({x})"
        );
        if t.abs() < 1e3 {
            assert!(
                (f64::from(y[2 * n + i]) - t).abs() <= 2f64.powi(-10) * t.abs().max(1.0),
                "fast tan({x})"
            );
        }
        // The relaxed bounds of the inverse functions (OpenCL SPIR-V
        // environment, "ULP values ... with fast relaxed math").
        let quarter = x * 0.25;
        for (k, want, bound) in [
            (6, asin_ref(quarter), 4096.0),
            (7, acos_ref(quarter), 4096.0),
            (8, atan_ref(x), 4096.0),
            (9, atan2_ref(x, 1.5), 8192.0),
        ] {
            let e = ulp_error(y[k * n + i], want);
            assert!(e <= bound, "relaxed inverse function {k} at {x}: {e} ulp");
        }
        for (k, want) in [(3, s), (4, c), (5, t)] {
            if want.abs() > 1.0 / 16.0 && want.abs() < 1e3 {
                let e = ulp_error(y[k * n + i], want);
                assert!(e <= 8192.0, "half function {k} at {x}: {e} ulp");
            }
        }
    }
}

/// The continued-fraction search finds the hard cases: the nearest to a
/// multiple of pi/2 among its floats is 16367173 * 2^72, about 2^-29.2
/// away, the known binary32 worst case for argument reduction.
#[test]
fn hard_reduction_cases_are_found() {
    let (distance, x) = near_multiples_of_half_pi()
        .into_iter()
        .map(|x| {
            let v = f64::from(x);
            (v.sin().abs().min(v.cos().abs()), x)
        })
        .fold((1.0, 0.0), |best, c| if c.0 < best.0 { c } else { best });
    assert_eq!(x.abs(), 16_367_173.0 * 2f32.powi(72), "at {distance:e}");
    assert!(distance < 2f64.powi(-29), "{distance:e}");
}

/// `half_sin`, `half_cos` and `half_tan` within 8192 ulp over their whole
/// domain |x| <= 2^16, zeros and poles included, and `native_sin`,
/// `native_cos`, `native_tan` (implementation-defined accuracy) held to
/// the same bound over the whole float range: both must reduce their
/// argument, which Vulkan's `Sin`/`Cos` need not (NVIDIA's do not:
/// `half_sin(72.26f)` was about 10^6 ulp off).
#[test]
fn half_and_native_trig_over_their_domains() {
    let gpu = Gpu::new();
    let program = gpu.build("tests/kernels/math_trig_half_native.cl");
    let domain = 65536.0f32;
    let mut xs: Vec<f32> = linear(-f64::from(domain), f64::from(domain), 100_001).collect();
    xs.extend(with_neighbours(72.26));
    xs.extend(log_spaced(-30..=15, 200));
    let hard: Vec<f32> = near_multiples_of_half_pi()
        .into_iter()
        .flat_map(with_neighbours)
        .collect();
    xs.extend(hard.iter().filter(|x| x.abs() <= domain));
    let first_wide = xs.len();
    // Beyond half_*'s domain: native_* only.
    xs.extend(log_spaced(16..=127, 100));
    xs.extend(hard.iter().filter(|x| x.abs() > domain));
    let n = xs.len();
    let got = gpu.run(&program, "half_native", &[&xs], 1, 6 * n, n);
    let y = &got[0];
    let mut worst = [0.0f64; 6];
    for (i, &x) in xs.iter().enumerate() {
        let refs = [sin_ref(x), cos_ref(x), tan_ref(x)];
        for k in 0..6 {
            if k < 3 && i >= first_wide {
                continue;
            }
            let e = ulp_error(y[k * n + i], refs[k % 3]);
            worst[k] = worst[k].max(e);
            assert!(
                e <= 8192.0,
                "{} at {x:e}: {:e}, want {:e} ({e} ulp)",
                [
                    "half_sin",
                    "half_cos",
                    "half_tan",
                    "native_sin",
                    "native_cos",
                    "native_tan"
                ][k],
                y[k * n + i],
                refs[k % 3]
            );
        }
    }
    println!("worst ulp: half sin/cos/tan, native sin/cos/tan: {worst:?}");
}
