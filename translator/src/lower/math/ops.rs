//! The small vocabulary the software math functions are written in: f32
//! arithmetic, comparisons, selects, bit casts and the error-free
//! double-float steps, all over a naga value of one shape (a scalar or a
//! 2/3/4-lane vector; constants are splat to it).
//!
//! Nothing here relies on a fused multiply-add: Vulkan lets `Fma` and a
//! `mul` followed by an `add` be contracted or not, so every product whose
//! rounding error matters is made exact by splitting its operands into
//! 12-bit halves with an integer mask.

use naga::{BinaryOperator as B, Expression, Handle, MathFunction, Scalar, ScalarKind};
use std::collections::HashMap;

/// Divisors beyond this (2^126) are scaled before dividing: some drivers
/// divide by multiplying with a reciprocal, which is flushed to zero there.
pub(crate) const DIVISOR_LIMIT: f64 = 8.507_059_173_023_462e37;

use super::super::FnBuilder;

pub(super) type V = Handle<Expression>;

/// A double-float `hi + lo` with `|lo|` at most about half an ulp of `hi`.
#[derive(Clone, Copy)]
pub(super) struct Df {
    pub hi: V,
    pub lo: V,
}

/// `v` rounded to `bits` significant bits (so products with a value of
/// `24 - bits` bits are exact) and the f32 remainder.
pub(super) fn split_constant(v: f64, bits: i32) -> (f64, f64) {
    let exponent = v.abs().log2().floor() as i32;
    let unit = 2f64.powi(exponent + 1 - bits);
    let hi = (v / unit).round() * unit;
    (hi, f64::from((v - hi) as f32))
}

pub(super) struct Ops<'f> {
    pub fb: &'f mut FnBuilder,
    pub size: Option<naga::VectorSize>,
    /// Constants made so far in the current block, by literal: a splat is
    /// an emitted expression, so it is reused only within its block.
    constants: HashMap<LiteralKey, V>,
}

/// A literal's kind and bits.
type LiteralKey = (u8, u32);

impl<'f> Ops<'f> {
    pub fn new(fb: &'f mut FnBuilder, size: Option<naga::VectorSize>) -> Self {
        Ops {
            fb,
            size,
            constants: HashMap::new(),
        }
    }

    /// Opens a nested block (a loop body): constants made inside stay there.
    pub fn open_block(&mut self) {
        self.constants.clear();
        self.fb.blocks.push(naga::Block::new());
    }

    /// Closes the block [`Ops::open_block`] opened and returns it.
    pub fn close_block(&mut self) -> naga::Block {
        self.constants.clear();
        self.fb.blocks.pop().expect("open block")
    }

    fn constant(&mut self, literal: naga::Literal) -> V {
        let key = match literal {
            naga::Literal::F32(v) => (0, v.to_bits()),
            naga::Literal::I32(v) => (1, v as u32),
            naga::Literal::U32(v) => (2, v),
            _ => unreachable!("32-bit literals only"),
        };
        if let Some(&v) = self.constants.get(&key) {
            return v;
        }
        let lit = self.fb.add(Expression::Literal(literal));
        let v = self.splat(lit);
        self.constants.insert(key, v);
        v
    }
}

