//! The small vocabulary the software math functions are written in: float
//! arithmetic (f32, or f64 for the `double` library), comparisons, selects,
//! bit casts and the error-free double-float steps, all over a naga value
//! of one shape (a scalar or a 2/3/4-lane vector; constants are splat to
//! it).
//!
//! Nothing here relies on a fused multiply-add: Vulkan lets `Fma` and a
//! `mul` followed by an `add` be contracted or not, so every product whose
//! rounding error matters is made exact by splitting its operands into
//! halves with an integer mask (12-bit halves of an f32; an f64's 53 bits
//! are rounded to 26 high bits, leaving at most 26 below).

use crate::lexer::FxHashMap;
use crate::lower::expressions::operators::scaled_divide;
use naga::{BinaryOperator as B, Expression, Handle, MathFunction, Scalar, ScalarKind};

/// Divisors beyond this (2^126) are scaled before dividing: some drivers
/// divide by multiplying with a reciprocal, which is flushed to zero there.
pub(crate) const DIVISOR_LIMIT: f64 = 8.507_059_173_023_462e37;

use super::super::Emitter;

pub(in crate::lower) type V = Handle<Expression>;

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
    pub fb: &'f mut Emitter,
    pub size: Option<naga::VectorSize>,
    /// Whether the float type is f64 (else f32); bit patterns then live in
    /// 64-bit integers.
    pub double: bool,
    /// Constants made so far in the current block, by literal: a splat is
    /// an emitted expression, so it is reused only within its block.
    constants: FxHashMap<LiteralKey, V>,
}

/// A literal's kind and bits.
type LiteralKey = (u8, u64);

