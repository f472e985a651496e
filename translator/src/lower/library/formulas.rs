//! The exact parts of the built-in library: integer functions (`clz`,
//! `popcount`, `add_sat`, `hadd`, `mul_hi`, `rotate`, ...), the common
//! functions whose definition is a formula (`clamp`, `mix`, `step`,
//! `smoothstep`, `sign`, `degrees`, `radians`), `dot` and `cross`, and the
//! relational functions (`isequal` .. `isnormal`, `signbit`, `any`, `all`,
//! `select`, `bitselect`).
//!
//! Each follows the OpenCL C definition rather than the GLSL instruction of
//! a similar name where the two differ (GLSL's `mix` rounds differently,
//! its `sign` and `clamp` leave NaN undefined). `char`/`short` values live
//! in 32-bit registers, so their results are computed there exactly and
//! wrapped or clamped back to the type.

use crate::ast::BinaryOp;
use crate::builtins::Builtin;
use crate::diagnostic::Location;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::constants::{float_literal, register_literal};
use crate::lower::emit::Emitter;
use crate::lower::expressions::Operand;
use crate::lower::function::FnBuilder;
use crate::lower::library::fp16;
use crate::lower::naga_types::naga_scalar;
use crate::types::{Scalar, Type};
use naga::{BinaryOperator as B, Handle};

