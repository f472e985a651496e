//! A reusable ULP harness for the math built-ins: runs a kernel over an
//! input set on the device, compares each result with a host reference
//! computed in f64, and keeps the worst error per function.
//!
//! Errors are in units of the f32 spacing at the reference value (of the
//! `half` spacing for `half` results, [`Worst::half`]). Special
//! values must match exactly: NaN for NaN, the same infinity, and a zero's
//! sign where the reference is an exact zero. The device does not report
//! denormal support, so a reference below FLT_MIN may also come back as
//! zero (flushed), and inputs in the sweeps are never subnormal.

#![allow(dead_code)]

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::CL_BLOCKING;
use std::ptr;

/// A context and queue on clvulkan, with the math kernels built.
pub struct Runner {
    pub context: Context,
    pub queue: CommandQueue,
    pub program: Program,
}

impl Runner {
    /// Sets up clvulkan alone (validation fatal) and builds `file`.
    pub fn new(file: &str) -> Runner {
        Runner::with_options(file, "")
    }

    /// As [`Runner::new`], with build options.
    pub fn with_options(file: &str, options: &str) -> Runner {
        for (k, v) in super::opencl_env() {
            // SAFETY: tests in this binary only ever set these same values.
            unsafe { std::env::set_var(k, v) };
        }
        let platforms = get_platforms().expect("platforms");
        assert_eq!(platforms.len(), 1, "only clvulkan should be visible");
        let ids = platforms[0]
            .get_devices(CL_DEVICE_TYPE_ALL)
            .expect("devices");
        let device = Device::new(ids[0]);
        let context = Context::from_device(&device).expect("context");
        #[allow(deprecated)]
        let queue = CommandQueue::create_default(&context, 0).expect("queue");
        let source = std::fs::read_to_string(super::repo_path(file)).expect("kernel source");
        let program = Program::create_and_build_from_source(&context, &source, options)
            .unwrap_or_else(|log| panic!("build failed:\n{log}"));
        Runner {
            context,
            queue,
            program,
        }
    }

    fn input<T: Copy>(&self, data: &[T]) -> Buffer<T> {
        // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
        let mut b = unsafe {
            Buffer::<T>::create(&self.context, CL_MEM_READ_ONLY, data.len(), ptr::null_mut())
        }
        .expect("create buffer");
        // SAFETY: blocking, so `data` outlives the transfer.
        unsafe {
            self.queue
                .enqueue_write_buffer(&mut b, CL_BLOCKING, 0, data, &[])
        }
        .expect("write buffer");
        b
    }

    fn output<T>(&self, n: usize) -> Buffer<T> {
        // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
        unsafe { Buffer::<T>::create(&self.context, CL_MEM_WRITE_ONLY, n, ptr::null_mut()) }
            .expect("create buffer")
    }

    fn read<T: Copy + Default>(&self, b: &Buffer<T>, n: usize) -> Vec<T> {
        let mut out = vec![T::default(); n];
        // SAFETY: blocking, so `out` outlives the transfer.
        unsafe {
            self.queue
                .enqueue_read_buffer(b, CL_BLOCKING, 0, &mut out, &[])
        }
        .expect("read buffer");
        out
    }

    /// Runs `kernel` with one input buffer per entry of `inputs` (each
    /// `n` elements of 4 bytes), `outputs` output buffers, over `work`
    /// work-items, and returns the outputs' bits.
    pub fn run_raw(
        &self,
        kernel: &str,
        inputs: &[&[u32]],
        outputs: usize,
        n: usize,
        work: usize,
    ) -> Vec<Vec<u32>> {
        let kernel = Kernel::create(&self.program, kernel).expect("kernel");
        let ins: Vec<Buffer<u32>> = inputs.iter().map(|d| self.input(d)).collect();
        let outs: Vec<Buffer<u32>> = (0..outputs).map(|_| self.output(n)).collect();
        let mut exec = ExecuteKernel::new(&kernel);
        for b in &ins {
            // SAFETY: the kernels take these buffers in this order.
            unsafe { exec.set_arg(b) };
        }
        for b in &outs {
            // SAFETY: as above.
            unsafe { exec.set_arg(b) };
        }
        // SAFETY: every argument is set.
        unsafe {
            exec.set_global_work_size(work)
                .enqueue_nd_range(&self.queue)
        }
        .expect("enqueue");
        outs.iter().map(|b| self.read(b, n)).collect()
    }

