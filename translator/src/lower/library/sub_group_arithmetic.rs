//! The arithmetic of `cl_khr_subgroup_non_uniform_arithmetic` and
//! `cl_khr_subgroup_clustered_reduce`, over the active work-items of the
//! sub-group (or of the caller's cluster). Vulkan's subgroup operations
//! do it where naga takes them: every reduction, and scans of sums and
//! products. naga has no scan of minima, maxima or bits and no clustered
//! operation, so those fold the operands lane by lane: a loop over the
//! lanes whose step shuffles one lane's operand to each work-item, which
//! takes it where the ballot of active work-items has the lane's bit and
//! the lane counts for it. That is right in any control flow, for one
//! shuffle per lane.

use super::collectives::Fold;
use crate::builtins::{SubGroupForm, SubGroupOp};
use crate::diagnostic::Location;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::expressions::{Operand, Value};
use crate::lower::function::FnBuilder;
use crate::types::Type;
use naga::{BinaryOperator as Op, CollectiveOperation as C, Handle, Span, SubgroupOperation as S};

impl ModuleBuilder<'_> {
    /// `sub_group_<form>_<op>` with `args`, whose result has type `ty`.
    pub(super) fn sub_group_arithmetic(
        &mut self,
        fb: &mut FnBuilder,
        op: SubGroupOp,
        form: SubGroupForm,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Value> {
        use naga::BuiltIn as In;
        // Predicates as 0 and 1, which the bitwise operations combine.
        let (operand, operand_ty) = if op.is_logical() {
            let truth = self.condition(fb, args[0])?;
            let one = fb.add(naga::Expression::Literal(naga::Literal::U32(1)));
            let zero = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
            (fb.select(truth, one, zero), Type::UINT)
        } else {
            (self.plain(fb, args[0])?, *ty)
        };
        let vulkan_op = match op {
            SubGroupOp::Add => S::Add,
            SubGroupOp::Mul => S::Mul,
            SubGroupOp::Min => S::Min,
            SubGroupOp::Max => S::Max,
            SubGroupOp::And | SubGroupOp::LogicalAnd => S::And,
            SubGroupOp::Or | SubGroupOp::LogicalOr => S::Or,
            SubGroupOp::Xor | SubGroupOp::LogicalXor => S::Xor,
        };
        let value_ty = self.value_type(&operand_ty, location)?;
        let native_scan = matches!(vulkan_op, S::Add | S::Mul);
        let result = match form {
            SubGroupForm::NonUniformReduce => {
                self.collective_statement(fb, vulkan_op, C::Reduce, operand, value_ty)
            }
            SubGroupForm::NonUniformInclusiveScan if native_scan => {
                self.collective_statement(fb, vulkan_op, C::InclusiveScan, operand, value_ty)
            }
            SubGroupForm::NonUniformExclusiveScan if native_scan => {
                self.collective_statement(fb, vulkan_op, C::ExclusiveScan, operand, value_ty)
            }
            SubGroupForm::NonUniformInclusiveScan | SubGroupForm::NonUniformExclusiveScan => {
                let count = self.sub_group_value(fb, In::SubgroupSize);
                let lane = self.sub_group_value(fb, In::SubgroupInvocationId);
                let inclusive = form == SubGroupForm::NonUniformInclusiveScan;
                let lanes = Lanes {
                    count,
                    first: None,
                    up_to: Some((lane, inclusive)),
                };
                let identity = self.op_identity(fb, op, &operand_ty, location)?;
                self.fold_lanes(fb, op, operand, value_ty, identity, lanes)
            }
            SubGroupForm::ClusteredReduce => {
                let cluster = fb
                    .int_constant(args[1])
                    .filter(|c| c.is_power_of_two() && *c <= 128);
                let Some(cluster) = cluster else {
                    return Err(self.error(
                        location,
                        "the cluster size of a clustered reduction must be a constant power of two up to 128",
                    ));
                };
                let lane = self.sub_group_value(fb, In::SubgroupInvocationId);
                let mask = fb.add(naga::Expression::Literal(naga::Literal::U32(
                    !(cluster as u32 - 1),
                )));
                let first = fb.binary(Op::And, lane, mask);
                let count = fb.add(naga::Expression::Literal(naga::Literal::U32(
                    cluster as u32,
                )));
                let lanes = Lanes {
                    count,
                    first: Some(first),
                    up_to: None,
                };
                let identity = self.op_identity(fb, op, &operand_ty, location)?;
                self.fold_lanes(fb, op, operand, value_ty, identity, lanes)
            }
        };
        if op.is_logical() {
            let zero = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
            let truth = fb.binary(Op::NotEqual, result, zero);
            let one = self.constant(fb, &Type::INT, 1, location)?;
            let zero = self.constant(fb, &Type::INT, 0, location)?;
            return Ok(Value::Plain(fb.select(truth, one, zero)));
        }
        Ok(Value::Plain(self.wrapped(fb, result, ty, location)?))
    }

    /// `value`, computed in a register wider than `ty` (`char` and `short`
    /// are 32-bit there), brought back into `ty`'s range.
    pub(super) fn wrapped(
        &mut self,
        fb: &mut FnBuilder,
        value: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let wide = match ty.element() {
            Some(s) if s.is_integer() && s.size() < 4 => {
                if s.is_signed() {
                    Type::INT
                } else {
                    Type::UINT
                }
            }
            _ => return Ok(value),
        };
        self.convert(fb, value, &wide, ty, location)
    }

    /// The value `op` leaves unchanged, of type `ty`.
    fn op_identity(
        &mut self,
        fb: &mut FnBuilder,
        op: SubGroupOp,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        match op {
            SubGroupOp::Min => self.identity(fb, Fold::Min, ty, location),
            SubGroupOp::Max => self.identity(fb, Fold::Max, ty, location),
            SubGroupOp::Mul if ty.element().is_some_and(|s| s.is_float()) => {
                self.float_constant(fb, ty, 1.0, location)
            }
            SubGroupOp::Mul => self.constant(fb, ty, 1, location),
            SubGroupOp::And | SubGroupOp::LogicalAnd => self.constant(fb, ty, u64::MAX, location),
            _ => self.identity(fb, Fold::Add, ty, location),
        }
    }

    /// `op` folded over the operands of the active lanes `lanes` names,
    /// from `identity`.
    fn fold_lanes(
        &mut self,
        fb: &mut FnBuilder,
        op: SubGroupOp,
        operand: Handle<naga::Expression>,
        value_ty: Handle<naga::Type>,
        identity: Handle<naga::Expression>,
        lanes: Lanes,
    ) -> Handle<naga::Expression> {
        let active = (fb.function.expressions)
            .append(naga::Expression::SubgroupBallotResult, Span::UNDEFINED);
        fb.push(naga::Statement::SubgroupBallot {
            result: active,
            predicate: None,
        });
        let u32_ty = self.u32_type();
        let step_ptr = fb.scratch_local("sub_group_lane", u32_ty);
        let folded_ptr = fb.scratch_local("sub_group_fold", value_ty);
        let zero = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
        fb.push(naga::Statement::Store {
            pointer: step_ptr,
            value: zero,
        });
        fb.push(naga::Statement::Store {
            pointer: folded_ptr,
            value: identity,
        });

        fb.blocks.push(naga::Block::new());
        let step = fb.add(naga::Expression::Load { pointer: step_ptr });
        let done = fb.binary(Op::GreaterEqual, step, lanes.count);
        let mut exit = naga::Block::new();
        exit.push(naga::Statement::Break, Span::UNDEFINED);
        fb.push(naga::Statement::If {
            condition: done,
            accept: exit,
            reject: naga::Block::new(),
        });
        let source = match lanes.first {
            Some(first) => fb.binary(Op::Add, first, step),
            None => step,
        };
        let shuffled =
            self.sub_group_gather(fb, naga::GatherMode::Shuffle(source), operand, value_ty);
        let bit = self.ballot_bit(fb, active, source);
        let zero = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
        let mut take = fb.binary(Op::NotEqual, bit, zero);
        if let Some((lane, inclusive)) = lanes.up_to {
            let counts = fb.binary(if inclusive { Op::LessEqual } else { Op::Less }, step, lane);
            take = fb.binary(Op::LogicalAnd, take, counts);
        }
        let folded = fb.add(naga::Expression::Load {
            pointer: folded_ptr,
        });
        let combined = combine(fb, op, folded, shuffled);
        let updated = fb.select(take, combined, folded);
        fb.push(naga::Statement::Store {
            pointer: folded_ptr,
            value: updated,
        });
        let body = fb.blocks.pop().expect("lane fold body");

        fb.blocks.push(naga::Block::new());
        let step = fb.add(naga::Expression::Load { pointer: step_ptr });
        let one = fb.add(naga::Expression::Literal(naga::Literal::U32(1)));
        let next = fb.binary(Op::Add, step, one);
        fb.push(naga::Statement::Store {
            pointer: step_ptr,
            value: next,
        });
        let continuing = fb.blocks.pop().expect("lane fold continuing");
        fb.push(naga::Statement::Loop {
            body,
            continuing,
            break_if: None,
        });
        fb.add(naga::Expression::Load {
            pointer: folded_ptr,
        })
    }
}

/// The lanes a fold visits: `count` of them from `first` (lane 0 without
/// one), counting only those at most (`inclusive`) or below a lane.
struct Lanes {
    count: Handle<naga::Expression>,
    first: Option<Handle<naga::Expression>>,
    up_to: Option<(Handle<naga::Expression>, bool)>,
}

/// `op` on `a` and `b`.
fn combine(
    fb: &mut Emitter,
    op: SubGroupOp,
    a: Handle<naga::Expression>,
    b: Handle<naga::Expression>,
) -> Handle<naga::Expression> {
    match op {
        SubGroupOp::Add => fb.binary(Op::Add, a, b),
        SubGroupOp::Mul => fb.binary(Op::Multiply, a, b),
        SubGroupOp::Min => fb.math(naga::MathFunction::Min, a, Some(b)),
        SubGroupOp::Max => fb.math(naga::MathFunction::Max, a, Some(b)),
        SubGroupOp::And | SubGroupOp::LogicalAnd => fb.binary(Op::And, a, b),
        SubGroupOp::Or | SubGroupOp::LogicalOr => fb.binary(Op::InclusiveOr, a, b),
        SubGroupOp::Xor | SubGroupOp::LogicalXor => fb.binary(Op::ExclusiveOr, a, b),
    }
}
