//! C++'s range-based `for` over an array, as the parser lowered it
//! ([`ast::RangeFor`]). The range is evaluated once, as C++ has it: its
//! place is frozen (each computed index and each pointer it goes through
//! is kept in a local before the loop), and the lowered loop's `R` names
//! that place again at each element. Binding a reference to the array
//! instead would need the pointer model to take the address of an
//! element reached through a pointer to an array, which it cannot yet.

use super::*;
use hir::Block;

impl Checker<'_> {
    pub(super) fn range_for(&mut self, r: &ast::RangeFor, out: &mut Block) {
        let span = r.elements.span();
        self.scopes.push();
        let mut block = Vec::new();
        let range = self.expr(&r.range);
        let count = match range.ty {
            Type::Array(_, count) => count,
            Type::Record(class) if r.begin_end.is_some() => {
                self.class_range(r, class, range, block, span, out);
                self.scopes.pop();
                return;
            }
            Type::Error => {
                self.scopes.pop();
                return;
            }
            ty => {
                let shown = self.display(ty);
                self.error(
                    r.colon,
                    format!("invalid range expression of type '{shown}'; no viable 'begin' function available"),
                );
                self.scopes.pop();
                return;
            }
        };
        let Some(place) = self.frozen_place(range, &mut block) else {
            let not_yet = crate::language::NOT_YET;
            self.error(
                r.range.location,
                format!("ranges other than arrays named by variables, members, elements and pointers are {not_yet}"),
            );
            self.scopes.pop();
            return;
        };
        self.declare(r.array, Symbol::Place(Rc::new(place)));
        self.declare(r.count, Symbol::EnumConstant(count as i64, Scalar::Int));
        self.statement(&r.elements, &mut block);
        self.scopes.pop();
        out.push(self.add_stmt(StmtKind::Block(block), span));
    }

    /// The loop over an object of class `class` whose `begin()` and
    /// `end()` give pointers: `R` is `begin()` and `COUNT` `end() -
    /// begin()`, each evaluated once, before the loop.
    fn class_range(
        &mut self,
        r: &ast::RangeFor,
        class: naga::Handle<types::Record>,
        range: Expr,
        mut block: Block,
        span: Span,
        out: &mut Block,
    ) {
        let Some((begin_name, end_name)) = r.begin_end else {
            return;
        };
        let at = Span::at(r.colon);
        let Some(object) = self.frozen_place(range, &mut block) else {
            let not_yet = crate::language::NOT_YET;
            self.error(
                r.range.location,
                format!("ranges other than objects named by variables, members, elements and pointers are {not_yet}"),
            );
            return;
        };
        let call = |c: &mut Self, name: Name| {
            let (candidates, path) = c.member_functions(class, name, |_| Vec::new(), r.colon)?;
            let object = c.base_object(object.clone(), &path);
            let this = c.object_address(object);
            let value = c.checked_call(name, &candidates, Some(this), Vec::new(), at, r.colon);
            (!value.ty.is_error()).then_some(value)
        };
        let (Some(begin), Some(end)) = (call(self, begin_name), call(self, end_name)) else {
            let shown = self.display(Type::Record(class));
            self.error(
                r.colon,
                format!("invalid range expression of type '{shown}'; no viable 'begin' function available"),
            );
            return;
        };
        let pointers = begin.ty.is_pointer()
            && self.pointee(begin.ty).map(|p| p.ty) == self.pointee(end.ty).map(|p| p.ty);
        if !pointers {
            let not_yet = crate::language::NOT_YET;
            self.error(
                r.colon,
                format!("range-based 'for' over a class whose 'begin()' and 'end()' give other than pointers is {not_yet}"),
            );
            return;
        }
        let first = self.kept(begin, &mut block);
        let end = self.decay(end);
        let length = self.pointer_binary(BinaryOp::Sub, end, first.clone(), at);
        let length = self.kept(length, &mut block);
        self.declare(r.array, Symbol::Place(Rc::new(first)));
        self.declare(r.count, Symbol::Place(Rc::new(length)));
        self.statement(&r.elements, &mut block);
        out.push(self.add_stmt(StmtKind::Block(block), span));
    }

    /// `place` with each index it computes and each pointer it reads kept
    /// in a new local, initialised in `out`: the same object whenever it is
    /// evaluated again. `None` for what is not such a place.
    fn frozen_place(&mut self, mut place: Expr, out: &mut Block) -> Option<Expr> {
        let (ty, span) = (place.ty, place.span);
        let kind = match place.take_kind() {
            kind @ (H::Local(_) | H::Global(_) | H::Str(_)) => kind,
            H::Member(base, field) => H::Member(Box::new(self.frozen_place(*base, out)?), field),
            H::Index(base, index) => {
                let base = if matches!(base.ty, Type::Array(..)) {
                    self.frozen_place(*base, out)?
                } else {
                    self.kept(*base, out)
                };
                H::Index(Box::new(base), Box::new(self.kept(*index, out)))
            }
            H::Deref(pointer) => H::Deref(Box::new(self.kept(*pointer, out))),
            _ => return None,
        };
        Some(Expr::new(kind, ty, span))
    }

    /// `value`, evaluated now into a new local unless it is a constant.
    fn kept(&mut self, value: Expr, out: &mut Block) -> Expr {
        if matches!(value.kind, H::Int(_)) {
            return value;
        }
        let (ty, span) = (value.ty, value.span);
        let local = hir::Local {
            name: self.program.names.intern("range-for range"),
            ty,
            space: AddressSpace::Private,
            is_const: true,
            span,
        };
        let id = self.add_local(None, local);
        let value = self.commit(value);
        out.push(self.add_stmt(StmtKind::Init(id, value), span));
        Expr::new(H::Local(id), ty, span)
    }
}