    /// `kernel(x)` for every `x` (unary kernels on float4: `lanes` = 4).
    pub fn unary(&self, kernel: &str, x: &[f32], lanes: usize) -> Vec<f32> {
        let n = x.len().div_ceil(lanes) * lanes;
        let mut bits: Vec<u32> = x.iter().map(|v| v.to_bits()).collect();
        bits.resize(n, 0);
        let out = self.run_raw(kernel, &[&bits], 1, n, n / lanes);
        out[0][..x.len()]
            .iter()
            .map(|b| f32::from_bits(*b))
            .collect()
    }

    /// `kernel(x, y)` pairwise, on scalar kernels.
    pub fn binary(&self, kernel: &str, x: &[f32], y: &[u32]) -> Vec<f32> {
        let xb: Vec<u32> = x.iter().map(|v| v.to_bits()).collect();
        let out = self.run_raw(kernel, &[&xb, y], 1, x.len(), x.len());
        out[0].iter().map(|b| f32::from_bits(*b)).collect()
    }
}

/// The binary floating-point format results are measured in: `float`,
/// or `half` (cl_khr_fp16) whose results come back widened to f32.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Format {
    /// Significand bits, the implicit one included.
    pub significand_bits: i32,
    /// The exponent of the smallest normal value.
    pub min_exponent: i32,
    /// The exponent of the largest finite value.
    pub max_exponent: i32,
}

pub const FLOAT: Format = Format {
    significand_bits: 24,
    min_exponent: -126,
    max_exponent: 127,
};

pub const HALF: Format = Format {
    significand_bits: 11,
    min_exponent: -14,
    max_exponent: 15,
};

impl Format {
    /// The spacing of values at magnitude `v` (subnormal spacing below the
    /// smallest normal).
    pub fn ulp_at(self, v: f64) -> f64 {
        let a = v.abs();
        let e = if a < 2f64.powi(self.min_exponent) {
            self.min_exponent
        } else {
            a.log2().floor() as i32
        };
        2f64.powi(e.min(self.max_exponent) - (self.significand_bits - 1))
    }

    /// The largest finite value.
    pub fn max(self) -> f64 {
        (2.0 - 2f64.powi(1 - self.significand_bits)) * 2f64.powi(self.max_exponent)
    }
}

/// The spacing of f32 values at magnitude `v` (subnormal spacing below
/// FLT_MIN).
pub fn ulp_at(v: f64) -> f64 {
    FLOAT.ulp_at(v)
}

/// The error of `got` against the exact `want`, in ulp, or why it is
/// wrong outright (a special value).
pub fn ulp_error(got: f32, want: f64) -> Result<f64, String> {
    ulp_error_above(got, want, 0.0)
}

/// As [`ulp_error`], but in ulps of `max(|want|, floor)`: an absolute
/// error bound below `floor`, for functions whose zeros cannot keep a
/// relative bound (implementation-defined accuracy, e.g. `lgamma` on
/// negative arguments).
pub fn ulp_error_above(got: f32, want: f64, floor: f64) -> Result<f64, String> {
    error_in(FLOAT, f64::from(got), want, floor)
}

/// As [`ulp_error`] for a `half` result `got` (widened exactly), in
/// `half` ulps.
pub fn half_ulp_error(got: f32, want: f64) -> Result<f64, String> {
    error_in(HALF, f64::from(got), want, 0.0)
}

/// The error of `g`, a value of `format`, against `want` in ulps of
/// `format` at `max(|want|, floor)`, or why it is wrong outright.
pub fn error_in(format: Format, g: f64, want: f64, floor: f64) -> Result<f64, String> {
    let got = g;
    let ulp_at = |v: f64| format.ulp_at(v.abs().max(floor));
    if want.is_nan() {
        return if got.is_nan() {
            Ok(0.0)
        } else {
            Err("expected NaN".into())
        };
    }
    if got.is_nan() {
        return Err("unexpected NaN".into());
    }
    // References beyond the largest finite value round to infinity (from
    // half an ulp on).
    let limit = format.max() + 0.5 * ulp_at(format.max());
    if want.abs() >= limit {
        return if got.is_infinite() && (got > 0.0) == (want > 0.0) {
            Ok(0.0)
        } else {
            Err("expected an infinity".into())
        };
    }
    if got.is_infinite() {
        let g = format.max() * 2.0_f64.copysign(g);
        return Ok((g - want).abs() / ulp_at(want));
    }
    if want == 0.0 {
        if got != 0.0 {
            return Ok(g.abs() / ulp_at(0.0));
        }
        return if got.is_sign_negative() == want.is_sign_negative() {
            Ok(0.0)
        } else {
            Err("wrong sign of zero".into())
        };
    }
    // A subnormal result may be flushed to zero.
    if got == 0.0 && want.abs() < 2f64.powi(format.min_exponent) {
        return Ok(0.0);
    }
    Ok((g - want).abs() / ulp_at(want))
}

