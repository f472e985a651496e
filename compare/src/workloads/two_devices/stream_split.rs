//! `stream-split`: device memory bandwidth over two devices, each running
//! the float4 copy kernel of [`crate::workloads::copy_kernel`] over its
//! own half of the data (a source and a destination buffer of its own,
//! filled through its own queue before timing), in bytes read + written
//! per second over both, against `copy-kernel` over the whole on device 0
//! alone.

use crate::config::Config;
use crate::harness::{measure_prepared, During, Metric, Prepared, Step};
use crate::pair::Pair;
use crate::verify::{exact, pattern};
use crate::workloads::copy_kernel::{self, SOURCE};
use crate::workloads::two_devices::Figures;
use opencl3::kernel::Kernel;
use opencl3::memory::{Buffer, ClMem};

/// One device's half: its destination and the kernel that fills it.
struct Half {
    dst: Buffer<f32>,
    kernel: Kernel,
    // Kept alive: the kernel's argument 0.
    _src: Buffer<f32>,
}

struct StreamSplit<'a> {
    pair: &'a Pair,
    data: Vec<f32>,
    halves: [Half; 2],
}

/// Device 0 alone first, then both, each prepared just before it runs.
pub fn measure(pair: &Pair, cfg: &Config) -> Figures {
    let one = measure_prepared(copy_kernel::prepare(pair.side(0), cfg), cfg.reps);
    let two = measure_prepared(prepare(pair, cfg), cfg.reps);
    Figures {
        two,
        one: Some(one),
    }
}

fn prepare<'a>(pair: &'a Pair, cfg: &Config) -> Step<Box<dyn Prepared + 'a>> {
    // The same data as `copy-kernel`, so both figures move the same bytes.
    let n = cfg.copy_bytes / 4;
    let data = pattern(n, 1);
    let program = pair.side(0).build(SOURCE, "")?;
    let half = |index: usize| -> Step<Half> {
        let side = pair.side(index);
        let src = side.buffer_from(&data[index * n / 2..(index + 1) * n / 2])?;
        // Zeroed, so that a copy that did not happen shows.
        let dst = side.buffer_from(&vec![0.0f32; n / 2])?;
        let kernel = side.kernel(&program, "copy4")?;
        // SAFETY: copy4 takes two `__global float4 *`; both buffers hold
        // n/8 float4s.
        unsafe {
            kernel.set_arg(0, &src.get()).during("clSetKernelArg")?;
            kernel.set_arg(1, &dst.get()).during("clSetKernelArg")?;
        }
        Ok(Half {
            dst,
            kernel,
            _src: src,
        })
    };
    let halves = [half(0)?, half(1)?];
    pair.finish()?;
    Ok(Box::new(StreamSplit { pair, data, halves }))
}

impl Prepared for StreamSplit<'_> {
    fn run(&mut self) -> Step<()> {
        // One work-item per float4 of a half.
        let global = [self.data.len() / 2 / 4];
        for (side, half) in self.pair.sides().iter().zip(&self.halves) {
            // SAFETY: both arguments were set in `prepare`; the range
            // covers the half's buffers exactly.
            unsafe { side.launch(&half.kernel, &global, None) }?;
        }
        // Both enqueued, then both submitted, then both waited for.
        self.pair.finish()
    }

    fn verify(&mut self) -> Result<(), String> {
        let half = self.data.len() / 2;
        let mut got = Vec::with_capacity(self.data.len());
        for (side, h) in self.pair.sides().iter().zip(&self.halves) {
            got.extend(side.read_vec(&h.dst, half).map_err(|f| format!("{f:?}"))?);
        }
        exact("dst", &got, &self.data)
    }

    fn metric(&self) -> Metric {
        Metric::gbps(2.0 * 4.0 * self.data.len() as f64)
    }
}