impl ModuleBuilder<'_> {
    /// `b` applied to `args` with result type `ty`, or `None` when `b` is
    /// not one of this module's functions.
    pub(super) fn library_builtin(
        &mut self,
        fb: &mut FnBuilder,
        b: Builtin,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Option<Handle<naga::Expression>>> {
        if let Some(h) = self.geometric_builtin(fb, b, args, location)? {
            return Ok(Some(h));
        }
        let arg_ty = args.first().map_or(Type::INT, |a| fb.ty(*a));
        let elem = arg_ty.element().unwrap_or(Scalar::Int);
        let h = match b {
            Builtin::Clamp if elem.is_float() => {
                // fmin(fmax(x, lo), hi) as OpenCL defines them: a NaN x
                // gives lo (GLSL's FMax/FMin leave NaN undefined).
                let [x, lo, hi] = self.values::<3>(fb, args, location)?;
                let above = fb.binary(B::GreaterEqual, x, lo);
                let low = fb.select(above, x, lo);
                let below = fb.binary(B::LessEqual, low, hi);
                fb.select(below, low, hi)
            }
            Builtin::Clamp => {
                let [x, lo, hi] = self.values::<3>(fb, args, location)?;
                let low = fb.math(naga::MathFunction::Max, x, Some(lo));
                fb.math(naga::MathFunction::Min, low, Some(hi))
            }
            Builtin::Mix => {
                let [x, y, a] = self.values::<3>(fb, args, location)?;
                let d = fb.binary(B::Subtract, y, x);
                let scaled = fb.binary(B::Multiply, d, a);
                fb.binary(B::Add, x, scaled)
            }
            Builtin::Step => {
                let [edge, x] = self.values::<2>(fb, args, location)?;
                let below = fb.binary(B::Less, x, edge);
                let (zero, one) = (
                    self.float_constant(fb, ty, 0.0, location)?,
                    self.float_constant(fb, ty, 1.0, location)?,
                );
                fb.select(below, zero, one)
            }
            Builtin::Smoothstep => {
                let [e0, e1, x] = self.values::<3>(fb, args, location)?;
                let (zero, one) = (
                    self.float_constant(fb, ty, 0.0, location)?,
                    self.float_constant(fb, ty, 1.0, location)?,
                );
                let num = fb.binary(B::Subtract, x, e0);
                let den = fb.binary(B::Subtract, e1, e0);
                let t = fb.binary(B::Divide, num, den);
                let t = fb.math(naga::MathFunction::Max, t, Some(zero));
                let t = fb.math(naga::MathFunction::Min, t, Some(one));
                let (two, three) = (
                    self.float_constant(fb, ty, 2.0, location)?,
                    self.float_constant(fb, ty, 3.0, location)?,
                );
                let twice = fb.binary(B::Multiply, two, t);
                let shape = fb.binary(B::Subtract, three, twice);
                let tt = fb.binary(B::Multiply, t, t);
                fb.binary(B::Multiply, tt, shape)
            }
            Builtin::Sign => {
                // 1 or -1, +-0 for +-0, and NaN -> 0. The zero is x's sign
                // bit alone, not x: a subnormal that compares as zero on a
                // device that flushes them must come back as a zero too.
                let [x] = self.values::<1>(fb, args, location)?;
                let (zero, one, minus) = (
                    self.float_constant(fb, ty, 0.0, location)?,
                    self.float_constant(fb, ty, 1.0, location)?,
                    self.float_constant(fb, ty, -1.0, location)?,
                );
                let is_nan = fb.add(naga::Expression::Relational {
                    fun: naga::RelationalFunction::IsNan,
                    argument: x,
                });
                let (bits_scalar, sign_bit) = match elem {
                    Scalar::Double => (Scalar::ULong, 1u64 << 63),
                    _ => (Scalar::UInt, 1u64 << 31),
                };
                let bits_ty = match ty {
                    Type::Vector(_, n) => Type::Vector(bits_scalar, *n),
                    _ => Type::Scalar(bits_scalar),
                };
                let bits = self.bitcast(fb, x, &bits_ty, location)?;
                let sign_bit = self.constant(fb, &bits_ty, sign_bit, location)?;
                let sign = fb.binary(B::And, bits, sign_bit);
                let signed_zero = self.bitcast(fb, sign, ty, location)?;
                let zero_or_x = fb.select(is_nan, zero, signed_zero);
                let negative = fb.binary(B::Less, x, zero);
                let rest = fb.select(negative, minus, zero_or_x);
                let positive = fb.binary(B::Greater, x, zero);
                fb.select(positive, one, rest)
            }
            Builtin::Degrees | Builtin::Radians => {
                let [x] = self.values::<1>(fb, args, location)?;
                let factor = if b == Builtin::Degrees {
                    180.0 / std::f64::consts::PI
                } else {
                    std::f64::consts::PI / 180.0
                };
                let factor = self.float_constant(fb, ty, factor, location)?;
                fb.binary(B::Multiply, x, factor)
            }
            Builtin::Dot => {
                let [x, y] = self.values::<2>(fb, args, location)?;
                match arg_ty {
                    Type::Vector(..) => fb.math(naga::MathFunction::Dot, x, Some(y)),
                    _ => fb.binary(B::Multiply, x, y),
                }
            }
            Builtin::Cross => self.cross(fb, args, &arg_ty, location)?,
            Builtin::Clz | Builtin::Ctz | Builtin::Popcount => {
                let [x] = self.values::<1>(fb, args, location)?;
                self.bit_count(fb, b, x, &arg_ty, location)?
            }
            Builtin::Abs | Builtin::AbsDiff => {
                let x = match b {
                    Builtin::Abs => self.values::<1>(fb, args, location)?[0],
                    _ => {
                        let [x, y] = self.values::<2>(fb, args, location)?;
                        // |x - y| by the larger minus the smaller, which the
                        // unsigned result holds exactly even where x - y
                        // overflows the signed type.
                        let greater = fb.binary(B::Greater, x, y);
                        let (d1, d2) = (fb.binary(B::Subtract, x, y), fb.binary(B::Subtract, y, x));
                        let difference = fb.select(greater, d1, d2);
                        return Ok(Some(
                            self.reinterpret(fb, difference, &arg_ty, ty, location)?,
                        ));
                    }
                };
                if elem.is_signed() {
                    let zero = self.constant(fb, &arg_ty, 0, location)?;
                    let negative = fb.binary(B::Less, x, zero);
                    let negated = fb.binary(B::Subtract, zero, x);
                    let magnitude = fb.select(negative, negated, x);
                    self.reinterpret(fb, magnitude, &arg_ty, ty, location)?
                } else {
                    x
                }
            }
            Builtin::Hadd | Builtin::Rhadd => {
                let [x, y] = self.values::<2>(fb, args, location)?;
                // (x >> 1) + (y >> 1) + the carry of the low bits: never
                // overflows, and shifts arithmetically for signed types.
                let one = self.constant(fb, &arg_ty, 1, location)?;
                let shift = self.shift_amount(fb, &arg_ty, 1, location)?;
                let (hx, hy) = (
                    fb.binary(B::ShiftRight, x, shift),
                    fb.binary(B::ShiftRight, y, shift),
                );
                let low = if b == Builtin::Hadd {
                    fb.binary(B::And, x, y)
                } else {
                    fb.binary(B::InclusiveOr, x, y)
                };
                let carry = fb.binary(B::And, low, one);
                let sum = fb.binary(B::Add, hx, hy);
                fb.binary(B::Add, sum, carry)
            }
            Builtin::AddSat | Builtin::SubSat => {
                let [x, y] = self.values::<2>(fb, args, location)?;
                self.saturating(fb, b == Builtin::AddSat, x, y, &arg_ty, location)?
            }
            Builtin::MulHi | Builtin::MadHi => {
                let [x, y] = self.values::<2>(fb, &args[..2], location)?;
                let hi = self.mul_hi(fb, x, y, &arg_ty, location)?;
                match b {
                    Builtin::MadHi => {
                        let z = self.plain(fb, args[2])?;
                        let sum = fb.binary(B::Add, hi, z);
                        self.wrap_narrow(fb, sum, ty)?
                    }
                    _ => hi,
                }
            }
            Builtin::Mul24 | Builtin::Mad24 => {
                let [x, y] = self.values::<2>(fb, &args[..2], location)?;
                let product = fb.binary(B::Multiply, x, y);
                match b {
                    Builtin::Mad24 => {
                        let z = self.plain(fb, args[2])?;
                        fb.binary(B::Add, product, z)
                    }
                    _ => product,
                }
            }
            Builtin::MadSat => {
                let v = self.values::<3>(fb, args, location)?;
                self.mad_sat(fb, v, &arg_ty, location)?
            }
            Builtin::Upsample => {
                let v = self.values::<2>(fb, args, location)?;
                let lo_ty = fb.ty(args[1]);
                self.upsample(fb, v, &arg_ty, &lo_ty, ty, location)?
            }
            Builtin::Rotate => {
                let [x, n] = self.values::<2>(fb, args, location)?;
                self.rotate(fb, x, n, &arg_ty, location)?
            }
            Builtin::Isequal
            | Builtin::Isnotequal
            | Builtin::Isgreater
            | Builtin::Isgreaterequal
            | Builtin::Isless
            | Builtin::Islessequal => {
                let op = match b {
                    Builtin::Isequal => BinaryOp::Eq,
                    Builtin::Isnotequal => BinaryOp::Ne,
                    Builtin::Isgreater => BinaryOp::Gt,
                    Builtin::Isgreaterequal => BinaryOp::Ge,
                    Builtin::Isless => BinaryOp::Lt,
                    _ => BinaryOp::Le,
                };
                let c = self.comparison(fb, op, args[0], args[1])?;
                self.bool_to_int(fb, c, ty, location)?
            }
            Builtin::Islessgreater => {
                let [x, y] = self.values::<2>(fb, args, location)?;
                let (lt, gt) = (fb.binary(B::Less, x, y), fb.binary(B::Greater, x, y));
                let c = fb.binary(B::InclusiveOr, lt, gt);
                self.bool_to_int(fb, c, ty, location)?
            }
            Builtin::Isordered | Builtin::Isunordered => {
                let [x, y] = self.values::<2>(fb, args, location)?;
                let is_nan = |fb: &mut Emitter, argument| {
                    fb.add(naga::Expression::Relational {
                        fun: naga::RelationalFunction::IsNan,
                        argument,
                    })
                };
                let (x_nan, y_nan) = (is_nan(fb, x), is_nan(fb, y));
                let unordered = fb.binary(B::InclusiveOr, x_nan, y_nan);
                let c = if b == Builtin::Isordered {
                    fb.unary(naga::UnaryOperator::LogicalNot, unordered)
                } else {
                    unordered
                };
                self.bool_to_int(fb, c, ty, location)?
            }
            Builtin::Isnan | Builtin::Isinf | Builtin::Isfinite | Builtin::Isnormal => {
                let [x] = self.values::<1>(fb, args, location)?;
                let relational = |fb: &mut Emitter, fun| {
                    fb.add(naga::Expression::Relational { fun, argument: x })
                };
                let c = match b {
                    Builtin::Isnan => relational(fb, naga::RelationalFunction::IsNan),
                    Builtin::Isinf => relational(fb, naga::RelationalFunction::IsInf),
                    _ => {
                        let nan = relational(fb, naga::RelationalFunction::IsNan);
                        let inf = relational(fb, naga::RelationalFunction::IsInf);
                        let either = fb.binary(B::InclusiveOr, nan, inf);
                        let finite = fb.unary(naga::UnaryOperator::LogicalNot, either);
                        if b == Builtin::Isfinite {
                            finite
                        } else {
                            let smallest = match elem {
                                Scalar::Double => f64::MIN_POSITIVE,
                                Scalar::Half => 2f64.powi(-14),
                                _ => f64::from(f32::MIN_POSITIVE),
                            };
                            let smallest = self.float_constant(fb, &arg_ty, smallest, location)?;
                            let magnitude = fb.math(naga::MathFunction::Abs, x, None);
                            let big = fb.binary(B::GreaterEqual, magnitude, smallest);
                            fb.binary(B::And, finite, big)
                        }
                    }
                };
                self.bool_to_int(fb, c, ty, location)?
            }
            Builtin::Signbit => {
                let [x] = self.values::<1>(fb, args, location)?;
                let signed = match elem {
                    Scalar::Double => Type::Scalar(Scalar::Long),
                    _ => Type::INT,
                };
                let signed = match arg_ty {
                    Type::Vector(_, n) => Type::Vector(signed.element().unwrap_or(Scalar::Int), n),
                    _ => signed,
                };
                let bits = self.bitcast(fb, x, &signed, location)?;
                let zero = self.constant(fb, &signed, 0, location)?;
                let c = fb.binary(B::Less, bits, zero);
                self.bool_to_int(fb, c, ty, location)?
            }
            Builtin::Any | Builtin::All => {
                // The most significant bit of each lane decides.
                let [x] = self.values::<1>(fb, args, location)?;
                let zero = self.constant(fb, &arg_ty, 0, location)?;
                let set = fb.binary(B::Less, x, zero);
                let c = match arg_ty {
                    Type::Vector(..) => fb.add(naga::Expression::Relational {
                        fun: if b == Builtin::Any {
                            naga::RelationalFunction::Any
                        } else {
                            naga::RelationalFunction::All
                        },
                        argument: set,
                    }),
                    _ => set,
                };
                self.bool_to_int(fb, c, ty, location)?
            }
            Builtin::Select => {
                let [a, bv, c] = self.values::<3>(fb, args, location)?;
                let c_ty = &fb.ty(args[2]);
                // Scalars select on non-zero, vectors on each lane's MSB:
                // below zero when signed, at least 2^(bits - 1) when not.
                let chosen = match *c_ty {
                    Type::Vector(s, _) if s.is_signed() => {
                        let zero = self.constant(fb, c_ty, 0, location)?;
                        fb.binary(B::Less, c, zero)
                    }
                    Type::Vector(s, _) => {
                        let msb = 1u64 << (s.size() * 8 - 1);
                        let msb = self.constant(fb, c_ty, msb, location)?;
                        fb.binary(B::GreaterEqual, c, msb)
                    }
                    _ => {
                        let zero = self.constant(fb, c_ty, 0, location)?;
                        fb.binary(B::NotEqual, c, zero)
                    }
                };
                fb.select(chosen, bv, a)
            }
            Builtin::Bitselect if !elem.is_float() => {
                let [a, bv, c] = self.values::<3>(fb, args, location)?;
                let keep = fb.unary(naga::UnaryOperator::BitwiseNot, c);
                let from_a = fb.binary(B::And, a, keep);
                let from_b = fb.binary(B::And, bv, c);
                fb.binary(B::InclusiveOr, from_a, from_b)
            }
            Builtin::Bitselect => {
                // `float`/`double`: the same on the lanes' bits.
                let bits = fp16::with_element(
                    &arg_ty,
                    if elem == Scalar::Double {
                        Scalar::ULong
                    } else {
                        Scalar::UInt
                    },
                );
                let [a, bv, c] = self.values::<3>(fb, args, location)?;
                let [a, bv, c] = [a, bv, c].map(|v| self.bitcast(fb, v, &bits, location));
                let (a, bv, c) = (a?, bv?, c?);
                let keep = fb.unary(naga::UnaryOperator::BitwiseNot, c);
                let from_a = fb.binary(B::And, a, keep);
                let from_b = fb.binary(B::And, bv, c);
                let r = fb.binary(B::InclusiveOr, from_a, from_b);
                self.bitcast(fb, r, &arg_ty, location)?
            }
            _ => return Ok(None),
        };
        Ok(Some(h))
    }

    /// The first `N` arguments as values.
    fn values<const N: usize>(
        &mut self,
        fb: &mut FnBuilder,
        args: &[Operand],
        location: Location,
    ) -> LResult<[Handle<naga::Expression>; N]> {
        let mut out = Vec::with_capacity(N);
        for &a in args.iter().take(N) {
            out.push(self.plain(fb, a)?);
        }
        // The checker matched the call to a signature with N arguments.
        out.try_into().map_err(|_| {
            self.error(
                location,
                "internal compiler error: built-in called with too few arguments",
            )
        })
    }

    /// The register bits `v` in every lane of `ty` (for a `char`, a 32-bit
    /// pattern, where [`ModuleBuilder::constant`] would make a `char` value).
    fn register_constant(
        &mut self,
        fb: &mut FnBuilder,
        ty: &Type,
        v: u64,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let s = naga_scalar(ty.element().unwrap_or(Scalar::Int));
        let lit = fb.add(naga::Expression::Literal(register_literal(s, v)));
        self.splat_to(fb, lit, ty, location)
    }

    /// A shift amount of `n` for values of `ty` (naga shifts by unsigned
    /// amounts of the same shape).
    pub(super) fn shift_amount(
        &mut self,
        fb: &mut FnBuilder,
        ty: &Type,
        n: u64,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let shape = match ty {
            Type::Vector(_, k) => Type::Vector(Scalar::UInt, *k),
            _ => Type::UINT,
        };
        self.constant(fb, &shape, n, location)
    }

    /// `v`'s bits as `to` (same lane width in registers).
    pub(in crate::lower) fn bitcast(
        &mut self,
        fb: &mut FnBuilder,
        v: Handle<naga::Expression>,
        to: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let s = to
            .element()
            .ok_or_else(|| self.error(location, "bitcast to a non-arithmetic type"))?;
        Ok(fb.add(naga::Expression::As {
            expr: v,
            kind: naga_scalar(s).kind,
            convert: None,
        }))
    }

    /// A non-negative `v` of type `from` as the unsigned type `to`.
    fn reinterpret(
        &mut self,
        fb: &mut FnBuilder,
        v: Handle<naga::Expression>,
        from: &Type,
        to: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        if from == to {
            return Ok(v);
        }
        let bits = self.bitcast(fb, v, to, location)?;
        // Narrow results keep only their own bits (|CHAR_MIN| is 128).
        self.wrap_narrow(fb, bits, to)
    }

    fn cross(
        &mut self,
        fb: &mut FnBuilder,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let [x, y] = self.values::<2>(fb, args, location)?;
        let Type::Vector(s, n) = *ty else {
            return Err(self.error(location, "cross of a non-vector"));
        };
        if n == 3 {
            return Ok(fb.math(naga::MathFunction::Cross, x, Some(y)));
        }
        // float4: the cross product of the xyz parts, w = 0.
        let xyz = |fb: &mut Emitter, v| {
            fb.add(naga::Expression::Swizzle {
                size: naga::VectorSize::Tri,
                vector: v,
                pattern: [
                    naga::SwizzleComponent::X,
                    naga::SwizzleComponent::Y,
                    naga::SwizzleComponent::Z,
                    naga::SwizzleComponent::W,
                ],
            })
        };
        let (a, b) = (xyz(fb, x), xyz(fb, y));
        let c = fb.math(naga::MathFunction::Cross, a, Some(b));
        let zero = fb.add(naga::Expression::Literal(float_literal(s, 0.0)));
        let ty = self.value_type(&Type::Vector(s, n), location)?;
        Ok(fb.add(naga::Expression::Compose {
            ty,
            components: vec![c, zero],
        }))
    }

    /// `clz`, `ctz` and `popcount` on 8- to 32-bit lanes.
    fn bit_count(
        &mut self,
        fb: &mut FnBuilder,
        b: Builtin,
        x: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let s = ty.element().unwrap_or(Scalar::Int);
        let bits = s.size() * 8;
        if bits > 32 {
            return self.bit_count64(fb, b, x, ty, location);
        }
        // Masks are register bit patterns, not values of the (narrow) type.
        let mask = self.register_constant(fb, ty, (1u64 << bits) - 1, location)?;
        let own = fb.binary(B::And, x, mask);
        Ok(match b {
            Builtin::Popcount => fb.math(naga::MathFunction::CountOneBits, own, None),
            Builtin::Clz => {
                let count = fb.math(naga::MathFunction::CountLeadingZeros, own, None);
                let extra = self.constant(fb, ty, u64::from(32 - bits), location)?;
                fb.binary(B::Subtract, count, extra)
            }
            _ => {
                // A zero lane has `bits` trailing zeros, not 32.
                let stop = self.register_constant(fb, ty, 1u64 << (bits % 32), location)?;
                let guarded = if bits < 32 {
                    fb.binary(B::InclusiveOr, own, stop)
                } else {
                    own
                };
                fb.math(naga::MathFunction::CountTrailingZeros, guarded, None)
            }
        })
    }

    /// `add_sat`/`sub_sat`: narrow types are exact in 32 bits and clamped;
    /// 32/64-bit types detect the wrap.
    fn saturating(
        &mut self,
        fb: &mut FnBuilder,
        add: bool,
        x: Handle<naga::Expression>,
        y: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let s = ty.element().unwrap_or(Scalar::Int);
        let op = if add { B::Add } else { B::Subtract };
        let r = fb.binary(op, x, y);
        let bits = s.size() * 8;
        let (min, max) = if s.is_signed() {
            let max = (1u64 << (bits - 1)) - 1;
            (max.wrapping_add(1).wrapping_neg(), max)
        } else {
            (0, u64::MAX >> (64 - bits))
        };
        let (lo, hi) = (
            self.constant(fb, ty, min, location)?,
            self.constant(fb, ty, max, location)?,
        );
        if bits < 32 {
            // Exact in 32 bits, except an unsigned difference below zero,
            // which wraps there.
            if !s.is_signed() && !add {
                let below = fb.binary(B::Less, x, y);
                return Ok(fb.select(below, lo, r));
            }
            let low = fb.math(naga::MathFunction::Max, r, Some(lo));
            return Ok(fb.math(naga::MathFunction::Min, low, Some(hi)));
        }
        Ok(if !s.is_signed() {
            // Unsigned: the sum is below x, or the difference above it.
            let wrapped = if add {
                fb.binary(B::Less, r, x)
            } else {
                fb.binary(B::Greater, r, x)
            };
            fb.select(wrapped, if add { hi } else { lo }, r)
        } else {
            // Signed: overflow when the result's sign is wrong for the
            // operands'; it then saturates toward x's sign.
            let zero = self.constant(fb, ty, 0, location)?;
            let xr = fb.binary(B::ExclusiveOr, x, r);
            let other = if add {
                fb.binary(B::ExclusiveOr, y, r)
            } else {
                fb.binary(B::ExclusiveOr, x, y)
            };
            let both = fb.binary(B::And, xr, other);
            let overflow = fb.binary(B::Less, both, zero);
            let negative = fb.binary(B::Less, x, zero);
            let bound = fb.select(negative, lo, hi);
            fb.select(overflow, bound, r)
        })
    }

    /// The high half of `x * y`: narrow types multiply exactly in 32 bits,
    /// 32-bit types in 64 (when the device has them).
    fn mul_hi(
        &mut self,
        fb: &mut FnBuilder,
        x: Handle<naga::Expression>,
        y: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let s = ty.element().unwrap_or(Scalar::Int);
        let bits = s.size() * 8;
        if bits < 32 {
            let product = fb.binary(B::Multiply, x, y);
            let shift = self.shift_amount(fb, ty, u64::from(bits), location)?;
            let hi = fb.binary(B::ShiftRight, product, shift);
            return self.wrap_narrow(fb, hi, ty);
        }
        if bits > 32 {
            return self.mul_hi64(fb, x, y, ty, location);
        }
        if !self.caps.int64 {
            return Err(self.error(
                location,
                "mul_hi on 32-bit integers needs 64-bit integer support",
            ));
        }
        let wide_elem = if s.is_signed() {
            Scalar::Long
        } else {
            Scalar::ULong
        };
        let wide = match ty {
            Type::Vector(_, n) => Type::Vector(wide_elem, *n),
            _ => Type::Scalar(wide_elem),
        };
        let (wx, wy) = (
            self.convert(fb, x, ty, &wide, location)?,
            self.convert(fb, y, ty, &wide, location)?,
        );
        let product = fb.binary(B::Multiply, wx, wy);
        let shift = self.shift_amount(fb, ty, 32, location)?;
        let hi = fb.binary(B::ShiftRight, product, shift);
        self.convert(fb, hi, &wide, ty, location)
    }

    /// `rotate(x, n)`: left by `n` modulo the width.
    fn rotate(
        &mut self,
        fb: &mut FnBuilder,
        x: Handle<naga::Expression>,
        n: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let s = ty.element().unwrap_or(Scalar::Int);
        let bits = s.size() * 8;
        if bits > 32 {
            return self.rotate64(fb, x, n, ty, location);
        }
        let unsigned = match ty {
            Type::Vector(_, k) => Type::Vector(Scalar::UInt, *k),
            _ => Type::UINT,
        };
        let ux = self.bitcast(fb, x, &unsigned, location)?;
        let un = self.bitcast(fb, n, &unsigned, location)?;
        let mask = self.constant(fb, &unsigned, (1u64 << bits) - 1, location)?;
        let ux = fb.binary(B::And, ux, mask);
        let width_mask = self.constant(fb, &unsigned, u64::from(bits - 1), location)?;
        let left = fb.binary(B::And, un, width_mask);
        let width = self.constant(fb, &unsigned, u64::from(bits), location)?;
        let right = fb.binary(B::Subtract, width, left);
        // Shifting a 32-bit lane by 32 is undefined: mask it to 0 (the
        // right part is then the whole value, ORed with itself).
        let all = self.constant(fb, &unsigned, 31, location)?;
        let right = fb.binary(B::And, right, all);
        let high = fb.binary(B::ShiftLeft, ux, left);
        let low = fb.binary(B::ShiftRight, ux, right);
        let rotated = fb.binary(B::InclusiveOr, high, low);
        let rotated = fb.binary(B::And, rotated, mask);
        let back = self.bitcast(fb, rotated, ty, location)?;
        self.wrap_narrow(fb, back, ty)
    }
}
