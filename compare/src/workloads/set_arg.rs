//! Per-launch cost with an argument change before each launch:
//! `clSetKernelArg` + enqueue, 10,000 times, then one `clFinish`. Each
//! launch adds its argument to a counter, so a launch that saw a stale
//! argument shows in the total.

use super::roundtrip::Counter;
use crate::config::Config;
use crate::harness::{During, Metric, Prepared, Step};
use crate::side::Side;

struct SetArg<'a> {
    counter: Counter<'a>,
    launches: usize,
    total: u64,
}

pub fn prepare<'a>(side: &'a Side, cfg: &Config) -> Step<Box<dyn Prepared + 'a>> {
    Ok(Box::new(SetArg {
        counter: Counter::new(side, "add_arg")?,
        launches: cfg.launches,
        total: 0,
    }))
}

impl Prepared for SetArg<'_> {
    fn run(&mut self) -> Step<()> {
        for i in 0..self.launches {
            let value = (i % 7 + 1) as u32;
            // SAFETY: argument 1 of add_arg is a `const uint`.
            unsafe { self.counter.kernel.set_arg(1, &value) }.during("clSetKernelArg")?;
            self.counter.launch()?;
            self.total += value as u64;
        }
        self.counter.side.finish()
    }

    fn verify(&mut self) -> Result<(), String> {
        self.counter.check(self.total)
    }

    fn metric(&self) -> Metric {
        Metric::micros_each(self.launches as f64)
    }
}
