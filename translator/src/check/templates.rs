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

use super::methods::{self, MethodOwner};
use super::packs::{self, PackId};
use super::scopes::Key;
use super::specializations;
use super::*;
use std::sync::Arc;

/// An instantiation to check once the current declaration is done.
pub(super) struct PendingInstance {
    pub(super) what: Pending,
    /// How many functions the program had where the template was defined:
    /// the ones its body may call (see `Checker::visible_functions`).
    pub(super) visible: usize,
    pub(super) arguments: Vec<TemplateArgument>,
    /// The instantiation's name (`max<int>`) and where it was asked for,
    /// for the note after an error in its body.
    pub(super) display: String,
    pub(super) requested_at: Location,
    /// How many instantiations it is nested in (see
    /// [`MAX_INSTANTIATION_DEPTH`]).
    pub(super) depth: usize,
}

/// clang's bound on nested instantiations: a template that instantiates
/// itself without end (`f(xs..., 1)`, `S<N + 1>`) is an error there, not
/// a build that never ends.
pub(super) const MAX_INSTANTIATION_DEPTH: usize = 1024;

/// What an instantiation has left to check.
pub(super) enum Pending {
    /// A function template's instance, function `id`.
    Function(FunctionId, Arc<ast::FunctionTemplate>),
    /// The member functions of a class template's instance, record `r`,
    /// as its definition declared them.
    Methods(
        naga::Handle<types::Record>,
        Arc<ast::ClassTemplate>,
        Vec<methods::DeclaredMethod>,
    ),
    /// A member function template's instance, function `id` of class
    /// `r`, with the owner it was declared with.
    Method(
        FunctionId,
        naga::Handle<types::Record>,
        Arc<ast::MethodTemplate>,
        methods::MethodOwner,
    ),
}

/// A template argument: a type with the qualifiers (address space,
/// `const`) it carries, an integer of a given type, or a parameter pack's
/// elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum TemplateArgument {
    Type(Type, ast::Qualifiers),
    Value(i64, Scalar),
    Pack(PackId),
}

/// The symbol a template parameter bound to `argument` is, other than a
/// pack (see `Checker::pack_symbol`).
pub(super) fn argument_symbol(argument: TemplateArgument) -> Symbol {
    match argument {
        TemplateArgument::Type(ty, quals) => Symbol::Typedef(ty, quals, None),
        TemplateArgument::Value(value, scalar) => Symbol::EnumConstant(value, scalar),
        TemplateArgument::Pack(_) => Symbol::Pack(Rc::from(Vec::new())),
    }
}

