//! C++ lvalue references. A reference is kept as a pointer to its
//! referent: in the generic address space unless the declaration names one
//! (C++ for OpenCL's address-space rules, seed 004), and every use of the
//! reference's name reads through it. Binding takes the address of an
//! lvalue; a `const` reference binds a value that is not one through a
//! private temporary it keeps (C++17 [dcl.init.ref]). So the pointer model
//! resolves a reference as it resolves any pointer: to a root and an
//! offset.

use super::*;

impl Checker<'_> {
    /// The pointer type a reference declared as `declarator` (with base
    /// type `base` and `quals`) is kept as. The referent is what the rest
    /// of the declarator makes of the base (`int *&r` refers to an
    /// `int *`), with the qualifiers nearest the name.
    pub(super) fn reference_type(
        &mut self,
        base: Type,
        quals: ast::Qualifiers,
        declarator: &ast::Declarator,
        location: Location,
    ) -> Type {
        let referent = self.declarator_type(base, quals, declarator, location);
        let (own, space) = match declarator.derived.first() {
            // `T (&a)[N]`: an array is as qualified as its elements.
            None | Some(ast::Derived::Array(_)) => (quals, quals.address_space),
            Some(ast::Derived::Pointer(q)) => (*q, None),
            Some(_) => {
                let not_yet = crate::language::NOT_YET;
                self.error(location, format!("references to functions are {not_yet}"));
                return Type::Error;
            }
        };
        let quals = ast::Qualifiers {
            address_space: space,
            ..own
        };
        self.pointer_with(referent, quals)
    }

    /// C++'s cast to a reference, `static_cast<T &&>(x)` (how
    /// `std::move` and `std::forward` are written), `static_cast<T &>(x)`
    /// or `(T &)x`: the object `x` itself, or its base part `T`. A value
    /// that is no object is kept in a temporary, which the result names.
    pub(super) fn reference_cast(&mut self, t: &ast::TypeName, x: &ast::Expr, span: Span) -> Expr {
        let (base, quals) = self.base_type(&t.specs);
        let to = self.declarator_type(base, quals, &t.declarator, t.specs.location);
        let v = self.expr(x);
        if v.ty.is_error() || to.is_error() {
            return Expr::new(H::Int(0), Type::Error, span);
        }
        let object = match to {
            _ if v.ty == to => v,
            Type::Record(base) if self.derives_from(v.ty, to) => {
                self.derived_to_base(v, base).expect("a base")
            }
            _ => {
                let not_yet = crate::language::NOT_YET;
                let (from, to) = (self.display(v.ty), self.display(to));
                self.error(
                    span,
                    format!("casts from '{from}' to a reference to '{to}' are {not_yet}"),
                );
                return Expr::new(H::Int(0), Type::Error, span);
            }
        };
        if self.is_place(&object) && !matches!(object.kind, H::Swizzle(..)) {
            let ty = object.ty;
            return object.with_type(ty, span);
        }
        let address = self.temporary_address(object, false, "(reference temporary)");
        self.deref(address, span)
    }

    /// The pointer a reference of type `reference` (from
    /// [`Checker::reference_type`]) holds once bound to `e`.
    pub(super) fn bind_reference(
        &mut self,
        reference: Type,
        e: &ast::Expr,
        at: Location,
        rvalue: bool,
    ) -> Expr {
        let v = self.expr(e);
        self.bind_reference_to(reference, v, at, rvalue)
    }

    /// [`Self::bind_reference`] to `v`, checked. An `rvalue` reference
    /// (`T &&`) binds a value that is no object through a temporary as a
    /// `const` one does, and may change it; it also binds objects, which
    /// C++ allows only through a cast (`static_cast<T &&>(x)`), so that
    /// such casts need no value category of their own.
    pub(super) fn bind_reference_to(
        &mut self,
        reference: Type,
        v: Expr,
        at: Location,
        rvalue: bool,
    ) -> Expr {
        let span = v.span;
        let Some(referent) = self.pointee(reference) else {
            return Expr::new(H::Int(0), Type::Error, span);
        };
        // C++: a reference to a base binds to a derived object's base part.
        let v = match referent.ty {
            Type::Record(base) if self.derives_from(v.ty, referent.ty) => {
                self.derived_to_base(v, base).expect("a base")
            }
            _ => v,
        };
        if v.ty.is_error() || referent.ty.is_error() {
            return Expr::new(H::Int(0), Type::Error, span);
        }
        let lvalue = self.is_place(&v) && !matches!(v.kind, H::Swizzle(..));
        if lvalue && v.ty == referent.ty {
            if self.is_const_qualified(&v) && !referent.is_const {
                let ty = self.display(referent.ty);
                self.error(
                    at,
                    format!("binding reference of type '{ty}' to value of type 'const {ty}' drops 'const' qualifier"),
                );
                return Expr::new(H::Int(0), Type::Error, span);
            }
            let address = self.address_of_place(v, span);
            return self.convert_for_assignment(address, reference, Conversion::Init(at));
        }
        if !referent.is_const && !rvalue {
            let (wanted, got) = (self.display(referent.ty), self.display(v.ty));
            let what = if lvalue {
                "a value of unrelated type"
            } else {
                "a temporary of type"
            };
            self.error(
                at,
                format!(
                    "non-const lvalue reference to type '{wanted}' cannot bind to {what} '{got}'"
                ),
            );
            return Expr::new(H::Int(0), Type::Error, span);
        }
        if self.temporary_of(&v).is_some() && v.ty == referent.ty {
            // A temporary to destroy: bound itself, so that it is destroyed
            // once, with its full-expression or (`reference_local`) with
            // the reference.
            let mut v = v;
            let H::Comma(init, object) = v.take_kind() else {
                unreachable!("a temporary")
            };
            let address = self.address_of_place(*object, span);
            let ty = address.ty;
            let address = Expr::new(H::Comma(init, Box::new(address)), ty, span);
            return self.convert_for_assignment(address, reference, Conversion::Init(at));
        }
        // A `const` reference to a value: the value, converted, in a
        // private temporary that lives as long as the function.
        let value = self.decay(v);
        let value = self.convert_for_assignment(value, referent.ty, Conversion::Init(at));
        let bound = self.temporary_address(value, referent.is_const, "(reference temporary)");
        self.convert_for_assignment(bound, reference, Conversion::Init(at))
    }

    /// `(temporary = value, &temporary)`: the address of a new private
    /// local holding `value`, which lives as long as the function; its
    /// name (`label`) is one no identifier spells.
    pub(super) fn temporary_address(&mut self, value: Expr, is_const: bool, label: &str) -> Expr {
        let (ty, span) = (value.ty, value.span);
        let local = hir::Local {
            name: self.program.names.intern(label),
            ty,
            space: AddressSpace::Private,
            is_const,
            span,
        };
        let id = self.add_local(None, local);
        let object = || Box::new(Expr::new(H::Local(id), ty, span));
        let pointer = self.pointer_to(Pointee {
            ty,
            is_const,
            is_volatile: false,
            space: AddressSpace::Private,
            endian_host: false,
        });
        let init = Expr::new(H::Assign(object(), Box::new(value)), ty, span);
        let address = Expr::new(H::AddressOf(object()), pointer, span);
        Expr::new(H::Comma(Box::new(init), Box::new(address)), pointer, span)
    }

    /// A local reference, `T &r = e;`: a private pointer bound once.
    pub(super) fn reference_local(
        &mut self,
        d: &ast::Declaration,
        init: &ast::InitDeclarator,
        base: Type,
        quals: ast::Qualifiers,
        stmt: Span,
        out: &mut hir::Block,
    ) {
        let Some((name, location)) = init.declarator.name else {
            return;
        };
        let deduced = matches!(d.specs.ty, ast::TypeSpec::Auto);
        // `auto *&r = p`: a reference to the pointer `p`.
        let to_pointer = matches!(init.declarator.derived[..], [ast::Derived::Pointer(_)]);
        if d.specs.storage.is_some()
            || (deduced && !init.declarator.derived.is_empty() && !to_pointer)
        {
            let not_yet = crate::language::NOT_YET;
            self.error(
                location,
                format!("references with a storage class, and 'auto' references other than 'auto &' and 'auto *&', are {not_yet}"),
            );
            return;
        }
        let value = match &init.init {
            Some(ast::Initializer::Expr(e)) if deduced => {
                let v = self.expr(e);
                if to_pointer && !v.ty.is_error() && self.pointee(v.ty).is_none() {
                    let shown = self.display(v.ty);
                    self.error(
                        location,
                        format!(
                            "variable 'auto *&' bound to a value of type '{shown}', not a pointer"
                        ),
                    );
                    return;
                }
                let ty = self.deduced_reference_type(&v, quals);
                (ty, self.bind_reference_to(ty, v, location, false))
            }
            Some(ast::Initializer::Expr(e)) => {
                let ty = self.reference_type(base, quals, &init.declarator, location);
                (
                    ty,
                    self.bind_reference(ty, e, location, init.declarator.rvalue),
                )
            }
            _ => {
                let spelling = self.spelling(name);
                self.error(
                    location,
                    format!(
                        "declaration of reference variable '{spelling}' requires an initializer"
                    ),
                );
                return;
            }
        };
        let (ty, value) = value;
        let local = hir::Local {
            name: self.symbol(name),
            ty,
            space: AddressSpace::Private,
            is_const: true,
            span: init.declarator.span_or(location),
        };
        let id = self.add_local(Some(name), local);
        if let Some(f) = self.current.as_mut() {
            f.references.insert(id);
        }
        if let Some(temporary) = self.bound_temporary(&value) {
            // C++ extends the temporary's life to the reference's.
            self.claim_temporary(temporary);
            let ty = self.current.as_ref().expect("in a function").locals[temporary].ty;
            self.note_local_object(temporary, ty, AddressSpace::Private, location);
        }
        let value = self.commit(value);
        out.push(self.add_stmt(StmtKind::Init(id, value), stmt.with_caret(location)));
    }

    /// The temporary to destroy that reference value `value` is bound to,
    /// `(init, &temporary)` as [`Self::bind_reference_to`] binds one.
    fn bound_temporary(&self, value: &Expr) -> Option<LocalId> {
        match &value.kind {
            H::PointerCast(inner) | H::Convert(inner) => self.bound_temporary(inner),
            H::Comma(_, address) => match &address.kind {
                H::AddressOf(object) => match object.kind {
                    H::Local(id) if self.is_temporary(id) => Some(id),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }

    /// The type of `auto &r = v` (written with `quals`), kept as the
    /// pointer it is: to `v`'s type in `v`'s address space, `const` where
    /// `v` or the declaration is (seed 004: `auto` deduces the address
    /// space too). An rvalue binds only to a `const` one, through a
    /// private temporary, as [`Checker::bind_reference_to`] makes it.
    fn deduced_reference_type(&mut self, v: &Expr, quals: ast::Qualifiers) -> Type {
        if v.ty.is_error() {
            return Type::Error;
        }
        let (space, is_const) = if self.is_place(v) {
            (self.place_space(v), self.is_const_qualified(v))
        } else {
            (AddressSpace::Private, false)
        };
        self.pointer_to(Pointee {
            ty: v.ty,
            is_const: is_const || quals.is_const,
            is_volatile: false,
            space,
            endian_host: false,
        })
    }

    /// Whether local `id` is a reference, read through wherever it is named.
    pub(super) fn is_reference(&self, id: LocalId) -> bool {
        self.current
            .as_ref()
            .is_some_and(|f| f.references.contains(&id))
    }

    /// A reference where clvulkan has none yet (members, program scope,
    /// type names, kernel parameters, return types): reports it and says
    /// whether there was one.
    pub(super) fn reject_reference(&mut self, declarator: &ast::Declarator, place: &str) -> bool {
        let Some(at) = declarator.reference else {
            return false;
        };
        let not_yet = crate::language::NOT_YET;
        self.error(at, format!("references {place} are {not_yet}"));
        true
    }
}
