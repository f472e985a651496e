//! `sgemm-split`: the tiled SGEMM of [`crate::workloads::sgemm`] as two
//! independent halves, device 0 computing the top n/2 rows of C and
//! device 1 the bottom n/2, in GFLOP/s over both (2 n^3 flops per run),
//! against the whole product on device 0 alone.
//!
//! Each device gets buffers of its own, written through its own queue
//! before timing: its rows of A, a whole copy of B, its rows of C. That is
//! what an application splitting the work does, and it leaves nothing for
//! the implementation to move while timed (how fast it moves a buffer is
//! `migrate`'s business). Sub-buffers of one A and one C would be the other
//! choice, but an implementation may track where contents live per
//! buffer, not per region, and then one device's writes to its half make
//! the other's stale. The kernel needs no change: launched over n / 2
//! rows, it reads and writes only those rows of A and C.

use crate::config::Config;
use crate::harness::{measure_prepared, Metric, Prepared, Step};
use crate::pair::Pair;
use crate::side::Side;
use crate::workloads::sgemm::{self, check_product, inputs, TILED};
use crate::workloads::two_devices::Figures;
use opencl3::kernel::Kernel;
use opencl3::memory::Buffer;
use opencl3::program::Program;

/// One device's share: its rows of C, and the kernel set up to make them.
struct Half {
    c: Buffer<f32>,
    kernel: Kernel,
    // Kept alive: the kernel's arguments 1 and 2.
    _inputs: [Buffer<f32>; 2],
}

struct SgemmSplit<'a> {
    pair: &'a Pair,
    n: usize,
    a: Vec<f32>,
    b: Vec<f32>,
    halves: [Half; 2],
}

/// Device 0 alone first, then both, each prepared just before it runs
/// so that only one of them holds device memory at a time.
pub fn measure(pair: &Pair, cfg: &Config) -> Figures {
    let one = measure_prepared(sgemm::prepare(pair.side(0), cfg), cfg.reps);
    let two = measure_prepared(prepare(pair, cfg), cfg.reps);
    Figures {
        two,
        one: Some(one),
    }
}

fn prepare<'a>(pair: &'a Pair, cfg: &Config) -> Step<Box<dyn Prepared + 'a>> {
    let n = cfg.sgemm_n;
    let (a, b) = inputs(n);
    // One program for the context: it is built for both devices.
    let program = pair.side(0).build(TILED.source, "")?;
    let half = |index: usize| {
        let rows = n / 2;
        let own_a = &a[index * rows * n..(index + 1) * rows * n];
        prepare_half(pair.side(index), &program, n, own_a, &b)
    };
    let halves = [half(0)?, half(1)?];
    pair.finish()?;
    Ok(Box::new(SgemmSplit {
        pair,
        n,
        a,
        b,
        halves,
    }))
}

/// Buffers on `side`'s device for its `own_a.len() / n` rows of the
/// product, and a kernel whose arguments name them.
fn prepare_half(side: &Side, program: &Program, n: usize, own_a: &[f32], b: &[f32]) -> Step<Half> {
    let sgemm::Bound { kernel, c, inputs } = sgemm::bind(side, program, &TILED, n, own_a, b)?;
    Ok(Half {
        c,
        kernel,
        _inputs: inputs,
    })
}

impl Prepared for SgemmSplit<'_> {
    fn run(&mut self) -> Step<()> {
        // The whole-matrix range of `sgemm` with half the rows.
        let [columns, rows] = TILED.per_item;
        let global = [self.n / columns, self.n / 2 / rows];
        for (side, half) in self.pair.sides().iter().zip(&self.halves) {
            // SAFETY: all four arguments were set in `prepare_half`; the
            // range covers the half's rows exactly.
            unsafe { side.launch(&half.kernel, &global, Some(&TILED.local)) }?;
        }
        // Both enqueued, then both submitted, then both waited for.
        self.pair.finish()
    }

    fn verify(&mut self) -> Result<(), String> {
        let n = self.n;
        let mut c = Vec::with_capacity(n * n);
        for (side, half) in self.pair.sides().iter().zip(&self.halves) {
            let rows = side
                .read_vec(&half.c, n / 2 * n)
                .map_err(|f| format!("{f:?}"))?;
            c.extend(rows);
        }
        check_product(&self.a, &self.b, n, &c)
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
