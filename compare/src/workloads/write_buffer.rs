//! Host-to-device bandwidth: a blocking `clEnqueueWriteBuffer` from
//! ordinary (pageable) host memory, the way most applications upload.

use crate::config::Config;
use crate::harness::{Metric, Prepared, Step};
use crate::side::Side;
use crate::verify::{exact, pattern};
use opencl3::memory::Buffer;

struct WriteBuffer<'a> {
    side: &'a Side,
    data: Vec<f32>,
    buffer: Buffer<f32>,
}

pub fn prepare<'a>(side: &'a Side, cfg: &Config) -> Step<Box<dyn Prepared + 'a>> {
    let n = cfg.copy_bytes / 4;
    let buffer = side.buffer_from(&vec![0.0f32; n])?;
    side.finish()?;
    Ok(Box::new(WriteBuffer {
        side,
        data: pattern(n, 3),
        buffer,
    }))
}

impl Prepared for WriteBuffer<'_> {
    fn run(&mut self) -> Step<()> {
        self.side.write(&mut self.buffer, &self.data)
    }

    fn verify(&mut self) -> Result<(), String> {
        let got = self
            .side
            .read_vec(&self.buffer, self.data.len())
            .map_err(|f| format!("{f:?}"))?;
        exact("buffer", &got, &self.data)
    }

    fn metric(&self) -> Metric {
        Metric::gbps(4.0 * self.data.len() as f64)
    }
}
