//! Types as written: declaration specifiers and declarators to
//! [`Type`]s, enums, and integer constant expressions (array sizes, case
//! labels, attribute arguments).

use super::scopes::Key;
use super::*;

impl Checker<'_> {
    pub(super) fn base_type(&mut self, specs: &ast::DeclSpecs) -> (Type, ast::Qualifiers) {
        let mut quals = specs.qualifiers;
        // A `constexpr` object is `const` (C++17 [dcl.constexpr]/9).
        quals.is_const |= specs.constexpr.is_some();
        let ty = match &specs.ty {
            ast::TypeSpec::None => {
                self.error(specs.location, "type specifier missing");
                Type::Error
            }
            // Local variables deduce it before they get here.
            ast::TypeSpec::Auto => {
                let not_yet = crate::language::NOT_YET;
                self.error(
                    specs.type_location,
                    format!(
                        "'auto' other than for a local variable with an initializer is {not_yet}"
                    ),
                );
                Type::Error
            }
            ast::TypeSpec::MemberType(class, name) => {
                let (ty, member_quals) = self.member_type(specs, class, *name);
                quals.is_const |= member_quals.is_const;
                quals.address_space = quals.address_space.or(member_quals.address_space);
                ty
            }
            ast::TypeSpec::Decltype(e) => {
                let (ty, space) = self.decltype(e);
                if quals.address_space.is_none() {
                    quals.address_space = space;
                }
                ty
            }
            ast::TypeSpec::Scalar(words) => self.scalar_from_words(words, specs.location),
            &ast::TypeSpec::Builtin(name)
                if self.text(name).starts_with("atomic_") && self.cl_std < (2, 0) =>
            {
                let name = self.spelling(name);
                self.error(specs.type_location, format!("unknown type name '{name}'"));
                Type::Error
            }
            &ast::TypeSpec::Builtin(name) => match types::lookup_builtin_type_name(self.text(name))
            {
                Some(BuiltinName::Scalar(s)) => Type::Scalar(s),
                Some(BuiltinName::SizeType { signed }) => Type::Scalar(self.size_type(signed)),
                Some(BuiltinName::Vector(s, n)) => Type::Vector(s, n),
                Some(BuiltinName::Opaque(o)) => Type::Opaque(o),
                None => Type::Error,
            },
            ast::TypeSpec::Typedef(name) => match self.scopes.lookup(name) {
                Some(&Symbol::Typedef(t, q, _)) => {
                    merge_typedef_qualifiers(&mut quals, q);
                    t
                }
                _ if self.cxx && self.cxx_tag_type(*name).is_some() => {
                    self.cxx_tag_type(*name).unwrap_or(Type::Error)
                }
                Some(Symbol::ClassTemplate) => {
                    let name = self.spelling(*name);
                    self.error(
                        specs.type_location,
                        format!("use of class template '{name}' requires template arguments"),
                    );
                    Type::Error
                }
                Some(Symbol::Pack(_)) => {
                    let name = self.spelling(*name);
                    self.error(
                        specs.type_location,
                        format!("type contains unexpanded parameter pack '{name}'"),
                    );
                    Type::Error
                }
                _ => {
                    let name = self.spelling(*name);
                    self.error(specs.type_location, format!("unknown type name '{name}'"));
                    Type::Error
                }
            },
            ast::TypeSpec::TemplateId(name, args) => {
                self.class_template_type(*name, args, specs.type_location)
            }
            ast::TypeSpec::Record(r) => self.record_type(r),
            ast::TypeSpec::Enum(e) => Type::Scalar(self.enum_spec(e)),
        };
        let ty = self.apply_access_qualifier(ty, specs);
        self.check_type_supported(ty, specs.location);
        if quals.is_restrict && !matches!(ty, Type::Pointer(_) | Type::Error) {
            self.error(
                specs.location,
                format!(
                    "restrict requires a pointer or reference ('{}' is invalid)",
                    self.display(ty)
                ),
            );
        }
        (ty, quals)
    }

    /// Whether type specifier `ty` names an enum.
    pub(super) fn names_enum(&self, ty: &ast::TypeSpec) -> bool {
        match ty {
            ast::TypeSpec::Enum(_) => true,
            &ast::TypeSpec::Typedef(name) => {
                matches!(self.scopes.lookup(name), None | Some(Symbol::EnumTag(_)))
                    && matches!(
                        self.scopes.lookup(Key::enum_tag(name)),
                        Some(Symbol::EnumTag(_))
                    )
            }
            _ => false,
        }
    }

    /// In C++ a struct, union or enum tag is also a type name: the type of
    /// tag `name` in scope, if there is one.
    pub(super) fn cxx_tag_type(&self, name: ast::Name) -> Option<Type> {
        let record = [ast::RecordKind::Struct, ast::RecordKind::Union]
            .into_iter()
            .find_map(|kind| match self.scopes.lookup(Key::tag(kind, name)) {
                Some(&Symbol::Tag(r)) => Some(Type::Record(r)),
                _ => None,
            });
        record.or_else(|| match self.scopes.lookup(Key::enum_tag(name)) {
            Some(&Symbol::EnumTag(scalar)) => Some(Type::Scalar(scalar)),
            _ => None,
        })
    }

    /// The class or enumeration `name` names before `::` (`S::f`,
    /// `Op::identity()` for a template parameter `Op`): its tag, else a
    /// type name (a `typedef`, an alias, a template parameter) standing for
    /// a class.
    pub(super) fn qualifying_type(&self, name: ast::Name) -> Option<Type> {
        self.cxx_tag_type(name)
            .or_else(|| match self.scopes.lookup(name) {
                Some(&Symbol::Typedef(ty @ Type::Record(_), ..)) => Some(ty),
                _ => None,
            })
    }

    /// The qualifiers `base_type` returns for `specs`, without the type.
    pub(super) fn spec_qualifiers(&self, specs: &ast::DeclSpecs) -> ast::Qualifiers {
        let mut quals = specs.qualifiers;
        if let ast::TypeSpec::Typedef(name) = &specs.ty {
            if let Some(Symbol::Typedef(_, q, _)) = self.scopes.lookup(name) {
                merge_typedef_qualifiers(&mut quals, *q);
            }
        }
        quals
    }

    /// `ty` with the image access qualifier of `specs` (`read_only` when
    /// none is written), which only image types take.
    fn apply_access_qualifier(&mut self, ty: Type, specs: &ast::DeclSpecs) -> Type {
        let Some((access, at)) = specs.access else {
            return ty;
        };
        let Some(image) = ty.image() else {
            if !ty.is_error() {
                self.error(
                    at,
                    "access qualifier can only be used for pipe and image type",
                );
            }
            return ty;
        };
        let qualified = Type::Opaque(types::Opaque::Image(types::ImageType { access, ..image }));
        let read_write_allowed =
            self.cl_std >= (2, 0) && (self.cl_std < (3, 0) || self.caps.read_write_images());
        if access == crate::image::ImageAccess::ReadWrite && !read_write_allowed {
            self.error(
                at,
                format!(
                    "access qualifier 'read_write' can not be used for '{}' prior to OpenCL C \
                     version 2.0 or in version 3.0 and without __opencl_c_read_write_images feature",
                    self.display(qualified)
                ),
            );
        }
        qualified
    }

    pub(super) fn check_type_supported(&mut self, ty: Type, location: Location) {
        if matches!(ty, Type::Opaque(o) if o.image().is_some() || o == types::Opaque::Sampler)
            && !self.caps.image_support
        {
            self.error(
                location,
                format!(
                    "use of type '{}' requires __opencl_c_images support",
                    self.display(ty)
                ),
            );
        }
        let elem = ty.element();
        if let Some(s) = elem {
            let ok = match s {
                Scalar::Long | Scalar::ULong => self.caps.int64,
                Scalar::Double => self.caps.float64,
                // Checked on the declared type: pointers to half are fine.
                _ => true,
            };
            if !ok {
                self.error(
                    location,
                    format!("type '{}' is not supported on this device", s.name()),
                );
            }
        }
    }

    pub(super) fn scalar_from_words(&mut self, w: &ast::ScalarWords, location: Location) -> Type {
        let base_count = [w.void, w.bool_, w.char_, w.half, w.float, w.double]
            .iter()
            .filter(|&&b| b)
            .count();
        let invalid = base_count > 1
            || (base_count == 1 && (w.int || w.short || w.long > 0) && !w.char_ && !w.double)
            || (w.signed && w.unsigned)
            || w.long > 1
            || (w.short && w.long > 0);
        if invalid {
            self.error(location, "invalid combination of type specifiers");
            return Type::Error;
        }
        if w.signed || w.unsigned {
            let not_integer = [
                (w.void, "void"),
                (w.bool_, "bool"),
                (w.half, "half"),
                (w.float, "float"),
                (w.double, "double"),
            ];
            if let Some((_, name)) = not_integer.iter().find(|(set, _)| *set) {
                self.error(location, format!("'{name}' cannot be signed or unsigned"));
                return Type::Error;
            }
        }
        if w.void {
            return Type::Void;
        }
        if w.bool_ {
            return Type::BOOL;
        }
        if w.half {
            return Type::Scalar(Scalar::Half);
        }
        if w.float {
            return Type::FLOAT;
        }
        if w.double {
            return Type::Scalar(Scalar::Double);
        }
        let signed = match (w.char_, w.short, w.long) {
            (true, _, _) => Scalar::Char,
            (_, true, _) => Scalar::Short,
            (_, _, 1) => Scalar::Long,
            _ => Scalar::Int,
        };
        if w.unsigned {
            Type::Scalar(signed.to_unsigned())
        } else {
            Type::Scalar(signed)
        }
    }

    /// Declares an enum's constants and tag; returns its integer type.
    /// As clang (and GCC) in C: enumerators whose values fit `int` are
    /// `int`; where some value does not, the enum's type is the first of
    /// `unsigned int` (no negative values), `long` and `unsigned long`
    /// that holds them all, and the enumerators that do not fit `int` have
    /// that type (hashcat's SHA-512 round constants are such an enum). An
    /// enum whose values all fit `int` stays `int` here (clang makes one
    /// without negative values `unsigned int`, which only its comparisons
    /// with negative numbers can tell).
    pub(super) fn enum_spec(&mut self, e: &ast::EnumSpec) -> Scalar {
        let tag = e.tag.map(scopes::Key::enum_tag);
        let Some(list) = &e.enumerators else {
            return match tag.and_then(|k| self.scopes.lookup(k)) {
                Some(&Symbol::EnumTag(scalar)) => scalar,
                _ => Scalar::Int,
            };
        };
        let mut values = Vec::with_capacity(list.len());
        let mut next = 0i128;
        for (name, value, location) in list {
            if let Some(v) = value {
                match self.const_int(v) {
                    Some(v) => next = v,
                    None => self.error(*location, "enumerator value is not an integer constant"),
                }
            }
            values.push((*name, next, *location));
            next += 1;
        }
        let fits = |v: i128, s: Scalar| match s {
            Scalar::Int => i32::try_from(v).is_ok(),
            Scalar::UInt => u32::try_from(v).is_ok(),
            Scalar::Long => i64::try_from(v).is_ok(),
            _ => u64::try_from(v).is_ok(),
        };
        let negative = values.iter().any(|&(_, v, _)| v < 0);
        let candidates: &[Scalar] = if negative {
            &[Scalar::Int, Scalar::Long]
        } else {
            &[Scalar::Int, Scalar::UInt, Scalar::ULong]
        };
        let ty = candidates
            .iter()
            .copied()
            .find(|&s| values.iter().all(|&(_, v, _)| fits(v, s)));
        // Negative values with one beyond `long`: clang takes `long` with
        // a pedantic warning only.
        let ty = ty.unwrap_or(Scalar::Long);
        // C++'s fixed underlying type, which every enumerator has.
        let fixed = match e.underlying.as_ref().map(|t| self.type_name(t)) {
            Some(Type::Scalar(s)) if s.is_integer() => Some(s),
            Some(t) if !t.is_error() => {
                let t = self.display(t);
                self.error(
                    e.location,
                    format!("non-integral type '{t}' is an invalid underlying type"),
                );
                None
            }
            _ => None,
        };
        let ty = fixed.unwrap_or(ty);
        let mut members = Vec::new();
        for (name, value, location) in values {
            let scalar = match fixed {
                Some(s) => s,
                None if fits(value, Scalar::Int) => Scalar::Int,
                None => ty,
            };
            if fixed.is_some() && !representable(value, scalar) {
                let (v, t) = (value, scalar.name());
                self.error(
                    location,
                    format!(
                        "enumerator value {v} is not representable in the underlying type '{t}'"
                    ),
                );
            }
            let value = value as i64;
            members.push((name, value, scalar));
            if e.scoped {
                continue;
            }
            match self.in_innermost(name) {
                // Linked units repeat the enums of a header they share.
                Some(Symbol::EnumConstant(v, s)) if self.linking && v == value && s == scalar => {}
                Some(_) => {
                    let name = self.spelling(name);
                    self.error(location, format!("redefinition of enumerator '{name}'"));
                }
                None => {}
            }
            self.declare(name, Symbol::EnumConstant(value, scalar));
        }
        if let Some(tag) = tag {
            self.declare(tag, Symbol::EnumTag(ty));
        }
        if let (true, Some(tag)) = (self.cxx, e.tag) {
            self.enumerators.insert(tag, members);
        }
        ty
    }

    /// `E::A`: enumerator `A` of enum `E`, as a constant.
    pub(super) fn qualified_enumerator(&mut self, class: Name, name: Name, span: Span) -> Expr {
        // An unscoped enum's enumerators in a namespace have qualified
        // names (`parse/namespaces.rs`): `ns::E::A` names `ns::A`.
        let wanted = self.spelling(name);
        let names_it = |n: &Name| {
            *n == name
                || self
                    .spelling(*n)
                    .rsplit_once("::")
                    .is_some_and(|(_, member)| member == wanted.as_ref() as &str)
        };
        let found = self
            .enumerators
            .get(&class)
            .and_then(|members| members.iter().find(|(n, _, _)| names_it(n)))
            .map(|&(_, value, scalar)| (value, scalar));
        match found {
            Some((value, scalar)) => self.int_const(value as u64, Type::Scalar(scalar), span),
            None => {
                let (member, class) = (self.spelling(name), self.spelling(class));
                self.error(span, format!("no member named '{member}' in '{class}'"));
                Expr::new(H::Int(0), Type::Error, span)
            }
        }
    }

    /// The default address space of an unqualified pointee (OpenCL C 6.7):
    /// private before 2.0, generic from 2.0 on.
    pub(super) fn default_pointee_space(&self) -> AddressSpace {
        if self.cl_std >= (2, 0) {
            AddressSpace::Generic
        } else {
            AddressSpace::Private
        }
    }

    /// Applies a declarator's derivations to a base type. Returns the type
    /// and, for functions, the parameter list.
    pub(super) fn declarator_type(
        &mut self,
        base: Type,
        quals: ast::Qualifiers,
        declarator: &ast::Declarator,
        location: Location,
    ) -> Type {
        self.derived_type(base, quals, &declarator.derived, location)
    }

    /// Applies derivations, listed from the name outwards, to a base type.
    pub(super) fn derived_type(
        &mut self,
        base: Type,
        quals: ast::Qualifiers,
        derived: &[ast::Derived],
        location: Location,
    ) -> Type {
        let mut ty = base;
        let mut space = quals
            .address_space
            .unwrap_or_else(|| self.default_pointee_space());
        let mut is_const = quals.is_const;
        let mut is_volatile = quals.is_volatile;
        for d in derived.iter().rev() {
            if matches!(d, ast::Derived::Pointer(_) | ast::Derived::Array(_))
                && (ty.image().is_some() || ty.is_sampler())
            {
                let what = match d {
                    ast::Derived::Pointer(_) => "pointer to",
                    _ => "array of",
                };
                let message = format!("{what} type '{}' is invalid in OpenCL", self.display(ty));
                self.error(location, message);
                return Type::Error;
            }
            ty = match d {
                ast::Derived::Pointer(q) => {
                    let t = self.pointer_to(Pointee {
                        ty,
                        is_const,
                        is_volatile,
                        space,
                        endian_host: false,
                    });
                    space = q
                        .address_space
                        .unwrap_or_else(|| self.default_pointee_space());
                    is_const = q.is_const;
                    is_volatile = q.is_volatile;
                    t
                }
                ast::Derived::Array(size) => {
                    let n = match size {
                        Some(e) => match self.const_int(e) {
                            Some(n) if n > 0 => n as u64,
                            Some(0) => {
                                self.error(e.location, "zero size arrays are not allowed");
                                1
                            }
                            Some(_) => {
                                self.error(
                                    e.location,
                                    "variable declared as an array with a negative size",
                                );
                                1
                            }
                            None => {
                                let message = if self.cxx {
                                    "array size is not a constant expression"
                                } else {
                                    "variable length arrays are not supported in OpenCL"
                                };
                                self.error(e.location, message);
                                1
                            }
                        },
                        None => 0,
                    };
                    self.array_of(ty, n)
                }
                ast::Derived::Function { .. }
                    if derived
                        .iter()
                        .any(|d| matches!(d, ast::Derived::Pointer(_))) =>
                {
                    // A function pointer: the parser has reported it.
                    Type::Error
                }
                ast::Derived::Function { .. } => {
                    self.error(
                        location,
                        "function types are only allowed in function declarations",
                    );
                    Type::Error
                }
            };
        }
        // Without cl_khr_fp16, `half` exists only behind pointers, for
        // vload_half and vstore_half (OpenCL C 6.1.1.1).
        let value = self.program.types.innermost_element(ty);
        if value.element() == Some(Scalar::Half) && !self.caps.float16 {
            self.error(location, "declaring variable of type 'half' is not allowed");
            return Type::Error;
        }
        ty
    }

    pub(super) fn type_name(&mut self, t: &ast::TypeName) -> Type {
        self.type_name_and_space(t).0
    }

    /// A type name and the address space it gives an object of the type
    /// (`(constant int[])`; none for `(constant int *)`, where it is the
    /// pointee's).
    pub(super) fn type_name_and_space(
        &mut self,
        t: &ast::TypeName,
    ) -> (Type, Option<AddressSpace>) {
        let (base, quals) = self.base_type(&t.specs);
        if self.reject_reference(&t.declarator, "in type names") {
            return (Type::Error, None);
        }
        let ty = self.declarator_type(base, quals, &t.declarator, t.specs.location);
        let names_pointee = !matches!(
            t.declarator.derived.first(),
            None | Some(ast::Derived::Array(_))
        );
        (ty, quals.address_space.filter(|_| !names_pointee))
    }
}

