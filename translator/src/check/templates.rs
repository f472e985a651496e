//! C++ function templates. A template is kept as written; a call names
//! it, with template arguments (`max<int>(a, b)`) or with them deduced
//! from the call's arguments, and gets the instantiation for those types:
//! an ordinary HIR function, declared at the call and checked once the
//! current external declaration is done, at file scope with each template
//! parameter a type name for its argument. Instantiations are made once
//! per template and arguments.
//!
//! Deduction takes a parameter declared as `T`, `T *` or `T &` (with any
//! qualifiers) from its argument's type: the value's type after the
//! array-to-pointer conversion, the pointee's with its address space and
//! the `const` the parameter does not add (`const T *` from a
//! `__global int *` makes `T` `__global int`, as clang has it), or the
//! referent's. Seed 004: a template parameter's address space is known
//! only at instantiation, so `T x;` in a body instantiated with
//! `__global int` is clang's error for a `__global` local.

use super::*;
use std::sync::Arc;

/// An instantiation to check once the current declaration is done.
pub(super) struct PendingInstance {
    id: FunctionId,
    template: Arc<ast::FunctionTemplate>,
    arguments: Vec<TemplateArgument>,
    /// The instantiation's name (`max<int>`) and the call that asked for
    /// it, for the note after an error in its body.
    display: String,
    requested_at: Location,
}

/// A type template argument: a type and the qualifiers (address space,
/// `const`) it carries.
pub(super) type TemplateArgument = (Type, ast::Qualifiers);

