//! The OpenCL 2.0 work-group collective functions (OpenCL C 6.15.16):
//! `work_group_all`/`any`/`broadcast` and the reductions and scans.
//!
//! Every work-item stores its operand at its local linear id in a
//! workgroup scratch array and a barrier makes the array visible. A
//! broadcast reads one element; the reductions and scans first turn the
//! array into its inclusive scan in log2(group size) barrier-separated
//! steps, then read the last element (reduction), their own (inclusive
//! scan) or the one before it (exclusive scan). A final barrier keeps the
//! next collective from overwriting the array while it is still read.
//! The spec requires every work-item of the group to reach the call, so
//! the barriers are legal. The scratch array's length is the dispatch's
//! work-group size, set per launch by `Kernel::spirv` like the `__local`
//! argument arrays, and the scan's steps and the reduction's last element
//! follow this group's size, which is smaller in the last groups of a
//! non-uniform NDRange.

use crate::builtins::Builtin;
use crate::diagnostic::Location;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::expressions::{Operand, Value};
use crate::lower::function::FnBuilder;
use crate::types::{Scalar, Type};
use naga::{BinaryOperator as Op, Handle, Span};

/// How a collective combines the work-group's operands.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Fold {
    Add,
    Min,
    Max,
}

/// Which operands a work-item's result covers.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Covers {
    /// Every work-item's.
    Group,
    /// Those of the work-items before this one.
    Exclusive,
    /// Those up to and including this work-item's.
    Inclusive,
}

/// The reductions and scans, as data: the built-in, its fold and span.
const FOLDS: &[(Builtin, Fold, Covers)] = &[
    (Builtin::WorkGroupReduceAdd, Fold::Add, Covers::Group),
    (Builtin::WorkGroupReduceMin, Fold::Min, Covers::Group),
    (Builtin::WorkGroupReduceMax, Fold::Max, Covers::Group),
    (
        Builtin::WorkGroupScanExclusiveAdd,
        Fold::Add,
        Covers::Exclusive,
    ),
    (
        Builtin::WorkGroupScanExclusiveMin,
        Fold::Min,
        Covers::Exclusive,
    ),
    (
        Builtin::WorkGroupScanExclusiveMax,
        Fold::Max,
        Covers::Exclusive,
    ),
    (
        Builtin::WorkGroupScanInclusiveAdd,
        Fold::Add,
        Covers::Inclusive,
    ),
    (
        Builtin::WorkGroupScanInclusiveMin,
        Fold::Min,
        Covers::Inclusive,
    ),
    (
        Builtin::WorkGroupScanInclusiveMax,
        Fold::Max,
        Covers::Inclusive,
    ),
    // `all` is the minimum of the operands' truth values, `any` the maximum.
    (Builtin::WorkGroupAll, Fold::Min, Covers::Group),
    (Builtin::WorkGroupAny, Fold::Max, Covers::Group),
];

/// Whether `b` is a work-group collective this module lowers.
pub(super) fn is_collective(b: Builtin) -> bool {
    b == Builtin::WorkGroupBroadcast || FOLDS.iter().any(|(f, _, _)| *f == b)
}

