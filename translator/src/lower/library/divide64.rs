//! 64-bit integer `/` and `%` in software.
//!
//! NVIDIA's Vulkan compiler (driver 580 on an H100) miscompiles values that
//! stay live across a 64-bit `OpUDiv`/`OpUMod`: after `q = x / d`, a later
//! `select(x + y < x, ULONG_MAX, x + y)` comes out wrong in most lanes,
//! while the same code without the division, or with the division written
//! as shifts and subtractions, is right. `size_t` index arithmetic divides
//! in 64 bits all the time, so every 64-bit division goes through
//! [`ModuleBuilder::udivmod64`]: one 32-bit division when both operands fit
//! in 32 bits (the common case), else restoring long division.
//!
//! Division by zero does not trap (OpenCL leaves its result undefined): it
//! divides by one, as naga's own guard for the hardware instruction does.

use crate::lower::builder::ModuleBuilder;
use crate::lower::emit::Emitter;
use crate::lower::function::FnBuilder;
use crate::lower::naga_types::vector_size;
use crate::types::Type;
use naga::{BinaryOperator as B, Handle, Span};

impl ModuleBuilder<'_> {
    /// `left / right` or `left % right` for 64-bit integer scalars or
    /// vectors of `ty`.
    pub(in crate::lower) fn divide64(
        &mut self,
        fb: &mut FnBuilder,
        remainder: bool,
        left: Handle<naga::Expression>,
        right: Handle<naga::Expression>,
        ty: &Type,
    ) -> Handle<naga::Expression> {
        let signed = ty.element().is_some_and(|s| s.is_signed());
        let function = self.udivmod64();
        let lanes = match ty {
            Type::Vector(_, n) => *n,
            _ => 1,
        };
        let mut results = Vec::new();
        for lane in 0..lanes {
            let (x, y) = (fb.lane(left, lanes, lane), fb.lane(right, lanes, lane));
            let magnitude = |fb: &mut Emitter, v| {
                let bits = to_u64(fb, v);
                if !signed {
                    return bits;
                }
                let zero = fb.add(naga::Expression::Literal(naga::Literal::I64(0)));
                let negative = fb.binary(B::Less, v, zero);
                let zero = fb.add(naga::Expression::Literal(naga::Literal::U64(0)));
                let negated = fb.binary(B::Subtract, zero, bits);
                fb.select(negative, negated, bits)
            };
            let (n, d) = (magnitude(fb, x), magnitude(fb, y));
            let result = fb
                .function
                .expressions
                .append(naga::Expression::CallResult(function), Span::UNDEFINED);
            fb.push(naga::Statement::Call {
                function,
                arguments: vec![n, d],
                result: Some(result),
            });
            let part = fb.add(naga::Expression::AccessIndex {
                base: result,
                index: u32::from(remainder),
            });
            results.push(if signed {
                // The quotient is negative when the signs differ, the
                // remainder takes the dividend's sign (C99 6.5.5).
                let zero = fb.add(naga::Expression::Literal(naga::Literal::I64(0)));
                let negative = if remainder {
                    fb.binary(B::Less, x, zero)
                } else {
                    let signs = fb.binary(B::ExclusiveOr, x, y);
                    fb.binary(B::Less, signs, zero)
                };
                let zero = fb.add(naga::Expression::Literal(naga::Literal::U64(0)));
                let negated = fb.binary(B::Subtract, zero, part);
                let bits = fb.select(negative, negated, part);
                fb.add(naga::Expression::As {
                    expr: bits,
                    kind: naga::ScalarKind::Sint,
                    convert: None,
                })
            } else {
                part
            });
        }
        if lanes == 1 {
            return results[0];
        }
        let scalar = if signed {
            naga::Scalar::I64
        } else {
            naga::Scalar::U64
        };
        let vector = self.add_type(naga::TypeInner::Vector {
            size: vector_size(lanes).expect("2-4 lanes"),
            scalar,
        });
        fb.add(naga::Expression::Compose {
            ty: vector,
            components: results,
        })
    }

    /// `fn(n: u64, d: u64) -> vec2<u64>`: quotient and remainder, made once
    /// per module.
    fn udivmod64(&mut self) -> Handle<naga::Function> {
        if let Some(&f) = self.library.helpers.get("udivmod64") {
            return f;
        }
        let u64_ty = self.add_type(naga::TypeInner::Scalar(naga::Scalar::U64));
        let pair_ty = self.add_type(naga::TypeInner::Vector {
            size: naga::VectorSize::Bi,
            scalar: naga::Scalar::U64,
        });
        let mut fb = Emitter::default();
        for name in ["n", "d"] {
            fb.function.arguments.push(naga::FunctionArgument {
                name: Some(name.into()),
                ty: u64_ty,
                binding: None,
            });
        }
        fb.function.result = Some(naga::FunctionResult {
            ty: pair_ty,
            binding: None,
        });
        let lit =
            |fb: &mut Emitter, v: u64| fb.add(naga::Expression::Literal(naga::Literal::U64(v)));
        let n = fb.add(naga::Expression::FunctionArgument(0));
        let d_in = fb.add(naga::Expression::FunctionArgument(1));
        let zero = lit(&mut fb, 0);
        let is_zero = fb.binary(B::Equal, d_in, zero);
        let one = lit(&mut fb, 1);
        let d = fb.select(is_zero, one, d_in);
        let ret = |fb: &mut Emitter, q, r| {
            let value = fb.add(naga::Expression::Compose {
                ty: pair_ty,
                components: vec![q, r],
            });
            fb.push(naga::Statement::Return { value: Some(value) });
        };

        // Both fit in 32 bits: one 32-bit division.
        let both = fb.binary(B::InclusiveOr, n, d);
        let high = {
            let shift = fb.add(naga::Expression::Literal(naga::Literal::U32(32)));
            fb.binary(B::ShiftRight, both, shift)
        };
        let narrow = fb.binary(B::Equal, high, zero);
        fb.blocks.push(naga::Block::new());
        {
            let to_u32 = |fb: &mut Emitter, v| {
                fb.add(naga::Expression::As {
                    expr: v,
                    kind: naga::ScalarKind::Uint,
                    convert: Some(4),
                })
            };
            let (n32, d32) = (to_u32(&mut fb, n), to_u32(&mut fb, d));
            let q32 = fb.binary(B::Divide, n32, d32);
            let q = fb.add(naga::Expression::As {
                expr: q32,
                kind: naga::ScalarKind::Uint,
                convert: Some(8),
            });
            let qd = fb.binary(B::Multiply, q, d);
            let r = fb.binary(B::Subtract, n, qd);
            ret(&mut fb, q, r);
        }
        let accept = fb.blocks.pop().expect("narrow block");
        fb.push(naga::Statement::If {
            condition: narrow,
            accept,
            reject: naga::Block::new(),
        });

        // Restoring division, one quotient bit per step from the top.
        let var = |fb: &mut Emitter, name: &str, ty, init| {
            fb.function.local_variables.append(
                naga::LocalVariable {
                    name: Some(name.into()),
                    ty,
                    init: Some(init),
                },
                Span::UNDEFINED,
            )
        };
        let u32_ty = self.u32_type();
        let zero_u64 = fb.function.expressions.append(
            naga::Expression::Literal(naga::Literal::U64(0)),
            Span::UNDEFINED,
        );
        let sixty_four = fb.function.expressions.append(
            naga::Expression::Literal(naga::Literal::U32(64)),
            Span::UNDEFINED,
        );
        let (q_var, r_var) = (
            var(&mut fb, "q", u64_ty, zero_u64),
            var(&mut fb, "r", u64_ty, zero_u64),
        );
        let i_var = var(&mut fb, "i", u32_ty, sixty_four);
        let load = |fb: &mut Emitter, v| {
            let pointer = fb.add(naga::Expression::LocalVariable(v));
            fb.add(naga::Expression::Load { pointer })
        };
        let store = |fb: &mut Emitter, v, value| {
            let pointer = fb.add(naga::Expression::LocalVariable(v));
            fb.push(naga::Statement::Store { pointer, value });
        };
        fb.blocks.push(naga::Block::new());
        {
            let i = load(&mut fb, i_var);
            let zero32 = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
            let done = fb.binary(B::Equal, i, zero32);
            let mut exit = naga::Block::new();
            exit.push(naga::Statement::Break, Span::UNDEFINED);
            fb.push(naga::Statement::If {
                condition: done,
                accept: exit,
                reject: naga::Block::new(),
            });
            let one32 = fb.add(naga::Expression::Literal(naga::Literal::U32(1)));
            let bit = fb.binary(B::Subtract, i, one32);
            store(&mut fb, i_var, bit);
            // r = r << 1 | (n >> bit & 1); a bit shifted out of r's top
            // makes it at least 2^64 > d.
            let r = load(&mut fb, r_var);
            let sixty_three = fb.add(naga::Expression::Literal(naga::Literal::U32(63)));
            let top = fb.binary(B::ShiftRight, r, sixty_three);
            let zero = lit(&mut fb, 0);
            let overflows = fb.binary(B::NotEqual, top, zero);
            let shifted = fb.binary(B::ShiftLeft, r, one32);
            let next_bit = fb.binary(B::ShiftRight, n, bit);
            let one = lit(&mut fb, 1);
            let next_bit = fb.binary(B::And, next_bit, one);
            let r = fb.binary(B::InclusiveOr, shifted, next_bit);
            // if r >= d { r -= d; q |= 1 << bit }
            let at_least_d = fb.binary(B::GreaterEqual, r, d);
            let fits = fb.binary(B::InclusiveOr, overflows, at_least_d);
            let less = fb.binary(B::Subtract, r, d);
            let r = fb.select(fits, less, r);
            store(&mut fb, r_var, r);
            let q = load(&mut fb, q_var);
            let zero = lit(&mut fb, 0);
            let set = fb.binary(B::ShiftLeft, one, bit);
            let set = fb.select(fits, set, zero);
            let q = fb.binary(B::InclusiveOr, q, set);
            store(&mut fb, q_var, q);
        }
        let body = fb.blocks.pop().expect("division loop");
        fb.push(naga::Statement::Loop {
            body,
            continuing: naga::Block::new(),
            break_if: None,
        });
        let (q, r) = (load(&mut fb, q_var), load(&mut fb, r_var));
        ret(&mut fb, q, r);
        let mut function = fb.finish();
        function.name = Some("udivmod64".into());
        let handle = self.module.functions.append(function, Span::UNDEFINED);
        self.library.helpers.insert("udivmod64", handle);
        handle
    }
}

/// A 64-bit integer's bits as `u64`.
fn to_u64(fb: &mut Emitter, v: Handle<naga::Expression>) -> Handle<naga::Expression> {
    fb.add(naga::Expression::As {
        expr: v,
        kind: naga::ScalarKind::Uint,
        convert: None,
    })
}