impl Checker<'_> {
    /// Declares function template `t`.
    pub(super) fn function_template(&mut self, t: &Arc<ast::FunctionTemplate>) {
        let f = &t.function;
        let Some((name, location)) = f.declarator.name else {
            return;
        };
        if f.specs.is_kernel {
            self.error(location, "kernel functions cannot be used in a template declaration, instantiation or specialization");
            return;
        }
        match self.lookup(name) {
            Some(Symbol::FunctionTemplate) | None => {}
            Some(_) => {
                let spelling = self.spelling(name);
                let not_yet = crate::language::NOT_YET;
                self.error(
                    location,
                    format!("a function template named like another declaration ('{spelling}') is {not_yet}"),
                );
                return;
            }
        }
        self.declare(name, Symbol::FunctionTemplate);
        self.function_templates
            .entry(name)
            .or_default()
            .push(Arc::clone(t));
    }

    /// A call of function template `name` with `explicit` template
    /// arguments and the written arguments `written`.
    pub(super) fn template_call(
        &mut self,
        name: Name,
        explicit: &[ast::TypeName],
        written: &[ast::Expr],
        span: Span,
        rparen: Location,
    ) -> Expr {
        let error = || Expr::new(H::Int(0), Type::Error, span);
        let explicit: Vec<TemplateArgument> = explicit
            .iter()
            .map(|t| {
                let (ty, space) = self.type_name_and_space(t);
                let quals = ast::Qualifiers {
                    is_const: t.specs.qualifiers.is_const,
                    address_space: space,
                    ..ast::Qualifiers::default()
                };
                (ty, quals)
            })
            .collect();
        let args: Vec<Expr> = written.iter().map(|a| self.expr(a)).collect();
        let types = explicit
            .iter()
            .map(|(ty, _)| ty)
            .chain(args.iter().map(|a| &a.ty));
        if types.clone().any(|t| t.is_error()) {
            return error();
        }
        let templates = self
            .function_templates
            .get(&name)
            .cloned()
            .unwrap_or_default();
        let deduced: Vec<(Arc<ast::FunctionTemplate>, Vec<TemplateArgument>)> = templates
            .into_iter()
            .filter_map(|t| {
                let arguments = self.deduce(&t, &explicit, &args)?;
                Some((t, arguments))
            })
            .collect();
        let spelling = self.spelling(name);
        let (template, arguments) = match <[_; 1]>::try_from(deduced) {
            Ok([one]) => one,
            Err(deduced) if deduced.is_empty() => {
                self.error(
                    span,
                    format!("no matching function for call to '{spelling}'"),
                );
                return error();
            }
            Err(_) => {
                self.error(span, format!("call to '{spelling}' is ambiguous"));
                return error();
            }
        };
        let id = self.instantiate(&template, arguments, span.location());
        self.checked_call(name, &[id], None, args, span, rparen)
    }

    /// The template arguments of `t` for a call with `explicit` ones and
    /// arguments `args`, or `None` when they cannot all be deduced or
    /// disagree.
    fn deduce(
        &mut self,
        t: &ast::FunctionTemplate,
        explicit: &[TemplateArgument],
        args: &[Expr],
    ) -> Option<Vec<TemplateArgument>> {
        let Some(ast::Derived::Function { params, .. }) = t.function.declarator.derived.first()
        else {
            return None;
        };
        if explicit.len() > t.params.len() || args.len() != params.len() {
            return None;
        }
        let mut bound: Vec<Option<TemplateArgument>> = t.params.iter().map(|_| None).collect();
        for (slot, argument) in bound.iter_mut().zip(explicit) {
            *slot = Some(*argument);
        }
        for (param, arg) in params.iter().zip(args) {
            let ast::TypeSpec::Typedef(spelled) = param.specs.ty else {
                continue;
            };
            let Some(index) = t.params.iter().position(|(n, _)| *n == spelled) else {
                continue;
            };
            if index < explicit.len() {
                // Given: the argument converts to it.
                continue;
            }
            let deduced = match &param.declarator.derived[..] {
                [] if param.declarator.reference.is_some() => {
                    Some((arg.ty, ast::Qualifiers::default()))
                }
                [] => {
                    let value = self.quietly(|c| c.decay(arg.clone()).ty);
                    Some((value, ast::Qualifiers::default()))
                }
                [ast::Derived::Pointer(_)] => {
                    let value = self.quietly(|c| c.decay(arg.clone()).ty);
                    let pointee = self.pointee(value)?;
                    // What the parameter writes itself, T does not take.
                    let written = param.specs.qualifiers;
                    let quals = ast::Qualifiers {
                        is_const: pointee.is_const && !written.is_const,
                        address_space: written.address_space.xor(Some(pointee.space)),
                        ..ast::Qualifiers::default()
                    };
                    Some((pointee.ty, quals))
                }
                _ => None,
            };
            match (bound[index], deduced) {
                (None, Some(argument)) => bound[index] = Some(argument),
                (Some(earlier), Some(argument)) if earlier != argument => return None,
                _ => {}
            }
        }
        bound.into_iter().collect()
    }

    /// The instantiation of `t` for `arguments`: declared now, checked
    /// after the current external declaration.
    fn instantiate(
        &mut self,
        t: &Arc<ast::FunctionTemplate>,
        arguments: Vec<TemplateArgument>,
        requested_at: Location,
    ) -> FunctionId {
        let key = (Arc::as_ptr(t) as usize, arguments.clone());
        if let Some(&id) = self.instances.get(&key) {
            return id;
        }
        let f = &t.function;
        let (name, location) = f.declarator.name.unwrap_or((Name(0), t.location));
        let listed: Vec<String> = arguments
            .iter()
            .map(|&argument| self.argument_text(argument))
            .collect();
        let display = format!("{}<{}>", self.spelling(name), listed.join(", "));
        self.bind_template_parameters(t, &arguments);
        let (id, _) = self.declare_function(
            &f.specs,
            &f.declarator,
            location,
            true,
            None,
            Some(&display),
        );
        self.scopes.pop();
        self.instances.insert(key, id);
        self.pending_instances.push(PendingInstance {
            id,
            template: Arc::clone(t),
            arguments,
            display,
            requested_at,
        });
        id
    }

    /// A template argument as clang writes it: `const __global int`.
    fn argument_text(&self, (ty, quals): TemplateArgument) -> String {
        let constness = if quals.is_const { "const " } else { "" };
        let space = match quals.address_space {
            Some(AddressSpace::Global) => "__global ",
            Some(AddressSpace::Local) => "__local ",
            Some(AddressSpace::Constant) => "__constant ",
            Some(AddressSpace::Private) => "__private ",
            Some(AddressSpace::Generic) => "__generic ",
            None => "",
        };
        let ty = match ty {
            Type::Record(r) => self.class_spelling(r),
            ty => self.display(ty),
        };
        format!("{constness}{space}{ty}")
    }

    /// Opens a scope where each parameter of `t` names its argument's
    /// type; the caller closes it.
    fn bind_template_parameters(
        &mut self,
        t: &ast::FunctionTemplate,
        arguments: &[TemplateArgument],
    ) {
        self.scopes.push();
        for ((name, _), &(ty, quals)) in t.params.iter().zip(arguments) {
            self.declare(*name, Symbol::Typedef(ty, quals, None));
        }
    }

    /// Checks the bodies of the instantiations made so far, and of those
    /// they make.
    pub(super) fn check_pending_instances(&mut self) {
        while let Some(pending) = self.pending_instances.pop() {
            let f = &pending.template.function;
            let errors = self.diags.error_count();
            self.bind_template_parameters(&pending.template, &pending.arguments);
            self.define_function(&f.specs, &f.declarator, &f.body, (pending.id, false), None);
            self.scopes.pop();
            if self.diags.error_count() > errors {
                self.diags.note(
                    pending.requested_at,
                    format!(
                        "in instantiation of function template specialization '{}' requested here",
                        pending.display
                    ),
                );
            }
        }
    }
}
