//! C++ lambda expressions. Each is an object of a class of its own whose
//! `const` call operator has the lambda's parameters and body; each
//! variable it captures is a member: by copy, a copy of its value; by
//! reference, a pointer to it. A lambda without captures has one `char`
//! of room, as C++ gives it.
//!
//! The call operator takes each capture by reference as a hidden
//! reference parameter after `this`, which its body names: a call in the
//! function that made the lambda passes the variable itself, which the
//! pointer model follows into the call as any reference argument; a call
//! elsewhere (a template the lambda was passed to) passes what the
//! member points to, which the pointer model follows only for `__global`
//! and `__local` memory (a private variable there is its named error).
//!
//! The body is checked where the lambda is written, as the call
//! operator's, nested in the enclosing function's check: the enclosing
//! function's state is set aside, its variables are reachable only as
//! captures (a name below [`Checker::local_floor`] is an error, never the
//! wrong variable), and its types and constants stay in scope. Without
//! `-> type`, the first `return` with a value gives the return type.

use super::*;
use crate::layout::{self, FieldSpec, RecordAttributes};
use std::sync::Arc;

/// A capture by reference: its member in the closure (the captured
/// object's address), and the variable, as the function that made the
/// lambda names it.
#[derive(Clone)]
pub(super) struct ReferenceCapture {
    /// `None` for a private variable, which only the function that made
    /// the lambda can reach.
    field: Option<usize>,
    /// The hidden parameter's type: a pointer to the variable.
    pointer: Type,
    captured: Captured,
}

/// A variable a lambda captures.
#[derive(Clone)]
struct Captured {
    name: Name,
    /// The enclosing function's variable, or `None` for a capture of the
    /// lambda this one is in (a member of its closure).
    local: Option<LocalId>,
    by_reference: bool,
}

