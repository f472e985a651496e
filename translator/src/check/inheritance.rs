//! C++ base classes, without `virtual` (which C++ for OpenCL excludes).
//!
//! A base with data is an anonymous member of the derived class, before
//! its own members and in the order the bases are written: the host's
//! layout, and names of the base's members reach it as those of a C11
//! anonymous member do (`field_path`). An empty base takes no room, as
//! the host's empty-base optimisation has it; the translator has no
//! empty objects, so calling its member functions is a named error.
//!
//! Where the host's compiler would place a member in a base's tail
//! padding (it may, for a class that is not a C++03 POD), the layout is
//! refused rather than risk a different one.
//!
//! A derived object converts to its base (a copy of the base part), a
//! pointer or reference to it to one to the base part, ranked as a
//! conversion among overloads; member functions of a base are found when
//! the derived class has none of that name; a constructor's member
//! initializers may name a base, which is constructed before the members.

use super::*;
use crate::layout::FieldSpec;
use crate::types::Record;
use naga::Handle;

/// One base class of a class.
#[derive(Clone, Copy, Debug)]
pub(super) struct Base {
    pub record: Handle<Record>,
    /// Its anonymous member's index, `None` for an empty base.
    pub field: Option<usize>,
    /// The class's name, which a member initializer names it by.
    pub name: Option<Name>,
}

/// The way from a class to one of its bases: each step a base, reached
/// through its member, or an empty one (the last step then).
pub(super) type BasePath = Vec<Base>;

