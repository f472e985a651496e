//! The geometry of a kernel launch: checking an NDRange against the device
//! and the kernel, choosing a work-group size when the application leaves
//! it to us, and the push-constant header that tells the kernel its range.
//!
//! For now global ids are 32-bit in the kernel (the header holds `u32`s), so
//! each dimension's offset plus size must fit in 32 bits. A launch needing
//! more groups than `maxComputeWorkGroupCount` is split into several
//! dispatches, and so is a non-uniform NDRange (OpenCL C 2.0 and later):
//! its last, smaller group in a dimension runs as a dispatch of its own
//! with a pipeline made for that size.

use opencl_sys::{
    CL_INVALID_GLOBAL_OFFSET, CL_INVALID_GLOBAL_WORK_SIZE, CL_INVALID_WORK_GROUP_SIZE,
    CL_INVALID_WORK_ITEM_SIZE,
};
use translator::PushConstantHeader;

use crate::core::CLResult;

/// The work-group size budget when the application passes no local size:
/// large enough to fill SIMD lanes, small enough to leave registers and
/// many groups for the scheduler.
const DEFAULT_GROUP_INVOCATIONS: usize = 256;
/// Dimension 0's share of the budget for 2D and 3D ranges, so the other
/// dimensions get some too.
const DEFAULT_MULTI_DIM_X: usize = 64;

/// An NDRange as the application gave it; dimensions past `work_dim` are 1
/// (size) and 0 (offset).
#[derive(Clone, Copy, Debug)]
pub struct NdRange {
    pub work_dim: usize,
    pub global_offset: [usize; 3],
    pub global_size: [usize; 3],
    pub local_size: Option<[usize; 3]>,
}

/// What the device needs to know about itself to check a launch.
#[derive(Clone, Copy, Debug)]
pub struct LaunchLimits {
    pub max_work_group_size: usize,
    pub max_work_item_sizes: [usize; 3],
    pub max_work_group_count: [u32; 3],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchPlan {
    /// The enqueued work-group size.
    pub local_size: [u32; 3],
    /// The size of the last group in each dimension: `local_size` unless
    /// the NDRange is non-uniform there.
    pub last_group_size: [u32; 3],
    /// Work-groups of the whole NDRange, per dimension.
    pub group_count: [u32; 3],
    /// The most groups one Vulkan dispatch may have, per dimension.
    pub max_dispatch: [u32; 3],
    pub header: PushConstantHeader,
}

impl LaunchPlan {
    /// A range with a zero-sized dimension runs nothing (allowed since
    /// OpenCL 2.1); its event still completes in order.
    pub fn is_empty(&self) -> bool {
        self.group_count.contains(&0)
    }

    /// The dispatches that cover the NDRange. One, unless a dimension has
    /// more groups than a Vulkan dispatch allows or ends in a smaller
    /// group; the kernel adds the first group to its ids.
    pub fn dispatches(&self) -> Vec<Dispatch> {
        // Per dimension: (first group, group count, group size).
        let chunks = |d: usize| -> Vec<(u32, u32, u32)> {
            let smaller_last = self.last_group_size[d] != self.local_size[d];
            let full = self.group_count[d] - u32::from(smaller_last);
            let max = self.max_dispatch[d].max(1);
            let mut out: Vec<_> = (0..full.div_ceil(max))
                .map(|i| (i * max, max.min(full - i * max), self.local_size[d]))
                .collect();
            if smaller_last {
                out.push((full, 1, self.last_group_size[d]));
            }
            out
        };
        let (xs, ys, zs) = (chunks(0), chunks(1), chunks(2));
        let mut out = Vec::with_capacity(xs.len() * ys.len() * zs.len());
        for &(z0, zn, zl) in &zs {
            for &(y0, yn, yl) in &ys {
                for &(x0, xn, xl) in &xs {
                    out.push(Dispatch {
                        first_group: [x0, y0, z0],
                        group_count: [xn, yn, zn],
                        local_size: [xl, yl, zl],
                    });
                }
            }
        }
        out
    }
}

/// One Vulkan dispatch of a launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dispatch {
    pub first_group: [u32; 3],
    pub group_count: [u32; 3],
    /// The size of its groups, which its pipeline is made for.
    pub local_size: [u32; 3],
}

