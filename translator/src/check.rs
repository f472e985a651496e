//! Semantic checking: resolves names and types, applies C's and OpenCL's
//! conversion rules, enforces the kernel and address-space rules, and
//! produces the [`hir::Program`].
//!
//! Errors are reported and checking goes on with an error-typed placeholder,
//! so a build lists every problem it can find.

mod attributes;
mod constants;
mod constexpr;
mod constructors;
mod conversions;
mod copies;
mod declarations;
mod default_arguments;
mod destructors;
mod expressions;
mod inheritance;
mod init;
mod lambdas;
mod loop_hints;
mod member_templates;
mod member_types;
mod methods;
mod named_return;
mod operators;
mod overloads;
mod packs;
mod placement_new;
mod range_for;
mod records;
mod references;
mod samplers;
mod scopes;
mod specializations;
mod statements;
mod static_members;
mod templates;
mod temporaries;
mod tree;
mod type_specs;

use crate::ast::{self, AddressSpace, BinaryOp, ExprKind as A, Name};
use crate::builtins::{self, common_scalar, promote};
use crate::caps::DeviceCaps;
use crate::diagnostic::{Diagnostics, Location, Span};
use crate::hir::{self, ExprId, ExprKind as H, FunctionId, LocalId, StmtId, StmtKind};
use crate::lexer::{Interner, Spellings};
use crate::literal;
use crate::options::BuildOptions;
use crate::reflect::AddressQualifier;
use crate::types::{self, BuiltinName, Pointee, Scalar, Type};
use naga::Arena;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use tree::Expr;

/// Checks `unit`, whose names `interner` spells; the result is only
/// meaningful when `diags` has no errors.
pub fn check(
    unit: &ast::TranslationUnit,
    interner: &Interner,
    options: &BuildOptions,
    caps: &DeviceCaps,
    diags: &mut Diagnostics,
) -> hir::Program {
    let mut checker = UnitChecker::new(options, caps, diags);
    checker.set_spellings(&Rc::new(interner.spellings().clone()));
    for item in &unit.items {
        checker.item(item);
    }
    checker.finish()
}

/// Checks a translation unit one external declaration at a time, in order,
/// so that each can be checked as soon as it is parsed.
pub(crate) struct UnitChecker<'a>(Checker<'a>);

impl<'a> UnitChecker<'a> {
    pub(crate) fn new(
        options: &BuildOptions,
        caps: &'a DeviceCaps,
        diags: &'a mut Diagnostics,
    ) -> Self {
        UnitChecker(Checker {
            diags,
            caps,
            cl_std: options.effective_cl_std().version(),
            cxx: options.cxx.is_some(),
            linking: options.linking,
            single_precision_constants: options.single_precision_constant,
            program: hir::Program::new(caps.address_bits),
            names: Rc::default(),
            symbols: Vec::new(),
            predefined: RefCell::new(Vec::new()),
            scopes: scopes::Scopes::new(),
            current: None,
            global_constants: HashMap::new(),
            reference_params: HashMap::new(),
            rvalue_params: HashMap::new(),
            default_args: HashMap::new(),
            overloads: HashMap::new(),
            reference_returns: Default::default(),
            function_templates: HashMap::new(),
            member_templates: HashMap::new(),
            constexpr_functions: Default::default(),
            mutable_fields: Default::default(),
            instances: HashMap::new(),
            pending_instances: Vec::new(),
            unscheduled_instances: HashMap::new(),
            template_visible_functions: HashMap::new(),
            visible_functions: None,
            class_templates: HashMap::new(),
            class_instances: HashMap::new(),
            packs: packs::PackTable::default(),
            member_defaults: HashMap::new(),
            instance_bindings: HashMap::new(),
            instantiation_depth: 0,
            enum_params: HashMap::new(),
            implicit_constructors: HashSet::new(),
            instantiating_class: None,
            instance_of: HashMap::new(),
            methods: HashMap::new(),
            class_members: HashMap::new(),
            static_methods: Default::default(),
            enumerators: HashMap::new(),
            bases: HashMap::new(),
            static_members: HashMap::new(),
            member_types: HashMap::new(),
            destructors: HashMap::new(),
            user_copies: Default::default(),
            class_specializations: HashMap::new(),
            alias_templates: HashMap::new(),
            local_floor: 0,
            hidden_params: Vec::new(),
            closure_references: HashMap::new(),
            closures: HashMap::new(),
            generic_closures: HashMap::new(),
            closure_classes: Default::default(),
            deduce_next_return: false,
            undeduced_returns: HashSet::new(),
            class_names: HashMap::new(),
            calls: Vec::new(),
            builtin_cache: HashMap::default(),
            aligned_globals: HashMap::new(),
            loop_depth: 0,
            break_depth: 0,
            expr_depth: 0,
            fp_contract: true,
            mad_enable: options.mad_enable,
            literal_objects: false,
            loop_hint: hir::UnrollHint::Unspecified,
        })
    }

