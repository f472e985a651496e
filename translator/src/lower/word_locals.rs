//! Which `__local` variables are held as `u32` words: those of a scalar
//! or vector type other than `int`/`uint` (or arrays of them) whose address
//! is cast to a pointer to a narrower scalar, so that a store through it
//! writes part of an element, which only an atomic on a 32-bit integer can
//! do without losing other work-items' writes to the rest (see
//! `cast_memory.rs`).
//!
//! The address may reach the cast directly (`(__local uchar *)buf`),
//! through pointer variables given it (`p = buf + 4`, `p = c ? a : b`), and
//! through helper parameters, whose functions are looked at in turn. An address kept in
//! a record or returned by a helper is not followed: a store through a
//! cast of it stays a build error.

use super::*;
use std::collections::{HashMap, HashSet};

/// Whether a store of `stored` scalars into an object of `element`s would
/// write part of a unit that cannot be updated atomically: only 32-bit
/// integer scalars can.
fn needs_word_units(element: &Type, stored: Scalar) -> bool {
    match element {
        Type::Scalar(Scalar::Int | Scalar::UInt) => false,
        Type::Scalar(s) | Type::Vector(s, _) => {
            !matches!(s, Scalar::Bool | Scalar::Half)
                && (stored.size() < s.size() || stored.size() < 4)
        }
        _ => false,
    }
}

/// The variables an address expression may point into, seen through
/// array decay, `&`, subscripts, pointer arithmetic, casts and ternaries.
fn pointed_locals(f: &hir::Function, e: ExprId) -> Vec<LocalId> {
    match f.exprs[e].kind {
        H::Local(id) => vec![id],
        H::Decay(inner) | H::AddressOf(inner) | H::PointerCast(inner) => pointed_locals(f, inner),
        H::Index(base, _) | H::PointerOffset(base, _) => pointed_locals(f, base),
        H::Conditional(_, a, b) => {
            let mut both = pointed_locals(f, a);
            both.extend(pointed_locals(f, b));
            both
        }
        _ => Vec::new(),
    }
}

/// The smallest scalar stored through a narrowing cast of an address
/// derived from each local of one function (arrays, pointer variables and
/// parameters alike).
type NarrowedLocals = HashMap<LocalId, Scalar>;

fn note(found: &mut NarrowedLocals, id: LocalId, stored: Scalar) {
    found
        .entry(id)
        .and_modify(|s| {
            if stored.size() < s.size() {
                *s = stored
            }
        })
        .or_insert(stored);
}

/// What one function does with addresses: narrowing casts of them, pointer
/// variables given them, and helpers they are passed to.
#[derive(Default)]
struct AddressUses {
    found: NarrowedLocals,
    /// `(to, from)`: pointer variable `to` was given an address derived
    /// from local `from`.
    flows: Vec<(LocalId, LocalId)>,
    /// Local `local` was passed as argument `arg` of function `callee`.
    passed: Vec<(LocalId, FunctionId, usize)>,
}

impl AddressUses {
    fn expr(&mut self, program: &hir::Program, f: &hir::Function, e: ExprId) {
        let node = &f.exprs[e];
        match node.kind {
            H::PointerCast(inner) => {
                let pointee = program.types.pointee(node.ty);
                if let Some(stored) = pointee.and_then(|p| p.ty.element()) {
                    for id in pointed_locals(f, inner) {
                        note(&mut self.found, id, stored);
                    }
                }
            }
            H::Assign(target, value) if f.exprs[target].ty.is_pointer() => {
                if let H::Local(to) = f.exprs[target].kind {
                    for from in pointed_locals(f, value) {
                        self.flows.push((to, from));
                    }
                }
            }
            H::Call(callee, ref args) => {
                for (arg, &a) in args.iter().enumerate() {
                    if f.exprs[a].ty.is_pointer() {
                        for local in pointed_locals(f, a) {
                            self.passed.push((local, callee, arg));
                        }
                    }
                }
            }
            _ => {}
        }
        node.kind.for_each_child(&mut |&c| self.expr(program, f, c));
    }

    fn statement(&mut self, program: &hir::Program, f: &hir::Function, s: StmtId) {
        let kind = &f.stmts[s].kind;
        if let &StmtKind::Init(to, value) = kind {
            if f.locals[to].ty.is_pointer() {
                for from in pointed_locals(f, value) {
                    self.flows.push((to, from));
                }
            }
        }
        let (mut exprs, mut nested) = (Vec::new(), Vec::new());
        kind.for_each_child(&mut |e| exprs.push(e), &mut |c| nested.push(c));
        for e in exprs {
            self.expr(program, f, e);
        }
        for c in nested {
            self.statement(program, f, c);
        }
    }
}

/// [`NarrowedLocals`] of function `id`, helpers' answers memoised in
/// `memo` (OpenCL C has no recursion, so the calls form no cycle).
fn narrowed_locals(
    program: &hir::Program,
    id: FunctionId,
    memo: &mut HashMap<FunctionId, NarrowedLocals>,
) -> NarrowedLocals {
    if let Some(known) = memo.get(&id) {
        return known.clone();
    }
    // Seen once on the way in, in case the program is recursive after all.
    memo.insert(id, NarrowedLocals::new());
    let f = &program.functions[id];
    let mut uses = AddressUses::default();
    for &s in &f.body {
        uses.statement(program, f, s);
    }
    for (local, callee, arg) in &uses.passed {
        let param = program.functions[*callee].params.get(*arg).copied();
        let narrowed = narrowed_locals(program, *callee, memo);
        if let Some(&stored) = param.and_then(|p| narrowed.get(&p)) {
            note(&mut uses.found, *local, stored);
        }
    }
    // A cast of a pointer variable's address is one of what it was given.
    loop {
        let mut changed = false;
        for &(to, from) in &uses.flows {
            if let Some(&stored) = uses.found.get(&to) {
                if uses
                    .found
                    .get(&from)
                    .is_none_or(|s| stored.size() < s.size())
                {
                    note(&mut uses.found, from, stored);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    memo.insert(id, uses.found.clone());
    uses.found
}

/// The `__local` variables of function `id` that are held as words.
pub(super) fn word_locals(program: &hir::Program, id: FunctionId) -> HashSet<LocalId> {
    let f = &program.functions[id];
    narrowed_locals(program, id, &mut HashMap::new())
        .into_iter()
        .filter(|&(local, stored)| {
            let local = &f.locals[local];
            let element = program.types.array_element(local.ty).unwrap_or(local.ty);
            local.space == AddressSpace::Local && needs_word_units(&element, stored)
        })
        .map(|(local, _)| local)
        .collect()
}
