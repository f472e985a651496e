//! The sub-group functions of `cl_khr_subgroups` (OpenCL C 6.15.19 in
//! 3.0): OpenCL's sub-groups are the device's Vulkan subgroups, and each
//! function is one of Vulkan's subgroup operations or computed from the
//! sub-group built-ins (`interface/sub_groups.rs`) and the work-group size.
//!
//! Sub-group `k` of a work-group holds the work-items of local linear ids
//! `k * size` to `(k + 1) * size - 1`, where `size` is the device's
//! subgroup size: every sub-group is full but the last, which holds the
//! rest. This is how the drivers tested (lavapipe, NVIDIA's) form compute
//! subgroups, and `tests/sub_groups.rs` checks it on each.

use super::collectives::Fold;
use crate::builtins::Builtin;
use crate::diagnostic::Location;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::expressions::{Operand, Value};
use crate::lower::function::FnBuilder;
use crate::types::Type;
use naga::{BinaryOperator as Op, CollectiveOperation as C, Handle, SubgroupOperation as S};

/// The reductions and scans, as data: Vulkan's operation and how it
/// combines the sub-group's operands.
const COLLECTIVES: &[(Builtin, S, C)] = &[
    (Builtin::SubGroupReduceAdd, S::Add, C::Reduce),
    (Builtin::SubGroupReduceMin, S::Min, C::Reduce),
    (Builtin::SubGroupReduceMax, S::Max, C::Reduce),
    (Builtin::SubGroupScanExclusiveAdd, S::Add, C::ExclusiveScan),
    (Builtin::SubGroupScanExclusiveMin, S::Min, C::ExclusiveScan),
    (Builtin::SubGroupScanExclusiveMax, S::Max, C::ExclusiveScan),
    (Builtin::SubGroupScanInclusiveAdd, S::Add, C::InclusiveScan),
    (Builtin::SubGroupScanInclusiveMin, S::Min, C::InclusiveScan),
    (Builtin::SubGroupScanInclusiveMax, S::Max, C::InclusiveScan),
];

