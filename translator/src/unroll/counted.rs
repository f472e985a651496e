//! Counted loops: a `for` loop whose counter takes values known at compile
//! time, found with those values, or not found when unrolling it could
//! change what the program does.
//!
//! The shape is `counter = c0;` (the statement right before the loop, as
//! a `for`'s initialisation is) then `for (; cond; step) body` where
//! - `step` changes only the counter (`i++`, `--i`, `i += c`, `i = i * 2`),
//! - `cond` reads nothing but the counter and constants, so its value at
//!   each iteration is known,
//! - the body never writes the counter (nor declares it again), and no
//!   pointer to it exists anywhere in the function, so nothing else can,
//! - the body has no `break` or `continue` of this loop (a `return` is
//!   fine: each copy of the body returns where the loop did).
//!
//! The iterations are then found by running the counter through `cond`
//! and `step` exactly as the device would (C's conversions and wrapping),
//! which covers `<`, `<=`, `!=`, `>`, counting down, steps past 1 and
//! loops that never run alike.

use super::evaluate::{evaluate, integer_scalar, Binding};
use crate::analysis::definitions::root_local;
use crate::ast::AddressSpace;
use crate::hir::{ExprId, ExprKind as H, Function, LocalId, StmtId, StmtKind};
use crate::int_constant::IntConstant;
use crate::lexer::FxHashSet;

/// A loop whose iterations are known.
pub(super) struct CountedLoop {
    pub counter: LocalId,
    /// The counter at the start of each iteration, in order.
    pub values: Vec<IntConstant>,
    /// The counter once the loop has ended.
    pub after: IntConstant,
}

/// Loop `s`, after statement `preceding` of the same block, as a counted
/// loop of at most `max_trips` iterations. `addressed`: the variables of
/// `f` a pointer is made to ([`addressed_locals`]).
pub(super) fn counted_loop(
    f: &Function,
    addressed: &FxHashSet<LocalId>,
    preceding: Option<StmtId>,
    s: StmtId,
    max_trips: usize,
) -> Option<CountedLoop> {
    let StmtKind::Loop {
        cond: Some(cond),
        body,
        step: Some(step),
        test_first: true,
        ..
    } = &f.stmts[s].kind
    else {
        return None;
    };
    let (cond, step) = (*cond, *step);
    let counter = stepped_variable(f, step)?;
    let local = &f.locals[counter];
    let ty = integer_scalar(local.ty)?;
    if local.space != AddressSpace::Private
        || ty == crate::types::Scalar::Bool
        || addressed.contains(&counter)
        || writes(f, body, counter)
        || jumps_out(f, body, false)
    {
        return None;
    }
    let mut value = initial_value(f, preceding?, counter)?.converted(ty);
    let mut values = Vec::new();
    loop {
        let binding = Some(Binding {
            local: counter,
            value,
        });
        if !evaluate(f, cond, binding)?.truth() {
            return Some(CountedLoop {
                counter,
                values,
                after: value,
            });
        }
        if values.len() == max_trips {
            return None;
        }
        values.push(value);
        value = after_step(f, step, counter, value)?.converted(ty);
    }
}

/// The variable that `step` alone changes, if it changes just one that
/// way.
fn stepped_variable(f: &Function, step: ExprId) -> Option<LocalId> {
    let target = match f.exprs[step].kind {
        H::IncDec { target, .. } | H::CompoundAssign { target, .. } | H::Assign(target, _) => {
            target
        }
        _ => return None,
    };
    match f.exprs[target].kind {
        H::Local(local) => Some(local),
        _ => None,
    }
}

/// The constant `counter` is set to by `s`: `T counter = c;` or
/// `counter = c;`.
fn initial_value(f: &Function, s: StmtId, counter: LocalId) -> Option<IntConstant> {
    let value = match f.stmts[s].kind {
        StmtKind::Init(local, value) if local == counter => value,
        StmtKind::Expr(e) => match f.exprs[e].kind {
            H::Assign(target, value) if matches!(f.exprs[target].kind, H::Local(l) if l == counter) => {
                value
            }
            _ => return None,
        },
        _ => return None,
    };
    evaluate(f, value, None)
}

/// The counter after `step` runs on `value`.
fn after_step(
    f: &Function,
    step: ExprId,
    counter: LocalId,
    value: IntConstant,
) -> Option<IntConstant> {
    let binding = Some(Binding {
        local: counter,
        value,
    });
    match f.exprs[step].kind {
        H::IncDec { increment, .. } => {
            let delta = if increment { 1 } else { -1 };
            Some(IntConstant::new(value.value + delta, value.ty))
        }
        H::CompoundAssign {
            op,
            value: by,
            op_ty,
            ..
        } => {
            let current = value.converted(integer_scalar(op_ty)?);
            IntConstant::binary(op, current, evaluate(f, by, binding)?)
        }
        H::Assign(_, new) => evaluate(f, new, binding),
        _ => None,
    }
}

/// The variables of `f` that a pointer is made to anywhere (through which
/// any statement could change them). Copies of a body make no new ones.
pub(super) fn addressed_locals(f: &Function) -> FxHashSet<LocalId> {
    (f.exprs.iter())
        .filter_map(|(_, e)| match e.kind {
            H::AddressOf(x) | H::Decay(x) => root_local(f, x),
            _ => None,
        })
        .collect()
}

/// Whether the statements of `block` assign to `local` or declare it.
fn writes(f: &Function, block: &[StmtId], local: LocalId) -> bool {
    let reached = super::Reached::from(f, block);
    let declares = (reached.stmts.iter())
        .any(|&s| matches!(f.stmts[s].kind, StmtKind::Init(l, _) if l == local));
    declares
        || reached.exprs.iter().any(|&e| match f.exprs[e].kind {
            H::Assign(target, _) | H::CompoundAssign { target, .. } | H::IncDec { target, .. } => {
                root_local(f, target) == Some(local)
            }
            _ => false,
        })
}

/// Whether `block`, the body of a loop (or part of one), leaves that loop
/// or starts its next iteration early. `in_switch`: inside a `switch` of
/// the body, where `break` leaves the `switch`.
fn jumps_out(f: &Function, block: &[StmtId], in_switch: bool) -> bool {
    block.iter().any(|&s| {
        crate::stack::guard(|| match &f.stmts[s].kind {
            StmtKind::Break => !in_switch,
            StmtKind::Continue | StmtKind::Goto(_) | StmtKind::Label(_) => true,
            StmtKind::If(_, a, b) => jumps_out(f, a, in_switch) || jumps_out(f, b, in_switch),
            StmtKind::Block(b) => jumps_out(f, b, in_switch),
            StmtKind::Switch(_, cases) => cases.iter().any(|c| jumps_out(f, &c.body, true)),
            // Its own `break` and `continue` are its own.
            StmtKind::Loop { .. } => false,
            StmtKind::Expr(_) | StmtKind::Init(..) | StmtKind::Return(_) => false,
        })
    })
}
