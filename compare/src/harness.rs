//! The measurement protocol every workload shares: what a prepared workload
//! must offer ([`Prepared`]), how it is timed (warm-up, then the median of
//! repeated runs by the host clock), and what a measurement can end as
//! ([`Outcome`]).
//!
//! Timing is host wall-clock around enqueue + `clFinish` rather than event
//! profiling: clvulkan's profiling timestamps are host-side, so device
//! timestamps would not compare like with like.

use std::time::{Duration, Instant};

/// Why a workload produced no figure before verification could even run.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// The platform lacks something the workload needs (a build error, an
    /// entry point returning `CL_INVALID_OPERATION`, too small a work-group).
    Unsupported(String),
    /// Anything else that went wrong.
    Error(String),
}

impl Failure {
    /// A failed OpenCL call: `CL_INVALID_OPERATION` is how clvulkan marks
    /// what it has not built yet, so it reads as unsupported.
    pub fn cl(what: &str, e: opencl3::error_codes::ClError) -> Self {
        let code = e.0;
        let name: &str = e.into();
        if code == opencl3::error_codes::CL_INVALID_OPERATION {
            Failure::Unsupported(format!("{what}: {name}"))
        } else {
            Failure::Error(format!("{what}: {name} ({code})"))
        }
    }
}

/// Shorthand for results of OpenCL calls inside workloads.
pub type Step<T> = Result<T, Failure>;

/// Adds what was being done to an OpenCL error.
pub trait During<T> {
    fn during(self, what: &str) -> Step<T>;
}

impl<T> During<T> for opencl3::Result<T> {
    fn during(self, what: &str) -> Step<T> {
        self.map_err(|e| Failure::cl(what, e))
    }
}

/// Which direction of a figure is the good one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Better {
    Higher,
    Lower,
}

/// How one run's duration becomes the reported figure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Metric {
    /// `amount * scale / seconds` (bytes to GB/s, flops to GFLOP/s, ...).
    Rate {
        amount: f64,
        scale: f64,
        unit: &'static str,
    },
    /// `seconds * scale / count`: the cost of one of `count` operations.
    Cost {
        count: f64,
        scale: f64,
        unit: &'static str,
    },
}

impl Metric {
    pub fn gbps(bytes: f64) -> Self {
        Metric::Rate {
            amount: bytes,
            scale: 1e-9,
            unit: "GB/s",
        }
    }

    pub fn micros_each(count: f64) -> Self {
        Metric::Cost {
            count,
            scale: 1e6,
            unit: "us",
        }
    }

    pub fn millis_each(count: f64) -> Self {
        Metric::Cost {
            count,
            scale: 1e3,
            unit: "ms",
        }
    }

    pub fn value(&self, seconds: f64) -> f64 {
        match *self {
            Metric::Rate { amount, scale, .. } => amount * scale / seconds,
            Metric::Cost { count, scale, .. } => seconds * scale / count,
        }
    }

    pub fn unit(&self) -> &'static str {
        match *self {
            Metric::Rate { unit, .. } | Metric::Cost { unit, .. } => unit,
        }
    }

    pub fn better(&self) -> Better {
        match self {
            Metric::Rate { .. } => Better::Higher,
            Metric::Cost { .. } => Better::Lower,
        }
    }
}

/// A workload with its buffers, program and kernels made, ready to run.
pub trait Prepared {
    /// One timed iteration: enqueue the work and wait for it (`clFinish`).
    fn run(&mut self) -> Step<()>;
    /// Compares the device's output against the host reference after the
    /// runs so far; `Err` says what differs.
    fn verify(&mut self) -> Result<(), String>;
    /// What one run's duration means.
    fn metric(&self) -> Metric;
    /// Warm-up and timed repetitions; `None` takes the configured defaults.
    fn repetitions(&self) -> Option<(usize, usize)> {
        None
    }
}

/// What one workload on one platform ended as.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// A figure whose result verified correct.
    Measured {
        value: f64,
        unit: &'static str,
        better: Better,
        runs: usize,
    },
    /// The result did not match the host reference: never a figure.
    Wrong(String),
    Unsupported(String),
    Failed(String),
}

