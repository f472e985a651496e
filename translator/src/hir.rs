//! The checked program: every name resolved, every expression typed, every
//! implicit conversion explicit. `check` builds it from the AST and `lower`
//! turns it into naga IR, so the lowering never has to reason about C's
//! conversion rules.
//!
//! It is laid out as naga's IR is: each function owns arenas of its locals,
//! expressions and statements, which refer to one another by typed
//! [`Handle`]s; types are interned once per program in [`Types`]; names
//! are interned [`Symbol`]s; every node has a [`Span`]. Nothing in it is
//! reference-counted, so a program can be shared by the threads that lower
//! its kernels (see the assertion at the end of this file).
//!
//! Expression kinds are generic over how children are held
//! ([`ExprKind<E>`]): here as handles into the function's arena, and in the
//! checker as a tree it can fold and rewrite while it types an expression
//! (see `check::tree`), before the finished tree is appended here.

use crate::ast::{AddressSpace, BinaryOp};
use crate::builtins::Builtin;
use crate::diagnostic::Span;
use crate::lexer::FxBuildHasher;
use crate::reflect::AddressQualifier;
use crate::types::{Type, Types};
use naga::{Arena, Handle};
use std::collections::HashMap;

pub type FunctionId = Handle<Function>;
pub type GlobalId = Handle<Global>;
pub type LocalId = Handle<Local>;
pub type ExprId = Handle<Expr>;
pub type StmtId = Handle<Stmt>;

/// Statements in order.
pub type Block = Vec<StmtId>;

/// An interned name of the program (functions, variables, members, tags):
/// equal spellings are one symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symbol(u32);

impl Symbol {
    /// The empty name of anonymous records, members and parameters.
    pub const EMPTY: Symbol = Symbol(0);
}

/// The spellings of a program's [`Symbol`]s.
pub struct Names {
    spellings: Vec<Box<str>>,
    symbols: HashMap<Box<str>, Symbol, FxBuildHasher>,
}

impl Default for Names {
    fn default() -> Self {
        let mut symbols = HashMap::default();
        symbols.insert("".into(), Symbol::EMPTY);
        Names {
            spellings: vec!["".into()],
            symbols,
        }
    }
}

impl Names {
    /// The symbol spelled `spelling`, made on first use.
    pub fn intern(&mut self, spelling: &str) -> Symbol {
        if let Some(&symbol) = self.symbols.get(spelling) {
            return symbol;
        }
        let symbol = Symbol(self.spellings.len() as u32);
        self.spellings.push(spelling.into());
        self.symbols.insert(spelling.into(), symbol);
        symbol
    }
}

impl std::fmt::Debug for Names {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(&self.spellings).finish()
    }
}

impl std::ops::Index<Symbol> for Names {
    type Output = str;
    fn index(&self, symbol: Symbol) -> &str {
        &self.spellings[symbol.0 as usize]
    }
}

#[derive(Debug)]
pub struct Program {
    pub names: Names,
    pub types: Types,
    pub functions: Arena<Function>,
    /// Program-scope variables (`__constant` tables; `__global` from 2.0,
    /// with the `static` variables of functions).
    pub globals: Arena<Global>,
    /// The expressions of the globals' initialisers.
    pub global_exprs: Arena<Expr>,
    /// Program-scope typedefs in declaration order, with the alignment an
    /// attribute set on them (for layout queries).
    pub typedefs: Vec<(Symbol, Type, Option<u64>)>,
}

impl Program {
    /// An empty program for a device with `address_bits`-bit pointers.
    pub fn new(address_bits: u32) -> Self {
        Program {
            names: Names::default(),
            types: Types::new(address_bits),
            functions: Arena::new(),
            globals: Arena::new(),
            global_exprs: Arena::new(),
            typedefs: Vec::new(),
        }
    }

    /// `ty` as clang spells it in diagnostics.
    pub fn display(&self, ty: Type) -> String {
        self.types.display(ty, &self.names)
    }
}

#[derive(Debug)]
pub struct Global {
    pub name: Symbol,
    pub ty: Type,
    /// `Constant` or `Global`.
    pub space: AddressSpace,
    /// An expression of [`Program::global_exprs`].
    pub init: Option<ExprId>,
    pub span: Span,
}

#[derive(Debug)]
pub struct Function {
    pub name: Symbol,
    /// Parameter types, known from the first declaration on, so calls can
    /// precede the definition.
    pub signature: Vec<Type>,
    /// The first locals, one per parameter.
    pub params: Vec<LocalId>,
    pub locals: Arena<Local>,
    pub exprs: Arena<Expr>,
    pub stmts: Arena<Stmt>,
    pub ret: Type,
    pub body: Block,
    /// Set for `__kernel` functions.
    pub kernel: Option<KernelInfo>,
    /// False for a prototype never defined.
    pub defined: bool,
    pub span: Span,
}

