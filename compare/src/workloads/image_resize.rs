//! Bilinear filtering: `resize_bilinear` of `kernels/images.cl` scales an
//! RGBA8 image by 3/2 with a literal normalized, CLAMP_TO_EDGE, LINEAR
//! sampler, in megapixels of output per second. Checked against the spec's
//! linear-filtering formula on the host within two levels of the 8-bit
//! output (hardware samplers interpolate with 8-bit weights).

use crate::config::Config;
use crate::harness::{During, Metric, Prepared, Step};
use crate::side::Side;
use crate::verify::Rng;
use crate::workloads::image_blur::{unorm8, within_levels, SOURCE};
use opencl3::kernel::Kernel;
use opencl3::memory::{ClMem, Image, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_RGBA, CL_UNORM_INT8};

struct Resize<'a> {
    side: &'a Side,
    out: usize,
    want: Vec<u8>,
    dst: Image,
    kernel: Kernel,
    _src: Image,
}

pub fn prepare<'a>(side: &'a Side, cfg: &Config) -> Step<Box<dyn Prepared + 'a>> {
    let n = cfg.image_side;
    let out = n * 3 / 2;
    let mut rng = Rng::new(22);
    let texels: Vec<u8> = (0..n * n * 4).map(|_| rng.next_u32() as u8).collect();
    let want = reference(&texels, n, out);
    let mut src = side.image2d(CL_MEM_READ_ONLY, CL_RGBA, CL_UNORM_INT8, n, n)?;
    side.write_image2d(&mut src, n, n, &texels)?;
    let dst = side.image2d(CL_MEM_WRITE_ONLY, CL_RGBA, CL_UNORM_INT8, out, out)?;
    let program = side.build(SOURCE, "")?;
    let kernel = side.kernel(&program, "resize_bilinear")?;
    // SAFETY: resize_bilinear(read_only image2d_t, write_only image2d_t).
    unsafe {
        kernel.set_arg(0, &src.get()).during("clSetKernelArg")?;
        kernel.set_arg(1, &dst.get()).during("clSetKernelArg")?;
    }
    side.finish()?;
    Ok(Box::new(Resize {
        side,
        out,
        want,
        dst,
        kernel,
        _src: src,
    }))
}

impl Prepared for Resize<'_> {
    fn run(&mut self) -> Step<()> {
        // SAFETY: the arguments were set in `prepare`; one work-item per
        // pixel of the destination.
        unsafe { self.side.launch(&self.kernel, &[self.out, self.out], None) }?;
        self.side.finish()
    }

    fn verify(&mut self) -> Result<(), String> {
        let mut got = vec![0u8; self.out * self.out * 4];
        self.side
            .read_image2d(&self.dst, self.out, self.out, &mut got)
            .map_err(|f| format!("{f:?}"))?;
        within_levels("dst", &got, &self.want, 2)
    }

    fn metric(&self) -> Metric {
        Metric::Rate {
            amount: (self.out * self.out) as f64,
            scale: 1e-6,
            unit: "MP/s",
        }
    }
}

/// The `n` x `n` RGBA8 `texels` resized to `out` x `out` with the OpenCL
/// spec's linear filter (normalized coordinates at pixel centres,
/// CLAMP_TO_EDGE), in f64.
pub fn reference(texels: &[u8], n: usize, out: usize) -> Vec<u8> {
    let last = n as i64 - 1;
    // Spec: i0 = floor(u - 0.5), i1 = i0 + 1, a = frac(u - 0.5), indices
    // clamped to the edge.
    let taps = |p: usize| {
        let s = (p as f64 + 0.5) / out as f64;
        let u = s * n as f64 - 0.5;
        let i0 = u.floor() as i64;
        let a = u - u.floor();
        (
            i0.clamp(0, last) as usize,
            (i0 + 1).clamp(0, last) as usize,
            a,
        )
    };
    let mut result = vec![0u8; out * out * 4];
    for y in 0..out {
        let (j0, j1, b) = taps(y);
        for x in 0..out {
            let (i0, i1, a) = taps(x);
            for c in 0..4 {
                let t = |i: usize, j: usize| texels[(j * n + i) * 4 + c] as f64 / 255.0;
                let v = (1.0 - a) * (1.0 - b) * t(i0, j0)
                    + a * (1.0 - b) * t(i1, j0)
                    + (1.0 - a) * b * t(i0, j1)
                    + a * b * t(i1, j1);
                result[(y * out + x) * 4 + c] = unorm8(v as f32);
            }
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_size_keeps_every_texel() {
        let texels: Vec<u8> = (0..4 * 4 * 4).map(|i| (i * 7) as u8).collect();
        assert_eq!(reference(&texels, 4, 4), texels);
    }

    #[test]
    fn doubling_interpolates_a_quarter_and_three_quarters() {
        // Two texels 0 and 255 in a row; output pixel 1 samples u = 0.75,
        // i0 = 0, a = 0.75 - 0.5 + ... : s = 1.5 / 4, u = 0.75, u - 0.5 = 0.25.
        let mut texels = vec![0u8; 2 * 2 * 4];
        for y in 0..2 {
            texels[(y * 2 + 1) * 4] = 255;
        }
        let out = reference(&texels, 2, 4);
        assert_eq!(out[4], unorm8(0.25));
        assert_eq!(out[0], 0);
        assert_eq!(out[3 * 4], 255);
    }
}
