//! C++ `constexpr` function calls in integer constant expressions
//! (`int table[square(4)]`, `static_assert(log2(256) == 8)`, template
//! arguments). The call's overload is chosen as for any call and its
//! arguments are constant expressions; the function's checked body (HIR)
//! is then run on them: integer locals, `if`, loops, `return`, and calls
//! of other `constexpr` functions. Anything else there (memory, floating
//! point, a function not yet defined) makes the call no constant, which is
//! clang's error where a constant is required. Steps and call depth are
//! bounded, so a loop that never ends is no constant either.

use super::*;
use crate::hir::{ExprId, StmtId};
use crate::int_constant::IntConstant;

/// The most statements and expressions one constant evaluation runs.
const STEP_LIMIT: usize = 1 << 20;
/// The deepest chain of `constexpr` calls one evaluation makes.
const DEPTH_LIMIT: usize = 128;

/// How a statement ends.
enum Flow {
    Normal,
    Break,
    Continue,
    Return(IntConstant),
}

/// One evaluation: the steps taken so far.
struct Evaluation {
    steps: usize,
}

/// A running call: its function and the values of its locals.
struct Frame<'f> {
    function: &'f hir::Function,
    locals: HashMap<LocalId, IntConstant>,
    depth: usize,
}

impl Checker<'_> {
    /// The value of `call`, a call of a `constexpr` function with constant
    /// arguments; `None` when it is not a constant.
    pub(super) fn constexpr_call(&mut self, call: &ast::Expr) -> Option<IntConstant> {
        let A::Call(_, args, _) = &call.kind else {
            return None;
        };
        // The call is checked for its overload only: it is no call the
        // function makes at run time.
        let calls = self.current.as_ref().map(|f| f.calls.len());
        let checked = self.quietly(|c| c.rvalue(call));
        if let (Some(f), Some(calls)) = (self.current.as_mut(), calls) {
            f.calls.truncate(calls);
        }
        let id = match (&checked.kind, checked.ty) {
            // Folded where it was checked: its arguments were constants.
            (&H::Int(bits), Type::Scalar(s)) => {
                return Some(IntConstant::new(literal::sign_extend(bits, s).into(), s));
            }
            (&H::Call(id, _), _) => id,
            _ => return None,
        };
        if !self.constexpr_functions.contains(&id) {
            return None;
        }
        let signature = self.program.functions[id].signature.clone();
        let mut values = Vec::with_capacity(args.len());
        for (arg, &ty) in args.iter().zip(&signature) {
            let Type::Scalar(s) = ty else { return None };
            values.push(self.constant(arg)?.converted(s));
        }
        let mut evaluation = Evaluation { steps: 0 };
        self.run_constexpr(id, values, 0, &mut evaluation)
    }

    /// A call of `constexpr` function `id` with constant integer arguments
    /// `args` (checked and converted), as the constant it computes, where
    /// it computes one: C++ may run such a call at compile time, and a
    /// recursive one can run nowhere else here.
    pub(super) fn folded_constexpr_call(
        &mut self,
        id: FunctionId,
        args: &[Box<Expr>],
        span: Span,
    ) -> Option<Expr> {
        if !self.constexpr_functions.contains(&id) {
            return None;
        }
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            let (&H::Int(bits), Type::Scalar(s)) = (&a.kind, a.ty) else {
                return None;
            };
            values.push(IntConstant::new(literal::sign_extend(bits, s).into(), s));
        }
        let mut evaluation = Evaluation { steps: 0 };
        let value = self.run_constexpr(id, values, 0, &mut evaluation)?;
        Some(self.int_const(value.value as i64 as u64, Type::Scalar(value.ty), span))
    }

    /// Runs `constexpr` function `id` on `args`.
    fn run_constexpr(
        &self,
        id: FunctionId,
        args: Vec<IntConstant>,
        depth: usize,
        evaluation: &mut Evaluation,
    ) -> Option<IntConstant> {
        let function = &self.program.functions[id];
        if depth > DEPTH_LIMIT || !function.defined || args.len() != function.params.len() {
            return None;
        }
        let Type::Scalar(ret) = function.ret else {
            return None;
        };
        let mut frame = Frame {
            function,
            locals: function.params.iter().copied().zip(args).collect(),
            depth,
        };
        match self.run_block(&mut frame, &function.body, evaluation)? {
            Flow::Return(value) => Some(value.converted(ret)),
            _ => None,
        }
    }

    fn run_block(
        &self,
        frame: &mut Frame,
        block: &[StmtId],
        evaluation: &mut Evaluation,
    ) -> Option<Flow> {
        for &s in block {
            match self.run_stmt(frame, s, evaluation)? {
                Flow::Normal => {}
                flow => return Some(flow),
            }
        }
        Some(Flow::Normal)
    }

    fn run_stmt(&self, frame: &mut Frame, s: StmtId, evaluation: &mut Evaluation) -> Option<Flow> {
        evaluation.steps += 1;
        if evaluation.steps > STEP_LIMIT {
            return None;
        }
        let function = frame.function;
        crate::stack::guard(|| match &function.stmts[s].kind {
            hir::StmtKind::Expr(e) => {
                self.run_expr(frame, *e, evaluation)?;
                Some(Flow::Normal)
            }
            hir::StmtKind::Init(local, e) => {
                let value = self.run_expr(frame, *e, evaluation)?;
                frame.locals.insert(*local, value);
                Some(Flow::Normal)
            }
            hir::StmtKind::If(c, then, otherwise) => {
                let taken = if self.run_expr(frame, *c, evaluation)?.truth() {
                    then
                } else {
                    otherwise
                };
                self.run_block(frame, taken, evaluation)
            }
            hir::StmtKind::Loop {
                cond,
                body,
                step,
                test_first,
                ..
            } => {
                let mut first = true;
                loop {
                    if let (Some(c), true) = (cond, *test_first || !first) {
                        if !self.run_expr(frame, *c, evaluation)?.truth() {
                            return Some(Flow::Normal);
                        }
                    }
                    first = false;
                    match self.run_block(frame, body, evaluation)? {
                        Flow::Break => return Some(Flow::Normal),
                        Flow::Return(value) => return Some(Flow::Return(value)),
                        Flow::Normal | Flow::Continue => {}
                    }
                    if let Some(step) = step {
                        self.run_expr(frame, *step, evaluation)?;
                    }
                    evaluation.steps += 1;
                    if evaluation.steps > STEP_LIMIT {
                        return None;
                    }
                }
            }
            hir::StmtKind::Break => Some(Flow::Break),
            hir::StmtKind::Continue => Some(Flow::Continue),
            hir::StmtKind::Return(Some(e)) => {
                Some(Flow::Return(self.run_expr(frame, *e, evaluation)?))
            }
            hir::StmtKind::Block(block) => self.run_block(frame, block, evaluation),
            _ => None,
        })
    }

    fn run_expr(
        &self,
        frame: &mut Frame,
        e: ExprId,
        evaluation: &mut Evaluation,
    ) -> Option<IntConstant> {
        evaluation.steps += 1;
        if evaluation.steps > STEP_LIMIT {
            return None;
        }
        let function = frame.function;
        let expr = &function.exprs[e];
        let Type::Scalar(ty) = expr.ty else {
            return None;
        };
        if !(ty.is_integer() || ty == Scalar::Bool) {
            return None;
        }
        crate::stack::guard(|| {
            Some(match &expr.kind {
                H::Int(bits) => IntConstant::new(literal::sign_extend(*bits, ty).into(), ty),
                H::Local(local) => *frame.locals.get(local)?,
                H::Global(global) => {
                    let &(value, scalar) = self.global_constants.get(global)?;
                    IntConstant::new(value.into(), scalar).converted(ty)
                }
                H::Convert(x) => self.run_expr(frame, *x, evaluation)?.converted(ty),
                H::Unary(op, x) => {
                    let x = self.run_expr(frame, *x, evaluation)?;
                    let value = match op {
                        hir::UnaryOp::Negate => -x.value,
                        hir::UnaryOp::BitNot => !x.value,
                        hir::UnaryOp::LogicalNot => (!x.truth()).into(),
                    };
                    IntConstant::new(value, ty)
                }
                H::Binary(op, a, b) => {
                    let a = self.run_expr(frame, *a, evaluation)?;
                    let b = self.run_expr(frame, *b, evaluation)?;
                    IntConstant::binary(*op, a, b)?.converted(ty)
                }
                H::Logical(op, a, b) => {
                    let a = self.run_expr(frame, *a, evaluation)?.truth();
                    let value = match (op, a) {
                        (BinaryOp::LogicalAnd, false) => false,
                        (BinaryOp::LogicalOr, true) => true,
                        _ => self.run_expr(frame, *b, evaluation)?.truth(),
                    };
                    IntConstant::new(value.into(), ty)
                }
                H::Conditional(c, a, b) => {
                    let taken = if self.run_expr(frame, *c, evaluation)?.truth() {
                        a
                    } else {
                        b
                    };
                    self.run_expr(frame, *taken, evaluation)?.converted(ty)
                }
                H::Assign(target, value) => {
                    let H::Local(local) = function.exprs[*target].kind else {
                        return None;
                    };
                    let value = self.run_expr(frame, *value, evaluation)?.converted(ty);
                    frame.locals.insert(local, value);
                    value
                }
                H::CompoundAssign {
                    op,
                    target,
                    value,
                    op_ty,
                } => {
                    let (H::Local(local), Type::Scalar(op_ty)) =
                        (&function.exprs[*target].kind, op_ty)
                    else {
                        return None;
                    };
                    let current = frame.locals.get(local)?.converted(*op_ty);
                    let value = self.run_expr(frame, *value, evaluation)?;
                    let result = IntConstant::binary(*op, current, value)?.converted(ty);
                    frame.locals.insert(*local, result);
                    result
                }
                H::IncDec {
                    target,
                    increment,
                    prefix,
                } => {
                    let H::Local(local) = function.exprs[*target].kind else {
                        return None;
                    };
                    let before = *frame.locals.get(&local)?;
                    let after =
                        IntConstant::new(before.value + if *increment { 1 } else { -1 }, ty);
                    frame.locals.insert(local, after);
                    if *prefix {
                        after
                    } else {
                        before
                    }
                }
                H::Comma(a, b) => {
                    self.run_expr(frame, *a, evaluation)?;
                    self.run_expr(frame, *b, evaluation)?
                }
                H::Call(callee, args) => {
                    if !self.constexpr_functions.contains(callee) {
                        return None;
                    }
                    let mut values = Vec::with_capacity(args.len());
                    for &arg in args {
                        values.push(self.run_expr(frame, arg, evaluation)?);
                    }
                    self.run_constexpr(*callee, values, frame.depth + 1, evaluation)?
                }
                _ => return None,
            })
        })
    }
}