impl Function {
    /// How deep its statements and their expressions nest together, the
    /// body's statements at 1: what bounds the nesting of the blocks it
    /// is lowered to (`&&`, `||` and `?:` lower to blocks too), which
    /// naga's validator and writer and the drop of a naga function walk by
    /// recursion with no guard per level.
    pub fn nesting_depth(&self) -> usize {
        // Operands come before their operations in the arena.
        let mut expr_depth = vec![0usize; self.exprs.len()];
        for (id, e) in self.exprs.iter() {
            let mut deepest = 0;
            e.kind
                .for_each_child(&mut |c| deepest = deepest.max(expr_depth[c.index()]));
            expr_depth[id.index()] = deepest + 1;
        }
        let mut deepest = 0;
        let mut pending: Vec<(StmtId, usize)> = self.body.iter().map(|&s| (s, 1)).collect();
        while let Some((s, depth)) = pending.pop() {
            let mut here = depth;
            self.stmts[s].kind.for_each_child(
                &mut |e| here = here.max(depth + expr_depth[e.index()]),
                &mut |c| pending.push((c, depth + 1)),
            );
            deepest = deepest.max(here);
        }
        deepest
    }

    /// A function declared with `signature`, not defined yet.
    pub fn declared(name: Symbol, signature: Vec<Type>, ret: Type, span: Span) -> Self {
        Function {
            name,
            signature,
            params: Vec::new(),
            locals: Arena::new(),
            exprs: Arena::new(),
            stmts: Arena::new(),
            ret,
            body: Block::new(),
            kernel: None,
            defined: false,
            span,
        }
    }
}

#[derive(Debug)]
pub struct Local {
    pub name: Symbol,
    pub ty: Type,
    /// `Private`, or `Local`/`Constant` for such variables of a kernel.
    pub space: AddressSpace,
    /// Declared `const` (the variable itself, not a pointee).
    pub is_const: bool,
    pub span: Span,
}

/// What `-cl-kernel-arg-info` and reflection report about a kernel.
#[derive(Debug, Default)]
pub struct KernelInfo {
    pub args: Vec<KernelArgInfo>,
    pub required_work_group_size: Option<[u32; 3]>,
    /// `intel_reqd_sub_group_size(n)`.
    pub required_sub_group_size: Option<u32>,
    pub attributes: String,
}

#[derive(Debug)]
pub struct KernelArgInfo {
    pub type_name: String,
    pub address: AddressQualifier,
    pub is_const: bool,
    pub is_restrict: bool,
    pub is_volatile: bool,
}

#[derive(Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Debug)]
pub enum StmtKind {
    Expr(ExprId),
    /// A declaration with an initialiser already converted to the local's
    /// type.
    Init(LocalId, ExprId),
    If(ExprId, Block, Block),
    /// Every C loop: `while` and `for` test first, `do` tests after the body;
    /// `step` runs after the body and after `continue`.
    Loop {
        cond: Option<ExprId>,
        body: Block,
        step: Option<ExprId>,
        test_first: bool,
        /// What the source asked of its unrolling (see `unroll`).
        unroll: UnrollHint,
    },
    /// `switch`: the body split at its top-level `case`/`default` labels;
    /// control falls from one case into the next unless it breaks.
    Switch(ExprId, Vec<SwitchCase>),
    Break,
    Continue,
    Return(Option<ExprId>),
    Block(Block),
    /// `goto label;`. Only the checker makes it, and `gotos::eliminate`
    /// rewrites every function that has one before it leaves the checker,
    /// so the analysis and the lowering never see it.
    Goto(Label),
    /// Where `label:` stands; the statement it labels follows it in the
    /// same block. Gone with the gotos.
    Label(Label),
}

/// What the source asked of a loop's unrolling: `#pragma unroll [N]`,
/// `#pragma nounroll` or `__attribute__((opencl_unroll_hint[(N)]))` just
/// before it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UnrollHint {
    /// Nothing: the translator decides.
    #[default]
    Unspecified,
    /// Unroll completely (`#pragma unroll`, `opencl_unroll_hint`).
    Full,
    /// Unroll by this many copies of the body, at least 2.
    Count(u32),
    /// Keep the loop (`#pragma nounroll`, `#pragma unroll 1`).
    Never,
}

/// A label of a function, numbered in the order the checker first meets
/// its name (in a `goto` or where it is defined).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Label(pub u32);

