//! The checked program: every name resolved, every expression typed, every
//! implicit conversion explicit. `check` builds it from the AST and `lower`
//! turns it into naga IR, so the lowering never has to reason about C's
//! conversion rules.

use crate::ast::{AddressSpace, BinaryOp};
use crate::builtins::Builtin;
use crate::diagnostic::Location;
use crate::reflect::AddressQualifier;
use crate::types::{Record, Type};
use std::rc::Rc;

pub type LocalId = usize;
pub type FunctionId = usize;
pub type GlobalId = usize;

#[derive(Debug, Default)]
pub struct Program {
    pub functions: Vec<Function>,
    /// Program-scope variables (`__constant` tables; `__global` from 2.0,
    /// with the `static` variables of functions).
    pub globals: Vec<Global>,
    /// Every struct and union type, by id.
    pub records: Vec<Rc<Record>>,
    /// Program-scope typedefs in declaration order, with the alignment an
    /// attribute set on them (for layout queries).
    pub typedefs: Vec<(Rc<str>, Type, Option<u64>)>,
}

#[derive(Debug)]
pub struct Global {
    pub name: Rc<str>,
    pub ty: Type,
    /// `Constant` or `Global`.
    pub space: AddressSpace,
    pub init: Option<Expr>,
    pub location: Location,
}

#[derive(Debug)]
pub struct Function {
    pub name: Rc<str>,
    /// Parameter types, known from the first declaration on, so calls can
    /// precede the definition.
    pub signature: Vec<Type>,
    /// The first `params.len()` locals are the parameters.
    pub params: Vec<LocalId>,
    pub locals: Vec<Local>,
    pub ret: Type,
    pub body: Vec<Stmt>,
    /// Set for `__kernel` functions.
    pub kernel: Option<KernelInfo>,
    /// False for a prototype never defined.
    pub defined: bool,
    pub location: Location,
}

#[derive(Debug)]
pub struct Local {
    pub name: Rc<str>,
    pub ty: Type,
    /// `Private`, or `Local`/`Constant` for such variables of a kernel.
    pub space: AddressSpace,
    /// Declared `const` (the variable itself, not a pointee).
    pub is_const: bool,
    pub location: Location,
}

