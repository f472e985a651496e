//! Memory-bound reduction: the two-stage float sum of `kernels/reduce.cl`
//! (256 work-groups of 256, then one work-group over their sums), in GB/s
//! of input read, and the same through sub-group reductions
//! (`kernels/reduce_subgroup.cl`). Checked against an f64 host sum within
//! the error bound of the kernel's addition order.

use crate::config::Config;
use crate::harness::{During, Metric, Prepared, Step};
use crate::side::Side;
use crate::verify::{close, reduction_depth, sum_bound, Rng};
use opencl3::kernel::Kernel;
use opencl3::memory::{Buffer, ClMem};

pub const SOURCE: &str = include_str!("../../kernels/reduce.cl");
pub const SUB_GROUP_SOURCE: &str = include_str!("../../kernels/reduce_subgroup.cl");

const GROUP: usize = 256;
const GROUPS: usize = 256;

struct Reduce<'a> {
    side: &'a Side,
    n: usize,
    /// The longest chain of roundings a result goes through.
    depth: usize,
    want: f64,
    magnitude: f64,
    stage1: Kernel,
    stage2: Kernel,
    result: Buffer<f32>,
    _buffers: [Buffer<f32>; 2],
}

/// The `__local`-memory tree.
pub fn prepare<'a>(side: &'a Side, cfg: &Config) -> Step<Box<dyn Prepared + 'a>> {
    let depth = reduction_depth(cfg.reduce_n, GROUPS * GROUP, GROUP, GROUPS);
    prepare_from(side, cfg, SOURCE, depth)
}

/// The sub-group reductions, which add a sub-group's values in an order
/// of the device's: at most a chain through every value of the group.
pub fn prepare_sub_groups<'a>(side: &'a Side, cfg: &Config) -> Step<Box<dyn Prepared + 'a>> {
    let depth = cfg.reduce_n.div_ceil(GROUPS * GROUP) + GROUP + GROUPS.div_ceil(GROUP) + GROUP;
    prepare_from(side, cfg, SUB_GROUP_SOURCE, depth)
}

fn prepare_from<'a>(
    side: &'a Side,
    cfg: &Config,
    source: &str,
    depth: usize,
) -> Step<Box<dyn Prepared + 'a>> {
    let n = cfg.reduce_n;
    let data = Rng::new(31).floats(n, 0.0, 1.0);
    let want: f64 = data.iter().map(|&x| x as f64).sum();
    let input = side.buffer_from(&data)?;
    let partial = side.buffer::<f32>(GROUPS)?;
    let result = side.buffer_from(&[0.0f32])?;
    let program = side.build(source, "")?;
    let stage1 = side.kernel(&program, "reduce_sum")?;
    let stage2 = side.kernel(&program, "reduce_sum")?;
    side.check_group_size(&stage1, GROUP)?;
    let (n_arg, groups_arg) = (n as u32, GROUPS as u32);
    // SAFETY: reduce_sum(global const float *, uint, global float *); stage
    // one reads n floats and writes GROUPS, stage two reads GROUPS and
    // writes one.
    unsafe {
        stage1.set_arg(0, &input.get()).during("clSetKernelArg")?;
        stage1.set_arg(1, &n_arg).during("clSetKernelArg")?;
        stage1.set_arg(2, &partial.get()).during("clSetKernelArg")?;
        stage2.set_arg(0, &partial.get()).during("clSetKernelArg")?;
        stage2.set_arg(1, &groups_arg).during("clSetKernelArg")?;
        stage2.set_arg(2, &result.get()).during("clSetKernelArg")?;
    }
    side.finish()?;
    Ok(Box::new(Reduce {
        side,
        n,
        depth,
        want,
        // All inputs are non-negative.
        magnitude: want,
        stage1,
        stage2,
        result,
        _buffers: [input, partial],
    }))
}

impl Prepared for Reduce<'_> {
    fn run(&mut self) -> Step<()> {
        // SAFETY: every argument of both kernels was set in `prepare`; the
        // ranges are GROUPS groups, then one group, of GROUP work-items.
        unsafe {
            self.side
                .launch(&self.stage1, &[GROUPS * GROUP], Some(&[GROUP]))?;
            self.side.launch(&self.stage2, &[GROUP], Some(&[GROUP]))?;
        }
        self.side.finish()
    }

    fn verify(&mut self) -> Result<(), String> {
        let got = self
            .side
            .read_vec(&self.result, 1)
            .map_err(|f| format!("{f:?}"))?[0];
        close("sum", got, self.want, sum_bound(self.depth, self.magnitude))
    }

    fn metric(&self) -> Metric {
        Metric::gbps(4.0 * self.n as f64)
    }
}
