//! Declarations: program-scope variables and typedefs, functions and
//! their prototypes, kernel parameters and attributes, and local
//! variables.

use super::methods::MethodOwner;
use super::*;

impl Checker<'_> {
    pub(super) fn global_declaration(&mut self, d: &ast::Declaration) {
        let is_function = |i: &ast::InitDeclarator| {
            matches!(
                i.declarator.derived.first(),
                Some(ast::Derived::Function { .. })
            )
        };
        // Prototypes resolve their own specifiers; anything else resolves
        // them once here (which also defines a struct, union or enum).
        let base = if d.declarators.iter().all(is_function) && !d.declarators.is_empty() {
            None
        } else {
            Some(self.base_type(&d.specs))
        };
        for init in &d.declarators {
            let Some((name, location)) = &init.declarator.name else {
                continue;
            };
            if is_function(init) {
                self.function_prototype(&d.specs, &init.declarator, *location, false);
                continue;
            }
            let Some((base, quals)) = base else {
                continue;
            };
            if self.reject_reference(&init.declarator, "at program scope and in typedefs") {
                continue;
            }
            if d.specs.storage == Some(ast::StorageClass::Typedef) {
                let (ty, align) =
                    self.typedef_type(base, quals, &d.specs, &init.declarator, *location);
                if let Some(Symbol::Typedef(old, _, _)) = self.in_innermost(*name) {
                    if old != ty {
                        let old = self.display(old);
                        self.error(
                            *location,
                            format!(
                                "typedef redefinition with different types ('{}' vs '{old}')",
                                self.display(ty)
                            ),
                        );
                    }
                }
                let symbol = self.symbol(*name);
                self.program.typedefs.push((symbol, ty, align));
                self.declare(
                    name,
                    Symbol::Typedef(ty, quals_of_typedef(quals, &init.declarator), align),
                );
                continue;
            }
            if let Some(class) = init.declarator.class {
                self.static_member_definition(class, init, base, quals, *location);
                continue;
            }
            self.program_scope_variable(d, init, base, quals);
        }
    }

    /// The type a typedef names and the alignment an attribute gives it
    /// (which, unlike on a struct, may also decrease it).
    pub(super) fn typedef_type(
        &mut self,
        base: Type,
        quals: ast::Qualifiers,
        specs: &ast::DeclSpecs,
        declarator: &ast::Declarator,
        location: Location,
    ) -> (Type, Option<u64>) {
        let ty = self.declarator_type(base, quals, declarator, location);
        let placement = self.placement(&[&specs.attributes, &declarator.attributes]);
        if placement.packed {
            self.diags.warning(
                location,
                "'packed' attribute ignored when used on a typedef",
            );
        }
        let ty = self.apply_endian(ty, &placement, location);
        let inherited = if declarator.derived.is_empty() {
            self.typedef_alignment(specs)
        } else {
            None
        };
        (ty, placement.aligned.or(inherited))
    }

    /// A variable at program scope: `__constant` (any version) or
    /// `__global` (OpenCL C 2.0 on, the default there).
    pub(super) fn program_scope_variable(
        &mut self,
        d: &ast::Declaration,
        init: &ast::InitDeclarator,
        base: Type,
        quals: ast::Qualifiers,
    ) {
        let Some((name, location)) = &init.declarator.name else {
            return;
        };
        let location = *location;
        let ty = self.declarator_type(base, quals, &init.declarator, location);
        if self.reject_destructible(ty, location, "at program scope or 'static'") {
            return;
        }
        if self.cxx && (init.arguments.is_some() || self.needs_construction(ty)) {
            let not_yet = crate::language::NOT_YET;
            self.error(
                location,
                format!("program-scope and static objects with constructors or constructor arguments are {not_yet}"),
            );
            return;
        }
        if ty.is_sampler() {
            self.literal_sampler(*name, init.init.as_ref(), location);
            return;
        }
        if self.reject_image_variable(ty, location) {
            return;
        }
        let placement = self.placement(&[&d.specs.attributes, &init.declarator.attributes]);
        let ty = self.apply_endian(ty, &placement, location);
        let generic_std = self.cl_std >= (2, 0);
        // In `constant int *p` the address space is the pointee's: the
        // variable itself gets the default one.
        let names_pointee =
            (init.declarator.derived.iter()).any(|d| !matches!(d, ast::Derived::Array(_)));
        let declared = if names_pointee && generic_std {
            None
        } else {
            quals.address_space
        };
        let space = match declared {
            Some(AddressSpace::Constant) => AddressSpace::Constant,
            Some(AddressSpace::Global) if generic_std => AddressSpace::Global,
            None if generic_std => AddressSpace::Global,
            _ if d.specs.storage == Some(ast::StorageClass::Extern) && !generic_std => {
                self.error(
                    location,
                    "extern variable must reside in constant address space",
                );
                return;
            }
            _ => {
                let message = if generic_std {
                    "program scope variable must reside in global or constant address space"
                } else {
                    "program scope variable must reside in constant address space"
                };
                self.error(location, message);
                return;
            }
        };
        let is_extern = d.specs.storage == Some(ast::StorageClass::Extern);
        // `__constant` objects are read-only, as `const` ones.
        let is_const = (quals.is_const || space == AddressSpace::Constant) && !names_pointee;
        let constant = self.variable_constant(&d.specs, is_const, ty, init, location);
        let (init_expr, ty) = match &init.init {
            Some(i) => {
                let (mut e, ty) = self.initializer(i, ty, location);
                if let Some((value, s)) = constant {
                    // Its value, which a C++ initialiser naming other
                    // constants (`N * 2`) has only through them.
                    e = self.int_const(literal::wrap(value, s), ty, e.span);
                }
                (Some(self.commit_global(e)), ty)
            }
            None => {
                if space == AddressSpace::Constant && !is_extern {
                    self.error(
                        location,
                        "variable in constant address space must be initialized",
                    );
                }
                (None, ty)
            }
        };
        // `extern constant struct bar bart;` only names an object that
        // another unit defines (C99 6.9.2): its type may stay incomplete
        // here, as long as nothing needs its size or members.
        let declaration_only = is_extern && init_expr.is_none();
        if self.type_size(ty).is_none() && !ty.is_error() && !declaration_only {
            self.error(
                location,
                format!("variable has incomplete type '{}'", self.display(ty)),
            );
        }
        // `extern int x;` then `int x = 1;` (also across linked units) name
        // one object, as two tentative definitions `int x; int x;` do.
        let spelling = self.spelling(*name);
        if let Some(Symbol::Global(earlier)) = self.in_innermost(*name) {
            let same = {
                let g = &self.program.globals[earlier];
                g.ty == ty && g.space == space
            };
            if !same {
                self.error(
                    location,
                    format!("redefinition of '{spelling}' with a different type or address space"),
                );
            } else if init_expr.is_some() && self.program.globals[earlier].init.is_some() {
                self.error(location, format!("redefinition of '{spelling}'"));
            } else if init_expr.is_some() {
                self.program.globals[earlier].init = init_expr;
            }
            return;
        }
        let global = hir::Global {
            name: self.symbol(*name),
            ty,
            space,
            init: init_expr,
            span: init.declarator.span_or(location),
        };
        let id = self.program.globals.append(global, naga::Span::UNDEFINED);
        if let Some(c) = constant {
            self.global_constants.insert(id, c);
        }
        if let Some(align) = self.declared_alignment(ty, &d.specs, &init.declarator, &placement) {
            self.aligned_globals.insert(id, align);
        }
        self.declare(name, Symbol::Global(id));
    }

    /// A variable's alignment when it is not its type's: an aligned
    /// typedef's (which may lower it), raised by the variable's own
    /// `aligned` attribute (which only raises, as in GCC).
    fn declared_alignment(
        &self,
        ty: Type,
        specs: &ast::DeclSpecs,
        declarator: &ast::Declarator,
        placement: &super::attributes::Placement,
    ) -> Option<u64> {
        let natural = self.program.types.align(ty)?;
        let inherited = if declarator.derived.is_empty() {
            self.typedef_alignment(specs)
        } else {
            None
        };
        let base = inherited.unwrap_or(natural);
        let align = placement.aligned.map_or(base, |n| base.max(n));
        (align != natural).then_some(align)
    }

    /// `__alignof__` of an expression (a GNU extension, C11's `_Alignof`
    /// of a type only): a variable's or a member's declared alignment, else
    /// its type's.
    pub(super) fn align_of_expr(&mut self, x: &ast::Expr) -> Option<u64> {
        let v = self.expr(x);
        match &v.kind {
            H::Local(id) => {
                let declared = self.current.as_ref().and_then(|f| {
                    f.aligned_locals
                        .iter()
                        .find(|(l, _)| l == id)
                        .map(|&(_, a)| a)
                });
                if declared.is_some() {
                    return declared;
                }
            }
            H::Global(id) => {
                if let Some(&a) = self.aligned_globals.get(id) {
                    return Some(a);
                }
            }
            H::Member(base, i) => {
                if let Type::Record(r) = base.ty {
                    return self.record(r).fields.get(*i).map(|f| f.align);
                }
            }
            _ => {}
        }
        self.program.types.align(v.ty)
    }

    /// A parameter's type: attributes applied, arrays adjusted to pointers
    /// (C99 6.7.5.3).
    pub(super) fn param_type(
        &mut self,
        p: &ast::ParamDecl,
        location: Location,
    ) -> (Type, ast::Qualifiers) {
        let (base, quals) = self.base_type(&p.specs);
        if p.declarator.reference.is_some() {
            return (
                self.reference_type(base, quals, &p.declarator, location),
                quals,
            );
        }
        let ty = self.declarator_type(base, quals, &p.declarator, location);
        let placement = self.placement(&[&p.specs.attributes, &p.declarator.attributes]);
        let ty = self.apply_endian(ty, &placement, location);
        let ty = match self.element_of(ty) {
            Some(element) => self.pointer_with(element, quals),
            None => ty,
        };
        (ty, quals)
    }

    /// Declares a function (prototype or definition) and returns its id.
    pub(super) fn function_prototype(
        &mut self,
        specs: &ast::DeclSpecs,
        declarator: &ast::Declarator,
        location: Location,
        defining: bool,
    ) -> FunctionId {
        self.declare_function(specs, declarator, location, defining, None, None)
            .0
    }

    /// [`Self::function_prototype`], also saying whether the function's
    /// signature holds this declarator's parameter types, computed without
    /// a diagnostic: then a definition need not compute them again.
    ///
    /// A member function (`owner`) takes `this` first and is named in its
    /// class, not in the scope. An `instance` of a function template,
    /// named so (`max<int>`), is a function of its own that no scope
    /// names.
    pub(super) fn declare_function(
        &mut self,
        specs: &ast::DeclSpecs,
        declarator: &ast::Declarator,
        location: Location,
        defining: bool,
        owner: Option<MethodOwner>,
        instance: Option<&str>,
    ) -> (FunctionId, bool) {
        let name = declarator.name.map(|(name, _)| name);
        let spelling = name.map_or_else(String::new, |name| self.spelling(name));
        // C++'s `auto f(...)`: the body's first `return` gives the type.
        let deduced = self.cxx
            && matches!(specs.ty, ast::TypeSpec::Auto)
            && declarator.derived.len() == 1
            && declarator.reference.is_none();
        let (base, _) = if deduced {
            (Type::Void, specs.qualifiers)
        } else {
            self.base_type(specs)
        };
        // `derived[0]` is the parameter list; anything after it belongs to
        // the return type.
        let (base, quals) = (base, specs.qualifiers);
        let mut ret = self.derived_type(base, quals, &declarator.derived[1..], location);
        let returns_reference = self.cxx && declarator.reference.is_some();
        if returns_reference {
            // Kept as a pointer to the referent, as references are.
            ret = self.pointer_with(ret, quals);
        }
        if let Type::Array(..) = ret {
            self.error(location, "function cannot return array type");
        }
        if ret.image().is_some() || ret.is_sampler() {
            self.error(
                location,
                format!(
                    "declaring function return value of type '{}' is not allowed",
                    self.display(ret)
                ),
            );
        }
        let (params, variadic) = match declarator.derived.first() {
            Some(ast::Derived::Function { params, variadic }) => (&params[..], *variadic),
            _ => (&[][..], false),
        };
        if variadic {
            self.error(location, "variadic arguments are not allowed in OpenCL");
        }
        let this = owner.and_then(|owner| owner.this);
        let hidden: Vec<Type> = self.hidden_params.iter().map(|&(_, ty)| ty).collect();
        // Parameter names are not in scope here; only types matter. A
        // definition checks its parameters again, so their problems are
        // reported once, from there.
        let mark = self.diags.len();
        let expanded = self.expanded_params(params).unwrap_or_default();
        let references: Vec<bool> = (this.iter().map(|_| false))
            .chain(hidden.iter().map(|_| true))
            .chain(
                expanded
                    .iter()
                    .map(|(p, _)| p.declarator.reference.is_some()),
            )
            .collect();
        let rvalues: Vec<bool> = (this.iter().chain(&hidden).map(|_| false))
            .chain(expanded.iter().map(|(p, _)| p.declarator.rvalue))
            .collect();
        self.scopes.push();
        let written: Vec<Type> = (expanded.iter())
            .map(|(p, element)| self.in_param_element(element, |c| c.param_type(p, p.location).0))
            .collect();
        self.scopes.pop();
        let clean = self.diags.len() == mark;
        if defining {
            self.diags.truncate(mark);
        }
        // A parameter pack has no default arguments.
        let unpacked = params.iter().take_while(|p| !p.declarator.pack).count();
        let unpacked = unpacked.min(written.len());
        let mut defaults = self.default_arguments(&params[..unpacked], &written[..unpacked]);
        defaults.resize(written.len(), None);
        let mut signature = written;
        for ty in hidden.into_iter().rev() {
            signature.insert(0, ty);
            defaults.insert(0, None);
        }
        if let Some(this) = this {
            signature.insert(0, this);
            defaults.insert(0, None);
        }
        // Enums are their underlying integer types here: which parameters
        // are written as one tells overloads on them from redefinitions.
        let enum_params: Vec<bool> = (expanded.iter())
            .map(|(p, _)| p.declarator.derived.is_empty() && self.names_enum(&p.specs.ty))
            .collect();
        let mut overloaded = None;
        let earlier = match (owner, name) {
            _ if instance.is_some() => None,
            (Some(owner), Some(name)) => self.methods.get(&(owner.record, name)).cloned(),
            (None, Some(name)) => match self.lookup(name) {
                Some(Symbol::Function(first)) => Some(self.overload_set(first)),
                _ => None,
            },
            (_, None) => None,
        };
        if let Some(set) = earlier {
            // In C++ another parameter list declares another function.
            let first = set[0];
            let matching = set
                .iter()
                .copied()
                .find(|&id| self.same_parameters(id, &signature, &references));
            match matching {
                Some(id) if !self.same_rvalue_references(id, &rvalues) => {
                    let not_yet = crate::language::NOT_YET;
                    self.error(
                        location,
                        format!(
                            "overloading '{spelling}' on lvalue and rvalue references is {not_yet}"
                        ),
                    );
                    return (id, false);
                }
                Some(id) if self.cxx && self.differ_in_enums(id, &enum_params) => {
                    let not_yet = crate::language::NOT_YET;
                    self.error(
                        location,
                        format!("overloading '{spelling}' on an enum type against its underlying type is {not_yet}"),
                    );
                    return (id, false);
                }
                Some(id) => {
                    self.add_default_arguments(id, defaults);
                    let f = &self.program.functions[id];
                    if f.ret != ret && self.cxx {
                        self.error(
                            location,
                            "functions that differ only in their return type cannot be overloaded",
                        );
                    } else if f.ret != ret {
                        self.error(location, format!("conflicting types for '{spelling}'"));
                    } else if defining && f.defined {
                        self.error(location, format!("redefinition of '{spelling}'"));
                    }
                    return (id, clean);
                }
                None if self.cxx => {
                    let kernel = specs.is_kernel
                        || set
                            .iter()
                            .any(|&id| self.program.functions[id].kernel.is_some());
                    if kernel {
                        // Kernels are not overloaded: clang's C error.
                        self.error(location, format!("conflicting types for '{spelling}'"));
                    }
                    overloaded = Some(first);
                }
                None => {
                    let id = first;
                    self.error(location, format!("conflicting types for '{spelling}'"));
                    return (id, false);
                }
            }
        }
        let symbol = match owner {
            _ if instance.is_some() => self.program.names.intern(instance.unwrap_or_default()),
            Some(owner) => {
                let class = &self.program.names[self.record(owner.record).name];
                self.program.names.intern(&format!("{class}::{spelling}"))
            }
            None => self.program.names.intern(&spelling),
        };
        let span = declarator.span_or(location);
        let function = hir::Function::declared(symbol, signature, ret, span);
        let id = self
            .program
            .functions
            .append(function, naga::Span::UNDEFINED);
        if specs.constexpr.is_some() {
            self.constexpr_functions.insert(id);
        }
        if deduced {
            self.undeduced_returns.insert(id);
        }
        match (owner, overloaded, name) {
            _ if instance.is_some() => {}
            (Some(owner), _, Some(name)) => self
                .methods
                .entry((owner.record, name))
                .or_default()
                .push(id),
            (None, Some(first), _) => self.add_overload(first, id),
            (None, None, Some(name)) => self.declare(name, Symbol::Function(id)),
            (_, _, None) => {}
        }
        if references.contains(&true) {
            self.reference_params.insert(id, references);
        }
        if rvalues.contains(&true) {
            self.rvalue_params.insert(id, rvalues);
        }
        if returns_reference {
            self.reference_returns.insert(id);
        }
        if enum_params.contains(&true) {
            self.enum_params.insert(id, enum_params);
        }
        self.add_default_arguments(id, defaults);
        (id, clean)
    }

    /// Whether function `id` and a declaration whose parameters of enum
    /// type are `enum_params` differ in which are.
    fn differ_in_enums(&self, id: FunctionId, enum_params: &[bool]) -> bool {
        match self.enum_params.get(&id) {
            Some(earlier) => earlier[..] != *enum_params,
            None => enum_params.contains(&true),
        }
    }

    /// Is parameter `p`'s type, as the definition's scope sees it, the one
    /// the prototype computed (without the parameter names in scope)? It
    /// is when nothing in it is looked up by a name an earlier parameter
    /// may hide: a scalar or built-in type, or a typedef no parameter
    /// hides, with pointers and no attributes, array sizes or records.
    fn param_type_is_scope_free(&self, p: &ast::ParamDecl) -> bool {
        crate::stack::guard(|| {
            let plain_spec = match &p.specs.ty {
                ast::TypeSpec::Scalar(_) | ast::TypeSpec::Builtin(_) => true,
                ast::TypeSpec::Typedef(name) => self.in_innermost(*name).is_none(),
                _ => false,
            };
            plain_spec
                && p.specs.attributes.is_empty()
                && p.declarator.attributes.is_empty()
                && p.declarator
                    .derived
                    .iter()
                    .all(|d| matches!(d, ast::Derived::Pointer(_)))
        })
    }

    pub(super) fn function_definition(&mut self, f: &ast::FunctionDef) {
        if let Some(class) = f.declarator.class {
            self.out_of_class_definition(f, class);
            return;
        }
        let location = f.declarator.name.as_ref().map_or(f.specs.location, |n| n.1);
        let declared = self.declare_function(&f.specs, &f.declarator, location, true, None, None);
        if !f.member_inits.is_empty() {
            self.error(
                f.member_inits[0].location,
                "only constructors take base initializers",
            );
        }
        self.define_function(&f.specs, &f.declarator, &f.body, declared, None);
    }

    /// Checks the body of function `id`, declared by `declarator` (as
    /// [`Self::declare_function`] returned it, with whether its signature
    /// can be reused).
    pub(super) fn define_function(
        &mut self,
        specs: &ast::DeclSpecs,
        declarator: &ast::Declarator,
        body: &ast::Block,
        (id, signature_reusable): (FunctionId, bool),
        method: Option<(MethodOwner, &[ast::MemberInit])>,
    ) {
        let owner = method.map(|(owner, _)| owner);
        // Variadic definitions are reported by `function_prototype`.
        let Some(ast::Derived::Function { params, .. }) = declarator.derived.first() else {
            return;
        };
        let location = declarator.name.as_ref().map_or(specs.location, |n| n.1);
        let is_kernel = specs.is_kernel;
        if is_kernel && specs.storage == Some(ast::StorageClass::Static) {
            self.error(location, "kernel functions cannot be declared static");
        }
        let ret = self.program.functions[id].ret;
        if is_kernel && ret != Type::Void {
            self.error(location, "kernel must have void return type");
        }
        let copies_matter =
            self.cxx && (self.holds_destructible(ret) || self.copies_by_code(ret, false));
        let named_return = if copies_matter {
            self.named_return(params, body)
        } else {
            None
        };
        self.current = Some(FunctionState {
            id,
            named_return,
            named_return_local: None,
            destructibles: Vec::new(),
            had_destructibles: false,
            temporaries: Default::default(),
            jump_scopes: Vec::new(),
            locals: Arena::new(),
            exprs: Arena::new(),
            stmts: Arena::new(),
            ret,
            is_kernel,
            body_depth: self.scopes.depth() + 1,
            calls: Vec::new(),
            aligned_locals: Vec::new(),
            labels: Vec::new(),
            constants: HashMap::new(),
            references: Default::default(),
            this: None,
            class: owner.map(|owner| owner.record),
            returns_reference: self.reference_returns.contains(&id),
            deduce_return: (std::mem::take(&mut self.deduce_next_return)
                || self.undeduced_returns.contains(&id))
            .then_some(id),
        });
        self.scopes.push();
        let mut kernel_info = hir::KernelInfo::default();
        let mut param_ids = Vec::with_capacity(params.len() + 1);
        if let Some(this) = owner.and_then(|owner| owner.this) {
            let id = self.this_parameter(this, declarator.span_or(location));
            param_ids.push(id);
        }
        // A lambda's reference captures (see `lambdas`).
        for (name, ty) in self.hidden_params.clone() {
            let local = hir::Local {
                name: self.symbol(name),
                ty,
                space: AddressSpace::Private,
                is_const: true,
                span: declarator.span_or(location),
            };
            let id = self.add_local(Some(name), local);
            if let Some(f) = self.current.as_mut() {
                f.references.insert(id);
            }
            param_ids.push(id);
        }
        let first_written = param_ids.len();
        let expanded = self.expanded_params(params).unwrap_or_default();
        // A parameter pack's elements, named together by the pack.
        let mut pack_elements = Vec::new();
        for (index, (p, element)) in expanded.iter().enumerate() {
            let index = first_written + index;
            let ploc = p.declarator.name.as_ref().map_or(p.location, |n| n.1);
            // Checking a parameter's type again would repeat the
            // prototype's work (and its lack of diagnostics).
            let reusable = signature_reusable && element.is_none();
            let (ty, quals) = if reusable && self.param_type_is_scope_free(p) {
                let ty = self.program.functions[id].signature[index];
                (ty, self.spec_qualifiers(&p.specs))
            } else {
                self.in_param_element(element, |c| c.param_type(p, ploc))
            };
            let name = p.declarator.name.map(|(name, _)| name);
            let (name, pack_name) = match element {
                Some(_) => (None, name),
                None => (name, None),
            };
            if let Some(name) = name {
                if self.in_innermost(name).is_some() {
                    let spelling = self.spelling(name);
                    self.error(ploc, format!("redefinition of parameter '{spelling}'"));
                }
            }
            if is_kernel && p.declarator.reference.is_none() {
                self.reject_destructible(ty, ploc, "as kernel parameters");
            }
            if is_kernel {
                self.reject_reference(&p.declarator, "as kernel parameters");
                kernel_info.args.push(self.kernel_arg(p, ty, ploc));
            }
            // A by-value parameter lives in private memory, so `__private`
            // only says so (clang accepts it); any other space is an error.
            if quals
                .address_space
                .is_some_and(|space| space != AddressSpace::Private)
                && p.declarator.derived.is_empty()
                && p.declarator.reference.is_none()
            {
                self.error(ploc, "parameter may not be qualified with an address space");
            }
            let symbol = name
                .or(pack_name)
                .map_or(hir::Symbol::EMPTY, |name| self.symbol(name));
            // `const` on the parameter itself, not on what it points to
            // (a reference's is its referent's).
            let reference = p.declarator.reference.is_some();
            let is_const = quals.is_const && p.declarator.derived.is_empty() && !reference;
            let param = self.add_local(
                name,
                hir::Local {
                    name: symbol,
                    ty,
                    space: AddressSpace::Private,
                    is_const,
                    span: p.declarator.span_or(ploc),
                },
            );
            if let (true, Some(f)) = (reference, self.current.as_mut()) {
                f.references.insert(param);
            }
            if element.is_some() {
                pack_elements.push(Symbol::Local(param));
            }
            if !reference && !is_kernel {
                // Its function destroys a by-value parameter as it returns.
                self.note_local_object(param, ty, AddressSpace::Private, ploc);
            }
            param_ids.push(param);
        }
        if let Some((name, _)) = params
            .last()
            .filter(|p| p.declarator.pack)
            .and_then(|p| p.declarator.name)
        {
            self.declare(name, Symbol::Pack(pack_elements.into()));
        }
        if is_kernel {
            self.kernel_attributes(&specs.attributes, &mut kernel_info);
        }
        let mut prologue = hir::Block::new();
        match method {
            Some((owner, inits)) if owner.constructor => {
                self.construct_members(owner.record, inits, location, &mut prologue);
            }
            Some((_, [first, ..])) => {
                self.error(first.location, "only constructors take base initializers");
            }
            _ => {}
        }
        let mut body = self.block_items(&body.items);
        let end = Span::at(location);
        self.destroy_from(self.scopes.depth(), true, &mut body, end, None);
        if !prologue.is_empty() {
            prologue.append(&mut body);
            body = prologue;
        }
        self.scopes.pop();
        self.report_undeclared_labels();
        let state = self.current.take().expect("function state");
        // No `return` with a value: `void`, as declared so far.
        self.undeduced_returns.remove(&id);
        if state.had_destructibles && !state.labels.is_empty() {
            let not_yet = crate::language::NOT_YET;
            self.error(
                location,
                format!(
                    "objects of a class with a destructor in functions with 'goto' are {not_yet}"
                ),
            );
        }
        let restructure = !state.labels.is_empty();
        if self.calls.len() <= id.index() {
            self.calls.resize_with(id.index() + 1, Vec::new);
        }
        self.calls[id.index()] = state.calls;
        let func = &mut self.program.functions[id];
        func.params = param_ids;
        func.locals = state.locals;
        func.exprs = state.exprs;
        func.stmts = state.stmts;
        func.body = body;
        func.defined = true;
        func.span = declarator.span_or(location);
        if is_kernel {
            func.kernel = Some(kernel_info);
        }
        if restructure {
            crate::gotos::eliminate(func);
        }
    }

    /// Checks a kernel parameter against OpenCL C 6.9 and describes it.
    pub(super) fn kernel_arg(
        &mut self,
        p: &ast::ParamDecl,
        ty: Type,
        location: Location,
    ) -> hir::KernelArgInfo {
        let written = type_as_written(p, &self.names);
        // Types whose size or meaning differs between host and device
        // (OpenCL C 6.9.k) cannot cross into a kernel by value.
        if p.declarator.derived.is_empty() {
            if let ast::TypeSpec::Builtin(name) = p.specs.ty {
                let forbidden = ["size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "event_t"];
                let name = self.spelling(name);
                if forbidden.contains(&&*name) {
                    self.error(
                        location,
                        format!("'{name}' cannot be used as the type of a kernel parameter"),
                    );
                    return self.plain_arg(written);
                }
            }
        }
        if let Type::Record(r) = ty {
            if self.record_has_pointer(r) {
                self.error(
                    location,
                    "struct kernel parameters may not contain pointers",
                );
                return self.plain_arg(written);
            }
        }
        match ty {
            Type::Pointer(pointee) => {
                let pointee = self.program.types[pointee];
                let address = match pointee.space {
                    AddressSpace::Global => AddressQualifier::Global,
                    AddressSpace::Constant => AddressQualifier::Constant,
                    AddressSpace::Local => AddressQualifier::Local,
                    _ => {
                        self.error(
                            location,
                            "pointer arguments to kernel functions must reside in '__global', '__constant' or '__local' address space",
                        );
                        AddressQualifier::Private
                    }
                };
                if matches!(pointee.ty, Type::Pointer(_)) {
                    self.error(
                        location,
                        "kernel parameter cannot be declared as a pointer to a pointer",
                    );
                }
                let restrict = p
                    .declarator
                    .derived
                    .iter()
                    .any(|d| matches!(d, ast::Derived::Pointer(q) if q.is_restrict));
                hir::KernelArgInfo {
                    type_name: written,
                    address,
                    is_const: pointee.is_const || pointee.space == AddressSpace::Constant,
                    is_restrict: restrict,
                    is_volatile: pointee.is_volatile,
                }
            }
            Type::Scalar(Scalar::Bool) => {
                self.error(
                    location,
                    "'bool' cannot be used as the type of a kernel parameter",
                );
                self.plain_arg(written)
            }
            Type::Scalar(_) | Type::Vector(..) | Type::Record(_) | Type::Error => {
                self.plain_arg(written)
            }
            // Images live in global memory (`CL_KERNEL_ARG_ADDRESS_GLOBAL`,
            // as clang reports them); their access qualifier is the
            // reflection's (`ArgKind::Image`).
            t if t.image().is_some() => hir::KernelArgInfo {
                address: AddressQualifier::Global,
                ..self.plain_arg(written)
            },
            Type::Opaque(types::Opaque::Sampler) => self.plain_arg(written),
            t => {
                self.error(
                    location,
                    format!(
                        "kernel arguments of type '{}' are not supported yet by this translator",
                        self.display(t)
                    ),
                );
                self.plain_arg(written)
            }
        }
    }

    pub(super) fn record_has_pointer(&self, r: naga::Handle<types::Record>) -> bool {
        self.record(r)
            .fields
            .iter()
            .any(|f| match self.program.types.innermost_element(f.ty) {
                Type::Pointer(_) => true,
                Type::Record(r) => self.record_has_pointer(r),
                _ => false,
            })
    }

    pub(super) fn plain_arg(&self, type_name: String) -> hir::KernelArgInfo {
        hir::KernelArgInfo {
            type_name,
            address: AddressQualifier::Private,
            is_const: false,
            is_restrict: false,
            is_volatile: false,
        }
    }

    pub(super) fn kernel_attributes(
        &mut self,
        attrs: &[ast::Attribute],
        info: &mut hir::KernelInfo,
    ) {
        let mut written = Vec::new();
        for a in attrs {
            let args: Vec<Option<i128>> = a.args.iter().map(|e| self.const_int(e)).collect();
            let written_name = self.spelling(a.name);
            match super::attributes::attribute_name(&written_name) {
                "reqd_work_group_size" => {
                    let dims: Option<Vec<u32>> = args
                        .iter()
                        .map(|v| v.and_then(|v| u32::try_from(v).ok()))
                        .collect();
                    match dims {
                        _ if args.len() != 3 => self.error(
                            a.location,
                            "'reqd_work_group_size' attribute requires exactly 3 arguments",
                        ),
                        Some(d) if d.contains(&0) => self.error(
                            a.location,
                            "'reqd_work_group_size' attribute must be greater than 0",
                        ),
                        Some(d) => {
                            info.required_work_group_size = Some([d[0], d[1], d[2]]);
                            written
                                .push(format!("reqd_work_group_size({},{},{})", d[0], d[1], d[2]));
                        }
                        None => self.error(
                            a.location,
                            "'reqd_work_group_size' attribute requires an integer constant",
                        ),
                    }
                }
                "intel_reqd_sub_group_size" => {
                    if let Some(size) = self.required_sub_group_size(a, &args) {
                        info.required_sub_group_size = Some(size);
                        written.push(format!("intel_reqd_sub_group_size({size})"));
                    }
                }
                "work_group_size_hint" => {
                    let vals: Vec<String> =
                        args.iter().map(|v| v.unwrap_or(0).to_string()).collect();
                    written.push(format!("work_group_size_hint({})", vals.join(",")));
                }
                "vec_type_hint" => {
                    if let Some(hint) = self.vec_type_hint(a) {
                        written.push(format!("vec_type_hint({hint})"));
                    }
                }
                other => self
                    .diags
                    .warning(a.location, format!("unknown attribute '{other}' ignored")),
            }
        }
        info.attributes = written.join(" ");
    }

    /// The sub-group size `intel_reqd_sub_group_size(n)` (attribute `a`,
    /// its arguments' values `args`) asks for: a power of two the device
    /// can run kernels with (`DeviceCaps::subgroup_size_range`); `None`
    /// after reporting any other.
    fn required_sub_group_size(
        &mut self,
        a: &ast::Attribute,
        args: &[Option<i128>],
    ) -> Option<u32> {
        let [Some(size)] = args else {
            self.error(
                a.location,
                "'intel_reqd_sub_group_size' attribute requires an integer constant",
            );
            return None;
        };
        if !self.caps.subgroups.khr_subgroups() {
            self.error(
                a.location,
                "'intel_reqd_sub_group_size' needs sub-groups, which this device does not have",
            );
            return None;
        }
        let [min, max] = self.caps.subgroup_size_range;
        let runs = u32::try_from(*size)
            .ok()
            .filter(|s| s.is_power_of_two() && (min..=max).contains(s));
        if runs.is_none() {
            let sizes = if min == max {
                format!("whose sub-groups have {min} work-items")
            } else {
                format!("which runs sub-groups of {min} to {max} work-items, powers of two")
            };
            self.error(
                a.location,
                format!("sub-group size {size} is not supported by this device, {sizes}"),
            );
        }
        runs
    }

    /// The type named by `vec_type_hint(T)`, spelt as `CL_KERNEL_ATTRIBUTES`
    /// reports it (`float4`; a typedef by the type it names). `T` must be a
    /// scalar or vector type other than `bool`, as clang requires; `None`
    /// after reporting anything else.
    fn vec_type_hint(&mut self, a: &ast::Attribute) -> Option<String> {
        let invalid = "a non-vector or non-vectorizable scalar type is an invalid argument to attribute 'vec_type_hint'";
        let [arg] = a.args.as_slice() else {
            self.error(a.location, "'vec_type_hint' attribute takes one argument");
            return None;
        };
        let ast::ExprKind::Ident(name) = arg.kind else {
            self.error(a.location, invalid);
            return None;
        };
        let ty = match self.lookup(name) {
            Some(Symbol::Typedef(ty, _, _)) => Some(ty),
            Some(_) => None,
            None => {
                let text = self.text(name);
                let scalar = crate::types::VECTOR_ELEMENTS_BY_NAME
                    .iter()
                    .find(|(n, _)| *n == text)
                    .map(|&(_, s)| Type::Scalar(s));
                match scalar.or_else(|| match crate::types::lookup_builtin_type_name(text) {
                    Some(crate::types::BuiltinName::Scalar(s)) => Some(Type::Scalar(s)),
                    Some(crate::types::BuiltinName::Vector(s, n)) => Some(Type::Vector(s, n)),
                    _ => None,
                }) {
                    Some(ty) => Some(ty),
                    None => {
                        let text = self.spelling(name);
                        self.error(arg.location, format!("unknown type name '{text}'"));
                        return None;
                    }
                }
            }
        };
        match ty {
            Some(Type::Scalar(s)) if s != Scalar::Bool => Some(s.name().to_string()),
            Some(Type::Vector(s, n)) => Some(format!("{}{n}", s.name())),
            _ => {
                self.error(a.location, invalid);
                None
            }
        }
    }

    /// C++'s `auto x = e;`: the type of `e` after the array-to-pointer
    /// conversion (C++17 [dcl.type.auto.deduct]); an address space it
    /// names stays the pointee's, and the variable is private. Only the
    /// plain form is there yet.
    /// What `auto` deduces for the variable `init` declares: a type, and
    /// for `auto *p` the pointee's address space and constness, which the
    /// variable's pointer keeps (seed 004: `auto *ptr = &i` of a
    /// `__local int i` points to `__local int`).
    fn deduced_type(
        &mut self,
        init: &ast::InitDeclarator,
        location: Location,
    ) -> Option<(Type, Option<Pointee>)> {
        let not_yet = crate::language::NOT_YET;
        let pointer = matches!(init.declarator.derived[..], [ast::Derived::Pointer(_)]);
        match (&init.init, init.declarator.derived.is_empty()) {
            (Some(ast::Initializer::Expr(e)), true) => {
                // Checked again as the initialiser: report its errors once.
                Some((self.quietly(|c| c.rvalue(e).ty), None))
            }
            (Some(ast::Initializer::Expr(e)), false) if pointer => {
                let value = self.quietly(|c| c.rvalue(e).ty);
                if value.is_error() {
                    return Some((Type::Error, None));
                }
                let Some(pointee) = self.pointee(value) else {
                    let shown = self.display(value);
                    self.error(
                        location,
                        format!("variable 'auto *' with an initializer of type '{shown}', not a pointer"),
                    );
                    return None;
                };
                Some((pointee.ty, Some(pointee)))
            }
            (Some(ast::Initializer::Expr(_)), false) => {
                self.error(
                    location,
                    format!("'auto' with a declarator other than one '*' is {not_yet}"),
                );
                None
            }
            (Some(ast::Initializer::List(..)), _) => {
                self.error(
                    location,
                    format!("'auto' with a braced initializer is {not_yet}"),
                );
                None
            }
            (None, _) => {
                let name = self.declared_name(&init.declarator);
                self.error(
                    location,
                    format!("declaration of variable '{name}' with deduced type 'auto' requires an initializer"),
                );
                None
            }
        }
    }

    /// The declaration `d` of statement `stmt`: its variables, and a
    /// statement (spanning `stmt`) per initialiser.
    pub(super) fn local_declaration(
        &mut self,
        d: &ast::Declaration,
        stmt: Span,
        out: &mut hir::Block,
    ) {
        let deduced = matches!(d.specs.ty, ast::TypeSpec::Auto);
        let mut first_deduced = None;
        let (base, quals) = if deduced {
            (Type::Error, self.spec_qualifiers(&d.specs))
        } else {
            self.base_type(&d.specs)
        };
        // Each declarator is a full-expression of its own: one's
        // temporaries are destroyed before the next is initialized.
        let mut open = false;
        for init in &d.declarators {
            if std::mem::replace(&mut open, true) {
                self.close_full_expression(out, stmt);
            }
            self.open_full_expression();
            let Some((name, location)) = &init.declarator.name else {
                continue;
            };
            let location = *location;
            if init.declarator.reference.is_some() {
                self.reference_local(d, init, base, quals, stmt, out);
                continue;
            }
            let mut quals = quals;
            let base = if deduced {
                let Some((ty, pointee)) = self.deduced_type(init, location) else {
                    continue;
                };
                if let Some(pointee) = pointee {
                    quals.address_space = quals.address_space.or(Some(pointee.space));
                    quals.is_const |= pointee.is_const;
                }
                // One `auto` deduces one type for all its declarators.
                match first_deduced {
                    Some((first_name, first)) if first != ty => {
                        let (a, b) = (self.display(first), self.display(ty));
                        let (first_name, this) = (self.spelling(first_name), self.spelling(*name));
                        self.error(
                            d.specs.type_location,
                            format!("'auto' deduced as '{a}' in declaration of '{first_name}' and deduced as '{b}' in declaration of '{this}'"),
                        );
                        continue;
                    }
                    None => first_deduced = Some((*name, ty)),
                    _ => {}
                }
                ty
            } else {
                base
            };
            if d.specs.storage == Some(ast::StorageClass::Typedef) {
                let (ty, align) =
                    self.typedef_type(base, quals, &d.specs, &init.declarator, location);
                self.declare(
                    name,
                    Symbol::Typedef(ty, quals_of_typedef(quals, &init.declarator), align),
                );
                continue;
            }
            if matches!(
                init.declarator.derived.first(),
                Some(ast::Derived::Function { .. })
            ) {
                self.error(
                    location,
                    "function declarations inside functions are not supported",
                );
                continue;
            }
            if d.specs.storage == Some(ast::StorageClass::Static) && self.cl_std >= (2, 0) {
                // OpenCL C 3.0 s6.7.1: a function's static variable lives as
                // a program-scope one does (in the global address space
                // unless qualified), initialised once; only its name is
                // local.
                self.program_scope_variable(d, init, base, quals);
                continue;
            }
            if self
                .scopes
                .in_innermost(name)
                .is_some_and(|s| matches!(s, Symbol::Local(_)))
            {
                let spelling = self.spelling(*name);
                self.error(location, format!("redefinition of '{spelling}'"));
            }
            if d.specs.storage == Some(ast::StorageClass::Static) && self.cl_std < (2, 0) {
                self.error(
                    location,
                    "variables in function scope cannot be declared static",
                );
            }
            let ty = self.declarator_type(base, quals, &init.declarator, location);
            if ty.is_sampler() && !self.copies_sampler_parameter(init.init.as_ref()) {
                self.literal_sampler(*name, init.init.as_ref(), location);
                continue;
            }
            if self.reject_image_variable(ty, location) {
                continue;
            }
            let placement = self.placement(&[&d.specs.attributes, &init.declarator.attributes]);
            let ty = self.apply_endian(ty, &placement, location);
            // A pointee's address space is not the variable's: the
            // qualifier names the variable's own only when no pointer is
            // derived (`global int *ptrs[2]` is a private array of
            // pointers to global memory).
            let space = if init
                .declarator
                .derived
                .iter()
                .all(|d| matches!(d, ast::Derived::Array(_)))
            {
                quals.address_space.unwrap_or(AddressSpace::Private)
            } else {
                AddressSpace::Private
            };
            let (in_kernel, at_body) = self.current.as_ref().map_or((false, false), |f| {
                (f.is_kernel, self.scopes.depth() == f.body_depth)
            });
            match space {
                AddressSpace::Private => {}
                AddressSpace::Local | AddressSpace::Constant if !in_kernel => {
                    self.error(
                        location,
                        format!(
                            "non-kernel function variable cannot be declared in {} address space",
                            if space == AddressSpace::Local {
                                "local"
                            } else {
                                "constant"
                            }
                        ),
                    );
                }
                AddressSpace::Local | AddressSpace::Constant if !at_body => {
                    let which = if space == AddressSpace::Local {
                        "local"
                    } else {
                        "constant"
                    };
                    self.error(
                        location,
                        format!("variables in the {which} address space can only be declared in the outermost scope of a kernel function"),
                    );
                }
                AddressSpace::Local => {
                    if init.init.is_some() || init.arguments.is_some() {
                        self.error(location, "'__local' variable cannot have an initializer");
                    }
                }
                AddressSpace::Constant => {
                    if init.init.is_none() {
                        self.error(
                            location,
                            "variable in constant address space must be initialized",
                        );
                    }
                }
                _ => self.error(
                    location,
                    "function scope variable cannot be declared in global address space",
                ),
            }
            if ty == Type::Void {
                self.error(location, "variable has incomplete type 'void'");
            }
            let constructed = self.cxx && self.constructed_local(ty, init);
            // `T x;` for an array of objects, or a class without
            // constructors whose members have them: each made by its
            // default constructor.
            let defaulted = constructed
                && space == AddressSpace::Private
                && init.arguments.is_none()
                && match &init.init {
                    None => !matches!(ty, Type::Record(r) if self.constructors(r).is_some()),
                    // `S a[2] = {S(1), 2}`: each element from its item.
                    Some(ast::Initializer::List(..)) => ty.is_array(),
                    Some(_) => false,
                };
            if constructed && !defaulted && !self.constructible_local(ty, space, location) {
                continue;
            }
            let (value, ty) = match (&init.init, space, &init.arguments) {
                _ if defaulted => {
                    let span = init.declarator.span_or(location);
                    let value = match &init.init {
                        Some(ast::Initializer::List(items, _)) => {
                            self.constructed_elements(ty, items, span)
                        }
                        _ => self.default_constructed(ty, span),
                    };
                    (value.map(|v| self.commit(v)), ty)
                }
                _ if constructed => (None, ty),
                (_, _, Some((args, lparen))) => {
                    (self.direct_initializer(args, ty, *lparen, location), ty)
                }
                (Some(i), AddressSpace::Private | AddressSpace::Constant, _) => {
                    let (e, ty) = self.initializer(i, ty, location);
                    (Some(self.commit(e)), ty)
                }
                _ => (None, ty),
            };
            // Opaque types (event_t, sampler_t) have no size but are values.
            let opaque = matches!(ty, Type::Opaque(_) | Type::Error);
            if self.type_size(ty).is_none() && !opaque && ty != Type::Void {
                self.error(
                    location,
                    format!("variable has incomplete type '{}'", self.display(ty)),
                );
            }
            // An array is as `const` as its elements: the first declarator
            // part that is not an array decides.
            let first =
                (init.declarator.derived.iter()).find(|d| !matches!(d, ast::Derived::Array(_)));
            let is_const = match first {
                None | Some(ast::Derived::Array(_)) => quals.is_const,
                Some(ast::Derived::Pointer(q)) => q.is_const,
                Some(ast::Derived::Function { .. }) => false,
            };
            let local = hir::Local {
                name: self.symbol(*name),
                ty,
                space,
                is_const,
                span: init.declarator.span_or(location),
            };
            let constant = self.variable_constant(&d.specs, is_const, ty, init, location);
            let id = self.add_local(Some(*name), local);
            if let (Some(c), Some(f)) = (constant, self.current.as_mut()) {
                f.constants.insert(id, c);
            }
            if let Some(align) = self.declared_alignment(ty, &d.specs, &init.declarator, &placement)
            {
                if let Some(f) = self.current.as_mut() {
                    f.aligned_locals.push((id, align));
                }
            }
            if let Some(v) = value {
                out.push(self.add_stmt(StmtKind::Init(id, v), stmt.with_caret(location)));
            }
            if constructed && !defaulted {
                if let Some(call) = self.local_construction(id, ty, init, location) {
                    if !call.ty.is_error() {
                        let call = self.commit(call);
                        out.push(self.add_stmt(StmtKind::Expr(call), stmt.with_caret(location)));
                    }
                }
            }
            self.note_local_object(id, ty, space, location);
            if let Some(f) = self.current.as_mut() {
                let returned = f.named_return == Some(*name) && ty == f.ret;
                if returned && space == AddressSpace::Private && !is_const {
                    f.named_return_local = Some(id);
                }
            }
        }
        if open {
            self.close_full_expression(out, stmt);
        }
    }

    /// `T x(a)` for a `T` without constructors: `T x = a`.
    fn direct_initializer(
        &mut self,
        args: &[ast::Expr],
        ty: Type,
        lparen: Location,
        location: Location,
    ) -> Option<ExprId> {
        let [arg] = args else {
            let message = match ty {
                Type::Record(r) => format!(
                    "no matching constructor for initialization of '{}'",
                    self.class_spelling(r)
                ),
                _ => "excess elements in scalar initializer".to_owned(),
            };
            self.error(lparen, message);
            return None;
        };
        let value = self.rvalue(arg);
        let value = self.convert_for_assignment(value, ty, Conversion::Init(location));
        Some(self.commit(value))
    }

    /// Whether a local of type `ty` in `space`, which needs a constructor
    /// run, is one clvulkan can construct: a private object of a class
    /// with constructors. Reports the others.
    fn constructible_local(&mut self, ty: Type, space: AddressSpace, location: Location) -> bool {
        let own = matches!(ty, Type::Record(r) if self.constructors(r).is_some());
        if own && space == AddressSpace::Private {
            return true;
        }
        let what = if own {
            "objects of a class with constructors outside private memory"
        } else {
            "arrays and members of a class with constructors, outside a constructor,"
        };
        let not_yet = crate::language::NOT_YET;
        self.error(location, format!("{what} are {not_yet}"));
        false
    }
}
