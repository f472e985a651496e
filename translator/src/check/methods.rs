//! C++ member functions. A member function is an ordinary HIR function
//! whose first parameter is `this`, a pointer to its class: in the generic
//! address space unless the function names another after its parameters
//! (seed 004: `int get() __constant`), and to `const` for a `const`
//! function. Its name lives in its class, not in the scope, so calls find
//! it through their object: `o.f(a)` is `f(&o, a)`, and inside a member
//! function `f(a)` and `x` are `this->f(a)` and `this->x`.
//!
//! Bodies are checked once the class is complete, so that they may use
//! members declared after them, each in a class scope where the members'
//! names hide the program's.

use super::*;
use crate::types::Record;
use naga::Handle;

/// A member function as `define_methods` declared it, by its place in
/// the class: its owner and the declaration, where it has them.
pub(super) type DeclaredMethod = (Option<MethodOwner>, Option<(FunctionId, bool)>);

/// What makes a function a member function.
#[derive(Clone, Copy)]
pub(super) struct MethodOwner {
    pub record: Handle<Record>,
    /// The type of `this`.
    pub this: Option<Type>,
    /// Whether it is a constructor.
    pub constructor: bool,
}

impl Checker<'_> {
    /// Declares the member functions of record `r`, just completed from
    /// `spec`, and checks those defined in the class.
    pub(super) fn define_methods(&mut self, r: Handle<Record>, spec: &ast::RecordSpec) {
        let instantiating = self.instantiating_class.is_some();
        if self.current.is_some() && !instantiating {
            let not_yet = crate::language::NOT_YET;
            self.error(
                spec.methods[0].location,
                format!("member functions of local classes are {not_yet}"),
            );
            return;
        }
        if let Some(tag) = spec.tag {
            self.class_names.insert(r, tag);
        }
        let owners: Vec<Option<MethodOwner>> = spec
            .methods
            .iter()
            .map(|m| {
                let at = m.declarator.name.map_or(m.location, |(_, at)| at);
                let owner = self.method_owner(r, &m.specs, m.this_qualifiers, at);
                owner.map(|owner| MethodOwner {
                    constructor: m.constructor,
                    ..owner
                })
            })
            .collect();
        self.open_class_scope(r);
        // All are declared before any body is checked, so that each body
        // may call any of them.
        let declared: Vec<Option<(FunctionId, bool)>> = (spec.methods.iter().zip(&owners))
            .map(|(m, owner)| {
                let location = m.declarator.name.map_or(m.location, |(_, at)| at);
                let defining = m.body.is_some();
                owner.map(|owner| {
                    self.declare_function(
                        &m.specs,
                        &m.declarator,
                        location,
                        defining,
                        Some(owner),
                        None,
                    )
                })
            })
            .collect();
        for ((m, owner), declared) in spec.methods.iter().zip(&owners).zip(&declared) {
            if let (Some((name, _)), false, Some((id, _))) =
                (m.declarator.name, m.constructor, declared)
            {
                self.note_copy_assignment(r, *id, name, &m.declarator, m.body.as_ref());
            }
            if let (true, Some((id, _))) = (m.constructor, declared) {
                let written = (m.body.as_ref()).map(|body| (&m.member_inits[..], body));
                self.note_copy_constructor(r, *id, &m.declarator, written);
            }
            if let (Some((name, _)), Some((id, _))) = (m.declarator.name, declared) {
                self.note_destructor(r, name, *id);
            }
            if let (Some(MethodOwner { this: None, .. }), Some((id, _))) = (owner, declared) {
                self.static_methods.insert(*id);
            }
        }
        if instantiating {
            // A class template's instance: the bodies are checked with
            // the instantiation's other pending work.
            self.scopes.pop();
            self.instantiating_class = Some(owners.into_iter().zip(declared).collect());
            return;
        }
        for ((m, owner), declared) in spec.methods.iter().zip(owners).zip(declared) {
            if let (Some(body), Some(owner), Some(declared)) = (&m.body, owner, declared) {
                let inits = &m.member_inits;
                self.define_function(
                    &m.specs,
                    &m.declarator,
                    body,
                    declared,
                    Some((owner, inits)),
                );
            }
        }
        self.scopes.pop();
    }

    /// The owner of a member function of `r` declared with `specs` and,
    /// after its parameters, qualifiers `q`, or `None` for one clvulkan
    /// cannot take (reported).
    pub(super) fn method_owner(
        &mut self,
        r: Handle<Record>,
        specs: &ast::DeclSpecs,
        q: ast::Qualifiers,
        at: Location,
    ) -> Option<MethodOwner> {
        if specs.is_kernel {
            self.error(at, "kernel functions cannot be class members");
            return None;
        }
        if specs.storage == Some(ast::StorageClass::Static) {
            if q != ast::Qualifiers::default() {
                self.error(at, "static member function cannot have qualifiers");
                return None;
            }
            return Some(MethodOwner {
                record: r,
                this: None,
                constructor: false,
            });
        }
        let this = self.pointer_with(Type::Record(r), q);
        Some(MethodOwner {
            record: r,
            this: Some(this),
            constructor: false,
        })
    }

    /// The names of `fields` (and of the members of anonymous struct and
    /// union members), as members.
    /// Notes the names of the members and member functions of class `r`,
    /// just completed from `spec`.
    pub(super) fn note_class_members(&mut self, r: Handle<Record>, spec: &ast::RecordSpec) {
        let mut members = Vec::new();
        if let Some(fields) = &spec.fields {
            Self::member_names(fields, &mut members);
        }
        // Constructors are named like the class, which stays a type name.
        let templates = spec.method_templates.iter().map(|t| &t.method);
        for m in spec
            .methods
            .iter()
            .chain(templates)
            .filter(|m| !m.constructor)
        {
            if let Some((name, _)) = m.declarator.name {
                members.push((name, Symbol::Method));
            }
        }
        members.extend(self.static_member_names(r));
        members.extend(self.member_type_names(r));
        self.class_members.insert(r, members);
    }

    fn member_names(fields: &[ast::FieldDecl], out: &mut Vec<(Name, Symbol)>) {
        for field in fields {
            for (declarator, _) in &field.declarators {
                if let Some((name, _)) = declarator.name {
                    out.push((name, Symbol::Member));
                }
            }
            if let (true, ast::TypeSpec::Record(inner)) =
                (field.declarators.is_empty(), &field.specs.ty)
            {
                if let (None, Some(inner_fields)) = (inner.tag, &inner.fields) {
                    Self::member_names(inner_fields, out);
                }
            }
        }
    }

    /// Opens the scope of class `r`, where its members' names hide the
    /// program's; the caller closes it.
    pub(super) fn open_class_scope(&mut self, r: Handle<Record>) {
        self.scopes.push();
        self.declare_class_members(r);
    }

    /// Declares the names of class `r`'s members: its bases' first, which
    /// its own hide.
    fn declare_class_members(&mut self, r: Handle<Record>) {
        for base in self.bases.get(&r).cloned().unwrap_or_default() {
            self.declare_class_members(base.record);
        }
        let members = self.class_members.get(&r).cloned().unwrap_or_default();
        for (name, symbol) in members {
            self.declare(name, symbol);
        }
    }

    /// `ret S::name(params) qualifiers { body }`: the definition of a
    /// member function declared in class `S`.
    pub(super) fn out_of_class_definition(
        &mut self,
        f: &ast::FunctionDef,
        (class, at): (Name, Location),
    ) {
        let class_name = self.spelling(class);
        let record = match self.cxx_tag_type(class) {
            Some(Type::Record(r)) if self.record(r).complete => r,
            Some(Type::Record(_)) => {
                self.error(
                    at,
                    format!("incomplete type '{class_name}' named in nested name specifier"),
                );
                return;
            }
            _ => {
                self.error(at, format!("use of undeclared identifier '{class_name}'"));
                return;
            }
        };
        let Some((name, location)) = f.declarator.name else {
            return;
        };
        let Some(owner) = self.method_owner(record, &f.specs, f.this_qualifiers, location) else {
            return;
        };
        // `static` is written only in the class.
        let declared_static = self
            .methods
            .get(&(record, name))
            .is_some_and(|ids| ids.iter().any(|id| self.static_methods.contains(id)));
        let owner = MethodOwner {
            constructor: name == class,
            this: if declared_static { None } else { owner.this },
            ..owner
        };
        let declared_before = self.methods.get(&(record, name)).map_or(0, Vec::len);
        let declared =
            self.declare_function(&f.specs, &f.declarator, location, true, Some(owner), None);
        let methods = self.methods.entry((record, name)).or_default();
        if methods.len() > declared_before {
            // C++ defines a member function only where its class declares it.
            methods.pop();
            let spelling = self.spelling(name);
            self.error(
                location,
                format!("out-of-line definition of '{spelling}' does not match any declaration in '{class_name}'"),
            );
            return;
        }
        self.open_class_scope(record);
        let owner = Some((owner, &f.member_inits[..]));
        self.define_function(&f.specs, &f.declarator, &f.body, declared, owner);
        self.scopes.pop();
    }

    /// Adds `this`, of type `this`, as the first parameter of the member
    /// function being checked.
    pub(super) fn this_parameter(&mut self, this: Type, span: Span) -> LocalId {
        let local = hir::Local {
            name: self.program.names.intern("this"),
            ty: this,
            space: AddressSpace::Private,
            is_const: true,
            span,
        };
        let id = self.add_local(None, local);
        if let Some(f) = self.current.as_mut() {
            f.this = Some(id);
        }
        id
    }

    /// `this`, or `None` outside a member function.
    pub(super) fn this(&mut self, span: Span) -> Option<Expr> {
        let f = self.current.as_ref()?;
        let id = f.this?;
        Some(Expr::new(H::Local(id), f.locals[id].ty, span))
    }

    /// The expression `this`.
    pub(super) fn this_expr(&mut self, span: Span) -> Expr {
        self.this(span).unwrap_or_else(|| {
            self.error(
                span,
                "invalid use of 'this' outside of a non-static member function",
            );
            Expr::new(H::Int(0), Type::Error, span)
        })
    }

    /// A member of the class named without `this->` in a member function.
    pub(super) fn implicit_member(&mut self, name: Name, span: Span) -> Expr {
        let spelling = self.spelling(name);
        let Some(this) = self.this(span) else {
            self.error(
                span,
                format!("invalid use of member '{spelling}' in static member function"),
            );
            return Expr::new(H::Int(0), Type::Error, span);
        };
        let object = self.deref(this, span);
        self.member(object, &spelling, span, span.location())
    }

    /// `base.name(args)` or `base->name(args)`, `callee` being the member
    /// access.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn method_call(
        &mut self,
        callee: &ast::Expr,
        base: &ast::Expr,
        arrow: bool,
        name: Name,
        explicit: &[ast::TemplateArg],
        args: &[&ast::Expr],
        span: Span,
        rparen: Location,
    ) -> Expr {
        let object = if arrow {
            self.rvalue(base)
        } else {
            self.expr(base)
        };
        if object.ty.is_error() {
            return object;
        }
        let class = if arrow {
            self.pointee(object.ty).map(|p| p.ty)
        } else {
            Some(object.ty)
        };
        let found = match class {
            Some(Type::Record(r)) => {
                let values = |c: &mut Self| c.argument_values(args);
                self.member_functions_given(r, name, explicit, values, span.location())
            }
            _ => None,
        };
        let Some((candidates, path)) = found else {
            // A field or nothing: the member access says which, and a
            // field cannot be called.
            let object = if arrow {
                self.deref(object, callee.span())
            } else {
                object
            };
            let spelling = self.spelling(name);
            let name_location = match &callee.kind {
                A::Member { name_location, .. } => *name_location,
                _ => callee.location,
            };
            let field = self.member(object, &spelling, callee.span(), name_location);
            if !field.ty.is_error() {
                let ty = self.display(field.ty);
                self.error(
                    span,
                    format!("called object type '{ty}' is not a function or function pointer"),
                );
            }
            return Expr::new(H::Int(0), Type::Error, span);
        };
        let at = span.with_caret(callee.location);
        let Some(statics) = self.static_candidates(&candidates, at) else {
            return Expr::new(H::Int(0), Type::Error, span);
        };
        if statics {
            // The object is evaluated, then the function called without it.
            let call = self.user_call(name, &candidates, None, args, at, rparen);
            let ty = call.ty;
            if ty.is_error() {
                return call;
            }
            return Expr::new(H::Comma(Box::new(object), Box::new(call)), ty, span);
        }
        let this = match (arrow, path.is_empty()) {
            (true, true) => object,
            (false, true) => self.object_address(object),
            // A base's member function, on the base part.
            (arrow, false) => {
                let object = if arrow {
                    self.deref(object, callee.span())
                } else {
                    object
                };
                let base = self.base_object(object, &path);
                self.object_address(base)
            }
        };
        self.user_call(name, &candidates, Some(this), args, at, rparen)
    }

    /// Whether `candidates`, member functions of one name, are static;
    /// `None` after an error for a set that mixes static and not.
    fn static_candidates(&mut self, candidates: &[FunctionId], at: Span) -> Option<bool> {
        let statics = (candidates.iter())
            .filter(|id| self.static_methods.contains(id))
            .count();
        if statics != 0 && statics != candidates.len() {
            let not_yet = crate::language::NOT_YET;
            self.error(
                at,
                format!("overloading static and non-static member functions is {not_yet}"),
            );
            return None;
        }
        Some(statics != 0)
    }

    /// `Class::name(args)`: a call of a static member function of
    /// `class`, or of a member function of the class being checked.
    pub(super) fn qualified_call(
        &mut self,
        class: Type,
        name: Name,
        args: &[&ast::Expr],
        span: Span,
        rparen: Location,
    ) -> Expr {
        let error = || Expr::new(H::Int(0), Type::Error, span);
        let Type::Record(r) = class else {
            if !class.is_error() {
                let ty = self.display(class);
                self.error(span, format!("'{ty}' is not a class"));
            }
            return error();
        };
        let values = |c: &mut Self| c.argument_values(args);
        let Some((candidates, path)) = self.member_functions(r, name, values, span.location())
        else {
            let (member, class) = (self.spelling(name), self.class_spelling(r));
            self.error(span, format!("no member named '{member}' in '{class}'"));
            return error();
        };
        match self.static_candidates(&candidates, span) {
            None => error(),
            Some(true) => self.user_call(name, &candidates, None, args, span, rparen),
            Some(false) => match self.this(span) {
                Some(this) if self.pointee(this.ty).map(|p| p.ty) == Some(Type::Record(r)) => {
                    let this = self.this_for(this, &path, span);
                    self.user_call(name, &candidates, Some(this), args, span, rparen)
                }
                // `Base::f()` in a member function of a derived class.
                Some(this) if path.is_empty() && self.pointer_to_base_ok(&this, r) => {
                    let this = self.pointer_to_base(this, r).expect("a base");
                    self.user_call(name, &candidates, Some(this), args, span, rparen)
                }
                _ => {
                    self.error(
                        span,
                        "call to non-static member function without an object argument",
                    );
                    error()
                }
            },
        }
    }

    /// `name(args)` in a member function, naming a member function of
    /// its class: `this->name(args)`.
    pub(super) fn implicit_method_call(
        &mut self,
        name: Name,
        args: &[&ast::Expr],
        span: Span,
        rparen: Location,
    ) -> Expr {
        let class = self.current.as_ref().and_then(|f| f.class);
        let values = |c: &mut Self| c.argument_values(args);
        let found = class.and_then(|r| self.member_functions(r, name, values, span.location()));
        let Some((candidates, path)) = found else {
            return Expr::new(H::Int(0), Type::Error, span);
        };
        match self.static_candidates(&candidates, span) {
            None => Expr::new(H::Int(0), Type::Error, span),
            Some(true) => self.user_call(name, &candidates, None, args, span, rparen),
            Some(false) => match self.this(span) {
                Some(this) => {
                    let this = self.this_for(this, &path, span);
                    self.user_call(name, &candidates, Some(this), args, span, rparen)
                }
                None => {
                    self.error(
                        span,
                        "call to non-static member function without an object argument",
                    );
                    Expr::new(H::Int(0), Type::Error, span)
                }
            },
        }
    }

    /// The address of the object a member function is called on: of the
    /// object itself when it is one, else of a private temporary holding
    /// the value (C++17 [class.temporary]).
    pub(super) fn object_address(&mut self, object: Expr) -> Expr {
        let span = object.span;
        if self.is_place(&object) && !matches!(object.kind, H::Swizzle(..)) {
            return self.address_of_place(object, span);
        }
        self.temporary_address(object, false, "(object temporary)")
    }

    /// `this` for member function `id` from `object`, the address of the
    /// object it is called on, with clang's errors where the object's
    /// address space or `const` rule the function out.
    pub(super) fn this_argument(&mut self, object: Expr, this: Type, id: FunctionId) -> Expr {
        let (Some(have), Some(want)) = (self.pointee(object.ty), self.pointee(this)) else {
            return Expr::new(H::Int(0), Type::Error, object.span);
        };
        let converts = have.space == want.space
            || (want.space == AddressSpace::Generic && have.space != AddressSpace::Constant);
        let at = Span::at(object.span.location());
        if !converts {
            let (want_text, have_text) =
                (self.object_type(want, false), self.object_type(have, false));
            self.error(
                at,
                format!("cannot initialize object parameter of type '{want_text}' with an expression of type '{have_text}'"),
            );
            return Expr::new(H::Int(0), Type::Error, object.span);
        }
        if have.is_const && !want.is_const {
            let have_text = self.object_type(have, true);
            let function = &self.program.names[self.program.functions[id].name];
            let method = function.rsplit("::").next().unwrap_or(function).to_owned();
            self.error(
                at,
                format!("'this' argument to member function '{method}' has type '{have_text}', but function is not marked const"),
            );
            return Expr::new(H::Int(0), Type::Error, object.span);
        }
        let object = match &object.kind {
            // A `const` member function of a member the pointer model
            // cannot address runs on a copy, which it cannot tell apart.
            H::AddressOf(place) if want.is_const && self.unaddressable_member(place) => {
                let value = (**place).clone();
                self.temporary_address(value, true, "(object copy)")
            }
            _ => object,
        };
        self.convert_for_assignment(object, this, Conversion::Argument(at.location()))
    }

    /// Whether `place` is a member of a record object that the pointer
    /// model cannot point to as an object of its own type: one reached
    /// through a pointer or an array, at an offset its size does not
    /// divide in every element (see `lower::pointers::values`).
    fn unaddressable_member(&self, place: &Expr) -> bool {
        let Some(size) = self.type_size(place.ty).filter(|&s| s > 1) else {
            return false;
        };
        let (mut offset, mut at) = (0u64, place);
        while let H::Member(base, field) = &at.kind {
            let Type::Record(r) = base.ty else {
                return false;
            };
            offset += self.record(r).fields[*field].offset;
            at = base;
        }
        if std::ptr::eq(at, place) {
            return false;
        }
        let outer_fits =
            matches!(at.kind, H::Local(_)) || self.type_size(at.ty).is_some_and(|s| s % size == 0);
        offset % size != 0 || !outer_fits
    }

    /// An object's type as clang writes it in member-call errors:
    /// `const __private S`.
    pub(super) fn object_type(&self, object: Pointee, with_const: bool) -> String {
        let space = object.space.keyword();
        let class = match object.ty {
            Type::Record(r) => self.program.names[self.record(r).name].to_owned(),
            ty => self.display(ty),
        };
        let constness = if with_const && object.is_const {
            "const "
        } else {
            ""
        };
        format!("{constness}{space} {class}")
    }
}