/// A typedef's qualifiers added to those written with its name.
fn merge_typedef_qualifiers(quals: &mut ast::Qualifiers, typedef: ast::Qualifiers) {
    quals.is_const |= typedef.is_const;
    quals.is_volatile |= typedef.is_volatile;
    quals.address_space = quals.address_space.or(typedef.address_space);
}

/// Whether integer type `s` holds `value`.
fn representable(value: i128, s: Scalar) -> bool {
    let width = s.size() * 8;
    let (lo, hi) = if s.is_signed() {
        (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1)
    } else {
        (0, (1i128 << width) - 1)
    };
    (lo..=hi).contains(&value)
}

impl Checker<'_> {
    /// C++'s `decltype(e)`, not evaluated: for a variable or parameter
    /// named alone, its declared type and address space (seed 004:
    /// `decltype(i)` of a `__local int i` is `__local int`); for any
    /// other expression that is not an object, its type. Another object
    /// (`decltype((x))`, `decltype(a[i])`) would be a reference type,
    /// which is a named error for now.
    fn decltype(&mut self, e: &ast::Expr) -> (Type, Option<AddressSpace>) {
        let value = self.quietly(|c| c.expr(e));
        if value.ty.is_error() {
            // Report what is wrong in it.
            self.expr(e);
            return (Type::Error, None);
        }
        let named_alone = matches!(e.kind, ast::ExprKind::Ident(_)) && e.start == e.location.offset;
        if named_alone && matches!(value.kind, H::Local(_) | H::Global(_) | H::Deref(_)) {
            let space = self.place_space(&value);
            return (
                value.ty,
                Some(space).filter(|s| *s != AddressSpace::Private),
            );
        }
        if self.is_place(&value) {
            let not_yet = crate::language::NOT_YET;
            self.error(e.begin(), format!("'decltype' of an object other than a variable named alone (a reference type) is {not_yet}"));
            return (Type::Error, None);
        }
        (value.ty, None)
    }
}
