//! Semantic checking: resolves names and types, applies C's and OpenCL's
//! conversion rules, enforces the kernel and address-space rules, and
//! produces the [`hir::Program`].
//!
//! Errors are reported and checking goes on with an error-typed placeholder,
//! so a build lists every problem it can find.

mod attributes;
mod init;
mod records;
mod statements;

use crate::ast::{self, AddressSpace, BinaryOp, ExprKind as A};
use crate::builtins::{self, common_scalar, promote};
use crate::caps::DeviceCaps;
use crate::diagnostic::{Diagnostics, Location};
use crate::hir::{self, Expr, ExprKind as H, FunctionId, LocalId, Stmt};
use crate::literal;
use crate::options::BuildOptions;
use crate::reflect::AddressQualifier;
use crate::types::{self, BuiltinName, Pointee, Scalar, Type};
use std::collections::HashMap;
use std::rc::Rc;

/// Checks `unit`; the result is only meaningful when `diags` has no errors.
pub fn check(
    unit: &ast::TranslationUnit,
    options: &BuildOptions,
    caps: &DeviceCaps,
    diags: &mut Diagnostics,
) -> hir::Program {
    let mut checker = Checker {
        diags,
        caps,
        cl_std: options.effective_cl_std().version(),
        program: hir::Program::default(),
        scopes: vec![HashMap::new()],
        records: Vec::new(),
        current: None,
        loop_depth: 0,
        break_depth: 0,
    };
    for &(name, _, value) in builtins::PREDEFINED_CONSTANTS {
        // The memory-model enums and image fences arrived with OpenCL C 2.0.
        let since_2_0 = name.starts_with("memory_") || name == "CLK_IMAGE_MEM_FENCE";
        if !since_2_0 || checker.cl_std >= (2, 0) {
            checker.declare(name.into(), Symbol::EnumConstant(value));
        }
    }
    for item in &unit.items {
        match item {
            ast::ExternalDecl::Function(f) => checker.function_definition(f),
            ast::ExternalDecl::Declaration(d) => checker.global_declaration(d),
        }
    }
    checker.program.records = checker.records;
    reject_recursion(&checker.program, checker.diags);
    checker.program
}

/// OpenCL C has no recursion (6.9.m): reports each call that closes a cycle
/// of calls, at the call.
fn reject_recursion(program: &hir::Program, diags: &mut Diagnostics) {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnPath,
        Done,
    }
    fn visit(id: FunctionId, program: &hir::Program, marks: &mut [Mark], diags: &mut Diagnostics) {
        marks[id] = Mark::OnPath;
        for (callee, location) in hir::calls(&program.functions[id].body) {
            match marks[callee] {
                Mark::OnPath => diags.error(location, "recursion is not supported in OpenCL"),
                Mark::New => visit(callee, program, marks, diags),
                Mark::Done => {}
            }
        }
        marks[id] = Mark::Done;
    }
    let mut marks = vec![Mark::New; program.functions.len()];
    for id in 0..program.functions.len() {
        if marks[id] == Mark::New {
            visit(id, program, &mut marks, diags);
        }
    }
}

#[derive(Clone, Debug)]
enum Symbol {
    Local(LocalId),
    Function(FunctionId),
    /// The type, its qualifiers, and an alignment set on the typedef.
    Typedef(Type, ast::Qualifiers, Option<u64>),
    EnumConstant(i64),
    /// A struct or union tag: an index into `Checker::records`.
    Tag(u32),
    Global(hir::GlobalId),
}

/// The function being checked: its locals and return type.
struct FunctionState {
    locals: Vec<hir::Local>,
    ret: Type,
    is_kernel: bool,
    /// `scopes.len()` inside the body's outermost block, where `__local`
    /// and `__constant` variables may be declared.
    body_depth: usize,
}

struct Checker<'a> {
    diags: &'a mut Diagnostics,
    caps: &'a DeviceCaps,
    cl_std: (u32, u32),
    program: hir::Program,
    scopes: Vec<HashMap<Rc<str>, Symbol>>,
    /// Every struct and union type, by id; the latest version of each.
    records: Vec<Rc<types::Record>>,
    current: Option<FunctionState>,
    /// Enclosing loops, for `continue`.
    loop_depth: u32,
    /// Enclosing loops and switches, for `break`.
    break_depth: u32,
}

/// Placeholder type after an error: accepted everywhere, reported nowhere.
fn error_type() -> Type {
    Type::Unsupported("<error>".into())
}

fn is_error(t: &Type) -> bool {
    matches!(t, Type::Unsupported(n) if &**n == "<error>")
}

impl<'a> Checker<'a> {
    fn size_type(&self, signed: bool) -> Scalar {
        match (self.caps.address_bits, signed) {
            (64, false) => Scalar::ULong,
            (64, true) => Scalar::Long,
            (_, false) => Scalar::UInt,
            (_, true) => Scalar::Int,
        }
    }

    fn error(&mut self, location: Location, message: impl Into<String>) {
        self.diags.error(location, message);
    }

    // ---- scopes ----