#[derive(Debug)]
pub struct SwitchCase {
    /// The labels before this group: values (already converted to the
    /// controlling type's bits) and whether `default` is among them.
    pub values: Vec<u64>,
    pub is_default: bool,
    pub body: Block,
}

#[derive(Debug, Clone)]
pub struct Expr {
    pub kind: ExprKind,
    /// The value's type (array lvalues keep their array type; `Decay`
    /// makes them pointers).
    pub ty: Type,
    pub span: Span,
    /// Whether a floating-point `+`/`-` (or `+=`/`-=`) here may be fused
    /// with a product operand into one multiply-add: false where
    /// `#pragma OPENCL FP_CONTRACT OFF` covers the expression and neither
    /// `-cl-mad-enable` nor `-cl-fast-relaxed-math` allows it anyway.
    pub contract: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Negate,
    BitNot,
    /// `!x`: an `int` 0/1 for scalars, -1/0 per lane for vectors.
    LogicalNot,
}

/// An expression's operation, with its operands held as `E`: [`ExprId`]s
/// in the HIR.
#[derive(Debug, Clone)]
pub enum ExprKind<E = ExprId> {
    /// An integer constant of `ty`, as its two's-complement bits.
    Int(u64),
    Float(f64),
    Local(LocalId),
    /// A program-scope variable; an lvalue.
    Global(GlobalId),
    /// A string literal: a `__constant char` array holding these bytes and
    /// a terminating zero.
    Str(Vec<u8>),
    /// `{ ... }` for an aggregate, vector or scalar of `ty`: each value with
    /// the path of member/element indices it initialises; what is not
    /// listed is zero.
    InitList(Vec<(Vec<u64>, E)>),
    /// Converts the operand to `ty` (C conversion, including to/from bool).
    Convert(E),
    /// A scalar widened to the vector type `ty`.
    Splat(E),
    Unary(UnaryOp, E),
    /// Both operands already have the operation type; comparisons have type
    /// `int` (scalars) or the signed integer vector (vectors). For shifts the
    /// right operand has the left's type.
    Binary(BinaryOp, E, E),
    /// `&&` / `||` on two operands that are compared with zero: scalars
    /// with short-circuit evaluation (type `int`), or vectors of one type
    /// lane by lane, both evaluated (the signed integer vector result).
    Logical(BinaryOp, E, E),
    /// `c ? a : b`, evaluating only the chosen side.
    Conditional(E, E, E),
    /// `target = value`; the value has the target's type.
    Assign(E, E),
    /// `target op= value`: the target is read, converted to `op_ty`,
    /// combined with `value` (already `op_ty`), converted back and stored.
    CompoundAssign {
        op: BinaryOp,
        target: E,
        value: E,
        op_ty: Type,
    },
    /// `++`/`--`, prefix or postfix, on an arithmetic or pointer lvalue.
    IncDec {
        target: E,
        increment: bool,
        prefix: bool,
    },
    /// `base[index]` where base is a pointer or an array lvalue; an lvalue.
    Index(E, E),
    /// `*pointer`; an lvalue.
    Deref(E),
    /// `&lvalue`.
    AddressOf(E),
    /// Pointer plus a signed element count (`p + n`, `p - n`).
    PointerOffset(E, E),
    /// A pointer reinterpreted as pointing to another type (`(uint *)p`).
    PointerCast(E),
    /// An array lvalue used as a value: a pointer to its first element.
    Decay(E),
    Call(FunctionId, Vec<E>),
    Builtin(Builtin, Vec<E>),
    /// `printf(format, ...)`.
    Printf(Vec<E>),
    Comma(E, E),
    /// Lanes of a vector, by index; an lvalue when the base is one and no
    /// lane repeats.
    Swizzle(E, Vec<u8>),
    /// Field `index` of a record; an lvalue when the base is one.
    Member(E, usize),
    /// `(float4)(a, b.xy, c)`: parts are scalars or vectors of the element
    /// type whose lanes add up to the vector's.
    VectorLiteral(Vec<E>),
}

