//! Images through the sampler path: the separable 9-tap Gaussian blur of
//! `kernels/images.cl` over an RGBA8 image (rows into a float RGBA image,
//! then columns back to RGBA8), with a literal CLAMP_TO_EDGE sampler, in
//! megapixels per second. Checked against the spec's arithmetic on the
//! host within one level of the 8-bit output.

use crate::config::Config;
use crate::harness::{During, Metric, Prepared, Step};
use crate::side::Side;
use crate::verify::Rng;
use opencl3::kernel::Kernel;
use opencl3::memory::{
    ClMem, Image, CL_FLOAT, CL_MEM_READ_ONLY, CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_RGBA,
    CL_UNORM_INT8,
};
use opencl3::types::cl_int;

pub const SOURCE: &str = include_str!("../../kernels/images.cl");

/// The kernel's `WEIGHTS`.
const WEIGHTS: [f32; 9] = [
    0.02763055, 0.06628225, 0.12383154, 0.18017382, 0.20416369, 0.18017382, 0.12383154, 0.06628225,
    0.02763055,
];

struct Blur<'a> {
    side: &'a Side,
    n: usize,
    want: Vec<u8>,
    dst: Image,
    rows: Kernel,
    columns: Kernel,
    _src: Image,
    _tmp: Image,
}

pub fn prepare<'a>(side: &'a Side, cfg: &Config) -> Step<Box<dyn Prepared + 'a>> {
    let n = cfg.image_side;
    let mut rng = Rng::new(21);
    let texels: Vec<u8> = (0..n * n * 4).map(|_| rng.next_u32() as u8).collect();
    let want = reference(&texels, n);
    let mut src = side.image2d(CL_MEM_READ_ONLY, CL_RGBA, CL_UNORM_INT8, n, n)?;
    side.write_image2d(&mut src, n, n, &texels)?;
    let tmp = side.image2d(CL_MEM_READ_WRITE, CL_RGBA, CL_FLOAT, n, n)?;
    let dst = side.image2d(CL_MEM_WRITE_ONLY, CL_RGBA, CL_UNORM_INT8, n, n)?;
    let program = side.build(SOURCE, "")?;
    let rows = side.kernel(&program, "blur_pass")?;
    let columns = side.kernel(&program, "blur_pass")?;
    let along_rows: [cl_int; 2] = [1, 0];
    let along_columns: [cl_int; 2] = [0, 1];
    // SAFETY: blur_pass(read_only image2d_t, write_only image2d_t, int2).
    unsafe {
        rows.set_arg(0, &src.get()).during("clSetKernelArg")?;
        rows.set_arg(1, &tmp.get()).during("clSetKernelArg")?;
        rows.set_arg(2, &along_rows).during("clSetKernelArg")?;
        columns.set_arg(0, &tmp.get()).during("clSetKernelArg")?;
        columns.set_arg(1, &dst.get()).during("clSetKernelArg")?;
        columns
            .set_arg(2, &along_columns)
            .during("clSetKernelArg")?;
    }
    side.finish()?;
    Ok(Box::new(Blur {
        side,
        n,
        want,
        dst,
        rows,
        columns,
        _src: src,
        _tmp: tmp,
    }))
}

impl Prepared for Blur<'_> {
    fn run(&mut self) -> Step<()> {
        // SAFETY: the arguments were set in `prepare`; one work-item per
        // pixel of the n x n images.
        unsafe {
            self.side.launch(&self.rows, &[self.n, self.n], None)?;
            self.side.launch(&self.columns, &[self.n, self.n], None)?;
        }
        self.side.finish()
    }

    fn verify(&mut self) -> Result<(), String> {
        let mut got = vec![0u8; self.n * self.n * 4];
        self.side
            .read_image2d(&self.dst, self.n, self.n, &mut got)
            .map_err(|f| format!("{f:?}"))?;
        within_levels("dst", &got, &self.want, 1)
    }

    fn metric(&self) -> Metric {
        Metric::Rate {
            amount: (self.n * self.n) as f64,
            scale: 1e-6,
            unit: "MP/s",
        }
    }
}

/// The blur of the `n` x `n` RGBA8 `texels` as the kernel computes it:
/// UNORM8 reads are `c / 255`, coordinates clamp to the edge, and the
/// float result is stored with round-to-nearest after saturation.
pub fn reference(texels: &[u8], n: usize) -> Vec<u8> {
    let at = |x: i64, y: i64| {
        (y.clamp(0, n as i64 - 1) as usize * n + x.clamp(0, n as i64 - 1) as usize) * 4
    };
    let mut rows = vec![0f32; n * n * 4];
    for y in 0..n as i64 {
        for x in 0..n as i64 {
            for c in 0..4 {
                rows[at(x, y) + c] = (-4..=4)
                    .map(|k| WEIGHTS[(k + 4) as usize] * (texels[at(x + k, y) + c] as f32 / 255.0))
                    .sum();
            }
        }
    }
    let mut out = vec![0u8; n * n * 4];
    for y in 0..n as i64 {
        for x in 0..n as i64 {
            for c in 0..4 {
                let v: f32 = (-4..=4)
                    .map(|k| WEIGHTS[(k + 4) as usize] * rows[at(x, y + k) + c])
                    .sum();
                out[at(x, y) + c] = unorm8(v);
            }
        }
    }
    out
}

/// OpenCL's float to CL_UNORM_INT8 conversion: saturate, scale, round to
/// nearest even.
pub fn unorm8(v: f32) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0).round_ties_even() as u8
}

/// `Err` naming the first byte of `got` more than `levels` away from `want`.
pub fn within_levels(what: &str, got: &[u8], want: &[u8], levels: u8) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!(
            "{what}: {} bytes, expected {}",
            got.len(),
            want.len()
        ));
    }
    match got
        .iter()
        .zip(want)
        .position(|(g, w)| g.abs_diff(*w) > levels)
    {
        None => Ok(()),
        Some(i) => Err(format!(
            "{what}[{i}] = {}, expected {} (within {levels})",
            got[i], want[i]
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flat_image_blurs_to_itself() {
        let texels = vec![200u8; 8 * 8 * 4];
        assert_eq!(reference(&texels, 8), texels);
    }

    #[test]
    fn the_weights_sum_to_one() {
        assert!((WEIGHTS.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    }
}