/// What `-cl-kernel-arg-info` and reflection report about a kernel.
#[derive(Debug, Default)]
pub struct KernelInfo {
    pub args: Vec<KernelArgInfo>,
    pub required_work_group_size: Option<[u32; 3]>,
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
pub enum Stmt {
    Expr(Expr),
    /// A declaration with an initialiser already converted to the local's
    /// type.
    Init(LocalId, Expr),
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    /// Every C loop: `while` and `for` test first, `do` tests after the body;
    /// `step` runs after the body and after `continue`.
    Loop {
        cond: Option<Expr>,
        body: Vec<Stmt>,
        step: Option<Expr>,
        test_first: bool,
    },
    /// `switch`: the body split at its top-level `case`/`default` labels;
    /// control falls from one case into the next unless it breaks.
    Switch(Expr, Vec<SwitchCase>),
    Break,
    Continue,
    Return(Option<Expr>, Location),
    Block(Vec<Stmt>),
}

#[derive(Debug)]
pub struct SwitchCase {
    /// The labels before this group: values (already converted to the
    /// controlling type's bits) and whether `default` is among them.
    pub values: Vec<u64>,
    pub is_default: bool,
    pub body: Vec<Stmt>,
}

#[derive(Debug, Clone)]
pub struct Expr {
    pub kind: ExprKind,
    /// The value's type (array lvalues keep their array type; `Decay`
    /// makes them pointers).
    pub ty: Type,
    pub location: Location,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Negate,
    BitNot,
    /// `!x`: an `int` 0/1 for scalars, -1/0 per lane for vectors.
    LogicalNot,
}

#[derive(Debug, Clone)]
pub enum ExprKind {
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
    InitList(Vec<(Vec<u64>, Expr)>),
    /// Converts the operand to `ty` (C conversion, including to/from bool).
    Convert(Box<Expr>),
    /// A scalar widened to the vector type `ty`.
    Splat(Box<Expr>),
    Unary(UnaryOp, Box<Expr>),
    /// Both operands already have the operation type; comparisons have type
    /// `int` (scalars) or the signed integer vector (vectors). For shifts the
    /// right operand has the left's type.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `&&` / `||` on two operands that are compared with zero: scalars
    /// with short-circuit evaluation (type `int`), or vectors of one type
    /// lane by lane, both evaluated (the signed integer vector result).
    Logical(BinaryOp, Box<Expr>, Box<Expr>),
    /// `c ? a : b`, evaluating only the chosen side.
    Conditional(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `target = value`; the value has the target's type.
    Assign(Box<Expr>, Box<Expr>),
    /// `target op= value`: the target is read, converted to `op_ty`,
    /// combined with `value` (already `op_ty`), converted back and stored.
    CompoundAssign {
        op: BinaryOp,
        target: Box<Expr>,
        value: Box<Expr>,
        op_ty: Type,
    },
    /// `++`/`--`, prefix or postfix, on an arithmetic or pointer lvalue.
    IncDec {
        target: Box<Expr>,
        increment: bool,
        prefix: bool,
    },
    /// `base[index]` where base is a pointer or an array lvalue; an lvalue.
    Index(Box<Expr>, Box<Expr>),
    /// `*pointer`; an lvalue.
    Deref(Box<Expr>),
    /// `&lvalue`.
    AddressOf(Box<Expr>),
    /// Pointer plus a signed element count (`p + n`, `p - n`).
    PointerOffset(Box<Expr>, Box<Expr>),
    /// A pointer reinterpreted as pointing to another type (`(uint *)p`).
    PointerCast(Box<Expr>),
    /// An array lvalue used as a value: a pointer to its first element.
    Decay(Box<Expr>),
    Call(FunctionId, Vec<Expr>),
    Builtin(Builtin, Vec<Expr>),
    /// `printf(format, ...)`.
    Printf(Vec<Expr>),
    Comma(Box<Expr>, Box<Expr>),
    /// Lanes of a vector, by index; an lvalue when the base is one and no
    /// lane repeats.
    Swizzle(Box<Expr>, Vec<u8>),
    /// Field `index` of a record; an lvalue when the base is one.
    Member(Box<Expr>, usize),
    /// `(float4)(a, b.xy, c)`: parts are scalars or vectors of the element
    /// type whose lanes add up to the vector's.
    VectorLiteral(Vec<Expr>),
}

impl Expr {
    pub fn new(kind: ExprKind, ty: Type, location: Location) -> Self {
        Expr { kind, ty, location }
    }
}

impl Expr {
    /// Calls `f` on each direct sub-expression.
    pub fn for_each_child<'s>(&'s self, f: &mut dyn FnMut(&'s Expr)) {
        match &self.kind {
            ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Local(_)
            | ExprKind::Global(_)
            | ExprKind::Str(_) => {}
            ExprKind::Convert(e)
            | ExprKind::Splat(e)
            | ExprKind::Unary(_, e)
            | ExprKind::Deref(e)
            | ExprKind::AddressOf(e)
            | ExprKind::Decay(e)
            | ExprKind::PointerCast(e)
            | ExprKind::Swizzle(e, _)
            | ExprKind::Member(e, _)
            | ExprKind::IncDec { target: e, .. } => f(e),
            ExprKind::Binary(_, a, b)
            | ExprKind::Logical(_, a, b)
            | ExprKind::Assign(a, b)
            | ExprKind::Index(a, b)
            | ExprKind::PointerOffset(a, b)
            | ExprKind::Comma(a, b)
            | ExprKind::CompoundAssign {
                target: a,
                value: b,
                ..
            } => {
                f(a);
                f(b);
            }
            ExprKind::Conditional(c, a, b) => {
                f(c);
                f(a);
                f(b);
            }
            ExprKind::Call(_, args)
            | ExprKind::Builtin(_, args)
            | ExprKind::Printf(args)
            | ExprKind::VectorLiteral(args) => args.iter().for_each(f),
            ExprKind::InitList(items) => items.iter().for_each(|(_, e)| f(e)),
        }
    }
}

impl Stmt {
    /// Calls `on_expr` on each expression directly in this statement and
    /// `on_stmt` on each directly nested statement.
    pub fn for_each_child<'s>(
        &'s self,
        on_expr: &mut dyn FnMut(&'s Expr),
        on_stmt: &mut dyn FnMut(&'s Stmt),
    ) {
        match self {
            Stmt::Expr(e) | Stmt::Init(_, e) => on_expr(e),
            Stmt::If(c, a, b) => {
                on_expr(c);
                a.iter().chain(b).for_each(on_stmt);
            }
            Stmt::Loop {
                cond, body, step, ..
            } => {
                cond.iter().chain(step).for_each(&mut *on_expr);
                body.iter().for_each(on_stmt);
            }
            Stmt::Switch(v, cases) => {
                on_expr(v);
                cases.iter().flat_map(|c| &c.body).for_each(on_stmt);
            }
            Stmt::Return(v, _) => v.iter().for_each(on_expr),
            Stmt::Block(stmts) => stmts.iter().for_each(on_stmt),
            Stmt::Break | Stmt::Continue => {}
        }
    }
}
