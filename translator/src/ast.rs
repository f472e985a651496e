//! The syntax tree of an OpenCL C translation unit, as written.
//!
//! It keeps the source's shape (declaration specifiers, declarators,
//! attributes) and every location; meaning is assigned by `check`. C++ for
//! OpenCL will add node kinds here (references, classes, templates) rather
//! than a second tree.

use crate::diagnostic::{Location, Span};
use std::sync::Arc;

/// A name or literal as written: the preprocessor's symbol for its
/// spelling, which the interner the tokens came from spells out. Being a
/// number, it costs nothing to copy or drop, and the tree can be built on
/// one thread and checked on another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Name(pub u32);

#[derive(Debug, Default)]
pub struct TranslationUnit {
    pub items: Vec<ExternalDecl>,
}

#[derive(Debug)]
pub enum ExternalDecl {
    Function(FunctionDef),
    Declaration(Declaration),
    /// A `#pragma` at file scope, in order among the declarations: what it
    /// sets (`OPENCL FP_CONTRACT`) holds until the next one or the end of
    /// the translation unit (C99 6.10.6, 7.12.2).
    Pragma(Name),
    StaticAssert(StaticAssert),
    /// C++'s `template <typename T, ...>` before a function definition.
    FunctionTemplate(Arc<FunctionTemplate>),
    /// C++'s `template <typename T, ...>` before a class definition.
    ClassTemplate(Arc<ClassTemplate>),
    /// C++'s `template <typename T, ...> using Name = type;`.
    AliasTemplate(Arc<AliasTemplate>),
}

/// A C++ alias template: a type written in terms of its parameters.
#[derive(Debug)]
pub struct AliasTemplate {
    pub params: Vec<TemplateParam>,
    pub name: Name,
    pub ty: TypeName,
    pub location: Location,
}

/// A C++ class template: its type parameters and the class written in
/// their terms, which each instantiation checks again.
#[derive(Debug)]
pub struct ClassTemplate {
    pub params: Vec<TemplateParam>,
    pub record: Arc<RecordSpec>,
    pub location: Location,
}

/// A C++ function template: its type parameters and the function written
/// in their terms, which each instantiation checks again with the
/// parameters bound.
#[derive(Debug)]
pub struct FunctionTemplate {
    pub params: Vec<TemplateParam>,
    pub function: FunctionDef,
    /// Where `template` is.
    pub location: Location,
}

/// A template parameter: a type (`typename T`), or with a type of its
/// own an integer value (`int N`).
#[derive(Debug)]
pub struct TemplateParam {
    pub name: Name,
    pub location: Location,
    pub value_type: Option<TypeName>,
    /// The default argument (`typename T = int`, `int N = 4`).
    pub default: Option<TemplateArg>,
    /// A parameter pack (`typename... Ts`, `int... Ns`): any number of
    /// arguments.
    pub pack: bool,
}

/// A template argument as written: a type, or a constant expression.
#[derive(Debug, Clone)]
pub enum TemplateArg {
    Type(TypeName),
    Value(Expr),
}

/// `_Static_assert` (C11), or C++'s `static_assert`: a constant condition
/// checked at compile time, and the message the error shows.
#[derive(Debug)]
pub struct StaticAssert {
    /// Where the keyword is, which a failed assertion points at.
    pub location: Location,
    pub condition: Expr,
    /// The string literal, quotes and escapes kept.
    pub message: Option<String>,
}

#[derive(Debug)]
pub struct FunctionDef {
    pub specs: DeclSpecs,
    pub declarator: Declarator,
    /// C++: for a member function defined outside its class
    /// (`int S::get() const { ... }`), the qualifiers of `this`.
    pub this_qualifiers: Qualifiers,
    /// C++: a constructor's member initializers (`S::S() : x(0) {}`).
    pub member_inits: Vec<MemberInit>,
    pub body: Block,
}

/// `specs declarator [= init], ...;`
#[derive(Debug)]
pub struct Declaration {
    pub specs: DeclSpecs,
    pub declarators: Vec<InitDeclarator>,
    pub location: Location,
}

#[derive(Debug)]
pub struct InitDeclarator {
    pub declarator: Declarator,
    pub init: Option<Initializer>,
    /// C++'s `T x(args);`: the constructor's arguments, and where the `(`
    /// is.
    pub arguments: Option<(Vec<Expr>, Location)>,
}

