//! C's `switch` on naga's, whose case labels are 32-bit only and whose
//! fall-through from an empty case writes invalid SPIR-V (see the naga
//! notes): several labels on one body, and any `switch` on a 64-bit value,
//! go through a body index first.

use crate::hir::{self, ExprId};
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::function::FnBuilder;
use crate::types::Scalar;
use naga::{BinaryOperator as B, Handle, Span};

/// A C case label as a naga 32-bit one: `bits` are the label's value in
/// the controlling type; for a 64-bit type, only labels that fit 32 bits
/// get here.
fn label32(signed: bool, bits: u64) -> naga::SwitchValue {
    if signed {
        naga::SwitchValue::I32(bits as u32 as i32)
    } else {
        naga::SwitchValue::U32(bits as u32)
    }
}

/// Whether a label of a 64-bit controlling type has the same value as a
/// 32-bit one of the same signedness.
fn fits_32_bits(signed: bool, bits: u64) -> bool {
    if signed {
        i32::try_from(bits as i64).is_ok()
    } else {
        u32::try_from(bits).is_ok()
    }
}

impl ModuleBuilder<'_> {
    /// When every body has at most one label and the value is 32-bit, one
    /// naga switch runs the bodies. Otherwise the value is first mapped to
    /// the index of its body (by a switch, or for 64-bit labels that do not
    /// fit 32 bits by comparisons), and a second switch on that index runs
    /// the bodies, one label each, falling through as C does.
    pub(in crate::lower) fn switch(
        &mut self,
        fb: &mut FnBuilder,
        value: ExprId,
        cases: &[hir::SwitchCase],
    ) -> LResult<()> {
        let scalar = fb.expr(value).ty.scalar().unwrap_or(Scalar::Int);
        let signed = scalar.is_signed();
        let wide = scalar.size() > 4;
        let one_label_each = cases
            .iter()
            .all(|c| c.values.len() + usize::from(c.is_default) <= 1);
        let selector = self.plain(fb, value)?;
        let (selector, labels): (_, Vec<Option<naga::SwitchValue>>) = if one_label_each && !wide {
            let labels = cases
                .iter()
                .map(|c| match (c.values.first(), c.is_default) {
                    (Some(&bits), _) => Some(label32(signed, bits)),
                    (None, true) => Some(naga::SwitchValue::Default),
                    // Statements before the first label never run.
                    (None, false) => None,
                })
                .collect();
            (selector, labels)
        } else {
            let index = if !wide {
                self.body_index_by_switch(fb, selector, signed, cases)
            } else if cases
                .iter()
                .all(|c| c.values.iter().all(|&bits| fits_32_bits(signed, bits)))
            {
                self.wide_body_index_by_switch(fb, selector, signed, cases)
            } else {
                body_index_by_comparison(fb, selector, signed, cases)
            };
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

    /// The index of the body a 32-bit `selector` selects (`u32::MAX`: none),
    /// by a switch with one case per label, each storing its body's index.
    fn body_index_by_switch(
        &mut self,
        fb: &mut FnBuilder,
        selector: Handle<naga::Expression>,
        signed: bool,
        cases: &[hir::SwitchCase],
    ) -> Handle<naga::Expression> {
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
        for (i, c) in cases.iter().enumerate() {
            for &bits in &c.values {
                map_cases.push((label32(signed, bits), i as u32));
            }
        }
        map_cases.push((naga::SwitchValue::Default, default_body(cases)));
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
        fb.add(naga::Expression::Load { pointer })
    }

    /// [`Self::body_index_by_switch`] for a 64-bit `selector` whose labels
    /// all fit 32 bits: the switch reads the low 32 bits, and a value out
    /// of the 32-bit range, whose low bits may match a label, goes to
    /// `default`.
    fn wide_body_index_by_switch(
        &mut self,
        fb: &mut FnBuilder,
        selector: Handle<naga::Expression>,
        signed: bool,
        cases: &[hir::SwitchCase],
    ) -> Handle<naga::Expression> {
        let kind = if signed {
            naga::ScalarKind::Sint
        } else {
            naga::ScalarKind::Uint
        };
        let low = fb.add(naga::Expression::As {
            expr: selector,
            kind,
            convert: Some(4),
        });
        let in_range = if signed {
            let (min, max) = (
                fb.add(naga::Expression::Literal(naga::Literal::I64(
                    i32::MIN.into(),
                ))),
                fb.add(naga::Expression::Literal(naga::Literal::I64(
                    i32::MAX.into(),
                ))),
            );
            let above = fb.binary(B::GreaterEqual, selector, min);
            let below = fb.binary(B::LessEqual, selector, max);
            fb.binary(B::LogicalAnd, above, below)
        } else {
            let max = fb.add(naga::Expression::Literal(naga::Literal::U64(
                u32::MAX.into(),
            )));
            fb.binary(B::LessEqual, selector, max)
        };
        let index = self.body_index_by_switch(fb, low, signed, cases);
        let default = fb.add(naga::Expression::Literal(naga::Literal::U32(default_body(
            cases,
        ))));
        fb.select(in_range, index, default)
    }
}

/// The index of the body with the `default` label, `u32::MAX` if none.
fn default_body(cases: &[hir::SwitchCase]) -> u32 {
    cases
        .iter()
        .position(|c| c.is_default)
        .map_or(u32::MAX, |i| i as u32)
}

/// The index of the body a 64-bit `selector` selects, by comparing it
/// with every label: labels are distinct, so at most one matches and
/// their order does not matter.
fn body_index_by_comparison(
    fb: &mut Emitter,
    selector: Handle<naga::Expression>,
    signed: bool,
    cases: &[hir::SwitchCase],
) -> Handle<naga::Expression> {
    let mut index = fb.add(naga::Expression::Literal(naga::Literal::U32(default_body(
        cases,
    ))));
    for (i, c) in cases.iter().enumerate() {
        for &bits in &c.values {
            let label = fb.add(naga::Expression::Literal(if signed {
                naga::Literal::I64(bits as i64)
            } else {
                naga::Literal::U64(bits)
            }));
            let matches = fb.binary(B::Equal, selector, label);
            let body = fb.add(naga::Expression::Literal(naga::Literal::U32(i as u32)));
            index = fb.select(matches, body, index);
        }
    }
    index
}
