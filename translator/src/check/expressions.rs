//! Expressions: typing every operator, C's implicit conversions made
//! explicit, lvalue and constness rules, and calls.

use super::*;

impl Checker<'_> {
    pub(super) fn int_const(&self, value: u64, ty: Type, location: impl Into<Span>) -> Expr {
        Expr::new(H::Int(value), ty, location)
    }

    /// A condition: any scalar or pointer (compared with zero when lowered).
    /// A condition of the statement at `at`: any scalar or pointer
    /// (compared with zero when lowered).
    pub(super) fn condition(&mut self, e: &ast::Expr, at: Location) -> Expr {
        let e = self.rvalue(e);
        self.scalar_condition(e, at)
    }

    /// [`Self::condition`] of a checked value.
    fn scalar_condition(&mut self, e: Expr, at: Location) -> Expr {
        // C++: an object whose class converts to `bool` (or to a scalar).
        let e = if self.cxx && self.converts_by_function(e.ty, Type::BOOL) {
            self.convert_by_function(e, Type::BOOL)
                .expect("a conversion function")
        } else {
            e
        };
        if !matches!(e.ty, Type::Scalar(_) | Type::Pointer(_)) && !e.ty.is_error() {
            self.error(
                at,
                format!(
                    "statement requires expression of scalar type ('{}' invalid)",
                    self.display(e.ty)
                ),
            );
        }
        e
    }

    /// An expression as a value: arrays decay to pointers.
    pub(super) fn rvalue(&mut self, e: &ast::Expr) -> Expr {
        let v = self.expr(e);
        self.decay(v)
    }

    /// Inline, so that the common case (no array) moves nothing.
    #[inline]
    pub(super) fn decay(&mut self, v: Expr) -> Expr {
        if matches!(v.ty, Type::Array(..)) {
            self.decay_array(v)
        } else {
            v
        }
    }

    fn decay_array(&mut self, v: Expr) -> Expr {
        // An array compound literal, `(init, object)`: the object decays.
        let mut v = v;
        if let H::Comma(..) = v.kind {
            let H::Comma(init, object) = v.take_kind() else {
                unreachable!("a comma")
            };
            let object = self.decay_array(*object);
            let ty = object.ty;
            return Expr::new(H::Comma(init, Box::new(object)), ty, v.span);
        }
        if let (H::Str(bytes), None) = (&v.kind, &self.current) {
            // A string literal in a program-scope initializer, `constant
            // char *s = "abc"`: an object with static storage (C99 6.4.5),
            // an unnamed `__constant` variable the pointer can hold.
            let (ty, span) = (v.ty, v.span);
            let bytes = bytes.clone();
            let list = self.string_bytes(&bytes, Scalar::Char, bytes.len() as u64 + 1, span);
            let global = hir::Global {
                name: self.program.names.intern("(string literal)"),
                ty,
                space: AddressSpace::Constant,
                init: Some(self.commit_global(list)),
                span,
            };
            let id = self.program.globals.append(global, naga::Span::UNDEFINED);
            v = Expr::new(H::Global(id), ty, span);
        }
        if let Some(elem) = self.element_of(v.ty) {
            let space = self.place_space(&v);
            let is_const = self.is_const_qualified(&v);
            let ty = self.pointer_to(Pointee {
                ty: elem,
                is_const,
                is_volatile: false,
                space,
                endian_host: false,
            });
            let location = v.span;
            return Expr::new(H::Decay(Box::new(v)), ty, location);
        }
        v
    }

    /// The generic pointer type both of `a` and `b` convert to, where one
    /// points into the generic space and the other into a named one that
    /// generic includes, with the same pointee type; the result keeps the
    /// qualifiers of both.
    fn generic_common_pointer(&mut self, a: Type, b: Type) -> Option<Type> {
        let (Type::Pointer(pa), Type::Pointer(pb)) = (a, b) else {
            return None;
        };
        let (pa, pb) = (self.program.types[pa], self.program.types[pb]);
        let generic = |p: &crate::types::Pointee| p.space == AddressSpace::Generic;
        let named = |p: &crate::types::Pointee| {
            matches!(
                p.space,
                AddressSpace::Global | AddressSpace::Local | AddressSpace::Private
            )
        };
        let meet = (generic(&pa) && (named(&pb) || generic(&pb))) || (generic(&pb) && named(&pa));
        if !meet || pa.ty != pb.ty || pa.endian_host != pb.endian_host {
            return None;
        }
        Some(self.program.types.pointer(crate::types::Pointee {
            is_const: pa.is_const || pb.is_const,
            is_volatile: pa.is_volatile || pb.is_volatile,
            space: AddressSpace::Generic,
            ..pa
        }))
    }

    /// Converts `v` to `to` as assignment does (C99 6.5.16.1), reporting
    /// what is not allowed in the words and at the place `how` says.
    pub(super) fn convert_for_assignment(&mut self, v: Expr, to: Type, how: Conversion) -> Expr {
        let v = self.decay(v);
        if v.ty == to && self.cxx && matches!(to, Type::Record(_) | Type::Array(..)) {
            // A new object (an assignment's target is one already).
            return match how {
                Conversion::Assign(_) => v,
                _ => self.copy_initializer(v),
            };
        }
        if v.ty == to || v.ty.is_error() || to.is_error() {
            return v;
        }
        // Only diagnostics need the spellings, so they are made on demand.
        let from = v.ty;
        let describe =
            |this: &Self, relation| how.describe(&this.display(from), &this.display(to), relation);
        match (v.ty, to) {
            (Type::Scalar(_), Type::Scalar(_)) => self.convert(v, to),
            (Type::Scalar(s), Type::Opaque(types::Opaque::Sampler)) if s.is_integer() => {
                self.sampler_from_integer(v)
            }
            (Type::Scalar(_), Type::Vector(s, _)) => {
                let v = self.convert(v, Type::Scalar(s));
                let location = v.span;
                Expr::new(H::Splat(Box::new(v)), to, location)
            }
            (Type::Scalar(s), Type::Pointer(_))
                if s.is_integer() && matches!(v.kind, H::Int(0)) =>
            {
                // A null pointer constant.
                let location = v.span;
                Expr::new(H::Int(0), to, location)
            }
            // `NULL`, `(void *)0`: a null pointer constant, which converts
            // to a pointer into any address space (C99 6.3.2.3).
            (Type::Pointer(_), Type::Pointer(_)) if matches!(v.kind, H::Int(0)) => {
                let location = v.span;
                Expr::new(H::Int(0), to, location)
            }
            // C++: a pointer to a derived class, to its base part.
            (Type::Pointer(_), Type::Pointer(_))
                if self.cxx && self.base_pointer_target(&v, to).is_some() =>
            {
                let base = self.base_pointer_target(&v, to).expect("a base");
                let v = self.pointer_to_base(v, base).expect("a base");
                self.convert_for_assignment(v, to, how)
            }
            // C++: a derived object, as its base part.
            (Type::Record(_), Type::Record(b)) if self.derives_from(from, to) => {
                self.derived_to_base(v, b).expect("a base")
            }
            // C++: an object of a class with a conversion function.
            (Type::Record(_), _) if self.cxx && self.converts_by_function(from, to) => {
                let converted = self
                    .convert_by_function(v, to)
                    .expect("a conversion function");
                self.convert_for_assignment(converted, to, how)
            }
            (Type::Pointer(a), Type::Pointer(b)) => {
                let (a, b) = (self.program.types[a], self.program.types[b]);
                if a.endian_host != b.endian_host {
                    self.error(
                        how.location(),
                        "assigning between pointers with different endian attributes",
                    );
                } else if a.space != b.space
                    && (b.space != AddressSpace::Generic || a.space == AddressSpace::Constant)
                {
                    // The generic space holds global, local and private
                    // memory, never constant (OpenCL C 6.7.5).
                    let what = describe(self, "of type");
                    self.error(
                        how.location(),
                        format!("{what} changes address space of pointer"),
                    );
                } else if self.cxx
                    && ((a.ty != b.ty && b.ty != Type::Void) || (a.is_const && !b.is_const))
                {
                    // C++ converts implicitly only to `void *` and to more
                    // qualified pointees; C's warnings are errors there.
                    let what = describe(self, "of incompatible type");
                    self.error(how.location(), what);
                } else if a.ty != b.ty && b.ty != Type::Void && a.ty != Type::Void {
                    let what = describe(self, "of type");
                    self.diags.warning(
                        how.location(),
                        format!("incompatible pointer types {}", lowercase_first(&what)),
                    );
                    // Accepted as clang does, it is the cast it stands for:
                    // the pointee is seen as another type.
                    let location = v.span;
                    return Expr::new(H::PointerCast(Box::new(v)), to, location);
                } else if a.is_const && !b.is_const {
                    let what = describe(self, "of type");
                    self.diags
                        .warning(how.location(), format!("{what} discards qualifiers"));
                    // The cast it stands for, visible as explicit ones are.
                    let location = v.span;
                    return Expr::new(H::PointerCast(Box::new(v)), to, location);
                }
                let location = v.span;
                if a.ty != b.ty {
                    // To or from `void *`: the cast it stands for, so that
                    // the pointee the pointer is used as is explicit.
                    return Expr::new(H::PointerCast(Box::new(v)), to, location);
                }
                v.with_type(to, location)
            }
            _ => {
                let what = describe(self, "of incompatible type");
                self.error(how.location(), what);
                v
            }
        }
    }

    #[inline]
    pub(super) fn convert(&mut self, v: Expr, to: Type) -> Expr {
        if v.ty == to || v.ty.is_error() {
            return v;
        }
        self.convert_value(v, to)
    }

    /// [`Self::convert`] when the types differ.
    fn convert_value(&mut self, v: Expr, to: Type) -> Expr {
        let location = v.span;
        // Fold constants so literals keep their precise value.
        match (&v.kind, &to) {
            (H::Int(bits), Type::Scalar(s)) if s.is_integer() => {
                let value = literal::sign_extend(*bits, v.ty.scalar().unwrap_or(Scalar::Long));
                return self.int_const(literal::wrap(value, *s), to, location);
            }
            (H::Int(bits), Type::Scalar(s)) if s.is_float() => {
                let from = v.ty.scalar().unwrap_or(Scalar::Long);
                let value = if from.is_signed() {
                    literal::sign_extend(*bits, from) as f64
                } else {
                    *bits as f64
                };
                return Expr::new(H::Float(value), to, location);
            }
            (H::Float(f), Type::Scalar(s)) if s.is_float() => {
                let value = if *s == Scalar::Float {
                    *f as f32 as f64
                } else {
                    *f
                };
                return Expr::new(H::Float(value), to, location);
            }
            _ => {}
        }
        Expr::new(H::Convert(Box::new(v)), to, location)
    }

    /// Converts two operands to their common type (scalars: usual arithmetic
    /// conversions; a scalar with a vector: widened to it) and returns it.
    /// In place: most operands already have the common type, and then
    /// nothing is moved.
    /// `(T){ ... }` (C99 6.5.2.5). A scalar, vector or record literal is
    /// the value of its initializer list, unless it is used as an object
    /// (under `&`, see `literal_objects`). An array literal, or one used
    /// as an object, is an unnamed object: in a function a local,
    /// initialised where the literal is evaluated, `(local = { ... },
    /// local)`, which decays as arrays do (an array's size comes from the
    /// list when `T` leaves it out); at program scope a program-scope
    /// variable (static storage, C99 6.5.2.5p6) in the address space `T`
    /// names, else `__global`, as clang places it.
    pub(super) fn compound_literal(
        &mut self,
        ty: Type,
        space: Option<AddressSpace>,
        init: &ast::Initializer,
        span: Span,
    ) -> Expr {
        let as_object = std::mem::take(&mut self.literal_objects);
        if ty.is_error() {
            return Expr::new(H::Int(0), Type::Error, span);
        }
        if ty == Type::Void || matches!(ty, Type::Opaque(_)) {
            self.error(
                span,
                format!("compound literal has invalid type '{}'", self.display(ty)),
            );
            return Expr::new(H::Int(0), Type::Error, span);
        }
        if let (Type::Record(r), ast::Initializer::List(items, _)) = (ty, init) {
            if self.cxx && self.constructors(r).is_some() {
                // C++'s `S{a, b}`: the constructor the items pick.
                return match self.list_constructor_arguments(r, items, span) {
                    Some(args) => self.temporary_object(r, &args, span, span.location()),
                    None => Expr::new(H::Int(0), Type::Error, span),
                };
            }
        }
        let (value, ty) = self.initializer(init, ty, span.location());
        if !as_object && !matches!(ty, Type::Array(..)) {
            return value.with_type(ty, span);
        }
        if self.current.is_none() {
            let space = match space {
                Some(AddressSpace::Constant) => AddressSpace::Constant,
                _ => AddressSpace::Global,
            };
            let global = hir::Global {
                name: self.program.names.intern("(compound literal)"),
                ty,
                space,
                init: Some(self.commit_global(value)),
                span,
            };
            let id = self.program.globals.append(global, naga::Span::UNDEFINED);
            return Expr::new(H::Global(id), ty, span);
        }
        let local = hir::Local {
            name: self.program.names.intern("(compound literal)"),
            ty,
            space: AddressSpace::Private,
            is_const: false,
            span,
        };
        let id = self.add_local(None, local);
        let object = || Box::new(Expr::new(H::Local(id), ty, span));
        let init = Expr::new(H::Assign(object(), Box::new(value)), ty, span);
        Expr::new(H::Comma(Box::new(init), object()), ty, span)
    }

    /// `&place`, typed as a pointer into the place's space, `const` where
    /// the place is.
    pub(super) fn address_of_place(&mut self, place: Expr, span: Span) -> Expr {
        let ty = self.pointer_to(Pointee {
            ty: place.ty,
            is_const: self.is_const_qualified(&place),
            is_volatile: false,
            space: self.place_space(&place),
            endian_host: false,
        });
        self.address_of(place, ty, span)
    }

    /// `&place` where `place` may be reached from a compound literal's
    /// object, `(local = { ... }, local).m[i]`: the initialisation moves
    /// out, `(local = { ... }, &local.m[i])`, so that `&` applies to a
    /// place (as `decay_array` does for arrays).
    pub(super) fn address_of(&mut self, place: Expr, ty: Type, span: Span) -> Expr {
        if place.ty.image().is_some() || place.ty.is_sampler() {
            let message = format!(
                "pointer to type '{}' is invalid in OpenCL",
                self.display(place.ty)
            );
            self.error(span, message);
            return Expr::new(H::Int(0), Type::Error, span);
        }
        let (init, place) = self.hoist_literal_init(place);
        let address = Expr::new(H::AddressOf(Box::new(place)), ty, span);
        match init {
            Some(init) => Expr::new(H::Comma(init, Box::new(address)), ty, span),
            None => address,
        }
    }

    /// Whether `&` may apply to `v`: a variable, an element, a member of
    /// an object (not of a call's result, `&mk().x`), a dereference, or a
    /// compound literal's object.
    pub(super) fn is_place(&mut self, v: &Expr) -> bool {
        match &v.kind {
            H::Local(_) | H::Global(_) | H::Index(..) | H::Deref(_) => true,
            H::Member(base, _) => self.is_place(base),
            H::Comma(init, object) => self.is_literal_object(init, object),
            _ => false,
        }
    }

    /// Whether `(init, object)` is a compound literal's object in a
    /// function, `(local = { ... }, local)` of `compound_literal`: its
    /// local has a name no identifier can spell.
    fn is_literal_object(&mut self, init: &Expr, object: &Expr) -> bool {
        let (H::Assign(target, _), H::Local(id)) = (&init.kind, &object.kind) else {
            return false;
        };
        let literal = self.program.names.intern("(compound literal)");
        matches!(target.kind, H::Local(t) if t == *id)
            && self
                .current
                .as_ref()
                .is_some_and(|f| f.locals[*id].name == literal)
    }

    /// `place` without the initialisation of the compound literal's
    /// object it is reached from, and that initialisation: `(local = {
    /// ... }, local).m[i]` is `local = { ... }` and `local.m[i]`.
    fn hoist_literal_init(&mut self, mut place: Expr) -> (Option<Box<Expr>>, Expr) {
        let (ty, span) = (place.ty, place.span);
        match place.kind {
            H::Comma(ref init, ref object) if self.is_literal_object(init, object) => {
                let H::Comma(init, object) = place.take_kind() else {
                    unreachable!("a comma")
                };
                (Some(init), *object)
            }
            H::Member(..) => {
                let H::Member(base, field) = place.take_kind() else {
                    unreachable!("a member")
                };
                let (init, base) = self.hoist_literal_init(*base);
                (init, Expr::new(H::Member(Box::new(base), field), ty, span))
            }
            H::Index(ref base, _) if matches!(base.ty, Type::Array(..)) => {
                let H::Index(base, index) = place.take_kind() else {
                    unreachable!("an index")
                };
                let (init, base) = self.hoist_literal_init(*base);
                let kind = H::Index(Box::new(base), index);
                (init, Expr::new(kind, ty, span))
            }
            _ => (None, place),
        }
    }

    /// `c ? a : b` with a vector condition (OpenCL C 6.3.i): `select(b,
    /// a, c)`, each lane of the result taken from `a` where the most
    /// significant bit of the condition's lane is set. Both sides are
    /// evaluated. The operands convert as for a binary operator, a scalar
    /// result spreads to the condition's width, and the result's lanes
    /// must match the condition's in number and size (clang's rules).
    fn vector_conditional(&mut self, c: Expr, mut a: Expr, mut b: Expr, span: Span) -> Expr {
        let Type::Vector(cs, n) = c.ty else {
            unreachable!("a vector condition")
        };
        let at = span.location();
        if !cs.is_integer() {
            self.error(
                at,
                format!(
                    "used type '{}' where floating point type is not allowed",
                    self.display(c.ty)
                ),
            );
            return Expr::new(H::Int(0), Type::Error, span);
        }
        if !(a.ty.is_arithmetic() && b.ty.is_arithmetic()) {
            if !(a.ty.is_error() || b.ty.is_error()) {
                self.invalid_operands(at, &a.ty, ":", &b.ty);
            }
            return Expr::new(H::Int(0), Type::Error, span);
        }
        // Two scalars of one type keep it (`c ? (char)1 : (char)0` is a
        // `char` vector, as in clang): no integer promotion.
        let common = if a.ty == b.ty {
            a.ty
        } else {
            self.arithmetic_operands(&mut a, &mut b, at, ":")
        };
        let ty = match common {
            Type::Scalar(s) => Type::Vector(s, n),
            ty => ty,
        };
        let Type::Vector(s, m) = ty else {
            return Expr::new(H::Int(0), Type::Error, span);
        };
        let mismatch = if m != n {
            "the same number of elements"
        } else if s.size() != cs.size() {
            "elements of the same size"
        } else {
            ""
        };
        if !mismatch.is_empty() {
            self.error(
                at,
                format!(
                    "vector condition type '{}' and result type '{}' do not have {mismatch}",
                    self.display(c.ty),
                    self.display(ty)
                ),
            );
            return Expr::new(H::Int(0), Type::Error, span);
        }
        let a = self.widen(a, ty);
        let b = self.widen(b, ty);
        let args = vec![Box::new(b), Box::new(a), Box::new(c)];
        Expr::new(H::Builtin(builtins::Builtin::Select, args), ty, span)
    }

    pub(super) fn arithmetic_operands(
        &mut self,
        a: &mut Expr,
        b: &mut Expr,
        op_location: Location,
        op: &str,
    ) -> Type {
        let common = match (a.ty, b.ty) {
            (Type::Scalar(x), Type::Scalar(y)) => Type::Scalar(common_scalar(x, y)),
            (Type::Vector(..), Type::Scalar(_)) => a.ty,
            (Type::Scalar(_), Type::Vector(..)) => b.ty,
            (Type::Vector(..), Type::Vector(..)) if a.ty == b.ty => a.ty,
            (Type::Vector(..), Type::Vector(..)) => {
                self.error(
                    op_location,
                    format!(
                        "implicit conversions between vector types ('{}' and '{}') are not permitted",
                        self.display(a.ty),
                        self.display(b.ty)
                    ),
                );
                return Type::Error;
            }
            (x, y) if x.is_error() || y.is_error() => return Type::Error,
            _ => {
                self.invalid_operands(op_location, &a.ty, op, &b.ty);
                return Type::Error;
            }
        };
        self.widen_in_place(a, common);
        self.widen_in_place(b, common);
        common
    }

    /// [`Self::widen`] of a value in place.
    #[inline]
    fn widen_in_place(&mut self, v: &mut Expr, to: Type) {
        if v.ty != to {
            let placeholder = Expr::new(H::Int(0), Type::Void, v.span);
            let value = std::mem::replace(v, placeholder);
            *v = self.widen_value(value, to);
        }
    }

    #[inline]
    pub(super) fn widen(&mut self, v: Expr, to: Type) -> Expr {
        if v.ty == to {
            return v;
        }
        self.widen_value(v, to)
    }

    fn widen_value(&mut self, v: Expr, to: Type) -> Expr {
        match (v.ty, to) {
            // An integer where a built-in takes an `event_t` (the usual
            // `0` for "no event to join"): overload resolution allowed it.
            (Type::Scalar(s), Type::Opaque(crate::types::Opaque::Event)) if s.is_integer() => {
                let location = v.span;
                Expr::new(H::Int(0), to, location)
            }
            // A literal sampler passed straight to a built-in.
            (Type::Scalar(s), Type::Opaque(types::Opaque::Sampler)) if s.is_integer() => {
                self.sampler_from_integer(v)
            }
            (Type::Scalar(_), Type::Vector(s, _)) => {
                let v = self.convert(v, Type::Scalar(s));
                let location = v.span;
                Expr::new(H::Splat(Box::new(v)), to, location)
            }
            _ => self.convert(v, to),
        }
    }

    /// The type of a comparison or logical operation on operands of type
    /// `ty`: lane masks for vectors; for scalars `int` in C, `bool` in C++.
    pub(super) fn comparison_type(&self, ty: Type) -> Type {
        match ty {
            Type::Vector(s, n) => Type::Vector(s.to_signed_int(), n),
            _ => self.truth_type(),
        }
    }

    /// C++'s `nullptr`: a null pointer constant, as `(void *)0` is in C,
    /// which converts to a pointer into any address space.
    fn null_pointer_constant(&mut self, span: Span) -> Expr {
        let ty = self.pointer_to(Pointee {
            ty: Type::Void,
            is_const: false,
            is_volatile: false,
            space: AddressSpace::Generic,
            endian_host: false,
        });
        Expr::new(H::Int(0), ty, span)
    }

    /// What a scalar comparison or logical operation gives.
    pub(super) fn truth_type(&self) -> Type {
        if self.cxx {
            Type::BOOL
        } else {
            Type::INT
        }
    }

    /// Checks expression `e`. Its tree spans `e`'s text, its caret where
    /// diagnostics about it point: where the operation built it put it, or
    /// where that of the operand that stands for all of it (`+x`, a cast to
    /// the operand's own type) has it.
    pub(super) fn expr(&mut self, e: &ast::Expr) -> Expr {
        let span = e.span();
        self.expr_depth += 1;
        let v = crate::stack::guard_at(self.expr_depth, || self.operation(e, span));
        self.expr_depth -= 1;
        let mut v = v;
        // The caret is inside `span` already, the parser's ranges holding
        // the operands of their own file.
        if v.span.file == span.file {
            v.span = Span {
                caret: v.span.caret,
                ..span
            };
        }
        v
    }

    fn operation(&mut self, e: &ast::Expr, span: Span) -> Expr {
        match &e.kind {
            A::IntLiteral(text) => match literal::parse_int(self.text(*text)) {
                Ok((value, s)) => self.int_const(value, Type::Scalar(s), span),
                Err(msg) => {
                    self.literal_error(span.location(), msg);
                    self.int_const(0, Type::INT, span)
                }
            },
            A::FloatLiteral(text) => {
                let double = self.caps.float64 && !self.single_precision_constants;
                match literal::parse_float(self.text(*text), double) {
                    Ok((value, s)) => {
                        if s == Scalar::Half && !self.caps.float16 {
                            self.error(span, "half literals need cl_khr_fp16, which this device does not support");
                        }
                        Expr::new(H::Float(value), Type::Scalar(s), span)
                    }
                    Err(msg) => {
                        self.literal_error(span.location(), msg);
                        Expr::new(H::Float(0.0), Type::FLOAT, span)
                    }
                }
            }
            // A `char` in C++, an `int` in C.
            A::CharLiteral(text) => match literal::parse_char(self.text(*text)) {
                Ok(v) if self.cxx => {
                    self.int_const(literal::wrap(v.into(), Scalar::Char), Type::CHAR, span)
                }
                Ok(v) => self.int_const(v as u32 as u64, Type::INT, span),
                Err(msg) => {
                    self.literal_error(span.location(), msg);
                    self.int_const(0, Type::INT, span)
                }
            },
            A::BoolLiteral(value) => self.int_const(u64::from(*value), Type::BOOL, span),
            A::Nullptr => self.null_pointer_constant(span),
            A::This => self.this_expr(span),
            A::Qualified(class, None, name) if self.enumerators.contains_key(class) => {
                self.qualified_enumerator(*class, *name, span)
            }
            A::Qualified(class, template_args, name) => {
                match self.qualified_static_member(
                    *class,
                    template_args.as_deref(),
                    *name,
                    e.location,
                ) {
                    Some(Symbol::Global(id)) => {
                        let ty = self.program.globals[id].ty;
                        Expr::new(H::Global(id), ty, span)
                    }
                    _ => {
                        self.error(span, "function designators are only allowed in calls");
                        Expr::new(H::Int(0), Type::Error, span)
                    }
                }
            }
            A::TemplateId(..) => {
                self.error(span, "function designators are only allowed in calls");
                Expr::new(H::Int(0), Type::Error, span)
            }
            A::StringLiteral(text) => match literal::parse_string(text) {
                Ok(bytes) => {
                    let ty = self.array_of(Type::Scalar(Scalar::Char), bytes.len() as u64 + 1);
                    Expr::new(H::Str(bytes), ty, span)
                }
                Err(msg) => {
                    self.literal_error(span.location(), msg);
                    Expr::new(H::Int(0), Type::Error, span)
                }
            },
            A::Ident(name) if self.below_local_floor(*name) => {
                let spelling = self.spelling(*name);
                self.error(
                    span,
                    format!("variable '{spelling}' of the enclosing function cannot be used in a lambda without being captured"),
                );
                Expr::new(H::Int(0), Type::Error, span)
            }
            A::Lambda(l) if self.current.is_some() => self.lambda(l, span),
            A::Lambda(l) => {
                let not_yet = crate::language::NOT_YET;
                self.error(
                    l.location,
                    format!("lambdas at program scope are {not_yet}"),
                );
                Expr::new(H::Int(0), Type::Error, span)
            }
            A::Ident(name) => match self.lookup(*name) {
                Some(Symbol::Local(id)) => {
                    let ty = self
                        .current
                        .as_ref()
                        .map_or(Type::Error, |f| f.locals[id].ty);
                    let local = Expr::new(H::Local(id), ty, span);
                    if self.is_reference(id) {
                        // A reference names its referent.
                        return self.deref(local, span);
                    }
                    local
                }
                Some(Symbol::Place(place)) => {
                    let mut place = (*place).clone();
                    place.span = span;
                    place
                }
                Some(Symbol::EnumConstant(v, Scalar::Int)) => {
                    self.int_const(v as u32 as u64, Type::INT, span)
                }
                Some(Symbol::EnumConstant(v, scalar)) => {
                    self.int_const(v as u64, Type::Scalar(scalar), span)
                }
                Some(Symbol::Global(id)) => {
                    let ty = self.program.globals[id].ty;
                    Expr::new(H::Global(id), ty, span)
                }
                Some(Symbol::Sampler(word)) => Expr::new(
                    H::Int(u64::from(word)),
                    Type::Opaque(types::Opaque::Sampler),
                    span,
                ),
                Some(Symbol::ClassTemplate) => {
                    let name = self.spelling(*name);
                    self.error(
                        span,
                        format!("use of class template '{name}' requires template arguments"),
                    );
                    Expr::new(H::Int(0), Type::Error, span)
                }
                Some(Symbol::Function(_) | Symbol::FunctionTemplate) => {
                    self.error(span, "function designators are only allowed in calls");
                    Expr::new(H::Int(0), Type::Error, span)
                }
                Some(Symbol::Member) => self.implicit_member(*name, span),
                Some(Symbol::Pack(_)) => {
                    let name = self.spelling(*name);
                    self.error(
                        span,
                        format!("expression contains unexpanded parameter pack '{name}'"),
                    );
                    Expr::new(H::Int(0), Type::Error, span)
                }
                Some(Symbol::Method) => {
                    self.error(
                        span,
                        "reference to non-static member function must be called",
                    );
                    Expr::new(H::Int(0), Type::Error, span)
                }
                Some(Symbol::Typedef(..)) => {
                    let name = self.spelling(*name);
                    self.error(
                        span,
                        format!("unexpected type name '{name}': expected expression"),
                    );
                    Expr::new(H::Int(0), Type::Error, span)
                }
                // Tags live under keys no identifier spells.
                None | Some(Symbol::Tag(_) | Symbol::EnumTag(_)) => {
                    let message = crate::diagnostic::undeclared(&self.spelling(*name));
                    self.error(span, message);
                    Expr::new(H::Int(0), Type::Error, span)
                }
            },
            A::Unary(op, x) => self.unary(*op, x, span),
            A::Binary(op, operands) => {
                let (a, b) = &**operands;
                let (a, b) = (self.expr(a), self.expr(b));
                if self.overloads_operator(&[&a, &b]) {
                    return self.overloaded_operator(op.spelling(), vec![a, b], span);
                }
                let (a, b) = (self.decay(a), self.decay(b));
                self.binary(*op, a, b, span)
            }
            A::Assign(Some(op), operands) if self.cxx => {
                let (target, value) = &**operands;
                let (target, value) = (self.expr(target), self.expr(value));
                if self.overloads_operator(&[&target]) {
                    let op = format!("{}=", op.spelling());
                    return self.overloaded_operator(&op, vec![target, value], span);
                }
                self.require_modifiable(&target, span.location());
                let value = self.decay(value);
                self.compound_assign(*op, target, value, span)
            }
            A::Assign(op, operands) => {
                let (target, value) = &**operands;
                let target = self.expr(target);
                self.require_modifiable(&target, span.location());
                let value = self.rvalue(value);
                match op {
                    None if self.cxx && matches!(target.ty, Type::Record(_)) => {
                        self.assign_to_object(target, value, span)
                    }
                    None => {
                        let ty = target.ty;
                        let value = self.convert_for_assignment(
                            value,
                            ty,
                            Conversion::Assign(span.location()),
                        );
                        Expr::new(H::Assign(Box::new(target), Box::new(value)), ty, span)
                    }
                    Some(op) => self.compound_assign(*op, target, value, span),
                }
            }
            A::Conditional(operands) => {
                let (c, a, b) = &**operands;
                let c = self.rvalue(c);
                let a = self.rvalue(a);
                let b = self.rvalue(b);
                if let Type::Vector(..) = c.ty {
                    return self.vector_conditional(c, a, b, span);
                }
                let c = self.scalar_condition(c, span.location());
                if [&a, &b]
                    .iter()
                    .any(|v| v.ty.image().is_some() || v.ty.is_sampler())
                {
                    let message = format!(
                        "operands of types '{}' and '{}' cannot be used with '?:' in OpenCL",
                        self.display(a.ty),
                        self.display(b.ty)
                    );
                    self.error(span, message);
                    return Expr::new(H::Int(0), Type::Error, span);
                }
                let is_null = |e: &Expr| matches!(e.kind, H::Int(0));
                let (a, b, ty) = if a.ty.is_arithmetic() && b.ty.is_arithmetic() {
                    let (mut a, mut b) = (a, b);
                    let ty = self.arithmetic_operands(&mut a, &mut b, span.location(), ":");
                    (a, b, ty)
                } else if matches!(a.ty, Type::Pointer(_)) && is_null(&b) {
                    // A null pointer constant takes the other side's type.
                    let ty = a.ty;
                    let b = Expr::new(H::Int(0), ty, b.span);
                    (a, b, ty)
                } else if matches!(b.ty, Type::Pointer(_)) && is_null(&a) {
                    let ty = b.ty;
                    let a = Expr::new(H::Int(0), ty, a.span);
                    (a, b, ty)
                } else if a.ty == b.ty || a.ty.is_error() {
                    let ty = b.ty;
                    (a, b, ty)
                } else if let Some(ty) = self.generic_common_pointer(a.ty, b.ty) {
                    // OpenCL C 6.5.15: a pointer into a named space and a
                    // generic one meet in the generic space.
                    let a = self.convert_for_assignment(a, ty, Conversion::Assign(span.location()));
                    let b = self.convert_for_assignment(b, ty, Conversion::Assign(span.location()));
                    (a, b, ty)
                } else {
                    let spaces = |t: Type| match t {
                        Type::Pointer(p) => Some(self.program.types[p].space),
                        _ => None,
                    };
                    let message = match (spaces(a.ty), spaces(b.ty)) {
                        (Some(x), Some(y)) if x != y => format!(
                            // clang's words, its double space included.
                            "conditional operator with the second and third operands of type  ('{}' and '{}') which are pointers to non-overlapping address spaces",
                            self.display(a.ty),
                            self.display(b.ty)
                        ),
                        _ => format!(
                            "incompatible operand types ('{}' and '{}')",
                            self.display(a.ty),
                            self.display(b.ty)
                        ),
                    };
                    self.error(span, message);
                    (a, b, Type::Error)
                };
                Expr::new(
                    H::Conditional(Box::new(c), Box::new(a), Box::new(b)),
                    ty,
                    span,
                )
            }
            A::Comma(operands) => {
                let (a, b) = &**operands;
                let a = self.expr(a);
                let b = self.rvalue(b);
                let ty = b.ty;
                Expr::new(H::Comma(Box::new(a), Box::new(b)), ty, span)
            }
            A::Call(callee, args, rparen) => self.call(callee, args, span, e.at(*rparen)),
            A::Index(operands) => {
                let (base, index) = &**operands;
                let base = self.expr(base);
                if self.overloads_operator(&[&base]) {
                    let index = self.expr(index);
                    return self.overloaded_operator("[]", vec![base, index], span);
                }
                let index = self.rvalue(index);
                self.index(base, index, span)
            }
            A::Member {
                base,
                name,
                name_location,
                arrow,
            } => {
                let base = if *arrow {
                    let p = self.rvalue(base);
                    self.deref(p, span)
                } else {
                    self.expr(base)
                };
                let name = self.spelling(*name);
                self.member(base, &name, span, *name_location)
            }
            A::Cast(t, x) if t.declarator.reference.is_some() => self.reference_cast(t, x, span),
            A::Cast(t, x) => {
                let to = self.type_name(t);
                if to.is_integer() {
                    if let A::Unary(ast::UnaryOp::AddressOf, place) = &x.kind {
                        if let Some((ty, offset)) = self.null_based_place(place) {
                            return if ty.is_error() {
                                Expr::new(H::Int(0), Type::Error, span)
                            } else {
                                self.int_const(offset, to, span)
                            };
                        }
                    }
                }
                let v = self.rvalue(x);
                self.cast(v, to, span)
            }
            A::VectorLiteral(t, parts, parts_location) => {
                let to = self.type_name(t);
                self.vector_literal(to, parts, span, e.at(*parts_location))
            }
            A::BracedList(_) => {
                self.error(span, "an initializer list is only supported after 'return' and as a function's argument by clvulkan's C++ for OpenCL yet");
                Expr::new(H::Int(0), Type::Error, span)
            }
            A::CompoundLiteral(t, init) => {
                let (ty, space) = self.type_name_and_space(t);
                self.compound_literal(ty, space, init, span)
            }
            A::SizeofExpr(x) => {
                let v = self.expr(x);
                self.size_of(v.ty, span)
            }
            A::SizeofType(t) => {
                let ty = self.type_name(t);
                self.size_of(ty, span)
            }
            A::AlignofType(t) => {
                let ty = self.type_name(t);
                let a = self.program.types.align(ty).unwrap_or(1);
                self.int_const(a, Type::Scalar(self.size_type(false)), span)
            }
            A::Offsetof(t, steps) => match self.offset_of(t, steps, span) {
                Some(offset) => offset,
                None => Expr::new(H::Int(0), Type::Error, span),
            },
            A::AlignofExpr(x) => {
                let a = self.align_of_expr(x).unwrap_or(1);
                self.int_const(a, Type::Scalar(self.size_type(false)), span)
            }
            A::VecStepExpr(x) => {
                let v = self.expr(x);
                self.vec_step(v.ty, span)
            }
            A::VecStepType(t) => {
                let ty = self.type_name(t);
                self.vec_step(ty, span)
            }
            A::PackElement(pattern, index) => self.pack_element(pattern, *index as usize, span),
            A::PackExpansion(_) => {
                let not_yet = crate::language::NOT_YET;
                self.error(
                    span,
                    format!(
                        "pack expansions other than in call and template arguments are {not_yet}"
                    ),
                );
                Expr::new(H::Int(0), Type::Error, span)
            }
            A::SizeofPack(name, at) => self.sizeof_pack(*name, *at, span),
            A::Fold(fold) => self.fold(fold, span),
            A::New(new) => self.placement_new(new, span),
            A::MemberTemplateId(_) => {
                self.error(
                    span,
                    "reference to non-static member function must be called",
                );
                Expr::new(H::Int(0), Type::Error, span)
            }
        }
    }

    /// Reports a malformed literal at the offending character.
    pub(super) fn literal_error(&mut self, location: Location, e: literal::LiteralError) {
        let mut at = location;
        at.offset += e.offset;
        self.error(at, e.message);
    }

    pub(super) fn size_of(&mut self, ty: Type, span: Span) -> Expr {
        let size = match self.type_size(ty) {
            Some(s) => s,
            None => {
                if !ty.is_error() {
                    self.error(
                        span,
                        format!(
                            "invalid application of 'sizeof' to an incomplete type '{}'",
                            self.display(ty)
                        ),
                    );
                }
                1
            }
        };
        self.int_const(size, Type::Scalar(self.size_type(false)), span)
    }

    pub(super) fn vec_step(&mut self, ty: Type, span: Span) -> Expr {
        let n = match ty {
            Type::Scalar(_) => 1,
            Type::Vector(_, n) => u64::from(types::storage_lanes(n)),
            _ => {
                self.error(span, "vec_step requires a scalar or vector type");
                1
            }
        };
        self.int_const(n, Type::INT, span)
    }

    pub(super) fn require_modifiable(&mut self, target: &Expr, location: Location) {
        if target.ty.is_error() {
            return;
        }
        let is_place = |e: &Expr| {
            matches!(
                e.kind,
                H::Local(_) | H::Global(_) | H::Index(..) | H::Deref(_) | H::Member(..)
            )
        };
        let ok = match &target.kind {
            H::Swizzle(..) => {
                // Swizzles of swizzles (`v.hi.lo`) reach lanes of the
                // innermost vector; every level must name distinct lanes.
                let mut e = target;
                while let H::Swizzle(base, lanes) = &e.kind {
                    let mut seen = 0u32;
                    let unique = lanes.iter().all(|&l| {
                        let fresh = seen & (1 << l) == 0;
                        seen |= 1 << l;
                        fresh
                    });
                    if !unique {
                        self.error(
                            location,
                            "vector is not assignable (contains duplicate components)",
                        );
                        return;
                    }
                    e = base;
                }
                is_place(e)
            }
            _ => is_place(target),
        };
        if !ok {
            self.error(location, "expression is not assignable");
            return;
        }
        if let Type::Array(..) = target.ty {
            self.error(
                location,
                format!("array type '{}' is not assignable", self.display(target.ty)),
            );
            return;
        }
        // Images and samplers are handles the kernel is given, not values
        // it may change.
        if target.ty.image().is_some() || target.ty.is_sampler() {
            self.error(
                location,
                format!("'{}' is not assignable", self.display(target.ty)),
            );
            return;
        }
        // A const variable is named; anything reached through a pointer or
        // in the constant space is "read-only" (clang's wording).
        let const_variable = match &target.kind {
            H::Local(id) => self
                .current
                .as_ref()
                .map(|f| &f.locals[*id])
                .filter(|l| l.is_const && l.space != AddressSpace::Constant)
                .map(|l| (self.program.names[l.name].to_string(), self.display(l.ty))),
            _ => None,
        };
        if let Some((name, ty)) = const_variable {
            self.error(
                location,
                format!(
                    "cannot assign to variable '{name}' with const-qualified type 'const {ty}'"
                ),
            );
        } else if self.is_read_only(target) {
            self.error(location, "read-only variable is not assignable");
        }
    }

    /// The address space a place is in: where `&place` points.
    pub(super) fn place_space(&self, place: &Expr) -> AddressSpace {
        match &place.kind {
            H::Local(id) => self
                .current
                .as_ref()
                .map_or(AddressSpace::Private, |f| f.locals[*id].space),
            H::Global(id) => self.program.globals[*id].space,
            H::Index(base, _) if matches!(base.ty, Type::Array(..)) => self.place_space(base),
            H::Index(base, _) | H::Deref(base) => self
                .pointee(base.ty)
                .map_or(AddressSpace::Private, |p| p.space),
            H::Member(base, _) | H::Swizzle(base, _) => self.place_space(base),
            // A compound literal's object (see `compound_literal`).
            H::Comma(_, object) => self.place_space(object),
            // A string literal is a `__constant char` array.
            H::Str(_) => AddressSpace::Constant,
            _ => AddressSpace::Private,
        }
    }

    /// Is a place `const` or in the constant address space, through any of
    /// the variables, members, elements and pointers it is reached by?
    pub(super) fn is_read_only(&self, place: &Expr) -> bool {
        match &place.kind {
            H::Local(id) => self.current.as_ref().is_some_and(|f| {
                let l = &f.locals[*id];
                l.is_const || l.space == AddressSpace::Constant
            }),
            H::Global(id) => self.program.globals[*id].space == AddressSpace::Constant,
            H::Str(_) => true,
            H::Index(base, _) if matches!(base.ty, Type::Array(..)) => self.is_read_only(base),
            H::Index(base, _) | H::Deref(base) => self
                .pointee(base.ty)
                .is_some_and(|p| p.is_const || p.space == AddressSpace::Constant),
            // C++: a `mutable` member of a `const` object may change,
            // unless the object is in the constant space.
            H::Member(base, field) if self.is_mutable(base, *field) => self.in_constant_space(base),
            H::Member(base, _) | H::Swizzle(base, _) => self.is_read_only(base),
            _ => false,
        }
    }

    /// Whether member `field` of `object` is declared `mutable`.
    fn is_mutable(&self, object: &Expr, field: usize) -> bool {
        matches!(object.ty, Type::Record(r) if self.mutable_fields.contains(&(r, field)))
    }

    /// Whether a place is in the constant address space.
    fn in_constant_space(&self, place: &Expr) -> bool {
        match &place.kind {
            H::Local(id) => (self.current.as_ref())
                .is_some_and(|f| f.locals[*id].space == AddressSpace::Constant),
            H::Global(id) => self.program.globals[*id].space == AddressSpace::Constant,
            H::Str(_) => true,
            H::Index(base, _) if matches!(base.ty, Type::Array(..)) => self.in_constant_space(base),
            H::Index(base, _) | H::Deref(base) => {
                (self.pointee(base.ty)).is_some_and(|p| p.space == AddressSpace::Constant)
            }
            H::Member(base, _) | H::Swizzle(base, _) => self.in_constant_space(base),
            _ => false,
        }
    }

    /// Whether a place is `const`-qualified, through the variables,
    /// members, elements and pointers it is reached by: what a pointer to
    /// it points to. Unlike [`Self::is_read_only`], the constant address
    /// space is not `const` (clang's types do not make it so: `&g.m` of a
    /// `__constant` struct is a `__constant int *`, and so is a string
    /// literal decayed).
    pub(super) fn is_const_qualified(&self, place: &Expr) -> bool {
        match &place.kind {
            H::Local(id) => self
                .current
                .as_ref()
                .is_some_and(|f| f.locals[*id].is_const),
            H::Index(base, _) if matches!(base.ty, Type::Array(..)) => {
                self.is_const_qualified(base)
            }
            H::Index(base, _) | H::Deref(base) => self.pointee(base.ty).is_some_and(|p| p.is_const),
            // C++: a `mutable` member of a `const` object may change.
            H::Member(base, field) if self.is_mutable(base, *field) => false,
            H::Member(base, _) | H::Swizzle(base, _) | H::Comma(_, base) => {
                self.is_const_qualified(base)
            }
            _ => false,
        }
    }

    pub(super) fn unary(&mut self, op: ast::UnaryOp, x: &ast::Expr, span: Span) -> Expr {
        use ast::UnaryOp as U;
        match op {
            U::PreInc | U::PreDec | U::PostInc | U::PostDec => {
                let target = self.expr(x);
                if self.overloads_operator(&[&target]) {
                    // `operator++()` for `++x`; `operator++(int)`, given
                    // a 0 it ignores, for `x++`.
                    let name = if matches!(op, U::PreInc | U::PostInc) {
                        "++"
                    } else {
                        "--"
                    };
                    let mut operands = vec![target];
                    if matches!(op, U::PostInc | U::PostDec) {
                        operands.push(self.int_const(0, Type::INT, span));
                    }
                    return self.overloaded_operator(name, operands, span);
                }
                self.require_modifiable(&target, span.location());
                if !target.ty.is_arithmetic()
                    && !matches!(target.ty, Type::Pointer(_))
                    && !target.ty.is_error()
                {
                    self.error(
                        span,
                        format!(
                            "cannot increment value of type '{}'",
                            self.display(target.ty)
                        ),
                    );
                }
                let ty = target.ty;
                Expr::new(
                    H::IncDec {
                        target: Box::new(target),
                        increment: matches!(op, U::PreInc | U::PostInc),
                        prefix: matches!(op, U::PreInc | U::PreDec),
                    },
                    ty,
                    span,
                )
            }
            U::Deref => {
                let p = self.rvalue(x);
                self.deref(p, span)
            }
            U::AddressOf => {
                let objects = std::mem::replace(&mut self.literal_objects, true);
                let v = self.expr(x);
                self.literal_objects = objects;
                if let H::Swizzle(..) = v.kind {
                    self.error(span, "address of vector element requested");
                } else if !self.is_place(&v) && !v.ty.is_error() {
                    let message = format!(
                        "cannot take the address of an rvalue of type '{}'",
                        self.display(v.ty)
                    );
                    self.error(span, message);
                }
                self.address_of_place(v, span)
            }
            U::Plus | U::Minus | U::BitNot | U::Not if self.cxx => {
                let v = self.expr(x);
                // `!obj` of a class converting to `bool` without its own
                // `operator!`: the conversion's, negated.
                let own_not = self.quietly(|c| {
                    let name = c
                        .names
                        .rfind(&crate::language::operator_name("!"))
                        .map(Name);
                    match (name, v.ty) {
                        (Some(name), Type::Record(r)) => {
                            c.class_methods(r, name).is_some()
                                || matches!(c.lookup(name), Some(Symbol::Function(_)))
                        }
                        _ => false,
                    }
                });
                if op == U::Not && !own_not && self.converts_by_function(v.ty, Type::BOOL) {
                    let v = self
                        .convert_by_function(v, Type::BOOL)
                        .expect("a conversion function");
                    return self.arithmetic_unary(op, v, span);
                }
                if self.overloads_operator(&[&v]) {
                    let spelling = match op {
                        U::Plus => "+",
                        U::Minus => "-",
                        U::BitNot => "~",
                        _ => "!",
                    };
                    return self.overloaded_operator(spelling, vec![v], span);
                }
                let v = self.decay(v);
                self.arithmetic_unary(op, v, span)
            }
            U::Plus | U::Minus | U::BitNot | U::Not => {
                let v = self.rvalue(x);
                self.arithmetic_unary(op, v, span)
            }
        }
    }

    /// `+v`, `-v`, `~v` or `!v` on a value of a built-in type.
    fn arithmetic_unary(&mut self, op: ast::UnaryOp, v: Expr, span: Span) -> Expr {
        use ast::UnaryOp as U;
        match op {
            U::Plus | U::Minus | U::BitNot => {
                let ok = match op {
                    U::BitNot => v.ty.is_integer(),
                    _ => v.ty.is_arithmetic(),
                };
                if !ok {
                    if !v.ty.is_error() {
                        self.error(
                            span,
                            format!(
                                "invalid argument type '{}' to unary expression",
                                self.display(v.ty)
                            ),
                        );
                    }
                    return v;
                }
                let ty = match v.ty {
                    Type::Scalar(s) => Type::Scalar(promote(s)),
                    t => t,
                };
                let v = self.convert(v, ty);
                match op {
                    U::Plus => v,
                    U::Minus => self.fold_or(H::Unary(hir::UnaryOp::Negate, Box::new(v)), ty, span),
                    _ => self.fold_or(H::Unary(hir::UnaryOp::BitNot, Box::new(v)), ty, span),
                }
            }
            _ => {
                if !matches!(v.ty, Type::Scalar(_) | Type::Vector(..) | Type::Pointer(_))
                    && !v.ty.is_error()
                {
                    self.error(
                        span,
                        format!(
                            "invalid argument type '{}' to unary expression",
                            self.display(v.ty)
                        ),
                    );
                }
                let ty = self.comparison_type(v.ty);
                Expr::new(H::Unary(hir::UnaryOp::LogicalNot, Box::new(v)), ty, span)
            }
        }
    }

    /// Folds negation and complement of integer constants (so `-1` is a
    /// literal); otherwise builds the node.
    pub(super) fn fold_or(&mut self, kind: tree::Kind, ty: Type, span: Span) -> Expr {
        if let H::Unary(op, v) = &kind {
            if let (&H::Int(bits), Some(s)) = (&v.kind, ty.scalar()) {
                let value = literal::sign_extend(bits, s);
                let folded = match op {
                    hir::UnaryOp::Negate => value.wrapping_neg(),
                    _ => !value,
                };
                return self.int_const(literal::wrap(folded, s), ty, span);
            }
            if let (H::Float(f), hir::UnaryOp::Negate) = (&v.kind, op) {
                return Expr::new(H::Float(-f), ty, span);
            }
        }
        Expr::new(kind, ty, span)
    }

    pub(super) fn binary(&mut self, op: BinaryOp, mut a: Expr, mut b: Expr, span: Span) -> Expr {
        use BinaryOp::*;
        if a.ty.is_error() || b.ty.is_error() {
            return Expr::new(H::Int(0), Type::Error, span);
        }
        match op {
            LogicalAnd | LogicalOr
                if matches!(a.ty, Type::Vector(..)) || matches!(b.ty, Type::Vector(..)) =>
            {
                // Vectors: lane by lane, both operands evaluated (OpenCL C
                // 6.3.h), -1/0 in the signed integer vector of the lanes'
                // size.
                let ty = self.arithmetic_operands(&mut a, &mut b, span.location(), op.spelling());
                if ty.is_error() {
                    return Expr::new(H::Int(0), ty, span);
                }
                let result = self.comparison_type(ty);
                return Expr::new(H::Logical(op, Box::new(a), Box::new(b)), result, span);
            }
            LogicalAnd | LogicalOr => {
                for v in [&a, &b] {
                    if !matches!(v.ty, Type::Scalar(_) | Type::Pointer(_)) {
                        self.error(
                            v.span,
                            "operands of '&&' and '||' must be scalars, pointers or vectors",
                        );
                    }
                }
                let ty = self.truth_type();
                return Expr::new(H::Logical(op, Box::new(a), Box::new(b)), ty, span);
            }
            Add | Sub if matches!(a.ty, Type::Pointer(_)) && b.ty.is_integer() => {
                let b = if op == Sub {
                    let ty = b.ty;
                    self.fold_or(H::Unary(hir::UnaryOp::Negate, Box::new(b)), ty, span)
                } else {
                    b
                };
                let ty = a.ty;
                return Expr::new(H::PointerOffset(Box::new(a), Box::new(b)), ty, span);
            }
            Add if a.ty.is_integer() && matches!(b.ty, Type::Pointer(_)) => {
                let ty = b.ty;
                return Expr::new(H::PointerOffset(Box::new(b), Box::new(a)), ty, span);
            }
            _ => {}
        }
        if matches!(a.ty, Type::Pointer(_)) || matches!(b.ty, Type::Pointer(_)) {
            return self.pointer_binary(op, a, b, span);
        }
        if matches!(op, Shl | Shr) {
            // The result has the promoted left operand's type; the right
            // operand is converted to it (OpenCL C 6.3.j).
            if !a.ty.is_integer() || !b.ty.is_integer() {
                return self.invalid_operands(span, &a.ty, op.spelling(), &b.ty);
            }
            let ty = match a.ty {
                Type::Scalar(s) => Type::Scalar(promote(s)),
                t => t,
            };
            let a = self.convert(a, ty);
            let b = match (&ty, &b.ty) {
                (Type::Vector(s, _), Type::Scalar(_)) => self.widen(b, Type::Scalar(*s)),
                _ => b,
            };
            let b = self.widen(b, ty);
            return Expr::new(H::Binary(op, Box::new(a), Box::new(b)), ty, span);
        }
        if matches!(op, Rem | BitAnd | BitOr | BitXor) && !(a.ty.is_integer() && b.ty.is_integer())
        {
            return self.invalid_operands(span, &a.ty, op.spelling(), &b.ty);
        }
        let ty = self.arithmetic_operands(&mut a, &mut b, span.location(), op.spelling());
        if ty.is_error() {
            return Expr::new(H::Int(0), ty, span);
        }
        let result = if op.is_comparison() {
            self.comparison_type(ty)
        } else {
            ty
        };
        Expr::new(H::Binary(op, Box::new(a), Box::new(b)), result, span)
    }

    /// Comparisons and differences of pointers (C99 6.5.6, 6.5.8, 6.5.9):
    /// both into the same address space, or a pointer and a null constant.
    pub(super) fn pointer_binary(&mut self, op: BinaryOp, a: Expr, b: Expr, span: Span) -> Expr {
        let is_null = |e: &Expr| matches!(e.kind, H::Int(0));
        let (pa, pb) = (self.pointee(a.ty), self.pointee(b.ty));
        let compatible = match (&pa, &pb) {
            _ if is_null(&a) || is_null(&b) => true,
            (Some(x), Some(y)) => {
                x.space == y.space
                    || x.space == AddressSpace::Generic
                    || y.space == AddressSpace::Generic
            }
            (Some(_), None) => is_null(&b),
            (None, Some(_)) => is_null(&a),
            (None, None) => false,
        };
        let ty = match op {
            _ if !compatible => None,
            _ if op.is_comparison() => Some(self.truth_type()),
            BinaryOp::Sub if pa.is_some() && pb.is_some() => {
                if pa.as_ref().map(|p| &p.ty) != pb.as_ref().map(|p| &p.ty) {
                    None
                } else {
                    Some(Type::Scalar(self.size_type(true)))
                }
            }
            _ => None,
        };
        match ty {
            Some(ty) => Expr::new(H::Binary(op, Box::new(a), Box::new(b)), ty, span),
            None => self.invalid_operands(span, &a.ty, op.spelling(), &b.ty),
        }
    }

    /// Reports operands an operator does not take; the result is an
    /// error placeholder.
    pub(super) fn invalid_operands(
        &mut self,
        span: impl Into<Span>,
        a: &Type,
        op: &str,
        b: &Type,
    ) -> Expr {
        let span = span.into();
        self.error(
            span,
            format!(
                "invalid operands to binary expression ('{}' {op} '{}')",
                self.display(*a),
                self.display(*b)
            ),
        );
        Expr::new(H::Int(0), Type::Error, span)
    }

    pub(super) fn compound_assign(
        &mut self,
        op: BinaryOp,
        target: Expr,
        value: Expr,
        span: Span,
    ) -> Expr {
        let ty = target.ty;
        if matches!(ty, Type::Pointer(_))
            && matches!(op, BinaryOp::Add | BinaryOp::Sub)
            && value.ty.is_integer()
        {
            // p += n is p = p + n.
            let read = target.clone();
            let sum = self.binary(op, read, value, span);
            return Expr::new(H::Assign(Box::new(target), Box::new(sum)), ty, span);
        }
        // Type-check `target op value` to find the operation type.
        let mut probe = self.binary(op, target.clone(), value, span);
        if probe.ty.is_error() {
            return probe;
        }
        let value = match probe.take_kind() {
            H::Binary(_, _, value) => value,
            kind => {
                probe.kind = kind;
                return probe;
            }
        };
        let op_ty = probe.ty;
        // `x op= v` stores `x op v` into `x` as an assignment would: a
        // vector result cannot go into a scalar (clang's words).
        if matches!(op_ty, Type::Vector(..)) && op_ty != ty {
            self.error(
                span,
                format!(
                    "assigning to '{}' from incompatible type '{}'",
                    self.display(ty),
                    self.display(op_ty)
                ),
            );
            return Expr::new(H::Int(0), Type::Error, span);
        }
        Expr::new(
            H::CompoundAssign {
                op,
                target: Box::new(target),
                value,
                op_ty,
            },
            ty,
            span,
        )
    }

    pub(super) fn deref(&mut self, p: Expr, span: Span) -> Expr {
        match p.ty {
            Type::Pointer(pointee) => {
                let pointee = self.program.types[pointee];
                if pointee.ty == Type::Void {
                    self.error(span, "dereferencing a 'void *' pointer");
                }
                let ty = pointee.ty;
                Expr::new(H::Deref(Box::new(p)), ty, span)
            }
            t if t.is_error() => p,
            t => {
                self.error(
                    span,
                    format!(
                        "indirection requires pointer operand ('{}' invalid)",
                        self.display(t)
                    ),
                );
                Expr::new(H::Int(0), Type::Error, span)
            }
        }
    }

    pub(super) fn index(&mut self, base: Expr, index: Expr, span: Span) -> Expr {
        if !index.ty.is_integer() || !matches!(index.ty, Type::Scalar(_)) {
            if !index.ty.is_error() {
                self.error(index.span, "array subscript is not an integer");
            }
            return Expr::new(H::Int(0), Type::Error, span);
        }
        let elem = match base.ty {
            Type::Array(elem, _) => self.program.types[elem],
            Type::Pointer(p) => self.program.types[p].ty,
            // A lane chosen at run time; an lvalue when the vector is one.
            Type::Vector(s, _) => Type::Scalar(s),
            t if t.is_error() => return base,
            t => {
                self.error(
                    span,
                    format!(
                        "subscripted value is not an array, pointer, or vector ('{}')",
                        self.display(t)
                    ),
                );
                return Expr::new(H::Int(0), Type::Error, span);
            }
        };
        Expr::new(H::Index(Box::new(base), Box::new(index)), elem, span)
    }

    pub(super) fn member(
        &mut self,
        base: Expr,
        name: &str,
        span: Span,
        name_location: Location,
    ) -> Expr {
        match base.ty {
            Type::Vector(s, n) => match parse_swizzle(name, s, n, self.cl_std) {
                Ok(lanes) => {
                    let ty = if lanes.len() == 1 {
                        Type::Scalar(s)
                    } else {
                        Type::Vector(s, lanes.len() as u8)
                    };
                    Expr::new(H::Swizzle(Box::new(base), lanes), ty, span)
                }
                Err(msg) => {
                    self.error(span, msg);
                    Expr::new(H::Int(0), Type::Error, span)
                }
            },
            Type::Record(r) => match self.field_path(r, name) {
                // A member of an anonymous struct or union member is that
                // member's member: one access per level.
                Some(path) => {
                    let mut e = base;
                    let mut record = r;
                    for i in path {
                        let ty = self.record(record).fields[i].ty;
                        e = Expr::new(H::Member(Box::new(e), i), ty, span);
                        if let Type::Record(inner) = ty {
                            record = inner;
                        }
                    }
                    e
                }
                None => {
                    self.error(
                        name_location,
                        format!("no member named '{name}' in '{}'", self.display(base.ty)),
                    );
                    Expr::new(H::Int(0), Type::Error, span)
                }
            },
            t if t.is_error() => base,
            t => {
                self.error(
                    span,
                    format!(
                        "member reference base type '{}' is not a structure or union",
                        self.display(t)
                    ),
                );
                Expr::new(H::Int(0), Type::Error, span)
            }
        }
    }

    pub(super) fn cast(&mut self, v: Expr, to: Type, span: Span) -> Expr {
        if v.ty.is_error() || to.is_error() {
            return v;
        }
        if self.cxx && self.converts_by_function(v.ty, to) {
            let converted = self
                .convert_by_function(v, to)
                .expect("a conversion function");
            return self.cast(converted, to, span);
        }
        match (v.ty, to) {
            (_, Type::Void) => v.with_type(Type::Void, span),
            (Type::Scalar(_), Type::Scalar(_)) => {
                let mut e = self.convert(v, to);
                e.span = span;
                e
            }
            (Type::Scalar(_), Type::Vector(..)) => self.widen(v, to),
            (Type::Vector(..), Type::Vector(..)) if v.ty == to => v,
            (Type::Vector(..), Type::Vector(..)) => {
                self.error(
                    span,
                    format!(
                        "invalid conversion between ext-vector type '{}' and '{}'",
                        self.display(v.ty),
                        self.display(to)
                    ),
                );
                Expr::new(H::Int(0), Type::Error, span)
            }
            (Type::Scalar(s), Type::Pointer(_)) if s.is_integer() => {
                if matches!(v.kind, H::Int(0)) {
                    Expr::new(H::Int(0), to, span)
                } else {
                    Expr::new(H::Convert(Box::new(v)), to, span)
                }
            }
            (Type::Pointer(_), Type::Scalar(s)) if s.is_integer() => {
                Expr::new(H::Convert(Box::new(v)), to, span)
            }
            (Type::Pointer(_), Type::Pointer(_)) if matches!(v.kind, H::Int(0)) => {
                // A null pointer constant, into any address space.
                Expr::new(H::Int(0), to, span)
            }
            (Type::Pointer(from), Type::Pointer(target)) => {
                let (from, target) = (self.program.types[from], self.program.types[target]);
                // Named address spaces are disjoint; only generic converts
                // to and from them (OpenCL C 6.7.9).
                let spaces_ok = from.space == target.space
                    || from.space == AddressSpace::Generic
                    || target.space == AddressSpace::Generic;
                if !spaces_ok {
                    self.error(
                        span,
                        format!(
                            "casting '{}' to type '{}' changes address space of pointer",
                            self.display(v.ty),
                            self.display(to)
                        ),
                    );
                }
                // A cast that drops `const` stays visible: what it points
                // at may be written through it (the analysis's `unconst`).
                let drops_const = from.is_const && !target.is_const;
                if from.ty == target.ty && !drops_const {
                    v.with_type(to, span)
                } else {
                    Expr::new(H::PointerCast(Box::new(v)), to, span)
                }
            }
            _ => {
                self.error(
                    span,
                    format!(
                        "cannot cast from '{}' to '{}'",
                        self.display(v.ty),
                        self.display(to)
                    ),
                );
                Expr::new(H::Int(0), Type::Error, span)
            }
        }
    }

    pub(super) fn vector_literal(
        &mut self,
        to: Type,
        parts: &[ast::Expr],
        span: Span,
        parts_location: Location,
    ) -> Expr {
        let Type::Vector(elem, n) = to else {
            // `(T)(a, b)` for a non-vector typedef is a cast of a comma
            // expression.
            let mut value = self.rvalue(&parts[0]);
            for p in &parts[1..] {
                let next = self.rvalue(p);
                let ty = next.ty;
                value = Expr::new(H::Comma(Box::new(value), Box::new(next)), ty, span);
            }
            return self.cast(value, to, span);
        };
        let mut lanes = 0u32;
        let mut out = Vec::new();
        for p in parts {
            let v = self.rvalue(p);
            match v.ty {
                Type::Scalar(_) => {
                    lanes += 1;
                    out.push(self.convert(v, Type::Scalar(elem)));
                }
                Type::Vector(s, m) if s == elem => {
                    lanes += u32::from(m);
                    out.push(v);
                }
                t if t.is_error() => return v,
                t => {
                    self.error(
                        v.span,
                        format!(
                            "invalid operand of type '{}' in a vector literal of '{}'",
                            self.display(t),
                            self.display(to)
                        ),
                    );
                    return Expr::new(H::Int(0), Type::Error, span);
                }
            }
        }
        if out.len() == 1 && lanes == 1 {
            let v = out.pop().expect("one part");
            return Expr::new(H::Splat(Box::new(v)), to, span);
        }
        if lanes != u32::from(n) {
            let which = if lanes < u32::from(n) { "few" } else { "many" };
            self.error(
                parts_location,
                format!("too {which} elements in vector initialization (expected {n} elements, have {lanes})"),
            );
            return Expr::new(H::Int(0), Type::Error, span);
        }
        Expr::new(H::VectorLiteral(tree::boxed(out)), to, span)
    }

    /// The overload of built-in `name` for `args`, memoised per argument
    /// types (see `Checker::builtin_cache`).
    fn resolve_builtin(
        &mut self,
        name: Name,
        args: &[Expr],
    ) -> Result<Rc<builtins::Resolved>, String> {
        let key = BuiltinCallKey::new(name, args);
        if let Some(r) = key.as_ref().and_then(|k| self.builtin_cache.get(k)) {
            return Ok(r.clone());
        }
        let types: Vec<Type> = args.iter().map(|a| a.ty).collect();
        let context = builtins::BuiltinContext {
            size_type: self.size_type(false),
            float64: self.caps.float64,
            float16: self.caps.float16,
            cl_std: self.cl_std,
            image_3d_writes: self.caps.image_3d_writes(),
            subgroups: self.caps.subgroups,
        };
        let r = builtins::resolve(
            &self.names[name.0 as usize],
            &types,
            &context,
            &mut self.program.types,
            &self.program.names,
        )?;
        let r = Rc::new(r);
        if let Some(key) = key {
            self.builtin_cache.insert(key, r.clone());
        }
        Ok(r)
    }

    pub(super) fn call(
        &mut self,
        callee: &ast::Expr,
        args: &[ast::Expr],
        span: Span,
        rparen: Location,
    ) -> Expr {
        let written: Vec<&ast::Expr> = args.iter().collect();
        // Each pack expansion among the arguments is its elements.
        let Ok(expanded) = self.expanded_argument_list(&written) else {
            return Expr::new(H::Int(0), Type::Error, span);
        };
        let expanded: Option<Vec<&ast::Expr>> = expanded.as_ref().map(|e| e.iter().collect());
        let args = expanded.as_deref().unwrap_or(&written);
        if let (
            true,
            A::Member {
                base, name, arrow, ..
            },
        ) = (self.cxx, &callee.kind)
        {
            return self.method_call(callee, base, *arrow, *name, &[], args, span, rparen);
        }
        if let A::MemberTemplateId(m) = &callee.kind {
            let (base, name) = (&m.base, m.name);
            return self.method_call(callee, base, m.arrow, name, &m.args, args, span, rparen);
        }
        if let A::Qualified(class, template_args, name) = &callee.kind {
            let at = span.with_caret(callee.location);
            let class = match template_args {
                Some(written) => self.class_template_type(*class, written, callee.location),
                None => match self.qualifying_type(*class) {
                    Some(ty) => ty,
                    None => {
                        let spelling = self.spelling(*class);
                        self.error(at, format!("use of undeclared identifier '{spelling}'"));
                        Type::Error
                    }
                },
            };
            return self.qualified_call(class, *name, args, at, rparen);
        }
        if let A::TemplateId(name, explicit) = &callee.kind {
            let at = span.with_caret(callee.location);
            if let Some(Symbol::ClassTemplate) = self.lookup(*name) {
                // `S<T>(args)`: a temporary of the instance.
                let ty = self.class_template_type(*name, explicit, callee.location);
                let Type::Record(r) = ty else {
                    return Expr::new(H::Int(0), Type::Error, span);
                };
                return self.temporary_object(r, args, span, rparen);
            }
            return self.template_call(*name, explicit, args, at, rparen);
        }
        let A::Ident(name) = &callee.kind else {
            if let Some(call) = self.call_operator(callee, args, span, rparen) {
                return call;
            }
            self.error(callee.location, "called object is not a function");
            return Expr::new(H::Int(0), Type::Error, span);
        };
        let name = *name;
        match self.lookup(name) {
            Some(Symbol::FunctionTemplate) => {
                let at = span.with_caret(callee.location);
                return self.template_call(name, &[], args, at, rparen);
            }
            Some(Symbol::Function(first)) => {
                let at = span.with_caret(callee.location);
                let candidates = self.overload_set(first);
                let Some(candidates) = self.visible_overloads(name, candidates, at) else {
                    return Expr::new(H::Int(0), Type::Error, span);
                };
                return self.user_call(name, &candidates, None, args, at, rparen);
            }
            // `S(args)`: a temporary of class `S`.
            None if self.cxx => {
                if let Some(Type::Record(r)) = self.cxx_tag_type(name) {
                    return self.temporary_object(r, args, span, rparen);
                }
            }
            // `T(args)` for a type name `T`: a temporary of a class, or a
            // functional cast (`T(0)` in a template).
            Some(Symbol::Typedef(ty, ..)) if self.cxx => {
                if let Type::Record(r) = ty {
                    return self.temporary_object(r, args, span, rparen);
                }
                if let [arg] = args {
                    let value = self.rvalue(arg);
                    return self.cast(value, ty, span);
                }
            }
            Some(Symbol::Method) => {
                let at = span.with_caret(callee.location);
                return self.implicit_method_call(name, args, at, rparen);
            }
            Some(Symbol::Local(_) | Symbol::Global(_) | Symbol::Place(_) | Symbol::Member) => {
                if let Some(call) = self.call_operator(callee, args, span, rparen) {
                    return call;
                }
            }
            _ => {}
        }
        let args: Vec<Expr> = args.iter().map(|a| self.rvalue(a)).collect();
        if args.iter().any(|a| a.ty.is_error()) {
            return Expr::new(H::Int(0), Type::Error, span);
        }
        match self.lookup(name) {
            Some(_) => {
                let ty = self.expr(callee).ty;
                let ty = self.display(ty);
                self.error(
                    span,
                    format!("called object type '{ty}' is not a function or function pointer"),
                );
                Expr::new(H::Int(0), Type::Error, span)
            }
            None if self.text(name) == "printf" => self.printf(args, span),
            None => {
                match self.resolve_builtin(name, &args) {
                    Ok(r) => {
                        let args = args
                            .into_iter()
                            .zip(&r.params)
                            .map(|(a, t)| {
                                // A pointer to another type (an output
                                // pointer, see `builtins::resolve`) converts
                                // as an argument of a function would.
                                let cast = a.ty.is_pointer() && t.is_pointer() && a.ty != *t;
                                Box::new(if cast {
                                    // At the argument's start, as clang
                                    // points there.
                                    let start = crate::diagnostic::Location {
                                        file: a.span.file,
                                        offset: a.span.start,
                                    };
                                    let at = Conversion::Argument(start);
                                    self.convert_for_assignment(a, *t, at)
                                } else {
                                    self.widen(a, *t)
                                })
                            })
                            .collect();
                        Expr::new(H::Builtin(r.builtin, args), r.result, span)
                    }
                    Err(msg) => {
                        // Missing arguments are reported at the `)`.
                        let at = if msg.starts_with("too few arguments") {
                            rparen
                        } else {
                            callee.location
                        };
                        self.error(at, msg);
                        Expr::new(H::Int(0), Type::Error, span)
                    }
                }
            }
        }
    }

    /// A call of the user function among `candidates` (overloads of one
    /// name) that the arguments pick, `span`'s caret at the function's
    /// name. A member function's `object` is the address of the object it
    /// is called on: its `this`.
    pub(super) fn user_call(
        &mut self,
        name: Name,
        candidates: &[FunctionId],
        object: Option<Expr>,
        written: &[&ast::Expr],
        span: Span,
        rparen: Location,
    ) -> Expr {
        let skip = usize::from(object.is_some());
        let args: Vec<Expr> = (written.iter().enumerate())
            .map(|(i, a)| match &a.kind {
                A::BracedList(init) => self.braced_argument(candidates, skip + i, init, a.span()),
                _ => self.expr(a),
            })
            .collect();
        self.checked_call(name, candidates, object, args, span, rparen)
    }

    /// `{...}` as argument `index` of a call of one of `candidates`: an
    /// object of the type the parameter has in each of them (`f({1, 2})`
    /// for `f(P p)` or `f(const P &p)`).
    fn braced_argument(
        &mut self,
        candidates: &[FunctionId],
        index: usize,
        init: &ast::Initializer,
        span: Span,
    ) -> Expr {
        let types: Vec<Type> = (candidates.iter())
            .filter_map(|&id| {
                let ty = *self.program.functions[id].signature.get(index)?;
                let by_reference =
                    (self.reference_params.get(&id)).is_some_and(|r| r.get(index) == Some(&true));
                Some(match by_reference {
                    true => self.pointee(ty).map_or(ty, |p| p.ty),
                    false => ty,
                })
            })
            .collect();
        match types[..] {
            [first, ..] if types.iter().all(|&ty| ty == first) => {
                self.compound_literal(first, None, init, span)
            }
            _ => {
                let not_yet = crate::language::NOT_YET;
                self.error(
                    span,
                    format!("an initializer list as an argument where the overloads' parameters differ is {not_yet}"),
                );
                Expr::new(H::Int(0), Type::Error, span)
            }
        }
    }

    /// [`Self::user_call`] with the arguments checked (not yet decayed,
    /// so that reference parameters can bind them).
    pub(super) fn checked_call(
        &mut self,
        name: Name,
        candidates: &[FunctionId],
        object: Option<Expr>,
        written: Vec<Expr>,
        span: Span,
        rparen: Location,
    ) -> Expr {
        let error = || Expr::new(H::Int(0), Type::Error, span);
        if written.iter().any(|a| a.ty.is_error()) {
            return error();
        }
        // Parameters from `skip` on take the written arguments.
        let skip = usize::from(object.is_some());
        let id = match candidates {
            [only] => *only,
            _ => {
                let mark = self.diags.len();
                let values: Vec<Expr> = (object.iter().cloned())
                    .chain(written.iter().map(|a| self.decay(a.clone())))
                    .collect();
                // The arguments convert again for the call: warn once.
                self.diags.truncate(mark);
                match self.resolve_overload(name, candidates, &values, span) {
                    Some(id) => id,
                    None => return error(),
                }
            }
        };
        if self.undeduced_returns.contains(&id) {
            let spelling = self.spelling(name);
            self.error(
                span,
                format!("function '{spelling}' with deduced return type cannot be used before it is defined"),
            );
            return error();
        }
        // Reference parameters bind their arguments themselves.
        let references = self.reference_params.get(&id).cloned();
        let by_reference = |i: usize| references.as_ref().is_some_and(|r| r.get(i) == Some(&true));
        let rvalues = self.rvalue_params.get(&id).cloned();
        let rvalue = |i: usize| rvalues.as_ref().is_some_and(|r| r.get(i) == Some(&true));
        let first_extra = written.get(
            self.program.functions[id]
                .signature
                .len()
                .saturating_sub(skip),
        );
        let too_many_at = first_extra.map(|a| Location {
            file: a.span.file,
            offset: a.span.start,
        });
        let mut args: Vec<Expr> = object.into_iter().collect();
        args.extend(written);
        let f = &self.program.functions[id];
        let param_types = f.signature.clone();
        let ret = f.ret;
        if args.len() < param_types.len() {
            let at = Span::at(rparen);
            if let Some(defaults) = self.defaulted_arguments(id, args.len(), &param_types, at) {
                args.extend(defaults);
            }
        }
        if param_types.len() != args.len() {
            // Like clang: missing arguments at the `)`, extra ones at the
            // first argument too many; `this` is not counted.
            let (which, at) = match too_many_at {
                Some(at) => ("many", at),
                None => ("few", rparen),
            };
            self.error(
                at,
                format!(
                    "too {which} arguments to function call, expected {}, have {}",
                    param_types.len() - skip,
                    args.len() - skip
                ),
            );
            return error();
        }
        let args: Vec<Box<Expr>> = (args.into_iter().zip(&param_types).enumerate())
            .map(|(i, (a, t))| {
                let at = a.span;
                Box::new(if i < skip {
                    self.this_argument(a, *t, id)
                } else if by_reference(i) {
                    // At the argument's start, where clang points.
                    let start = Location {
                        file: at.file,
                        offset: at.start,
                    };
                    self.bind_reference_to(*t, a, start, rvalue(i))
                } else {
                    let a = self.decay(a);
                    self.convert_for_assignment(a, *t, Conversion::Argument(at.location()))
                })
            })
            .collect();
        if let Some(value) = self.folded_constexpr_call(id, &args, span) {
            return value;
        }
        // Errors about the call as a whole (recursion) point at the
        // function's name.
        if let Some(state) = self.current.as_mut() {
            state.calls.push((id, span.location()));
        }
        let call = Expr::new(H::Call(id, args), ret, span);
        if self.reference_returns.contains(&id) {
            // A reference names its referent.
            return self.deref(call, span);
        }
        if self.holds_destructible(ret) {
            // The caller destroys the object returned.
            return self.materialize(call);
        }
        call
    }
}
