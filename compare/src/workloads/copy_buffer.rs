//! Device-to-device bandwidth through `clEnqueueCopyBuffer`, reported like
//! the copy kernel: bytes read + written per second.

use crate::config::Config;
use crate::harness::{During, Metric, Prepared, Step};
use crate::side::Side;
use crate::verify::{exact, pattern};
use opencl3::memory::Buffer;

struct CopyBuffer<'a> {
    side: &'a Side,
    data: Vec<f32>,
    src: Buffer<f32>,
    dst: Buffer<f32>,
}

pub fn prepare<'a>(side: &'a Side, cfg: &Config) -> Step<Box<dyn Prepared + 'a>> {
    let n = cfg.copy_bytes / 4;
    let data = pattern(n, 2);
    let src = side.buffer_from(&data)?;
    let dst = side.buffer_from(&vec![0.0f32; n])?;
    side.finish()?;
    Ok(Box::new(CopyBuffer {
        side,
        data,
        src,
        dst,
    }))
}

impl Prepared for CopyBuffer<'_> {
    fn run(&mut self) -> Step<()> {
        let bytes = self.data.len() * 4;
        // SAFETY: both buffers hold `bytes` bytes and do not overlap.
        unsafe {
            self.side
                .queue
                .enqueue_copy_buffer(&self.src, &mut self.dst, 0, 0, bytes, &[])
        }
        .during("clEnqueueCopyBuffer")?;
        self.side.finish()
    }

    fn verify(&mut self) -> Result<(), String> {
        let got = self
            .side
            .read_vec(&self.dst, self.data.len())
            .map_err(|f| format!("{f:?}"))?;
        exact("dst", &got, &self.data)
    }

    fn metric(&self) -> Metric {
        Metric::gbps(2.0 * 4.0 * self.data.len() as f64)
    }
}
