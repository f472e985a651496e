//! C++ destructors. A destructor (`~S()`, named by a symbol no token
//! spells, `~S`) runs on each private local object of its class where
//! C++ runs it: when the object's scope ends, in the reverse order of
//! the declarations, and before a `return`, `break` or `continue` leaves
//! the scope (after a `return`'s value is computed). Copies stay bitwise,
//! as C++'s implicit copy constructor makes them, so a copy is destroyed
//! too.
//!
//! Where clvulkan does not run destructors yet, an object of a class with
//! one is a named error rather than an object never destroyed: members,
//! bases, array elements, temporaries, by-value parameters and return
//! values, program-scope and `static` objects, lambdas' copies, other
//! address spaces, and functions with `goto`.

use super::*;
use crate::types::Record;
use naga::Handle;

/// A local object to destroy when its scope ends.
pub(super) struct Destructible {
    /// `scopes.depth()` where it was declared.
    depth: usize,
    local: LocalId,
    destructor: (FunctionId, Name),
}

impl Destructible {
    pub(super) fn depth(&self) -> usize {
        self.depth
    }
}

impl Checker<'_> {
    /// The destructor of class type `ty` and its name, if it has one.
    pub(super) fn destructor_of(&self, ty: Type) -> Option<(FunctionId, Name)> {
        match ty {
            Type::Record(r) => self.destructors.get(&r).copied(),
            _ => None,
        }
    }

    /// Whether `ty` holds an object of a class with a destructor (itself
    /// one, or an array of them).
    fn holds_destructible(&self, ty: Type) -> bool {
        let mut ty = ty;
        while let Some(element) = self.element_of(ty) {
            ty = element;
        }
        self.destructor_of(ty).is_some()
    }

    /// Reports an object of a class with a destructor in `place`, where
    /// clvulkan does not run destructors yet; says whether it did.
    pub(super) fn reject_destructible(&mut self, ty: Type, at: Location, place: &str) -> bool {
        if !self.cxx || !self.holds_destructible(ty) {
            return false;
        }
        let not_yet = crate::language::NOT_YET;
        let shown = match ty {
            Type::Record(r) => self.class_spelling(r),
            _ => self.display(ty),
        };
        self.error(
            at,
            format!("objects of a class with a destructor ('{shown}') {place} are {not_yet}"),
        );
        true
    }

    /// Notes the destructor of class `r`, named `name`.
    pub(super) fn note_destructor(&mut self, r: Handle<Record>, name: Name, id: FunctionId) {
        if self.spelling(name).starts_with('~') {
            self.destructors.insert(r, (id, name));
        }
    }

    /// Notes private local `local`, of type `ty`, declared now, for its
    /// destructor to run when its scope ends; reports the locals whose
    /// destruction clvulkan cannot run yet.
    pub(super) fn note_local_object(
        &mut self,
        local: LocalId,
        ty: Type,
        space: AddressSpace,
        at: Location,
    ) {
        if !self.holds_destructible(ty) {
            return;
        }
        if matches!(ty, Type::Array(..)) {
            self.reject_destructible(ty, at, "in arrays");
            return;
        }
        if space != AddressSpace::Private {
            self.reject_destructible(ty, at, "outside private memory");
            return;
        }
        let destructor = self.destructor_of(ty).expect("a destructor");
        let depth = self.scopes.depth();
        let f = self.current.as_mut().expect("in a function");
        f.had_destructibles = true;
        f.destructibles.push(Destructible {
            depth,
            local,
            destructor,
        });
    }

    /// The calls that destroy the objects declared at scope depth `depth`
    /// or deeper, last declared first, appended to `out`; with `end`, the
    /// scope is ending and they are forgotten.
    pub(super) fn destroy_from(
        &mut self,
        depth: usize,
        end: bool,
        out: &mut hir::Block,
        span: Span,
    ) {
        let Some(f) = self.current.as_mut() else {
            return;
        };
        let first = f.destructibles.partition_point(|d| d.depth < depth);
        let objects: Vec<(LocalId, (FunctionId, Name))> = f.destructibles[first..]
            .iter()
            .rev()
            .map(|d| (d.local, d.destructor))
            .collect();
        if end {
            f.destructibles.truncate(first);
        }
        for (local, (destructor, name)) in objects {
            let ty = self.current.as_ref().expect("in a function").locals[local].ty;
            let object = Expr::new(H::Local(local), ty, span);
            let this = self.address_of_place(object, span);
            let call = self.checked_call(
                name,
                &[destructor],
                Some(this),
                Vec::new(),
                span,
                span.location(),
            );
            if call.ty.is_error() {
                continue;
            }
            let call = self.commit(call);
            out.push(self.add_stmt(StmtKind::Expr(call), span));
        }
    }

    /// Whether any object is waiting for its destructor.
    pub(super) fn has_destructibles(&self) -> bool {
        self.current
            .as_ref()
            .is_some_and(|f| !f.destructibles.is_empty())
    }
}