    /// Spells the names of the declarations checked next with
    /// `spellings`.
    pub(crate) fn set_spellings(&mut self, spellings: &Rc<Spellings>) {
        if !Rc::ptr_eq(&self.0.names, spellings) {
            self.0.symbols.clear();
        }
        self.0.names = Rc::clone(spellings);
    }

    /// Checks the next external declaration.
    pub(crate) fn item(&mut self, item: &ast::ExternalDecl) {
        match item {
            ast::ExternalDecl::Function(f) => self.0.function_definition(f),
            ast::ExternalDecl::Declaration(d) => self.0.global_declaration(d),
            ast::ExternalDecl::Pragma(p) => self.0.pragma(*p),
            ast::ExternalDecl::StaticAssert(a) => self.0.static_assert(a),
            ast::ExternalDecl::FunctionTemplate(t) => self.0.function_template(t),
            ast::ExternalDecl::ClassTemplate(t) => self.0.class_template(t),
            ast::ExternalDecl::AliasTemplate(t) => self.0.alias_template(t),
        }
        self.0.check_pending_instances();
    }

    /// How many errors checking has reported so far.
    pub(crate) fn error_count(&self) -> usize {
        self.0.diags.error_count()
    }

    /// The checked program, after the unit-wide checks.
    pub(crate) fn finish(self) -> hir::Program {
        let checker = self.0;
        reject_recursion(
            &checker.program,
            &checker.calls,
            &checker.constexpr_functions,
            checker.diags,
        );
        checker.program
    }
}

/// The user functions each defined function calls, with the call's
/// location; by function index.
type CallGraph = Vec<Vec<(FunctionId, Location)>>;

/// OpenCL C has no recursion (6.9.m): reports each call that closes a cycle
/// of calls, at the call. C++'s `constexpr` functions may recurse where
/// only constant expressions call them (`check/constexpr.rs`), so the
/// search starts from the others.
fn reject_recursion(
    program: &hir::Program,
    calls: &CallGraph,
    constexpr_functions: &std::collections::HashSet<FunctionId>,
    diags: &mut Diagnostics,
) {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnPath,
        Done,
    }
    fn visit(id: FunctionId, calls: &CallGraph, marks: &mut [Mark], diags: &mut Diagnostics) {
        crate::stack::guard(|| {
            marks[id.index()] = Mark::OnPath;
            for &(callee, location) in calls.get(id.index()).map_or(&[][..], Vec::as_slice) {
                match marks[callee.index()] {
                    Mark::OnPath => diags.error(location, "recursion is not supported in OpenCL"),
                    Mark::New => visit(callee, calls, marks, diags),
                    Mark::Done => {}
                }
            }
            marks[id.index()] = Mark::Done;
        })
    }
    let mut marks = vec![Mark::New; program.functions.len()];
    for (id, _) in program.functions.iter() {
        if marks[id.index()] == Mark::New && !constexpr_functions.contains(&id) {
            visit(id, calls, &mut marks, diags);
        }
    }
}

