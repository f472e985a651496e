//! Expressions: the value an HIR expression lowers to, and the dispatch
//! from each kind of expression to the part of the lowering that emits it.

pub(super) mod convert;
pub(super) mod initializers;
pub(super) mod operators;
mod reinterpret;
pub(super) mod wide;

use crate::ast::BinaryOp;
use crate::diagnostic::Location;
use crate::hir::{self, ExprId, ExprKind as H};
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::function::FnBuilder;
use crate::lower::pointers::{chosen, PointerValue, Root};
use crate::types::{Pointee, Scalar, Type};
use naga::{Handle, Span};

#[derive(Clone, Copy)]
pub(super) enum Value {
    Plain(Handle<naga::Expression>),
    Pointer(PointerValue),
    /// `void` expressions (calls of void functions, casts to void).
    Void,
}

/// Something the lowering evaluates: an expression of the HIR function
/// being lowered, or a value it has computed already, with its C type
/// (the parts of a wide vector, a `half` widened to `float`), so that a
/// built-in can be lowered on either.
#[derive(Clone, Copy, Debug)]
pub(super) enum Operand {
    Expr(ExprId),
    Value(Handle<naga::Expression>, Type),
    /// A pointer to a value of the pointee, which the program need not
    /// spell as a type (a part of a wide vector).
    Pointer(PointerValue, Pointee),
    /// An integer constant (its bits) of a scalar type.
    Int(u64, Type),
}

impl From<ExprId> for Operand {
    fn from(e: ExprId) -> Self {
        Operand::Expr(e)
    }
}

impl From<&ExprId> for Operand {
    fn from(e: &ExprId) -> Self {
        Operand::Expr(*e)
    }
}

impl From<&Operand> for Operand {
    fn from(op: &Operand) -> Self {
        *op
    }
}

