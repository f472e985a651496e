//! C++ destructors. A destructor (`~S()`, named by a symbol no token
//! spells, `~S`) runs on each private object of its class where C++ runs
//! it: on a local when its scope ends, in the reverse order of the
//! declarations, and before a `return`, `break` or `continue` leaves the
//! scope (after a `return`'s value is computed); on a by-value parameter
//! when its function returns (C++ leaves to the implementation whether
//! there or at the end of the caller's full-expression); on a temporary
//! at the end of its full-expression (`temporaries`). Destroying an object
//! runs its class's destructor, then destroys its members and bases, last
//! first, and an array's elements, last first, as C++'s implicit
//! destructors do.
//!
//! Where clvulkan does not run destructors yet, an object of a class with
//! one is a named error rather than an object never destroyed:
//! program-scope and `static` objects, empty bases, lambdas' copies,
//! kernel parameters, other address spaces, and functions with `goto`.

use super::*;
use crate::types::Record;
use naga::Handle;

/// The most elements an array of objects with destructors may have: each
/// is destroyed by a call of its own, unrolled.
const MAX_DESTROYED_ELEMENTS: u64 = 256;

/// A local object to destroy when its scope ends.
pub(super) struct Destructible {
    /// `scopes.depth()` where it was declared.
    depth: usize,
    local: LocalId,
}

impl Destructible {
    pub(super) fn depth(&self) -> usize {
        self.depth
    }
}

impl Checker<'_> {
    /// Whether an object of type `ty` runs a destructor when destroyed:
    /// its class has one, or a member, base or element of it does.
    pub(super) fn holds_destructible(&self, ty: Type) -> bool {
        if self.destructors.is_empty() {
            return false;
        }
        crate::stack::guard(|| match ty {
            Type::Record(r) => {
                self.destructors.contains_key(&r)
                    || (self.record(r).kind == ast::RecordKind::Struct
                        && (self.record(r).fields.iter()).any(|f| self.holds_destructible(f.ty)))
            }
            Type::Array(..) => self
                .element_of(ty)
                .is_some_and(|element| self.holds_destructible(element)),
            _ => false,
        })
    }

    /// The statements that destroy `object` (a place) as C++ does: its
    /// class's destructor, then its members last declared first, then its
    /// bases (which are its first members); an array's elements last
    /// first.
    pub(super) fn destroy_object(&mut self, object: Expr, out: &mut hir::Block, span: Span) {
        crate::stack::guard(|| match object.ty {
            Type::Record(r) => {
                if let Some((destructor, name)) = self.destructors.get(&r).copied() {
                    // A `const` object is destroyed like any other.
                    let pointee = Pointee {
                        ty: object.ty,
                        is_const: false,
                        is_volatile: false,
                        space: self.place_space(&object),
                        endian_host: false,
                    };
                    let this = self.address_of_place(object.clone(), span);
                    let this = this.with_type(self.pointer_to(pointee), span);
                    let location = span.location();
                    let call = self.checked_call(
                        name,
                        &[destructor],
                        Some(this),
                        Vec::new(),
                        span,
                        location,
                    );
                    if !call.ty.is_error() {
                        let call = self.commit(call);
                        out.push(self.add_stmt(StmtKind::Expr(call), span));
                    }
                }
                if self.record(r).kind == ast::RecordKind::Union {
                    return;
                }
                let fields: Vec<Type> = self.record(r).fields.iter().map(|f| f.ty).collect();
                for (index, ty) in fields.into_iter().enumerate().rev() {
                    if self.holds_destructible(ty) {
                        let member =
                            Expr::new(H::Member(Box::new(object.clone()), index), ty, span);
                        self.destroy_object(member, out, span);
                    }
                }
            }
            Type::Array(_, count) => {
                let Some(element) = self.element_of(object.ty) else {
                    return;
                };
                for index in (0..count).rev() {
                    let index = self.int_const(index, Type::INT, span);
                    let place = H::Index(Box::new(object.clone()), Box::new(index));
                    self.destroy_object(Expr::new(place, element, span), out, span);
                }
            }
            _ => {}
        })
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
        if space != AddressSpace::Private {
            self.reject_destructible(ty, at, "outside private memory");
            return;
        }
        if let Type::Array(_, count) = ty {
            if count > MAX_DESTROYED_ELEMENTS {
                let shown = format!("in arrays of more than {MAX_DESTROYED_ELEMENTS} elements");
                self.reject_destructible(ty, at, &shown);
                return;
            }
        }
        let depth = self.scopes.depth();
        let f = self.current.as_mut().expect("in a function");
        f.had_destructibles = true;
        f.destructibles.push(Destructible { depth, local });
    }

    /// The calls that destroy the objects declared at scope depth `depth`
    /// or deeper but `kept`, last declared first, appended to `out`; with
    /// `end`, the scope is ending and they are forgotten.
    pub(super) fn destroy_from(
        &mut self,
        depth: usize,
        end: bool,
        out: &mut hir::Block,
        span: Span,
        kept: Option<LocalId>,
    ) {
        let Some(f) = self.current.as_mut() else {
            return;
        };
        let first = f.destructibles.partition_point(|d| d.depth < depth);
        let objects: Vec<LocalId> = f.destructibles[first..]
            .iter()
            .rev()
            .map(|d| d.local)
            .filter(|&local| Some(local) != kept)
            .collect();
        if end {
            f.destructibles.truncate(first);
        }
        for local in objects {
            let ty = self.current.as_ref().expect("in a function").locals[local].ty;
            self.destroy_object(Expr::new(H::Local(local), ty, span), out, span);
        }
    }

    /// Whether any object is waiting for its destructor.
    pub(super) fn has_destructibles(&self) -> bool {
        self.current
            .as_ref()
            .is_some_and(|f| !f.destructibles.is_empty())
    }
}