impl Checker<'_> {
    /// The anonymous members for the bases of class `r`, written `bases`,
    /// which the caller puts before its own; records them as `r`'s bases.
    pub(super) fn base_fields(
        &mut self,
        r: Handle<Record>,
        bases: &[ast::TypeName],
    ) -> Vec<FieldSpec> {
        let mut fields = Vec::new();
        let mut recorded = Vec::new();
        for written in bases {
            let at = written.specs.type_location;
            let ty = self.type_name(written);
            let base = match ty {
                Type::Record(b) if self.record(b).complete && b != r => b,
                Type::Error => continue,
                Type::Record(b) if !self.record(b).complete => {
                    let shown = self.class_spelling(b);
                    self.error(at, format!("base class has incomplete type '{shown}'"));
                    continue;
                }
                _ => {
                    self.error(at, "expected class name");
                    continue;
                }
            };
            // An empty base has no room in the derived object, so nothing
            // to run its destructor or copies on.
            let empty = self.is_empty_class(base);
            if empty && self.reject_destructible(ty, at, "as empty bases") {
                continue;
            }
            if empty && (self.copies_by_code(ty, false) || self.copies_by_code(ty, true)) {
                let not_yet = crate::language::NOT_YET;
                self.error(at, format!("empty bases with a copy constructor or assignment operator of their own are {not_yet}"));
                continue;
            }
            if recorded.iter().any(|b: &Base| b.record == base) {
                let shown = self.class_spelling(base);
                self.error(
                    at,
                    format!("base class '{shown}' specified more than once as a direct base class"),
                );
                continue;
            }
            let name = match written.specs.ty {
                ast::TypeSpec::Typedef(name) => Some(name),
                _ => None,
            };
            let field = (!empty).then(|| {
                fields.push(FieldSpec {
                    name: hir::Symbol::EMPTY,
                    ty,
                    type_align: None,
                    aligned: None,
                    packed: false,
                });
                fields.len() - 1
            });
            recorded.push(Base {
                record: base,
                field,
                name,
            });
        }
        self.bases.insert(r, recorded);
        fields
    }

    /// Whether class `r` has no data: no member, and only empty bases.
    pub(super) fn is_empty_class(&self, r: Handle<Record>) -> bool {
        self.record(r).fields.is_empty()
    }

    /// Reports a layout in which the host would place a member in the
    /// tail padding of a base before it (see the module's documentation);
    /// `fields` are the laid-out members of the class, bases first.
    pub(super) fn reject_tail_padding_reuse(
        &mut self,
        fields: &[crate::types::Field],
        at: Location,
    ) {
        for pair in fields.windows(2) {
            let (base, next) = (&pair[0], &pair[1]);
            if base.name != hir::Symbol::EMPTY {
                continue;
            }
            let Type::Record(b) = base.ty else { continue };
            let record = self.record(b);
            let data_end = record
                .fields
                .iter()
                .map(|f| f.offset + self.program.types.size(f.ty).unwrap_or(0))
                .max()
                .unwrap_or(0);
            let align = next.align.max(1);
            let earliest = base.offset + data_end.div_ceil(align) * align;
            if earliest < base.offset + record.size {
                let not_yet = crate::language::NOT_YET;
                let shown = self.class_spelling(b);
                self.error(
                    at,
                    format!("a member after base '{shown}', which C++ compilers may place in the base's tail padding, is {not_yet}"),
                );
                return;
            }
        }
    }

    /// The way from class `from` to its base `to`, directly or through
    /// other bases; `None` when `to` is no base of `from`.
    pub(super) fn base_path(&self, from: Handle<Record>, to: Handle<Record>) -> Option<BasePath> {
        let bases = self.bases.get(&from)?;
        if let Some(base) = bases.iter().find(|b| b.record == to) {
            return Some(vec![*base]);
        }
        bases.iter().filter(|b| b.field.is_some()).find_map(|base| {
            let mut rest = self.base_path(base.record, to)?;
            rest.insert(0, *base);
            Some(rest)
        })
    }

    /// The member functions named `name` of class `r` or, where it has
    /// none, of its bases (the first that has, in order), with the way to
    /// that base.
    pub(super) fn class_methods(
        &self,
        r: Handle<Record>,
        name: Name,
    ) -> Option<(Vec<FunctionId>, BasePath)> {
        if let Some(own) = self.methods.get(&(r, name)) {
            return Some((own.clone(), Vec::new()));
        }
        self.bases.get(&r)?.iter().find_map(|base| {
            let (found, mut rest) = self.class_methods(base.record, name)?;
            rest.insert(0, *base);
            Some((found, rest))
        })
    }

    /// The base part that `path` leads to of `object`, an object (not a
    /// pointer). An empty base has no part: the translator has no empty
    /// objects, so that is a named error.
    pub(super) fn base_object(&mut self, object: Expr, path: &[Base]) -> Expr {
        let span = object.span;
        let mut object = object;
        for base in path {
            let ty = Type::Record(base.record);
            let Some(field) = base.field else {
                let not_yet = crate::language::NOT_YET;
                let shown = self.class_spelling(base.record);
                self.error(
                    span,
                    format!("using the empty base class '{shown}' of an object is {not_yet}"),
                );
                return Expr::new(H::Int(0), Type::Error, span);
            };
            object = Expr::new(H::Member(Box::new(object), field), ty, span);
        }
        object
    }

    /// `value`, of a class type derived from class `to`, converted to it
    /// (the base part); `None` when `to` is no base of its class.
    pub(super) fn derived_to_base(&mut self, value: Expr, to: Handle<Record>) -> Option<Expr> {
        let Type::Record(from) = value.ty else {
            return None;
        };
        let path = self.base_path(from, to)?;
        Some(self.base_object(value, &path))
    }

    /// `pointer`, to a class derived from class `to`, as a pointer to its
    /// base part, in the same space; `None` when `to` is no base.
    pub(super) fn pointer_to_base(&mut self, pointer: Expr, to: Handle<Record>) -> Option<Expr> {
        let pointee = self.pointee(pointer.ty)?;
        let Type::Record(from) = pointee.ty else {
            return None;
        };
        let path = self.base_path(from, to)?;
        if path.iter().any(|b| b.field.is_none()) {
            return None;
        }
        let span = pointer.span;
        let object = self.deref(pointer, span);
        let base = self.base_object(object, &path);
        Some(self.address_of_place(base, span))
    }

    /// `this`, a pointer to an object, as the `this` of a member function
    /// of the base that `path` leads to (itself for an empty path).
    pub(super) fn this_for(&mut self, this: Expr, path: &[Base], span: Span) -> Expr {
        if path.is_empty() {
            return this;
        }
        let object = self.deref(this, span);
        let base = self.base_object(object, path);
        self.object_address(base)
    }

    /// Whether `pointer` points to a class with data-holding base `to`.
    pub(super) fn pointer_to_base_ok(&self, pointer: &Expr, to: Handle<Record>) -> bool {
        match self.pointee(pointer.ty).map(|p| p.ty) {
            Some(Type::Record(from)) => self
                .base_path(from, to)
                .is_some_and(|path| path.iter().all(|b| b.field.is_some())),
            _ => false,
        }
    }

    /// The class that pointer type `to` points to where `pointer` points
    /// to a class derived from it (through bases with data).
    pub(super) fn base_pointer_target(&self, pointer: &Expr, to: Type) -> Option<Handle<Record>> {
        let Type::Record(base) = self.pointee(to)?.ty else {
            return None;
        };
        self.pointer_to_base_ok(pointer, base).then_some(base)
    }

    /// Whether class `from` derives from class `to`, for overload ranks.
    pub(super) fn derives_from(&self, from: Type, to: Type) -> bool {
        match (from, to) {
            (Type::Record(from), Type::Record(to)) => self.base_path(from, to).is_some(),
            _ => false,
        }
    }
}
