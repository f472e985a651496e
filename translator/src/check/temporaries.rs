//! C++ temporaries of classes with destructors. A prvalue of such a class
//! (`S(1)`, `S{}`, a call returning one by value) is made in a private
//! local, a temporary, which C++ destroys at the end of the
//! full-expression that made it unless an object takes it over: a
//! declared object, a member or element it initializes, a by-value
//! parameter (destroyed by its function) or a function's return value
//! (the caller's prvalue in turn).
//!
//! An expression is checked whole before it is committed, so whether a
//! temporary was taken over is known when it is: [`Checker::commit`]
//! gives the temporaries nothing took over to the innermost open
//! full-expression, which destroys them after its statements, last made
//! first. Expression statements, declarations, `return` and a `for`'s
//! step open one ([`Checker::full_expression`]); a temporary committed
//! anywhere else (a condition), or made in an operand that may not be
//! evaluated (of `?:`, `&&`, `||`), is a named error rather than an object
//! never, or wrongly, destroyed.

use super::*;
use std::collections::HashSet;

/// A function's temporaries that hold objects with destructors.
#[derive(Default)]
pub(super) struct Temporaries {
    /// Every one made so far.
    made: HashSet<LocalId>,
    /// Those an object took over or a full-expression claimed: none is
    /// destroyed twice.
    claimed: HashSet<LocalId>,
    /// For each full-expression being checked, innermost last, the
    /// temporaries it destroys, in the order they were committed.
    open: Vec<Vec<LocalId>>,
}

