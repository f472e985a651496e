//! Atomics under contention: the 256-bin byte histogram of
//! `kernels/histogram.cl` (`__local` atomic_inc, then a global atomic_add
//! merge), in GB/s of input. The global bins are zeroed with
//! `clEnqueueFillBuffer` inside each timed run. Checked exactly.

use crate::config::Config;
use crate::harness::{During, Metric, Prepared, Step};
use crate::side::Side;
use crate::verify::{exact, Rng};
use opencl3::kernel::Kernel;
use opencl3::memory::{Buffer, ClMem};

pub const SOURCE: &str = include_str!("../../kernels/histogram.cl");

const BINS: usize = 256;
const GROUPS: usize = 256;

struct Histogram<'a> {
    side: &'a Side,
    words: usize,
    want: Vec<u32>,
    bins: Buffer<u32>,
    kernel: Kernel,
    _data: Buffer<u32>,
}

pub fn prepare<'a>(side: &'a Side, cfg: &Config) -> Step<Box<dyn Prepared + 'a>> {
    let words = cfg.histogram_bytes / 4;
    let mut rng = Rng::new(51);
    // Skewed bytes (the minimum of two uniform ones), so low bins see more
    // contention, as real data does.
    let data: Vec<u32> = (0..words)
        .map(|_| {
            let r = rng.next_u64();
            (0..4).fold(0u32, |w, b| {
                let x = (r >> (16 * b)) as u8;
                let y = (r >> (16 * b + 8)) as u8;
                w | (x.min(y) as u32) << (8 * b)
            })
        })
        .collect();
    let want = reference(&data);
    let ddata = side.buffer_from(&data)?;
    let bins = side.buffer::<u32>(BINS)?;
    let program = side.build(SOURCE, "")?;
    let kernel = side.kernel(&program, "histogram256")?;
    side.check_group_size(&kernel, BINS)?;
    let words_arg = words as u32;
    // SAFETY: histogram256(global const uint *, uint, global uint *); data
    // holds `words` uints, bins BINS.
    unsafe {
        kernel.set_arg(0, &ddata.get()).during("clSetKernelArg")?;
        kernel.set_arg(1, &words_arg).during("clSetKernelArg")?;
        kernel.set_arg(2, &bins.get()).during("clSetKernelArg")?;
    }
    side.finish()?;
    Ok(Box::new(Histogram {
        side,
        words,
        want,
        bins,
        kernel,
        _data: ddata,
    }))
}

impl Prepared for Histogram<'_> {
    fn run(&mut self) -> Step<()> {
        // SAFETY: the pattern is one uint and the buffer holds BINS of them.
        unsafe {
            self.side
                .queue
                .enqueue_fill_buffer(&mut self.bins, &[0u32], 0, BINS * 4, &[])
        }
        .during("clEnqueueFillBuffer")?;
        // SAFETY: all three arguments were set in `prepare`; work-groups are
        // BINS wide, as the kernel's bin clearing and merge assume.
        unsafe {
            self.side
                .launch(&self.kernel, &[GROUPS * BINS], Some(&[BINS]))
        }?;
        self.side.finish()
    }

    fn verify(&mut self) -> Result<(), String> {
        let got = self
            .side
            .read_vec(&self.bins, BINS)
            .map_err(|f| format!("{f:?}"))?;
        exact("bins", &got, &self.want)
    }

    fn metric(&self) -> Metric {
        Metric::gbps(4.0 * self.words as f64)
    }
}

/// The byte histogram of `words` (four bytes each) on the host.
pub fn reference(words: &[u32]) -> Vec<u32> {
    let mut bins = vec![0u32; BINS];
    for w in words {
        for b in w.to_le_bytes() {
            bins[b as usize] += 1;
        }
    }
    bins
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_counts_every_byte() {
        let bins = reference(&[0x0102_0304, 0x0101_0101]);
        assert_eq!(bins[1], 5);
        assert_eq!(bins[2], 1);
        assert_eq!(bins[3], 1);
        assert_eq!(bins[4], 1);
        assert_eq!(bins.iter().sum::<u32>(), 8);
    }
}