/// Checks `range` and lays out its work-groups. `non_uniform`: the kernel
/// allows a global size that is not a multiple of the local size.
pub fn plan(
    range: &NdRange,
    limits: &LaunchLimits,
    required: Option<[u32; 3]>,
    non_uniform: bool,
) -> CLResult<LaunchPlan> {
    let dims = 0..range.work_dim;
    let id_limit = 1u64 << 32;
    for d in dims.clone() {
        if range.global_size[d] as u64 > u64::from(u32::MAX) {
            return Err(CL_INVALID_GLOBAL_WORK_SIZE);
        }
        // An offset near SIZE_MAX must not wrap round to a small sum.
        let end = (range.global_offset[d] as u64).checked_add(range.global_size[d] as u64);
        if end.is_none_or(|end| end > id_limit) {
            return Err(CL_INVALID_GLOBAL_OFFSET);
        }
    }
    let required = required.map(|r| r.map(|n| n as usize));
    let local = match (range.local_size, required) {
        (Some(local), Some(required)) if local != required => {
            return Err(CL_INVALID_WORK_GROUP_SIZE);
        }
        (Some(local), _) => local,
        (None, Some(required)) => required,
        (None, None) => default_local_size(range, limits),
    };
    for d in dims.clone() {
        if local[d] == 0 {
            return Err(CL_INVALID_WORK_GROUP_SIZE);
        }
        if local[d] > limits.max_work_item_sizes[d] {
            return Err(CL_INVALID_WORK_ITEM_SIZE);
        }
    }
    let invocations: usize = local[..range.work_dim].iter().product();
    if invocations > limits.max_work_group_size {
        return Err(CL_INVALID_WORK_GROUP_SIZE);
    }
    let mut plan = LaunchPlan {
        local_size: [1; 3],
        last_group_size: [1; 3],
        group_count: [1; 3],
        max_dispatch: limits.max_work_group_count,
        header: PushConstantHeader {
            work_dim: range.work_dim as u32,
            global_size: [1; 3],
            ..PushConstantHeader::default()
        },
    };
    for d in dims {
        // Without non-uniform work groups the size must divide evenly.
        let remainder = range.global_size[d] % local[d];
        if remainder != 0 && !non_uniform {
            return Err(CL_INVALID_WORK_GROUP_SIZE);
        }
        let groups = range.global_size[d].div_ceil(local[d]);
        // All fit in u32: checked against the 32-bit id limit above.
        plan.local_size[d] = local[d] as u32;
        plan.last_group_size[d] = if remainder == 0 { local[d] } else { remainder } as u32;
        plan.group_count[d] = groups as u32;
        plan.header.global_size[d] = range.global_size[d] as u32;
        plan.header.global_offset[d] = range.global_offset[d] as u32;
    }
    Ok(plan)
}

/// A local size that divides the global size in each dimension, within
/// the device limits and `DEFAULT_GROUP_INVOCATIONS`, preferring a
/// multiple of 64 or 32 in dimension 0 so that whole subgroups are used.
pub fn default_local_size(range: &NdRange, limits: &LaunchLimits) -> [usize; 3] {
    let mut local = [1; 3];
    let mut budget = DEFAULT_GROUP_INVOCATIONS
        .min(limits.max_work_group_size)
        .max(1);
    let dimensions = local
        .iter_mut()
        .zip(range.global_size)
        .zip(limits.max_work_item_sizes);
    for (d, ((local, global), max_items)) in dimensions.take(range.work_dim).enumerate() {
        let mut limit = budget.min(max_items);
        if d == 0 && range.work_dim > 1 {
            limit = limit.min(DEFAULT_MULTI_DIM_X);
        }
        *local = if d == 0 {
            largest_divisor(global, limit, 64)
                .or_else(|| largest_divisor(global, limit, 32))
                .or_else(|| largest_divisor(global, limit, 1))
                .unwrap_or(1)
        } else {
            largest_divisor(global, limit, 1).unwrap_or(1)
        };
        budget /= *local;
    }
    local
}

