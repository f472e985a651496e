//! Compute throughput on dense linear algebra: the tiled SGEMM of
//! `kernels/sgemm.cl` (64 x 64 tile per work-group, 16 outputs per
//! work-item) in GFLOP/s (2 n^3 flops per run). Checked against a host
//! product in f64: every element for small n, a fixed sample otherwise.
//! The driver here runs any SGEMM kernel described by a [`Blocking`], so
//! other styles of the same product (`sgemm_regs`) share the inputs, the
//! launch and the check.

use crate::config::Config;
use crate::harness::{During, Metric, Prepared, Step};
use crate::side::Side;
use crate::verify::{close, sum_bound, Rng};
use opencl3::kernel::Kernel;
use opencl3::memory::{Buffer, ClMem};
use opencl3::program::Program;

pub const SOURCE: &str = include_str!("../../kernels/sgemm.cl");

/// An SGEMM kernel `name(int n, const float *a, const float *b, float *c)`
/// computing C = A * B for row-major n x n matrices, and how it divides
/// the work.
pub struct Blocking {
    pub source: &'static str,
    pub name: &'static str,
    /// The work-group shape it is written for.
    pub local: [usize; 2],
    /// The columns (dimension 0) and rows (dimension 1) of C each
    /// work-item computes.
    pub per_item: [usize; 2],
    /// What n must be a multiple of: the tile a work-group computes.
    pub tile: usize,
}

/// `sgemm.cl`: a 64 x 64 tile per work-group of 64 x 4, one column and 16
/// rows of it per work-item.
pub const TILED: Blocking = Blocking {
    source: SOURCE,
    name: "sgemm",
    local: [64, 4],
    per_item: [1, 16],
    tile: 64,
};

/// Above this order, verification samples elements instead of all of them.
const FULL_CHECK_MAX: usize = 512;
const SAMPLES: usize = 1024;

struct Sgemm<'a> {
    side: &'a Side,
    blocking: &'static Blocking,
    n: usize,
    a: Vec<f32>,
    b: Vec<f32>,
    c: Buffer<f32>,
    kernel: Kernel,
    _inputs: [Buffer<f32>; 2],
}

pub fn prepare<'a>(side: &'a Side, cfg: &Config) -> Step<Box<dyn Prepared + 'a>> {
    prepare_blocking(side, cfg, &TILED)
}

/// The product of the configured order (rounded down to the kernel's
/// tile) through `blocking`'s kernel.
pub fn prepare_blocking<'a>(
    side: &'a Side,
    cfg: &Config,
    blocking: &'static Blocking,
) -> Step<Box<dyn Prepared + 'a>> {
    let n = (cfg.sgemm_n / blocking.tile * blocking.tile).max(blocking.tile);
    let (a, b) = inputs(n);
    let program = side.build(blocking.source, "")?;
    let Bound { kernel, c, inputs } = bind(side, &program, blocking, n, &a, &b)?;
    side.finish()?;
    Ok(Box::new(Sgemm {
        side,
        blocking,
        n,
        a,
        b,
        c,
        kernel,
        _inputs: inputs,
    }))
}

/// `blocking`'s kernel with its arguments set to buffers on `side`.
pub struct Bound {
    pub kernel: Kernel,
    /// As many rows of C as `a` has of A.
    pub c: Buffer<f32>,
    /// A's rows and B, kept for as long as the kernel may run.
    pub inputs: [Buffer<f32>; 2],
}

/// Buffers on `side` holding `a` (rows of A, n floats each) and `b` (all
/// of B) and one for as many rows of C, and `blocking`'s kernel of
/// `program` with its arguments set to them.
pub fn bind(
    side: &Side,
    program: &Program,
    blocking: &Blocking,
    n: usize,
    a: &[f32],
    b: &[f32],
) -> Step<Bound> {
    let da = side.buffer_from(a)?;
    let db = side.buffer_from(b)?;
    let c = side.buffer_from(&vec![0.0f32; a.len()])?;
    let kernel = side.kernel(program, blocking.name)?;
    side.check_group_size(&kernel, blocking.local[0] * blocking.local[1])?;
    let order = n as i32;
    // SAFETY: every Blocking's kernel is (int, global const float *,
    // global const float *, global float *); A and C hold the same rows
    // of n floats, B n * n.
    unsafe {
        kernel.set_arg(0, &order).during("clSetKernelArg")?;
        kernel.set_arg(1, &da.get()).during("clSetKernelArg")?;
        kernel.set_arg(2, &db.get()).during("clSetKernelArg")?;
        kernel.set_arg(3, &c.get()).during("clSetKernelArg")?;
    }
    Ok(Bound {
        kernel,
        c,
        inputs: [da, db],
    })
}