impl<E> ExprKind<E> {
    /// The same operation with each operand passed through `f`, in
    /// evaluation order.
    pub fn map<F>(self, f: &mut impl FnMut(E) -> F) -> ExprKind<F> {
        use ExprKind as K;
        match self {
            K::Int(v) => K::Int(v),
            K::Float(v) => K::Float(v),
            K::Local(l) => K::Local(l),
            K::Global(g) => K::Global(g),
            K::Str(s) => K::Str(s),
            K::InitList(items) => K::InitList(items.into_iter().map(|(p, e)| (p, f(e))).collect()),
            K::Convert(e) => K::Convert(f(e)),
            K::Splat(e) => K::Splat(f(e)),
            K::Unary(op, e) => K::Unary(op, f(e)),
            K::Binary(op, a, b) => {
                let a = f(a);
                K::Binary(op, a, f(b))
            }
            K::Logical(op, a, b) => {
                let a = f(a);
                K::Logical(op, a, f(b))
            }
            K::Conditional(c, a, b) => {
                let c = f(c);
                let a = f(a);
                K::Conditional(c, a, f(b))
            }
            K::Assign(a, b) => {
                let a = f(a);
                K::Assign(a, f(b))
            }
            K::CompoundAssign {
                op,
                target,
                value,
                op_ty,
            } => {
                let target = f(target);
                K::CompoundAssign {
                    op,
                    target,
                    value: f(value),
                    op_ty,
                }
            }
            K::IncDec {
                target,
                increment,
                prefix,
            } => K::IncDec {
                target: f(target),
                increment,
                prefix,
            },
            K::Index(a, b) => {
                let a = f(a);
                K::Index(a, f(b))
            }
            K::Deref(e) => K::Deref(f(e)),
            K::AddressOf(e) => K::AddressOf(f(e)),
            K::PointerOffset(a, b) => {
                let a = f(a);
                K::PointerOffset(a, f(b))
            }
            K::PointerCast(e) => K::PointerCast(f(e)),
            K::Decay(e) => K::Decay(f(e)),
            K::Call(id, args) => K::Call(id, args.into_iter().map(f).collect()),
            K::Builtin(b, args) => K::Builtin(b, args.into_iter().map(f).collect()),
            K::Printf(args) => K::Printf(args.into_iter().map(f).collect()),
            K::Comma(a, b) => {
                let a = f(a);
                K::Comma(a, f(b))
            }
            K::Swizzle(e, lanes) => K::Swizzle(f(e), lanes),
            K::Member(e, field) => K::Member(f(e), field),
            K::VectorLiteral(parts) => K::VectorLiteral(parts.into_iter().map(f).collect()),
        }
    }

    /// Calls `f` on each operand, in evaluation order.
    pub fn for_each_child<'s>(&'s self, f: &mut impl FnMut(&'s E)) {
        use ExprKind as K;
        match self {
            K::Int(_) | K::Float(_) | K::Local(_) | K::Global(_) | K::Str(_) => {}
            K::Convert(e)
            | K::Splat(e)
            | K::Unary(_, e)
            | K::Deref(e)
            | K::AddressOf(e)
            | K::Decay(e)
            | K::PointerCast(e)
            | K::Swizzle(e, _)
            | K::Member(e, _)
            | K::IncDec { target: e, .. } => f(e),
            K::Binary(_, a, b)
            | K::Logical(_, a, b)
            | K::Assign(a, b)
            | K::Index(a, b)
            | K::PointerOffset(a, b)
            | K::Comma(a, b)
            | K::CompoundAssign {
                target: a,
                value: b,
                ..
            } => {
                f(a);
                f(b);
            }
            K::Conditional(c, a, b) => {
                f(c);
                f(a);
                f(b);
            }
            K::Call(_, args) | K::Builtin(_, args) | K::Printf(args) | K::VectorLiteral(args) => {
                args.iter().for_each(f)
            }
            K::InitList(items) => items.iter().for_each(|(_, e)| f(e)),
        }
    }
}

impl StmtKind {
    /// Calls `on_expr` on each expression directly in this statement and
    /// `on_stmt` on each directly nested statement.
    pub fn for_each_child(
        &self,
        on_expr: &mut impl FnMut(ExprId),
        on_stmt: &mut impl FnMut(StmtId),
    ) {
        match self {
            StmtKind::Expr(e) | StmtKind::Init(_, e) => on_expr(*e),
            StmtKind::If(c, a, b) => {
                on_expr(*c);
                a.iter().chain(b).for_each(|&s| on_stmt(s));
            }
            StmtKind::Loop {
                cond, body, step, ..
            } => {
                cond.iter().chain(step).for_each(|&e| on_expr(e));
                body.iter().for_each(|&s| on_stmt(s));
            }
            StmtKind::Switch(v, cases) => {
                on_expr(*v);
                cases.iter().flat_map(|c| &c.body).for_each(|&s| on_stmt(s));
            }
            StmtKind::Return(v) => v.iter().for_each(|&e| on_expr(e)),
            StmtKind::Block(stmts) => stmts.iter().for_each(|&s| on_stmt(s)),
            StmtKind::Break | StmtKind::Continue | StmtKind::Goto(_) | StmtKind::Label(_) => {}
        }
    }
}

/// The lowering shares one program between the threads that lower its
/// kernels.
const _: () = {
    const fn shareable<T: Send + Sync>() {}
    shareable::<Program>();
};
