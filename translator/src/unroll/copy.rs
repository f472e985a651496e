//! Copies of a loop body: new statements and expressions appended to the
//! function's arenas, each node copied (the lowering may rely on every
//! expression of a body being its own), with the loop's counter, where it
//! is known, read as a constant. Integer operations whose operands all
//! became constants are folded to one, so `acc[i][j]` and `acc[i * 4 + 1]`
//! index with constants when `i` and `j` are known.

use super::evaluate::{evaluate, integer_scalar};
use crate::hir::SwitchCase;
use crate::hir::{Block, Expr, ExprId, ExprKind as H, Function, LocalId, Stmt, StmtId, StmtKind};
use crate::int_constant::IntConstant;

/// Copies statements of one function, reading `counter` as `value` where
/// it is set.
pub(super) struct Copier<'f> {
    pub f: &'f mut Function,
    pub known: Option<(LocalId, IntConstant)>,
}

impl Copier<'_> {
    pub(super) fn block(&mut self, block: &[StmtId]) -> Block {
        block.iter().map(|&s| self.stmt(s)).collect()
    }

    pub(super) fn stmt(&mut self, s: StmtId) -> StmtId {
        crate::stack::guard(|| {
            let span = self.f.stmts[s].span;
            let kind = match &self.f.stmts[s].kind {
                &StmtKind::Expr(e) => StmtKind::Expr(self.expr(e)),
                &StmtKind::Init(local, e) => StmtKind::Init(local, self.expr(e)),
                StmtKind::If(c, a, b) => {
                    let (c, a, b) = (*c, a.clone(), b.clone());
                    StmtKind::If(self.expr(c), self.block(&a), self.block(&b))
                }
                StmtKind::Loop {
                    cond,
                    body,
                    step,
                    test_first,
                    unroll,
                } => {
                    let (cond, body, step) = (*cond, body.clone(), *step);
                    let (test_first, unroll) = (*test_first, *unroll);
                    StmtKind::Loop {
                        cond: cond.map(|c| self.expr(c)),
                        body: self.block(&body),
                        step: step.map(|e| self.expr(e)),
                        test_first,
                        unroll,
                    }
                }
                StmtKind::Switch(value, cases) => {
                    let value = *value;
                    let cases: Vec<(Vec<u64>, bool, Block)> = cases
                        .iter()
                        .map(|c| (c.values.clone(), c.is_default, c.body.clone()))
                        .collect();
                    let value = self.expr(value);
                    let cases = cases
                        .into_iter()
                        .map(|(values, is_default, body)| SwitchCase {
                            values,
                            is_default,
                            body: self.block(&body),
                        })
                        .collect();
                    StmtKind::Switch(value, cases)
                }
                StmtKind::Break => StmtKind::Break,
                StmtKind::Continue => StmtKind::Continue,
                &StmtKind::Return(value) => StmtKind::Return(value.map(|v| self.expr(v))),
                StmtKind::Block(b) => {
                    let b = b.clone();
                    StmtKind::Block(self.block(&b))
                }
                &StmtKind::Goto(label) => StmtKind::Goto(label),
                &StmtKind::Label(label) => StmtKind::Label(label),
            };
            self.f
                .stmts
                .append(Stmt { kind, span }, naga::Span::UNDEFINED)
        })
    }

    /// A copy of expression `e`, operands first (the arena keeps operands
    /// before their operations).
    pub(super) fn expr(&mut self, e: ExprId) -> ExprId {
        crate::stack::guard(|| {
            let Expr {
                kind,
                ty,
                span,
                contract,
            } = self.f.exprs[e].clone();
            let kind = match (kind, self.known) {
                (H::Local(local), Some((counter, value))) if local == counter => {
                    match integer_scalar(ty) {
                        Some(s) => H::Int(value.converted(s).bits()),
                        None => H::Local(local),
                    }
                }
                (kind, _) => kind.map(&mut |c| self.expr(c)),
            };
            // Operands are folded before their operations, so one level
            // of constants is all a foldable operation has.
            let mut constant_operands = true;
            kind.for_each_child(&mut |&c| {
                constant_operands &= matches!(self.f.exprs[c].kind, H::Int(_));
            });
            let foldable = constant_operands
                && matches!(
                    kind,
                    H::Convert(_)
                        | H::Unary(..)
                        | H::Binary(..)
                        | H::Logical(..)
                        | H::Conditional(..)
                );
            let copy = self.f.exprs.append(
                Expr {
                    kind,
                    ty,
                    span,
                    contract,
                },
                naga::Span::UNDEFINED,
            );
            if foldable {
                if let Some(value) = evaluate(self.f, copy, None) {
                    self.f.exprs[copy].kind = H::Int(value.bits());
                }
            }
            copy
        })
    }
}