impl Ops<'_> {
    fn splat(&mut self, scalar: V) -> V {
        match self.size {
            Some(size) => self.fb.add(Expression::Splat {
                size,
                value: scalar,
            }),
            None => scalar,
        }
    }

    /// The f32 constant nearest `v`.
    pub fn f(&mut self, v: f64) -> V {
        let lit = self
            .fb
            .add(Expression::Literal(naga::Literal::F32(v as f32)));
        self.splat(lit)
    }

    /// The f32 with bit pattern `bits` (infinities and NaNs have no
    /// literal).
    pub fn f_bits(&mut self, bits: u32) -> V {
        let i = self.u(bits);
        self.as_float(i)
    }

    pub fn inf(&mut self) -> V {
        self.f_bits(0x7f80_0000)
    }

    pub fn nan(&mut self) -> V {
        self.f_bits(0x7fc0_0000)
    }

    pub fn i(&mut self, v: i32) -> V {
        self.constant(naga::Literal::I32(v))
    }

    pub fn u(&mut self, v: u32) -> V {
        self.constant(naga::Literal::U32(v))
    }

    fn bin(&mut self, op: B, a: V, b: V) -> V {
        self.fb.binary(op, a, b)
    }

    pub fn add(&mut self, a: V, b: V) -> V {
        self.bin(B::Add, a, b)
    }
    pub fn sub(&mut self, a: V, b: V) -> V {
        self.bin(B::Subtract, a, b)
    }
    pub fn mul(&mut self, a: V, b: V) -> V {
        self.bin(B::Multiply, a, b)
    }
    /// `a / b` over the whole float range: a divisor beyond 2^126 is
    /// scaled down with the dividend first (see
    /// [`crate::lower::ModuleBuilder::divide_f32`]).
    pub fn div(&mut self, a: V, b: V) -> V {
        let constants = [self.f(DIVISOR_LIMIT), self.f(0.25), self.f(1.0)];
        super::super::scaled_divide(self.fb, a, b, constants)
    }
    /// Integer quotient (unsigned operands).
    pub fn udiv(&mut self, a: V, b: V) -> V {
        self.bin(B::Divide, a, b)
    }
    /// Integer remainder (unsigned operands).
    pub fn rem(&mut self, a: V, b: V) -> V {
        self.bin(B::Modulo, a, b)
    }
    pub fn neg(&mut self, a: V) -> V {
        self.fb.unary(naga::UnaryOperator::Negate, a)
    }
    /// `a * b + c`, fused or not (see the module comment).
    pub fn mad(&mut self, a: V, b: V, c: V) -> V {
        self.fb.add(Expression::Math {
            fun: MathFunction::Fma,
            arg: a,
            arg1: Some(b),
            arg2: Some(c),
            arg3: None,
        })
    }
    pub fn mulc(&mut self, a: V, c: f64) -> V {
        let c = self.f(c);
        self.mul(a, c)
    }
    pub fn addc(&mut self, a: V, c: f64) -> V {
        let c = self.f(c);
        self.add(a, c)
    }

    pub fn lt(&mut self, a: V, b: V) -> V {
        self.bin(B::Less, a, b)
    }
    pub fn le(&mut self, a: V, b: V) -> V {
        self.bin(B::LessEqual, a, b)
    }
    pub fn gt(&mut self, a: V, b: V) -> V {
        self.bin(B::Greater, a, b)
    }
    pub fn ge(&mut self, a: V, b: V) -> V {
        self.bin(B::GreaterEqual, a, b)
    }
    pub fn eq(&mut self, a: V, b: V) -> V {
        self.bin(B::Equal, a, b)
    }
    /// Integer inequality (floats: use `not(eq)`, which is true for NaN).
    pub fn ne(&mut self, a: V, b: V) -> V {
        self.bin(B::NotEqual, a, b)
    }
    pub fn ltc(&mut self, a: V, c: f64) -> V {
        let c = self.f(c);
        self.lt(a, c)
    }
    pub fn gtc(&mut self, a: V, c: f64) -> V {
        let c = self.f(c);
        self.gt(a, c)
    }
    pub fn gec(&mut self, a: V, c: f64) -> V {
        let c = self.f(c);
        self.ge(a, c)
    }
    pub fn eqc(&mut self, a: V, c: f64) -> V {
        let c = self.f(c);
        self.eq(a, c)
    }
    pub fn and(&mut self, a: V, b: V) -> V {
        self.bin(B::And, a, b)
    }
    pub fn or(&mut self, a: V, b: V) -> V {
        self.bin(B::InclusiveOr, a, b)
    }
    pub fn xor(&mut self, a: V, b: V) -> V {
        self.bin(B::ExclusiveOr, a, b)
    }
    pub fn not(&mut self, a: V) -> V {
        self.fb.unary(naga::UnaryOperator::LogicalNot, a)
    }
    /// Shifts an integer left by a constant.
    pub fn shl(&mut self, a: V, n: u32) -> V {
        let n = self.u(n);
        self.bin(B::ShiftLeft, a, n)
    }
    /// Shifts an integer right by a constant (arithmetically if signed).
    pub fn shr(&mut self, a: V, n: u32) -> V {
        let n = self.u(n);
        self.bin(B::ShiftRight, a, n)
    }
    pub fn shl_by(&mut self, a: V, n: V) -> V {
        self.bin(B::ShiftLeft, a, n)
    }

    pub fn sel(&mut self, condition: V, accept: V, reject: V) -> V {
        self.fb.select(condition, accept, reject)
    }

    pub fn math(&mut self, fun: MathFunction, a: V) -> V {
        self.fb.math(fun, a, None)
    }
    pub fn abs(&mut self, a: V) -> V {
        self.math(MathFunction::Abs, a)
    }
    pub fn floor(&mut self, a: V) -> V {
        self.math(MathFunction::Floor, a)
    }
    pub fn trunc(&mut self, a: V) -> V {
        self.math(MathFunction::Trunc, a)
    }
    /// Rounds to the nearest integer, ties to even (exact).
    pub fn rint(&mut self, a: V) -> V {
        self.math(MathFunction::Round, a)
    }
    /// GLSL's min/max: only where no operand can be NaN.
    pub fn min(&mut self, a: V, b: V) -> V {
        self.fb.math(MathFunction::Min, a, Some(b))
    }
    pub fn max(&mut self, a: V, b: V) -> V {
        self.fb.math(MathFunction::Max, a, Some(b))
    }

    pub fn is_nan(&mut self, a: V) -> V {
        self.fb.add(Expression::Relational {
            fun: naga::RelationalFunction::IsNan,
            argument: a,
        })
    }
    pub fn is_inf(&mut self, a: V) -> V {
        self.fb.add(Expression::Relational {
            fun: naga::RelationalFunction::IsInf,
            argument: a,
        })
    }

    fn cast(&mut self, expr: V, kind: ScalarKind, convert: Option<u8>) -> V {
        self.fb.add(Expression::As {
            expr,
            kind,
            convert,
        })
    }
    /// The bits of an f32 as i32.
    pub fn bits(&mut self, a: V) -> V {
        self.cast(a, ScalarKind::Sint, None)
    }
    /// A 32-bit integer's bits as f32.
    pub fn as_float(&mut self, a: V) -> V {
        self.cast(a, ScalarKind::Float, None)
    }
    /// An integer's value as f32 (rounded).
    pub fn float_from_int(&mut self, a: V) -> V {
        self.cast(a, ScalarKind::Float, Some(Scalar::F32.width))
    }
    /// An f32's value as i32 (truncated; only for values in range).
    pub fn int_from_float(&mut self, a: V) -> V {
        self.cast(a, ScalarKind::Sint, Some(4))
    }
    /// An integer's value as u32 / i32 (same width: the bits).
    pub fn uint_bits(&mut self, a: V) -> V {
        self.cast(a, ScalarKind::Uint, None)
    }
    pub fn sint_bits(&mut self, a: V) -> V {
        self.cast(a, ScalarKind::Sint, None)
    }

    /// `|a|` with the sign bit of `sign`.
    pub fn copysign(&mut self, a: V, sign: V) -> V {
        let (a, s) = (self.bits(a), self.bits(sign));
        let (magnitude, sign_bit) = (self.i(0x7fff_ffff), self.i(i32::MIN));
        let a = self.and(a, magnitude);
        let s = self.and(s, sign_bit);
        let both = self.or(a, s);
        self.as_float(both)
    }

    /// `-a` by flipping the sign bit: exact for zeros too, where Vulkan
    /// does not promise that arithmetic keeps the sign of zero.
    pub fn flip_sign(&mut self, a: V) -> V {
        let bits = self.bits(a);
        let sign = self.i(i32::MIN);
        let flipped = self.xor(bits, sign);
        self.as_float(flipped)
    }

    /// Whether the sign bit is set (true for -0 and negative NaNs).
    pub fn sign_bit(&mut self, a: V) -> V {
        let bits = self.bits(a);
        let zero = self.i(0);
        self.lt(bits, zero)
    }

    /// `2^k` for integer lanes `k` in [-126, 127].
    pub fn pow2(&mut self, k: V) -> V {
        let bias = self.i(127);
        let biased = self.add(k, bias);
        let field = self.shl(biased, 23);
        self.as_float(field)
    }

    /// `v * 2^k` for integer `k` in [-252, 254], rounding once.
    pub fn scale(&mut self, v: V, k: V) -> V {
        let k1 = self.shr(k, 1);
        let k2 = self.sub(k, k1);
        let (s1, s2) = (self.pow2(k1), self.pow2(k2));
        let once = self.mul(v, s1);
        self.mul(once, s2)
    }

    /// The polynomial `c[0] + c[1] x + ...` by Horner's rule.
    pub fn poly(&mut self, x: V, c: &[f64]) -> V {
        let mut acc = self.f(*c.last().expect("coefficients"));
        for &k in c.iter().rev().skip(1) {
            let k = self.f(k);
            acc = self.mad(acc, x, k);
        }
        acc
    }

    /// `a` with its 12 low mantissa bits cleared: 12 significant bits.
    pub fn high_half(&mut self, a: V) -> V {
        let bits = self.bits(a);
        let mask = self.i(!0xfff);
        let high = self.and(bits, mask);
        self.as_float(high)
    }

    /// `a` as two halves of at most 12 significant bits each (exact).
    pub fn split(&mut self, a: V) -> (V, V) {
        let hi = self.high_half(a);
        (hi, self.sub(a, hi))
    }

    /// `a + b` exactly (Knuth).
    pub fn two_sum(&mut self, a: V, b: V) -> Df {
        let s = self.add(a, b);
        let bb = self.sub(s, a);
        let aa = self.sub(s, bb);
        let da = self.sub(a, aa);
        let db = self.sub(b, bb);
        let lo = self.add(da, db);
        Df { hi: s, lo }
    }

    /// `a + b` exactly when `|a| >= |b|` (Dekker).
    pub fn fast_two_sum(&mut self, a: V, b: V) -> Df {
        let s = self.add(a, b);
        let t = self.sub(s, a);
        let lo = self.sub(b, t);
        Df { hi: s, lo }
    }

    /// `a * b` exactly (Dekker, with mask splitting).
    pub fn two_prod(&mut self, a: V, b: V) -> Df {
        let p = self.mul(a, b);
        let (ah, al) = self.split(a);
        let (bh, bl) = self.split(b);
        let hh = self.mul(ah, bh);
        let e = self.sub(hh, p);
        let hl = self.mul(ah, bl);
        let e = self.add(e, hl);
        let lh = self.mul(al, bh);
        let e = self.add(e, lh);
        let ll = self.mul(al, bl);
        let lo = self.add(e, ll);
        Df { hi: p, lo }
    }

    /// `(hi + lo) * y` as a double-float.
    pub fn df_mul(&mut self, a: Df, y: V) -> Df {
        let p = self.two_prod(a.hi, y);
        let tail = self.mul(a.lo, y);
        let lo = self.add(p.lo, tail);
        self.fast_two_sum(p.hi, lo)
    }

    /// `(hi + lo) * c` for a constant `c`.
    pub fn df_mulc(&mut self, a: Df, c: f64) -> Df {
        let c = self.f(c);
        self.df_mul(a, c)
    }

    pub fn df_add(&mut self, a: Df, b: Df) -> Df {
        let s = self.two_sum(a.hi, b.hi);
        let lows = self.add(a.lo, b.lo);
        let lo = self.add(s.lo, lows);
        self.fast_two_sum(s.hi, lo)
    }

    /// The f32 nearest a double-float.
    pub fn df_value(&mut self, a: Df) -> V {
        self.add(a.hi, a.lo)
    }

    pub fn one_zero(&mut self, c: V) -> V {
        let (one, zero) = (self.i(1), self.i(0));
        self.sel(c, one, zero)
    }
}