/// `member(args)` in a constructor's member initializer list, or a
/// default member initializer (`int n = 0;`, `float4 v{1.0f}`), which
/// a constructor that names no initializer of the member uses.
#[derive(Debug, Clone)]
pub struct MemberInit {
    pub name: Name,
    pub location: Location,
    pub args: Vec<Expr>,
}

#[derive(Debug, Clone)]
pub enum Initializer {
    Expr(Expr),
    /// `{ [designator =] init, ... }`, the caret at the `{`.
    List(Vec<(Vec<Designator>, Initializer)>, Span),
}

#[derive(Debug, Clone)]
pub enum Designator {
    Index(Expr),
    Field(Name, Location),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StorageClass {
    Typedef,
    Extern,
    Static,
    Auto,
    Register,
}

/// The OpenCL address spaces as written (`__global` and `global` alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddressSpace {
    Private,
    Global,
    Constant,
    Local,
    Generic,
}

impl AddressSpace {
    /// The qualifier as clang writes it in C++ diagnostics: `__global`.
    pub fn keyword(self) -> &'static str {
        match self {
            AddressSpace::Private => "__private",
            AddressSpace::Global => "__global",
            AddressSpace::Constant => "__constant",
            AddressSpace::Local => "__local",
            AddressSpace::Generic => "__generic",
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Qualifiers {
    pub is_const: bool,
    pub is_volatile: bool,
    pub is_restrict: bool,
    pub address_space: Option<AddressSpace>,
}

/// The keyword spelling of a scalar type, counted the C way
/// (`unsigned long int` and `ulong` name the same type).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScalarWords {
    pub void: bool,
    pub bool_: bool,
    pub char_: bool,
    pub short: bool,
    pub int: bool,
    pub long: u8,
    pub signed: bool,
    pub unsigned: bool,
    pub half: bool,
    pub float: bool,
    pub double: bool,
}

#[derive(Debug, Clone)]
pub enum TypeSpec {
    /// Only qualifiers were given, as in `const x;`: an error in OpenCL C.
    None,
    Scalar(ScalarWords),
    /// A built-in type name that is not a keyword: `float4`, `size_t`,
    /// `uchar`, `image2d_t`, ... (see `types::builtin_type_name`).
    Builtin(Name),
    /// A typedef name declared in the program.
    Typedef(Name),
    Record(Arc<RecordSpec>),
    Enum(Arc<EnumSpec>),
    /// C++'s `auto`: the initialiser's type.
    Auto,
    /// C++'s `Name<T, ...>`: an instance of a class template.
    TemplateId(Name, Arc<Vec<TemplateArg>>),
    /// C++'s `decltype(expr)`.
    Decltype(Arc<Expr>),
    /// C++'s `Class::name` naming a member type (`S::value_type`,
    /// `typename T::type`): the class, and the member's name.
    MemberType(Arc<TypeSpec>, Name),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordKind {
    Struct,
    Union,
}

#[derive(Debug)]
pub struct RecordSpec {
    pub kind: RecordKind,
    pub tag: Option<Name>,
    /// Where the tag is written (the keyword's location when there is none).
    pub tag_location: Location,
    /// `None` for a reference to a tag (`struct S x;`).
    pub fields: Option<Vec<FieldDecl>>,
    /// C++: the member functions declared in the body; with a default
    /// constructor `S() {}` added where a member has a default
    /// initializer and no constructor is declared (`implicit_constructor`).
    pub methods: Vec<MethodDecl>,
    pub implicit_constructor: bool,
    /// C++: the member function templates declared in the body.
    pub method_templates: Vec<Arc<MethodTemplate>>,
    /// C++: the base classes, in order (`struct D : B, C`).
    pub bases: Vec<TypeName>,
    /// C++: the static data members (`static constexpr int N = 4;`).
    pub statics: Vec<Declaration>,
    /// C++: the member types (`typedef T value_type;`, `using type = T;`).
    pub types: Vec<Declaration>,
    /// C++: a class template's specialization, `struct S<int *>`: the
    /// arguments it is for.
    pub pattern: Option<Vec<TemplateArg>>,
    /// Attributes between the keyword and the body: they bind to the type.
    pub attributes: Vec<Attribute>,
    pub location: Location,
}

#[derive(Debug)]
pub struct FieldDecl {
    pub specs: DeclSpecs,
    pub declarators: Vec<(Declarator, Option<Expr>)>,
    pub location: Location,
    /// C++'s `mutable`: a member `const` objects may change.
    pub mutable: bool,
    /// C++'s default member initializers of the declarators.
    pub defaults: Vec<MemberInit>,
}

/// A C++ member function declared in a class body, with its body when
/// defined there.
#[derive(Debug)]
pub struct MethodDecl {
    pub specs: DeclSpecs,
    pub declarator: Declarator,
    /// The qualifiers after the parameter list (`int get() const
    /// __constant`): what `this` points to.
    pub this_qualifiers: Qualifiers,
    pub body: Option<Block>,
    pub location: Location,
    /// A constructor (`S(params)`), and its member initializers.
    pub constructor: bool,
    pub member_inits: Vec<MemberInit>,
    /// Declared `= default` (its body is then empty).
    pub defaulted: bool,
    /// Declared `= delete`.
    pub deleted: bool,
}

impl MethodDecl {
    /// Whether this is a constructor without parameters.
    pub fn is_default_constructor(&self) -> bool {
        self.constructor
            && matches!(self.declarator.derived.first(),
                Some(Derived::Function { params, .. }) if params.is_empty())
    }
}

/// C++'s member function template, `template <typename T> bool
/// operator()(T a, T b) const { ... }` in a class body.
#[derive(Debug)]
pub struct MethodTemplate {
    pub params: Vec<TemplateParam>,
    pub method: MethodDecl,
    /// Where `template` is.
    pub location: Location,
}

#[derive(Debug)]
pub struct EnumSpec {
    pub tag: Option<Name>,
    pub enumerators: Option<Vec<(Name, Option<Expr>, Location)>>,
    pub location: Location,
    /// C++'s `enum class`: the enumerators are named only as `E::A`.
    pub scoped: bool,
    /// C++'s `enum E : type`.
    pub underlying: Option<TypeName>,
}

/// `__attribute__((name(args)))`; args kept as expressions. The name is as
/// written, with any `__` around it.
#[derive(Debug, Clone)]
pub struct Attribute {
    pub name: Name,
    pub args: Vec<Arc<Expr>>,
    pub location: Location,
}

#[derive(Debug, Clone)]
pub struct DeclSpecs {
    pub storage: Option<StorageClass>,
    pub ty: TypeSpec,
    /// Where the type specifier is written.
    pub type_location: Location,
    pub qualifiers: Qualifiers,
    pub is_kernel: bool,
    pub is_inline: bool,
    /// C++'s `constexpr`, and where it is written.
    pub constexpr: Option<Location>,
    pub attributes: Vec<Attribute>,
    /// An image access qualifier (`read_only`, `__write_only`, ...) and
    /// where it is written.
    pub access: Option<(crate::image::ImageAccess, Location)>,
    pub location: Location,
}

/// A declarator: the name and the type derivations around it, listed from
/// the name outwards (`*a[3]` is [Array(3), Pointer]: an array of pointers).
#[derive(Debug, Default, Clone)]
pub struct Declarator {
    pub name: Option<(Name, Location)>,
    /// C++: the class that qualifies the name (`S` of `S::get`).
    pub class: Option<(Name, Location)>,
    /// C++: template arguments after the name, in an explicit
    /// specialization of a function template (`f<float>`).
    pub template_args: Option<Vec<TemplateArg>>,
    pub derived: Vec<Derived>,
    /// C++'s `T &name`: a reference to what the rest declares, and where
    /// the `&` is.
    pub reference: Option<Location>,
    /// The reference is C++'s `T &&name`, an rvalue reference.
    pub rvalue: bool,
    /// C++'s `Ts... name`: a function parameter pack, one parameter per
    /// element of the packs its type names; in a template argument
    /// (`f<Ts...>`), their expansion.
    pub pack: bool,
    pub attributes: Vec<Attribute>,
    /// Its source text (`*a[3]`), `start..end` in the file of the name.
    pub start: u32,
    pub end: u32,
}

impl Declarator {
    /// The declarator's text with the caret at its name, or the empty span
    /// at `otherwise` for an abstract one.
    pub fn span_or(&self, otherwise: Location) -> Span {
        match self.name {
            Some((_, at)) => Span::new(at, self.start, self.end),
            None => Span::at(otherwise),
        }
    }
}

#[derive(Debug, Clone)]
pub enum Derived {
    Pointer(Qualifiers),
    Array(Option<Expr>),
    Function {
        params: Vec<ParamDecl>,
        variadic: bool,
    },
}

#[derive(Debug, Clone)]
pub struct ParamDecl {
    pub specs: DeclSpecs,
    pub declarator: Declarator,
    pub location: Location,
    /// C++'s default argument.
    pub default: Option<Expr>,
}

/// A type as written in a cast, `sizeof` or a vector literal.
#[derive(Debug, Clone)]
pub struct TypeName {
    pub specs: DeclSpecs,
    pub declarator: Declarator,
}

#[derive(Debug)]
pub struct Block {
    pub items: Vec<Stmt>,
    pub location: Location,
}

#[derive(Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    /// Where the statement starts.
    pub location: Location,
    /// Where its text ends (after its `;` or `}`), in the same file.
    pub end: u32,
}

impl Stmt {
    pub fn span(&self) -> Span {
        Span::new(self.location, self.location.offset, self.end)
    }
}

#[derive(Debug)]
pub enum StmtKind {
    Compound(Block),
    Declaration(Declaration),
    Expr(Option<Expr>),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    /// C++'s `if constexpr`: only the branch its constant condition picks
    /// is checked (in a template, the other may not hold for the
    /// arguments).
    IfConstexpr(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    DoWhile(Box<Stmt>, Expr),
    For {
        init: Option<Box<Stmt>>,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Box<Stmt>,
    },
    /// C++'s range-based `for` over an array, as the parser lowers it
    /// (see [`RangeFor`]).
    RangeFor(Box<RangeFor>),
    /// C++'s structured binding declaration (see [`Bindings`]).
    Bindings(Box<Bindings>),
    Switch(Expr, Box<Stmt>),
    Case(Expr, Box<Stmt>),
    Default(Box<Stmt>),
    Break,
    Continue,
    Return(Option<Expr>),
    /// `goto label;`, with where the label's name is written.
    Goto(Name, Location),
    Labeled(Name, Box<Stmt>),
    /// A `#pragma` between statements, e.g. `unroll 4` before a loop.
    Pragma(Name),
    StaticAssert(StaticAssert),
    /// A statement with attributes (`opencl_unroll_hint` on a loop).
    Attributed(Vec<Attribute>, Box<Stmt>),
}

/// `auto [a, b] = e;` (or `auto &[a, b] = e;`): `object` declares a
/// hidden variable `auto E = e;` (or `auto &E = e;`), whose members (or
/// elements), in order, the names then name.
#[derive(Debug)]
pub struct Bindings {
    pub object: Declaration,
    /// `E` as an expression.
    pub hidden: Expr,
    pub names: Vec<(Name, Location)>,
}

/// `for (declaration : range) body`, lowered by the parser to
///
/// ```text
/// for (auto I = 0; I < COUNT; I++) { declaration = R[I]; body }
/// ```
///
/// with names no source spells. The checker binds `R` to the range,
/// evaluated once, and `COUNT` to its length: of an array, or of an
/// object of a class whose `begin()` and `end()` give pointers (`R` is
/// then `begin()`, and `COUNT` `end() - begin()`).
#[derive(Debug)]
pub struct RangeFor {
    pub range: Expr,
    /// The names `R` and `COUNT` are.
    pub array: Name,
    pub count: Name,
    /// The symbols spelt `begin` and `end`, where the program has them.
    pub begin_end: Option<(Name, Name)>,
    /// The loop over the elements.
    pub elements: Stmt,
    /// Where the `:` is, clang's caret for a range that is not one.
    pub colon: Location,
}

/// C++'s lambda expression, `[captures](params) -> ret { body }`.
#[derive(Debug, Clone)]
pub struct Lambda {
    /// `[=]` or `[&]`: what names the body uses of the enclosing
    /// function are captured as, unless listed.
    pub default: Option<CaptureDefault>,
    /// The captures listed by name (`[x, &y]`).
    pub captures: Vec<Capture>,
    /// The call operator: its declarator (no name, the parameters, and
    /// the return type's own derivations, `-> int *`), the return type's
    /// specifiers (`void` where none is written) and the body; a template
    /// with a parameter for each `auto` parameter (C++'s generic lambda),
    /// or with none.
    pub call: Arc<MethodTemplate>,
    /// No `-> type`: the `return`s deduce it.
    pub deduce_return: bool,
    /// The names of the enclosing functions' block scopes that the body
    /// uses (whether or not they are variables): what it may capture.
    pub outer_names: Vec<(Name, Location)>,
    pub location: Location,
}

/// A lambda's capture-default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureDefault {
    /// `[=]`: by copy.
    Copy,
    /// `[&]`: by reference.
    Reference,
}

/// One capture listed in a lambda's brackets.
#[derive(Debug, Clone)]
pub struct Capture {
    pub name: Name,
    pub by_reference: bool,
    pub location: Location,
}

#[derive(Debug, Clone)]
pub struct Expr {
    pub kind: ExprKind,
    /// Where diagnostics about the expression point: its operator (the
    /// `+` of `a + b`, the `(` of a call, the `.` of a member), else its
    /// first token.
    pub location: Location,
    /// Its source text, `start..end` in the file of `location`: from its
    /// first token to its last, the parentheses around it included.
    pub start: u32,
    pub end: u32,
}

// Trees as deep as the parser admits (`parse::MAX_NESTING`: a chain of
// thousands of `+`, an `else if` chain) are dropped by recursion like any
// Rust tree; each level goes through `stack::guard`, so the drop cannot
// overflow a small stack. Leaves, most nodes, skip it.

impl Drop for Expr {
    fn drop(&mut self) {
        if matches!(
            self.kind,
            ExprKind::Ident(_)
                | ExprKind::SizeofPack(..)
                | ExprKind::IntLiteral(_)
                | ExprKind::FloatLiteral(_)
                | ExprKind::CharLiteral(_)
                | ExprKind::StringLiteral(_)
        ) {
            return;
        }
        let operands = std::mem::replace(&mut self.kind, ExprKind::IntLiteral(Name(0)));
        crate::stack::guard(move || drop(operands));
    }
}

impl Drop for Stmt {
    fn drop(&mut self) {
        if matches!(
            self.kind,
            StmtKind::Break | StmtKind::Continue | StmtKind::Goto(..) | StmtKind::Pragma(_)
        ) {
            return;
        }
        let parts = std::mem::replace(&mut self.kind, StmtKind::Break);
        crate::stack::guard(move || drop(parts));
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Plus,
    Minus,
    Not,
    BitNot,
    Deref,
    AddressOf,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    LogicalAnd,
    LogicalOr,
}

impl Expr {
    pub fn span(&self) -> Span {
        Span::new(self.location, self.start, self.end)
    }

