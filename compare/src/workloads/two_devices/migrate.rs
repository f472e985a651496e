//! `migrate` and `migrate-host`: how fast a buffer written by a kernel on
//! device 0 becomes usable by a kernel on device 1 of the same context.
//!
//! Every timed run writes a new pattern into the buffer on device 0
//! (`produce` in `kernels/migrate.cl`) and reads all of it on device 1
//! (`consume`, which counts the elements that differ from the pattern, so
//! every move is checked where it arrived). `migrate` leaves the move to
//! the implementation: the kernel on device 1 waits on the event of the
//! kernel on device 0, the way an application hands data from one queue to
//! another. `migrate-host` is the application moving it by hand: a blocking
//! `clEnqueueReadBuffer` from device 0 into pageable host memory (as
//! `read-buffer` uses), then a blocking `clEnqueueWriteBuffer` into a
//! buffer of device 1's own.
//!
//! The figure is the buffer's size over the time a run takes beyond a
//! baseline: the same two kernels one after the other on device 0 alone,
//! with no move. Baseline and moving runs alternate, so that whatever else
//! the machine does weighs on both alike.

use crate::config::Config;
use crate::harness::{median, During, Failure, Metric, Outcome, Step};
use crate::pair::Pair;
use crate::side::Side;
use crate::verify::exact;
use crate::workloads::two_devices::Figures;
use opencl3::event::Event;
use opencl3::kernel::Kernel;
use opencl3::memory::{Buffer, ClMem};
use opencl3::types::cl_event;
use std::time::{Duration, Instant};

pub const SOURCE: &str = include_str!("../../../kernels/migrate.cl");

/// Who moves the buffer from device 0 to device 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Path {
    /// The implementation, for a kernel that waits on an event of the
    /// other device's queue.
    Implicit,
    /// The application, through host memory.
    ThroughHost,
}

struct Migrate<'a> {
    pair: &'a Pair,
    path: Path,
    /// Elements of the buffers.
    n: usize,
    /// Used on device 0 only: the baseline's buffer, and the one
    /// `migrate-host` reads back.
    local: Buffer<u32>,
    /// What device 1 consumes: for `migrate` the buffer device 0 writes,
    /// for `migrate-host` a buffer used on device 1 only.
    target: Buffer<u32>,
    /// Per device, the elements `consume` found wrong, over all runs.
    bad: [Buffer<u32>; 2],
    /// The application's copy in `migrate-host`.
    host: Vec<u32>,
    produce: Kernel,
    consume: Kernel,
    /// The last pattern written.
    seed: u32,
    /// The pattern `target` last received.
    target_seed: Option<u32>,
}

pub fn measure_implicit(pair: &Pair, cfg: &Config) -> Figures {
    Figures {
        two: measure(pair, cfg, Path::Implicit),
        one: None,
    }
}

pub fn measure_through_host(pair: &Pair, cfg: &Config) -> Figures {
    Figures {
        two: measure(pair, cfg, Path::ThroughHost),
        one: None,
    }
}

fn measure(pair: &Pair, cfg: &Config, path: Path) -> Outcome {
    let mut migrate = match prepare(pair, cfg, path) {
        Ok(m) => m,
        Err(f) => return f.into(),
    };
    let (warmup, reps) = cfg.reps;
    let reps = reps.max(1);
    let mut baseline = Vec::with_capacity(reps);
    let mut moving = Vec::with_capacity(reps);
    for rep in 0..warmup + reps {
        let runs = (|| {
            let start = Instant::now();
            migrate.run_baseline()?;
            let middle = Instant::now();
            migrate.run_moving()?;
            Step::Ok((middle - start, middle.elapsed()))
        })();
        match runs {
            Ok((without, with)) if rep >= warmup => {
                baseline.push(without);
                moving.push(with);
            }
            Ok(_) => {}
            Err(f) => return f.into(),
        }
    }
    if let Err(why) = migrate.verify() {
        return Outcome::Wrong(why);
    }
    let seconds =
        |samples: &mut Vec<Duration>| median(samples).expect("at least one sample").as_secs_f64();
    let (without, with) = (seconds(&mut baseline), seconds(&mut moving));
    if with <= without {
        return Outcome::Failed(format!(
            "no time left for the move: {:.3} ms with it, {:.3} ms without",
            with * 1e3,
            without * 1e3
        ));
    }
    let metric = Metric::gbps((migrate.n * 4) as f64);
    Outcome::Measured {
        value: metric.value(with - without),
        unit: metric.unit(),
        better: metric.better(),
        runs: reps,
    }
}

fn prepare<'a>(pair: &'a Pair, cfg: &Config, path: Path) -> Step<Migrate<'a>> {
    let n = cfg.migrate_bytes / 4;
    let (zero, one) = (pair.side(0), pair.side(1));
    // One program and two kernels for the context, their arguments set
    // before each launch, on either device.
    let program = zero.build(SOURCE, "")?;
    let produce = zero.kernel(&program, "produce")?;
    let consume = zero.kernel(&program, "consume")?;
    // Buffers belong to the context, whichever side makes them; where they
    // are used decides where their contents live.
    let local = zero.buffer(n)?;
    let target = one.buffer(n)?;
    let bad = [zero.buffer_from(&[0u32])?, one.buffer_from(&[0u32])?];
    pair.finish()?;
    Ok(Migrate {
        pair,
        path,
        n,
        local,
        target,
        bad,
        host: vec![0; n],
        produce,
        consume,
        seed: 0,
        target_seed: None,
    })
}