#[derive(Clone, Debug)]
enum Symbol {
    Local(LocalId),
    Function(FunctionId),
    /// The type, its qualifiers, and an alignment set on the typedef.
    Typedef(Type, ast::Qualifiers, Option<u64>),
    /// An enumerator: its value and its type (`int`, or the enum's own
    /// type where the value does not fit `int`, as clang has it).
    EnumConstant(i64, Scalar),
    /// A struct or union tag.
    Tag(naga::Handle<types::Record>),
    /// An enum tag: the enum's integer type.
    EnumTag(Scalar),
    Global(hir::GlobalId),
    /// A literal sampler (`const sampler_t s = ...;`): its sampler word.
    Sampler(u32),
    /// C++: a field of the class whose member function is being checked,
    /// named without `this->`.
    Member,
    /// C++: a member function of that class, named without `this->`.
    Method,
    /// C++: a function template (see `Checker::function_templates`).
    FunctionTemplate,
    /// C++: a class template (see `Checker::class_templates`).
    ClassTemplate,
    /// C++: a range-based `for`'s range, evaluated once: each use names
    /// this place again (see `range_for`).
    Place(Rc<Expr>),
    /// C++: a parameter pack in an instance, its elements' symbols (see
    /// `packs`).
    Pack(Rc<[Symbol]>),
}

/// The function being checked: the arenas of its body, and what its
/// statements are checked against.
struct FunctionState {
    locals: Arena<hir::Local>,
    exprs: Arena<hir::Expr>,
    stmts: Arena<hir::Stmt>,
    ret: Type,
    is_kernel: bool,
    /// `scopes.depth()` inside the body's outermost block, where `__local`
    /// and `__constant` variables may be declared.
    body_depth: usize,
    /// User functions called so far, in checking order.
    calls: Vec<(FunctionId, Location)>,
    /// Locals declared with an alignment other than their type's
    /// (`aligned` attributes, aligned typedefs), for `__alignof__(x)`.
    aligned_locals: Vec<(LocalId, u64)>,
    /// The function's labels by `hir::Label` number (labels have function
    /// scope, so a `goto` may name one defined further down). A body with
    /// any is restructured (`gotos`).
    labels: Vec<LabelState>,
    /// C++: the values of `const` integer locals with constant
    /// initialisers, which are constant expressions there.
    constants: HashMap<LocalId, (i64, Scalar)>,
    /// C++: the locals (parameters included) that are references.
    references: std::collections::HashSet<LocalId>,
    /// C++: a member function's `this`, its first parameter.
    this: Option<LocalId>,
    /// C++: the class of the member function being checked.
    class: Option<naga::Handle<types::Record>>,
    /// C++: the function returns a reference, so `return` binds one.
    returns_reference: bool,
    /// The function being checked.
    id: FunctionId,
    /// C++: the local objects whose destructors are still to run, in
    /// declaration order.
    destructibles: Vec<destructors::Destructible>,
    /// C++: whether any local object with a destructor was declared.
    had_destructibles: bool,
    /// C++: the local variable every `return` returns, by name until it
    /// is declared (see `named_return`).
    named_return: Option<Name>,
    named_return_local: Option<LocalId>,
    /// C++: the temporaries of this function that hold objects with
    /// destructors (see `temporaries`).
    temporaries: temporaries::Temporaries,
    /// C++: the scope depth around each enclosing loop (`true`) or
    /// `switch`, innermost last: what a `break` or `continue` leaves.
    jump_scopes: Vec<(usize, bool)>,
    /// C++: a lambda's call operator without `-> type` (this function),
    /// whose first `return` gives its return type.
    deduce_return: Option<FunctionId>,
}

/// What the checker knows of one label of the function being checked.
struct LabelState {
    name: Name,
    /// Where `name:` is written, once it is.
    defined: Option<Location>,
    /// The first `goto name`, for "use of undeclared label".
    first_goto: Option<Location>,
}