impl From<Failure> for Outcome {
    fn from(f: Failure) -> Self {
        match f {
            Failure::Unsupported(s) => Outcome::Unsupported(s),
            Failure::Error(s) => Outcome::Failed(s),
        }
    }
}

/// The median of `samples` (the upper middle one for an even count, so the
/// figure is always one that was measured).
pub fn median(samples: &mut [Duration]) -> Option<Duration> {
    if samples.is_empty() {
        return None;
    }
    samples.sort_unstable();
    Some(samples[samples.len() / 2])
}

/// Times `run` `reps` times after `warmup` untimed runs.
pub fn time_runs(
    warmup: usize,
    reps: usize,
    mut run: impl FnMut() -> Step<()>,
) -> Step<Vec<Duration>> {
    for _ in 0..warmup {
        run()?;
    }
    let mut samples = Vec::with_capacity(reps);
    for _ in 0..reps {
        let start = Instant::now();
        run()?;
        samples.push(start.elapsed());
    }
    Ok(samples)
}

/// The whole protocol for one prepared workload: warm-up, timed runs, then
/// verification; a wrong result yields no figure.
pub fn measure(prepared: &mut dyn Prepared, default_reps: (usize, usize)) -> Outcome {
    let (warmup, reps) = prepared.repetitions().unwrap_or(default_reps);
    let mut samples = match time_runs(warmup, reps.max(1), || prepared.run()) {
        Ok(s) => s,
        Err(f) => return f.into(),
    };
    if let Err(why) = prepared.verify() {
        return Outcome::Wrong(why);
    }
    let metric = prepared.metric();
    let mid = median(&mut samples).expect("at least one sample");
    Outcome::Measured {
        value: metric.value(mid.as_secs_f64()),
        unit: metric.unit(),
        better: metric.better(),
        runs: samples.len(),
    }
}

/// The protocol for one workload prepared on both sides at once: the
/// timed runs are split into [`BLOCKS`] blocks, and the sides take turns
/// block by block (A, B, then B, A, ...), each block after its own warm-up
/// runs; then each side's result is verified. The GPU's clocks and
/// temperature drift over a workload's runs; taking turns spreads the
/// drift over both sides instead of giving it all to whichever runs
/// second. Turns are blocks rather than single runs because switching
/// between two implementations' GPU contexts costs the first run after a
/// switch ~150 us on the H200 (a round trip measured 165 us instead of
/// 20 when the sides took turns run by run): the warm-up runs of each
/// block absorb it. A side that fails stops; the other goes on alone.
pub fn measure_alternating(
    a: &mut dyn Prepared,
    b: &mut dyn Prepared,
    default_reps: (usize, usize),
) -> (Outcome, Outcome) {
    let mut sides = [Timed::new(a, default_reps), Timed::new(b, default_reps)];
    for block in 0..BLOCKS {
        let order = if block % 2 == 0 { [0, 1] } else { [1, 0] };
        for index in order {
            sides[index].run_block(block);
        }
    }
    let [a, b] = sides.map(Timed::outcome);
    (a, b)
}

/// How many turns each side gets in [`measure_alternating`].
const BLOCKS: usize = 3;

/// One side of [`measure_alternating`]: its samples so far, or how it
/// failed.
struct Timed<'p, 'w> {
    prepared: &'p mut (dyn Prepared + 'w),
    warmup: usize,
    reps: usize,
    samples: Vec<Duration>,
    failed: Option<Outcome>,
}