impl Prepared for Sgemm<'_> {
    fn run(&mut self) -> Step<()> {
        let [columns, rows] = self.blocking.per_item;
        let global = [self.n / columns, self.n / rows];
        // SAFETY: all four arguments were set in `prepare`; the range
        // covers the n x n matrix exactly.
        unsafe { (self.side).launch(&self.kernel, &global, Some(&self.blocking.local)) }?;
        self.side.finish()
    }

    fn verify(&mut self) -> Result<(), String> {
        let c = self
            .side
            .read_vec(&self.c, self.n * self.n)
            .map_err(|f| format!("{f:?}"))?;
        check_product(&self.a, &self.b, self.n, &c)
    }

    fn metric(&self) -> Metric {
        let n = self.n as f64;
        Metric::Rate {
            amount: 2.0 * n * n * n,
            scale: 1e-9,
            unit: "GFLOP/s",
        }
    }
}

/// The n x n matrices A and B every SGEMM workload multiplies.
pub fn inputs(n: usize) -> (Vec<f32>, Vec<f32>) {
    let mut rng = Rng::new(21);
    let a = rng.floats(n * n, -1.0, 1.0);
    let b = rng.floats(n * n, -1.0, 1.0);
    (a, b)
}

/// Whether `c` is A * B within the kernel's rounding: every element for
/// small n, else the corners, the rows either side of the middle (where
/// a two-device split meets) and a fixed sample across the matrix.
pub fn check_product(a: &[f32], b: &[f32], n: usize, c: &[f32]) -> Result<(), String> {
    let check = |i: usize, j: usize| {
        let (want, magnitude) = reference_element(a, b, n, i, j);
        close(
            &format!("C[{i}][{j}]"),
            c[i * n + j],
            want,
            sum_bound(n, magnitude),
        )
    };
    if n <= FULL_CHECK_MAX {
        (0..n * n).try_for_each(|e| check(e / n, e % n))
    } else {
        let mut rng = Rng::new(99);
        let mid = n / 2;
        // Corners and the middle rows, plus random elements in every tile row.
        [(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)]
            .into_iter()
            .chain([(mid - 1, 0), (mid - 1, n - 1), (mid, 0), (mid, n - 1)])
            .chain((0..SAMPLES).map(|_| {
                let i = rng.next_u32() as usize % n;
                let j = rng.next_u32() as usize % n;
                (i, j)
            }))
            .try_for_each(|(i, j)| check(i, j))
    }
}

/// Element (i, j) of A * B in f64, with the sum of the absolute values of
/// its products (the scale of its rounding error in f32).
pub fn reference_element(a: &[f32], b: &[f32], n: usize, i: usize, j: usize) -> (f64, f64) {
    (0..n).fold((0.0, 0.0), |(sum, mag), k| {
        let p = a[i * n + k] as f64 * b[k * n + j] as f64;
        (sum + p, mag + p.abs())
    })
}

/// The whole host product (row-major), for tests and small orders.
pub fn reference(a: &[f32], b: &[f32], n: usize) -> Vec<f64> {
    (0..n * n)
        .map(|e| reference_element(a, b, n, e / n, e % n).0)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_multiplies_row_major() {
        // [1 2; 3 4] * [5 6; 7 8] = [19 22; 43 50]
        let c = reference(&[1.0, 2.0, 3.0, 4.0], &[5.0, 6.0, 7.0, 8.0], 2);
        assert_eq!(c, vec![19.0, 22.0, 43.0, 50.0]);
        let (_, magnitude) =
            reference_element(&[1.0, -2.0, 0.0, 0.0], &[3.0, 0.0, 4.0, 0.0], 2, 0, 0);
        assert_eq!(magnitude, 3.0 + 8.0);
    }

    #[test]
    fn tiled_f32_product_passes_and_a_dropped_tile_fails() {
        // An f32 product accumulated k-tile by k-tile, as the kernel does,
        // is within the bound; dropping one 16-deep k-tile is not.
        let n = 64;
        let mut rng = Rng::new(1);
        let a = rng.floats(n * n, -1.0, 1.0);
        let b = rng.floats(n * n, -1.0, 1.0);
        let f32_element = |i: usize, j: usize, skip: Option<usize>| {
            let mut acc = 0.0f32;
            for k in 0..n {
                if skip == Some(k / 16) {
                    continue;
                }
                acc = a[i * n + k].mul_add(b[k * n + j], acc);
            }
            acc
        };
        for (i, j) in [(0, 0), (5, 63), (63, 17)] {
            let (want, magnitude) = reference_element(&a, &b, n, i, j);
            let bound = sum_bound(n, magnitude);
            assert!(close("c", f32_element(i, j, None), want, bound).is_ok());
            assert!(close("c", f32_element(i, j, Some(2)), want, bound).is_err());
        }
    }
}
