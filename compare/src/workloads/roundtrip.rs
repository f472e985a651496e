//! Launch latency: one near-empty kernel enqueued, then `clFinish`, timed
//! per round trip. The kernel bumps a counter, which verifies that every
//! launch ran.

use crate::config::Config;
use crate::harness::{During, Metric, Prepared, Step};
use crate::side::Side;
use opencl3::kernel::Kernel;
use opencl3::memory::{Buffer, ClMem};

pub const SOURCE: &str = include_str!("../../kernels/counter.cl");

/// A `__global uint` counter and a kernel that adds to it.
pub(crate) struct Counter<'a> {
    pub side: &'a Side,
    pub counter: Buffer<u32>,
    pub kernel: Kernel,
}

impl<'a> Counter<'a> {
    pub fn new(side: &'a Side, kernel: &str) -> Step<Self> {
        let program = side.build(SOURCE, "")?;
        let kernel = side.kernel(&program, kernel)?;
        let counter = side.buffer_from(&[0u32])?;
        // SAFETY: argument 0 of both counter kernels is a `__global uint *`.
        unsafe { kernel.set_arg(0, &counter.get()) }.during("clSetKernelArg")?;
        Ok(Counter {
            side,
            counter,
            kernel,
        })
    }

    /// One launch of a single work-item.
    pub fn launch(&self) -> Step<()> {
        // SAFETY: every argument was set (the counter in `new`, the value by
        // the caller where there is one).
        unsafe { self.side.launch(&self.kernel, &[1], None) }
    }

    pub fn check(&self, want: u64) -> Result<(), String> {
        let got = self
            .side
            .read_vec(&self.counter, 1)
            .map_err(|f| format!("{f:?}"))?[0];
        // The counter wraps like the device's 32-bit arithmetic.
        if got == want as u32 {
            Ok(())
        } else {
            Err(format!("counter = {got}, expected {}", want as u32))
        }
    }
}

struct RoundTrip<'a> {
    counter: Counter<'a>,
    runs: u64,
    reps: usize,
}

pub fn prepare<'a>(side: &'a Side, cfg: &Config) -> Step<Box<dyn Prepared + 'a>> {
    Ok(Box::new(RoundTrip {
        counter: Counter::new(side, "bump")?,
        runs: 0,
        reps: cfg.round_trips,
    }))
}

impl Prepared for RoundTrip<'_> {
    fn run(&mut self) -> Step<()> {
        self.counter.launch()?;
        self.counter.side.finish()?;
        self.runs += 1;
        Ok(())
    }

    fn verify(&mut self) -> Result<(), String> {
        self.counter.check(self.runs)
    }

    fn metric(&self) -> Metric {
        Metric::micros_each(1.0)
    }

    fn repetitions(&self) -> Option<(usize, usize)> {
        Some((self.reps / 10, self.reps))
    }
}
