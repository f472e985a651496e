//! Arithmetic-bound kernel with a square root and a division per pair: one
//! all-pairs N-body step (`kernels/nbody.cl`), in billions of body-body
//! interactions per second (n^2 per run). Checked against an f64 host step
//! for every body at small n, a fixed sample otherwise.

use crate::config::Config;
use crate::harness::{During, Metric, Prepared, Step};
use crate::side::Side;
use crate::verify::{close, Rng, EPS32};
use opencl3::kernel::Kernel;
use opencl3::memory::{Buffer, ClMem};

pub const SOURCE: &str = include_str!("../../kernels/nbody.cl");

const TILE: usize = 256;
const DT: f32 = 0.01;
const SOFT2: f32 = 0.01;
const FULL_CHECK_MAX: usize = 2048;
const SAMPLES: usize = 256;

struct NBody<'a> {
    side: &'a Side,
    n: usize,
    pos: Vec<[f32; 4]>,
    vel: Vec<[f32; 4]>,
    kernel: Kernel,
    pos_out: Buffer<[f32; 4]>,
    vel_out: Buffer<[f32; 4]>,
    _inputs: [Buffer<[f32; 4]>; 2],
}

pub fn prepare<'a>(side: &'a Side, cfg: &Config) -> Step<Box<dyn Prepared + 'a>> {
    let n = cfg.nbody_n;
    let mut rng = Rng::new(41);
    let pos: Vec<[f32; 4]> = (0..n)
        .map(|_| {
            [
                rng.uniform(-1.0, 1.0),
                rng.uniform(-1.0, 1.0),
                rng.uniform(-1.0, 1.0),
                rng.uniform(0.5, 1.5) / n as f32,
            ]
        })
        .collect();
    let vel: Vec<[f32; 4]> = (0..n)
        .map(|_| {
            [
                rng.uniform(-0.1, 0.1),
                rng.uniform(-0.1, 0.1),
                rng.uniform(-0.1, 0.1),
                0.0,
            ]
        })
        .collect();
    let dpos = side.buffer_from(&pos)?;
    let dvel = side.buffer_from(&vel)?;
    let pos_out = side.buffer_from(&vec![[0.0f32; 4]; n])?;
    let vel_out = side.buffer_from(&vec![[0.0f32; 4]; n])?;
    let program = side.build(SOURCE, "")?;
    let kernel = side.kernel(&program, "nbody_step")?;
    side.check_group_size(&kernel, TILE)?;
    let (n_arg, dt, soft2) = (n as i32, DT, SOFT2);
    // SAFETY: nbody_step(global const float4 *pos, global const float4 *vel,
    // global float4 *pos_out, global float4 *vel_out, int, float, float);
    // each buffer holds n float4s.
    unsafe {
        kernel.set_arg(0, &dpos.get()).during("clSetKernelArg")?;
        kernel.set_arg(1, &dvel.get()).during("clSetKernelArg")?;
        kernel.set_arg(2, &pos_out.get()).during("clSetKernelArg")?;
        kernel.set_arg(3, &vel_out.get()).during("clSetKernelArg")?;
        kernel.set_arg(4, &n_arg).during("clSetKernelArg")?;
        kernel.set_arg(5, &dt).during("clSetKernelArg")?;
        kernel.set_arg(6, &soft2).during("clSetKernelArg")?;
    }
    side.finish()?;
    Ok(Box::new(NBody {
        side,
        n,
        pos,
        vel,
        kernel,
        pos_out,
        vel_out,
        _inputs: [dpos, dvel],
    }))
}

impl Prepared for NBody<'_> {
    fn run(&mut self) -> Step<()> {
        // SAFETY: all seven arguments were set in `prepare`; n is a multiple
        // of the work-group size the kernel's local tile assumes.
        unsafe { self.side.launch(&self.kernel, &[self.n], Some(&[TILE])) }?;
        self.side.finish()
    }

    fn verify(&mut self) -> Result<(), String> {
        let e = |f| format!("{f:?}");
        let pos_out = self.side.read_vec(&self.pos_out, self.n).map_err(e)?;
        let vel_out = self.side.read_vec(&self.vel_out, self.n).map_err(e)?;
        let bodies: Vec<usize> = if self.n <= FULL_CHECK_MAX {
            (0..self.n).collect()
        } else {
            let mut rng = Rng::new(7);
            (0..SAMPLES)
                .map(|_| rng.next_u32() as usize % self.n)
                .collect()
        };
        for i in bodies {
            let step = reference_step(&self.pos, &self.vel, i);
            for c in 0..3 {
                close(
                    &format!("vel[{i}].{}", "xyz".as_bytes()[c] as char),
                    vel_out[i][c],
                    step.vel[c],
                    step.vel_bound[c],
                )?;
                close(
                    &format!("pos[{i}].{}", "xyz".as_bytes()[c] as char),
                    pos_out[i][c],
                    step.pos[c],
                    step.pos_bound[c],
                )?;
            }
        }
        Ok(())
    }

    fn metric(&self) -> Metric {
        let n = self.n as f64;
        Metric::Rate {
            amount: n * n,
            scale: 1e-9,
            unit: "G interactions/s",
        }
    }
}

/// Body `i` after one step, in f64, with error bounds for the f32 kernel.
pub struct ReferenceStep {
    pub vel: [f64; 3],
    pub pos: [f64; 3],
    pub vel_bound: [f64; 3],
    pub pos_bound: [f64; 3],
}

pub fn reference_step(pos: &[[f32; 4]], vel: &[[f32; 4]], i: usize) -> ReferenceStep {
    let p = pos[i].map(|x| x as f64);
    let mut acc = [0.0f64; 3];
    let mut magnitude = [0.0f64; 3];
    for q in pos {
        let d = [q[0] as f64 - p[0], q[1] as f64 - p[1], q[2] as f64 - p[2]];
        let dist2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + SOFT2 as f64;
        let s = q[3] as f64 / (dist2 * dist2.sqrt());
        for c in 0..3 {
            acc[c] += d[c] * s;
            magnitude[c] += (d[c] * s).abs();
        }
    }
    let dt = DT as f64;
    // Each term carries some ten roundings (difference, squares, rsqrt
    // (2 ulp), products), and the running sum adds one per body.
    let terms = pos.len() as f64 + 16.0;
    let mut out = ReferenceStep {
        vel: [0.0; 3],
        pos: [0.0; 3],
        vel_bound: [0.0; 3],
        pos_bound: [0.0; 3],
    };
    for c in 0..3 {
        let v = vel[i][c] as f64 + acc[c] * dt;
        let x = p[c] + v * dt;
        let vel_bound =
            terms * EPS32 * magnitude[c] * dt + 2.0 * EPS32 * (v.abs() + vel[i][c].abs() as f64);
        out.vel[c] = v;
        out.pos[c] = x;
        out.vel_bound[c] = vel_bound;
        out.pos_bound[c] = vel_bound * dt + 2.0 * EPS32 * (x.abs() + p[c].abs() + (v * dt).abs());
    }
    out
}
