//! Time to first result: create program + build + create kernel + the
//! first enqueue of a small kernel + `clFinish`, measured once. The first
//! such measurement in a process includes each implementation's lazy set-up
//! (compiler initialisation, pipeline caches); a fresh process per
//! measurement (`clcompare --first-result-only`, or `--fresh N`) is the
//! honest figure, the in-process one runs first to come close to it.

use crate::config::Config;
use crate::harness::{Failure, Metric, Prepared, Step};
use crate::side::{uncached, Side};
use crate::verify::{close, Rng, EPS32};
use opencl3::kernel::ExecuteKernel;
use opencl3::memory::Buffer;

pub const SOURCE: &str = include_str!("../../kernels/first_result.cl");

const N: usize = 4096;
const A: f32 = 1.5;

struct FirstResult<'a> {
    side: &'a Side,
    input: Vec<f32>,
    x: Buffer<f32>,
    y: Buffer<f32>,
}

pub fn prepare<'a>(side: &'a Side, _cfg: &Config) -> Step<Box<dyn Prepared + 'a>> {
    let input = Rng::new(5).floats(N, -10.0, 10.0);
    let x = side.buffer_from(&input)?;
    let y = side.buffer_from(&vec![0.0f32; N])?;
    side.finish()?;
    Ok(Box::new(FirstResult { side, input, x, y }))
}

impl Prepared for FirstResult<'_> {
    fn run(&mut self) -> Step<()> {
        // A warm-cache run (`CLCOMPARE_WARM`, set by `--fresh` for its warm
        // row) builds the very source an earlier process built, so the
        // implementations' on-disk caches can answer.
        let source = if std::env::var_os("CLCOMPARE_WARM").is_some() {
            format!("#define CLCOMPARE_NONCE 0x80000001u\n{SOURCE}")
        } else {
            uncached(SOURCE)
        };
        let program = self.side.build(&source, "")?;
        let kernel = self.side.kernel(&program, "scale_add")?;
        // SAFETY: the arguments match scale_add's signature and both buffers
        // hold N floats.
        unsafe {
            ExecuteKernel::new(&kernel)
                .set_arg(&self.x)
                .set_arg(&self.y)
                .set_arg(&A)
                .set_global_work_size(N)
                .enqueue_nd_range(&self.side.queue)
        }
        .map_err(|e| Failure::cl("clEnqueueNDRangeKernel", e))?;
        self.side.finish()
    }

    fn verify(&mut self) -> Result<(), String> {
        let ys = self
            .side
            .read_vec(&self.y, N)
            .map_err(|f| format!("{f:?}"))?;
        self.input
            .iter()
            .zip(&ys)
            .enumerate()
            .try_for_each(|(i, (&x, &y))| {
                let ax = A as f64 * x as f64;
                // Contracted to an fma or not: at most two roundings.
                close(
                    &format!("y[{i}]"),
                    y,
                    ax + 1.0,
                    2.0 * EPS32 * (ax.abs() + 1.0),
                )
            })
    }

    fn metric(&self) -> Metric {
        Metric::millis_each(1.0)
    }

    fn repetitions(&self) -> Option<(usize, usize)> {
        Some((0, 1))
    }
}
