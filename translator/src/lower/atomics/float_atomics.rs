//! `cl_ext_float_atomics`: `atomic_fetch_add`, `_sub`, `_min` and `_max`
//! (and their `_explicit` forms) on `atomic_float` and `atomic_double`, as
//! compare-exchange loops on the integer of the same width.
//!
//! Vulkan's float atomics (`shaderBufferFloat32AtomicAdd` and the min/max
//! extension) are optional, cover only some operations and memories, and
//! naga reaches only the 32-bit add in buffers; the integer view or words
//! (see `atomics/mod.rs`) work everywhere. Each loop reads the object, computes
//! the new value from the value read, and swaps it in only if the object
//! still holds the bits read; otherwise it retries with the bits found.
//! The value returned is the one the successful exchange replaced, so the
//! operations on one object form a single order like native atomics.
//!
//! min and max follow the extension's rules: a NaN operand leaves the
//! object as it is, a NaN object takes the operand, and the sign of zero
//! counts (`-0 < +0`), which the spec allows and keeps results
//! deterministic.

use super::{AtomicOrder, AtomicTarget};
use crate::builtins::C11AtomicOp;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::function::FnBuilder;
use naga::{Handle, Span};

impl ModuleBuilder<'_> {
    /// The compare-exchange loop of `op` with the float `operand` on
    /// `target`, carrying `order` on each exchange; the value replaced.
    pub(super) fn float_fetch_modify(
        &mut self,
        fb: &mut FnBuilder,
        op: C11AtomicOp,
        target: &AtomicTarget,
        operand: Handle<naga::Expression>,
        order: &AtomicOrder,
    ) -> LResult<Handle<naga::Expression>> {
        let bits_ty = self.add_type(naga::TypeInner::Scalar(target.bits));
        let seen = fb.function.local_variables.append(
            naga::LocalVariable {
                name: Some("float_atomic_seen".into()),
                ty: bits_ty,
                init: None,
            },
            Span::UNDEFINED,
        );
        let seen_ptr = fb.add(naga::Expression::LocalVariable(seen));
        // A first guess, read without order: the exchange checks it.
        let first = self.atomic_load(fb, target)?;
        fb.push(naga::Statement::Store {
            pointer: seen_ptr,
            value: first,
        });

        fb.blocks.push(naga::Block::new());
        let seen_bits = fb.add(naga::Expression::Load { pointer: seen_ptr });
        let seen_value = target.value_of_bits(fb, seen_bits);
        let new_value = modified(fb, op, seen_value, seen_bits, operand, target);
        let new_bits = target.to_bits(fb, new_value);
        target.mark(fb, order);
        let result = self.atomic_rmw(
            fb,
            target,
            naga::AtomicFunction::Exchange {
                compare: Some(seen_bits),
            },
            new_bits,
        )?;
        let found = fb.add(naga::Expression::AccessIndex {
            base: result,
            index: 0,
        });
        let exchanged = fb.add(naga::Expression::AccessIndex {
            base: result,
            index: 1,
        });
        // Found equals seen when the exchange happened: either way `seen`
        // ends as the value the object held before this attempt.
        fb.push(naga::Statement::Store {
            pointer: seen_ptr,
            value: found,
        });
        let mut done = naga::Block::new();
        done.push(naga::Statement::Break, Span::UNDEFINED);
        fb.push(naga::Statement::If {
            condition: exchanged,
            accept: done,
            reject: naga::Block::new(),
        });
        let body = fb.blocks.pop().expect("float atomic loop body");
        fb.push(naga::Statement::Loop {
            body,
            continuing: naga::Block::new(),
            break_if: None,
        });

        let replaced = fb.add(naga::Expression::Load { pointer: seen_ptr });
        Ok(target.value_of_bits(fb, replaced))
    }
}

/// The value `op` stores over `old` (whose bits are `old_bits`).
fn modified(
    fb: &mut Emitter,
    op: C11AtomicOp,
    old: Handle<naga::Expression>,
    old_bits: Handle<naga::Expression>,
    operand: Handle<naga::Expression>,
    target: &AtomicTarget,
) -> Handle<naga::Expression> {
    use naga::BinaryOperator as B;
    let (wins, zero_tie) = match op {
        C11AtomicOp::FetchAdd => return fb.binary(B::Add, old, operand),
        C11AtomicOp::FetchSub => return fb.binary(B::Subtract, old, operand),
        // As unsigned bits, -0 is above +0, and equal non-zero values
        // have equal bits.
        C11AtomicOp::FetchMin => (B::Less, B::Greater),
        _ => (B::Greater, B::Less),
    };
    // A NaN operand never wins (ordered comparisons are false); a NaN
    // object always loses.
    let better = fb.binary(wins, operand, old);
    let old_nan = fb.add(naga::Expression::Relational {
        fun: naga::RelationalFunction::IsNan,
        argument: old,
    });
    let equal = fb.binary(B::Equal, operand, old);
    let operand_bits = target.to_bits(fb, operand);
    let zero_sign = fb.binary(zero_tie, operand_bits, old_bits);
    let signed_zero = fb.binary(B::LogicalAnd, equal, zero_sign);
    let takes = fb.binary(B::LogicalOr, better, old_nan);
    let takes = fb.binary(B::LogicalOr, takes, signed_zero);
    fb.select(takes, operand, old)
}