    fn lookup(&self, name: &str) -> Option<&Symbol> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    fn declare(&mut self, name: Rc<str>, symbol: Symbol) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name, symbol);
        }
    }

    fn add_local(&mut self, local: hir::Local) -> LocalId {
        let name = local.name.clone();
        let state = self.current.as_mut().expect("inside a function");
        state.locals.push(local);
        let id = state.locals.len() - 1;
        self.declare(name, Symbol::Local(id));
        id
    }

    // ---- types ----

    fn base_type(&mut self, specs: &ast::DeclSpecs) -> (Type, ast::Qualifiers) {
        let mut quals = specs.qualifiers;
        let ty = match &specs.ty {
            ast::TypeSpec::None => {
                self.error(specs.location, "type specifier missing");
                error_type()
            }
            ast::TypeSpec::Scalar(words) => self.scalar_from_words(words, specs.location),
            ast::TypeSpec::Builtin(name) if name.starts_with("atomic_") && self.cl_std < (2, 0) => {
                self.error(specs.type_location, format!("unknown type name '{name}'"));
                error_type()
            }
            ast::TypeSpec::Builtin(name) => match types::lookup_builtin_type_name(name) {
                Some(BuiltinName::Scalar(s)) => Type::Scalar(s),
                Some(BuiltinName::SizeType { signed }) => Type::Scalar(self.size_type(signed)),
                Some(BuiltinName::Vector(s, n)) => Type::Vector(s, n),
                _ => Type::Unsupported(name.clone()),
            },
            ast::TypeSpec::Typedef(name) => match self.lookup(name) {
                Some(Symbol::Typedef(t, q, _)) => {
                    let (t, q) = (t.clone(), *q);
                    quals.is_const |= q.is_const;
                    quals.is_volatile |= q.is_volatile;
                    quals.address_space = quals.address_space.or(q.address_space);
                    t
                }
                _ => {
                    self.error(specs.type_location, format!("unknown type name '{name}'"));
                    error_type()
                }
            },
            ast::TypeSpec::Record(r) => self.record_type(r),
            ast::TypeSpec::Enum(e) => {
                self.enum_spec(e);
                Type::INT
            }
        };
        self.check_type_supported(&ty, specs.location);
        if quals.is_restrict && !matches!(ty, Type::Pointer(_)) && !is_error(&ty) {
            self.error(
                specs.location,
                format!(
                    "restrict requires a pointer or reference ('{}' is invalid)",
                    ty.display()
                ),
            );
        }
        (ty, quals)
    }

    fn check_type_supported(&mut self, ty: &Type, location: Location) {
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

    fn scalar_from_words(&mut self, w: &ast::ScalarWords, location: Location) -> Type {
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
            return error_type();
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
                return error_type();
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

    fn enum_spec(&mut self, e: &ast::EnumSpec) {
        let Some(list) = &e.enumerators else { return };
        let mut next = 0i64;
        for (name, value, location) in list {
            if let Some(v) = value {
                match self.const_int(v) {
                    Some(v) => next = v as i64,
                    None => self.error(*location, "enumerator value is not an integer constant"),
                }
            }
            if self.scopes.last().is_some_and(|s| s.contains_key(name)) {
                self.error(*location, format!("redefinition of enumerator '{name}'"));
            }
            self.declare(name.clone(), Symbol::EnumConstant(next));
            next = next.wrapping_add(1);
        }
    }

    /// The default address space of an unqualified pointee (OpenCL C 6.7):
    /// private before 2.0, generic from 2.0 on.
    fn default_pointee_space(&self) -> AddressSpace {
        if self.cl_std >= (2, 0) {
            AddressSpace::Generic
        } else {
            AddressSpace::Private
        }
    }

    /// Applies a declarator's derivations to a base type. Returns the type
    /// and, for functions, the parameter list.
    fn declarator_type(
        &mut self,
        base: Type,
        quals: ast::Qualifiers,
        declarator: &ast::Declarator,
        location: Location,
    ) -> Type {
        self.derived_type(base, quals, &declarator.derived, location)
    }

    /// Applies derivations, listed from the name outwards, to a base type.
    fn derived_type(
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
            ty = match d {
                ast::Derived::Pointer(q) => {
                    let t = Type::Pointer(Rc::new(Pointee {
                        ty,
                        is_const,
                        is_volatile,
                        space,
                        endian_host: false,
                    }));
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
                                self.error(
                                    e.location,
                                    "variable length arrays are not supported in OpenCL",
                                );
                                1
                            }
                        },
                        None => 0,
                    };
                    Type::Array(Rc::new(ty), n)
                }
                ast::Derived::Function { .. }
                    if derived
                        .iter()
                        .any(|d| matches!(d, ast::Derived::Pointer(_))) =>
                {
                    // A function pointer: the parser has reported it.
                    error_type()
                }
                ast::Derived::Function { .. } => {
                    self.error(
                        location,
                        "function types are only allowed in function declarations",
                    );
                    error_type()
                }
            };
        }
        // Without cl_khr_fp16, `half` exists only behind pointers, for
        // vload_half and vstore_half (OpenCL C 6.1.1.1).
        let mut value = &ty;
        while let Type::Array(elem, _) = value {
            value = elem;
        }
        if value.element() == Some(Scalar::Half) && !self.caps.float16 {
            self.error(location, "declaring variable of type 'half' is not allowed");
            return error_type();
        }
        ty
    }

    // ---- constant expressions ----

    /// Evaluates an integer constant expression (array sizes, case labels,
    /// enumerators, attribute arguments).
    fn const_int(&mut self, e: &ast::Expr) -> Option<i128> {
        Some(match &e.kind {
            A::IntLiteral(text) => literal::parse_int(text).ok()?.0 as i128,
            A::CharLiteral(text) => literal::parse_char(text).ok()? as i128,
            A::Ident(name) => match self.lookup(name)? {
                Symbol::EnumConstant(v) => *v as i128,
                _ => return None,
            },
            A::Unary(op, x) => {
                let v = self.const_int(x)?;
                match op {
                    ast::UnaryOp::Plus => v,
                    ast::UnaryOp::Minus => -v,
                    ast::UnaryOp::BitNot => !v,
                    ast::UnaryOp::Not => (v == 0) as i128,
                    _ => return None,
                }
            }
            A::Binary(op, a, b) => {
                let (a, b) = (self.const_int(a)?, self.const_int(b)?);
                use BinaryOp::*;
                match op {
                    Mul => a.checked_mul(b)?,
                    Div => a.checked_div(b)?,
                    Rem => a.checked_rem(b)?,
                    Add => a.checked_add(b)?,
                    Sub => a.checked_sub(b)?,
                    Shl => a.checked_shl(u32::try_from(b).ok()?)?,
                    Shr => a.checked_shr(u32::try_from(b).ok()?)?,
                    Lt => (a < b) as i128,
                    Gt => (a > b) as i128,
                    Le => (a <= b) as i128,
                    Ge => (a >= b) as i128,
                    Eq => (a == b) as i128,
                    Ne => (a != b) as i128,
                    BitAnd => a & b,
                    BitXor => a ^ b,
                    BitOr => a | b,
                    LogicalAnd => (a != 0 && b != 0) as i128,
                    LogicalOr => (a != 0 || b != 0) as i128,
                }
            }
            A::Conditional(c, a, b) => {
                if self.const_int(c)? != 0 {
                    self.const_int(a)?
                } else {
                    self.const_int(b)?
                }
            }
            A::Cast(_, x) => self.const_int(x)?,
            A::SizeofType(t) => {
                let ty = self.type_name(t);
                ty.size(self.caps.address_bits)? as i128
            }
            A::SizeofExpr(x) => {
                let v = self.expr(x);
                v.ty.size(self.caps.address_bits)? as i128
            }
            A::AlignofType(t) => {
                let ty = self.type_name(t);
                ty.align(self.caps.address_bits)? as i128
            }
            A::VecStepType(t) => match self.type_name(t) {
                Type::Scalar(_) => 1,
                Type::Vector(_, n) => i128::from(types::storage_lanes(n)),
                _ => return None,
            },
            A::VecStepExpr(x) => match self.expr(x).ty {
                Type::Scalar(_) => 1,
                Type::Vector(_, n) => i128::from(types::storage_lanes(n)),
                _ => return None,
            },
            _ => return None,
        })
    }

    fn type_name(&mut self, t: &ast::TypeName) -> Type {
        let (base, quals) = self.base_type(&t.specs);
        self.declarator_type(base, quals, &t.declarator, t.specs.location)
    }

    // ---- declarations ----

    fn global_declaration(&mut self, d: &ast::Declaration) {
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
            let Some((base, quals)) = base.clone() else {
                continue;
            };
            if d.specs.storage == Some(ast::StorageClass::Typedef) {
                let (ty, align) =
                    self.typedef_type(base, quals, &d.specs, &init.declarator, *location);
                if let Some(Symbol::Typedef(old, _, _)) =
                    self.scopes.last().and_then(|s| s.get(name))
                {
                    if *old != ty {
                        let old = old.display();
                        self.error(
                            *location,
                            format!(
                                "typedef redefinition with different types ('{}' vs '{old}')",
                                ty.display()
                            ),
                        );
                    }
                }
                self.program
                    .typedefs
                    .push((name.clone(), ty.clone(), align));
                self.declare(
                    name.clone(),
                    Symbol::Typedef(ty, quals_of_typedef(quals, &init.declarator), align),
                );
                continue;
            }
            self.program_scope_variable(d, init, base, quals);
        }
    }

    /// The type a typedef names and the alignment an attribute gives it
    /// (which, unlike on a struct, may also decrease it).
    fn typedef_type(
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
    fn program_scope_variable(
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
        let placement = self.placement(&[&d.specs.attributes, &init.declarator.attributes]);
        let ty = self.apply_endian(ty, &placement, location);
        let generic_std = self.cl_std >= (2, 0);
        let space = match quals.address_space {
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
        let (init_expr, ty) = match &init.init {
            Some(i) => {
                let (e, ty) = self.initializer(i, &ty, location);
                (Some(e), ty)
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
        if ty.size(self.caps.address_bits).is_none() && !is_error(&ty) {
            self.error(
                location,
                format!("variable has incomplete type '{}'", ty.display()),
            );
        }
        self.program.globals.push(hir::Global {
            name: name.clone(),
            ty,
            space,
            init: init_expr,
            location,
        });
        let id = self.program.globals.len() - 1;
        self.declare(name.clone(), Symbol::Global(id));
    }

    /// A parameter's type: attributes applied, arrays adjusted to pointers
    /// (C99 6.7.5.3).
    fn param_type(&mut self, p: &ast::ParamDecl, location: Location) -> (Type, ast::Qualifiers) {
        let (base, quals) = self.base_type(&p.specs);
        let ty = self.declarator_type(base, quals, &p.declarator, location);
        let placement = self.placement(&[&p.specs.attributes, &p.declarator.attributes]);
        let ty = self.apply_endian(ty, &placement, location);
        let ty = match &ty {
            Type::Array(elem, _) => Type::Pointer(Rc::new(Pointee {
                ty: (**elem).clone(),
                is_const: quals.is_const,
                is_volatile: quals.is_volatile,
                space: quals
                    .address_space
                    .unwrap_or_else(|| self.default_pointee_space()),
                endian_host: false,
            })),
            _ => ty,
        };
        (ty, quals)
    }

    /// Declares a function (prototype or definition) and returns its id.
    fn function_prototype(
        &mut self,
        specs: &ast::DeclSpecs,
        declarator: &ast::Declarator,
        location: Location,
        defining: bool,
    ) -> FunctionId {
        let name = declarator
            .name
            .as_ref()
            .map_or_else(|| Rc::from(""), |n| n.0.clone());
        let (base, _) = self.base_type(specs);
        // `derived[0]` is the parameter list; anything after it belongs to
        // the return type.
        let (base, quals) = (base, specs.qualifiers);
        let ret = self.derived_type(base, quals, &declarator.derived[1..], location);
        if let Type::Array(..) = ret {
            self.error(location, "function cannot return array type");
        }
        let (params, variadic) = match declarator.derived.first() {
            Some(ast::Derived::Function { params, variadic }) => (&params[..], *variadic),
            _ => (&[][..], false),
        };
        if variadic {
            self.error(location, "variadic arguments are not allowed in OpenCL");
        }
        // Parameter names are not in scope here; only types matter. A
        // definition checks its parameters again, so their problems are
        // reported once, from there.
        let mark = self.diags.len();
        self.scopes.push(HashMap::new());
        let signature: Vec<Type> = params
            .iter()
            .map(|p| self.param_type(p, p.location).0)
            .collect();
        self.scopes.pop();
        if defining {
            self.diags.truncate(mark);
        }
        if let Some(Symbol::Function(id)) = self.lookup(&name).cloned() {
            let f = &self.program.functions[id];
            if f.signature != signature || f.ret != ret {
                self.error(location, format!("conflicting types for '{name}'"));
            } else if defining && f.defined {
                self.error(location, format!("redefinition of '{name}'"));
            }
            return id;
        }
        self.program.functions.push(hir::Function {
            name: name.clone(),
            signature,
            params: Vec::new(),
            locals: Vec::new(),
            ret,
            body: Vec::new(),
            kernel: None,
            defined: false,
            location,
        });
        let id = self.program.functions.len() - 1;
        self.declare(name, Symbol::Function(id));
        id
    }

    fn function_definition(&mut self, f: &ast::FunctionDef) {
        // Variadic definitions are reported by `function_prototype`.
        let Some(ast::Derived::Function { params, .. }) = f.declarator.derived.first() else {
            return;
        };
        let location = f.declarator.name.as_ref().map_or(f.specs.location, |n| n.1);
        let id = self.function_prototype(&f.specs, &f.declarator, location, true);
        let is_kernel = f.specs.is_kernel;
        if is_kernel && f.specs.storage == Some(ast::StorageClass::Static) {
            self.error(location, "kernel functions cannot be declared static");
        }
        let ret = self.program.functions[id].ret.clone();
        if is_kernel && ret != Type::Void {
            self.error(location, "kernel must have void return type");
        }
        self.current = Some(FunctionState {
            locals: Vec::new(),
            ret: ret.clone(),
            is_kernel,
            body_depth: self.scopes.len() + 1,
        });
        self.scopes.push(HashMap::new());
        let mut kernel_info = hir::KernelInfo::default();
        let mut param_ids = Vec::new();
        for p in params {
            let ploc = p.declarator.name.as_ref().map_or(p.location, |n| n.1);
            let (ty, quals) = self.param_type(p, ploc);
            let name = p.declarator.name.as_ref().map(|n| n.0.clone());
            if let Some(name) = &name {
                if self.scopes.last().is_some_and(|s| s.contains_key(name)) {
                    self.error(ploc, format!("redefinition of parameter '{name}'"));
                }
            }
            if is_kernel {
                kernel_info.args.push(self.kernel_arg(p, &ty, ploc));
            }
            if quals.address_space.is_some() && p.declarator.derived.is_empty() {
                self.error(ploc, "parameter may not be qualified with an address space");
            }
            let name = p
                .declarator
                .name
                .as_ref()
                .map_or_else(|| Rc::from(""), |n| n.0.clone());
            // `const` on the parameter itself, not on what it points to.
            let is_const = quals.is_const && p.declarator.derived.is_empty();
            param_ids.push(self.add_local(hir::Local {
                name,
                ty,
                space: AddressSpace::Private,
                is_const,
                location: ploc,
            }));
        }
        if is_kernel {
            self.kernel_attributes(&f.specs.attributes, &mut kernel_info);
        }
        let body = self.block_items(&f.body.items);
        self.scopes.pop();
        let state = self.current.take().expect("function state");
        let func = &mut self.program.functions[id];
        func.params = param_ids;
        func.locals = state.locals;
        func.body = body;
        func.defined = true;
        func.location = location;
        if is_kernel {
            func.kernel = Some(kernel_info);
        }
    }

    /// Checks a kernel parameter against OpenCL C 6.9 and describes it.
    fn kernel_arg(
        &mut self,
        p: &ast::ParamDecl,
        ty: &Type,
        location: Location,
    ) -> hir::KernelArgInfo {
        let written = type_as_written(p);
        // Types whose size or meaning differs between host and device
        // (OpenCL C 6.9.k) cannot cross into a kernel by value.
        if p.declarator.derived.is_empty() {
            if let ast::TypeSpec::Builtin(name) = &p.specs.ty {
                let forbidden = ["size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "event_t"];
                if forbidden.contains(&&**name) {
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
            Type::Scalar(_) | Type::Vector(..) | Type::Record(_) => self.plain_arg(written),
            t if is_error(t) => self.plain_arg(written),
            t => {
                self.error(
                    location,
                    format!(
                        "kernel arguments of type '{}' are not supported yet by this translator",
                        t.display()
                    ),
                );
                self.plain_arg(written)
            }
        }
    }

    fn record_has_pointer(&self, r: &Rc<types::Record>) -> bool {
        fn has_pointer(checker: &Checker, ty: &Type) -> bool {
            match ty {
                Type::Pointer(_) => true,
                Type::Array(elem, _) => has_pointer(checker, elem),
                Type::Record(r) => checker.record_has_pointer(r),
                _ => false,
            }
        }
        self.complete_record(r)
            .fields
            .iter()
            .any(|f| has_pointer(self, &f.ty))
    }

    fn plain_arg(&self, type_name: String) -> hir::KernelArgInfo {
        hir::KernelArgInfo {
            type_name,
            address: AddressQualifier::Private,
            is_const: false,
            is_restrict: false,
            is_volatile: false,
        }
    }

    fn kernel_attributes(&mut self, attrs: &[ast::Attribute], info: &mut hir::KernelInfo) {
        let mut written = Vec::new();
        for a in attrs {
            let args: Vec<Option<i128>> = a.args.iter().map(|e| self.const_int(e)).collect();
            match &*a.name {
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
                "work_group_size_hint" => {
                    let vals: Vec<String> =
                        args.iter().map(|v| v.unwrap_or(0).to_string()).collect();
                    written.push(format!("work_group_size_hint({})", vals.join(",")));
                }
                "vec_type_hint" => {}
                other => self
                    .diags
                    .warning(a.location, format!("unknown attribute '{other}' ignored")),
            }
        }
        info.attributes = written.join(" ");
    }

    fn local_declaration(&mut self, d: &ast::Declaration, out: &mut Vec<Stmt>) {
        let (base, quals) = self.base_type(&d.specs);
        for init in &d.declarators {
            let Some((name, location)) = &init.declarator.name else {
                continue;
            };
            let location = *location;
            if d.specs.storage == Some(ast::StorageClass::Typedef) {
                let (ty, align) =
                    self.typedef_type(base.clone(), quals, &d.specs, &init.declarator, location);
                self.declare(
                    name.clone(),
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
            if self
                .scopes
                .last()
                .is_some_and(|s| matches!(s.get(name), Some(Symbol::Local(_))))
            {
                self.error(location, format!("redefinition of '{name}'"));
            }
            if d.specs.storage == Some(ast::StorageClass::Static) && self.cl_std < (2, 0) {
                self.error(
                    location,
                    "variables in function scope cannot be declared static",
                );
            }
            let ty = self.declarator_type(base.clone(), quals, &init.declarator, location);
            let placement = self.placement(&[&d.specs.attributes, &init.declarator.attributes]);
            let ty = self.apply_endian(ty, &placement, location);
            // A pointee's address space is not the variable's.
            let space = if init.declarator.derived.is_empty()
                || matches!(
                    init.declarator.derived.first(),
                    Some(ast::Derived::Array(_))
                ) {
                quals.address_space.unwrap_or(AddressSpace::Private)
            } else {
                AddressSpace::Private
            };
            let (in_kernel, at_body) = self.current.as_ref().map_or((false, false), |f| {
                (f.is_kernel, self.scopes.len() == f.body_depth)
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
                    if init.init.is_some() {
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
            let (value, ty) = match (&init.init, space) {
                (Some(i), AddressSpace::Private | AddressSpace::Constant) => {
                    let (e, ty) = self.initializer(i, &ty, location);
                    (Some(e), ty)
                }
                _ => (None, ty),
            };
            // Opaque types (event_t, sampler_t) have no size but are values.
            let opaque = matches!(ty, Type::Unsupported(_));
            if ty.size(self.caps.address_bits).is_none() && !opaque && ty != Type::Void {
                self.error(
                    location,
                    format!("variable has incomplete type '{}'", ty.display()),
                );
            }
            let is_const = match init.declarator.derived.first() {
                None | Some(ast::Derived::Array(_)) => quals.is_const,
                Some(ast::Derived::Pointer(q)) => q.is_const,
                Some(ast::Derived::Function { .. }) => false,
            };
            let id = self.add_local(hir::Local {
                name: name.clone(),
                ty,
                space,
                is_const,
                location,
            });
            if let Some(v) = value {
                out.push(Stmt::Init(id, v));
            }
        }
    }

    // ---- expressions ----

    fn int_const(&self, value: u64, ty: Type, location: Location) -> Expr {
        Expr::new(H::Int(value), ty, location)
    }

    /// A condition: any scalar or pointer (compared with zero when lowered).
    /// A condition of the statement at `at`: any scalar or pointer
    /// (compared with zero when lowered).
    fn condition(&mut self, e: &ast::Expr, at: Location) -> Expr {
        let e = self.rvalue(e);
        if !matches!(e.ty, Type::Scalar(_) | Type::Pointer(_)) && !is_error(&e.ty) {
            self.error(
                at,
                format!(
                    "statement requires expression of scalar type ('{}' invalid)",
                    e.ty.display()
                ),
            );
        }
        e
    }

    /// An expression as a value: arrays decay to pointers.
    fn rvalue(&mut self, e: &ast::Expr) -> Expr {
        let v = self.expr(e);
        self.decay(v)
    }

    fn decay(&mut self, v: Expr) -> Expr {
        if let Type::Array(elem, _) = &v.ty {
            let space = self.place_space(&v);
            let is_const = self.is_read_only(&v);
            let ty = Type::Pointer(Rc::new(Pointee {
                ty: (**elem).clone(),
                is_const,
                is_volatile: false,
                space,
                endian_host: false,
            }));
            let location = v.location;
            return Expr::new(H::Decay(Box::new(v)), ty, location);
        }
        v
    }

    /// Converts `v` to `to` as assignment does (C99 6.5.16.1), reporting
    /// what is not allowed in the words and at the place `how` says.
    fn convert_for_assignment(&mut self, v: Expr, to: &Type, how: Conversion) -> Expr {
        let v = self.decay(v);
        if v.ty == *to || is_error(&v.ty) || is_error(to) {
            return v;
        }
        let (from_text, to_text) = (v.ty.display(), to.display());
        match (&v.ty, to) {
            (Type::Scalar(_), Type::Scalar(_)) => self.convert(v, to.clone()),
            (Type::Scalar(_), Type::Vector(s, _)) => {
                let v = self.convert(v, Type::Scalar(*s));
                let location = v.location;
                Expr::new(H::Splat(Box::new(v)), to.clone(), location)
            }
            (Type::Scalar(s), Type::Pointer(_))
                if s.is_integer() && matches!(v.kind, H::Int(0)) =>
            {
                // A null pointer constant.
                let location = v.location;
                Expr::new(H::Int(0), to.clone(), location)
            }
            (Type::Pointer(a), Type::Pointer(b)) => {
                if a.endian_host != b.endian_host {
                    self.error(
                        how.location(),
                        "assigning between pointers with different endian attributes",
                    );
                } else if a.space != b.space && b.space != AddressSpace::Generic {
                    let what = how.describe(&from_text, &to_text, "of type");
                    self.error(
                        how.location(),
                        format!("{what} changes address space of pointer"),
                    );
                } else if a.ty != b.ty && b.ty != Type::Void && a.ty != Type::Void {
                    let what = how.describe(&from_text, &to_text, "of type");
                    self.diags.warning(
                        how.location(),
                        format!("incompatible pointer types {}", lowercase_first(&what)),
                    );
                }
                let location = v.location;
                Expr::new(v.kind, to.clone(), location)
            }
            _ => {
                let what = how.describe(&from_text, &to_text, "of incompatible type");
                self.error(how.location(), what);
                v
            }
        }
    }

    fn convert(&mut self, v: Expr, to: Type) -> Expr {
        if v.ty == to || is_error(&v.ty) {
            return v;
        }
        let location = v.location;
        // Fold constants so literals keep their precise value.
        match (&v.kind, &to) {
            (H::Int(bits), Type::Scalar(s)) if s.is_integer() => {
                let value = literal::sign_extend(*bits, v.ty.scalar().unwrap_or(Scalar::Long));
                return self.int_const(literal::wrap(value, *s), to, location);
            }
            (H::Int(bits), Type::Scalar(s)) if s.is_float() => {
                let from = v.ty.scalar().unwrap_or(Scalar::Long);
                let value = if from.is_signed() {
                    literal::sign_extend(*bits, from) as f64
                } else {
                    *bits as f64
                };
                return Expr::new(H::Float(value), to, location);
            }
            (H::Float(f), Type::Scalar(s)) if s.is_float() => {
                let value = if *s == Scalar::Float {
                    *f as f32 as f64
                } else {
                    *f
                };
                return Expr::new(H::Float(value), to, location);
            }
            _ => {}
        }
        Expr::new(H::Convert(Box::new(v)), to, location)
    }

    /// Converts two operands to their common type (scalars: usual arithmetic
    /// conversions; a scalar with a vector: widened to it).
    fn arithmetic_operands(
        &mut self,
        a: Expr,
        b: Expr,
        op_location: Location,
        op: &str,
    ) -> (Expr, Expr, Type) {
        let common = match (&a.ty, &b.ty) {
            (Type::Scalar(x), Type::Scalar(y)) => Type::Scalar(common_scalar(*x, *y)),
            (Type::Vector(..), Type::Scalar(_)) => a.ty.clone(),
            (Type::Scalar(_), Type::Vector(..)) => b.ty.clone(),
            (Type::Vector(..), Type::Vector(..)) if a.ty == b.ty => a.ty.clone(),
            (Type::Vector(..), Type::Vector(..)) => {
                self.error(
                    op_location,
                    format!(
                        "implicit conversions between vector types ('{}' and '{}') are not permitted",
                        a.ty.display(),
                        b.ty.display()
                    ),
                );
                return (a, b, error_type());
            }
            (x, y) if is_error(x) || is_error(y) => return (a, b, error_type()),
            _ => {
                self.invalid_operands(op_location, &a.ty, op, &b.ty);
                return (a, b, error_type());
            }
        };
        let a = self.widen(a, &common);
        let b = self.widen(b, &common);
        (a, b, common)
    }

    fn widen(&mut self, v: Expr, to: &Type) -> Expr {
        match (&v.ty, to) {
            (Type::Scalar(_), Type::Vector(s, _)) => {
                let v = self.convert(v, Type::Scalar(*s));
                let location = v.location;
                Expr::new(H::Splat(Box::new(v)), to.clone(), location)
            }
            _ => self.convert(v, to.clone()),
        }
    }

    fn comparison_type(ty: &Type) -> Type {
        match ty {
            Type::Vector(s, n) => Type::Vector(s.to_signed_int(), *n),
            _ => Type::INT,
        }
    }

    fn expr(&mut self, e: &ast::Expr) -> Expr {
        let location = e.location;
        match &e.kind {
            A::IntLiteral(text) => match literal::parse_int(text) {
                Ok((value, s)) => self.int_const(value, Type::Scalar(s), location),
                Err(msg) => {
                    self.literal_error(location, msg);
                    self.int_const(0, Type::INT, location)
                }
            },
            A::FloatLiteral(text) => {
                match literal::parse_float(text, self.caps.float64) {
                    Ok((value, s)) => {
                        if s == Scalar::Half {
                            self.error(location, "half literals need cl_khr_fp16, which this device does not support");
                        }
                        Expr::new(H::Float(value), Type::Scalar(s), location)
                    }
                    Err(msg) => {
                        self.literal_error(location, msg);
                        Expr::new(H::Float(0.0), Type::FLOAT, location)
                    }
                }
            }
            A::CharLiteral(text) => match literal::parse_char(text) {
                Ok(v) => self.int_const(v as u32 as u64, Type::INT, location),
                Err(msg) => {
                    self.literal_error(location, msg);
                    self.int_const(0, Type::INT, location)
                }
            },
            A::StringLiteral(text) => match literal::parse_string(text) {
                Ok(bytes) => {
                    let ty =
                        Type::Array(Rc::new(Type::Scalar(Scalar::Char)), bytes.len() as u64 + 1);
                    Expr::new(H::Str(bytes), ty, location)
                }
                Err(msg) => {
                    self.literal_error(location, msg);
                    Expr::new(H::Int(0), error_type(), location)
                }
            },
            A::Ident(name) => match self.lookup(name).cloned() {
                Some(Symbol::Local(id)) => {
                    let ty = self
                        .current
                        .as_ref()
                        .map_or(error_type(), |f| f.locals[id].ty.clone());
                    Expr::new(H::Local(id), ty, location)
                }
                Some(Symbol::EnumConstant(v)) => {
                    self.int_const(v as u32 as u64, Type::INT, location)
                }
                Some(Symbol::Global(id)) => {
                    let ty = self.program.globals[id].ty.clone();
                    Expr::new(H::Global(id), ty, location)
                }
                Some(Symbol::Function(_)) => {
                    self.error(location, "function designators are only allowed in calls");
                    Expr::new(H::Int(0), error_type(), location)
                }
                Some(Symbol::Typedef(..)) => {
                    self.error(
                        location,
                        format!("unexpected type name '{name}': expected expression"),
                    );
                    Expr::new(H::Int(0), error_type(), location)
                }
                // Tags live under keys no identifier spells.
                None | Some(Symbol::Tag(_)) => {
                    self.error(location, format!("use of undeclared identifier '{name}'"));
                    Expr::new(H::Int(0), error_type(), location)
                }
            },
            A::Unary(op, x) => self.unary(*op, x, location),
            A::Binary(op, a, b) => {
                let a = self.rvalue(a);
                let b = self.rvalue(b);
                self.binary(*op, a, b, location)
            }
            A::Assign(op, target, value) => {
                let target = self.expr(target);
                self.require_modifiable(&target, location);
                let value = self.rvalue(value);
                match op {
                    None => {
                        let ty = target.ty.clone();
                        let value =
                            self.convert_for_assignment(value, &ty, Conversion::Assign(location));
                        Expr::new(H::Assign(Box::new(target), Box::new(value)), ty, location)
                    }
                    Some(op) => self.compound_assign(*op, target, value, location),
                }
            }
            A::Conditional(c, a, b) => {
                let c = self.condition(c, location);
                let a = self.rvalue(a);
                let b = self.rvalue(b);
                let (a, b, ty) = if a.ty.is_arithmetic() && b.ty.is_arithmetic() {
                    self.arithmetic_operands(a, b, location, ":")
                } else if a.ty == b.ty || is_error(&a.ty) {
                    let ty = b.ty.clone();
                    (a, b, ty)
                } else {
                    self.error(
                        location,
                        format!(
                            "incompatible operand types ('{}' and '{}')",
                            a.ty.display(),
                            b.ty.display()
                        ),
                    );
                    (a, b, error_type())
                };
                Expr::new(
                    H::Conditional(Box::new(c), Box::new(a), Box::new(b)),
                    ty,
                    location,
                )
            }
            A::Comma(a, b) => {
                let a = self.expr(a);
                let b = self.rvalue(b);
                let ty = b.ty.clone();
                Expr::new(H::Comma(Box::new(a), Box::new(b)), ty, location)
            }
            A::Call(callee, args, rparen) => self.call(callee, args, location, *rparen),
            A::Index(base, index) => {
                let base = self.expr(base);
                let index = self.rvalue(index);
                self.index(base, index, location)
            }
            A::Member {
                base,
                name,
                name_location,
                arrow,
            } => {
                let base = if *arrow {
                    let p = self.rvalue(base);
                    self.deref(p, location)
                } else {
                    self.expr(base)
                };
                self.member(base, name, location, *name_location)
            }
            A::Cast(t, x) => {
                let to = self.type_name(t);
                let v = self.rvalue(x);
                self.cast(v, to, location)
            }
            A::VectorLiteral(t, parts, parts_location) => {
                let to = self.type_name(t);
                self.vector_literal(to, parts, location, *parts_location)
            }
            A::CompoundLiteral(..) => {
                self.error(
                    location,
                    "compound literals are not supported yet by this translator",
                );
                Expr::new(H::Int(0), error_type(), location)
            }
            A::SizeofExpr(x) => {
                let v = self.expr(x);
                self.size_of(&v.ty, location)
            }
            A::SizeofType(t) => {
                let ty = self.type_name(t);
                self.size_of(&ty, location)
            }
            A::AlignofType(t) => {
                let ty = self.type_name(t);
                let a = ty.align(self.caps.address_bits).unwrap_or(1);
                self.int_const(a, Type::Scalar(self.size_type(false)), location)
            }
            A::VecStepExpr(x) => {
                let v = self.expr(x);
                self.vec_step(&v.ty, location)
            }
            A::VecStepType(t) => {
                let ty = self.type_name(t);
                self.vec_step(&ty, location)
            }
        }
    }

    /// Reports a malformed literal at the offending character.
    fn literal_error(&mut self, location: Location, e: literal::LiteralError) {
        let mut at = location;
        at.offset += e.offset;
        self.error(at, e.message);
    }

    fn size_of(&mut self, ty: &Type, location: Location) -> Expr {
        let size = match ty.size(self.caps.address_bits) {
            Some(s) => s,
            None => {
                if !is_error(ty) {
                    self.error(
                        location,
                        format!(
                            "invalid application of 'sizeof' to an incomplete type '{}'",
                            ty.display()
                        ),
                    );
                }
                1
            }
        };
        self.int_const(size, Type::Scalar(self.size_type(false)), location)
    }

    fn vec_step(&mut self, ty: &Type, location: Location) -> Expr {
        let n = match ty {
            Type::Scalar(_) => 1,
            Type::Vector(_, n) => u64::from(types::storage_lanes(*n)),
            _ => {
                self.error(location, "vec_step requires a scalar or vector type");
                1
            }
        };
        self.int_const(n, Type::INT, location)
    }

    fn require_modifiable(&mut self, target: &Expr, location: Location) {
        if is_error(&target.ty) {
            return;
        }
        let is_place = |e: &Expr| {
            matches!(
                e.kind,
                H::Local(_) | H::Global(_) | H::Index(..) | H::Deref(_) | H::Member(..)
            )
        };
        let ok = match &target.kind {
            H::Swizzle(base, lanes) => {
                let mut seen = 0u32;
                let unique = lanes.iter().all(|&l| {
                    let fresh = seen & (1 << l) == 0;
                    seen |= 1 << l;
                    fresh
                });
                if !unique {
                    self.error(
                        location,
                        "vector is not assignable (contains duplicate components)",
                    );
                    return;
                }
                is_place(base)
            }
            _ => is_place(target),
        };
        if !ok {
            self.error(location, "expression is not assignable");
            return;
        }
        if let Type::Array(..) = target.ty {
            self.error(
                location,
                format!("array type '{}' is not assignable", target.ty.display()),
            );
            return;
        }
        // A const variable is named; anything reached through a pointer or
        // in the constant space is "read-only" (clang's wording).
        let const_variable = match &target.kind {
            H::Local(id) => self
                .current
                .as_ref()
                .map(|f| &f.locals[*id])
                .filter(|l| l.is_const && l.space != AddressSpace::Constant)
                .map(|l| (l.name.clone(), l.ty.display())),
            _ => None,
        };
        if let Some((name, ty)) = const_variable {
            self.error(
                location,
                format!(
                    "cannot assign to variable '{name}' with const-qualified type 'const {ty}'"
                ),
            );
        } else if self.is_read_only(target) {
            self.error(location, "read-only variable is not assignable");
        }
    }

    /// The address space a place is in: where `&place` points.
    fn place_space(&self, place: &Expr) -> AddressSpace {
        match &place.kind {
            H::Local(id) => self
                .current
                .as_ref()
                .map_or(AddressSpace::Private, |f| f.locals[*id].space),
            H::Global(id) => self.program.globals[*id].space,
            H::Index(base, _) if matches!(base.ty, Type::Array(..)) => self.place_space(base),
            H::Index(base, _) | H::Deref(base) => {
                base.ty.pointee().map_or(AddressSpace::Private, |p| p.space)
            }
            H::Member(base, _) | H::Swizzle(base, _) => self.place_space(base),
            // A string literal is a `__constant char` array.
            H::Str(_) => AddressSpace::Constant,
            _ => AddressSpace::Private,
        }
    }

    /// Is a place `const` or in the constant address space, through any of
    /// the variables, members, elements and pointers it is reached by?
    fn is_read_only(&self, place: &Expr) -> bool {
        match &place.kind {
            H::Local(id) => self.current.as_ref().is_some_and(|f| {
                let l = &f.locals[*id];
                l.is_const || l.space == AddressSpace::Constant
            }),
            H::Global(id) => self.program.globals[*id].space == AddressSpace::Constant,
            H::Str(_) => true,
            H::Index(base, _) if matches!(base.ty, Type::Array(..)) => self.is_read_only(base),
            H::Index(base, _) | H::Deref(base) => base
                .ty
                .pointee()
                .is_some_and(|p| p.is_const || p.space == AddressSpace::Constant),
            H::Member(base, _) | H::Swizzle(base, _) => self.is_read_only(base),
            _ => false,
        }
    }

    fn unary(&mut self, op: ast::UnaryOp, x: &ast::Expr, location: Location) -> Expr {
        use ast::UnaryOp as U;
        match op {
            U::PreInc | U::PreDec | U::PostInc | U::PostDec => {
                let target = self.expr(x);
                self.require_modifiable(&target, location);
                if !target.ty.is_arithmetic()
                    && !matches!(target.ty, Type::Pointer(_))
                    && !is_error(&target.ty)
                {
                    self.error(
                        location,
                        format!("cannot increment value of type '{}'", target.ty.display()),
                    );
                }
                let ty = target.ty.clone();
                Expr::new(
                    H::IncDec {
                        target: Box::new(target),
                        increment: matches!(op, U::PreInc | U::PostInc),
                        prefix: matches!(op, U::PreInc | U::PreDec),
                    },
                    ty,
                    location,
                )
            }
            U::Deref => {
                let p = self.rvalue(x);
                self.deref(p, location)
            }
            U::AddressOf => {
                let v = self.expr(x);
                if let H::Swizzle(..) = v.kind {
                    self.error(location, "address of vector element requested");
                } else if !matches!(
                    v.kind,
                    H::Local(_) | H::Global(_) | H::Index(..) | H::Deref(_) | H::Member(..)
                ) {
                    self.error(location, "cannot take the address of an rvalue");
                }
                let space = self.place_space(&v);
                let is_const = self.is_read_only(&v);
                let ty = Type::Pointer(Rc::new(Pointee {
                    ty: v.ty.clone(),
                    is_const,
                    is_volatile: false,
                    space,
                    endian_host: false,
                }));
                Expr::new(H::AddressOf(Box::new(v)), ty, location)
            }
            U::Plus | U::Minus | U::BitNot => {
                let v = self.rvalue(x);
                let ok = match op {
                    U::BitNot => v.ty.is_integer(),
                    _ => v.ty.is_arithmetic(),
                };
                if !ok {
                    if !is_error(&v.ty) {
                        self.error(
                            location,
                            format!(
                                "invalid argument type '{}' to unary expression",
                                v.ty.display()
                            ),
                        );
                    }
                    return v;
                }
                let ty = match &v.ty {
                    Type::Scalar(s) => Type::Scalar(promote(*s)),
                    t => t.clone(),
                };
                let v = self.convert(v, ty.clone());
                match op {
                    U::Plus => v,
                    U::Minus => {
                        self.fold_or(H::Unary(hir::UnaryOp::Negate, Box::new(v)), ty, location)
                    }
                    _ => self.fold_or(H::Unary(hir::UnaryOp::BitNot, Box::new(v)), ty, location),
                }
            }
            U::Not => {
                let v = self.rvalue(x);
                if !matches!(v.ty, Type::Scalar(_) | Type::Vector(..) | Type::Pointer(_))
                    && !is_error(&v.ty)
                {
                    self.error(
                        location,
                        format!(
                            "invalid argument type '{}' to unary expression",
                            v.ty.display()
                        ),
                    );
                }
                let ty = Self::comparison_type(&v.ty);
                Expr::new(
                    H::Unary(hir::UnaryOp::LogicalNot, Box::new(v)),
                    ty,
                    location,
                )
            }
        }
    }

    /// Folds negation and complement of integer constants (so `-1` is a
    /// literal); otherwise builds the node.
    fn fold_or(&mut self, kind: H, ty: Type, location: Location) -> Expr {
        if let H::Unary(op, v) = &kind {
            if let (H::Int(bits), Some(s)) = (&v.kind, ty.scalar()) {
                let value = literal::sign_extend(*bits, s);
                let folded = match op {
                    hir::UnaryOp::Negate => value.wrapping_neg(),
                    _ => !value,
                };
                return self.int_const(literal::wrap(folded, s), ty, location);
            }
            if let (H::Float(f), hir::UnaryOp::Negate) = (&v.kind, op) {
                return Expr::new(H::Float(-f), ty, location);
            }
        }
        Expr::new(kind, ty, location)
    }

    fn binary(&mut self, op: BinaryOp, a: Expr, b: Expr, location: Location) -> Expr {
        use BinaryOp::*;
        if is_error(&a.ty) || is_error(&b.ty) {
            return Expr::new(H::Int(0), error_type(), location);
        }
        match op {
            LogicalAnd | LogicalOr => {
                for v in [&a, &b] {
                    if !matches!(v.ty, Type::Scalar(_) | Type::Pointer(_)) {
                        self.error(v.location, "vector operands of '&&' and '||' are not supported yet by this translator");
                    }
                }
                return Expr::new(
                    H::Logical(op, Box::new(a), Box::new(b)),
                    Type::INT,
                    location,
                );
            }
            Add | Sub if matches!(a.ty, Type::Pointer(_)) && b.ty.is_integer() => {
                let b = if op == Sub {
                    let ty = b.ty.clone();
                    self.fold_or(H::Unary(hir::UnaryOp::Negate, Box::new(b)), ty, location)
                } else {
                    b
                };
                let ty = a.ty.clone();
                return Expr::new(H::PointerOffset(Box::new(a), Box::new(b)), ty, location);
            }
            Add if a.ty.is_integer() && matches!(b.ty, Type::Pointer(_)) => {
                let ty = b.ty.clone();
                return Expr::new(H::PointerOffset(Box::new(b), Box::new(a)), ty, location);
            }
            _ => {}
        }
        if matches!(a.ty, Type::Pointer(_)) || matches!(b.ty, Type::Pointer(_)) {
            return self.pointer_binary(op, a, b, location);
        }
        if matches!(op, Shl | Shr) {
            // The result has the promoted left operand's type; the right
            // operand is converted to it (OpenCL C 6.3.j).
            if !a.ty.is_integer() || !b.ty.is_integer() {
                return self.invalid_operands(location, &a.ty, op.spelling(), &b.ty);
            }
            let ty = match &a.ty {
                Type::Scalar(s) => Type::Scalar(promote(*s)),
                t => t.clone(),
            };
            let a = self.convert(a, ty.clone());
            let b = match (&ty, &b.ty) {
                (Type::Vector(s, _), Type::Scalar(_)) => self.widen(b, &Type::Scalar(*s)),
                _ => b,
            };
            let b = self.widen(b, &ty);
            return Expr::new(H::Binary(op, Box::new(a), Box::new(b)), ty, location);
        }
        if matches!(op, Rem | BitAnd | BitOr | BitXor) && !(a.ty.is_integer() && b.ty.is_integer())
        {
            return self.invalid_operands(location, &a.ty, op.spelling(), &b.ty);
        }
        let (a, b, ty) = self.arithmetic_operands(a, b, location, op.spelling());
        if is_error(&ty) {
            return Expr::new(H::Int(0), ty, location);
        }
        let result = if op.is_comparison() {
            Self::comparison_type(&ty)
        } else {
            ty
        };
        Expr::new(H::Binary(op, Box::new(a), Box::new(b)), result, location)
    }

    /// Comparisons and differences of pointers (C99 6.5.6, 6.5.8, 6.5.9):
    /// both into the same address space, or a pointer and a null constant.
    fn pointer_binary(&mut self, op: BinaryOp, a: Expr, b: Expr, location: Location) -> Expr {
        let is_null = |e: &Expr| matches!(e.kind, H::Int(0));
        let (pa, pb) = (a.ty.pointee().cloned(), b.ty.pointee().cloned());
        let compatible = match (&pa, &pb) {
            _ if is_null(&a) || is_null(&b) => true,
            (Some(x), Some(y)) => {
                x.space == y.space
                    || x.space == AddressSpace::Generic
                    || y.space == AddressSpace::Generic
            }
            (Some(_), None) => is_null(&b),
            (None, Some(_)) => is_null(&a),
            (None, None) => false,
        };
        let ty = match op {
            _ if !compatible => None,
            _ if op.is_comparison() => Some(Type::INT),
            BinaryOp::Sub if pa.is_some() && pb.is_some() => {
                if pa.as_ref().map(|p| &p.ty) != pb.as_ref().map(|p| &p.ty) {
                    None
                } else {
                    Some(Type::Scalar(self.size_type(true)))
                }
            }
            _ => None,
        };
        match ty {
            Some(ty) => Expr::new(H::Binary(op, Box::new(a), Box::new(b)), ty, location),
            None => self.invalid_operands(location, &a.ty, op.spelling(), &b.ty),
        }
    }

    /// Reports operands an operator does not take; the result is an
    /// error placeholder.
    fn invalid_operands(&mut self, location: Location, a: &Type, op: &str, b: &Type) -> Expr {
        self.error(
            location,
            format!(
                "invalid operands to binary expression ('{}' {op} '{}')",
                a.display(),
                b.display()
            ),
        );
        Expr::new(H::Int(0), error_type(), location)
    }

    fn compound_assign(
        &mut self,
        op: BinaryOp,
        target: Expr,
        value: Expr,
        location: Location,
    ) -> Expr {
        let ty = target.ty.clone();
        if matches!(ty, Type::Pointer(_))
            && matches!(op, BinaryOp::Add | BinaryOp::Sub)
            && value.ty.is_integer()
        {
            // p += n is p = p + n.
            let read = target.clone();
            let sum = self.binary(op, read, value, location);
            return Expr::new(H::Assign(Box::new(target), Box::new(sum)), ty, location);
        }
        // Type-check `target op value` to find the operation type.
        let probe = self.binary(op, target.clone(), value, location);
        if is_error(&probe.ty) {
            return probe;
        }
        let H::Binary(_, _, value) = probe.kind else {
            return probe;
        };
        let op_ty = probe.ty.clone();
        Expr::new(
            H::CompoundAssign {
                op,
                target: Box::new(target),
                value,
                op_ty,
            },
            ty,
            location,
        )
    }

    fn deref(&mut self, p: Expr, location: Location) -> Expr {
        match &p.ty {
            Type::Pointer(pointee) => {
                if pointee.ty == Type::Void {
                    self.error(location, "dereferencing a 'void *' pointer");
                }
                let ty = pointee.ty.clone();
                Expr::new(H::Deref(Box::new(p)), ty, location)
            }
            t if is_error(t) => p,
            t => {
                self.error(
                    location,
                    format!(
                        "indirection requires pointer operand ('{}' invalid)",
                        t.display()
                    ),
                );
                Expr::new(H::Int(0), error_type(), location)
            }
        }
    }

    fn index(&mut self, base: Expr, index: Expr, location: Location) -> Expr {
        if !index.ty.is_integer() || !matches!(index.ty, Type::Scalar(_)) {
            if !is_error(&index.ty) {
                self.error(index.location, "array subscript is not an integer");
            }
            return Expr::new(H::Int(0), error_type(), location);
        }
        let elem = match &base.ty {
            Type::Array(elem, _) => (**elem).clone(),
            Type::Pointer(p) => p.ty.clone(),
            Type::Vector(..) => {
                self.error(
                    location,
                    "subscripting a vector is not supported yet by this translator",
                );
                return Expr::new(H::Int(0), error_type(), location);
            }
            t if is_error(t) => return base,
            t => {
                self.error(
                    location,
                    format!(
                        "subscripted value is not an array, pointer, or vector ('{}')",
                        t.display()
                    ),
                );
                return Expr::new(H::Int(0), error_type(), location);
            }
        };
        Expr::new(H::Index(Box::new(base), Box::new(index)), elem, location)
    }

    fn member(
        &mut self,
        base: Expr,
        name: &str,
        location: Location,
        name_location: Location,
    ) -> Expr {
        match &base.ty {
            Type::Vector(s, n) => match parse_swizzle(name, *s, *n, self.cl_std) {
                Ok(lanes) => {
                    let ty = if lanes.len() == 1 {
                        Type::Scalar(*s)
                    } else {
                        Type::Vector(*s, lanes.len() as u8)
                    };
                    Expr::new(H::Swizzle(Box::new(base), lanes), ty, location)
                }
                Err(msg) => {
                    self.error(location, msg);
                    Expr::new(H::Int(0), error_type(), location)
                }
            },
            Type::Record(r) => match self
                .complete_record(r)
                .fields
                .iter()
                .position(|f| &*f.name == name)
            {
                Some(i) => {
                    let ty = self.complete_record(r).fields[i].ty.clone();
                    Expr::new(H::Member(Box::new(base), i), ty, location)
                }
                None => {
                    self.error(
                        name_location,
                        format!("no member named '{name}' in '{}'", base.ty.display()),
                    );
                    Expr::new(H::Int(0), error_type(), location)
                }
            },
            t if is_error(t) => base,
            t => {
                self.error(
                    location,
                    format!(
                        "member reference base type '{}' is not a structure or union",
                        t.display()
                    ),
                );
                Expr::new(H::Int(0), error_type(), location)
            }
        }
    }

    fn cast(&mut self, v: Expr, to: Type, location: Location) -> Expr {
        if is_error(&v.ty) || is_error(&to) {
            return v;
        }
        match (&v.ty, &to) {
            (_, Type::Void) => Expr::new(v.kind, Type::Void, location),
            (Type::Scalar(_), Type::Scalar(_)) => {
                let mut e = self.convert(v, to);
                e.location = location;
                e
            }
            (Type::Scalar(_), Type::Vector(..)) => self.widen(v, &to),
            (Type::Vector(..), Type::Vector(..)) if v.ty == to => v,
            (Type::Vector(..), Type::Vector(..)) => {
                self.error(
                    location,
                    format!(
                        "invalid conversion between ext-vector type '{}' and '{}'",
                        v.ty.display(),
                        to.display()
                    ),
                );
                Expr::new(H::Int(0), error_type(), location)
            }
            (Type::Scalar(s), Type::Pointer(_)) if s.is_integer() => {
                if matches!(v.kind, H::Int(0)) {
                    Expr::new(H::Int(0), to, location)
                } else {
                    Expr::new(H::Convert(Box::new(v)), to, location)
                }
            }
            (Type::Pointer(_), Type::Scalar(s)) if s.is_integer() => {
                Expr::new(H::Convert(Box::new(v)), to, location)
            }
            (Type::Pointer(from), Type::Pointer(target)) => {
                // Named address spaces are disjoint; only generic converts
                // to and from them (OpenCL C 6.7.9).
                let spaces_ok = from.space == target.space
                    || from.space == AddressSpace::Generic
                    || target.space == AddressSpace::Generic;
                if !spaces_ok {
                    self.error(
                        location,
                        format!(
                            "casting '{}' to type '{}' changes address space of pointer",
                            v.ty.display(),
                            to.display()
                        ),
                    );
                }
                if from.ty == target.ty {
                    Expr::new(v.kind, to, location)
                } else {
                    Expr::new(H::PointerCast(Box::new(v)), to, location)
                }
            }
            _ => {
                self.error(
                    location,
                    format!(
                        "cannot cast from '{}' to '{}'",
                        v.ty.display(),
                        to.display()
                    ),
                );
                Expr::new(H::Int(0), error_type(), location)
            }
        }
    }

    fn vector_literal(
        &mut self,
        to: Type,
        parts: &[ast::Expr],
        location: Location,
        parts_location: Location,
    ) -> Expr {
        let Type::Vector(elem, n) = to else {
            // `(T)(a, b)` for a non-vector typedef is a cast of a comma
            // expression.
            let mut value = self.rvalue(&parts[0]);
            for p in &parts[1..] {
                let next = self.rvalue(p);
                let ty = next.ty.clone();
                value = Expr::new(H::Comma(Box::new(value), Box::new(next)), ty, location);
            }
            return self.cast(value, to, location);
        };
        let mut lanes = 0u32;
        let mut out = Vec::new();
        for p in parts {
            let v = self.rvalue(p);
            match v.ty.clone() {
                Type::Scalar(_) => {
                    lanes += 1;
                    out.push(self.convert(v, Type::Scalar(elem)));
                }
                Type::Vector(s, m) if s == elem => {
                    lanes += u32::from(m);
                    out.push(v);
                }
                t if is_error(&t) => return v,
                t => {
                    self.error(
                        v.location,
                        format!(
                            "invalid operand of type '{}' in a vector literal of '{}'",
                            t.display(),
                            to.display()
                        ),
                    );
                    return Expr::new(H::Int(0), error_type(), location);
                }
            }
        }
        if out.len() == 1 && lanes == 1 {
            let v = out.pop().expect("one part");
            return Expr::new(H::Splat(Box::new(v)), to, location);
        }
        if lanes != u32::from(n) {
            let which = if lanes < u32::from(n) { "few" } else { "many" };
            self.error(
                parts_location,
                format!("too {which} elements in vector initialization (expected {n} elements, have {lanes})"),
            );
            return Expr::new(H::Int(0), error_type(), location);
        }
        Expr::new(H::VectorLiteral(out), to, location)
    }

    fn call(
        &mut self,
        callee: &ast::Expr,
        args: &[ast::Expr],
        location: Location,
        rparen: Location,
    ) -> Expr {
        let A::Ident(name) = &callee.kind else {
            self.error(callee.location, "called object is not a function");
            return Expr::new(H::Int(0), error_type(), location);
        };
        let written = args;
        let args: Vec<Expr> = args.iter().map(|a| self.rvalue(a)).collect();
        if args.iter().any(|a| is_error(&a.ty)) {
            return Expr::new(H::Int(0), error_type(), location);
        }
        match self.lookup(name).cloned() {
            Some(Symbol::Function(id)) => {
                let f = &self.program.functions[id];
                let param_types = f.signature.clone();
                let ret = f.ret.clone();

                if param_types.len() != args.len() {
                    // Like clang: missing arguments at the `)`, extra ones at
                    // the first argument too many.
                    let (which, at) = if args.len() < param_types.len() {
                        ("few", rparen)
                    } else {
                        ("many", written[param_types.len()].begin())
                    };
                    self.error(
                        at,
                        format!(
                            "too {which} arguments to function call, expected {}, have {}",
                            param_types.len(),
                            args.len()
                        ),
                    );
                    return Expr::new(H::Int(0), error_type(), location);
                }
                let args = args
                    .into_iter()
                    .zip(&param_types)
                    .map(|(a, t)| {
                        let at = a.location;
                        self.convert_for_assignment(a, t, Conversion::Argument(at))
                    })
                    .collect();
                // Errors about the call as a whole (recursion) point at the
                // function's name.
                Expr::new(H::Call(id, args), ret, callee.location)
            }
            Some(_) => {
                let ty = self.expr(callee).ty.display();
                self.error(
                    location,
                    format!("called object type '{ty}' is not a function or function pointer"),
                );
                Expr::new(H::Int(0), error_type(), location)
            }
            None if &**name == "printf" => self.printf(args, location),
            None => {
                let types: Vec<Type> = args.iter().map(|a| a.ty.clone()).collect();
                let context = builtins::BuiltinContext {
                    size_type: self.size_type(false),
                    float64: self.caps.float64,
                    // The translator does not lower `half` yet.
                    float16: false,
                    cl_std: self.cl_std,
                };
                match builtins::resolve(name, &types, &context) {
                    Ok(r) => {
                        let args = args
                            .into_iter()
                            .zip(&r.params)
                            .map(|(a, t)| self.widen(a, t))
                            .collect();
                        Expr::new(H::Builtin(r.builtin, args), r.result, location)
                    }
                    Err(msg) => {
                        // Missing arguments are reported at the `)`.
                        let at = if msg.starts_with("too few arguments") {
                            rparen
                        } else {
                            callee.location
                        };
                        self.error(at, msg);
                        Expr::new(H::Int(0), error_type(), location)
                    }
                }
            }
        }
    }
}

impl Checker<'_> {
    /// `int printf(constant char *restrict format, ...)` (OpenCL C 6.15.14):
    /// the only variadic function, so it has no row in the built-in table.
    fn printf(&mut self, args: Vec<Expr>, location: Location) -> Expr {
        let format_ok = args.first().is_some_and(|f| {
            matches!(f.ty.pointee(), Some(p) if p.space == AddressSpace::Constant
                && matches!(p.ty, Type::Scalar(Scalar::Char)))
        });
        if !format_ok {
            self.error(
                location,
                "printf needs a string literal or a __constant char pointer as its format",
            );
        }
        if let Some(bad) = args
            .iter()
            .skip(1)
            .find(|a| !(a.ty.is_arithmetic() || matches!(a.ty, Type::Pointer(_))))
        {
            let (ty, at) = (bad.ty.display(), bad.location);
            self.error(at, format!("cannot pass a value of type '{ty}' to printf"));
        }
        Expr::new(H::Printf(args), Type::INT, location)
    }
}

/// Where an implicit conversion happens, which decides clang's wording
/// and where the caret goes.
#[derive(Clone, Copy, Debug)]
enum Conversion {
    /// `a = b`, at the `=`.
    Assign(Location),
    /// `T x = e`, at the declared name.
    Init(Location),
    /// `return e`, at `return`.
    Return(Location),
    /// A function argument, at the argument.
    Argument(Location),
}

impl Conversion {
    fn location(self) -> Location {
        match self {
            Conversion::Assign(l)
            | Conversion::Init(l)
            | Conversion::Return(l)
            | Conversion::Argument(l) => l,
        }
    }

    /// "assigning to 'T' from incompatible type 'F'" and its siblings;
    /// `relation` is "of incompatible type" or "of type".
    fn describe(self, from: &str, to: &str, relation: &str) -> String {
        match self {
            Conversion::Assign(_) => format!(
                "assigning to '{to}' from {} '{from}'",
                relation.trim_start_matches("of ")
            ),
            Conversion::Init(_) => {
                format!("initializing '{to}' with an expression {relation} '{from}'")
            }
            Conversion::Return(_) => format!(
                "returning '{from}' from a function with {} result type '{to}'",
                if relation.contains("incompatible") {
                    "incompatible"
                } else {
                    "a"
                }
            ),
            Conversion::Argument(_) => format!("passing '{from}' to parameter {relation} '{to}'"),
        }
    }
}

fn lowercase_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or_else(String::new, |f| f.to_lowercase().chain(c).collect())
}

/// The qualifiers a typedef name carries: an address space written with a
/// pointer typedef belongs to the pointee, not to variables of the type.
fn quals_of_typedef(quals: ast::Qualifiers, declarator: &ast::Declarator) -> ast::Qualifiers {
    let mut q = quals;
    if !declarator.derived.is_empty() {
        q.address_space = None;
    }
    q
}

/// The type of a parameter as written, for `CL_KERNEL_ARG_TYPE_NAME`:
/// the type specifier plus `*` per pointer level (qualifiers excluded).
fn type_as_written(p: &ast::ParamDecl) -> String {
    let base: String = match &p.specs.ty {
        ast::TypeSpec::Scalar(w) => {
            let mut parts = Vec::new();
            if w.unsigned {
                parts.push("u");
            }
            let name = if w.char_ {
                "char"
            } else if w.short {
                "short"
            } else if w.long > 0 {
                "long"
            } else if w.float {
                "float"
            } else if w.double {
                "double"
            } else if w.half {
                "half"
            } else if w.bool_ {
                "bool"
            } else if w.void {
                "void"
            } else {
                "int"
            };
            parts.push(name);
            parts.concat()
        }
        ast::TypeSpec::Builtin(n) | ast::TypeSpec::Typedef(n) => n.to_string(),
        ast::TypeSpec::Record(r) => r.tag.as_deref().unwrap_or("").to_string(),
        ast::TypeSpec::Enum(e) => e.tag.as_deref().unwrap_or("").to_string(),
        ast::TypeSpec::None => String::new(),
    };
    let stars = p
        .declarator
        .derived
        .iter()
        .filter(|d| matches!(d, ast::Derived::Pointer(_) | ast::Derived::Array(_)))
        .count();
    format!("{base}{}", "*".repeat(stars))
}

/// Lane indices of a swizzle (OpenCL C 6.3.7): `xyzw` (and `rgba` from 3.0),
/// `s0`..`sF`, `lo`/`hi`/`even`/`odd`.
fn parse_swizzle(name: &str, s: Scalar, n: u8, cl_std: (u32, u32)) -> Result<Vec<u8>, String> {
    let vector = Type::Vector(s, n).display();
    let bad = || format!("illegal vector component name '{name}'");
    let out_of_range = || format!("vector component access exceeds type '{vector}'");
    let half = |start: u8, step: u8| -> Vec<u8> {
        let len = types::storage_lanes(n) / 2;
        (0..len).map(|i| start + i * step).collect()
    };
    let lanes: Vec<u8> = match name {
        "lo" => half(0, 1),
        "hi" => half(types::storage_lanes(n) / 2, 1),
        "even" => half(0, 2),
        "odd" => half(1, 2),
        _ if name.starts_with(['s', 'S']) && name.len() > 1 => name[1..]
            .chars()
            .map(|c| c.to_digit(16).map(|d| d as u8))
            .collect::<Option<Vec<u8>>>()
            .ok_or_else(bad)?,
        _ => {
            let xyzw = name.chars().all(|c| "xyzw".contains(c));
            let rgba = name.chars().all(|c| "rgba".contains(c));
            if rgba && cl_std < (3, 0) {
                return Err(format!("vector component name '{name}' needs OpenCL C 3.0"));
            }
            if !xyzw && !rgba {
                return Err(bad());
            }
            name.chars()
                .map(|c| match c {
                    'x' | 'r' => 0,
                    'y' | 'g' => 1,
                    'z' | 'b' => 2,
                    _ => 3,
                })
                .collect()
        }
    };
    if lanes.is_empty() || !matches!(lanes.len(), 1 | 2 | 3 | 4 | 8 | 16) {
        return Err(bad());
    }
    // `.hi` of a 3-vector reads the undefined fourth lane: allowed.
    let limit = if matches!(name, "hi" | "odd") {
        types::storage_lanes(n)
    } else {
        n
    };
    if lanes.iter().any(|&l| l >= limit) {
        return Err(out_of_range());
    }
    Ok(lanes)
}