struct Checker<'a> {
    diags: &'a mut Diagnostics,
    caps: &'a DeviceCaps,
    cl_std: (u32, u32),
    /// C++ for OpenCL: comparisons are `bool`, character literals `char`,
    /// and `void *` does not convert to other pointers by itself.
    cxx: bool,
    /// See [`BuildOptions::linking`].
    linking: bool,
    /// `-cl-single-precision-constant`: unsuffixed floating constants are
    /// `float`, as on a device without `double`.
    single_precision_constants: bool,
    program: hir::Program,
    /// The spelling of each symbol, by symbol: what the tree's names are.
    names: Rc<Spellings>,
    /// The program's symbol of each name asked for so far, by name
    /// (`None` not yet asked): a name is interned once per build, not once
    /// per use.
    symbols: Vec<Option<hir::Symbol>>,
    /// By symbol: 0 not yet asked, 1 not a predefined constant, else the
    /// constant's row in `builtins::PREDEFINED_CONSTANTS` plus 2. Asked
    /// only for names no declaration covers (mostly built-in functions).
    predefined: RefCell<Vec<u8>>,
    scopes: scopes::Scopes,
    current: Option<FunctionState>,
    /// C++: the values of `const` integer program-scope variables with
    /// constant initialisers.
    global_constants: HashMap<hir::GlobalId, (i64, Scalar)>,
    /// C++: which parameters of each function are references.
    reference_params: HashMap<FunctionId, Vec<bool>>,
    /// C++: which of those are rvalue references (`T &&`), where any is.
    rvalue_params: HashMap<FunctionId, Vec<bool>>,
    /// C++: the function templates of each name.
    function_templates: HashMap<Name, Vec<std::sync::Arc<ast::FunctionTemplate>>>,
    /// C++: the `mutable` members of each class, by index.
    mutable_fields: std::collections::HashSet<(naga::Handle<types::Record>, usize)>,
    /// C++: the functions declared `constexpr`, which constant
    /// expressions may call.
    constexpr_functions: std::collections::HashSet<FunctionId>,
    /// C++: the member function templates of each class, by name.
    member_templates:
        HashMap<(naga::Handle<types::Record>, Name), Vec<std::sync::Arc<ast::MethodTemplate>>>,
    /// C++: each template's instantiations, by the template's address
    /// and its arguments.
    instances: HashMap<(usize, Vec<templates::TemplateArgument>), FunctionId>,
    /// C++: the class templates, by name.
    class_templates: HashMap<Name, std::sync::Arc<ast::ClassTemplate>>,
    /// C++: each class template's instantiations, by name and arguments.
    class_instances: HashMap<(Name, Vec<templates::TemplateArgument>), naga::Handle<types::Record>>,
    /// The template argument packs of the instances made so far.
    packs: packs::PackTable,
    /// C++: for functions with a parameter of an enum type, which of their
    /// parameters are (see `declare_function`).
    enum_params: HashMap<FunctionId, Vec<bool>>,
    /// C++: how many instantiations the code being checked is nested in.
    instantiation_depth: usize,
    /// C++: each instance of a class template, with the template (or
    /// specialization) it was made from and its parameters' arguments.
    instance_bindings: HashMap<
        naga::Handle<types::Record>,
        (
            std::sync::Arc<ast::ClassTemplate>,
            Vec<templates::TemplateArgument>,
        ),
    >,
    /// C++: each class's default member initializers, which its
    /// constructors use for the members they name no initializer of.
    member_defaults: HashMap<naga::Handle<types::Record>, Rc<Vec<ast::MemberInit>>>,
    /// C++: the classes whose only constructor is the default one C++
    /// declares for their default member initializers.
    implicit_constructors: HashSet<naga::Handle<types::Record>>,
    /// C++: the class template and arguments each instance was made from.
    instance_of: HashMap<naga::Handle<types::Record>, (Name, Vec<templates::TemplateArgument>)>,
    /// C++: set while a class template is instantiated, whose member
    /// functions are declared at once and checked later; what
    /// `define_methods` declared is left here for the instantiation.
    instantiating_class: Option<Vec<methods::DeclaredMethod>>,
    /// C++: how many functions the program had where each template (by
    /// its tree's address) was defined.
    template_visible_functions: HashMap<usize, usize>,
    /// C++: while an instantiation's body is checked, the functions it
    /// may call by name: those declared before its template.
    visible_functions: Option<usize>,
    /// C++: instantiations declared but not yet checked.
    pending_instances: Vec<templates::PendingInstance>,
    /// C++: function template instances declared as candidates of a call
    /// and not chosen by one yet, whose bodies are not checked.
    unscheduled_instances: HashMap<FunctionId, templates::PendingInstance>,
    /// C++: the functions that return a reference (kept as a pointer).
    reference_returns: std::collections::HashSet<FunctionId>,
    /// C++: the functions sharing each overloaded name, by the first
    /// (the one the scopes hold).
    overloads: HashMap<FunctionId, Vec<FunctionId>>,
    /// C++: the member functions of each class by name, overloads
    /// together.
    methods: HashMap<(naga::Handle<types::Record>, Name), Vec<FunctionId>>,
    /// C++: the name of each class with member functions, which its
    /// constructors have.
    class_names: HashMap<naga::Handle<types::Record>, Name>,
    /// C++: the enumerators of each enum by its tag, for `E::A` (the only
    /// way to name those of an `enum class`).
    enumerators: HashMap<Name, Vec<(Name, i64, Scalar)>>,
    /// C++: the closure class of each lambda, by its tree's address and
    /// the function it is in (the same lambda is checked more than once:
    /// `auto` deduction checks an initialiser before it is checked for
    /// good).
    closures: HashMap<(usize, FunctionId), naga::Handle<types::Record>>,
    /// C++: the closure classes of generic lambdas, and whether their
    /// `return`s deduce the return type.
    generic_closures: HashMap<naga::Handle<types::Record>, bool>,
    /// C++: the lambdas' closure classes.
    closure_classes: std::collections::HashSet<naga::Handle<types::Record>>,
    /// C++: while a lambda's body is checked, where on the scope stack its
    /// own names begin; the enclosing function's variables, below, are
    /// reachable only as captures.
    local_floor: usize,
    /// C++: the hidden reference parameters, after `this`, of the next
    /// function declared and defined: a lambda's call operator's, one per
    /// capture by reference (see `lambdas`).
    hidden_params: Vec<(Name, Type)>,
    /// C++: each lambda closure class's captures by reference, and the
    /// function that made it, where calls pass the captured variables.
    closure_references:
        HashMap<naga::Handle<types::Record>, (FunctionId, Vec<lambdas::ReferenceCapture>)>,
    /// C++: the next function defined deduces its return type (a lambda's
    /// call operator without `-> type`).
    deduce_next_return: bool,
    /// C++: functions declared `auto f(...)` whose body has not yet
    /// given their return type; a call of one is an error.
    undeduced_returns: HashSet<FunctionId>,
    /// C++: the alias templates by name.
    alias_templates: HashMap<Name, std::sync::Arc<ast::AliasTemplate>>,
    /// C++: the specializations of each class template.
    class_specializations: HashMap<Name, Vec<std::sync::Arc<ast::ClassTemplate>>>,
    /// C++: the destructor of each class that has one, and its name.
    destructors: HashMap<naga::Handle<types::Record>, (FunctionId, Name)>,
    /// C++: the classes whose own copy (or move) constructor, or copy
    /// assignment operator, does more than copy each member (see
    /// `copies`).
    user_copies: copies::UserCopies,
    /// C++: the member types of each class, by name.
    member_types: HashMap<(naga::Handle<types::Record>, Name), Symbol>,
    /// C++: the static data members of each class, by name.
    static_members: HashMap<(naga::Handle<types::Record>, Name), Symbol>,
    /// C++: the base classes of each class that has any.
    bases: HashMap<naga::Handle<types::Record>, Vec<inheritance::Base>>,
    /// C++: the static member functions, which take no `this`.
    static_methods: std::collections::HashSet<FunctionId>,
    /// C++: the names a class's member functions see as its members.
    class_members: HashMap<naga::Handle<types::Record>, Vec<(Name, Symbol)>>,
    /// C++: each function's default arguments, by parameter.
    default_args: HashMap<FunctionId, Vec<Option<default_arguments::DefaultArg>>>,
    /// The call graph that [`reject_recursion`] walks, gathered while
    /// checking rather than by a second walk over the HIR.
    calls: CallGraph,
    /// Built-in overload resolutions by name and scalar/vector argument
    /// types: kernels call the same few built-ins with the same types over
    /// and over, and a table search per call was a tenth of checking.
    builtin_cache: HashMap<BuiltinCallKey, Rc<builtins::Resolved>, crate::lexer::FxBuildHasher>,
    /// Program-scope variables declared with an alignment other than
    /// their type's, for `__alignof__(x)`.
    aligned_globals: HashMap<hir::GlobalId, u64>,
    /// Enclosing loops, for `continue`.
    loop_depth: u32,
    /// Enclosing loops and switches, for `break`.
    break_depth: u32,
    /// Expressions being checked, outermost first (see `stack::guard_at`).
    expr_depth: u32,
    /// `#pragma OPENCL FP_CONTRACT`'s state here: set at file scope until
    /// the next pragma, and inside a compound statement until its end.
    fp_contract: bool,
    /// `-cl-mad-enable` (or `-cl-fast-relaxed-math`, which implies it).
    mad_enable: bool,
    /// Set while the operand of `&` is checked: compound literals there
    /// become objects, as C99 6.5.2.5 makes them (lvalues), rather than
    /// the values of their initializers.
    literal_objects: bool,
    /// The unroll pragma or attribute just before the statement checked
    /// next (see `loop_hints`).
    loop_hint: hir::UnrollHint,
}

