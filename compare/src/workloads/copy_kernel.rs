//! Device memory bandwidth through a kernel: a float4 copy between two
//! buffers, reported as bytes read + written per second.

use crate::config::Config;
use crate::harness::{During, Metric, Prepared, Step};
use crate::side::Side;
use crate::verify::{exact, pattern};
use opencl3::kernel::Kernel;
use opencl3::memory::{Buffer, ClMem};

pub const SOURCE: &str = include_str!("../../kernels/copy.cl");

struct CopyKernel<'a> {
    side: &'a Side,
    data: Vec<f32>,
    dst: Buffer<f32>,
    kernel: Kernel,
    // Kept alive: the kernel's argument 0.
    _src: Buffer<f32>,
}

pub fn prepare<'a>(side: &'a Side, cfg: &Config) -> Step<Box<dyn Prepared + 'a>> {
    let n = cfg.copy_bytes / 4;
    let data = pattern(n, 1);
    let src = side.buffer_from(&data)?;
    // Zeroed, so that a copy that did not happen shows.
    let dst = side.buffer_from(&vec![0.0f32; n])?;
    let program = side.build(SOURCE, "")?;
    let kernel = side.kernel(&program, "copy4")?;
    // SAFETY: copy4 takes two `__global float4 *`; both buffers hold n/4
    // float4s.
    unsafe {
        kernel.set_arg(0, &src.get()).during("clSetKernelArg")?;
        kernel.set_arg(1, &dst.get()).during("clSetKernelArg")?;
    }
    side.finish()?;
    Ok(Box::new(CopyKernel {
        side,
        data,
        dst,
        kernel,
        _src: src,
    }))
}

impl Prepared for CopyKernel<'_> {
    fn run(&mut self) -> Step<()> {
        // SAFETY: both arguments were set in `prepare`; one work-item per
        // float4 of the buffers.
        unsafe { self.side.launch(&self.kernel, &[self.data.len() / 4], None) }?;
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
