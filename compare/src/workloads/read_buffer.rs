//! Device-to-host bandwidth: a blocking `clEnqueueReadBuffer` into ordinary
//! (pageable) host memory.

use crate::config::Config;
use crate::harness::{Metric, Prepared, Step};
use crate::side::Side;
use crate::verify::{exact, pattern};
use opencl3::memory::Buffer;

struct ReadBuffer<'a> {
    side: &'a Side,
    data: Vec<f32>,
    out: Vec<f32>,
    buffer: Buffer<f32>,
}

pub fn prepare<'a>(side: &'a Side, cfg: &Config) -> Step<Box<dyn Prepared + 'a>> {
    let n = cfg.copy_bytes / 4;
    let data = pattern(n, 4);
    let buffer = side.buffer_from(&data)?;
    side.finish()?;
    Ok(Box::new(ReadBuffer {
        side,
        data,
        // Zeroed, so that a read that did not happen shows.
        out: vec![0.0; n],
        buffer,
    }))
}

impl Prepared for ReadBuffer<'_> {
    fn run(&mut self) -> Step<()> {
        self.side.read(&self.buffer, &mut self.out)
    }

    fn verify(&mut self) -> Result<(), String> {
        exact("host copy", &self.out, &self.data)
    }

    fn metric(&self) -> Metric {
        Metric::gbps(4.0 * self.data.len() as f64)
    }
}