impl Checker<'_> {
    /// `value`, a prvalue of a class with a destructor, in a temporary:
    /// `(temporary = value, temporary)`.
    pub(super) fn materialize(&mut self, value: Expr) -> Expr {
        let (ty, span) = (value.ty, value.span);
        let id = self.temporary_local(ty, span);
        let object = || Box::new(Expr::new(H::Local(id), ty, span));
        let init = Expr::new(H::Assign(object(), Box::new(value)), ty, span);
        Expr::new(H::Comma(Box::new(init), object()), ty, span)
    }

    /// A new private local for a temporary object of type `ty`, noted for
    /// destruction if its type has a destructor.
    pub(super) fn temporary_local(&mut self, ty: Type, span: Span) -> LocalId {
        let local = hir::Local {
            name: self.program.names.intern("(temporary object)"),
            ty,
            space: AddressSpace::Private,
            is_const: false,
            span,
        };
        let id = self.add_local(None, local);
        if self.holds_destructible(ty) {
            let f = self.current.as_mut().expect("in a function");
            f.temporaries.made.insert(id);
        }
        id
    }

    /// Whether local `id` is a temporary to destroy.
    pub(super) fn is_temporary(&self, id: LocalId) -> bool {
        (self.current.as_ref()).is_some_and(|f| f.temporaries.made.contains(&id))
    }

    /// The temporary `value` is, `(init, temporary)`, if it is one to
    /// destroy.
    pub(super) fn temporary_of(&self, value: &Expr) -> Option<LocalId> {
        match &value.kind {
            H::Comma(_, object) => match object.kind {
                H::Local(id) if self.is_temporary(id) => Some(id),
                _ => None,
            },
            _ => None,
        }
    }

    /// Notes that temporary `id` is destroyed as an object of its own,
    /// not with its full-expression.
    pub(super) fn claim_temporary(&mut self, id: LocalId) {
        if let Some(f) = self.current.as_mut() {
            f.temporaries.claimed.insert(id);
        }
    }

    /// Notes that an object is initialized from `value`, taking over the
    /// temporaries it is: itself, the items of a braced list, and either
    /// side of `?:`.
    pub(super) fn take_over(&mut self, value: &Expr) {
        if self
            .current
            .as_ref()
            .is_none_or(|f| f.temporaries.made.is_empty())
        {
            return;
        }
        let mut pending = vec![value];
        while let Some(value) = pending.pop() {
            if let Some(id) = self.temporary_of(value) {
                self.claim_temporary(id);
                continue;
            }
            match &value.kind {
                H::InitList(items) => pending.extend(items.iter().map(|(_, item)| &**item)),
                H::Conditional(_, a, b) => pending.extend([&**a, &**b]),
                H::Comma(_, b) => pending.push(b),
                _ => {}
            }
        }
    }

    /// Runs `check`, which pushes the statements of one full-expression to
    /// `out`, then the destruction of the temporaries they made and no
    /// object took over, last made first.
    pub(super) fn full_expression<T>(
        &mut self,
        out: &mut hir::Block,
        span: Span,
        check: impl FnOnce(&mut Self, &mut hir::Block) -> T,
    ) -> T {
        self.open_full_expression();
        let value = check(self, out);
        self.close_full_expression(out, span);
        value
    }

    /// Starts a full-expression: the temporaries committed until
    /// [`Self::close_full_expression`] are its own.
    pub(super) fn open_full_expression(&mut self) {
        if let Some(f) = self.current.as_mut() {
            f.temporaries.open.push(Vec::new());
        }
    }

    /// Ends the innermost full-expression, destroying its temporaries.
    pub(super) fn close_full_expression(&mut self, out: &mut hir::Block, span: Span) {
        let Some(f) = self.current.as_mut() else {
            return;
        };
        let temporaries = f.temporaries.open.pop().unwrap_or_default();
        self.destroy_temporaries(temporaries, out, span);
    }

    /// Destroys `temporaries`, last first.
    pub(super) fn destroy_temporaries(
        &mut self,
        temporaries: Vec<LocalId>,
        out: &mut hir::Block,
        span: Span,
    ) {
        for id in temporaries.into_iter().rev() {
            let ty = self.current.as_ref().expect("in a function").locals[id].ty;
            self.destroy_object(Expr::new(H::Local(id), ty, span), out, span);
        }
    }

    /// Whether temporaries are waiting for the end of the innermost open
    /// full-expression.
    pub(super) fn has_open_temporaries(&self) -> bool {
        (self.current.as_ref())
            .and_then(|f| f.temporaries.open.last())
            .is_some_and(|open| !open.is_empty())
    }

    /// The temporaries waiting for the end of the innermost open
    /// full-expression, taken from it: a `return` destroys them before the
    /// locals.
    pub(super) fn take_open_temporaries(&mut self) -> Vec<LocalId> {
        (self.current.as_mut())
            .and_then(|f| f.temporaries.open.last_mut())
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// Before `e` is committed: gives the temporaries in it that nothing
    /// took over to the innermost open full-expression; reports them where
    /// none is open or where they may not have been made.
    pub(super) fn claim_temporaries(&mut self, e: &Expr) {
        let Some(f) = self.current.as_ref() else {
            return;
        };
        if f.temporaries.made.len() == f.temporaries.claimed.len() {
            return;
        }
        let mut found = Vec::new();
        let mut pending = vec![(e, false)];
        while let Some((e, conditional)) = pending.pop() {
            match &e.kind {
                H::Local(id)
                    if f.temporaries.made.contains(id) && !f.temporaries.claimed.contains(id) =>
                {
                    if !found.iter().any(|&(found, _)| found == *id) {
                        found.push((*id, conditional));
                    }
                }
                H::Conditional(c, a, b) => {
                    pending.extend([(&**b, true), (&**a, true), (&**c, conditional)]);
                }
                H::Logical(_, a, b) => pending.extend([(&**b, true), (&**a, conditional)]),
                kind => {
                    let mut children = Vec::new();
                    kind.for_each_child(&mut |child| children.push((&**child, conditional)));
                    pending.extend(children.into_iter().rev());
                }
            }
        }
        if found.is_empty() {
            return;
        }
        let f = self.current.as_mut().expect("in a function");
        f.temporaries
            .claimed
            .extend(found.iter().map(|&(id, _)| id));
        let mut rejected = None;
        for (id, conditional) in found {
            match f.temporaries.open.last_mut() {
                Some(open) if !conditional => open.push(id),
                _ => rejected = Some((id, conditional)),
            }
        }
        if let Some((id, conditional)) = rejected {
            let (ty, at) = (f.locals[id].ty, f.locals[id].span);
            let place = if conditional {
                "as temporaries in operands of '?:', '&&' and '||'"
            } else {
                "as temporaries in conditions and loop headers"
            };
            self.reject_destructible(ty, at.location(), place);
        }
    }
}
