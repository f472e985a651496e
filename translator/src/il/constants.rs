//! Module constants as HIR expressions: emitted where they are used (a
//! function's arena) or where they initialise a program-scope variable
//! (the program's), specialization constants with the value the
//! application set (`clSetProgramSpecializationConstant`) or their
//! default.

use super::build::{ModuleScope, Reader};
use crate::diagnostic::Span;
use crate::hir::{Expr, ExprId, ExprKind};
use crate::types::{Scalar, Type};
use naga::Arena;
use rspirv::dr::Operand;
use rspirv::spirv::{Decoration, Op};

/// Constant `id` of `scope` as an expression of type `ty` in `arena`.
pub(super) fn constant_expr(
    scope: &ModuleScope,
    arena: &mut Arena<Expr>,
    id: u32,
) -> Result<ExprId, String> {
    crate::stack::guard(|| {
        let Some(inst) = scope.constants.get(&id).copied() else {
            return Err(format!("%{id} is not a constant"));
        };
        let ty = scope.value_type(inst.result_type.unwrap_or(0))?;
        let mut add = |kind, ty| add_to(arena, kind, ty);
        let spec_value = || {
            let spec_id = match scope.decoration(id, Decoration::SpecId) {
                Some([Operand::LiteralBit32(n)]) => Some(*n),
                _ => None,
            };
            spec_id.and_then(|n| scope.spec.get(&n).copied())
        };
        let op = inst.class.opcode;
        Ok(match op {
            Op::ConstantTrue | Op::ConstantFalse | Op::SpecConstantTrue | Op::SpecConstantFalse => {
                let default = matches!(op, Op::ConstantTrue | Op::SpecConstantTrue);
                let value = spec_value().map_or(default, |v| v & 0xff != 0);
                let one = add(ExprKind::Int(value as u64), Type::INT);
                add(ExprKind::Convert(one), Type::BOOL)
            }
            Op::Constant | Op::SpecConstant => {
                let literal = match inst.operands.first() {
                    Some(Operand::LiteralBit32(v)) => *v as u64,
                    Some(Operand::LiteralBit64(v)) => *v,
                    _ => return Err("a constant without a value".to_owned()),
                };
                let bits = if op == Op::SpecConstant {
                    spec_value().unwrap_or(literal)
                } else {
                    literal
                };
                match ty {
                    Type::Scalar(Scalar::Half) => {
                        let value = half::f16::from_bits(bits as u16).to_f64();
                        add(ExprKind::Float(value), ty)
                    }
                    Type::Scalar(Scalar::Float) => {
                        add(ExprKind::Float(f32::from_bits(bits as u32) as f64), ty)
                    }
                    Type::Scalar(Scalar::Double) => add(ExprKind::Float(f64::from_bits(bits)), ty),
                    Type::Scalar(s) => {
                        let mask = if s.size() == 8 {
                            u64::MAX
                        } else {
                            (1u64 << (8 * s.size())) - 1
                        };
                        add(ExprKind::Int(bits & mask), ty)
                    }
                    _ => return Err("a constant of a type that is not a scalar".to_owned()),
                }
            }
            Op::ConstantNull | Op::Undef => zero(arena, ty)?,
            Op::ConstantComposite | Op::SpecConstantComposite => {
                let parts: Vec<u32> = inst
                    .operands
                    .iter()
                    .filter_map(|o| match o {
                        Operand::IdRef(id) => Some(*id),
                        _ => None,
                    })
                    .collect();
                let mut values = Vec::with_capacity(parts.len());
                for &part in &parts {
                    let value = constant_expr(scope, arena, part)?;
                    values.push(value);
                }
                match ty {
                    Type::Vector(Scalar::Int, _) => {
                        // Lanes of a vector of bools: -1 for true, as
                        // OpenCL C's vector comparisons give.
                        let lanes = values
                            .into_iter()
                            .map(|v| {
                                if arena[v].ty == Type::BOOL {
                                    let lane = add_to(arena, ExprKind::Convert(v), Type::INT);
                                    let zero = add_to(arena, ExprKind::Int(0), Type::INT);
                                    add_to(
                                        arena,
                                        ExprKind::Binary(crate::ast::BinaryOp::Sub, zero, lane),
                                        Type::INT,
                                    )
                                } else {
                                    v
                                }
                            })
                            .collect();
                        add_to(arena, ExprKind::VectorLiteral(lanes), ty)
                    }
                    Type::Vector(..) => add_to(arena, ExprKind::VectorLiteral(values), ty),
                    _ => {
                        let items = flatten(arena, values);
                        add_to(arena, ExprKind::InitList(items), ty)
                    }
                }
            }
            op => return Err(format!("constants made by Op{op:?} are not supported yet")),
        })
    })
}

/// The items of an initializer list of `values`, one per member or
/// element: a value that is itself a list contributes its items under its
/// index, as the checker's lists hold every path from the top.
pub(super) fn flatten(arena: &Arena<Expr>, values: Vec<ExprId>) -> Vec<(Vec<u64>, ExprId)> {
    let mut items = Vec::with_capacity(values.len());
    for (i, v) in values.into_iter().enumerate() {
        match &arena[v].kind {
            ExprKind::InitList(inner) => {
                for (path, e) in inner {
                    let mut full = vec![i as u64];
                    full.extend(path);
                    items.push((full, *e));
                }
            }
            _ => items.push((vec![i as u64], v)),
        }
    }
    items
}

fn add_to(arena: &mut Arena<Expr>, kind: ExprKind, ty: Type) -> ExprId {
    arena.append(
        Expr {
            kind,
            ty,
            span: Span::default(),
            contract: false,
        },
        naga::Span::UNDEFINED,
    )
}

/// The zero of `ty` (`OpConstantNull`, and what `OpUndef` is taken as).
pub(super) fn zero(arena: &mut Arena<Expr>, ty: Type) -> Result<ExprId, String> {
    Ok(match ty {
        Type::Scalar(s) if s.is_float() => add_to(arena, ExprKind::Float(0.0), ty),
        Type::Scalar(Scalar::Bool) => {
            let zero = add_to(arena, ExprKind::Int(0), Type::INT);
            add_to(arena, ExprKind::Convert(zero), ty)
        }
        Type::Scalar(_) => add_to(arena, ExprKind::Int(0), ty),
        Type::Vector(s, _) => {
            let lane = zero(arena, Type::Scalar(s))?;
            add_to(arena, ExprKind::Splat(lane), ty)
        }
        // A null pointer constant, as the checker makes `0` one.
        Type::Pointer(_) => add_to(arena, ExprKind::Int(0), ty),
        Type::Array(..) | Type::Record(_) => add_to(arena, ExprKind::InitList(Vec::new()), ty),
        // No event: what `async_work_group_copy(..., 0)` passes.
        Type::Opaque(crate::types::Opaque::Event) => add_to(arena, ExprKind::Int(0), ty),
        _ => return Err("a zero of that type is not supported yet".to_owned()),
    })
}

/// The initializer of a program-scope variable of type `ty`: constant `id`
/// in the program's arena of global expressions.
pub(super) fn global_initializer(
    reader: &mut Reader,
    scope: &ModuleScope,
    id: u32,
) -> Result<ExprId, String> {
    let program = &mut reader.program;
    constant_expr(scope, &mut program.global_exprs, id)
}