    /// Offset `offset` in the file of this expression's location.
    pub fn at(&self, offset: u32) -> Location {
        Location {
            file: self.location.file,
            offset,
        }
    }

    /// Where the expression's leftmost token is (parentheses aside, unlike
    /// `start`), where clang puts the caret for errors about a whole
    /// expression.
    pub fn begin(&self) -> Location {
        // A loop: the leftmost operand of a long chain is deep down.
        let mut e = self;
        loop {
            e = match &e.kind {
                ExprKind::Binary(_, operands)
                | ExprKind::Assign(_, operands)
                | ExprKind::Comma(operands)
                | ExprKind::Index(operands) => &operands.0,
                ExprKind::Conditional(operands) => &operands.0,
                ExprKind::Call(a, _, _) | ExprKind::Member { base: a, .. } => a,
                ExprKind::Unary(UnaryOp::PostInc | UnaryOp::PostDec, a) => a,
                _ => return e.location,
            };
        }
    }
}

impl BinaryOp {
    pub fn is_comparison(self) -> bool {
        use BinaryOp::*;
        matches!(self, Lt | Gt | Le | Ge | Eq | Ne)
    }

    pub fn spelling(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Mul => "*",
            Div => "/",
            Rem => "%",
            Add => "+",
            Sub => "-",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            BitAnd => "&",
            BitXor => "^",
            BitOr => "|",
            LogicalAnd => "&&",
            LogicalOr => "||",
        }
    }
}

/// One step of `__builtin_offsetof`'s member designator.
#[derive(Debug, Clone)]
pub enum OffsetofStep {
    /// A member.
    Member(Name),
    /// `[index]`.
    Index(Expr),
}

#[derive(Debug, Clone)]
pub enum ExprKind {
    Ident(Name),
    IntLiteral(Name),
    FloatLiteral(Name),
    CharLiteral(Name),
    /// C++'s `true` and `false`.
    BoolLiteral(bool),
    /// C++'s lambda expression.
    Lambda(Box<Lambda>),
    /// C++'s `nullptr`.
    Nullptr,
    /// C++'s `this`.
    This,
    /// C++'s `name<T, ...>`: a function template with explicit template
    /// arguments, as a call's callee.
    TemplateId(Name, Vec<TemplateArg>),
    /// C++'s `Class::name` or `Template<T>::name`, as a call's callee: a
    /// static member function.
    Qualified(Name, Option<Vec<TemplateArg>>, Name),
    /// Adjacent literals joined, quotes and prefix kept.
    StringLiteral(String),
    Unary(UnaryOp, Box<Expr>),
    // The operands of a node share one allocation: half the allocations
    // and frees of separate boxes.
    Binary(BinaryOp, Box<(Expr, Expr)>),
    /// `a = b` (`None`) or `a op= b`.
    Assign(Option<BinaryOp>, Box<(Expr, Expr)>),
    Conditional(Box<(Expr, Expr, Expr)>),
    Comma(Box<(Expr, Expr)>),
    /// A call, and where its closing `)` is (an offset in the file of the
    /// call's location, its `(`), where clang reports missing arguments.
    /// An offset rather than a location keeps every expression 56 bytes.
    Call(Box<Expr>, Vec<Expr>, u32),
    Index(Box<(Expr, Expr)>),
    /// `a.b` or, with `arrow`, `a->b`.
    Member {
        base: Box<Expr>,
        name: Name,
        /// Where the member name is (the expression's location is the `.`
        /// or `->`).
        name_location: Location,
        arrow: bool,
    },
    Cast(Box<TypeName>, Box<Expr>),
    /// `(float4)(a, b.xy, c)`: a cast to a vector type of a parenthesised list,
    /// and the offset of the list's `(` (in the file of the expression's
    /// location).
    VectorLiteral(Box<TypeName>, Vec<Expr>, u32),
    /// `(T){...}`
    CompoundLiteral(Box<TypeName>, Box<Initializer>),
    /// C++'s `{...}` where its context gives the type: `return {a, b};`.
    BracedList(Box<Initializer>),
    SizeofExpr(Box<Expr>),
    SizeofType(Box<TypeName>),
    AlignofType(Box<TypeName>),
    /// `__alignof__ x`, `_Alignof(x)`: a GNU extension clang accepts.
    AlignofExpr(Box<Expr>),
    /// `__builtin_offsetof(type, member.path[i])`.
    Offsetof(Box<TypeName>, Vec<OffsetofStep>),
    VecStepExpr(Box<Expr>),
    VecStepType(Box<TypeName>),
    /// C++'s `pattern...` in an argument list: the pattern once per
    /// element of the parameter packs it names.
    PackExpansion(Arc<Expr>),
    /// Element `index` of a pack expansion's pattern: what the checker
    /// makes of a `PackExpansion` in an argument list, never the parser.
    PackElement(Arc<Expr>, u32),
    /// C++'s `sizeof...(pack)`, and where the pack's name is.
    SizeofPack(Name, Location),
    /// C++'s fold expression, `(pattern op ...)`, `(... op pattern)`,
    /// `(a op ... op b)`.
    Fold(Box<Fold>),
    /// C++'s placement `new (place) T(args)`.
    New(Box<New>),
    /// C++'s `a.name<T>` or `a->name<T>`: a member function template with
    /// template arguments, as a call's callee.
    MemberTemplateId(Box<MemberTemplateId>),
}

/// `base.name<args>` (`arrow`: `base->name<args>`).
#[derive(Debug, Clone)]
pub struct MemberTemplateId {
    pub base: Expr,
    pub name: Name,
    pub arrow: bool,
    pub args: Vec<TemplateArg>,
}

/// A placement new-expression: `new (place) T`, `new (place) T(args)` or
/// `new (place) T{items}`.
#[derive(Debug, Clone)]
pub struct New {
    /// The allocation function's arguments after the size: `place`.
    pub placement: Vec<Expr>,
    /// The type of the object made.
    pub ty: TypeName,
    pub init: NewInit,
}

/// How a new-expression initializes its object.
#[derive(Debug, Clone)]
pub enum NewInit {
    /// `new (p) T`: default-initialized (constructed, or left as it is).
    Default,
    /// `new (p) T(args)`, and where the `(` is.
    Parens(Vec<Expr>, Location),
    /// `new (p) T{items}`.
    Braces(Initializer),
}

/// A fold expression: the operands on either side of its `...`, one of
/// them the pattern (the one that names a parameter pack), the other,
/// when there are both, the initial value.
#[derive(Debug, Clone)]
pub struct Fold {
    pub op: FoldOp,
    pub left: Option<Expr>,
    pub right: Option<Expr>,
    /// Where the `...` is.
    pub ellipsis: Location,
}

/// The operator of a fold expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldOp {
    Binary(BinaryOp),
    Comma,
}