impl ModuleBuilder<'_> {
    pub(super) fn plain(
        &mut self,
        fb: &mut FnBuilder,
        e: impl Into<Operand>,
    ) -> LResult<Handle<naga::Expression>> {
        let e = e.into();
        match self.expr(fb, e)? {
            Value::Plain(h) => Ok(h),
            _ => {
                let ty = self.display(&fb.ty(e));
                let at = fb.hir(e).map(|e| e.span).unwrap_or_default();
                Err(self.error(at, format!("expected a value of type '{ty}'")))
            }
        }
    }

    /// A scalar condition as a naga `bool`.
    pub(super) fn condition(
        &mut self,
        fb: &mut FnBuilder,
        e: impl Into<Operand>,
    ) -> LResult<Handle<naga::Expression>> {
        crate::stack::guard(|| {
            let operand = e.into();
            let ty = fb.ty(operand);
            if let Operand::Expr(id) = operand {
                match fb.expr(id).kind {
                    H::Binary(op, a, b)
                        if op.is_comparison()
                            && matches!(ty, Type::Scalar(_))
                            && !fb.expr(a).ty.is_pointer()
                            && !fb.expr(b).ty.is_pointer() =>
                    {
                        return self.comparison(fb, op, a, b);
                    }
                    H::Logical(op, a, b) => return self.logical(fb, op, a, b),
                    H::Unary(hir::UnaryOp::LogicalNot, x)
                        if matches!(fb.expr(x).ty, Type::Scalar(_)) =>
                    {
                        let c = self.condition(fb, x)?;
                        return Ok(fb.unary(naga::UnaryOperator::LogicalNot, c));
                    }
                    _ => {}
                }
                if let Type::Pointer(_) = ty {
                    // Null is object 0; every other root names a nonzero one.
                    let (object, _) = self.address_operand(fb, id)?;
                    let null = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
                    return Ok(fb.binary(naga::BinaryOperator::NotEqual, object, null));
                }
            }
            let v = self.plain(fb, operand)?;
            let s = ty.scalar().unwrap_or(Scalar::Int);
            if s == Scalar::Bool {
                return Ok(v);
            }
            let at = fb.hir(operand).map(|e| e.span).unwrap_or_default();
            let zero = self.zero(fb, &ty, at.location())?;
            // `!= 0` is true for NaN, as C wants: emit !(x == 0).
            let eq = fb.binary(naga::BinaryOperator::Equal, v, zero);
            Ok(fb.unary(naga::UnaryOperator::LogicalNot, eq))
        })
    }

    pub(super) fn expr(&mut self, fb: &mut FnBuilder, e: impl Into<Operand>) -> LResult<Value> {
        crate::stack::guard(|| {
            let id = match e.into() {
                Operand::Expr(id) => id,
                Operand::Value(v, _) => return Ok(Value::Plain(v)),
                Operand::Pointer(p, _) => return Ok(Value::Pointer(p)),
                Operand::Int(bits, ty) => {
                    let v = self.constant(fb, &ty, bits, Location::default())?;
                    return Ok(Value::Plain(v));
                }
            };
            let e = fb.expr(id);
            let location = e.span.location();
            if matches!(e.ty, Type::Pointer(_)) && chosen::is_null_constant(fb, id) {
                let zero = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
                return Ok(Value::Pointer(PointerValue::fixed(Root::Null, zero)));
            }
            // Operand types, read from the function (not through `fb`, which
            // the arms borrow mutably).
            let source = fb.source;
            let ty = |h: ExprId| source.exprs[h].ty;
            let h = match e.kind {
                // A literal sampler: its word.
                H::Int(bits) if e.ty.is_sampler() => {
                    fb.add(naga::Expression::Literal(naga::Literal::U32(bits as u32)))
                }
                H::Int(bits) => self.constant(fb, &e.ty, bits, location)?,
                H::Local(l) if fb.source.locals[l].ty.image().is_some() => {
                    return Err(self.error(
                        location,
                        "an image can only be passed to a built-in or a function",
                    ))
                }
                H::Float(v) => self.float_constant(fb, &e.ty, v, location)?,
                H::Local(_) | H::Global(_) | H::Index(..) | H::Deref(_) | H::Member(..) => {
                    let place = self.place(fb, id)?;
                    return self.load(fb, place, location);
                }
                H::Swizzle(base, ref lanes) => {
                    let base_ty = ty(base);
                    let v = self.plain(fb, base)?;
                    self.swizzle(fb, v, &base_ty, lanes, location)?
                }
                H::Convert(x) if ty(x).is_pointer() => {
                    self.pointer_to_integer(fb, x, &e.ty, location)?
                }
                H::Convert(x) if e.ty.is_pointer() => {
                    return Ok(Value::Pointer(
                        self.integer_to_pointer(fb, x, &e.ty, location)?,
                    ))
                }
                H::Convert(x) => {
                    let x_ty = ty(x);
                    let v = self.plain(fb, x)?;
                    self.convert(fb, v, &x_ty, &e.ty, location)?
                }
                H::Splat(x) => {
                    let v = self.plain(fb, x)?;
                    self.splat_to(fb, v, &e.ty, location)?
                }
                H::Unary(op, x) if wide::is_wide(&ty(x)) => {
                    let x_ty = ty(x);
                    let v = self.plain(fb, x)?;
                    self.per_part(
                        fb,
                        &e.ty,
                        &[(v, &x_ty)],
                        location,
                        |this, fb, v, part_ty| {
                            Ok(match op {
                                hir::UnaryOp::Negate | hir::UnaryOp::BitNot => {
                                    this.negate_or_invert(fb, op, v[0], part_ty, location)?
                                }
                                hir::UnaryOp::LogicalNot => {
                                    let part =
                                        this.value_type(&wide::part_type(&x_ty), location)?;
                                    let zero = fb.add(naga::Expression::ZeroValue(part));
                                    let b = fb.binary(naga::BinaryOperator::Equal, v[0], zero);
                                    this.bool_to_int(fb, b, part_ty, location)?
                                }
                            })
                        },
                    )?
                }
                H::Unary(op, x) => match op {
                    hir::UnaryOp::Negate | hir::UnaryOp::BitNot => {
                        let v = self.plain(fb, x)?;
                        self.negate_or_invert(fb, op, v, &e.ty, location)?
                    }
                    hir::UnaryOp::LogicalNot => {
                        let x_ty = ty(x);
                        let b = if matches!(x_ty, Type::Vector(..)) {
                            let v = self.plain(fb, x)?;
                            let zero = self.zero(fb, &x_ty, location)?;
                            fb.binary(naga::BinaryOperator::Equal, v, zero)
                        } else {
                            let c = self.condition(fb, x)?;
                            fb.unary(naga::UnaryOperator::LogicalNot, c)
                        };
                        self.bool_to_int(fb, b, &e.ty, location)?
                    }
                },
                H::Binary(op, a, b) if op.is_comparison() && wide::is_wide(&ty(a)) => {
                    let (a_ty, b_ty) = (ty(a), ty(b));
                    let left = self.plain(fb, a)?;
                    let right = self.plain(fb, b)?;
                    let operands = [(left, &a_ty), (right, &b_ty)];
                    self.per_part(fb, &e.ty, &operands, location, |this, fb, v, part_ty| {
                        let c = this.compare(fb, op, v[0], v[1]);
                        this.bool_to_int(fb, c, part_ty, location)
                    })?
                }
                H::Binary(op, a, b) if ty(a).is_pointer() || ty(b).is_pointer() => {
                    self.pointer_binary(fb, op, a, b, &e.ty, location)?
                }
                H::Binary(op, a, b) => {
                    if op.is_comparison() {
                        let c = self.comparison(fb, op, a, b)?;
                        self.bool_to_int(fb, c, &e.ty, location)?
                    } else if let Some(fused) = e
                        .contract
                        .then(|| self.contracted(fb, op, a, b, &e.ty, location))
                        .transpose()?
                        .flatten()
                    {
                        fused
                    } else {
                        let left = self.plain(fb, a)?;
                        let right = self.plain(fb, b)?;
                        self.arithmetic(fb, op, left, right, &e.ty, location)?
                    }
                }
                H::Logical(op, a, b) if matches!(e.ty, Type::Vector(..)) => {
                    let (a_ty, b_ty) = (ty(a), ty(b));
                    let left = self.plain(fb, a)?;
                    let right = self.plain(fb, b)?;
                    let combine = if op == BinaryOp::LogicalAnd {
                        naga::BinaryOperator::And
                    } else {
                        naga::BinaryOperator::InclusiveOr
                    };
                    let operands = [(left, &a_ty), (right, &b_ty)];
                    self.per_part(fb, &e.ty, &operands, location, |this, fb, v, part_ty| {
                        let zero_ty = this.value_type(&wide::part_type(&a_ty), location)?;
                        let mut set = Vec::new();
                        for &x in v {
                            let zero = fb.add(naga::Expression::ZeroValue(zero_ty));
                            let eq = fb.binary(naga::BinaryOperator::Equal, x, zero);
                            set.push(fb.unary(naga::UnaryOperator::LogicalNot, eq));
                        }
                        let c = fb.binary(combine, set[0], set[1]);
                        this.bool_to_int(fb, c, part_ty, location)
                    })?
                }
                H::Logical(op, a, b) => {
                    let c = self.logical(fb, op, a, b)?;
                    self.bool_to_int(fb, c, &e.ty, location)?
                }
                H::Conditional(c, a, b) => return self.conditional(fb, id, c, a, b),
                H::Assign(target, value) => {
                    let result = match self.expr(fb, value)? {
                        Value::Void => return Err(self.error(location, "assigning a void value")),
                        v => v,
                    };
                    let place = self.place(fb, target)?;
                    self.store(fb, place, result, location, None)?;
                    return Ok(result);
                }
                H::CompoundAssign {
                    op,
                    target,
                    value,
                    op_ty,
                } => {
                    let target_ty = ty(target);
                    let current = self.plain(fb, target)?;
                    let current = self.convert(fb, current, &target_ty, &op_ty, location)?;
                    let fused = e
                        .contract
                        .then(|| self.contracted_update(fb, op, current, value, &op_ty, location))
                        .transpose()?
                        .flatten();
                    let combined = match fused {
                        Some(fused) => fused,
                        None => {
                            let v = self.plain(fb, value)?;
                            self.arithmetic(fb, op, current, v, &op_ty, location)?
                        }
                    };
                    let result = self.convert(fb, combined, &op_ty, &target_ty, location)?;
                    let place = self.place(fb, target)?;
                    self.store(fb, place, Value::Plain(result), location, None)?;
                    result
                }
                H::IncDec {
                    target,
                    increment,
                    prefix,
                } => return self.inc_dec(fb, target, increment, prefix, location),
                H::PointerOffset(p, n) => {
                    let p = self.pointer(fb, p)?;
                    let n = self.index_value(fb, n)?;
                    let index = fb.binary(naga::BinaryOperator::Add, p.index, n);
                    return Ok(Value::Pointer(p.at(index)));
                }
                H::Decay(array) => {
                    if let Some(p) = self.block_decay(fb, array)? {
                        return Ok(Value::Pointer(p));
                    }
                    return Ok(Value::Pointer(self.array_start(fb, array, location)?));
                }
                H::AddressOf(x) => return self.address_of(fb, x, location),
                H::Call(callee, ref args) => return self.call(fb, callee, args, &e.ty, location),
                H::Builtin(b, ref args) => return self.builtin_call(fb, b, args, &e.ty, location),
                H::Comma(a, b) => {
                    self.expr(fb, a)?;
                    return self.expr(fb, b);
                }
                H::PointerCast(inner) => {
                    let (Some(from), Some(to)) = (self.pointee(&ty(inner)), self.pointee(&e.ty))
                    else {
                        return Err(self.error(location, "pointer cast of a non-pointer"));
                    };
                    if let Some(p) = self.cast_member_address(fb, inner, &to.ty, location)? {
                        return Ok(Value::Pointer(p));
                    }
                    let p = self.pointer(fb, inner)?;
                    return Ok(Value::Pointer(
                        self.cast_pointer(fb, p, &from.ty, &to.ty, location)?,
                    ));
                }
                H::Printf(ref args) => return Ok(Value::Plain(self.printf(fb, args, location)?)),
                H::Str(_) => {
                    return Err(self.error(
                        location,
                        "string literals are not supported yet by this translator",
                    ))
                }
                H::InitList(ref items) => self.init_list(
                    &mut initializers::Arena::Function(fb),
                    &e.ty,
                    items,
                    location,
                )?,
                H::VectorLiteral(ref parts) => {
                    let mut lanes = Vec::new();
                    for &p in parts {
                        let p_ty = ty(p);
                        let v = self.plain(fb, p)?;
                        lanes.extend(Self::lanes_of(v, &p_ty));
                    }
                    let s = e.ty.element().unwrap_or(Scalar::Float);
                    self.gather(fb, s, &lanes, location)?
                }
            };
            Ok(Value::Plain(h))
        })
    }

    /// Lanes `lanes` of `vector`, a value of `ty`. A 3-vector's `.hi` and
    /// `.odd` name its fourth lane, which C leaves undefined (the vector is
    /// laid out as four): it reads as zero here, since the register holds
    /// only three.
    pub(super) fn swizzle(
        &mut self,
        fb: &mut FnBuilder,
        vector: Handle<naga::Expression>,
        ty: &Type,
        lanes: &[u8],
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let width = wide::width_of(ty);
        let s = ty.element().unwrap_or(Scalar::Float);
        let mut undefined = None;
        let mut refs = Vec::with_capacity(lanes.len());
        for &lane in lanes {
            refs.push(if lane < width {
                wide::LaneRef {
                    value: vector,
                    width,
                    lane,
                }
            } else {
                let zero = match undefined {
                    Some(z) => z,
                    None => *undefined.insert(self.zero(fb, &Type::Scalar(s), location)?),
                };
                wide::LaneRef {
                    value: zero,
                    width: 1,
                    lane: 0,
                }
            });
        }
        self.gather(fb, s, &refs, location)
    }

    fn conditional(
        &mut self,
        fb: &mut FnBuilder,
        e: ExprId,
        c: ExprId,
        a: ExprId,
        b: ExprId,
    ) -> LResult<Value> {
        let e = fb.expr(e);
        if matches!(e.ty, Type::Pointer(_)) {
            return self.conditional_pointer(fb, c, a, b);
        }
        let condition = self.condition(fb, c)?;
        let ty = self.value_type(&e.ty, e.span.location())?;
        let var = fb.function.local_variables.append(
            naga::LocalVariable {
                name: None,
                ty,
                init: None,
            },
            Span::UNDEFINED,
        );
        let mut branches = Vec::new();
        for side in [a, b] {
            fb.blocks.push(naga::Block::new());
            let r = self.plain(fb, side);
            let mut block = fb.blocks.pop().expect("branch");
            let value = r?;
            let pointer = fb
                .function
                .expressions
                .append(naga::Expression::LocalVariable(var), Span::UNDEFINED);
            block.push(naga::Statement::Store { pointer, value }, Span::UNDEFINED);
            branches.push(block);
        }
        let reject = branches.pop().expect("reject");
        let accept = branches.pop().expect("accept");
        fb.push(naga::Statement::If {
            condition,
            accept,
            reject,
        });
        let pointer = fb.add(naga::Expression::LocalVariable(var));
        Ok(Value::Plain(fb.add(naga::Expression::Load { pointer })))
    }
}