impl ModuleBuilder<'_> {
    /// A call of sub-group function `b` with `args`, whose result has type
    /// `ty`.
    pub(super) fn sub_group_function(
        &mut self,
        fb: &mut FnBuilder,
        b: Builtin,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Value> {
        use naga::BuiltIn as In;
        let value = match b {
            Builtin::SubGroupLocalId => self.sub_group_value(fb, In::SubgroupInvocationId),
            Builtin::SubGroupId => self.sub_group_value(fb, In::SubgroupId),
            Builtin::MaxSubGroupSize => {
                // At most the work-group: a group smaller than a subgroup
                // is one sub-group of its size.
                let size = self.sub_group_value(fb, In::SubgroupSize);
                let group = self.linear_size(fb, true);
                fb.math(naga::MathFunction::Min, size, Some(group))
            }
            Builtin::NumSubGroups | Builtin::EnqueuedNumSubGroups => {
                let group = self.linear_size(fb, b == Builtin::EnqueuedNumSubGroups);
                let size = self.sub_group_value(fb, In::SubgroupSize);
                let one = fb.add(naga::Expression::Literal(naga::Literal::U32(1)));
                let less_one = fb.binary(Op::Subtract, size, one);
                let rounded = fb.binary(Op::Add, group, less_one);
                fb.binary(Op::Divide, rounded, size)
            }
            Builtin::SubGroupSize => {
                // The full size, or what is left of the group for the last.
                let size = self.sub_group_value(fb, In::SubgroupSize);
                let id = self.sub_group_value(fb, In::SubgroupId);
                let group = self.linear_size(fb, false);
                let before = fb.binary(Op::Multiply, id, size);
                let rest = fb.binary(Op::Subtract, group, before);
                fb.math(naga::MathFunction::Min, size, Some(rest))
            }
            Builtin::SubGroupBarrier => {
                let flags = args.first().and_then(|&a| fb.int_constant(a)).unwrap_or(3);
                let mut barrier = naga::Barrier::SUB_GROUP;
                if flags & 1 != 0 {
                    barrier |= naga::Barrier::WORK_GROUP;
                }
                if flags & 6 != 0 {
                    barrier |= naga::Barrier::STORAGE;
                }
                fb.push(naga::Statement::ControlBarrier(barrier));
                return Ok(Value::Void);
            }
            Builtin::SubGroupAll | Builtin::SubGroupAny => {
                let truth = self.condition(fb, args[0])?;
                let op = if b == Builtin::SubGroupAll {
                    S::All
                } else {
                    S::Any
                };
                let bool_ty = self.add_type(naga::TypeInner::Scalar(naga::Scalar::BOOL));
                let all = self.collective_statement(fb, op, C::Reduce, truth, bool_ty);
                let one = self.constant(fb, &Type::INT, 1, location)?;
                let zero = self.constant(fb, &Type::INT, 0, location)?;
                return Ok(Value::Plain(fb.select(all, one, zero)));
            }
            Builtin::SubGroupBroadcast => {
                let value = self.plain(fb, args[0])?;
                // naga broadcasts from a constant lane only; a lane known
                // at run time (the same across the sub-group, as OpenCL
                // requires) is a shuffle from it.
                let mode = match fb.int_constant(args[1]) {
                    Some(lane) => {
                        let lane = u32::try_from(lane).unwrap_or(u32::MAX);
                        let lane = fb.add(naga::Expression::Literal(naga::Literal::U32(lane)));
                        naga::GatherMode::Broadcast(lane)
                    }
                    None => {
                        let lane_ty = fb.ty(args[1]);
                        let lane = self.plain(fb, args[1])?;
                        let lane = self.convert(fb, lane, &lane_ty, &Type::UINT, location)?;
                        naga::GatherMode::Shuffle(lane)
                    }
                };
                let result_ty = self.value_type(ty, location)?;
                return Ok(Value::Plain(
                    self.sub_group_gather(fb, mode, value, result_ty),
                ));
            }
            Builtin::SubGroupShuffle
            | Builtin::SubGroupShuffleXor
            | Builtin::SubGroupShuffleUp
            | Builtin::SubGroupShuffleDown
            | Builtin::SubGroupRotate
            | Builtin::SubGroupClusteredRotate
            | Builtin::SubGroupNonUniformBroadcast
            | Builtin::SubGroupBroadcastFirst => {
                let value = self.plain(fb, args[0])?;
                let mode = self.gather_mode(fb, b, args, location)?;
                let result_ty = self.value_type(ty, location)?;
                return Ok(Value::Plain(
                    self.sub_group_gather(fb, mode, value, result_ty),
                ));
            }
            Builtin::SubGroupNonUniformAll | Builtin::SubGroupNonUniformAny => {
                let all = if b == Builtin::SubGroupNonUniformAll {
                    Builtin::SubGroupAll
                } else {
                    Builtin::SubGroupAny
                };
                return self.sub_group_function(fb, all, args, ty, location);
            }
            Builtin::SubGroupElect | Builtin::SubGroupNonUniformAllEqual => {
                // The first active work-item's value against each one's:
                // its lane (elect), or the operand (all equal).
                let (value, value_ty) = match b {
                    Builtin::SubGroupElect => {
                        let lane = self.sub_group_value(fb, In::SubgroupInvocationId);
                        (lane, self.u32_type())
                    }
                    _ => {
                        let operand_ty = fb.ty(args[0]);
                        let value = self.plain(fb, args[0])?;
                        (value, self.value_type(&operand_ty, location)?)
                    }
                };
                let first =
                    self.sub_group_gather(fb, naga::GatherMode::BroadcastFirst, value, value_ty);
                let same = fb.binary(Op::Equal, value, first);
                let truth = match b {
                    Builtin::SubGroupElect => same,
                    _ => {
                        let bool_ty = self.add_type(naga::TypeInner::Scalar(naga::Scalar::BOOL));
                        self.collective_statement(fb, S::All, C::Reduce, same, bool_ty)
                    }
                };
                let one = self.constant(fb, &Type::INT, 1, location)?;
                let zero = self.constant(fb, &Type::INT, 0, location)?;
                return Ok(Value::Plain(fb.select(truth, one, zero)));
            }
            b if super::sub_group_ballots::is_ballot_function(b) => {
                return self.ballot_function(fb, b, args, location)
            }
            _ => {
                let &(_, op, collective) = (COLLECTIVES.iter())
                    .find(|(f, _, _)| *f == b)
                    .ok_or_else(|| {
                        self.error(location, "internal error: not a sub-group function")
                    })?;
                let value = self.plain(fb, args[0])?;
                let scan = collective != C::Reduce;
                let result = match op {
                    S::Min | S::Max if scan => {
                        let fold = if op == S::Min { Fold::Min } else { Fold::Max };
                        let inclusive = collective == C::InclusiveScan;
                        self.scan_by_shuffles(fb, fold, inclusive, value, ty, location)?
                    }
                    _ => {
                        let result_ty = self.value_type(ty, location)?;
                        self.collective_statement(fb, op, collective, value, result_ty)
                    }
                };
                return Ok(Value::Plain(self.wrapped(fb, result, ty, location)?));
            }
        };
        Ok(Value::Plain(self.convert(
            fb,
            value,
            &Type::UINT,
            ty,
            location,
        )?))
    }

    /// The lane each work-item reads for shuffle-like function `b`.
    fn gather_mode(
        &mut self,
        fb: &mut FnBuilder,
        b: Builtin,
        args: &[Operand],
        location: Location,
    ) -> LResult<naga::GatherMode> {
        use naga::BuiltIn as In;
        use naga::GatherMode as G;
        if b == Builtin::SubGroupBroadcastFirst {
            return Ok(G::BroadcastFirst);
        }
        let constant = fb.int_constant(args[1]);
        let arg_ty = fb.ty(args[1]);
        let operand = self.plain(fb, args[1])?;
        let operand = self.convert(fb, operand, &arg_ty, &Type::UINT, location)?;
        Ok(match b {
            Builtin::SubGroupShuffle => G::Shuffle(operand),
            Builtin::SubGroupShuffleXor => G::ShuffleXor(operand),
            Builtin::SubGroupShuffleUp => G::ShuffleUp(operand),
            Builtin::SubGroupShuffleDown => G::ShuffleDown(operand),
            // naga broadcasts from a constant lane only; another is a
            // shuffle from it.
            Builtin::SubGroupNonUniformBroadcast => match constant {
                Some(lane) => {
                    let lane = u32::try_from(lane).unwrap_or(u32::MAX);
                    G::Broadcast(fb.add(naga::Expression::Literal(naga::Literal::U32(lane))))
                }
                None => G::Shuffle(operand),
            },
            // (lane + delta) mod the subgroup size, a power of two; a
            // negative delta wraps as two's complement does.
            Builtin::SubGroupRotate => {
                let lane = self.sub_group_value(fb, In::SubgroupInvocationId);
                let size = self.sub_group_value(fb, In::SubgroupSize);
                let one = fb.add(naga::Expression::Literal(naga::Literal::U32(1)));
                let wrap = fb.binary(Op::Subtract, size, one);
                let moved = fb.binary(Op::Add, lane, operand);
                G::Shuffle(fb.binary(Op::And, moved, wrap))
            }
            // The same within clusters of a constant power of two.
            _ => {
                let cluster = fb
                    .int_constant(args[2])
                    .filter(|c| c.is_power_of_two() && *c <= 128);
                let Some(cluster) = cluster else {
                    return Err(self.error(
                        location,
                        "the cluster size of 'sub_group_clustered_rotate' must be a constant power of two up to 128",
                    ));
                };
                let lane = self.sub_group_value(fb, In::SubgroupInvocationId);
                let wrap = fb.add(naga::Expression::Literal(naga::Literal::U32(
                    cluster as u32 - 1,
                )));
                let first_mask = fb.add(naga::Expression::Literal(naga::Literal::U32(
                    !(cluster as u32 - 1),
                )));
                let first = fb.binary(Op::And, lane, first_mask);
                let moved = fb.binary(Op::Add, lane, operand);
                let within = fb.binary(Op::And, moved, wrap);
                G::Shuffle(fb.binary(Op::InclusiveOr, first, within))
            }
        })
    }

    /// The inclusive (or exclusive) scan of `value` under `fold` (min or
    /// max) across the sub-group, as Hillis and Steele's steps of
    /// shuffles: naga takes scans of sums and products only, though
    /// SPIR-V has the others. At step `d` (1, 2, 4, ... below the subgroup
    /// size, a condition uniform across it) each lane folds in the value
    /// of the lane `d` below it.
    fn scan_by_shuffles(
        &mut self,
        fb: &mut FnBuilder,
        fold: Fold,
        inclusive: bool,
        value: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        use naga::BuiltIn as In;
        let value_ty = self.value_type(ty, location)?;
        let lane = self.sub_group_value(fb, In::SubgroupInvocationId);
        let size = self.sub_group_value(fb, In::SubgroupSize);
        let pointer = fb.scratch_local("sub_group_scan", value_ty);
        fb.push(naga::Statement::Store { pointer, value });
        let fun = match fold {
            Fold::Min => naga::MathFunction::Min,
            _ => naga::MathFunction::Max,
        };
        // Vulkan's subgroups have at most 128 lanes.
        for step in [1, 2, 4, 8, 16, 32, 64] {
            let step = fb.add(naga::Expression::Literal(naga::Literal::U32(step)));
            let taken = fb.binary(Op::Less, step, size);
            fb.blocks.push(naga::Block::new());
            let own = fb.add(naga::Expression::Load { pointer });
            let below = self.sub_group_gather(fb, naga::GatherMode::ShuffleUp(step), own, value_ty);
            let has_below = fb.binary(Op::GreaterEqual, lane, step);
            let folded = fb.math(fun, own, Some(below));
            let updated = fb.select(has_below, folded, own);
            fb.push(naga::Statement::Store {
                pointer,
                value: updated,
            });
            let accept = fb.blocks.pop().expect("scan step");
            fb.push(naga::Statement::If {
                condition: taken,
                accept,
                reject: naga::Block::new(),
            });
        }
        let scanned = fb.add(naga::Expression::Load { pointer });
        if inclusive {
            return Ok(scanned);
        }
        let one = fb.add(naga::Expression::Literal(naga::Literal::U32(1)));
        let before = self.sub_group_gather(fb, naga::GatherMode::ShuffleUp(one), scanned, value_ty);
        let zero = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
        let first = fb.binary(Op::Equal, lane, zero);
        let identity = self.identity(fb, fold, ty, location)?;
        Ok(fb.select(first, identity, before))
    }

    /// Vulkan's subgroup gather `mode` of `argument`, of naga type `ty`.
    pub(super) fn sub_group_gather(
        &mut self,
        fb: &mut FnBuilder,
        mode: naga::GatherMode,
        argument: Handle<naga::Expression>,
        ty: Handle<naga::Type>,
    ) -> Handle<naga::Expression> {
        let result = fb.subgroup_result(ty);
        fb.push(naga::Statement::SubgroupGather {
            mode,
            argument,
            result,
        });
        result
    }

    /// The value of sub-group built-in `which`.
    pub(super) fn sub_group_value(
        &mut self,
        fb: &mut FnBuilder,
        which: naga::BuiltIn,
    ) -> Handle<naga::Expression> {
        let global = self.sub_group_input(which);
        let pointer = fb.add(naga::Expression::GlobalVariable(global));
        fb.add(naga::Expression::Load { pointer })
    }

    /// This work-group's number of work-items, or with `enqueued` the
    /// enqueued work-group size's.
    pub(super) fn linear_size(
        &mut self,
        fb: &mut FnBuilder,
        enqueued: bool,
    ) -> Handle<naga::Expression> {
        let sizes = if enqueued {
            self.interface.enqueued_size()
        } else {
            self.interface.local_size()
        };
        let [x, y, z] = sizes.map(|c| fb.add(naga::Expression::Constant(c)));
        let xy = fb.binary(Op::Multiply, x, y);
        fb.binary(Op::Multiply, xy, z)
    }

    /// Vulkan's subgroup operation `op` (`collective`) on `argument`, whose
    /// result has naga type `ty`.
    pub(super) fn collective_statement(
        &mut self,
        fb: &mut FnBuilder,
        op: S,
        collective: C,
        argument: Handle<naga::Expression>,
        ty: Handle<naga::Type>,
    ) -> Handle<naga::Expression> {
        let result = fb.subgroup_result(ty);
        fb.push(naga::Statement::SubgroupCollectiveOperation {
            op,
            collective_op: collective,
            argument,
            result,
        });
        result
    }
}