impl Checker<'_> {
    pub(super) fn lambda(&mut self, l: &ast::Lambda, span: Span) -> Expr {
        let error = || Expr::new(H::Int(0), Type::Error, span);
        let class = self.current.as_ref().and_then(|f| f.class);
        if class.is_some_and(|r| !self.closure_classes.contains(&r)) {
            let not_yet = crate::language::NOT_YET;
            self.error(
                l.location,
                format!("lambdas in member functions are {not_yet}"),
            );
            return error();
        }
        let Some(captured) = self.captures(l) else {
            return error();
        };
        let function = self.current.as_ref().expect("in a function").id;
        let key = (l as *const ast::Lambda as usize, function);
        let r = match self.closures.get(&key) {
            Some(&r) => r,
            None => {
                let errors = self.diags.error_count();
                let r = self.closure_class(&captured, span);
                let fields = self.closure_fields(&captured, span);
                let mut references = Vec::new();
                for (c, field) in captured.iter().zip(fields) {
                    if c.by_reference {
                        let pointer = self.closure_member(c, span).0;
                        references.push(ReferenceCapture {
                            field,
                            pointer,
                            captured: c.clone(),
                        });
                    }
                }
                if !l.call.params.is_empty() {
                    // Generic: each call's arguments make an instance,
                    // with the hidden parameters of the captures by
                    // reference (`closure_references`).
                    let name = Name(
                        self.names
                            .rfind(&crate::language::operator_name("()"))
                            .unwrap_or_default(),
                    );
                    self.member_templates
                        .insert((r, name), vec![Arc::clone(&l.call)]);
                    self.generic_closures.insert(r, l.deduce_return);
                } else if self
                    .call_operator_of(r, &l.call, l.deduce_return, &references, None)
                    .is_none()
                {
                    return error();
                }
                if !references.is_empty() {
                    self.closure_references.insert(r, (function, references));
                }
                // A check that may be quiet (see `closures`) keeps only a
                // lambda without errors: one with errors is checked again,
                // so that they are reported.
                if self.diags.error_count() == errors {
                    self.closures.insert(key, r);
                }
                r
            }
        };
        self.closure_object(r, &captured, span)
    }

    /// The variables `l` captures: of the enclosing function's names its
    /// body uses, those that are variables, each as the capture list or
    /// default says; `None` after clang's error for one it cannot.
    fn captures(&mut self, l: &ast::Lambda) -> Option<Vec<Captured>> {
        let mut captured = Vec::new();
        let mut ok = true;
        for c in &l.captures {
            if !matches!(self.lookup(c.name), Some(Symbol::Local(_) | Symbol::Member)) {
                let spelling = self.spelling(c.name);
                self.error(
                    c.location,
                    format!("use of undeclared identifier '{spelling}'"),
                );
                ok = false;
            }
        }
        for &(name, at) in &l.outer_names {
            // A member here is a capture of the lambda around this one.
            let local = match self.lookup(name) {
                Some(Symbol::Local(local)) => Some(local),
                Some(Symbol::Member) => None,
                _ => continue,
            };
            let listed = l.captures.iter().find(|c| c.name == name);
            let by_reference = match (listed, l.default) {
                (Some(c), _) => c.by_reference,
                (None, Some(default)) => default == ast::CaptureDefault::Reference,
                (None, None) => {
                    let spelling = self.spelling(name);
                    self.error(
                        at,
                        format!("variable '{spelling}' cannot be implicitly captured in a lambda with no capture-default specified"),
                    );
                    ok = false;
                    continue;
                }
            };
            captured.push(Captured {
                name,
                local,
                by_reference,
            });
        }
        ok.then_some(captured)
    }

    /// The object `c` captures, where the lambda is written.
    fn captured_object(&mut self, c: &Captured, span: Span) -> Expr {
        let Some(local) = c.local else {
            return self.implicit_member(c.name, span);
        };
        let f = self.current.as_ref().expect("in a function");
        let ty = f.locals[local].ty;
        let variable = Expr::new(H::Local(local), ty, span);
        if self.is_reference(local) {
            // A reference names its referent.
            return self.deref(variable, span);
        }
        variable
    }

    /// The type and space of what `c` captures.
    fn captured_type(&mut self, c: &Captured, span: Span) -> (Type, AddressSpace) {
        let object = self.quietly(|this| this.captured_object(c, span));
        (object.ty, self.place_space(&object))
    }

    /// The closure class of a lambda capturing `captured`.
    /// What `c` keeps in the closure: its type, as a member if it has
    /// one (a capture by reference of a private variable has none: its
    /// pointer could not leave the function that made the lambda).
    fn closure_member(&mut self, c: &Captured, span: Span) -> (Type, bool) {
        let (ty, space) = self.captured_type(c, span);
        if !c.by_reference {
            return (ty, true);
        }
        let pointer = self.pointer_to(Pointee {
            ty,
            is_const: false,
            is_volatile: false,
            space,
            endian_host: false,
        });
        (pointer, space != AddressSpace::Private)
    }

    /// The member index of each of `captured`, if it has one.
    fn closure_fields(&mut self, captured: &[Captured], span: Span) -> Vec<Option<usize>> {
        let mut next = 0;
        captured
            .iter()
            .map(|c| {
                self.closure_member(c, span).1.then(|| {
                    next += 1;
                    next - 1
                })
            })
            .collect()
    }

    fn closure_class(&mut self, captured: &[Captured], span: Span) -> naga::Handle<types::Record> {
        let mut fields = Vec::new();
        for c in captured {
            let (ty, member) = self.closure_member(c, span);
            if !c.by_reference {
                self.reject_destructible(ty, span.location(), "captured by copy");
            }
            if !member {
                continue;
            }
            fields.push(FieldSpec {
                name: self.symbol(c.name),
                ty,
                type_align: None,
                aligned: None,
                packed: false,
            });
        }
        if fields.is_empty() {
            fields.push(FieldSpec {
                name: self.program.names.intern("(no captures)"),
                ty: Type::Scalar(Scalar::Char),
                type_align: None,
                aligned: None,
                packed: false,
            });
        }
        let name = self.program.names.intern("(lambda)");
        let r = self.new_record(ast::RecordKind::Struct, name);
        self.closure_classes.insert(r);
        let laid = layout::layout_record(
            ast::RecordKind::Struct,
            &fields,
            RecordAttributes {
                cxx: true,
                ..RecordAttributes::default()
            },
            &self.program.types,
        );
        match laid {
            Ok(laid) => {
                let record = self.program.types.record_mut(r);
                record.complete = true;
                record.fields = laid.fields;
                record.size = laid.size;
                record.align = laid.align;
            }
            Err(_) => self.error(span, "a captured variable has an incomplete type"),
        }
        let members = captured.iter().map(|c| (c.name, Symbol::Member)).collect();
        self.class_members.insert(r, members);
        r
    }

    /// The call operator of closure class `r` for lambda `l`, declared and
    /// checked; `None` after an error in its declaration.
    pub(super) fn call_operator_of(
        &mut self,
        r: naga::Handle<types::Record>,
        call: &ast::MethodTemplate,
        deduce_return: bool,
        references: &[ReferenceCapture],
        instance: Option<(&[templates::TemplateArgument], &str)>,
    ) -> Option<FunctionId> {
        let name = Name(self.names.rfind(&crate::language::operator_name("()"))?);
        let m = &call.method;
        let body = m.body.as_ref()?;
        let owner = self.method_owner(r, &m.specs, m.this_qualifiers, call.location)?;
        let outer_state = self.current.take();
        let outer_depths = (self.loop_depth, self.break_depth);
        (self.loop_depth, self.break_depth) = (0, 0);
        let outer_floor = std::mem::replace(&mut self.local_floor, self.scopes.len());
        self.hidden_params = references
            .iter()
            .map(|c| (c.captured.name, c.pointer))
            .collect();
        if let Some((arguments, _)) = instance {
            self.bind_template_parameters(&call.params, arguments);
        }
        let display = instance.map_or("lambda", |(_, display)| display);
        let (id, _) = self.declare_function(
            &m.specs,
            &m.declarator,
            call.location,
            true,
            Some(owner),
            Some(display),
        );
        if instance.is_none() {
            self.methods.insert((r, name), vec![id]);
        }
        self.deduce_next_return = deduce_return;
        self.open_class_scope(r);
        self.define_function(
            &m.specs,
            &m.declarator,
            body,
            (id, false),
            Some((owner, &[])),
        );
        self.scopes.pop();
        if instance.is_some() {
            self.scopes.pop();
        }
        self.hidden_params.clear();
        self.deduce_next_return = false;
        self.local_floor = outer_floor;
        (self.loop_depth, self.break_depth) = outer_depths;
        self.current = outer_state;
        Some(id)
    }

    /// The lambda's value: a closure object of class `r` with each
    /// capture's member set.
    fn closure_object(
        &mut self,
        r: naga::Handle<types::Record>,
        captured: &[Captured],
        span: Span,
    ) -> Expr {
        let ty = Type::Record(r);
        let local = hir::Local {
            name: self.program.names.intern("(lambda object)"),
            ty,
            space: AddressSpace::Private,
            is_const: false,
            span,
        };
        let object = self.add_local(None, local);
        let object = || Expr::new(H::Local(object), ty, span);
        let mut value = object();
        let fields = self.closure_fields(captured, span);
        for (field, c) in fields.into_iter().zip(captured).rev() {
            let Some(field) = field else {
                continue;
            };
            let captured_object = self.captured_object(c, span);
            let init = if c.by_reference {
                self.address_of_place(captured_object, span)
            } else {
                captured_object
            };
            let field_ty = self.record(r).fields[field].ty;
            let target = Expr::new(H::Member(Box::new(object()), field), field_ty, span);
            let assign = Expr::new(H::Assign(Box::new(target), Box::new(init)), field_ty, span);
            value = Expr::new(H::Comma(Box::new(assign), Box::new(value)), ty, span);
        }
        value
    }

    /// The arguments of a call of closure class `r`'s call operator for
    /// its captures by reference (see the module's documentation), on
    /// `object`, the closure.
    pub(super) fn reference_capture_arguments(
        &mut self,
        r: naga::Handle<types::Record>,
        object: &Expr,
        span: Span,
    ) -> Vec<Expr> {
        let Some((made_in, captures)) = self.closure_references.get(&r).cloned() else {
            return Vec::new();
        };
        let here = self.current.as_ref().map(|f| f.id);
        captures
            .iter()
            .map(|c| match c.field {
                _ if here == Some(made_in) => self.captured_object(&c.captured, span),
                Some(field) => {
                    let pointer = Expr::new(H::Member(Box::new(object.clone()), field), c.pointer, span);
                    self.deref(pointer, span)
                }
                None => {
                    let spelling = self.spelling(c.captured.name);
                    let not_yet = crate::language::NOT_YET;
                    self.error(
                        span,
                        format!("calls of a lambda capturing the private variable '{spelling}' by reference outside the function that made it are {not_yet}"),
                    );
                    Expr::new(H::Int(0), Type::Error, span)
                }
            })
            .collect()
    }

    /// Whether `name` is a variable of the function around the lambda
    /// being checked (below [`Checker::local_floor`]), which the lambda
    /// reaches only by capturing it.
    pub(super) fn below_local_floor(&self, name: Name) -> bool {
        self.local_floor > 0
            && matches!(self.lookup(name), Some(Symbol::Local(_)))
            && self
                .scopes
                .position(name)
                .is_some_and(|p| p < self.local_floor)
    }
}