/// A built-in's name and up to four scalar or vector argument types (as
/// element and width): what overload resolution depends on within one
/// build. Calls with other argument types are resolved every time.
#[derive(Clone, PartialEq, Eq, Hash)]
struct BuiltinCallKey {
    name: Name,
    args: [(Scalar, u8); 4],
    arity: u8,
}

impl BuiltinCallKey {
    fn new(name: Name, args: &[Expr]) -> Option<Self> {
        let mut key = BuiltinCallKey {
            name,
            args: [(Scalar::Bool, 0); 4],
            arity: u8::try_from(args.len()).ok().filter(|&n| n <= 4)?,
        };
        for (slot, a) in key.args.iter_mut().zip(args) {
            *slot = match a.ty {
                Type::Scalar(s) => (s, 1),
                Type::Vector(s, n) => (s, n),
                _ => return None,
            };
        }
        Some(key)
    }
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

    fn error(&mut self, location: impl Into<Location>, message: impl Into<String>) {
        self.diags.error(location, message);
    }

    // ---- names and scopes ----

    /// The spelling of `name`.
    fn text(&self, name: Name) -> &str {
        &self.names[name.0 as usize]
    }

    /// The spelling of `name`, owned (for messages made while `self` is
    /// borrowed mutably).
    fn spelling(&self, name: Name) -> String {
        self.names[name.0 as usize].to_string()
    }