impl<'p, 'w> Timed<'p, 'w> {
    fn new(prepared: &'p mut (dyn Prepared + 'w), default_reps: (usize, usize)) -> Self {
        let (warmup, reps) = prepared.repetitions().unwrap_or(default_reps);
        Timed {
            prepared,
            warmup,
            reps: reps.max(1),
            samples: Vec::new(),
            failed: None,
        }
    }

    /// Block `block` of [`BLOCKS`]: the warm-up runs (all of them before
    /// the first block, at least one before each later one), then this
    /// block's share of the timed runs.
    fn run_block(&mut self, block: usize) {
        let warmup = if block == 0 {
            self.warmup
        } else {
            self.warmup.div_ceil(BLOCKS).max(1)
        };
        // Runs that are one-offs (a first result) are all in the first block.
        let warmup = if self.reps <= 1 && block > 0 {
            0
        } else {
            warmup
        };
        for _ in 0..warmup {
            if self.failed.is_none() {
                if let Err(failure) = self.run() {
                    self.failed = Some(failure);
                }
            }
        }
        let until = (self.reps * (block + 1)).div_ceil(BLOCKS);
        while self.failed.is_none() && self.samples.len() < until {
            let start = Instant::now();
            match self.run() {
                Ok(()) => self.samples.push(start.elapsed()),
                Err(failure) => self.failed = Some(failure),
            }
        }
    }

    fn run(&mut self) -> Result<(), Outcome> {
        guarded(|| self.prepared.run()).and_then(|r| r.map_err(Outcome::from))
    }

    fn outcome(mut self) -> Outcome {
        if let Some(failed) = self.failed {
            return failed;
        }
        if let Err(why) = self.prepared.verify() {
            return Outcome::Wrong(why);
        }
        let metric = self.prepared.metric();
        let mid = median(&mut self.samples).expect("at least one sample");
        Outcome::Measured {
            value: metric.value(mid.as_secs_f64()),
            unit: metric.unit(),
            better: metric.better(),
            runs: self.samples.len(),
        }
    }
}

/// [`measure`] for a workload whose preparation may have failed: the
/// failure is the outcome.
pub fn measure_prepared(
    prepared: Step<Box<dyn Prepared + '_>>,
    default_reps: (usize, usize),
) -> Outcome {
    match prepared {
        Ok(mut prepared) => measure(prepared.as_mut(), default_reps),
        Err(f) => f.into(),
    }
}

/// Runs `f`, turning a panic inside it (opencl3 asserts on misuse) into a
/// failed outcome, so that it ends one workload rather than the process.
pub fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, Outcome> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|panic| {
        let msg = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("panic");
        Outcome::Failed(format!("panicked: {msg}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_is_a_measured_sample() {
        let ms = Duration::from_millis;
        assert_eq!(median(&mut [ms(5), ms(1), ms(3)]), Some(ms(3)));
        assert_eq!(median(&mut [ms(4), ms(1), ms(3), ms(2)]), Some(ms(3)));
        assert_eq!(median(&mut []), None);
    }

    #[test]
    fn metrics_orient_rates_and_costs() {
        let rate = Metric::gbps(2e9);
        assert!((rate.value(0.5) - 4.0).abs() < 1e-12);
        assert_eq!(rate.better(), Better::Higher);
        let cost = Metric::micros_each(1000.0);
        assert!((cost.value(0.01) - 10.0).abs() < 1e-9);
        assert_eq!(cost.better(), Better::Lower);
    }

    struct Fake {
        runs: usize,
        correct: bool,
    }

    impl Prepared for Fake {
        fn run(&mut self) -> Step<()> {
            self.runs += 1;
            Ok(())
        }
        fn verify(&mut self) -> Result<(), String> {
            if self.correct {
                Ok(())
            } else {
                Err("element 3: 1 != 2".into())
            }
        }
        fn metric(&self) -> Metric {
            Metric::gbps(1.0)
        }
    }

    #[test]
    fn wrong_results_give_no_figure() {
        let mut fake = Fake {
            runs: 0,
            correct: false,
        };
        let outcome = measure(&mut fake, (2, 3));
        assert_eq!(fake.runs, 5);
        assert_eq!(outcome, Outcome::Wrong("element 3: 1 != 2".into()));
        let mut fake = Fake {
            runs: 0,
            correct: true,
        };
        assert!(matches!(
            measure(&mut fake, (0, 1)),
            Outcome::Measured { runs: 1, .. }
        ));
    }
}
