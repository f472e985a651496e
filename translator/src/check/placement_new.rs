//! C++'s placement new-expression, `new (place) T(args)`: the object is
//! made where `place` points, by its constructor or its initializer, and
//! the expression is a `T *` to it. C++ for OpenCL has no allocating
//! `new` (the parser gives clang's error), and no `<new>` header: as in
//! clang, the program declares the allocation function, `void *operator
//! new(size_t, void *p)`, which the call chooses as any overload. It is
//! not called: the one accepted is the one that returns its pointer, and
//! the object's address is then the placement argument itself, which the
//! pointer model follows. Any other allocation function is a named error.
//! As in clang the expression's pointer is generic (`T *`), whatever the
//! place's address space.

use super::*;

impl Checker<'_> {
    /// `new (place) T...`.
    pub(super) fn placement_new(&mut self, new: &ast::New, span: Span) -> Expr {
        let error = || Expr::new(H::Int(0), Type::Error, span);
        if new.placement.is_empty() {
            // The parser said that `new` without a place allocates.
            return error();
        }
        let (ty, _) = self.type_name_and_space(&new.ty);
        if ty.is_error() {
            return error();
        }
        let place: Vec<Expr> = new.placement.iter().map(|a| self.rvalue(a)).collect();
        if place.iter().any(|a| a.ty.is_error()) {
            return error();
        }
        if !self.placement_allocation(ty, &place, span) {
            return error();
        }
        let Some(pointee) = self.pointee(place[0].ty) else {
            self.error(span, "the place of a placement new must be a pointer");
            return error();
        };
        let in_space = |space| ast::Qualifiers {
            address_space: Some(space),
            ..ast::Qualifiers::default()
        };
        let pointer_ty = self.pointer_with(ty, in_space(pointee.space));
        let generic_ty = self.pointer_with(ty, in_space(AddressSpace::Generic));
        let address = self.cast(place[0].clone(), pointer_ty, span);
        // The address is evaluated once, held in a private variable.
        let local = hir::Local {
            name: self.program.names.intern("(placement new)"),
            ty: pointer_ty,
            space: AddressSpace::Private,
            is_const: false,
            span,
        };
        let id = self.add_local(None, local);
        let pointer = || Expr::new(H::Local(id), pointer_ty, span);
        let hold = Expr::new(
            H::Assign(Box::new(pointer()), Box::new(address)),
            pointer_ty,
            span,
        );
        let made = match self.placed_object(ty, pointer(), &new.init, span) {
            Some(made) => made,
            None => return error(),
        };
        let made = match made {
            Some(made) => Expr::new(H::Comma(Box::new(hold), Box::new(made)), pointer_ty, span),
            None => hold,
        };
        let generic = self.cast(pointer(), generic_ty, span);
        Expr::new(
            H::Comma(Box::new(made), Box::new(generic)),
            generic_ty,
            span,
        )
    }

    /// Whether the program's `operator new` for a `ty` at `place` is one
    /// placement new may stand in for: the one the arguments choose,
    /// returning its pointer. False after an error.
    fn placement_allocation(&mut self, ty: Type, place: &[Expr], span: Span) -> bool {
        let name = self
            .names
            .rfind(&crate::language::operator_name(" new"))
            .map(Name);
        let declared = name.and_then(|name| Some((name, self.lookup(name)?)));
        let Some((name, Symbol::Function(first))) = declared else {
            self.error(span, "use of placement new requires explicit declaration");
            return false;
        };
        let candidates = self.overload_set(first);
        let size_type = Type::Scalar(self.size_type(false));
        let size = self.program.types.size(ty).unwrap_or(0);
        let mut args = vec![self.int_const(size, size_type, span)];
        args.extend(place.iter().cloned());
        let Some(id) = self.resolve_overload(name, &candidates, &args, span) else {
            return false;
        };
        if !self.returns_parameter(id, 1) {
            let not_yet = crate::language::NOT_YET;
            self.error(
                span,
                format!("placement new through an 'operator new' other than one returning its pointer ('return p;') is {not_yet}"),
            );
            return false;
        }
        true
    }

    /// Whether function `id` is defined as `return p;`, `p` its parameter
    /// `index`.
    fn returns_parameter(&self, id: FunctionId, index: usize) -> bool {
        let f = &self.program.functions[id];
        let ([only], Some(&param)) = (&f.body[..], f.params.get(index)) else {
            return false;
        };
        let hir::StmtKind::Return(Some(mut e)) = f.stmts[*only].kind else {
            return false;
        };
        loop {
            match f.exprs[e].kind {
                H::Local(local) => return local == param,
                H::Convert(inner) | H::PointerCast(inner) => e = inner,
                _ => return false,
            }
        }
    }

    /// The object of type `ty` made at `pointer` as `init` says: its
    /// constructor's call or the store of its value, or `Some(None)` for
    /// a default-initialized object nothing initializes; `None` after an
    /// error.
    fn placed_object(
        &mut self,
        ty: Type,
        pointer: Expr,
        init: &ast::NewInit,
        span: Span,
    ) -> Option<Option<Expr>> {
        if let Type::Record(r) = ty {
            if self.constructors(r).is_some() {
                let (args, rparen): (Vec<&ast::Expr>, Location) = match init {
                    ast::NewInit::Default => (Vec::new(), span.location()),
                    ast::NewInit::Parens(args, lparen) => (args.iter().collect(), *lparen),
                    ast::NewInit::Braces(ast::Initializer::List(items, _)) => (
                        self.list_constructor_arguments(r, items, span)?,
                        span.location(),
                    ),
                    ast::NewInit::Braces(ast::Initializer::Expr(e)) => (vec![e], span.location()),
                };
                let made = self.construct(r, pointer, &args, span, rparen);
                return (!made.ty.is_error()).then_some(Some(made));
            }
        }
        let value = match init {
            ast::NewInit::Default => return Some(None),
            ast::NewInit::Parens(args, lparen) => match (&args[..], ty) {
                ([], _) => self.default_constructed(ty, span)?,
                (_, Type::Record(r)) => {
                    let args: Vec<&ast::Expr> = args.iter().collect();
                    self.temporary_object(r, &args, span, *lparen)
                }
                ([arg], _) => {
                    let v = self.rvalue(arg);
                    self.cast(v, ty, span)
                }
                _ => {
                    let ty = self.display(ty);
                    self.error(
                        span,
                        format!("excess elements in scalar initializer of '{ty}'"),
                    );
                    return None;
                }
            },
            ast::NewInit::Braces(list) => self.initializer(list, ty, span.location()).0,
        };
        if value.ty.is_error() {
            return None;
        }
        let place = self.deref(pointer, span);
        Some(Some(Expr::new(
            H::Assign(Box::new(place), Box::new(value)),
            ty,
            span,
        )))
    }
}