/// The worst case of one function.
#[derive(Clone, Debug)]
pub struct Worst {
    pub name: String,
    pub bound: f64,
    pub ulp: f64,
    pub at: String,
    pub count: usize,
    /// Special-value mismatches (up to a few).
    pub wrong: Vec<String>,
    /// The format of the results (and of the ulps).
    pub format: Format,
}

impl Worst {
    pub fn new(name: &str, bound: f64) -> Worst {
        Worst {
            name: name.into(),
            bound,
            ulp: 0.0,
            at: String::new(),
            count: 0,
            wrong: Vec::new(),
            format: FLOAT,
        }
    }

    /// A function with `half` results (recorded widened to f32), its
    /// bound in `half` ulps.
    pub fn half(name: &str, bound: f64) -> Worst {
        Worst {
            format: HALF,
            ..Worst::new(name, bound)
        }
    }

    /// Records one result for the input described by `input`.
    pub fn record(&mut self, got: f32, want: f64, input: impl FnOnce() -> String) {
        self.record_above(got, want, 0.0, input)
    }

    /// Records one result, its error in ulps of `max(|want|, floor)`.
    pub fn record_above(
        &mut self,
        got: f32,
        want: f64,
        floor: f64,
        input: impl FnOnce() -> String,
    ) {
        self.count += 1;
        match error_in(self.format, f64::from(got), want, floor) {
            Ok(e) if e > self.ulp => {
                self.ulp = e;
                self.at = format!("{} -> {got:e} (want {want:e})", input());
            }
            Ok(_) => {}
            Err(why) => {
                if self.wrong.len() < 5 {
                    self.wrong
                        .push(format!("{}: got {got:e}, want {want:e}: {why}", input()));
                }
            }
        }
    }

    pub fn passed(&self) -> bool {
        self.wrong.is_empty() && self.ulp <= self.bound
    }
}

/// Prints the table of worst errors and fails when any bound was exceeded
/// or any special value was wrong.
pub fn report(results: &[Worst]) {
    println!(
        "{:<12} {:>8} {:>10} {:>9}  worst case",
        "function", "bound", "max ulp", "inputs"
    );
    for w in results {
        println!(
            "{:<12} {:>8} {:>10.3} {:>9}  {}",
            w.name, w.bound, w.ulp, w.count, w.at
        );
        for e in &w.wrong {
            println!("    WRONG {e}");
        }
    }
    let failed: Vec<&str> = results
        .iter()
        .filter(|w| !w.passed())
        .map(|w| w.name.as_str())
        .collect();
    assert!(
        failed.is_empty(),
        "out of bounds or wrong special values: {failed:?}"
    );
}

/// A deterministic stream of random f32 bit patterns (xorshift).
pub struct Bits(u64);

impl Bits {
    pub fn new(seed: u64) -> Bits {
        Bits(seed | 1)
    }

    pub fn next_u32(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }

    /// A finite, normal (or zero) f32 of random bits.
    pub fn normal(&mut self) -> f32 {
        loop {
            let v = f32::from_bits(self.next_u32());
            if v.is_finite() && (v == 0.0 || v.is_normal()) {
                return v;
            }
        }
    }
}

/// `n` values spaced evenly in log2 between 2^lo and 2^hi, both signs.
pub fn log_spaced(lo: f64, hi: f64, n: usize) -> Vec<f32> {
    let mut out = Vec::with_capacity(2 * n);
    for i in 0..n {
        let v = (lo + (hi - lo) * i as f64 / n as f64).exp2() as f32;
        if v.is_normal() {
            out.push(v);
            out.push(-v);
        }
    }
    out
}

/// `n` values evenly spaced in [lo, hi].
pub fn linear(lo: f64, hi: f64, n: usize) -> Vec<f32> {
    (0..=n)
        .map(|i| (lo + (hi - lo) * i as f64 / n as f64) as f32)
        .collect()
}

/// The edge values every function is tried on.
pub fn edges() -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::MAX,
        -f32::MAX,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::EPSILON,
        1.0,
        -1.0,
        0.5,
        -0.5,
        2.0,
        -2.0,
        3.0,
        -3.0,
        1.5,
        -1.5,
        2.5,
        -2.5,
        10.0,
        100.0,
        88.72283,
        88.7,
        89.0,
        -87.33655,
        -103.97,
        -104.0,
        128.0,
        -126.0,
        -149.0,
        -150.0,
        38.53,
        -45.0,
        1e-30,
        1e30,
        16777216.0,
        8388608.5,
        1.0 - f32::EPSILON / 2.0,
        1.0 + f32::EPSILON,
    ];
    for k in -10..=10 {
        v.push(k as f32);
        v.push(k as f32 + 0.5);
    }
    v
}
