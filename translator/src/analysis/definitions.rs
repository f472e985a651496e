//! Integer variables that keep the value of their initializer, so that an
//! integer computed from a pointer through them (`uintptr_t a =
//! (uintptr_t)p;` then `(T *)(a + n)`) can become a pointer again: the
//! conversion evaluates the initializer again, which gives the same
//! pointer because nothing it reads can have changed (see
//! `lower::pointers::integer_pointers`).
//!
//! A variable declared with an initializer and never assigned,
//! incremented, or given away by address afterwards holds its
//! initializer's value for its whole scope. Evaluating that initializer
//! again anywhere in the scope gives the same value if nothing it reads can
//! have changed since: C's scopes put every use after the initializer, and
//! control stays in the same iteration of every loop around the
//! declaration, so a variable changed only in the step of such a loop
//! (`for (int k = 0; k < n; k++) { uintptr_t a = ... k ...; }`) has not.

use crate::builtins::Builtin;
use crate::hir::{self, ExprId, ExprKind as H, LocalId, StmtId, StmtKind};
use crate::lexer::{FxHashMap, FxHashSet};
use crate::types::Type;

/// The variables of `f` that keep their initializer's value, with the
/// initializer, where it can be evaluated again to the same value.
pub fn kept_values(f: &hir::Function) -> FxHashMap<LocalId, ExprId> {
    let mut defs = Definitions {
        f,
        init: FxHashMap::default(),
        init_loops: FxHashMap::default(),
        changes: FxHashMap::default(),
        arrays: f
            .locals
            .iter()
            .filter(|(_, l)| matches!(l.ty, Type::Array(..)))
            .map(|(id, _)| id)
            .collect(),
        loops: Vec::new(),
        loop_count: 0,
    };
    for &s in &f.body {
        defs.statement(s);
    }
    // Only integers are converted to pointers.
    defs.init
        .keys()
        .filter(|&&id| f.locals[id].ty.is_integer())
        .filter_map(|&id| Some((id, defs.kept_value(id)?)))
        .collect()
}

/// What a function does to its variables, enough to know which keep one
/// value.
struct Definitions<'a> {
    f: &'a hir::Function,
    init: FxHashMap<LocalId, ExprId>,
    /// The loops whose bodies hold each initializer.
    init_loops: FxHashMap<LocalId, Vec<usize>>,
    /// Where variables are assigned (in whole or in part) other than by
    /// their initializer, or have their address taken: in the step of loop
    /// `Some(l)`, or anywhere else (`None`).
    changes: FxHashMap<LocalId, Vec<Option<usize>>>,
    arrays: FxHashSet<LocalId>,
    /// While walking: the loops around, and how many loops were seen.
    loops: Vec<usize>,
    loop_count: usize,
}

/// The variable an lvalue or address expression is part of.
pub fn root_local(f: &hir::Function, e: ExprId) -> Option<LocalId> {
    match f.exprs[e].kind {
        H::Local(id) => Some(id),
        H::Index(base, _) | H::Member(base, _) | H::Swizzle(base, _) | H::Decay(base) => {
            root_local(f, base)
        }
        _ => None,
    }
}

impl Definitions<'_> {
    fn statement(&mut self, s: StmtId) {
        crate::stack::guard(|| match &self.f.stmts[s].kind {
            &StmtKind::Init(id, value) => {
                if self.init.insert(id, value).is_some() {
                    self.changes.entry(id).or_default().push(None);
                }
                self.init_loops.insert(id, self.loops.clone());
                self.expr(value, None);
            }
            StmtKind::Loop {
                cond, body, step, ..
            } => {
                let id = self.loop_count;
                self.loop_count += 1;
                if let &Some(cond) = cond {
                    self.expr(cond, None);
                }
                if let &Some(step) = step {
                    self.expr(step, Some(id));
                }
                self.loops.push(id);
                for &s in body {
                    self.statement(s);
                }
                self.loops.pop();
            }
            kind => {
                let (mut exprs, mut nested) = (Vec::new(), Vec::new());
                kind.for_each_child(&mut |e| exprs.push(e), &mut |c| nested.push(c));
                for e in exprs {
                    self.expr(e, None);
                }
                for c in nested {
                    self.statement(c);
                }
            }
        })
    }

    /// Notes the changes `e` makes; `step`: `e` is the step of that loop.
    fn expr(&mut self, e: ExprId, step: Option<usize>) {
        crate::stack::guard(|| {
            let kind = &self.f.exprs[e].kind;
            match *kind {
                H::Assign(target, _)
                | H::CompoundAssign { target, .. }
                | H::IncDec { target, .. }
                | H::AddressOf(target) => {
                    if let Some(id) = root_local(self.f, target) {
                        // An address given away may be written through anywhere.
                        let site = if matches!(kind, H::AddressOf(_)) {
                            None
                        } else {
                            step
                        };
                        self.changes.entry(id).or_default().push(site);
                    }
                }
                _ => {}
            }
            kind.for_each_child(&mut |&c| self.expr(c, step));
        })
    }

    /// Whether variable `id` holds the same value throughout the scope of
    /// a declaration inside `loops`.
    fn unchanged_within(&self, id: LocalId, loops: &[usize]) -> bool {
        self.changes
            .get(&id)
            .is_none_or(|sites| sites.iter().all(|s| s.is_some_and(|l| loops.contains(&l))))
    }

    /// Whether `e`, an initializer inside `loops`, gives the same value
    /// wherever it is evaluated again in its variable's scope, with no side
    /// effect. `address`: `e` is only an address there, so an array is its
    /// unchanging place, whatever is stored in it.
    fn stable(&self, e: ExprId, loops: &[usize], address: bool) -> bool {
        let stable = |x: ExprId, address| self.stable(x, loops, address);
        match self.f.exprs[e].kind {
            H::Int(_) | H::Float(_) | H::Global(_) => true,
            H::Local(id) => {
                (address && self.arrays.contains(&id)) || self.unchanged_within(id, loops)
            }
            H::Convert(x) | H::Unary(_, x) | H::PointerCast(x) | H::Splat(x) => stable(x, false),
            H::Decay(x) | H::AddressOf(x) => stable(x, true),
            H::Index(base, index) if address => stable(base, true) && stable(index, false),
            H::Member(base, _) if address => stable(base, true),
            H::Binary(_, a, b) | H::Logical(_, a, b) | H::PointerOffset(a, b) => {
                stable(a, false) && stable(b, false)
            }
            H::Conditional(c, a, b) => stable(c, false) && stable(a, false) && stable(b, false),
            H::Builtin(b, ref args) => {
                WORK_ITEM_QUERIES.contains(&b) && args.iter().all(|&a| stable(a, false))
            }
            _ => false,
        }
    }

    /// The initializer of `id` if the variable keeps its value and the
    /// initializer can be evaluated again to the same value.
    fn kept_value(&self, id: LocalId) -> Option<ExprId> {
        let init = *self.init.get(&id)?;
        let loops = self.init_loops.get(&id).map_or(&[][..], Vec::as_slice);
        (!self.changes.contains_key(&id) && self.stable(init, loops, false)).then_some(init)
    }
}

/// Built-ins that give the same value wherever a work-item calls them.
const WORK_ITEM_QUERIES: &[Builtin] = &[
    Builtin::WorkDim,
    Builtin::GlobalSize,
    Builtin::GlobalId,
    Builtin::LocalSize,
    Builtin::EnqueuedLocalSize,
    Builtin::LocalId,
    Builtin::NumGroups,
    Builtin::GroupId,
    Builtin::GlobalOffset,
    Builtin::GlobalLinearId,
    Builtin::LocalLinearId,
];
