//! Operators: arithmetic with C's conversions and OpenCL's rounding and
//! contraction rules, comparisons and logical operators, increments and
//! decrements, and `char`/`short` results wrapped to their width in
//! 32-bit registers.

use crate::ast::BinaryOp;
use crate::diagnostic::Location;
use crate::hir::{self, ExprId, ExprKind as H};
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::constants::float_literal;
use crate::lower::emit::Emitter;
use crate::lower::expressions::{wide, Operand, Value};
use crate::lower::function::FnBuilder;
use crate::lower::library::{fp16, math};
use crate::lower::naga_types::naga_scalar;
use crate::types::{Scalar, Type};
use naga::{Handle, Span};

/// The `char`/`short`/`half` at bit `bit` of a u32 `word`, as its
/// register value (sign-extended for signed integer types).
pub(in crate::lower) fn extract_narrow(
    fb: &mut Emitter,
    word: Handle<naga::Expression>,
    bit: Handle<naga::Expression>,
    scalar: Scalar,
) -> Handle<naga::Expression> {
    let shifted = fb.binary(naga::BinaryOperator::ShiftRight, word, bit);
    let mask = fb.add(naga::Expression::Literal(naga::Literal::U32(
        (1u32 << (scalar.size() * 8)) - 1,
    )));
    let value = fb.binary(naga::BinaryOperator::And, shifted, mask);
    if scalar == Scalar::Bool {
        // A `bool` in memory is a byte that holds 0 or 1 (the host's
        // layout); any set bit reads as true.
        let zero = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
        return fb.binary(naga::BinaryOperator::NotEqual, value, zero);
    }
    if scalar == Scalar::Half {
        return fp16::bits_to_half(fb, value);
    }
    if !scalar.is_signed() {
        return value;
    }
    let as_int = fb.add(naga::Expression::As {
        expr: value,
        kind: naga::ScalarKind::Sint,
        convert: None,
    });
    let up = fb.add(naga::Expression::Literal(naga::Literal::U32(
        32 - scalar.size() * 8,
    )));
    let high = fb.binary(naga::BinaryOperator::ShiftLeft, as_int, up);
    fb.binary(naga::BinaryOperator::ShiftRight, high, up)
}

/// A `convert_*` that is the C conversion: no saturation, and the
/// rounding the hardware conversion uses (to zero into integers, to
/// nearest even into floating point, none needed between integers).
/// `x / y` with a divisor beyond `limit` scaled by `quarter` together with
/// `x` (else by `one`); the constants are splatted to the operands' shape.
/// See [`ModuleBuilder::divide_f32`].
pub(in crate::lower) fn scaled_divide(
    fb: &mut Emitter,
    x: Handle<naga::Expression>,
    y: Handle<naga::Expression>,
    [limit, quarter, one]: [Handle<naga::Expression>; 3],
) -> Handle<naga::Expression> {
    let magnitude = fb.math(naga::MathFunction::Abs, y, None);
    let big = fb.binary(naga::BinaryOperator::Greater, magnitude, limit);
    let scale = fb.select(big, quarter, one);
    let x = fb.binary(naga::BinaryOperator::Multiply, x, scale);
    let y = fb.binary(naga::BinaryOperator::Multiply, y, scale);
    fb.binary(naga::BinaryOperator::Divide, x, y)
}

