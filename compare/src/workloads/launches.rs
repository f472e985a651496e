//! Per-launch cost when launches are batched: 10,000 back-to-back enqueues
//! of a near-empty kernel, then one `clFinish`; the figure is the time per
//! launch. The counter it bumps proves every launch ran, in order.

use super::roundtrip::Counter;
use crate::config::Config;
use crate::harness::{Metric, Prepared, Step};
use crate::side::Side;

struct Launches<'a> {
    counter: Counter<'a>,
    launches: usize,
    total: u64,
}

pub fn prepare<'a>(side: &'a Side, cfg: &Config) -> Step<Box<dyn Prepared + 'a>> {
    Ok(Box::new(Launches {
        counter: Counter::new(side, "bump")?,
        launches: cfg.launches,
        total: 0,
    }))
}

impl Prepared for Launches<'_> {
    fn run(&mut self) -> Step<()> {
        for _ in 0..self.launches {
            self.counter.launch()?;
        }
        self.counter.side.finish()?;
        self.total += self.launches as u64;
        Ok(())
    }

    fn verify(&mut self) -> Result<(), String> {
        self.counter.check(self.total)
    }

    fn metric(&self) -> Metric {
        Metric::micros_each(self.launches as f64)
    }
}