    /// What `f` computes, with the diagnostics it reports dropped: for
    /// looking again at something checked (or to be checked) where it is.
    fn quietly<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let mark = self.diags.len();
        let value = f(self);
        self.diags.truncate(mark);
        value
    }

    /// The name `declarator` declares, or nothing.
    fn declared_name(&self, declarator: &ast::Declarator) -> String {
        declarator
            .name
            .map(|(name, _)| self.spelling(name))
            .unwrap_or_default()
    }

    /// `name` as a symbol of the program.
    fn symbol(&mut self, name: Name) -> hir::Symbol {
        let index = name.0 as usize;
        if let Some(Some(symbol)) = self.symbols.get(index) {
            return *symbol;
        }
        let symbol = self.program.names.intern(&self.names[index]);
        if index >= self.symbols.len() {
            self.symbols.resize(index + 1, None);
        }
        self.symbols[index] = Some(symbol);
        symbol
    }

    // ---- types ----

    /// What a pointer type points to (a copy: pointees are small).
    fn pointee(&self, ty: Type) -> Option<Pointee> {
        self.program.types.pointee(ty).copied()
    }

    fn pointer_to(&mut self, pointee: Pointee) -> Type {
        self.program.types.pointer(pointee)
    }

    /// A pointer to `ty` with `quals` (`const`, `volatile`, the address
    /// space, else the default one for pointees).
    fn pointer_with(&mut self, ty: Type, quals: ast::Qualifiers) -> Type {
        let space = quals
            .address_space
            .unwrap_or_else(|| self.default_pointee_space());
        self.pointer_to(Pointee {
            ty,
            is_const: quals.is_const,
            is_volatile: quals.is_volatile,
            space,
            endian_host: false,
        })
    }

    fn array_of(&mut self, element: Type, len: u64) -> Type {
        self.program.types.array(element, len)
    }

    /// The element type of an array type.
    fn element_of(&self, array: Type) -> Option<Type> {
        self.program.types.array_element(array)
    }

    fn type_size(&self, ty: Type) -> Option<u64> {
        self.program.types.size(ty)
    }

    fn record(&self, r: naga::Handle<types::Record>) -> &types::Record {
        &self.program.types[r]
    }

    /// `ty` as clang spells it in diagnostics.
    fn display(&self, ty: Type) -> String {
        self.program.display(ty)
    }

    // ---- the HIR of the function being checked ----

    /// Appends a checked expression tree to the current function.
    fn commit(&mut self, e: Expr) -> ExprId {
        self.claim_temporaries(&e);
        let contract = self.contract_allowed();
        let state = self.current.as_mut().expect("inside a function");
        e.append_to(&mut state.exprs, contract)
    }

    /// Appends a checked initialiser of a program-scope variable.
    fn commit_global(&mut self, e: Expr) -> ExprId {
        let contract = self.contract_allowed();
        e.append_to(&mut self.program.global_exprs, contract)
    }

    /// Whether expressions checked now may be contracted: the
    /// `FP_CONTRACT` state, or the build options' permission to use `mad`
    /// for `a * b + c`, which clang too applies whatever the pragma says
    /// (`less-precise-fpmad`).
    fn contract_allowed(&self) -> bool {
        self.fp_contract || self.mad_enable
    }

    /// Applies `#pragma OPENCL FP_CONTRACT ON|OFF|DEFAULT` (OpenCL C
    /// 6.10.1) and notes unroll pragmas for the loop after them; other
    /// pragmas change nothing the checker looks at.
    fn pragma(&mut self, pragma: Name) {
        let text = self.names.get(pragma.0);
        if let Some(cxx) = crate::language::switched_to(text) {
            self.cxx = cxx;
            return;
        }
        if let Some(hint) = loop_hints::pragma_hint(text) {
            self.loop_hint = hint;
            return;
        }
        let mut words = text.split_whitespace();
        if (words.next(), words.next()) != (Some("OPENCL"), Some("FP_CONTRACT")) {
            return;
        }
        match (words.next(), words.next()) {
            // DEFAULT is ON: OpenCL C contracts by default, as clang does.
            (Some("ON" | "DEFAULT"), None) => self.fp_contract = true,
            (Some("OFF"), None) => self.fp_contract = false,
            _ => {}
        }
    }

    fn add_stmt(&mut self, kind: StmtKind, span: impl Into<Span>) -> StmtId {
        let state = self.current.as_mut().expect("inside a function");
        state.stmts.append(
            hir::Stmt {
                kind,
                span: span.into(),
            },
            naga::Span::UNDEFINED,
        )
    }

    /// What identifier `name` means here: a declaration, or else one of the
    /// spec's predefined constants, which behave as if declared at
    /// program scope.
    fn lookup(&self, name: Name) -> Option<Symbol> {
        match self.scopes.lookup(name) {
            Some(symbol) => Some(symbol.clone()),
            None => self.predefined_constant(name),
        }
    }

    /// The declaration of `name` in the innermost scope, predefined
    /// constants included at program scope.
    fn in_innermost(&self, name: Name) -> Option<Symbol> {
        match self.scopes.in_innermost(name) {
            Some(symbol) => Some(symbol.clone()),
            None if self.scopes.depth() == 1 => self.predefined_constant(name),
            None => None,
        }
    }

    fn predefined_constant(&self, name: Name) -> Option<Symbol> {
        let index = name.0 as usize;
        let mut memo = self.predefined.borrow_mut();
        if memo.len() <= index {
            memo.resize(index + 1, 0);
        }
        if memo[index] == 0 {
            let text = self.text(name);
            let row = builtins::PREDEFINED_CONSTANTS
                .iter()
                .position(|&(constant, _, _)| constant == text)
                // The memory-model enums and image fences arrived with
                // OpenCL C 2.0.
                .filter(|_| {
                    self.cl_std >= (2, 0)
                        || !(text.starts_with("memory_") || text == "CLK_IMAGE_MEM_FENCE")
                });
            memo[index] = row.map_or(1, |row| row as u8 + 2);
        }
        let row = memo[index].checked_sub(2)?;
        Some(Symbol::EnumConstant(
            builtins::PREDEFINED_CONSTANTS[row as usize].2,
            Scalar::Int,
        ))
    }

    fn declare(&mut self, key: impl Into<scopes::Key>, symbol: Symbol) {
        self.scopes.declare(key, symbol);
    }

    /// Adds a local of the current function, declared as `name` when it
    /// has one.
    fn add_local(&mut self, name: Option<Name>, local: hir::Local) -> LocalId {
        let state = self.current.as_mut().expect("inside a function");
        let id = state.locals.append(local, naga::Span::UNDEFINED);
        if let Some(name) = name {
            self.declare(name, Symbol::Local(id));
        }
        id
    }
}

