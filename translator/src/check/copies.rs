//! C++ copies of class objects. A class's own copy (or move) constructor
//! runs where C++ copies an object of it into a new one: a local declared
//! from an object (`S b = a;`, `S b(a);`), a by-value argument, a
//! `return` of an object, a member or element initialized from one. Its
//! own copy assignment operator runs on `a = b`. A class without one
//! copies each member (and base and element) as C++'s implicit
//! constructor and operator do: bitwise, where no member has one of its
//! own.
//!
//! A prvalue (`S(1)`, a call's result) initializes its object directly
//! (C++17's guaranteed elision), so only copies of objects run code; so
//! does a named return value where clang elides its copy
//! (`named_return`). A constructor or operator that only copies each
//! member, in order, is a bitwise copy and is not called.
//!
//! clvulkan keeps no value category, so a class may not declare both a
//! copy and a move constructor (overloading on lvalue and rvalue
//! references is a named error): the one it declares makes every copy.

use super::*;
use crate::types::Record;
use naga::Handle;
use std::collections::HashSet;

/// The classes whose copies run code of their own.
#[derive(Default)]
pub(super) struct UserCopies {
    /// A copy or move constructor that does more than copy each member.
    constructors: HashSet<Handle<Record>>,
    /// A copy assignment operator that does more than assign each member.
    assignments: HashSet<Handle<Record>>,
}