impl ModuleBuilder<'_> {
    pub(in crate::lower) fn comparison(
        &mut self,
        fb: &mut FnBuilder,
        op: BinaryOp,
        a: impl Into<Operand>,
        b: impl Into<Operand>,
    ) -> LResult<Handle<naga::Expression>> {
        let left = self.plain(fb, a)?;
        let right = self.plain(fb, b)?;
        Ok(self.compare(fb, op, left, right))
    }

    /// `left op right` for a comparison operator, as a naga bool (vector).
    pub(in crate::lower) fn compare(
        &mut self,
        fb: &mut FnBuilder,
        op: BinaryOp,
        left: Handle<naga::Expression>,
        right: Handle<naga::Expression>,
    ) -> Handle<naga::Expression> {
        let (naga_op, negate) = match op {
            BinaryOp::Lt => (naga::BinaryOperator::Less, false),
            BinaryOp::Gt => (naga::BinaryOperator::Greater, false),
            BinaryOp::Le => (naga::BinaryOperator::LessEqual, false),
            BinaryOp::Ge => (naga::BinaryOperator::GreaterEqual, false),
            BinaryOp::Eq => (naga::BinaryOperator::Equal, false),
            // Ordered != is false for NaN; C's != is true: use !(a == b).
            _ => (naga::BinaryOperator::Equal, true),
        };
        let r = fb.binary(naga_op, left, right);
        if negate {
            fb.unary(naga::UnaryOperator::LogicalNot, r)
        } else {
            r
        }
    }

    /// `&&`/`||` with short-circuit evaluation through a bool local.
    pub(super) fn logical(
        &mut self,
        fb: &mut FnBuilder,
        op: BinaryOp,
        a: ExprId,
        b: ExprId,
    ) -> LResult<Handle<naga::Expression>> {
        let bool_ty = self.add_type(naga::TypeInner::Scalar(naga::Scalar::BOOL));
        let var = fb.function.local_variables.append(
            naga::LocalVariable {
                name: None,
                ty: bool_ty,
                init: None,
            },
            Span::UNDEFINED,
        );
        let first = self.condition(fb, a)?;
        let pointer = fb.add(naga::Expression::LocalVariable(var));
        fb.push(naga::Statement::Store {
            pointer,
            value: first,
        });
        fb.blocks.push(naga::Block::new());
        let r = self.condition(fb, b);
        let second_block = fb.blocks.pop().expect("rhs block");
        let second = r?;
        let mut block = second_block;
        let pointer2 = fb
            .function
            .expressions
            .append(naga::Expression::LocalVariable(var), Span::UNDEFINED);
        block.push(
            naga::Statement::Store {
                pointer: pointer2,
                value: second,
            },
            Span::UNDEFINED,
        );
        let (accept, reject) = if op == BinaryOp::LogicalAnd {
            (block, naga::Block::new())
        } else {
            (naga::Block::new(), block)
        };
        fb.push(naga::Statement::If {
            condition: first,
            accept,
            reject,
        });
        Ok(fb.add(naga::Expression::Load { pointer }))
    }

    /// A naga bool (vector) as the OpenCL integer result: 1/0 for scalars,
    /// -1/0 per lane for vectors.
    pub(in crate::lower) fn bool_to_int(
        &mut self,
        fb: &mut FnBuilder,
        b: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let true_bits = if matches!(ty, Type::Vector(..)) {
            u64::MAX
        } else {
            1
        };
        let accept = self.constant(fb, ty, true_bits, location)?;
        let reject = self.constant(fb, ty, 0, location)?;
        Ok(fb.add(naga::Expression::Select {
            condition: b,
            accept,
            reject,
        }))
    }

    /// `x * y + z`, `z + x * y`, `x * y - z` or `z - x * y` in floating
    /// point as one fused multiply-add: OpenCL C contracts within an
    /// expression by default (`FP_CONTRACT ON`, as clang does), and doing it
    /// here makes it the same on every driver rather than the driver's
    /// choice. `None` for any other expression. The caller asks only where
    /// contraction is allowed (`hir::Expr::contract`); elsewhere the
    /// product and the sum stay two operations, which every driver keeps
    /// apart since all float arithmetic is `NoContraction`
    /// (`spirv::decorate_no_contraction`).
    pub(in crate::lower) fn contracted(
        &mut self,
        fb: &mut FnBuilder,
        op: BinaryOp,
        a: ExprId,
        b: ExprId,
        ty: &Type,
        location: Location,
    ) -> LResult<Option<Handle<naga::Expression>>> {
        let float = matches!(ty.element(), Some(Scalar::Float | Scalar::Double));
        if !float || !matches!(op, BinaryOp::Add | BinaryOp::Sub) {
            return Ok(None);
        }
        let product = |e: ExprId| match fb.expr(e) {
            &hir::Expr {
                kind: H::Binary(BinaryOp::Mul, x, y),
                ty: product_ty,
                ..
            } if product_ty == *ty => Some((x, y)),
            _ => None,
        };
        let (x, y, z, negate_product) = match (product(a), product(b)) {
            (Some((x, y)), _) => (x, y, b, false),
            (None, Some((x, y))) => (x, y, a, op == BinaryOp::Sub),
            (None, None) => return Ok(None),
        };
        let negate_addend = op == BinaryOp::Sub && !negate_product;
        let (x, y, z) = (self.plain(fb, x)?, self.plain(fb, y)?, self.plain(fb, z)?);
        self.fused(fb, [x, y, z], negate_product, negate_addend, ty, location)
            .map(Some)
    }

    /// `target += x * y` or `target -= x * y` as one fused multiply-add,
    /// as [`ModuleBuilder::contracted`] does for the spelled-out forms.
    pub(super) fn contracted_update(
        &mut self,
        fb: &mut FnBuilder,
        op: BinaryOp,
        current: Handle<naga::Expression>,
        value: ExprId,
        ty: &Type,
        location: Location,
    ) -> LResult<Option<Handle<naga::Expression>>> {
        let float = matches!(ty.element(), Some(Scalar::Float | Scalar::Double));
        let value = fb.expr(value);
        let (true, BinaryOp::Add | BinaryOp::Sub, &H::Binary(BinaryOp::Mul, x, y)) =
            (float && value.ty == *ty, op, &value.kind)
        else {
            return Ok(None);
        };
        let (x, y) = (self.plain(fb, x)?, self.plain(fb, y)?);
        let negate_product = op == BinaryOp::Sub;
        self.fused(fb, [x, y, current], negate_product, false, ty, location)
            .map(Some)
    }

    /// `(±x) * y + (±z)` as `Fma`, part by part for wide vectors.
    pub(in crate::lower) fn fused(
        &mut self,
        fb: &mut FnBuilder,
        [x, y, z]: [Handle<naga::Expression>; 3],
        negate_product: bool,
        negate_addend: bool,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let operands = [(x, ty), (y, ty), (z, ty)];
        self.per_part(fb, ty, &operands, location, |_, fb, v, _| {
            let x = if negate_product {
                fb.unary(naga::UnaryOperator::Negate, v[0])
            } else {
                v[0]
            };
            let z = if negate_addend {
                fb.unary(naga::UnaryOperator::Negate, v[2])
            } else {
                v[2]
            };
            Ok(fb.add(naga::Expression::Math {
                fun: naga::MathFunction::Fma,
                arg: x,
                arg1: Some(v[1]),
                arg2: Some(z),
                arg3: None,
            }))
        })
    }

    pub(in crate::lower) fn arithmetic(
        &mut self,
        fb: &mut FnBuilder,
        op: BinaryOp,
        left: Handle<naga::Expression>,
        right: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        use naga::BinaryOperator as N;
        if wide::is_wide(ty) {
            return self.per_part(
                fb,
                ty,
                &[(left, ty), (right, ty)],
                location,
                |this, fb, v, part_ty| this.arithmetic(fb, op, v[0], v[1], part_ty, location),
            );
        }
        let element = ty.element().unwrap_or(Scalar::Int);
        if matches!(op, BinaryOp::Div | BinaryOp::Rem)
            && element.is_integer()
            && element.size() == 8
        {
            return Ok(self.divide64(fb, op == BinaryOp::Rem, left, right, ty));
        }
        if op == BinaryOp::Div && element == Scalar::Float {
            return self.divide_f32(fb, left, right, ty, location);
        }
        if op == BinaryOp::Div && element == Scalar::Half {
            return self.divide_half(fb, left, right, ty, location);
        }
        // Integer division by zero is undefined in OpenCL C, as in C (clang
        // warns), but naga rejects a module that divides by a constant
        // zero: the divisor goes through a conversion that changes nothing
        // and that naga does not look through.
        let right = if matches!(op, BinaryOp::Div | BinaryOp::Rem)
            && element.is_integer()
            && fb.contains_constant_zero(right)
        {
            let scalar = naga_scalar(element);
            fb.add(naga::Expression::As {
                expr: right,
                kind: scalar.kind,
                convert: Some(scalar.width),
            })
        } else {
            right
        };
        let naga_op = match op {
            BinaryOp::Add => N::Add,
            BinaryOp::Sub => N::Subtract,
            BinaryOp::Mul => N::Multiply,
            BinaryOp::Div => N::Divide,
            BinaryOp::Rem => N::Modulo,
            BinaryOp::BitAnd => N::And,
            BinaryOp::BitOr => N::InclusiveOr,
            BinaryOp::BitXor => N::ExclusiveOr,
            BinaryOp::Shl => N::ShiftLeft,
            BinaryOp::Shr => N::ShiftRight,
            _ => return Err(self.error(location, "internal error: not an arithmetic operator")),
        };
        let right = if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
            // OpenCL masks the shift count to the C type's width (6.3.j),
            // not the register's: a char in 32 bits shifts by at most 7.
            // naga's shifts need an unsigned count.
            let s = ty.element().unwrap_or(Scalar::Int);
            let unsigned_ty = match ty {
                Type::Vector(_, n) => Type::Vector(s.to_unsigned(), *n),
                _ => Type::Scalar(s.to_unsigned()),
            };
            let count = if s.is_signed() {
                fb.add(naga::Expression::As {
                    expr: right,
                    kind: naga::ScalarKind::Uint,
                    convert: None,
                })
            } else {
                right
            };
            let mask = self.constant(fb, &unsigned_ty, u64::from(s.size()) * 8 - 1, location)?;
            let masked = fb.binary(N::And, count, mask);
            // naga wants a 32-bit count for 64-bit shifts.
            if naga_scalar(s).width == 8 {
                fb.add(naga::Expression::As {
                    expr: masked,
                    kind: naga::ScalarKind::Uint,
                    convert: Some(4),
                })
            } else {
                masked
            }
        } else {
            right
        };
        let result = fb.binary(naga_op, left, right);
        // Results of types narrower than 32 bits live in 32-bit registers and
        // wrap like the C type.
        self.wrap_narrow(fb, result, ty)
    }

    /// `x / y` in `float` within OpenCL's 2.5 ulp over the whole range.
    /// Vulkan bounds division only for divisors up to 2^126, and NVIDIA
    /// divides by multiplying with the reciprocal, which is a flushed
    /// subnormal beyond that: 1e30 / 1.5e38 came out 0. A larger divisor
    /// is scaled by 1/4 together with the dividend, which leaves the
    /// quotient as it is.
    pub(in crate::lower) fn divide_f32(
        &mut self,
        fb: &mut FnBuilder,
        x: Handle<naga::Expression>,
        y: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let constants = [
            self.float_constant(fb, ty, math::DIVISOR_LIMIT, location)?,
            self.float_constant(fb, ty, 0.25, location)?,
            self.float_constant(fb, ty, 1.0, location)?,
        ];
        Ok(scaled_divide(fb, x, y, constants))
    }

    /// `-v` or `~v` for a value of `ty`: unsigned negation as `0 - v`
    /// (naga negates signed values only), and `char`/`short` results
    /// wrapped back to their type.
    pub(super) fn negate_or_invert(
        &mut self,
        fb: &mut FnBuilder,
        op: hir::UnaryOp,
        v: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let unsigned = ty.element().is_some_and(|s| !s.is_signed());
        let r = match op {
            hir::UnaryOp::Negate if unsigned => {
                let zero = self.zero(fb, ty, location)?;
                fb.binary(naga::BinaryOperator::Subtract, zero, v)
            }
            hir::UnaryOp::Negate => fb.unary(naga::UnaryOperator::Negate, v),
            _ => fb.unary(naga::UnaryOperator::BitwiseNot, v),
        };
        self.wrap_narrow(fb, r, ty)
    }

    /// Re-wraps a `char`/`short` value held in 32 bits to its type's range.
    pub(in crate::lower) fn wrap_narrow(
        &mut self,
        fb: &mut FnBuilder,
        v: Handle<naga::Expression>,
        ty: &Type,
    ) -> LResult<Handle<naga::Expression>> {
        let Some(s) = ty.element() else { return Ok(v) };
        let bits = s.size() * 8;
        if bits >= 32 || s == Scalar::Bool || s.is_float() {
            return Ok(v);
        }
        if wide::is_wide(ty) {
            return self.per_part(fb, ty, &[(v, ty)], Location::default(), |this, fb, v, t| {
                this.wrap_narrow(fb, v[0], t)
            });
        }
        let shift_ty = match ty {
            Type::Vector(_, n) => Type::Vector(Scalar::UInt, *n),
            _ => Type::UINT,
        };
        let shift = self.constant(fb, &shift_ty, u64::from(32 - bits), Location::default())?;
        let up = fb.binary(naga::BinaryOperator::ShiftLeft, v, shift);
        Ok(fb.binary(naga::BinaryOperator::ShiftRight, up, shift))
    }

    pub(super) fn inc_dec(
        &mut self,
        fb: &mut FnBuilder,
        target: ExprId,
        increment: bool,
        prefix: bool,
        location: Location,
    ) -> LResult<Value> {
        let target_ty = fb.expr(target).ty;
        if let Type::Pointer(_) = target_ty {
            let place = self.place(fb, target)?;
            let Value::Pointer(old) = self.load(fb, place, location)? else {
                return Err(self.error(location, "expected a pointer"));
            };
            let step = fb.add(naga::Expression::Literal(naga::Literal::U32(
                if increment { 1 } else { u32::MAX },
            )));
            let index = fb.binary(naga::BinaryOperator::Add, old.index, step);
            let new = old.at(index);
            let place = self.place(fb, target)?;
            self.store(fb, place, Value::Pointer(new), location, None)?;
            return Ok(Value::Pointer(if prefix { new } else { old }));
        }
        let old = self.plain(fb, target)?;
        let op_ty = match target_ty {
            Type::Scalar(s) if s.is_integer() => Type::Scalar(crate::builtins::promote(s)),
            t => t,
        };
        let widened = self.convert(fb, old, &target_ty, &op_ty, location)?;
        let one = if op_ty.element().is_some_and(Scalar::is_float) {
            let lit = fb.add(naga::Expression::Literal(float_literal(
                op_ty.element().unwrap_or(Scalar::Float),
                1.0,
            )));
            self.splat_to(fb, lit, &op_ty, location)?
        } else {
            self.constant(fb, &op_ty, 1, location)?
        };
        let op = if increment {
            BinaryOp::Add
        } else {
            BinaryOp::Sub
        };
        let combined = self.arithmetic(fb, op, widened, one, &op_ty, location)?;
        let new = self.convert(fb, combined, &op_ty, &target_ty, location)?;
        let place = self.place(fb, target)?;
        self.store(fb, place, Value::Plain(new), location, None)?;
        Ok(Value::Plain(if prefix { new } else { old }))
    }
}