impl Checker<'_> {
    /// `int printf(constant char *restrict format, ...)` (OpenCL C 6.15.14):
    /// the only variadic function, so it has no row in the built-in table.
    fn printf(&mut self, args: Vec<Expr>, span: Span) -> Expr {
        let format_ok = args.first().is_some_and(|f| {
            matches!(self.pointee(f.ty), Some(p) if p.space == AddressSpace::Constant
                && matches!(p.ty, Type::Scalar(Scalar::Char)))
        });
        if !format_ok {
            self.error(
                span,
                "printf needs a string literal or a __constant char pointer as its format",
            );
        }
        if let Some(bad) = args
            .iter()
            .skip(1)
            .find(|a| !(a.ty.is_arithmetic() || matches!(a.ty, Type::Pointer(_))))
        {
            let (ty, at) = (self.display(bad.ty), bad.span);
            self.error(
                at.location(),
                format!("cannot pass a value of type '{ty}' to printf"),
            );
        }
        Expr::new(H::Printf(tree::boxed(args)), Type::INT, span)
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
fn type_as_written(p: &ast::ParamDecl, names: &Spellings) -> String {
    let text = |name: ast::Name| names[name.0 as usize].to_string();
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
        ast::TypeSpec::Builtin(n) | ast::TypeSpec::Typedef(n) | ast::TypeSpec::TemplateId(n, _) => {
            text(*n)
        }
        ast::TypeSpec::Record(r) => r.tag.map(text).unwrap_or_default(),
        ast::TypeSpec::Enum(e) => e.tag.map(text).unwrap_or_default(),
        ast::TypeSpec::None => String::new(),
        ast::TypeSpec::Auto => "auto".into(),
        ast::TypeSpec::Decltype(_) => "decltype".into(),
        ast::TypeSpec::MemberType(_, n) => text(*n),
    };
    let stars = p
        .declarator
        .derived
        .iter()
        .filter(|d| matches!(d, ast::Derived::Pointer(_) | ast::Derived::Array(_)))
        .count();
    let mut written = base;
    written.extend(std::iter::repeat_n('*', stars));
    written
}

/// Lane indices of a swizzle (OpenCL C 6.3.7): `xyzw` (and `rgba` from 3.0),
/// `s0`..`sF`, `lo`/`hi`/`even`/`odd`.
fn parse_swizzle(name: &str, s: Scalar, n: u8, cl_std: (u32, u32)) -> Result<Vec<u8>, String> {
    let bad = || format!("illegal vector component name '{name}'");
    let out_of_range = || format!("vector component access exceeds type '{}{n}'", s.name());
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