impl Checker<'_> {
    /// Notes that class `r` has a copy constructor (`assignment` false)
    /// or copy assignment operator whose copies run code.
    pub(super) fn note_user_copy(&mut self, r: Handle<Record>, assignment: bool) {
        let set = match assignment {
            false => &mut self.user_copies.constructors,
            true => &mut self.user_copies.assignments,
        };
        set.insert(r);
    }

    /// Whether copying an object of type `ty` into a new one (with
    /// `assignment`, into an existing one) runs code: its class's own
    /// constructor (operator), or a member's, base's or element's.
    pub(super) fn copies_by_code(&self, ty: Type, assignment: bool) -> bool {
        let set = match assignment {
            false => &self.user_copies.constructors,
            true => &self.user_copies.assignments,
        };
        if set.is_empty() {
            return false;
        }
        crate::stack::guard(|| match ty {
            Type::Record(r) => {
                set.contains(&r)
                    || (self.record(r).kind == ast::RecordKind::Struct
                        && (self.record(r).fields.iter())
                            .any(|f| self.copies_by_code(f.ty, assignment)))
            }
            Type::Array(..) => self
                .element_of(ty)
                .is_some_and(|element| self.copies_by_code(element, assignment)),
            _ => false,
        })
    }

    /// The value that initializes a new object of `value`'s class from
    /// `value`: a prvalue as it is (the object takes its temporaries
    /// over), an object copied by its class's copy constructor where
    /// copies run code.
    pub(super) fn copy_initializer(&mut self, value: Expr) -> Expr {
        self.take_over(&value);
        let is_object = self.is_place(&value) && self.temporary_of(&value).is_none();
        if !is_object || !self.copies_by_code(value.ty, false) {
            return value;
        }
        let (ty, span) = (value.ty, value.span);
        let local = hir::Local {
            name: self.program.names.intern("(copy)"),
            ty,
            space: AddressSpace::Private,
            is_const: false,
            span,
        };
        let id = self.add_local(None, local);
        let target = Expr::new(H::Local(id), ty, span);
        let copy = self.copy_into(target.clone(), value, false, span);
        if copy.ty.is_error() {
            return copy;
        }
        Expr::new(H::Comma(Box::new(copy), Box::new(target)), ty, span)
    }

    /// `target = value` for `target` an object: the class's own
    /// `operator=` where it declares one that takes `value` (C++ declares
    /// the copy assignment alongside), else a copy.
    pub(super) fn assign_to_object(&mut self, target: Expr, value: Expr, span: Span) -> Expr {
        let Type::Record(r) = target.ty else {
            return Expr::new(H::Int(0), Type::Error, span);
        };
        let own = (self.names)
            .rfind(&crate::language::operator_name("="))
            .and_then(|name| self.methods.get(&(r, Name(name))));
        let copy = value.ty == target.ty || value.ty.is_error();
        // A memberwise copy assignment is a bitwise copy, not called.
        let called = !copy || self.user_copies.assignments.contains(&r);
        if own.is_some() && called {
            return self.overloaded_operator("=", vec![target, value], span);
        }
        if copy && self.copies_by_code(target.ty, true) {
            return self.assign_object(target, value, span);
        }
        let ty = target.ty;
        let value = self.convert_for_assignment(value, ty, Conversion::Assign(span.location()));
        Expr::new(H::Assign(Box::new(target), Box::new(value)), ty, span)
    }

    /// `target = source` for objects of a class whose assignment runs
    /// code: its copy assignment operator, or each member's.
    fn assign_object(&mut self, target: Expr, source: Expr, span: Span) -> Expr {
        let (target, bind_target) = self.evaluated_once(target, span);
        let assign = self.copy_into(target.clone(), source, true, span);
        if assign.ty.is_error() {
            return assign;
        }
        let ty = target.ty;
        let assign = Expr::new(H::Comma(Box::new(assign), Box::new(target)), ty, span);
        match bind_target {
            Some(bind) => Expr::new(H::Comma(Box::new(bind), Box::new(assign)), ty, span),
            None => assign,
        }
    }

    /// `target` (a place, evaluated once by the caller) made a copy of
    /// `source` (an object of its type): constructed (`assignment`
    /// false) or assigned, by the class's own constructor or operator
    /// where it has one, else member by member.
    fn copy_into(&mut self, target: Expr, source: Expr, assignment: bool, span: Span) -> Expr {
        let ty = target.ty;
        if let Type::Record(r) = ty {
            let own = match assignment {
                false => self.user_copies.constructors.contains(&r),
                true => self.user_copies.assignments.contains(&r),
            };
            if own {
                return self.own_copy(r, target, source, assignment, span);
            }
        }
        let (source, bind_source) = self.evaluated_once(source, span);
        let parts: Vec<(Expr, Expr)> = match ty {
            Type::Record(r) => {
                let fields: Vec<Type> = self.record(r).fields.iter().map(|f| f.ty).collect();
                (fields.into_iter().enumerate())
                    .map(|(index, ty)| {
                        let member = |object: &Expr| {
                            Expr::new(H::Member(Box::new(object.clone()), index), ty, span)
                        };
                        (member(&target), member(&source))
                    })
                    .collect()
            }
            Type::Array(_, count) => {
                let element = self.element_of(ty).unwrap_or(Type::Error);
                (0..count)
                    .map(|index| {
                        let at = |object: &Expr| {
                            let index = self.int_const(index, Type::INT, span);
                            let place = H::Index(Box::new(object.clone()), Box::new(index));
                            Expr::new(place, element, span)
                        };
                        (at(&target), at(&source))
                    })
                    .collect()
            }
            _ => Vec::new(),
        };
        let mut steps: Vec<Expr> = bind_source.into_iter().collect();
        for (to, from) in parts {
            let step = if self.copies_by_code(to.ty, assignment) {
                self.copy_into(to, from, assignment, span)
            } else {
                let ty = to.ty;
                Expr::new(H::Assign(Box::new(to), Box::new(from)), ty, span)
            };
            if step.ty.is_error() {
                return step;
            }
            steps.push(step);
        }
        let last = steps
            .pop()
            .unwrap_or_else(|| self.int_const(0, Type::INT, span));
        steps.into_iter().rev().fold(last, |rest, step| {
            let ty = rest.ty;
            Expr::new(H::Comma(Box::new(step), Box::new(rest)), ty, span)
        })
    }

    /// A call of class `r`'s own copy constructor (or copy assignment
    /// operator) on `target` with `source`.
    fn own_copy(
        &mut self,
        r: Handle<Record>,
        target: Expr,
        source: Expr,
        assignment: bool,
        span: Span,
    ) -> Expr {
        if assignment && matches!(target.kind, H::Member(..) | H::Index(..)) {
            // `operator=` returns `*this`, which the pointer model cannot
            // return from inside an object of another type: it runs on a
            // copy of the member, stored back.
            let ty = target.ty;
            let local = hir::Local {
                name: self.program.names.intern("(assigned member)"),
                ty,
                space: AddressSpace::Private,
                is_const: false,
                span,
            };
            let id = self.add_local(None, local);
            let copy = || Box::new(Expr::new(H::Local(id), ty, span));
            let load = Expr::new(H::Assign(copy(), Box::new(target.clone())), ty, span);
            let assign = self.own_copy(r, *copy(), source, true, span);
            if assign.ty.is_error() {
                return assign;
            }
            let store = Expr::new(H::Assign(Box::new(target), copy()), ty, span);
            let rest = Expr::new(H::Comma(Box::new(assign), Box::new(store)), ty, span);
            return Expr::new(H::Comma(Box::new(load), Box::new(rest)), ty, span);
        }
        let this = self.address_of_place(target, span);
        let found = match assignment {
            false => self.constructors(r).zip(self.class_names.get(&r).copied()),
            true => {
                let name = (self.names)
                    .rfind(&crate::language::operator_name("="))
                    .map(Name);
                name.and_then(|name| Some((self.methods.get(&(r, name))?.clone(), name)))
            }
        };
        let Some((candidates, name)) = found else {
            return Expr::new(H::Int(0), Type::Error, span);
        };
        let location = span.location();
        self.checked_call(name, &candidates, Some(this), vec![source], span, location)
    }

    /// `place` to use more than once: as it is where reading it again
    /// has no effect, else `*p` with the statement `p = &place` to run
    /// first.
    fn evaluated_once(&mut self, place: Expr, span: Span) -> (Expr, Option<Expr>) {
        if self.reads_again_freely(&place) {
            return (place, None);
        }
        let ty = place.ty;
        let address = self.address_of_place(place, span);
        let pointer = address.ty;
        let local = hir::Local {
            name: self.program.names.intern("(copied object)"),
            ty: pointer,
            space: AddressSpace::Private,
            is_const: false,
            span,
        };
        let id = self.add_local(None, local);
        let p = || Box::new(Expr::new(H::Local(id), pointer, span));
        let bind = Expr::new(H::Assign(p(), Box::new(address)), pointer, span);
        (Expr::new(H::Deref(p()), ty, span), Some(bind))
    }

    /// Whether evaluating `place` again reads the same object and has no
    /// other effect: a variable, or members and constant elements of one.
    fn reads_again_freely(&self, place: &Expr) -> bool {
        match &place.kind {
            H::Local(_) | H::Global(_) => true,
            H::Member(base, _) => self.reads_again_freely(base),
            H::Index(base, index) => {
                matches!(index.kind, H::Int(_)) && self.reads_again_freely(base)
            }
            H::Deref(pointer) => matches!(pointer.kind, H::Local(_)),
            _ => false,
        }
    }
}
