//! C++ constructors. A constructor is a member function named like its
//! class that returns nothing; the checker calls it where C++ does:
//!
//! - on a local of its class as it is declared: `S s;` (the default
//!   constructor), `S s(a, b);`, `S s = {a, b};` and `S s = a;` (a
//!   converting constructor);
//! - on a temporary for `S(a, b)` in an expression;
//! - on a member of class type in the constructor of the class that has
//!   it, with the arguments of its member initializer (`: m(a)`), in the
//!   members' declaration order, before the body.
//!
//! Copy and move constructors run where C++ copies (`copies`).
//! Objects whose construction clvulkan cannot run yet (program-scope,
//! `__local`, `static` and array objects of a class with constructors)
//! are named errors too, never left unconstructed.

use super::*;
use crate::types::Record;
use naga::Handle;

/// The most elements an array of objects may have: each is constructed by
/// a call of its own, unrolled.
const MAX_CONSTRUCTED_ELEMENTS: u64 = 256;

impl Checker<'_> {
    /// The constructors of class `r`, or `None` when it declares none.
    pub(super) fn constructors(&self, r: Handle<Record>) -> Option<Vec<FunctionId>> {
        let name = *self.class_names.get(&r)?;
        self.methods.get(&(r, name)).cloned()
    }

    /// Whether an object of type `ty` runs a constructor when made: its
    /// class declares one, or one of its members (or elements) does.
    pub(super) fn needs_construction(&self, ty: Type) -> bool {
        crate::stack::guard(|| match ty {
            Type::Record(r) => {
                self.constructors(r).is_some()
                    || (self.record(r).fields.iter()).any(|f| self.needs_construction(f.ty))
                    || (self.bases.get(&r).into_iter().flatten())
                        .any(|b| self.needs_construction(Type::Record(b.record)))
            }
            Type::Array(..) => self
                .element_of(ty)
                .is_some_and(|element| self.needs_construction(element)),
            _ => false,
        })
    }

    /// Whether constructor `id` of class `r` is a copy or move
    /// constructor, `S(const S &)`.
    pub(super) fn is_copy_constructor(&self, r: Handle<Record>, id: FunctionId) -> bool {
        let f = &self.program.functions[id];
        f.signature.len() == 2
            && self.reference_params.get(&id).and_then(|p| p.get(1)) == Some(&true)
            && self.pointee(f.signature[1]).map(|p| p.ty) == Some(Type::Record(r))
    }

    /// Notes constructor `id` of class `r`, written with member
    /// initializers `inits` and `body` (`None` when defined outside the
    /// class), if it is a copy constructor whose copies run code: any but
    /// one copying each member, in order, with an empty body (`S(const S
    /// &o) : x(o.x), y(o.y) {}`), which a bitwise copy is.
    pub(super) fn note_copy_constructor(
        &mut self,
        r: Handle<Record>,
        id: FunctionId,
        declarator: &ast::Declarator,
        written: Option<(&[ast::MemberInit], &ast::Block)>,
    ) {
        let bitwise =
            written.is_some_and(|(inits, body)| self.copies_memberwise(r, declarator, inits, body));
        if self.is_copy_constructor(r, id) && !bitwise {
            self.note_user_copy(r, false);
        }
    }

    /// Notes member function `id` of class `r` if it is a copy assignment
    /// operator (`S &operator=(const S &o)`) whose assignments run code:
    /// any but one assigning each member and returning `*this`.
    pub(super) fn note_copy_assignment(
        &mut self,
        r: Handle<Record>,
        id: FunctionId,
        name: Name,
        declarator: &ast::Declarator,
        body: Option<&ast::Block>,
    ) {
        if self.text(name) != crate::language::operator_name("=") {
            return;
        }
        let f = &self.program.functions[id];
        let from_object = f.signature.get(1).is_some_and(|&p| {
            p == Type::Record(r) || self.pointee(p).is_some_and(|p| p.ty == Type::Record(r))
        });
        let bitwise = body.is_some_and(|body| self.assigns_memberwise(r, declarator, body));
        if from_object && !bitwise {
            self.note_user_copy(r, true);
        }
    }

    /// Whether `operator=`, written `declarator` and `body`, assigns each
    /// member of class `r` from its parameter, in order, then returns
    /// `*this`, and does nothing else.
    fn assigns_memberwise(
        &self,
        r: Handle<Record>,
        declarator: &ast::Declarator,
        body: &ast::Block,
    ) -> bool {
        let Some(ast::Derived::Function { params, .. }) = declarator.derived.first() else {
            return false;
        };
        let [param] = &params[..] else {
            return false;
        };
        let Some((source, _)) = param.declarator.name else {
            return false;
        };
        let fields = &self.record(r).fields;
        let has_bases = self.bases.get(&r).is_some_and(|b| !b.is_empty());
        let Some((last, assignments)) = body.items.split_last() else {
            return false;
        };
        let returns_this = matches!(&last.kind, ast::StmtKind::Return(Some(e))
            if matches!(&e.kind, ast::ExprKind::Unary(ast::UnaryOp::Deref, this) if matches!(this.kind, ast::ExprKind::This)));
        let member_of = |e: &ast::Expr, object: Option<Name>| match &e.kind {
            ast::ExprKind::Member {
                base,
                name,
                arrow: false,
                ..
            } => match (object, &base.kind) {
                (Some(o), ast::ExprKind::Ident(b)) if *b == o => Some(*name),
                _ => None,
            },
            ast::ExprKind::Ident(name) if object.is_none() => Some(*name),
            _ => None,
        };
        !has_bases
            && returns_this
            && assignments.len() == fields.len()
            && fields.iter().zip(assignments).all(|(field, s)| {
                let ast::StmtKind::Expr(Some(e)) = &s.kind else {
                    return false;
                };
                let ast::ExprKind::Assign(None, sides) = &e.kind else {
                    return false;
                };
                let (target, value) = &**sides;
                match (member_of(target, None), member_of(value, Some(source))) {
                    (Some(t), Some(v)) => t == v && self.text(t) == &self.program.names[field.name],
                    _ => false,
                }
            })
    }

    /// Whether a copy constructor written `declarator`, `inits` and
    /// `body` copies each member of class `r` from its parameter, in
    /// order, and does nothing else.
    fn copies_memberwise(
        &self,
        r: Handle<Record>,
        declarator: &ast::Declarator,
        inits: &[ast::MemberInit],
        body: &ast::Block,
    ) -> bool {
        let Some(ast::Derived::Function { params, .. }) = declarator.derived.first() else {
            return false;
        };
        let Some((source, _)) = params.first().and_then(|p| p.declarator.name) else {
            return false;
        };
        let fields = &self.record(r).fields;
        let has_bases = self.bases.get(&r).is_some_and(|b| !b.is_empty());
        if !body.items.is_empty() || has_bases || inits.len() != fields.len() {
            return false;
        }
        fields.iter().zip(inits).all(|(field, init)| {
            let named = self.text(init.name) == &self.program.names[field.name];
            let copied = match &init.args[..] {
                [ast::Expr {
                    kind:
                        ast::ExprKind::Member {
                            base,
                            name,
                            arrow: false,
                            ..
                        },
                    ..
                }] => {
                    *name == init.name
                        && matches!(base.kind, ast::ExprKind::Ident(b) if b == source)
                }
                _ => false,
            };
            named && copied
        })
    }

    /// A call of the constructor of class `r` that `args` pick, on the
    /// object at `object`; clang's error when none takes them.
    pub(super) fn construct(
        &mut self,
        r: Handle<Record>,
        object: Expr,
        args: &[&ast::Expr],
        span: Span,
        rparen: Location,
    ) -> Expr {
        let error = || Expr::new(H::Int(0), Type::Error, span);
        let expanded = match self.expanded_argument_list(args) {
            Ok(expanded) => expanded,
            Err(()) => return error(),
        };
        let expanded: Option<Vec<&ast::Expr>> = expanded.as_ref().map(|e| e.iter().collect());
        let args = expanded.as_deref().unwrap_or(args);
        let Some((candidates, name)) = self.constructors(r).zip(self.class_names.get(&r).copied())
        else {
            return error();
        };
        let viable = self.quietly(|c| {
            let checked: Vec<Expr> = (std::iter::once(object.clone()))
                .chain(args.iter().map(|a| c.rvalue(a)))
                .collect();
            !checked.iter().any(|a| a.ty.is_error())
                && c.resolve_overload(name, &candidates, &checked, span)
                    .is_some()
        });
        if !viable {
            let class = match self.pointee(object.ty) {
                Some(pointee) => self.object_type(pointee, true),
                None => self.class_spelling(r),
            };
            self.error(
                span,
                format!("no matching constructor for initialization of '{class}'"),
            );
            return error();
        }
        self.user_call(name, &candidates, Some(object), args, span, rparen)
    }

    /// The arguments a braced list `items` gives a constructor of class
    /// `r` (`S{a, b}`, `S x{a, b}`); `None` after clang's error for one
    /// with designators or braces of its own.
    pub(super) fn list_constructor_arguments<'i>(
        &mut self,
        r: Handle<Record>,
        items: &'i [(Vec<ast::Designator>, ast::Initializer)],
        span: Span,
    ) -> Option<Vec<&'i ast::Expr>> {
        if self.implicit_constructors.contains(&r) && !items.is_empty() {
            let not_yet = crate::language::NOT_YET;
            let class = self.class_spelling(r);
            self.error(
                span,
                format!("aggregate initialization of '{class}', a class with default member initializers, is {not_yet}"),
            );
            return None;
        }
        let mut args = Vec::with_capacity(items.len());
        for (designators, item) in items {
            match (designators.is_empty(), item) {
                (true, ast::Initializer::Expr(e)) => args.push(e),
                _ => {
                    let class = self.class_spelling(r);
                    self.error(
                        span,
                        format!("no matching constructor for initialization of '{class}'"),
                    );
                    return None;
                }
            }
        }
        Some(args)
    }

    /// `S(args)` in an expression: a temporary of class `r` constructed
    /// from `args`; for a class without constructors, `S()` is a zeroed
    /// object and `S(s)` a copy of `s`.
    pub(super) fn temporary_object(
        &mut self,
        r: Handle<Record>,
        args: &[&ast::Expr],
        span: Span,
        rparen: Location,
    ) -> Expr {
        let ty = Type::Record(r);
        if self.constructors(r).is_none() {
            let value = match args {
                // `S()`: value-initialised, every member zero or
                // default-constructed.
                [] => self.default_constructed(ty, span),
                // `S(s)`: a copy of `s`.
                [arg] => Some(self.rvalue(arg)).filter(|v| v.ty == ty || v.ty.is_error()),
                _ => None,
            };
            if let Some(value) = value {
                if value.ty.is_error() || !self.holds_destructible(ty) {
                    return value;
                }
                let value = self.copy_initializer(value);
                return match self.temporary_of(&value) {
                    Some(_) => value,
                    None => self.materialize(value),
                };
            }
            if args.is_empty() {
                return Expr::new(H::Int(0), Type::Error, span);
            }
            let class = self.class_spelling(r);
            self.error(
                span,
                format!("no matching constructor for initialization of '{class}'"),
            );
            return Expr::new(H::Int(0), Type::Error, span);
        }
        let id = self.temporary_local(ty, span);
        let object = Expr::new(H::Local(id), ty, span);
        let address = self.address_of_place(object.clone(), span);
        let call = self.construct(r, address, args, span, rparen);
        if call.ty.is_error() {
            return call;
        }
        Expr::new(H::Comma(Box::new(call), Box::new(object)), ty, span)
    }

    /// A default-constructed object of type `ty` as a value: a class's
    /// default constructor run on a temporary; for a class without
    /// constructors or an array, each member or element that needs a
    /// constructor default-constructed in turn (every element its own
    /// call, as C++ makes them) and the rest zero. `None`, reported, for
    /// arrays of more than `MAX_CONSTRUCTED_ELEMENTS` elements and empty
    /// bases with constructors.
    pub(super) fn default_constructed(&mut self, ty: Type, span: Span) -> Option<Expr> {
        crate::stack::guard(|| {
            let mut items = Vec::new();
            match ty {
                Type::Record(r) if self.constructors(r).is_some() => {
                    let value = self.temporary_object(r, &[], span, span.location());
                    return (!value.ty.is_error()).then_some(value);
                }
                Type::Record(r) => {
                    let empty_base = (self.bases.get(&r).into_iter().flatten()).any(|b| {
                        b.field.is_none() && self.needs_construction(Type::Record(b.record))
                    });
                    if empty_base {
                        let not_yet = crate::language::NOT_YET;
                        self.error(
                            span,
                            format!("constructing an empty base class is {not_yet}"),
                        );
                        return None;
                    }
                    let fields: Vec<Type> = self.record(r).fields.iter().map(|f| f.ty).collect();
                    for (index, field) in fields.into_iter().enumerate() {
                        if self.needs_construction(field) {
                            let value = self.default_constructed(field, span)?;
                            items.push((vec![index as u64], Box::new(value)));
                        }
                    }
                }
                Type::Array(_, count) => {
                    let element = self.element_of(ty)?;
                    if count > MAX_CONSTRUCTED_ELEMENTS {
                        let not_yet = crate::language::NOT_YET;
                        self.error(
                            span,
                            format!("constructing an array of more than {MAX_CONSTRUCTED_ELEMENTS} objects is {not_yet}"),
                        );
                        return None;
                    }
                    for index in 0..count {
                        let value = self.default_constructed(element, span)?;
                        items.push((vec![index], Box::new(value)));
                    }
                }
                _ => {}
            }
            Some(Expr::new(H::InitList(items), ty, span))
        })
    }

    /// The array `ty` of objects initialised from `items` (`S a[3] =
    /// {S(1), 2}`): each element copied from its item or constructed from
    /// it, the rest default-constructed. `None`, reported, for nested or
    /// designated lists and more items than elements.
    pub(super) fn constructed_elements(
        &mut self,
        ty: Type,
        items: &[(Vec<ast::Designator>, ast::Initializer)],
        span: Span,
    ) -> Option<Expr> {
        let (Type::Array(_, count), Some(element)) = (ty, self.element_of(ty)) else {
            return None;
        };
        if count > MAX_CONSTRUCTED_ELEMENTS {
            let not_yet = crate::language::NOT_YET;
            self.error(span, format!("constructing an array of more than {MAX_CONSTRUCTED_ELEMENTS} objects is {not_yet}"));
            return None;
        }
        let mut values = Vec::with_capacity(count as usize);
        for index in 0..count {
            let value = match items.get(index as usize) {
                Some((designators, ast::Initializer::Expr(e))) if designators.is_empty() => {
                    match element {
                        Type::Record(r) if self.quietly(|c| c.rvalue(e).ty) != element => {
                            self.temporary_object(r, &[e], e.span(), e.location)
                        }
                        _ => {
                            let value = self.rvalue(e);
                            self.convert_for_assignment(
                                value,
                                element,
                                Conversion::Init(e.location),
                            )
                        }
                    }
                }
                Some(_) => {
                    let not_yet = crate::language::NOT_YET;
                    self.error(
                        span,
                        format!(
                            "nested and designated initializers of arrays of objects are {not_yet}"
                        ),
                    );
                    return None;
                }
                None => self.default_constructed(element, span)?,
            };
            if value.ty.is_error() {
                return None;
            }
            values.push((vec![index], Box::new(value)));
        }
        if items.len() as u64 > count {
            self.error(span, "excess elements in array initializer");
            return None;
        }
        Some(Expr::new(H::InitList(values), ty, span))
    }

    /// Whether `init` declares a local of type `ty` that a constructor
    /// initialises: `ty` has constructors, and the initialiser is not an
    /// object of `ty` (C's initialisation makes a copy, through `copies`).
    pub(super) fn constructed_local(&mut self, ty: Type, init: &ast::InitDeclarator) -> bool {
        if !self.needs_construction(ty) {
            return false;
        }
        match &init.init {
            Some(ast::Initializer::Expr(e)) if init.arguments.is_none() => {
                self.quietly(|c| c.rvalue(e).ty) != ty
            }
            _ => true,
        }
    }

    /// The constructor call that initialises local `id` of class type
    /// `ty` as declared by `init`, or `None` when its class declares no
    /// constructor.
    pub(super) fn local_construction(
        &mut self,
        id: LocalId,
        ty: Type,
        init: &ast::InitDeclarator,
        location: Location,
    ) -> Option<Expr> {
        let Type::Record(r) = ty else {
            return None;
        };
        self.constructors(r)?;
        let span = init.declarator.span_or(location);
        let args: Vec<&ast::Expr> = match (&init.init, &init.arguments) {
            (_, Some((args, _))) => args.iter().collect(),
            (None, None) => Vec::new(),
            (Some(ast::Initializer::Expr(e)), None) => vec![e],
            (Some(ast::Initializer::List(items, _)), None) => {
                match self.list_constructor_arguments(r, items, Span::at(location)) {
                    Some(args) => args,
                    None => return Some(Expr::new(H::Int(0), Type::Error, span)),
                }
            }
        };
        // Where a missing argument is reported: the arguments' `(`, else
        // the name.
        let arguments_at = init
            .arguments
            .as_ref()
            .map_or(location, |(_, lparen)| *lparen);
        let object = Expr::new(H::Local(id), ty, span);
        let address = self.address_of_place(object, span);
        Some(self.construct(r, address, &args, span.with_caret(location), arguments_at))
    }

    /// The statements a constructor of class `r` starts with: each member
    /// of class type with constructors constructed, and each member with
    /// an initializer in `inits` initialised, in declaration order.
    pub(super) fn construct_members(
        &mut self,
        r: Handle<Record>,
        inits: &[ast::MemberInit],
        at: Location,
        out: &mut hir::Block,
    ) {
        let members: Vec<Name> = (self.class_members.get(&r).into_iter().flatten())
            .filter(|(_, symbol)| matches!(symbol, Symbol::Member))
            .map(|(name, _)| *name)
            .collect();
        let bases = self.bases.get(&r).cloned().unwrap_or_default();
        let defaults = self.member_defaults.get(&r).cloned().unwrap_or_default();
        for init in inits {
            let names_base = bases.iter().any(|b| b.name == Some(init.name));
            if !members.contains(&init.name) && !names_base {
                let spelling = self.spelling(init.name);
                self.error(
                    init.location,
                    format!("member initializer '{spelling}' does not name a non-static data member or base class"),
                );
            }
        }
        for base in bases {
            let init = inits.iter().find(|i| Some(i.name) == base.name);
            self.construct_base(base, init, at, out);
        }
        for name in members {
            let init = (inits.iter().find(|i| i.name == name))
                .or_else(|| defaults.iter().find(|i| i.name == name));
            let location = init.map_or(at, |i| i.location);
            let span = Span::at(location);
            let target = self.implicit_member(name, span);
            let value = match (target.ty, init) {
                (Type::Record(member), _) if self.constructors(member).is_some() => {
                    // Constructed in a temporary and copied in (copies are
                    // bitwise): the pointer model cannot always address a
                    // member of `*this` as an object of its own type.
                    let args: Vec<&ast::Expr> =
                        init.map(|i| i.args.iter().collect()).unwrap_or_default();
                    let value = self.temporary_object(member, &args, span, location);
                    if value.ty.is_error() {
                        continue;
                    }
                    self.take_over(&value);
                    let ty = value.ty;
                    Expr::new(H::Assign(Box::new(target), Box::new(value)), ty, span)
                }
                (ty, None) if self.needs_construction(ty) => {
                    let Some(value) = self.default_constructed(ty, span) else {
                        continue;
                    };
                    self.take_over(&value);
                    Expr::new(H::Assign(Box::new(target), Box::new(value)), ty, span)
                }
                (ty, _) if self.needs_construction(ty) => {
                    let not_yet = crate::language::NOT_YET;
                    let spelling = self.spelling(name);
                    self.error(
                        location,
                        format!("constructing member '{spelling}', whose members or elements have constructors, is {not_yet}"),
                    );
                    continue;
                }
                (_, None) => continue,
                (ty, Some(init)) => match &init.args[..] {
                    [arg] => {
                        let value = self.rvalue(arg);
                        let value =
                            self.convert_for_assignment(value, ty, Conversion::Init(location));
                        Expr::new(H::Assign(Box::new(target), Box::new(value)), ty, span)
                    }
                    [] if matches!(ty, Type::Scalar(_) | Type::Vector(..) | Type::Pointer(_)) => {
                        // `m()` value-initialises: zero.
                        let zero = self.int_const(0, Type::INT, span);
                        let zero = self.convert(zero, ty);
                        Expr::new(H::Assign(Box::new(target), Box::new(zero)), ty, span)
                    }
                    _ => {
                        let ty = self.display(ty);
                        self.error(
                            location,
                            format!("member initializer of type '{ty}' takes one value"),
                        );
                        continue;
                    }
                },
            };
            if value.ty.is_error() {
                continue;
            }
            let value = self.commit(value);
            out.push(self.add_stmt(StmtKind::Expr(value), span));
        }
    }

    /// The statement of a constructor that constructs its base `base`,
    /// with the arguments of its member initializer `init`: by the base's
    /// constructor (for an empty base, on a temporary, for what it does),
    /// or for a base without one, from one object of its type.
    fn construct_base(
        &mut self,
        base: super::inheritance::Base,
        init: Option<&ast::MemberInit>,
        at: Location,
        out: &mut hir::Block,
    ) {
        let location = init.map_or(at, |i| i.location);
        let span = Span::at(location);
        let args: Vec<&ast::Expr> = init.map(|i| i.args.iter().collect()).unwrap_or_default();
        if self.constructors(base.record).is_none() && init.is_none() {
            return;
        }
        let value = self.temporary_object(base.record, &args, span, location);
        if value.ty.is_error() {
            return;
        }
        if base.field.is_some() {
            self.take_over(&value);
        }
        let value = match (base.field, self.this(span)) {
            (Some(field), Some(this)) => {
                let object = self.deref(this, span);
                let ty = value.ty;
                let target = Expr::new(H::Member(Box::new(object), field), ty, span);
                Expr::new(H::Assign(Box::new(target), Box::new(value)), ty, span)
            }
            _ => value,
        };
        let value = self.commit(value);
        out.push(self.add_stmt(StmtKind::Expr(value), span));
    }

    /// Class `r`'s name as C++ writes it.
    pub(super) fn class_spelling(&self, r: Handle<Record>) -> String {
        self.program.names[self.record(r).name].to_owned()
    }
}
