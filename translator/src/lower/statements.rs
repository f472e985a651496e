//! Statements: blocks, branches, loops and `switch`.

use super::*;

impl ModuleBuilder<'_> {
    pub(super) fn statements(&mut self, fb: &mut FnBuilder, stmts: &[Stmt]) -> LResult<()> {
        for s in stmts {
            self.statement(fb, s)?;
        }
        Ok(())
    }

    pub(super) fn nested(&mut self, fb: &mut FnBuilder, stmts: &[Stmt]) -> LResult<naga::Block> {
        fb.blocks.push(naga::Block::new());
        let r = self.statements(fb, stmts);
        let block = fb.blocks.pop().expect("nested block");
        r.map(|()| block)
    }

    pub(super) fn statement(&mut self, fb: &mut FnBuilder, s: &Stmt) -> LResult<()> {
        match s {
            Stmt::Expr(e) => {
                self.expr(fb, e)?;
            }
            Stmt::Init(local, value) => {
                let location = value.location;
                let v = self.expr(fb, value)?;
                self.store(fb, Place::PointerVar(*local), v, location, Some(*local))?;
            }
            Stmt::If(cond, then, otherwise) => {
                let condition = self.condition(fb, cond)?;
                let accept = self.nested(fb, then)?;
                let reject = self.nested(fb, otherwise)?;
                fb.push(naga::Statement::If {
                    condition,
                    accept,
                    reject,
                });
            }
            Stmt::Loop {
                cond,
                body,
                step,
                test_first,
            } => {
                fb.blocks.push(naga::Block::new());
                if let (Some(c), true) = (cond, test_first) {
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
                    if let Some(step) = step {
                        self.expr(fb, step)?;
                    }
                    if let (Some(c), false) = (cond, test_first) {
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
            Stmt::Break => fb.push(naga::Statement::Break),
            Stmt::Continue => fb.push(naga::Statement::Continue),
            Stmt::Return(value, location) => {
                let value = match value {
                    Some(v) => match self.expr(fb, v)? {
                        Value::Plain(h) => Some(h),
                        Value::Pointer(p) => Some(self.return_pointer(fb, p, *location)?),
                        Value::Void => return Err(self.error(*location, "returning a void value")),
                    },
                    None => None,
                };
                fb.push(naga::Statement::Return { value });
            }
            Stmt::Switch(value, cases) => self.switch(fb, value, cases)?,
            Stmt::Block(stmts) => {
                let block = self.nested(fb, stmts)?;
                fb.push(naga::Statement::Block(block));
            }
        }
        Ok(())
    }

    /// C's `switch` on naga's. naga writes invalid SPIR-V for an empty case
    /// that falls through, which is what several labels on one C body
    /// become; so when a body has several labels, a first switch maps the
    /// value to the index of its body and a second switch runs the bodies,
    /// one label each, falling through as C does.
    pub(super) fn switch(
        &mut self,
        fb: &mut FnBuilder,
        value: &Expr,
        cases: &[hir::SwitchCase],
    ) -> LResult<()> {
        let scalar = value.ty.scalar().unwrap_or(Scalar::Int);
        if scalar.size() > 4 {
            return Err(self.error(
                value.location,
                "switch on 64-bit values is not supported yet by this translator",
            ));
        }
        let label = |bits: u64| {
            if scalar.is_signed() {
                naga::SwitchValue::I32(bits as u32 as i32)
            } else {
                naga::SwitchValue::U32(bits as u32)
            }
        };
        let one_label_each = cases
            .iter()
            .all(|c| c.values.len() + usize::from(c.is_default) <= 1);
        let selector = self.plain(fb, value)?;
        let (selector, labels): (_, Vec<Option<naga::SwitchValue>>) = if one_label_each {
            let labels = cases
                .iter()
                .map(|c| match (c.values.first(), c.is_default) {
                    (Some(&bits), _) => Some(label(bits)),
                    (None, true) => Some(naga::SwitchValue::Default),
                    // Statements before the first label never run.
                    (None, false) => None,
                })
                .collect();
            (selector, labels)
        } else {
            // First switch: value -> body index (u32::MAX: no body).
            let u32_ty = self.u32_type();
            let index_var = fb.function.local_variables.append(
                naga::LocalVariable {
                    name: Some("switch_case".into()),
                    ty: u32_ty,
                    init: None,
                },
                Span::UNDEFINED,
            );
            let mut map_cases = Vec::new();
            let mut default_body = u32::MAX;
            for (i, c) in cases.iter().enumerate() {
                if c.is_default {
                    default_body = i as u32;
                }
                for &bits in &c.values {
                    map_cases.push((label(bits), i as u32));
                }
            }
            map_cases.push((naga::SwitchValue::Default, default_body));
            let mut naga_cases = Vec::new();
            for (value, body_index) in map_cases {
                let mut block = naga::Block::new();
                let pointer = fb
                    .function
                    .expressions
                    .append(naga::Expression::LocalVariable(index_var), Span::UNDEFINED);
                let index = fb.function.expressions.append(
                    naga::Expression::Literal(naga::Literal::U32(body_index)),
                    Span::UNDEFINED,
                );
                block.push(
                    naga::Statement::Store {
                        pointer,
                        value: index,
                    },
                    Span::UNDEFINED,
                );
                naga_cases.push(naga::SwitchCase {
                    value,
                    body: block,
                    fall_through: false,
                });
            }
            fb.push(naga::Statement::Switch {
                selector,
                cases: naga_cases,
            });
            let pointer = fb.add(naga::Expression::LocalVariable(index_var));
            let index = fb.add(naga::Expression::Load { pointer });
            let labels = (0..cases.len())
                .map(|i| Some(naga::SwitchValue::U32(i as u32)))
                .collect();
            (index, labels)
        };
        let mut naga_cases = Vec::new();
        let mut has_default = false;
        for (case, value) in cases.iter().zip(labels) {
            let Some(value) = value else { continue };
            has_default |= value == naga::SwitchValue::Default;
            let body = self.nested(fb, &case.body)?;
            let ends_in_jump = matches!(
                body.last(),
                Some(
                    naga::Statement::Break
                        | naga::Statement::Continue
                        | naga::Statement::Return { .. }
                )
            );
            naga_cases.push(naga::SwitchCase {
                value,
                body,
                fall_through: !ends_in_jump,
            });
        }
        if !has_default {
            naga_cases.push(naga::SwitchCase {
                value: naga::SwitchValue::Default,
                body: naga::Block::new(),
                fall_through: false,
            });
        }
        if let Some(last) = naga_cases.last_mut() {
            last.fall_through = false;
        }
        fb.push(naga::Statement::Switch {
            selector,
            cases: naga_cases,
        });
        Ok(())
    }
}
