//! Statements: blocks, branches and loops (`switch` is in `switch.rs`).

mod switch;

use crate::hir::{ExprKind as H, StmtId, StmtKind};
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::expressions::Value;
use crate::lower::function::FnBuilder;
use crate::lower::pointers::Place;
use naga::Span;

impl ModuleBuilder<'_> {
    pub(super) fn statements(&mut self, fb: &mut FnBuilder, stmts: &[StmtId]) -> LResult<()> {
        for &s in stmts {
            self.statement(fb, s)?;
        }
        Ok(())
    }

    pub(super) fn nested(&mut self, fb: &mut FnBuilder, stmts: &[StmtId]) -> LResult<naga::Block> {
        fb.blocks.push(naga::Block::new());
        let r = self.statements(fb, stmts);
        let block = fb.blocks.pop().expect("nested block");
        r.map(|()| block)
    }

    pub(super) fn statement(&mut self, fb: &mut FnBuilder, s: StmtId) -> LResult<()> {
        crate::stack::guard(|| {
            let s = fb.stmt(s);
            let location = s.span.location();
            match &s.kind {
                &StmtKind::Expr(e) => {
                    self.expr(fb, e)?;
                }
                &StmtKind::Init(local, value) => {
                    let location = fb.expr(value).span.location();
                    let v = match fb.expr(value).kind {
                        // An array of pointers: its elements by its roots.
                        H::InitList(ref items) if fb.stored.get(&local).is_some() => {
                            let list = self.pointer_array_list(fb, local, items, location)?;
                            Value::Plain(list)
                        }
                        _ => self.expr(fb, value)?,
                    };
                    self.store(fb, Place::PointerVar(local), v, location, Some(local))?;
                }
                StmtKind::If(cond, then, otherwise) => {
                    let condition = self.condition(fb, *cond)?;
                    let accept = self.nested(fb, then)?;
                    let reject = self.nested(fb, otherwise)?;
                    fb.push(naga::Statement::If {
                        condition,
                        accept,
                        reject,
                    });
                }
                StmtKind::Loop {
                    cond,
                    body,
                    step,
                    test_first,
                    ..
                } => {
                    fb.blocks.push(naga::Block::new());
                    if let (&Some(c), true) = (cond, test_first) {
                        let c = self.condition(fb, c)?;
                        let not = fb.unary(naga::UnaryOperator::LogicalNot, c);
                        let mut exit = naga::Block::new();
                        exit.push(naga::Statement::Break, Span::UNDEFINED);
                        fb.push(naga::Statement::If {
                            condition: not,
                            accept: exit,
                            reject: naga::Block::new(),
                        });
                    }
                    let r = self.statements(fb, body);
                    let body_block = fb.blocks.pop().expect("loop body");
                    r?;
                    fb.blocks.push(naga::Block::new());
                    let mut break_if = None;
                    let r = (|| {
                        if let &Some(step) = step {
                            self.expr(fb, step)?;
                        }
                        if let (&Some(c), false) = (cond, test_first) {
                            let c = self.condition(fb, c)?;
                            break_if = Some(fb.unary(naga::UnaryOperator::LogicalNot, c));
                        }
                        Ok(())
                    })();
                    let continuing = fb.blocks.pop().expect("continuing");
                    r?;
                    fb.push(naga::Statement::Loop {
                        body: body_block,
                        continuing,
                        break_if,
                    });
                }
                StmtKind::Break => fb.push(naga::Statement::Break),
                StmtKind::Continue => fb.push(naga::Statement::Continue),
                &StmtKind::Return(value) => {
                    let value = match value {
                        Some(v) => match self.expr(fb, v)? {
                            Value::Plain(h) => Some(h),
                            Value::Pointer(p) => Some(self.return_pointer(fb, p, location)?),
                            Value::Void => {
                                return Err(self.error(location, "returning a void value"))
                            }
                        },
                        None => None,
                    };
                    fb.push(naga::Statement::Return { value });
                }
                StmtKind::Switch(value, cases) => self.switch(fb, *value, cases)?,
                StmtKind::Block(stmts) => {
                    let block = self.nested(fb, stmts)?;
                    fb.push(naga::Statement::Block(block));
                }
                StmtKind::Goto(_) | StmtKind::Label(_) => {
                    unreachable!("the checker's `gotos::eliminate` leaves no goto or label")
                }
            }
            Ok(())
        })
    }
}