/// The largest multiple of `step` that divides `n` and is at most `limit`.
fn largest_divisor(n: usize, limit: usize, step: usize) -> Option<usize> {
    if n == 0 {
        return None;
    }
    let top = limit.min(n) / step * step;
    (1..=top / step)
        .rev()
        .map(|k| k * step)
        .find(|&candidate| n.is_multiple_of(candidate))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: LaunchLimits = LaunchLimits {
        max_work_group_size: 1024,
        max_work_item_sizes: [1024, 1024, 64],
        max_work_group_count: [65535, 65535, 65535],
    };

    fn range(work_dim: usize, global: [usize; 3], local: Option<[usize; 3]>) -> NdRange {
        NdRange {
            work_dim,
            global_offset: [0; 3],
            global_size: global,
            local_size: local,
        }
    }

    #[test]
    fn default_local_size_prefers_multiples_of_64_then_32() {
        assert_eq!(
            default_local_size(&range(1, [1 << 20, 1, 1], None), &LIMITS),
            [256, 1, 1]
        );
        assert_eq!(
            default_local_size(&range(1, [96 * 7, 1, 1], None), &LIMITS),
            [224, 1, 1]
        );
        assert_eq!(
            default_local_size(&range(1, [1000, 1, 1], None), &LIMITS),
            [250, 1, 1]
        );
        assert_eq!(
            default_local_size(&range(1, [1009, 1, 1], None), &LIMITS),
            [1, 1, 1]
        );
    }

    #[test]
    fn default_local_size_shares_the_budget_between_dimensions() {
        let local = default_local_size(&range(2, [1024, 1024, 1], None), &LIMITS);
        assert_eq!(local, [64, 4, 1]);
    }

    #[test]
    fn plan_checks_sizes_against_the_device() {
        assert_eq!(
            plan(
                &range(1, [100, 1, 1], Some([30, 1, 1])),
                &LIMITS,
                None,
                false
            ),
            Err(CL_INVALID_WORK_GROUP_SIZE)
        );
        assert_eq!(
            plan(
                &range(3, [128, 1, 128], Some([1, 1, 128])),
                &LIMITS,
                None,
                false
            ),
            Err(CL_INVALID_WORK_ITEM_SIZE)
        );
        assert_eq!(
            plan(
                &range(1, [64, 1, 1], Some([64, 1, 1])),
                &LIMITS,
                Some([32, 1, 1]),
                false
            ),
            Err(CL_INVALID_WORK_GROUP_SIZE)
        );
        let many_groups = LaunchLimits {
            max_work_group_count: [u32::MAX; 3],
            ..LIMITS
        };
        let mut offset = range(1, [1 << 31, 1, 1], None);
        offset.global_offset[0] = 1 << 31;
        assert!(plan(&offset, &many_groups, None, false).is_ok());
        offset.global_offset[0] += 1;
        assert_eq!(
            plan(&offset, &many_groups, None, false),
            Err(CL_INVALID_GLOBAL_OFFSET)
        );
        // Offsets whose sum with the size would wrap round to a small one.
        for size in [4, 5, 8, 64] {
            let mut wrapping = range(1, [size, 1, 1], None);
            wrapping.global_offset[0] = usize::MAX - 4;
            assert_eq!(
                plan(&wrapping, &many_groups, None, false),
                Err(CL_INVALID_GLOBAL_OFFSET),
                "size {size}"
            );
        }
    }

    #[test]
    fn launches_beyond_the_dispatch_limit_are_split() {
        // A prime global size forces a local size of 1: 1000003 groups.
        let p = plan(&range(1, [1_000_003, 1, 1], None), &LIMITS, None, false).unwrap();
        assert_eq!(p.local_size, [1, 1, 1]);
        let dispatches: Vec<_> = p
            .dispatches()
            .iter()
            .map(|d| (d.first_group, d.group_count))
            .collect();
        assert_eq!(dispatches.len(), 16);
        assert_eq!(dispatches[0], ([0, 0, 0], [65535, 1, 1]));
        assert_eq!(
            dispatches[15],
            ([15 * 65535, 0, 0], [1_000_003 - 15 * 65535, 1, 1])
        );
        let covered: u32 = dispatches.iter().map(|(_, n)| n[0]).sum();
        assert_eq!(covered, 1_000_003);
        let two_d = plan(
            &range(2, [4, 70000, 1], Some([4, 1, 1])),
            &LIMITS,
            None,
            false,
        )
        .unwrap();
        let two_d: Vec<_> = two_d
            .dispatches()
            .iter()
            .map(|d| (d.first_group, d.group_count))
            .collect();
        assert_eq!(
            two_d,
            vec![([0, 0, 0], [1, 65535, 1]), ([0, 65535, 0], [1, 4465, 1])]
        );
    }

    #[test]
    fn a_non_uniform_range_ends_in_smaller_groups() {
        let r = range(2, [100, 10, 1], Some([32, 4, 1]));
        assert_eq!(
            plan(&r, &LIMITS, None, false),
            Err(CL_INVALID_WORK_GROUP_SIZE)
        );
        let p = plan(&r, &LIMITS, None, true).unwrap();
        assert_eq!(p.group_count, [4, 3, 1]);
        assert_eq!(p.last_group_size, [4, 2, 1]);
        let dispatches = p.dispatches();
        let expected = [
            ([0, 0, 0], [3, 2, 1], [32, 4, 1]),
            ([3, 0, 0], [1, 2, 1], [4, 4, 1]),
            ([0, 2, 0], [3, 1, 1], [32, 2, 1]),
            ([3, 2, 0], [1, 1, 1], [4, 2, 1]),
        ];
        let got: Vec<_> = dispatches
            .iter()
            .map(|d| (d.first_group, d.group_count, d.local_size))
            .collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn plan_fills_the_header() {
        let mut r = range(2, [64, 8, 1], Some([16, 2, 1]));
        r.global_offset = [5, 6, 0];
        let plan = plan(&r, &LIMITS, None, false).unwrap();
        assert_eq!(plan.group_count, [4, 4, 1]);
        assert_eq!(plan.local_size, [16, 2, 1]);
        assert_eq!(plan.header.global_size, [64, 8, 1]);
        assert_eq!(plan.header.global_offset, [5, 6, 0]);
        assert_eq!(plan.header.work_dim, 2);
        assert!(!plan.is_empty());
    }

    #[test]
    fn zero_global_size_runs_nothing() {
        let plan = plan(&range(1, [0, 1, 1], None), &LIMITS, None, false).unwrap();
        assert!(plan.is_empty());
    }
}