impl Migrate<'_> {
    fn next_seed(&mut self) -> u32 {
        self.seed = self.seed.wrapping_add(1);
        self.seed
    }

    /// Both kernels on device 0, one after the other: the work of a run
    /// without the move.
    fn run_baseline(&mut self) -> Step<()> {
        let seed = self.next_seed();
        let zero = self.pair.side(0);
        produce(&self.produce, zero, &self.local, seed, self.n)?;
        consume(
            &self.consume,
            zero,
            &self.local,
            seed,
            &self.bad[0],
            &[],
            self.n,
        )?;
        zero.finish()
    }

    /// Written on device 0, consumed on device 1.
    fn run_moving(&mut self) -> Step<()> {
        let seed = self.next_seed();
        let (zero, one) = (self.pair.side(0), self.pair.side(1));
        match self.path {
            Path::Implicit => {
                let written = produce(&self.produce, zero, &self.target, seed, self.n)?;
                // Waiting on another queue's event needs that queue flushed.
                zero.flush()?;
                consume(
                    &self.consume,
                    one,
                    &self.target,
                    seed,
                    &self.bad[1],
                    &[written.get()],
                    self.n,
                )?;
            }
            Path::ThroughHost => {
                produce(&self.produce, zero, &self.local, seed, self.n)?;
                zero.read(&self.local, &mut self.host)?;
                one.write(&mut self.target, &self.host)?;
                consume(
                    &self.consume,
                    one,
                    &self.target,
                    seed,
                    &self.bad[1],
                    &[],
                    self.n,
                )?;
            }
        }
        self.target_seed = Some(seed);
        one.finish()
    }

    /// Neither `consume` found a wrong element, and device 1's buffer holds
    /// the last pattern it was given, read back through device 1's queue.
    fn verify(&mut self) -> Result<(), String> {
        let text = |f: Failure| format!("{f:?}");
        for (index, (side, bad)) in self.pair.sides().iter().zip(&self.bad).enumerate() {
            let wrong = side.read_vec(bad, 1).map_err(text)?[0];
            if wrong != 0 {
                return Err(format!(
                    "consume on device {index} found {wrong} elements that differ from the pattern"
                ));
            }
        }
        let seed = self.target_seed.ok_or("no run moved the buffer")?;
        let got = self
            .pair
            .side(1)
            .read_vec(&self.target, self.n)
            .map_err(text)?;
        exact("on device 1: x", &got, &expected(self.n, seed))
    }
}

/// Enqueues `produce` writing pattern `seed` into the `n` elements of `x`.
fn produce(kernel: &Kernel, side: &Side, x: &Buffer<u32>, seed: u32, n: usize) -> Step<Event> {
    // SAFETY: produce(global uint *, uint); `x` holds the n elements the
    // range covers.
    unsafe {
        kernel.set_arg(0, &x.get()).during("clSetKernelArg")?;
        kernel.set_arg(1, &seed).during("clSetKernelArg")?;
        side.launch_after(kernel, &[n], None, &[])
    }
}

/// Enqueues `consume` checking the `n` elements of `x` against pattern
/// `seed`, counting differences in `bad`, once `waits` are complete.
fn consume(
    kernel: &Kernel,
    side: &Side,
    x: &Buffer<u32>,
    seed: u32,
    bad: &Buffer<u32>,
    waits: &[cl_event],
    n: usize,
) -> Step<()> {
    // SAFETY: consume(global const uint *, uint, global uint *); `x` holds
    // the n elements the range covers, `bad` one; `waits` are events of
    // this context that outlive the call.
    unsafe {
        kernel.set_arg(0, &x.get()).during("clSetKernelArg")?;
        kernel.set_arg(1, &seed).during("clSetKernelArg")?;
        kernel.set_arg(2, &bad.get()).during("clSetKernelArg")?;
        side.launch_after(kernel, &[n], None, waits)?;
    }
    Ok(())
}

/// The host reference: what `produce` writes for `seed` (`PATTERN` in
/// `kernels/migrate.cl`).
fn expected(n: usize, seed: u32) -> Vec<u32> {
    (0..n as u32)
        .map(|i| i.wrapping_mul(2_654_435_761).wrapping_add(seed))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_differ_from_run_to_run() {
        let (a, b) = (expected(1 << 16, 1), expected(1 << 16, 2));
        assert!(a.iter().zip(&b).all(|(x, y)| x != y));
        assert_eq!(a[3], 3u32.wrapping_mul(2_654_435_761) + 1);
        // Distinct within a run: an element copied to the wrong place shows.
        let mut sorted = a.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), a.len());
    }
}