impl<'f> Ops<'f> {
    /// The f32 (`double` false) or f64 vocabulary.
    pub fn of_width(fb: &'f mut Emitter, size: Option<naga::VectorSize>, double: bool) -> Self {
        Ops {
            fb,
            size,
            double,
            constants: FxHashMap::default(),
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
            naga::Literal::F32(v) => (0, u64::from(v.to_bits())),
            naga::Literal::I32(v) => (1, u64::from(v as u32)),
            naga::Literal::U32(v) => (2, u64::from(v)),
            naga::Literal::I64(v) => (3, v as u64),
            naga::Literal::U64(v) => (4, v),
            _ => unreachable!("integer and f32 literals only"),
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

    /// The float constant nearest `v` (f32 or f64 by the vocabulary).
    pub fn f(&mut self, v: f64) -> V {
        let literal = if self.double {
            naga::Literal::F64(v)
        } else {
            naga::Literal::F32(v as f32)
        };
        let lit = self.fb.add(Expression::Literal(literal));
        self.splat(lit)
    }

    /// The f32 with bit pattern `bits` (infinities and NaNs have no
    /// literal).
    pub fn f_bits(&mut self, bits: u32) -> V {
        let i = self.u(bits);
        self.as_float(i)
    }

    /// The f64 with bit pattern `bits`.
    pub fn d_bits(&mut self, bits: u64) -> V {
        let i = self.ul(bits);
        self.as_float(i)
    }

    pub fn inf(&mut self) -> V {
        if self.double {
            self.d_bits(0x7ff0_0000_0000_0000)
        } else {
            self.f_bits(0x7f80_0000)
        }
    }

    pub fn nan(&mut self) -> V {
        if self.double {
            self.d_bits(0x7ff8_0000_0000_0000)
        } else {
            self.f_bits(0x7fc0_0000)
        }
    }

    pub fn i(&mut self, v: i32) -> V {
        self.constant(naga::Literal::I32(v))
    }

    pub fn u(&mut self, v: u32) -> V {
        self.constant(naga::Literal::U32(v))
    }

    /// A 64-bit signed constant.
    pub fn l(&mut self, v: i64) -> V {
        self.constant(naga::Literal::I64(v))
    }

    /// A 64-bit unsigned constant.
    pub fn ul(&mut self, v: u64) -> V {
        self.constant(naga::Literal::U64(v))
    }

    /// A signed constant as wide as the float (for its bit patterns).
    pub fn wi(&mut self, v: i64) -> V {
        if self.double {
            self.l(v)
        } else {
            self.i(v as i32)
        }
    }

    /// An unsigned constant as wide as the float.
    pub fn wu(&mut self, v: u64) -> V {
        if self.double {
            self.ul(v)
        } else {
            self.u(v as u32)
        }
    }

    /// The sign bit of the float's bit pattern, as a signed integer.
    fn sign_mask(&mut self) -> V {
        self.wi(if self.double {
            i64::MIN
        } else {
            i64::from(i32::MIN)
        })
    }

    /// `a op b` for an operator without a name here.
    pub fn bin(&mut self, op: B, a: V, b: V) -> V {
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
    /// An f64 quotient is the plain division (OpenCL requires it correctly
    /// rounded; the translator's `double` `/` is the same instruction).
    pub fn div(&mut self, a: V, b: V) -> V {
        if self.double {
            return self.bin(B::Divide, a, b);
        }
        let constants = [self.f(DIVISOR_LIMIT), self.f(0.25), self.f(1.0)];
        scaled_divide(self.fb, a, b, constants)
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
    pub fn shr_by(&mut self, a: V, n: V) -> V {
        self.bin(B::ShiftRight, a, n)
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
    /// Rounds toward zero. An f64 is rounded by `floor` of its magnitude,
    /// not by SPIR-V's `Trunc`: lavapipe's f64 `Trunc` returns some
    /// values past 2^24 unchanged on some hosts (see [`Self::rint`]).
    pub fn trunc(&mut self, a: V) -> V {
        if !self.double {
            return self.math(MathFunction::Trunc, a);
        }
        let negative = self.ltc(a, 0.0);
        let down = self.floor(a);
        let magnitude = self.neg(a);
        let magnitude_down = self.floor(magnitude);
        let up = self.neg(magnitude_down);
        self.sel(negative, up, down)
    }
    /// Rounds to the nearest integer, ties to even (exact). An f64 is
    /// rounded from its `floor`, not by SPIR-V's `RoundEven`: lavapipe's
    /// f64 `RoundEven` rounds ties toward zero on some hosts (125.5 to
    /// 125; seen 2026-11-30 with Mesa 25.0.7 on an AMD EPYC), and every
    /// step here is exact.
    pub fn rint(&mut self, a: V) -> V {
        if !self.double {
            return self.math(MathFunction::Round, a);
        }
        let floor = self.floor(a);
        let fraction = self.sub(a, floor);
        let above_half = self.gtc(fraction, 0.5);
        let tie = self.eqc(fraction, 0.5);
        let halved = self.mulc(floor, 0.5);
        let halved = self.floor(halved);
        let even = self.add(halved, halved);
        let odd = self.ne(floor, even);
        let odd_tie = self.and(tie, odd);
        let up = self.or(above_half, odd_tie);
        let next = self.addc(floor, 1.0);
        let rounded = self.sel(up, next, floor);
        // A zero keeps the argument's sign: rint(-0.4) is -0.0.
        let zero = self.eqc(rounded, 0.0);
        let signed_zero = self.mulc(a, 0.0);
        self.sel(zero, signed_zero, rounded)
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
    /// The bits of a float as a signed integer of its width.
    pub fn bits(&mut self, a: V) -> V {
        self.cast(a, ScalarKind::Sint, None)
    }
    /// An integer's bits as the float of its width.
    pub fn as_float(&mut self, a: V) -> V {
        self.cast(a, ScalarKind::Float, None)
    }
    /// An integer's value as the float (rounded).
    pub fn float_from_int(&mut self, a: V) -> V {
        let width = if self.double {
            Scalar::F64.width
        } else {
            Scalar::F32.width
        };
        self.cast(a, ScalarKind::Float, Some(width))
    }
    /// A float's value as i32 (truncated; only for values in range).
    pub fn int_from_float(&mut self, a: V) -> V {
        self.cast(a, ScalarKind::Sint, Some(4))
    }
    /// A u32's value as u64.
    pub fn widen(&mut self, a: V) -> V {
        self.cast(a, ScalarKind::Uint, Some(8))
    }
    /// An integer's value as i32 (wrapping).
    pub fn int32(&mut self, a: V) -> V {
        self.cast(a, ScalarKind::Sint, Some(4))
    }
    /// A value as u32 (integers wrapping, floats truncated).
    pub fn uint32(&mut self, a: V) -> V {
        self.cast(a, ScalarKind::Uint, Some(4))
    }
    /// An integer's value as an unsigned / signed integer of the same
    /// width (the bits).
    pub fn uint_bits(&mut self, a: V) -> V {
        self.cast(a, ScalarKind::Uint, None)
    }
    pub fn sint_bits(&mut self, a: V) -> V {
        self.cast(a, ScalarKind::Sint, None)
    }

    /// `|a|` with the sign bit of `sign`.
    pub fn copysign(&mut self, a: V, sign: V) -> V {
        let (a, s) = (self.bits(a), self.bits(sign));
        let magnitude = if self.double {
            self.l(i64::MAX)
        } else {
            self.i(0x7fff_ffff)
        };
        let sign_bit = self.sign_mask();
        let a = self.and(a, magnitude);
        let s = self.and(s, sign_bit);
        let both = self.or(a, s);
        self.as_float(both)
    }

    /// `-a` by flipping the sign bit: exact for zeros too, where Vulkan
    /// does not promise that arithmetic keeps the sign of zero.
    pub fn flip_sign(&mut self, a: V) -> V {
        let bits = self.bits(a);
        let sign = self.sign_mask();
        let flipped = self.xor(bits, sign);
        self.as_float(flipped)
    }

    /// Whether the sign bit is set (true for -0 and negative NaNs).
    pub fn sign_bit(&mut self, a: V) -> V {
        let bits = self.bits(a);
        let zero = self.wi(0);
        self.lt(bits, zero)
    }

    /// `2^k` for i32 lanes `k` in [-126, 127] (f64: [-1022, 1023]).
    pub fn pow2(&mut self, k: V) -> V {
        if self.double {
            let k = self.cast(k, ScalarKind::Sint, Some(8));
            let bias = self.l(1023);
            let biased = self.add(k, bias);
            let field = self.shl(biased, 52);
            return self.as_float(field);
        }
        let bias = self.i(127);
        let biased = self.add(k, bias);
        let field = self.shl(biased, 23);
        self.as_float(field)
    }

    /// `v * 2^k` for i32 `k` in [-252, 254] (f64: [-2044, 2046]),
    /// rounding once.
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

    /// A piecewise polynomial at `x` (within the pieces): `table[p]` on
    /// `[bounds[p], bounds[p + 1]]`, in `t = (x - mid) / half` of its piece.
    /// The lane's piece's coefficients are chosen by selects, then one
    /// Horner evaluation runs.
    pub fn piecewise<const N: usize>(&mut self, x: V, bounds: &[f64], table: &[[f64; N]]) -> V {
        let at_least: Vec<V> = bounds[1..table.len()]
            .iter()
            .map(|&b| {
                let b = self.f(b);
                self.ge(x, b)
            })
            .collect();
        let choose = |o: &mut Self, value: &dyn Fn(usize) -> f64| {
            let mut v = o.f(value(0));
            for (p, &above) in at_least.iter().enumerate() {
                let next = o.f(value(p + 1));
                v = o.sel(above, next, v);
            }
            v
        };
        let mid = choose(self, &|p| (bounds[p] + bounds[p + 1]) / 2.0);
        let inverse_half = choose(self, &|p| 2.0 / (bounds[p + 1] - bounds[p]));
        let d = self.sub(x, mid);
        let t = self.mul(d, inverse_half);
        let mut acc = choose(self, &|p| table[p][N - 1]);
        for j in (0..N - 1).rev() {
            let c = choose(self, &|p| table[p][j]);
            acc = self.mad(acc, t, c);
        }
        acc
    }

    /// Clamps `x` to [lo, hi] (NaN passes through): where the result has
    /// already under- or overflowed, or to keep lanes that are replaced
    /// later finite.
    pub fn clamp(&mut self, x: V, lo: f64, hi: f64) -> V {
        let (l, h) = (self.f(lo), self.f(hi));
        let above = self.gt(x, h);
        let x = self.sel(above, h, x);
        let below = self.lt(x, l);
        self.sel(below, l, x)
    }

    /// `a` with its 12 low mantissa bits cleared: 12 significant bits.
    /// An f64 is rounded to 26 significant bits instead, so the rest has
    /// at most 26 too (53 bits do not split evenly by truncation).
    pub fn high_half(&mut self, a: V) -> V {
        let bits = self.bits(a);
        if self.double {
            let half = self.l(1 << 26);
            let rounded = self.add(bits, half);
            let mask = self.l(!((1 << 27) - 1));
            let high = self.and(rounded, mask);
            return self.as_float(high);
        }
        let mask = self.i(!0xfff);
        let high = self.and(bits, mask);
        self.as_float(high)
    }

    /// `a` as two halves of at most 12 (f64: 26) significant bits each
    /// (exact; f64 below 2^1023).
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

    /// The double-float constant `hi + lo`.
    pub fn df_const(&mut self, (hi, lo): (f64, f64)) -> Df {
        Df {
            hi: self.f(hi),
            lo: self.f(lo),
        }
    }

    /// `v` as a double-float.
    pub fn df_from(&mut self, v: V) -> Df {
        let lo = self.f(0.0);
        Df { hi: v, lo }
    }

    pub fn df_neg(&mut self, a: Df) -> Df {
        Df {
            hi: self.neg(a.hi),
            lo: self.neg(a.lo),
        }
    }

    pub fn df_sel(&mut self, condition: V, accept: Df, reject: Df) -> Df {
        Df {
            hi: self.sel(condition, accept.hi, reject.hi),
            lo: self.sel(condition, accept.lo, reject.lo),
        }
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

    /// `a * b` for double-floats.
    pub fn df_mul_df(&mut self, a: Df, b: Df) -> Df {
        let p = self.two_prod(a.hi, b.hi);
        let cross1 = self.mul(a.hi, b.lo);
        let cross2 = self.mul(a.lo, b.hi);
        let cross = self.add(cross1, cross2);
        let lo = self.add(p.lo, cross);
        self.fast_two_sum(p.hi, lo)
    }

    pub fn df_add(&mut self, a: Df, b: Df) -> Df {
        let s = self.two_sum(a.hi, b.hi);
        let lows = self.add(a.lo, b.lo);
        let lo = self.add(s.lo, lows);
        self.fast_two_sum(s.hi, lo)
    }

    /// The float nearest a double-float.
    pub fn df_value(&mut self, a: Df) -> V {
        self.add(a.hi, a.lo)
    }

    pub fn one_zero(&mut self, c: V) -> V {
        let (one, zero) = (self.i(1), self.i(0));
        self.sel(c, one, zero)
    }
}

/// The binary format of the vocabulary's float: field widths and the
/// constants the bit-level functions need.
impl Ops<'_> {
    /// Stored mantissa bits (23 or 52).
    pub fn mantissa_bits(&self) -> u32 {
        if self.double {
            52
        } else {
            23
        }
    }

    /// Significand bits including the implicit one (24 or 53).
    pub fn precision(&self) -> i32 {
        self.mantissa_bits() as i32 + 1
    }

    /// The exponent bias (127 or 1023).
    pub fn bias(&self) -> i32 {
        if self.double {
            1023
        } else {
            127
        }
    }

    /// The largest biased exponent of a finite value (254 or 2046).
    pub fn max_field(&self) -> i32 {
        2 * self.bias()
    }

    /// The smallest positive normal value.
    pub fn min_positive(&self) -> f64 {
        if self.double {
            f64::MIN_POSITIVE
        } else {
            f64::from(f32::MIN_POSITIVE)
        }
    }

    /// The biased exponent field of a float's bits, as i32.
    pub fn exponent_field(&mut self, bits: V) -> V {
        let field = self.shr(bits, self.mantissa_bits());
        let mask = self.wi(i64::from(2 * self.bias() + 1));
        let field = self.and(field, mask);
        if self.double {
            self.int32(field)
        } else {
            field
        }
    }

    /// The float whose bits are `rest` (sign and mantissa, exponent field
    /// clear) with the i32 exponent field `field`.
    pub fn with_exponent_field(&mut self, rest: V, field: V) -> V {
        let field = if self.double {
            self.cast(field, ScalarKind::Sint, Some(8))
        } else {
            field
        };
        let field = self.shl(field, self.mantissa_bits());
        let v = self.or(rest, field);
        self.as_float(v)
    }

    /// The bits of sign and mantissa (exponent field cleared).
    pub fn sign_and_mantissa(&mut self, bits: V) -> V {
        let keep = if self.double {
            self.l(0x800f_ffff_ffff_ffff_u64 as i64)
        } else {
            self.i(0x807f_ffff_u32 as i32)
        };
        self.and(bits, keep)
    }
}
