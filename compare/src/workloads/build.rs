//! Build time: `clCreateProgramWithSource` + `clBuildProgram` of the
//! ~150-line `kernels/build150.cl`, each build made unique so no compiler
//! cache answers it; the last build's `poly_eval` is then run and checked.

use crate::config::Config;
use crate::harness::{Metric, Prepared, Step};
use crate::side::{uncached, Side};
use crate::verify::{close, Rng, EPS32};
use opencl3::kernel::ExecuteKernel;
use opencl3::program::Program;

pub const SOURCE: &str = include_str!("../../kernels/build150.cl");

const COEFFS: [f32; 4] = [0.5, -1.25, 2.0, 0.75];

struct Build<'a> {
    side: &'a Side,
    builds: usize,
    last: Option<Program>,
}

pub fn prepare<'a>(side: &'a Side, cfg: &Config) -> Step<Box<dyn Prepared + 'a>> {
    Ok(Box::new(Build {
        side,
        builds: cfg.builds,
        last: None,
    }))
}

impl Prepared for Build<'_> {
    fn run(&mut self) -> Step<()> {
        self.last = None;
        self.last = Some(self.side.build(&uncached(SOURCE), "")?);
        Ok(())
    }

    fn verify(&mut self) -> Result<(), String> {
        let program = self.last.as_ref().ok_or("no build ran")?;
        poly_check(self.side, program).map_err(|f| format!("running poly_eval: {f:?}"))?
    }

    fn metric(&self) -> Metric {
        Metric::millis_each(1.0)
    }

    fn repetitions(&self) -> Option<(usize, usize)> {
        Some((1, self.builds))
    }
}

/// Runs `poly_eval` from `program` on 4096 values; the outer error is a
/// failed call, the inner one a wrong result.
fn poly_check(side: &Side, program: &Program) -> Step<Result<(), String>> {
    const N: usize = 4096;
    let xs = Rng::new(11).floats(N, -2.0, 2.0);
    let x = side.buffer_from(&xs)?;
    let y = side.buffer::<f32>(N)?;
    let kernel = side.kernel(program, "poly_eval")?;
    let [c0, c1, c2, c3] = COEFFS;
    // SAFETY: the arguments match poly_eval's signature and the buffers hold
    // N floats.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&x)
            .set_arg(&y)
            .set_arg(&c0)
            .set_arg(&c1)
            .set_arg(&c2)
            .set_arg(&c3)
            .set_global_work_size(N)
            .enqueue_nd_range(&side.queue)
    }
    .map_err(|e| crate::harness::Failure::cl("clEnqueueNDRangeKernel", e))?;
    let ys = side.read_vec(&y, N)?;
    Ok(xs
        .iter()
        .zip(&ys)
        .enumerate()
        .try_for_each(|(i, (&x, &y))| {
            let x = x as f64;
            let terms = [1.0, x, x * x, x * x * x];
            let want: f64 = terms.iter().zip(COEFFS).map(|(t, c)| t * c as f64).sum();
            let magnitude: f64 = terms
                .iter()
                .zip(COEFFS)
                .map(|(t, c)| (t * c as f64).abs())
                .sum();
            // Horner with three fused steps: a few roundings of terms no larger
            // than the magnitude of the polynomial's terms.
            close(&format!("y[{i}]"), y, want, 8.0 * EPS32 * magnitude)
        }))
}