impl ModuleBuilder<'_> {
    pub(super) fn collective(
        &mut self,
        fb: &mut FnBuilder,
        b: Builtin,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Value> {
        let truth = matches!(b, Builtin::WorkGroupAll | Builtin::WorkGroupAny);
        let operand = if truth {
            let c = self.condition(fb, args[0])?;
            let one = self.constant(fb, &Type::INT, 1, location)?;
            let zero = self.constant(fb, &Type::INT, 0, location)?;
            fb.select(c, one, zero)
        } else {
            self.plain(fb, args[0])?
        };
        let scratch = self.group_scratch(ty, location)?;
        let local_id = self.builtin(fb, Builtin::LocalLinearId, &[], &Type::UINT, location)?;
        let base = fb.add(naga::Expression::GlobalVariable(scratch));
        let own = fb.add(naga::Expression::Access {
            base,
            index: local_id,
        });
        fb.push(naga::Statement::Store {
            pointer: own,
            value: operand,
        });
        fb.push(naga::Statement::ControlBarrier(naga::Barrier::WORK_GROUP));

        let result = if b == Builtin::WorkGroupBroadcast {
            let source = self.broadcast_source(fb, &args[1..], location)?;
            let base = fb.add(naga::Expression::GlobalVariable(scratch));
            let pointer = fb.add(naga::Expression::Access {
                base,
                index: source,
            });
            fb.add(naga::Expression::Load { pointer })
        } else {
            let &(_, fold, covers) = FOLDS
                .iter()
                .find(|(f, _, _)| *f == b)
                .ok_or_else(|| self.error(location, "internal error: not a collective"))?;
            self.scan_scratch(fb, scratch, fold, local_id);
            let n = self.linear_size(fb, false);
            let one = fb.add(naga::Expression::Literal(naga::Literal::U32(1)));
            let last = fb.binary(Op::Subtract, n, one);
            // Work-item i's element now folds elements 0..=i.
            let read = |fb: &mut Emitter, index| {
                let base = fb.add(naga::Expression::GlobalVariable(scratch));
                let pointer = fb.add(naga::Expression::Access { base, index });
                fb.add(naga::Expression::Load { pointer })
            };
            match covers {
                Covers::Group => read(fb, last),
                Covers::Inclusive => read(fb, local_id),
                Covers::Exclusive => {
                    let zero = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
                    let first = fb.binary(Op::Equal, local_id, zero);
                    let previous = fb.binary(Op::Subtract, local_id, one);
                    let index = fb.select(first, zero, previous);
                    let before = read(fb, index);
                    let identity = self.identity(fb, fold, ty, location)?;
                    fb.select(first, identity, before)
                }
            }
        };
        // The result was read (emitted) before this barrier, so the next
        // collective's stores cannot change it.
        fb.push(naga::Statement::ControlBarrier(naga::Barrier::WORK_GROUP));
        Ok(Value::Plain(result))
    }

    /// The local linear id named by `work_group_broadcast`'s 1-, 2- or
    /// 3-dimensional local id.
    fn broadcast_source(
        &mut self,
        fb: &mut FnBuilder,
        ids: &[Operand],
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let local = self.interface.local_size();
        let mut linear = None;
        // x + sx * (y + sy * z), from the innermost dimension out.
        for (d, &id) in ids.iter().enumerate().rev() {
            let id_ty = fb.ty(id);
            let v = self.plain(fb, id)?;
            let v = self.convert(fb, v, &id_ty, &Type::UINT, location)?;
            linear = Some(match linear {
                None => v,
                Some(outer) => {
                    let size = fb.add(naga::Expression::Constant(local[d]));
                    let scaled = fb.binary(Op::Multiply, size, outer);
                    fb.binary(Op::Add, v, scaled)
                }
            });
        }
        linear.ok_or_else(|| self.error(location, "internal error: broadcast without a local id"))
    }

    /// Turns the scratch array, one operand per work-item, into its
    /// inclusive scan under `fold`, in log2(group size) steps: at step
    /// `offset` (1, 2, 4, ...) each element folds in the one `offset`
    /// before it (Hillis and Steele). Every work-item runs every step, as
    /// the loop's bound is the group size, so the barriers in it are
    /// reached by the whole group. Sums are formed in a tree order, which
    /// the spec allows for floats.
    fn scan_scratch(
        &mut self,
        fb: &mut FnBuilder,
        scratch: Handle<naga::GlobalVariable>,
        fold: Fold,
        local_id: Handle<naga::Expression>,
    ) {
        let u32_ty = self.u32_type();
        let n = self.linear_size(fb, false);
        let offset_ptr = fb.scratch_local("collective_offset", u32_ty);
        let one = fb.add(naga::Expression::Literal(naga::Literal::U32(1)));
        fb.push(naga::Statement::Store {
            pointer: offset_ptr,
            value: one,
        });

        fb.blocks.push(naga::Block::new());
        let step = fb.add(naga::Expression::Load {
            pointer: offset_ptr,
        });
        let done = fb.binary(Op::GreaterEqual, step, n);
        let mut exit = naga::Block::new();
        exit.push(naga::Statement::Break, Span::UNDEFINED);
        fb.push(naga::Statement::If {
            condition: done,
            accept: exit,
            reject: naga::Block::new(),
        });
        let base = fb.add(naga::Expression::GlobalVariable(scratch));
        let own_ptr = fb.add(naga::Expression::Access {
            base,
            index: local_id,
        });
        let own = fb.add(naga::Expression::Load { pointer: own_ptr });
        let has_partner = fb.binary(Op::GreaterEqual, local_id, step);
        let back = fb.binary(Op::Subtract, local_id, step);
        // Work-items without a partner read their own element, never one
        // outside the array.
        let partner_index = fb.select(has_partner, back, local_id);
        let base = fb.add(naga::Expression::GlobalVariable(scratch));
        let partner_ptr = fb.add(naga::Expression::Access {
            base,
            index: partner_index,
        });
        let partner = fb.add(naga::Expression::Load {
            pointer: partner_ptr,
        });
        let combined = match fold {
            Fold::Add => fb.binary(Op::Add, partner, own),
            Fold::Min => fb.math(naga::MathFunction::Min, partner, Some(own)),
            Fold::Max => fb.math(naga::MathFunction::Max, partner, Some(own)),
        };
        let updated = fb.select(has_partner, combined, own);
        // Everyone has read this step's elements before anyone writes.
        fb.push(naga::Statement::ControlBarrier(naga::Barrier::WORK_GROUP));
        fb.push(naga::Statement::Store {
            pointer: own_ptr,
            value: updated,
        });
        fb.push(naga::Statement::ControlBarrier(naga::Barrier::WORK_GROUP));
        let body = fb.blocks.pop().expect("collective scan body");

        fb.blocks.push(naga::Block::new());
        let step = fb.add(naga::Expression::Load {
            pointer: offset_ptr,
        });
        let two = fb.add(naga::Expression::Literal(naga::Literal::U32(2)));
        let next = fb.binary(Op::Multiply, step, two);
        fb.push(naga::Statement::Store {
            pointer: offset_ptr,
            value: next,
        });
        let continuing = fb.blocks.pop().expect("collective scan continuing");
        fb.push(naga::Statement::Loop {
            body,
            continuing,
            break_if: None,
        });
    }

    /// The value `fold` leaves unchanged: 0, the type's largest value (for
    /// min; infinity for floats) or its smallest (for max; -infinity).
    pub(super) fn identity(
        &mut self,
        fb: &mut FnBuilder,
        fold: Fold,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let scalar = ty.element().unwrap_or(Scalar::Int);
        if scalar.is_float() {
            // naga takes no infinite literal: a float's bits, converted
            // (exactly) to the operand's width.
            let bits = match fold {
                Fold::Add => return self.float_constant(fb, ty, 0.0, location),
                Fold::Min => f32::INFINITY.to_bits(),
                Fold::Max => f32::NEG_INFINITY.to_bits(),
            };
            let bits = fb.add(naga::Expression::Literal(naga::Literal::U32(bits)));
            let single = self.bitcast(fb, bits, &Type::FLOAT, location)?;
            return self.convert(fb, single, &Type::FLOAT, ty, location);
        }
        let bits = scalar.size() * 8;
        let all_ones = u64::MAX >> (64 - bits);
        let bits = match (fold, scalar.is_signed()) {
            (Fold::Add, _) => 0,
            (Fold::Min, false) => all_ones,
            (Fold::Max, false) => 0,
            (Fold::Min, true) => all_ones >> 1,
            // The sign bit alone, sign-extended by `literal`.
            (Fold::Max, true) => (all_ones >> 1) + 1,
        };
        self.constant(fb, ty, bits, location)
    }
}