impl Checker<'_> {
    /// Declares function template `t`, or an explicit specialization of
    /// one (`template <>`).
    pub(super) fn function_template(&mut self, t: &Arc<ast::FunctionTemplate>) {
        let f = &t.function;
        let Some((name, location)) = f.declarator.name else {
            return;
        };
        if t.params.is_empty() {
            self.function_specialization(name, t, location);
            return;
        }
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
        self.mark_template_definition(Arc::as_ptr(t) as usize);
    }

    /// `template <> ret name<args>(params) { body }`: the instance of the
    /// template `name` that `args` (or, without them, the parameters'
    /// types) select, defined by this body instead of the template's.
    fn function_specialization(
        &mut self,
        name: Name,
        s: &Arc<ast::FunctionTemplate>,
        location: Location,
    ) {
        let f = &s.function;
        let spelling = self.spelling(name);
        let templates = self
            .function_templates
            .get(&name)
            .cloned()
            .unwrap_or_default();
        // The parameters' types stand for a call's arguments.
        let Some(ast::Derived::Function { params, .. }) = f.declarator.derived.first() else {
            return;
        };
        let args: Vec<Expr> = params
            .iter()
            .map(|p| {
                let (ty, _) = self.quietly(|c| c.param_type(p, p.location));
                Expr::new(H::Int(0), ty, Span::at(p.location))
            })
            .collect();
        let written = f.declarator.template_args.as_deref().unwrap_or_default();
        let mut matched = Vec::new();
        for t in templates {
            let explicit = self
                .quietly(|c| c.written_template_arguments(&t.params, written, Span::at(location)));
            let Some(explicit) = explicit else { continue };
            if let Some(arguments) = self.quietly(|c| c.deduce(&t, &explicit, &args)) {
                matched.push((t, arguments));
            }
        }
        let [(template, arguments)] = &matched[..] else {
            self.error(
                location,
                format!(
                    "no function template matches function template specialization '{spelling}'"
                ),
            );
            return;
        };
        let key = (Arc::as_ptr(template) as usize, arguments.clone());
        if self.instances.contains_key(&key) {
            self.error(
                location,
                format!("explicit specialization of '{spelling}' after instantiation"),
            );
            return;
        }
        let display = self.instance_display(name, arguments);
        let (id, reusable) = self.declare_function(
            &f.specs,
            &f.declarator,
            location,
            true,
            None,
            Some(&display),
        );
        self.instances.insert(key, id);
        self.define_function(&f.specs, &f.declarator, &f.body, (id, reusable), None);
    }

    /// Notes that the template at `key` is defined here: the functions
    /// declared so far are those its instantiations may call.
    pub(super) fn mark_template_definition(&mut self, key: usize) {
        let count = self.program.functions.len();
        self.template_visible_functions.insert(key, count);
    }

    /// How many functions the template at `key` may call.
    pub(super) fn template_visibility(&self, key: usize) -> usize {
        self.template_visible_functions
            .get(&key)
            .copied()
            .unwrap_or(usize::MAX)
    }

    /// The overloads of a function named in an instantiation's body that
    /// C++ sees there: those declared before the template. (C++ looks up
    /// such names where the template is defined; argument-dependent lookup
    /// could find later ones for arguments of class type, which this
    /// refuses rather than take one C++ would not.) `None` after clang's
    /// error when none is left.
    pub(super) fn visible_overloads(
        &mut self,
        name: Name,
        mut candidates: Vec<FunctionId>,
        span: Span,
    ) -> Option<Vec<FunctionId>> {
        let Some(limit) = self.visible_functions else {
            return Some(candidates);
        };
        candidates.retain(|id| id.index() < limit);
        if candidates.is_empty() {
            let spelling = self.spelling(name);
            self.error(
                span,
                format!("call to function '{spelling}' that is neither visible in the template definition nor found by argument-dependent lookup"),
            );
            return None;
        }
        Some(candidates)
    }

    /// A call of function template `name` with `explicit` template
    /// arguments and the written arguments `written`.
    pub(super) fn template_call(
        &mut self,
        name: Name,
        explicit: &[ast::TemplateArg],
        written: &[&ast::Expr],
        span: Span,
        rparen: Location,
    ) -> Expr {
        let error = || Expr::new(H::Int(0), Type::Error, span);
        let args: Vec<Expr> = written.iter().map(|a| self.expr(a)).collect();
        if args.iter().any(|a| a.ty.is_error()) || self.too_deep(span.location()) {
            return error();
        }
        let templates = self
            .function_templates
            .get(&name)
            .cloned()
            .unwrap_or_default();
        let mut deduced: Vec<(Arc<ast::FunctionTemplate>, Vec<TemplateArgument>)> = Vec::new();
        for t in templates {
            let Some(explicit) = self.written_template_arguments(&t.params, explicit, span) else {
                return error();
            };
            if let Some(arguments) = self.deduce(&t, &explicit, &args) {
                // SFINAE: a template whose declaration has no meaning
                // for the arguments is no candidate.
                if !self.substitution_fails(&t, &arguments) {
                    deduced.push((t, arguments));
                }
            }
        }
        if deduced.is_empty() {
            let spelling = self.spelling(name);
            self.error(
                span,
                format!("no matching function for call to '{spelling}'"),
            );
            return error();
        }
        // Each template that deduces gives a candidate, declared; the
        // call's conversions choose among them as among overloads, and
        // only the chosen one's body is instantiated.
        let variadic: Vec<bool> = (deduced.iter())
            .map(|(t, _)| t.params.iter().any(|p| p.pack))
            .collect();
        let candidates: Vec<FunctionId> = deduced
            .into_iter()
            .map(|(template, arguments)| self.instantiate(&template, arguments, span.location()))
            .collect();
        let id = match candidates[..] {
            [only] => only,
            _ => {
                let values: Vec<Expr> = args
                    .iter()
                    .map(|a| self.quietly(|c| c.decay(a.clone())))
                    .collect();
                // Where the conversions tie, a template without a
                // parameter pack is the more specialized (C++17
                // [temp.deduct.partial]/11): `f(T)` over `f(T, Ts...)`.
                let fixed: Vec<FunctionId> = (candidates.iter().zip(&variadic))
                    .filter(|(_, &variadic)| !variadic)
                    .map(|(&id, _)| id)
                    .collect();
                let preferred = match fixed.len() {
                    0 => None,
                    n if n == candidates.len() => None,
                    _ => self
                        .quietly(|c| c.resolve_overload(name, &candidates, &values, span))
                        .or_else(|| {
                            self.quietly(|c| c.resolve_overload(name, &fixed, &values, span))
                        }),
                };
                match preferred.or_else(|| self.resolve_overload(name, &candidates, &values, span))
                {
                    Some(id) => id,
                    None => return error(),
                }
            }
        };
        self.schedule_instance(id);
        self.checked_call(name, &[id], None, args, span, rparen)
    }

    /// Has the body of function template instance `id` checked once the
    /// current declaration is done, if that is not planned yet.
    /// One whose return type its body deduces (`auto f(T x)`) is checked
    /// now, apart from the function being checked, as the call needs it.
    fn schedule_instance(&mut self, id: FunctionId) {
        let Some(pending) = self.unscheduled_instances.remove(&id) else {
            return;
        };
        self.check_or_plan(id, pending);
    }

    /// Plans the check of instance `id`, or checks it now where its body
    /// deduces its return type, which the call needs.
    pub(super) fn check_or_plan(&mut self, id: FunctionId, pending: PendingInstance) {
        if !self.undeduced_returns.contains(&id) {
            self.pending_instances.push(pending);
            return;
        }
        let outer_state = self.current.take();
        let outer_depths = (self.loop_depth, self.break_depth);
        (self.loop_depth, self.break_depth) = (0, 0);
        // The caller's locals are not the instance's to see.
        let outer_floor = std::mem::replace(&mut self.local_floor, self.scopes.len());
        self.check_instance(pending);
        self.local_floor = outer_floor;
        (self.loop_depth, self.break_depth) = outer_depths;
        self.current = outer_state;
    }

    /// Whether one more nested instantiation, asked for at `at`, would
    /// pass [`MAX_INSTANTIATION_DEPTH`], after clang's error if it would.
    pub(super) fn too_deep(&mut self, at: Location) -> bool {
        if self.instantiation_depth < MAX_INSTANTIATION_DEPTH {
            return false;
        }
        self.error(
            at,
            format!("recursive template instantiation exceeded maximum depth of {MAX_INSTANTIATION_DEPTH}"),
        );
        true
    }

    /// Whether the declaration of `t` (its return and parameter types)
    /// is an error with its parameters bound to `arguments`: C++'s
    /// substitution failure, which rules the template out of a call
    /// quietly (`typename enable_if<is_float<T>::value, T>::type`).
    fn substitution_fails(
        &mut self,
        t: &ast::FunctionTemplate,
        arguments: &[TemplateArgument],
    ) -> bool {
        let (mark, errors) = (self.diags.len(), self.diags.error_count());
        self.bind_template_parameters(&t.params, arguments);
        let f = &t.function;
        if !matches!(f.specs.ty, ast::TypeSpec::Auto) {
            self.base_type(&f.specs);
        }
        if let Some(ast::Derived::Function { params, .. }) = f.declarator.derived.first() {
            for (p, element) in self.expanded_params(params).unwrap_or_default() {
                self.in_param_element(&element, |c| c.base_type(&p.specs));
            }
        }
        self.scopes.pop();
        let failed = self.diags.error_count() > errors;
        self.diags.truncate(mark);
        failed
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
        self.deduce_for(&t.params, &t.function.declarator, explicit, args)
    }

    /// [`Self::deduce`] for a template with parameters `template_params`
    /// declaring a function `declarator` (a function template's, or a
    /// member function template's).
    pub(super) fn deduce_for(
        &mut self,
        template_params: &[ast::TemplateParam],
        declarator: &ast::Declarator,
        explicit: &[TemplateArgument],
        args: &[Expr],
    ) -> Option<Vec<TemplateArgument>> {
        let Some(ast::Derived::Function { params, .. }) = declarator.derived.first() else {
            return None;
        };
        // A function parameter pack, last, takes the arguments left.
        let pack = params.last().filter(|p| p.declarator.pack);
        let fixed = params.len() - usize::from(pack.is_some());
        let counts_match = match pack {
            Some(_) => args.len() >= fixed,
            None => args.len() == params.len(),
        };
        if explicit.len() > template_params.len() || !counts_match {
            return None;
        }
        let mut bound: Vec<Option<TemplateArgument>> =
            template_params.iter().map(|_| None).collect();
        for (slot, argument) in bound.iter_mut().zip(explicit) {
            *slot = Some(*argument);
        }
        for (param, arg) in params[..fixed].iter().zip(args) {
            if !self.deduce_param(template_params, explicit.len(), param, arg, &mut bound) {
                return None;
            }
        }
        if let Some(param) = pack {
            if !self.deduce_pack(template_params, explicit, param, &args[fixed..], &mut bound) {
                return None;
            }
        }
        self.with_defaults(template_params, bound)
    }

    /// Binds the parameters among `template_params` that function
    /// parameter `param` names plainly, from call argument `arg`; those
    /// before `explicit` are given. False where the argument cannot match
    /// or disagrees with what is bound.
    fn deduce_param(
        &mut self,
        template_params: &[ast::TemplateParam],
        explicit: usize,
        param: &ast::ParamDecl,
        arg: &Expr,
        bound: &mut [Option<TemplateArgument>],
    ) -> bool {
        if let (Some(_), [ast::Derived::Array(Some(size))]) =
            (param.declarator.reference, &param.declarator.derived[..])
        {
            return self.deduce_array_reference(template_params, param, size, arg.ty, bound);
        }
        if let ast::TypeSpec::TemplateId(class, written) = &param.specs.ty {
            // `Pair<T>` from an instance of `Pair`: its arguments.
            let value = self.quietly(|c| c.decay(arg.clone()).ty);
            return self.deduce_from_instance(template_params, *class, written, value, bound);
        }
        let ast::TypeSpec::Typedef(spelled) = param.specs.ty else {
            return true;
        };
        let Some(index) = template_params.iter().position(|p| p.name == spelled) else {
            return true;
        };
        if index < explicit {
            // Given: the argument converts to it.
            return true;
        }
        let deduced = match &param.declarator.derived[..] {
            [] if param.declarator.reference.is_some() => {
                TemplateArgument::Type(arg.ty, ast::Qualifiers::default())
            }
            [] => {
                let value = self.quietly(|c| c.decay(arg.clone()).ty);
                TemplateArgument::Type(value, ast::Qualifiers::default())
            }
            [ast::Derived::Pointer(_)] => {
                let value = self.quietly(|c| c.decay(arg.clone()).ty);
                let Some(pointee) = self.pointee(value) else {
                    return false;
                };
                // What the parameter writes itself, T does not take.
                let written = param.specs.qualifiers;
                let quals = ast::Qualifiers {
                    is_const: pointee.is_const && !written.is_const,
                    address_space: written.address_space.xor(Some(pointee.space)),
                    ..ast::Qualifiers::default()
                };
                TemplateArgument::Type(pointee.ty, quals)
            }
            _ => return true,
        };
        match bound[index] {
            None => bound[index] = Some(deduced),
            Some(earlier) => return earlier == deduced,
        }
        true
    }

    /// Binds the template parameter packs that function parameter pack
    /// `param` (`Ts... args`) names, from the call arguments it takes,
    /// `args`: an element each, deduced as for a parameter of its own.
    fn deduce_pack(
        &mut self,
        template_params: &[ast::TemplateParam],
        explicit: &[TemplateArgument],
        param: &ast::ParamDecl,
        args: &[Expr],
        bound: &mut [Option<TemplateArgument>],
    ) -> bool {
        let mut names = Vec::new();
        packs::names_in_type_spec(&param.specs.ty, &mut names);
        let packs: Vec<usize> = (template_params.iter().enumerate())
            .filter(|(_, p)| p.pack && names.contains(&p.name))
            .map(|(index, _)| index)
            .collect();
        if packs.is_empty() {
            return false;
        }
        if packs.iter().all(|&index| index < explicit.len()) {
            // Given: the arguments convert to its elements.
            return packs.iter().all(|&index| match explicit[index] {
                TemplateArgument::Pack(id) => self.packs.get(id).len() == args.len(),
                _ => false,
            });
        }
        let mut elements: Vec<Vec<TemplateArgument>> = vec![Vec::new(); packs.len()];
        for arg in args {
            let mut one = bound.to_vec();
            for &index in &packs {
                one[index] = None;
            }
            if !self.deduce_param(template_params, 0, param, arg, &mut one) {
                return false;
            }
            for (index, slot) in one.into_iter().enumerate() {
                match packs.iter().position(|&p| p == index) {
                    Some(k) => match slot {
                        Some(element) => elements[k].push(element),
                        None => return false,
                    },
                    None if bound[index].is_none() => bound[index] = slot,
                    None if slot != bound[index] => return false,
                    None => {}
                }
            }
        }
        for (&index, elements) in packs.iter().zip(elements) {
            bound[index] = Some(TemplateArgument::Pack(self.packs.intern(elements)));
        }
        true
    }

    /// Binds the parameters `template_params` that `param`, a reference to an array
    /// of `size` elements (`T (&a)[N]`), names plainly, from `value`, the
    /// argument's type: the element type and the count. False when `value`
    /// is no array or the arguments disagree.
    fn deduce_array_reference(
        &mut self,
        template_params: &[ast::TemplateParam],
        param: &ast::ParamDecl,
        size: &ast::Expr,
        value: Type,
        bound: &mut [Option<TemplateArgument>],
    ) -> bool {
        let Type::Array(element, count) = value else {
            return false;
        };
        let element = self.program.types[element];
        let position = |spelled: Name| template_params.iter().position(|p| p.name == spelled);
        let mut bind = |index: usize, argument: TemplateArgument| match bound[index] {
            None => {
                bound[index] = Some(argument);
                true
            }
            Some(earlier) => earlier == argument,
        };
        if let Some(index) = match size.kind {
            ast::ExprKind::Ident(spelled) => position(spelled),
            _ => None,
        } {
            let scalar = match template_params[index]
                .value_type
                .as_ref()
                .map(|v| self.type_name(v))
            {
                Some(Type::Scalar(s)) if s.is_integer() => s,
                _ => return false,
            };
            if !bind(index, TemplateArgument::Value(count as i64, scalar)) {
                return false;
            }
        }
        match &param.specs.ty {
            ast::TypeSpec::TemplateId(class, written) => {
                self.deduce_from_instance(template_params, *class, written, element, bound)
            }
            ast::TypeSpec::Typedef(spelled) => match position(*spelled) {
                Some(index) => bind(
                    index,
                    TemplateArgument::Type(element, ast::Qualifiers::default()),
                ),
                None => true,
            },
            _ => true,
        }
    }

    /// `bound`, the arguments of template parameters `params` given or
    /// deduced, with each missing one its parameter's default, made with
    /// the parameters before it bound (`typename U = T`); `None` where
    /// one is missing and has no default.
    fn with_defaults(
        &mut self,
        params: &[ast::TemplateParam],
        mut bound: Vec<Option<TemplateArgument>>,
    ) -> Option<Vec<TemplateArgument>> {
        for index in 0..params.len() {
            if bound[index].is_some() {
                continue;
            }
            if params[index].pack {
                // Nothing deduced or given: no elements.
                bound[index] = Some(TemplateArgument::Pack(self.packs.intern(Vec::new())));
                continue;
            }
            let default = params[index].default.as_ref()?;
            let earlier: Option<Vec<TemplateArgument>> = bound[..index].iter().copied().collect();
            self.bind_template_parameters(&params[..index], &earlier?);
            let argument = self.written_template_arguments(
                std::slice::from_ref(&params[index]),
                std::slice::from_ref(default),
                Span::at(params[index].location),
            );
            self.scopes.pop();
            bound[index] = Some(*argument?.first()?);
        }
        bound.into_iter().collect()
    }

    /// Binds the parameters `template_params` that `written`, the template arguments
    /// of a parameter of type `class<...>`, names plainly, from `value`,
    /// the argument's type; false when `value` is no instance of `class`
    /// or the arguments disagree.
    ///
    /// Packs among the instance's arguments count as their elements, and
    /// `written` may end in a pack expansion (`Tuple<T, Rest...>`), which
    /// takes the elements left.
    fn deduce_from_instance(
        &mut self,
        template_params: &[ast::TemplateParam],
        class: Name,
        written: &[ast::TemplateArg],
        value: Type,
        bound: &mut [Option<TemplateArgument>],
    ) -> bool {
        let Type::Record(r) = value else {
            return false;
        };
        let Some((made_from, arguments)) = self.instance_of.get(&r).cloned() else {
            return false;
        };
        if made_from != class {
            return false;
        }
        let arguments = self.pack_elements_of(&arguments);
        let (fixed, rest) = match written.split_last() {
            Some((last, fixed)) if specializations::is_pack_expansion(last) => (fixed, Some(last)),
            _ => (written, None),
        };
        let counts_match = match rest {
            Some(_) => arguments.len() >= fixed.len(),
            None => arguments.len() == fixed.len(),
        };
        if !counts_match {
            return false;
        }
        let mut pairs: Vec<(&ast::TemplateArg, TemplateArgument)> =
            fixed.iter().zip(arguments.iter().copied()).collect();
        if let Some(rest) = rest {
            let elements = arguments[fixed.len()..].to_vec();
            pairs.push((rest, TemplateArgument::Pack(self.packs.intern(elements))));
        }
        for (written, argument) in pairs {
            let spelled = match written {
                ast::TemplateArg::Type(type_name) => match type_name.specs.ty {
                    ast::TypeSpec::Typedef(spelled) => spelled,
                    _ => continue,
                },
                // `Array<T, N>`: an argument that names a parameter.
                ast::TemplateArg::Value(e) => match &e.kind {
                    ast::ExprKind::Ident(spelled) => *spelled,
                    ast::ExprKind::PackExpansion(pattern) => match pattern.kind {
                        ast::ExprKind::Ident(spelled) => spelled,
                        _ => continue,
                    },
                    _ => continue,
                },
            };
            let Some(index) = template_params.iter().position(|p| p.name == spelled) else {
                continue;
            };
            match bound[index] {
                None => bound[index] = Some(argument),
                Some(earlier) if earlier != argument => return false,
                Some(_) => {}
            }
        }
        true
    }

    /// The instantiation of `t` for `arguments`: declared now, and
    /// checked after the current external declaration once
    /// [`Checker::schedule_instance`] chooses it.
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
        let display = self.instance_display(name, &arguments);
        self.bind_template_parameters(&t.params, &arguments);
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
        let visible = self.template_visibility(Arc::as_ptr(t) as usize);
        let pending = PendingInstance {
            visible,
            what: Pending::Function(id, Arc::clone(t)),
            arguments,
            display,
            requested_at,
            depth: self.instantiation_depth + 1,
        };
        self.unscheduled_instances.insert(id, pending);
        id
    }

    /// Declares class template `t`, or a specialization of one.
    pub(super) fn class_template(&mut self, t: &Arc<ast::ClassTemplate>) {
        let Some(tag) = t.record.tag else {
            return;
        };
        if t.record.pattern.is_some() {
            self.class_specialization(tag, t);
            return;
        }
        // `template <typename... Ts> struct Tuple;` declares the template
        // alone, before or after its definition.
        let declares_only = t.record.fields.is_none();
        if let Some(earlier) = self.class_templates.get(&tag) {
            if earlier.record.fields.is_none() || declares_only {
                if !declares_only {
                    self.class_templates.insert(tag, Arc::clone(t));
                    self.mark_template_definition(Arc::as_ptr(t) as usize);
                }
                return;
            }
        }
        if self.lookup(tag).is_some() || self.class_templates.contains_key(&tag) {
            let spelling = self.spelling(tag);
            self.error(
                t.record.tag_location,
                format!("redefinition of '{spelling}'"),
            );
            return;
        }
        self.declare(tag, Symbol::ClassTemplate);
        self.class_templates.insert(tag, Arc::clone(t));
        self.mark_template_definition(Arc::as_ptr(t) as usize);
    }

    /// Declares alias template `t`.
    pub(super) fn alias_template(&mut self, t: &Arc<ast::AliasTemplate>) {
        if self.lookup(t.name).is_some() {
            let spelling = self.spelling(t.name);
            self.error(t.location, format!("redefinition of '{spelling}'"));
            return;
        }
        self.declare(t.name, Symbol::ClassTemplate);
        self.alias_templates.insert(t.name, Arc::clone(t));
    }

    /// The type `name<args>` names: the instance of class template
    /// `name` for `args`, made on first use, or alias template `name`'s
    /// type for them.
    pub(super) fn class_template_type(
        &mut self,
        name: Name,
        args: &[ast::TemplateArg],
        at: Location,
    ) -> Type {
        if let Some(alias) = self.alias_templates.get(&name).cloned() {
            let Some(written) = self.written_template_arguments(&alias.params, args, Span::at(at))
            else {
                return Type::Error;
            };
            let mut bound: Vec<Option<TemplateArgument>> = written.into_iter().map(Some).collect();
            bound.resize(alias.params.len(), None);
            let Some(arguments) = self.with_defaults(&alias.params, bound) else {
                let spelling = self.spelling(name);
                self.error(
                    at,
                    format!("too few template arguments for alias template '{spelling}'"),
                );
                return Type::Error;
            };
            self.bind_template_parameters(&alias.params, &arguments);
            let ty = self.type_name(&alias.ty);
            self.scopes.pop();
            return ty;
        }
        let spelling = self.spelling(name);
        let Some(t) = self.class_templates.get(&name).cloned() else {
            self.error(at, format!("no template named '{spelling}'"));
            return Type::Error;
        };
        let missing_default = t
            .params
            .get(args.len())
            .is_some_and(|p| p.default.is_none() && !p.pack);
        let variadic = t.params.iter().any(|p| p.pack);
        if (args.len() > t.params.len() && !variadic) || missing_default {
            let which = if args.len() < t.params.len() {
                "few"
            } else {
                "many"
            };
            self.error(
                at,
                format!("too {which} template arguments for class template '{spelling}'"),
            );
            return Type::Error;
        }
        let Some(written) = self.written_template_arguments(&t.params, args, Span::at(at)) else {
            return Type::Error;
        };
        let mut bound: Vec<Option<TemplateArgument>> = written.into_iter().map(Some).collect();
        bound.resize(t.params.len(), None);
        let Some(arguments) = self.with_defaults(&t.params, bound) else {
            return Type::Error;
        };
        let (made_from, bindings) = match self.specialization_for(name, &arguments, at) {
            Ok(Some(chosen)) => chosen,
            Ok(None) => (t, arguments.clone()),
            Err(()) => return Type::Error,
        };
        if made_from.record.fields.is_none() {
            let display = self.instance_display(name, &arguments);
            self.error(
                at,
                format!("implicit instantiation of undefined template '{display}'"),
            );
            return Type::Error;
        }
        self.instantiate_class(&made_from, name, arguments, bindings, at)
    }

    /// Template arguments as written, for parameters `params` (at most
    /// as many, or any number for a parameter pack, which takes those
    /// left as its elements); `None` after an error in one.
    pub(super) fn written_template_arguments(
        &mut self,
        params: &[ast::TemplateParam],
        args: &[ast::TemplateArg],
        span: Span,
    ) -> Option<Vec<TemplateArgument>> {
        let args = self.expanded_template_arguments(args)?;
        let pack = params.iter().position(|p| p.pack);
        if pack.is_none() && args.len() > params.len() {
            self.error(span, "too many template arguments");
            return None;
        }
        let fixed = pack.unwrap_or(params.len());
        let mut arguments = Vec::with_capacity(args.len());
        let mut elements = Vec::new();
        for (index, (arg, element)) in args.iter().enumerate() {
            let param = &params[index.min(fixed)];
            let argument =
                self.in_param_element(element, |c| c.template_argument_for(param, arg))?;
            if index < fixed {
                arguments.push(argument);
            } else {
                elements.push(argument);
            }
        }
        if args.len() > fixed {
            arguments.push(TemplateArgument::Pack(self.packs.intern(elements)));
        }
        Some(arguments)
    }

    /// Template argument `arg` as written, for parameter `param` (for a
    /// pack, for one of its elements); `None` after an error.
    fn template_argument_for(
        &mut self,
        param: &ast::TemplateParam,
        arg: &ast::TemplateArg,
    ) -> Option<TemplateArgument> {
        let argument = match (arg, &param.value_type) {
            (ast::TemplateArg::Type(t), None) => {
                let (ty, space) = self.type_name_and_space(t);
                let quals = ast::Qualifiers {
                    is_const: t.specs.qualifiers.is_const,
                    address_space: space,
                    ..ast::Qualifiers::default()
                };
                TemplateArgument::Type(ty, quals)
            }
            (ast::TemplateArg::Value(e), Some(value_type)) => {
                let scalar = match self.type_name(value_type) {
                    Type::Scalar(s) if s.is_integer() => s,
                    _ => {
                        let not_yet = crate::language::NOT_YET;
                        self.error(
                            param.location,
                            format!(
                                "template parameters of types other than integers are {not_yet}"
                            ),
                        );
                        return None;
                    }
                };
                // An element of `Ns...` is its pattern's value.
                let e = match &e.kind {
                    ast::ExprKind::PackExpansion(pattern) => &**pattern,
                    _ => e,
                };
                let Some(value) = self.const_int_as(e, scalar) else {
                    self.error(
                        e.begin(),
                        "non-type template argument is not a constant expression",
                    );
                    return None;
                };
                TemplateArgument::Value(value as i64, scalar)
            }
            // The parser reads each argument as its parameter is.
            _ => return None,
        };
        if matches!(argument, TemplateArgument::Type(ty, _) if ty.is_error()) {
            return None;
        }
        Some(argument)
    }

    /// The instance of class template `name` for `arguments`, made from
    /// `t`, the template or the specialization that `arguments` select,
    /// with its parameters bound to `bindings`: its record, laid out now;
    /// its member functions are declared now and checked once the current
    /// declaration is done.
    fn instantiate_class(
        &mut self,
        t: &Arc<ast::ClassTemplate>,
        name: Name,
        arguments: Vec<TemplateArgument>,
        bindings: Vec<TemplateArgument>,
        requested_at: Location,
    ) -> Type {
        let key = (name, arguments.clone());
        if let Some(&r) = self.class_instances.get(&key) {
            return Type::Record(r);
        }
        if self.too_deep(requested_at) {
            return Type::Error;
        }
        let display = self.instance_display(name, &arguments);
        let symbol = self.program.names.intern(&display);
        let r = self.new_record(t.record.kind, symbol);
        self.class_instances.insert(key, r);
        self.instance_of.insert(r, (name, arguments.clone()));
        self.instance_bindings
            .insert(r, (Arc::clone(t), bindings.clone()));
        let errors = self.diags.error_count();
        self.bind_class_parameters(t, &bindings, r);
        let outer = self.instantiating_class.replace(Vec::new());
        self.instantiation_depth += 1;
        let ty = self.record_type(&t.record);
        self.instantiation_depth -= 1;
        let declared = std::mem::replace(&mut self.instantiating_class, outer);
        self.scopes.pop();
        if self.diags.error_count() > errors {
            self.instantiation_note(requested_at, "template class", &display);
        }
        if let Some(declared) = declared.filter(|d| !d.is_empty()) {
            let visible = self.template_visibility(Arc::as_ptr(t) as usize);
            self.pending_instances.push(PendingInstance {
                visible,
                what: Pending::Methods(r, Arc::clone(t), declared),
                arguments: bindings,
                display,
                requested_at,
                depth: self.instantiation_depth + 1,
            });
        }
        ty
    }

    /// Opens a scope where each parameter of class template `t` names its
    /// argument's type, and the template's own name (without arguments)
    /// names instance `r`; the caller closes it.
    fn bind_class_parameters(
        &mut self,
        t: &ast::ClassTemplate,
        arguments: &[TemplateArgument],
        r: naga::Handle<types::Record>,
    ) {
        self.bind_template_parameters(&t.params, arguments);
        if let Some(tag) = t.record.tag {
            self.declare(Key::tag(t.record.kind, tag), Symbol::Tag(r));
            let instance = Symbol::Typedef(Type::Record(r), ast::Qualifiers::default(), None);
            self.declare(tag, instance);
        }
    }

    /// Where class `r` is an instance of a class template, opens a scope
    /// with the template's parameters bound as for the instance, for a
    /// member template's instance; whether it did (the caller closes it).
    pub(super) fn open_instance_scope(&mut self, r: naga::Handle<types::Record>) -> bool {
        let Some((t, bindings)) = self.instance_bindings.get(&r).cloned() else {
            return false;
        };
        self.bind_class_parameters(&t, &bindings, r);
        true
    }

    /// clang's note after an error in an instantiation.
    fn instantiation_note(&mut self, at: Location, what: &str, display: &str) {
        self.diags.note(
            at,
            format!("in instantiation of {what} '{display}' requested here"),
        );
    }

    /// An instance's name as clang writes it: `max<__global int>`.
    pub(super) fn instance_display(&self, name: Name, arguments: &[TemplateArgument]) -> String {
        let listed: Vec<String> = arguments.iter().map(|&a| self.argument_text(a)).collect();
        format!("{}<{}>", self.spelling(name), listed.join(", "))
    }

    /// A template argument as clang writes it: `const __global int`.
    pub(super) fn argument_text(&self, argument: TemplateArgument) -> String {
        let (ty, quals) = match argument {
            TemplateArgument::Type(ty, quals) => (ty, quals),
            TemplateArgument::Value(value, _) => return value.to_string(),
            TemplateArgument::Pack(id) => {
                let elements = self.packs.get(id).to_vec();
                let listed: Vec<String> = elements.iter().map(|&a| self.argument_text(a)).collect();
                return listed.join(", ");
            }
        };
        let constness = if quals.is_const { "const " } else { "" };
        let space = quals
            .address_space
            .map_or_else(String::new, |space| format!("{} ", space.keyword()));
        let ty = match ty {
            Type::Record(r) => self.class_spelling(r),
            ty => self.display(ty),
        };
        format!("{constness}{space}{ty}")
    }

    /// Opens a scope where each parameter of `t` names its argument's
    /// type; the caller closes it.
    pub(super) fn bind_template_parameters(
        &mut self,
        params: &[ast::TemplateParam],
        arguments: &[TemplateArgument],
    ) {
        self.scopes.push();
        for (param, &argument) in params.iter().zip(arguments) {
            let symbol = match argument {
                TemplateArgument::Pack(id) => self.pack_symbol(id),
                argument => argument_symbol(argument),
            };
            self.declare(param.name, symbol);
        }
    }

    /// Checks the bodies of the instantiations made so far, and of those
    /// they make.
    pub(super) fn check_pending_instances(&mut self) {
        while let Some(pending) = self.pending_instances.pop() {
            self.check_instance(pending);
        }
    }

    /// Checks the body (or bodies) of one instantiation.
    fn check_instance(&mut self, pending: PendingInstance) {
        let outer_depth = std::mem::replace(&mut self.instantiation_depth, pending.depth);
        self.check_instance_body(&pending);
        self.instantiation_depth = outer_depth;
    }

    /// [`Self::check_instance`] at its depth.
    fn check_instance_body(&mut self, pending: &PendingInstance) {
        let errors = self.diags.error_count();
        let outer = self.visible_functions.replace(pending.visible);
        let what = match &pending.what {
            Pending::Function(id, template) => {
                let f = &template.function;
                self.bind_template_parameters(&template.params, &pending.arguments);
                self.define_function(&f.specs, &f.declarator, &f.body, (*id, false), None);
                self.scopes.pop();
                "function template specialization"
            }
            Pending::Methods(r, template, declared) => {
                self.bind_class_parameters(template, &pending.arguments, *r);
                self.open_class_scope(*r);
                for (m, &(owner, declared)) in template.record.methods.iter().zip(declared) {
                    if let (Some(body), Some(owner), Some(declared)) = (&m.body, owner, declared) {
                        let method: (MethodOwner, &[ast::MemberInit]) = (owner, &m.member_inits);
                        self.define_function(&m.specs, &m.declarator, body, declared, Some(method));
                    }
                }
                self.scopes.pop();
                self.scopes.pop();
                "member functions of template class"
            }
            Pending::Method(id, r, template, owner) => {
                let m = &template.method;
                let in_instance = self.open_instance_scope(*r);
                self.open_class_scope(*r);
                self.bind_template_parameters(&template.params, &pending.arguments);
                if let Some(body) = &m.body {
                    let method: (MethodOwner, &[ast::MemberInit]) = (*owner, &m.member_inits);
                    self.define_function(&m.specs, &m.declarator, body, (*id, false), Some(method));
                }
                self.scopes.pop();
                self.scopes.pop();
                if in_instance {
                    self.scopes.pop();
                }
                "function template specialization"
            }
        };
        self.visible_functions = outer;
        if self.diags.error_count() > errors {
            self.instantiation_note(pending.requested_at, what, &pending.display);
        }
    }
}
