//! The single-precision trigonometric built-ins (`sin` .. `atan2pi`,
//! `sincos`, the `*pi` variants and `half_sin/cos/tan`) at OpenCL
//! full-profile accuracy, computed in software: GLSL.std.450's `Sin`/`Cos`
//! only promise about 2^-11 absolute error, where OpenCL asks for 4 ulp
//! over the whole float range.
//!
//! Arguments of `sin`/`cos`/`tan` are reduced modulo pi/2 by a three-part
//! Cody-Waite subtraction below [`CODY_WAITE_LIMIT`] and by a Payne-Hanek
//! multiplication with a table of the bits of 2/pi above it (32-bit integer
//! arithmetic only: devices may lack 64-bit integers; skipped by a branch
//! unless some lane needs it). The reduced argument
//! is a pair `hi + lo` so the polynomials see more than 24 bits where the
//! argument was close to a multiple of pi/2. The `*pi` functions reduce
//! exactly in floating point. The inverse functions reduce to small
//! arguments by the usual identities and keep the result as a `hi + lo`
//! pair until the last rounding, so the `*pi` versions divide by pi
//! accurately. Every function is element-wise, so one lowering serves
//! `float` and every vector width.
//!
//! The polynomials are the Taylor series truncated where the next term is
//! below 2^-30 of the result on the reduced interval, evaluated with fma.
//! Vulkan lets `Fma` round twice, so no exact step relies on it: exact
//! products are Dekker products of masked 12-bit halves.
//! Devices may flush subnormal results to zero and may divide through a
//! reciprocal (NVIDIA does both), so no error term is allowed to become
//! subnormal where it matters (tiny arguments are scaled by 2^64 first,
//! and division works on significands), and no infinity or NaN goes through
//! the arithmetic to produce a special value: those are chosen by selects
//! on bit tests, which a compiler assuming finite floats cannot fold.
//! `-cl-fast-relaxed-math` and `half_*` map to the GLSL functions.

use super::*;
use naga::BinaryOperator as B;

/// A naga value being built.
type V = Handle<naga::Expression>;

/// Above this magnitude `sin`/`cos`/`tan` reduce by Payne-Hanek. Below it
/// the quotient k has at most 15 bits: k P1 and k P2 are subtracted
/// exactly and the rounding of k P3 leaves an error near 2^-58, far below
/// the remainders floats of that size leave (the tests include the floats
/// closest to multiples of pi/2).
const CODY_WAITE_LIMIT: f32 = 32768.0;

/// pi/2 as three floats whose sum carries about 72 bits.
const PIO2: [f32; 3] = [1.570_796_4, -4.371_139e-8, -1.715_124_5e-15];
/// Below this magnitude the error terms of a product with a constant
/// near 1 can be subnormal, which some devices flush to zero: such values
/// are multiplied by [`TINY_SCALE`] first and the result scaled back.
const TINY: f32 = 8.673_617e-19; // 2^-60
const TINY_SCALE: f32 = 18_446_744_073_709_551_616.0; // 2^64
const PI: [f32; 2] = [std::f32::consts::PI, -8.742_278e-8];
const PIO4: [f32; 2] = [std::f32::consts::FRAC_PI_4, -2.185_569_4e-8];
const INV_PI: [f32; 2] = [std::f32::consts::FRAC_1_PI, 1.284_127_6e-8];

/// The bits of 2/pi after the binary point, big-endian, after one zero
/// word so that windows starting before the binary point read zeros.
const TWO_OVER_PI_BITS: [u32; 10] = [
    0x0000_0000,
    0xa2f9_836e,
    0x4e44_1529,
    0xfc27_57d1,
    0xf534_ddc0,
    0xdb62_9599,
    0x3c43_9041,
    0xfe51_63ab,
    0xdebb_c561,
    0xb724_6e3a,
];

/// sin(x) = x + x^3 * S(x^2): Taylor coefficients of S.
const SIN_POLY: [f32; 5] = [
    -1.0 / 6.0,
    1.0 / 120.0,
    -1.0 / 5040.0,
    1.0 / 362_880.0,
    -1.0 / 39_916_800.0,
];
/// cos(x) = 1 - x^2/2 + x^4 * C(x^2).
const COS_POLY: [f32; 5] = [
    1.0 / 24.0,
    -1.0 / 720.0,
    1.0 / 40_320.0,
    -1.0 / 3_628_800.0,
    1.0 / 479_001_600.0,
];
/// atan(t) = t + t^3 * A(t^2), for |t| <= tan(pi/8).
const ATAN_POLY: [f32; 10] = [
    -1.0 / 3.0,
    1.0 / 5.0,
    -1.0 / 7.0,
    1.0 / 9.0,
    -1.0 / 11.0,
    1.0 / 13.0,
    -1.0 / 15.0,
    1.0 / 17.0,
    -1.0 / 19.0,
    1.0 / 21.0,
];
/// asin(s) = s + s^3 * A(s^2), for |s| <= 1/2: (2k)! / (4^k k!^2 (2k+1)).
const ASIN_POLY: [f32; 11] = [
    1.0 / 6.0,
    3.0 / 40.0,
    15.0 / 336.0,
    105.0 / 3456.0,
    945.0 / 42_240.0,
    10_395.0 / 599_040.0,
    135_135.0 / 9_676_800.0,
    2_027_025.0 / 175_472_640.0,
    34_459_425.0 / 3_530_096_640.0,
    654_729_075.0 / 78_033_715_200.0,
    13_749_310_575.0 / 1_887_425_822_720.0,
];

/// The built-ins this module lowers (for `float` arguments).
const TRIG_BUILTINS: [Builtin; 18] = [
    Builtin::Sin,
    Builtin::Cos,
    Builtin::Tan,
    Builtin::Sincos,
    Builtin::Sinpi,
    Builtin::Cospi,
    Builtin::Tanpi,
    Builtin::Asin,
    Builtin::Acos,
    Builtin::Atan,
    Builtin::Atan2,
    Builtin::Asinpi,
    Builtin::Acospi,
    Builtin::Atanpi,
    Builtin::Atan2pi,
    Builtin::HalfSin,
    Builtin::HalfCos,
    Builtin::HalfTan,
];

/// A value as an unevaluated sum `hi + lo` with |lo| far below ulp(hi).
#[derive(Clone, Copy)]
struct Pair {
    hi: V,
    lo: V,
}

/// `|x|` reduced in units of pi (see `Ops::reduce_pi_units`).
struct PiReduction {
    /// pi r, r = t - quadrant/2 in [-1/4, 1/4].
    r: Pair,
    /// The quarter turn, 0..4, as a `u32`.
    quadrant: V,
    /// |x| modulo 2.
    t: V,
    /// Whether |x| is below [`TINY`], where `tiny_value` is the result of
    /// sinpi and tanpi.
    tiny: V,
    tiny_value: V,
}

/// Builds float and integer arithmetic over values of one width (a scalar
/// or a 2..4-vector); every constant is splat to that width.
struct Ops<'f> {
    fb: &'f mut FnBuilder,
    size: Option<naga::VectorSize>,
    /// The naga types of `f32` and `u32` values of this width.
    float_ty: Handle<naga::Type>,
    uint_ty: Handle<naga::Type>,
    /// `array<u32, N>` holding [`TWO_OVER_PI_BITS`].
    table_ty: Handle<naga::Type>,
}

impl Ops<'_> {
    fn splat(&mut self, scalar: V) -> V {
        match self.size {
            Some(size) => self.fb.add(naga::Expression::Splat {
                size,
                value: scalar,
            }),
            None => scalar,
        }
    }
    fn f(&mut self, v: f32) -> V {
        let l = self
            .fb
            .add(naga::Expression::Literal(naga::Literal::F32(v)));
        self.splat(l)
    }
    fn u(&mut self, v: u32) -> V {
        let l = self
            .fb
            .add(naga::Expression::Literal(naga::Literal::U32(v)));
        self.splat(l)
    }
    fn i(&mut self, v: i32) -> V {
        let l = self
            .fb
            .add(naga::Expression::Literal(naga::Literal::I32(v)));
        self.splat(l)
    }
    /// A quiet NaN (naga has no NaN literals).
    fn nan(&mut self) -> V {
        let bits = self.u(0x7fc0_0000);
        self.as_float(bits)
    }
    fn inf(&mut self) -> V {
        let bits = self.u(0x7f80_0000);
        self.as_float(bits)
    }

    fn bin(&mut self, op: B, a: V, b: V) -> V {
        self.fb.binary(op, a, b)
    }
    fn add(&mut self, a: V, b: V) -> V {
        self.bin(B::Add, a, b)
    }
    fn sub(&mut self, a: V, b: V) -> V {
        self.bin(B::Subtract, a, b)
    }
    fn mul(&mut self, a: V, b: V) -> V {
        self.bin(B::Multiply, a, b)
    }
    fn neg(&mut self, a: V) -> V {
        self.fb.unary(naga::UnaryOperator::Negate, a)
    }
    fn fma(&mut self, a: V, b: V, c: V) -> V {
        self.fb.add(naga::Expression::Math {
            fun: naga::MathFunction::Fma,
            arg: a,
            arg1: Some(b),
            arg2: Some(c),
            arg3: None,
        })
    }
    fn math(&mut self, fun: naga::MathFunction, a: V) -> V {
        self.fb.math(fun, a, None)
    }
    fn math2(&mut self, fun: naga::MathFunction, a: V, b: V) -> V {
        self.fb.math(fun, a, Some(b))
    }
    fn select(&mut self, condition: V, accept: V, reject: V) -> V {
        self.fb.select(condition, accept, reject)
    }
    fn select_pair(&mut self, condition: V, accept: Pair, reject: Pair) -> Pair {
        Pair {
            hi: self.select(condition, accept.hi, reject.hi),
            lo: self.select(condition, accept.lo, reject.lo),
        }
    }

    fn cast(&mut self, expr: V, kind: naga::ScalarKind, convert: Option<u8>) -> V {
        self.fb.add(naga::Expression::As {
            expr,
            kind,
            convert,
        })
    }
    fn bits(&mut self, x: V) -> V {
        self.cast(x, naga::ScalarKind::Uint, None)
    }
    fn as_float(&mut self, bits: V) -> V {
        self.cast(bits, naga::ScalarKind::Float, None)
    }
    fn convert_to_float(&mut self, n: V) -> V {
        self.cast(n, naga::ScalarKind::Float, Some(4))
    }
    fn convert_to_uint(&mut self, n: V) -> V {
        self.cast(n, naga::ScalarKind::Uint, Some(4))
    }
    fn convert_to_sint(&mut self, n: V) -> V {
        self.cast(n, naga::ScalarKind::Sint, Some(4))
    }

    /// `x` with its sign bit flipped where `sign` (a `u32` holding only
    /// the sign bit, or 0) has it set.
    fn flip_sign(&mut self, x: V, sign: V) -> V {
        let bits = self.bits(x);
        let flipped = self.bin(B::ExclusiveOr, bits, sign);
        self.as_float(flipped)
    }
    /// The sign bit of `x`, in place, as a `u32`.
    fn sign_bit(&mut self, x: V) -> V {
        let bits = self.bits(x);
        let mask = self.u(0x8000_0000);
        self.bin(B::And, bits, mask)
    }
    /// `x` without its sign bit, as a `u32`: the integer tests below
    /// classify by bits because a driver may assume floats are finite and
    /// fold float comparisons with NaN or infinity.
    fn magnitude_bits(&mut self, x: V) -> V {
        let bits = self.bits(x);
        let mask = self.u(0x7fff_ffff);
        self.bin(B::And, bits, mask)
    }
    fn is_nan(&mut self, x: V) -> V {
        let m = self.magnitude_bits(x);
        let inf = self.u(0x7f80_0000);
        self.bin(B::Greater, m, inf)
    }
    fn is_infinite(&mut self, x: V) -> V {
        let m = self.magnitude_bits(x);
        let inf = self.u(0x7f80_0000);
        self.bin(B::Equal, m, inf)
    }
    /// Zero or subnormal: what a device that flushes subnormals reads as
    /// zero, so every device takes the same path.
    fn is_zero_or_subnormal(&mut self, x: V) -> V {
        let m = self.magnitude_bits(x);
        let smallest_normal = self.u(0x0080_0000);
        self.bin(B::Less, m, smallest_normal)
    }
    /// NaN where `x` is infinite or NaN, `value` elsewhere.
    fn nan_unless_finite(&mut self, x: V, value: V) -> V {
        let m = self.magnitude_bits(x);
        let inf = self.u(0x7f80_0000);
        let finite = self.bin(B::Less, m, inf);
        let nan = self.nan();
        self.select(finite, value, nan)
    }
    /// Lane-wise `a || b` on booleans (naga's logical operators take
    /// scalars only; the bitwise ones take boolean vectors too).
    fn or(&mut self, a: V, b: V) -> V {
        self.bin(B::InclusiveOr, a, b)
    }
    fn and(&mut self, a: V, b: V) -> V {
        self.bin(B::And, a, b)
    }
    /// 2^k for an `i32` k in [-126, 127], built from its exponent bits.
    fn power_of_two(&mut self, k: V) -> V {
        let bias = self.i(127);
        let biased = self.add(k, bias);
        let biased = self.cast(biased, naga::ScalarKind::Uint, None);
        let c23 = self.u(23);
        let bits = self.bin(B::ShiftLeft, biased, c23);
        self.as_float(bits)
    }

    /// c[0] + z * (c[1] + z * (...)).
    fn horner(&mut self, z: V, coefficients: &[f32]) -> V {
        let (last, rest) = coefficients.split_last().expect("coefficients");
        let mut acc = self.f(*last);
        for &c in rest.iter().rev() {
            let c = self.f(c);
            acc = self.fma(acc, z, c);
        }
        acc
    }

    /// n / d to within about half an ulp whatever the hardware's division
    /// (Vulkan allows 2.5 ulp). The significands are divided (both in
    /// [1, 2), so every intermediate of the residual correction is a normal
    /// float on any device) and the exponent difference applied after, in
    /// two steps so that only the last multiplication can round (where the
    /// quotient is subnormal). Zeros, infinities and NaNs are chosen by
    /// bit tests, never left to the hardware: a device that divides through
    /// a reciprocal makes NaN of finite / inf. Subnormal operands count as
    /// zeros, as on devices that flush them.
    fn div(&mut self, n: V, d: V) -> V {
        let (n_bits, d_bits) = (self.bits(n), self.bits(d));
        let sign_mask = self.u(0x8000_0000);
        let signs = self.bin(B::ExclusiveOr, n_bits, d_bits);
        let sign = self.bin(B::And, signs, sign_mask);
        let (nm, n_exponent) = self.significand_and_exponent(n_bits);
        let (dm, d_exponent) = self.significand_and_exponent(d_bits);
        let q = self.bin(B::Divide, nm, dm);
        let residual = self.residual(nm, q, dm);
        let correction = self.bin(B::Divide, residual, dm);
        let q = self.add(q, correction);
        // Beyond +-200 the result over- or underflows anyway.
        let k = self.sub(n_exponent, d_exponent);
        let (low, high) = (self.i(-200), self.i(200));
        let k = self.math2(naga::MathFunction::Max, k, low);
        let k = self.math2(naga::MathFunction::Min, k, high);
        // Arithmetic shift (k is signed; the amount must be unsigned).
        let one = self.u(1);
        let k1 = self.bin(B::ShiftRight, k, one);
        let k2 = self.sub(k, k1);
        let s1 = self.power_of_two(k1);
        let s2 = self.power_of_two(k2);
        let q = self.mul(q, s1);
        let q = self.mul(q, s2);
        let (n_zero, d_zero) = (self.is_zero_or_subnormal(n), self.is_zero_or_subnormal(d));
        let (n_inf, d_inf) = (self.is_infinite(n), self.is_infinite(d));
        let zero_result = self.or(n_zero, d_inf);
        let signed_zero = self.as_float(sign);
        let q = self.select(zero_result, signed_zero, q);
        let infinite_result = self.or(n_inf, d_zero);
        let inf_bits = self.u(0x7f80_0000);
        let signed_inf = self.bin(B::InclusiveOr, sign, inf_bits);
        let signed_inf = self.as_float(signed_inf);
        let q = self.select(infinite_result, signed_inf, q);
        let (n_nan, d_nan) = (self.is_nan(n), self.is_nan(d));
        let nan = self.or(n_nan, d_nan);
        let zeros = self.and(n_zero, d_zero);
        let nan = self.or(nan, zeros);
        let infinities = self.and(n_inf, d_inf);
        let nan = self.or(nan, infinities);
        let nan_value = self.nan();
        self.select(nan, nan_value, q)
    }
    /// A float's bits as its significand with the sign (in [1, 2) in
    /// magnitude) and its biased exponent (an `i32`).
    fn significand_and_exponent(&mut self, bits: V) -> (V, V) {
        let keep = self.u(0x807f_ffff);
        let one = self.u(0x3f80_0000);
        let m = self.bin(B::And, bits, keep);
        let m = self.bin(B::InclusiveOr, m, one);
        let m = self.as_float(m);
        let c23 = self.u(23);
        let byte = self.u(0xff);
        let e = self.bin(B::ShiftRight, bits, c23);
        let e = self.bin(B::And, e, byte);
        let e = self.cast(e, naga::ScalarKind::Sint, None);
        (m, e)
    }

    /// hi + lo renormalised, for |a| >= |b| (Fast2Sum).
    fn fast_two_sum(&mut self, a: V, b: V) -> Pair {
        let hi = self.add(a, b);
        let taken = self.sub(hi, a);
        let lo = self.sub(b, taken);
        Pair { hi, lo }
    }
    /// The exact a * b as a pair (Dekker's product). Vulkan's `Fma` may
    /// round twice ("inherited from OpFMul followed by OpFAdd"), so the
    /// error term cannot come from an fma: each factor is split by masking
    /// into two 12-bit halves, whose products are exact however the
    /// driver contracts them.
    fn two_prod(&mut self, a: V, b: V) -> Pair {
        let (ah, al) = self.split(a);
        let (bh, bl) = self.split(b);
        let hi = self.mul(a, b);
        let high = self.mul(ah, bh);
        let err = self.sub(high, hi);
        let cross = self.mul(ah, bl);
        let err = self.add(err, cross);
        let cross = self.mul(al, bh);
        let err = self.add(err, cross);
        let low = self.mul(al, bl);
        let lo = self.add(err, low);
        Pair { hi, lo }
    }
    /// `x` as its top 12 significant bits plus the (exact) rest.
    fn split(&mut self, x: V) -> (V, V) {
        let bits = self.bits(x);
        let mask = self.u(0xffff_f000);
        let top = self.bin(B::And, bits, mask);
        let top = self.as_float(top);
        let rest = self.sub(x, top);
        (top, rest)
    }
    /// n - q d for q close to n / d, exactly up to the last rounding.
    fn residual(&mut self, n: V, q: V, d: V) -> V {
        let p = self.two_prod(q, d);
        // n - p.hi is exact (Sterbenz): p.hi is within a factor 2 of n.
        let r = self.sub(n, p.hi);
        self.sub(r, p.lo)
    }

    /// The exact a + b as a pair, for any magnitudes (2Sum).
    fn two_sum(&mut self, a: V, b: V) -> Pair {
        let hi = self.add(a, b);
        let b_part = self.sub(hi, a);
        let a_part = self.sub(hi, b_part);
        let a_err = self.sub(a, a_part);
        let b_err = self.sub(b, b_part);
        let lo = self.add(a_err, b_err);
        Pair { hi, lo }
    }
    /// `c - p` for a constant `c` given as a pair and |p| <= |c.hi|.
    fn constant_minus(&mut self, c: [f32; 2], p: Pair) -> Pair {
        let c_hi = self.f(c[0]);
        let c_lo = self.f(c[1]);
        let minus_hi = self.neg(p.hi);
        let head = self.fast_two_sum(c_hi, minus_hi);
        let tail = self.sub(c_lo, p.lo);
        let lo = self.add(head.lo, tail);
        self.fast_two_sum(head.hi, lo)
    }
    /// `v * (c.hi + c.lo)` as a pair.
    fn times_constant_pair(&mut self, v: Pair, c: [f32; 2]) -> Pair {
        let c_hi = self.f(c[0]);
        let c_lo = self.f(c[1]);
        let head = self.two_prod(v.hi, c_hi);
        let cross = self.mul(v.hi, c_lo);
        let tail = self.fma(v.lo, c_hi, cross);
        let lo = self.add(head.lo, tail);
        let hi = head.hi;
        self.fast_two_sum(hi, lo)
    }
    fn sum(&mut self, p: Pair) -> V {
        self.add(p.hi, p.lo)
    }

    // ---- sine and cosine of a reduced argument ----

    /// sin(r) for r = hi + lo, |r| <= about pi/4.
    fn sin_reduced(&mut self, r: Pair) -> V {
        let z = self.mul(r.hi, r.hi);
        let cube = self.mul(r.hi, z);
        let s = self.horner(z, &SIN_POLY);
        // sin(hi + lo) = sin(hi) + lo * cos(hi); cos(hi) - 1 is below the
        // rounding of the result there.
        let tail = self.fma(cube, s, r.lo);
        self.add(r.hi, tail)
    }
    /// cos(r) for r = hi + lo, |r| <= about pi/4.
    fn cos_reduced(&mut self, r: Pair) -> V {
        let z = self.mul(r.hi, r.hi);
        let half = self.f(0.5);
        let w = self.mul(z, half);
        let one = self.f(1.0);
        // 1 - w rounds; recover what it lost, then add z^2 C(z) - hi * lo.
        let head = self.sub(one, w);
        let lost = self.sub(one, head);
        let lost = self.sub(lost, w);
        let c = self.horner(z, &COS_POLY);
        let zz = self.mul(z, z);
        let hl = self.mul(r.hi, r.lo);
        let nhl = self.neg(hl);
        let tail = self.fma(zz, c, nhl);
        let tail = self.add(lost, tail);
        self.add(head, tail)
    }

    /// sin(r + q pi/2) (`cosine` false) or cos(r + q pi/2) = sin(r + (q + 1)
    /// pi/2) from sin r and cos r, for a quadrant `q` (a `u32`): odd
    /// quadrants swap sine and cosine, quadrants 2 and 3 negate.
    fn by_quadrant(&mut self, q: V, sin: V, cos: V, cosine: bool) -> V {
        let q = if cosine {
            let one = self.u(1);
            self.add(q, one)
        } else {
            q
        };
        let one = self.u(1);
        let odd = self.bin(B::And, q, one);
        let zero = self.u(0);
        let swap = self.bin(B::NotEqual, odd, zero);
        let v = self.select(swap, cos, sin);
        let two = self.u(2);
        let half_turn = self.bin(B::And, q, two);
        let thirty = self.u(30);
        let sign = self.bin(B::ShiftLeft, half_turn, thirty);
        self.flip_sign(v, sign)
    }

    // ---- argument reduction modulo pi/2 ----

    /// a = q pi/2 + r for finite a >= 0, with q modulo 4 as a `u32`.
    fn reduce_half_pi(&mut self, a: V) -> (Pair, V) {
        let (cw, cw_q) = self.cody_waite(a);
        let limit = self.f(CODY_WAITE_LIMIT);
        let large = self.bin(B::GreaterEqual, a, limit);
        // Payne-Hanek costs several times Cody-Waite: run it only when a
        // lane needs it, passing the results out through variables.
        let any_large = match self.size {
            Some(_) => self.fb.add(naga::Expression::Relational {
                fun: naga::RelationalFunction::Any,
                argument: large,
            }),
            None => large,
        };
        let hi = self.variable(self.float_ty, cw.hi);
        let lo = self.variable(self.float_ty, cw.lo);
        let q = self.variable(self.uint_ty, cw_q);
        self.fb.blocks.push(naga::Block::new());
        let (ph, ph_q) = self.payne_hanek(a);
        for (pointer, accept, reject) in [(hi, ph.hi, cw.hi), (lo, ph.lo, cw.lo), (q, ph_q, cw_q)] {
            let value = self.select(large, accept, reject);
            self.fb.push(naga::Statement::Store { pointer, value });
        }
        let accept = self.fb.blocks.pop().expect("Payne-Hanek block");
        self.fb.push(naga::Statement::If {
            condition: any_large,
            accept,
            reject: naga::Block::new(),
        });
        let [hi, lo, q] =
            [hi, lo, q].map(|pointer| self.fb.add(naga::Expression::Load { pointer }));
        (Pair { hi, lo }, q)
    }

    /// A new function-local variable of type `ty` holding `value`; returns
    /// its pointer.
    fn variable(&mut self, ty: Handle<naga::Type>, value: V) -> V {
        let var = self.fb.function.local_variables.append(
            naga::LocalVariable {
                name: None,
                ty,
                init: None,
            },
            Span::UNDEFINED,
        );
        let pointer = self.fb.add(naga::Expression::LocalVariable(var));
        self.fb.push(naga::Statement::Store { pointer, value });
        pointer
    }

    /// r = a - k (P1 + P2 + P3) with k = round(a 2/pi) < 2^15: k P1 and
    /// k P2 are subtracted exactly in pair arithmetic, k P3 rounded.
    fn cody_waite(&mut self, a: V) -> (Pair, V) {
        let two_over_pi = self.f(std::f32::consts::FRAC_2_PI);
        let scaled = self.mul(a, two_over_pi);
        let k = self.math(naga::MathFunction::Round, scaled);
        let nk = self.neg(k);
        let [p1, p2, p3] = PIO2.map(|p| self.f(p));
        // a - k P1: the product exactly, then a difference that Sterbenz
        // makes exact (k P1 is within a factor 2 of a, or 0).
        let kp1 = self.two_prod(k, p1);
        let r1 = self.sub(a, kp1.hi);
        let first = self.neg(kp1.lo);
        let s = self.two_sum(r1, first);
        let kp2 = self.two_prod(k, p2);
        let second = self.neg(kp2.hi);
        let t = self.two_sum(s.hi, second);
        let lo = self.add(s.lo, t.lo);
        let lo = self.sub(lo, kp2.lo);
        let lo = self.fma(nk, p3, lo);
        let r = self.fast_two_sum(t.hi, lo);
        let q = self.convert_to_uint(k);
        (r, q)
    }

    /// The 32 bits of the 2/pi table starting at bit `shift` of word
    /// `word + offset` (bit 0 the most significant), lane by lane.
    fn table_window(&mut self, table: V, word: V, shift: V, offset: u32) -> V {
        let offset_u = self.u(offset);
        let first = self.add(word, offset_u);
        let one = self.u(1);
        let second = self.add(first, one);
        let w0 = self.lookup(table, first);
        let w1 = self.lookup(table, second);
        let high = self.bin(B::ShiftLeft, w0, shift);
        // (w1 >> 1) >> (31 - shift): a shift of 32 when shift is 0.
        let w1 = self.bin(B::ShiftRight, w1, one);
        let thirty_one = self.u(31);
        let rest = self.sub(thirty_one, shift);
        let low = self.bin(B::ShiftRight, w1, rest);
        self.bin(B::InclusiveOr, high, low)
    }

    /// table[index], per lane.
    fn lookup(&mut self, table: V, index: V) -> V {
        let load = |fb: &mut FnBuilder, i: V| {
            let pointer = fb.add(naga::Expression::Access {
                base: table,
                index: i,
            });
            fb.add(naga::Expression::Load { pointer })
        };
        match self.size {
            None => load(self.fb, index),
            Some(size) => {
                let lanes = (0..size as u32)
                    .map(|k| {
                        let i = self.fb.add(naga::Expression::AccessIndex {
                            base: index,
                            index: k,
                        });
                        load(self.fb, i)
                    })
                    .collect();
                self.fb.add(naga::Expression::Compose {
                    ty: self.uint_ty,
                    components: lanes,
                })
            }
        }
    }

    /// (high, low) words of the 64-bit product of `m` < 2^24 and `w`.
    fn wide_multiply(&mut self, m: V, w: V) -> (V, V) {
        let mask = self.u(0xffff);
        let sixteen = self.u(16);
        let (mh, ml) = (
            self.bin(B::ShiftRight, m, sixteen),
            self.bin(B::And, m, mask),
        );
        let (wh, wl) = (
            self.bin(B::ShiftRight, w, sixteen),
            self.bin(B::And, w, mask),
        );
        let low_low = self.mul(ml, wl);
        let high_low = self.mul(mh, wl);
        let low_high = self.mul(ml, wh);
        let high_high = self.mul(mh, wh);
        let carry_in = self.bin(B::ShiftRight, low_low, sixteen);
        let a = self.bin(B::And, high_low, mask);
        let b = self.bin(B::And, low_high, mask);
        let middle = self.add(carry_in, a);
        let middle = self.add(middle, b);
        let middle_carry = self.bin(B::ShiftRight, middle, sixteen);
        let a = self.bin(B::ShiftRight, high_low, sixteen);
        let b = self.bin(B::ShiftRight, low_high, sixteen);
        let high = self.add(high_high, a);
        let high = self.add(high, b);
        let high = self.add(high, middle_carry);
        let low = self.mul(m, w);
        (high, low)
    }

    /// Payne-Hanek: a = m 2^e with a 24-bit integer m; a 2/pi modulo 4 is
    /// m times the 96 bits of 2/pi from bit e - 1 on (the earlier bits
    /// only add multiples of 4). The product's top two integer bits are the
    /// quadrant and its next 94 bits the fraction of a quarter turn.
    fn payne_hanek(&mut self, a: V) -> (Pair, V) {
        let (m, window) = self.mantissa_and_window(a);
        let (quadrant, fraction) = self.product_modulo_4(m, window);
        // A fraction of a half or more rounds the quadrant up and leaves
        // the negative fraction F - 1.
        let (zero, one) = (self.u(0), self.u(1));
        let half_bit = self.u(0x2000_0000);
        let upper = self.bin(B::And, fraction[0], half_bit);
        let negative = self.bin(B::NotEqual, upper, zero);
        let complement = self.negate_fraction(fraction);
        let magnitude = [0, 1, 2].map(|i| self.select(negative, complement[i], fraction[i]));
        let up = self.select(negative, one, zero);
        let q = self.add(quadrant, up);
        let three = self.u(3);
        let q = self.bin(B::And, q, three);
        let turns = self.fraction_value(magnitude);
        let r = self.times_constant_pair(turns, [PIO2[0], PIO2[1]]);
        let minus = self.u(0x8000_0000);
        let sign = self.select(negative, minus, zero);
        let r = Pair {
            hi: self.flip_sign(r.hi, sign),
            lo: self.flip_sign(r.lo, sign),
        };
        (r, q)
    }

    /// The 24-bit integer mantissa of `a` and the 96 bits of 2/pi that
    /// multiply it, most significant word first.
    fn mantissa_and_window(&mut self, a: V) -> (V, [V; 3]) {
        let table = self.table();
        let bits = self.bits(a);
        let c23 = self.u(23);
        let mantissa_mask = self.u(0x7f_ffff);
        let hidden = self.u(0x80_0000);
        let biased = self.bin(B::ShiftRight, bits, c23);
        let m = self.bin(B::And, bits, mantissa_mask);
        let m = self.bin(B::InclusiveOr, m, hidden);
        // Bit e - 1 of 2/pi is table bit e + 31 = biased exponent - 120;
        // small arguments (which take the Cody-Waite result) clamp to 0.
        let biased = self.convert_to_sint(biased);
        let bias = self.i(120);
        let position = self.sub(biased, bias);
        let zero = self.i(0);
        let position = self.math2(naga::MathFunction::Max, position, zero);
        let position = self.convert_to_uint(position);
        let five = self.u(5);
        let word = self.bin(B::ShiftRight, position, five);
        let low_five = self.u(31);
        let shift = self.bin(B::And, position, low_five);
        let window = [0, 1, 2].map(|i| self.table_window(table, word, shift, i));
        (m, window)
    }

    /// m * w modulo 4 (the binary point after the 94th bit of the 120-bit
    /// product): the quadrant and the fraction as a 30-bit word and two
    /// full words, most significant first.
    fn product_modulo_4(&mut self, m: V, w: [V; 3]) -> (V, [V; 3]) {
        // Only the low word of m * w0 lands below bit 96.
        let l0 = self.mul(m, w[0]);
        let (h1, l1) = self.wide_multiply(m, w[1]);
        let (h2, l2) = self.wide_multiply(m, w[2]);
        let r0 = l2;
        let r1 = self.add(l1, h2);
        let carry = self.bin(B::Less, r1, l1);
        let (one, zero) = (self.u(1), self.u(0));
        let carry = self.select(carry, one, zero);
        let r2 = self.add(l0, h1);
        let r2 = self.add(r2, carry);
        let thirty = self.u(30);
        let quadrant = self.bin(B::ShiftRight, r2, thirty);
        let fraction_mask = self.u(0x3fff_ffff);
        let top = self.bin(B::And, r2, fraction_mask);
        (quadrant, [top, r1, r0])
    }

    /// 2^94 - F for a 94-bit fraction F (30 + 32 + 32 bits): !F + 1.
    fn negate_fraction(&mut self, f: [V; 3]) -> [V; 3] {
        let (one, zero) = (self.u(1), self.u(0));
        let not = f.map(|w| self.fb.unary(naga::UnaryOperator::BitwiseNot, w));
        let n0 = self.add(not[2], one);
        let carry0 = self.bin(B::Equal, f[2], zero);
        let carry0 = self.select(carry0, one, zero);
        let n1 = self.add(not[1], carry0);
        let low_zero = self.bin(B::Equal, f[1], zero);
        let carry1 = self.select(low_zero, carry0, zero);
        let n2 = self.add(not[0], carry1);
        let fraction_mask = self.u(0x3fff_ffff);
        let n2 = self.bin(B::And, n2, fraction_mask);
        [n2, n1, n0]
    }

    /// The value of a 94-bit fraction below 1/2 as a float pair, normalised
    /// first so that arguments very close to a multiple of pi/2 keep all
    /// their significant bits: a whole word when the top one is zero, then
    /// by the leading zeros.
    fn fraction_value(&mut self, f: [V; 3]) -> Pair {
        let (one, two, zero) = (self.u(1), self.u(2), self.u(0));
        let thirty = self.u(30);
        // The fraction as 96 bits aligned to the binary point:
        // (g2 + g1 2^-32 + g0 2^-64) 2^-32.
        let g2 = self.bin(B::ShiftLeft, f[0], two);
        let t = self.bin(B::ShiftRight, f[1], thirty);
        let g2 = self.bin(B::InclusiveOr, g2, t);
        let g1 = self.bin(B::ShiftLeft, f[1], two);
        let t = self.bin(B::ShiftRight, f[2], thirty);
        let g1 = self.bin(B::InclusiveOr, g1, t);
        let g0 = self.bin(B::ShiftLeft, f[2], two);
        let empty = self.bin(B::Equal, g2, zero);
        let top_word = self.select(empty, g1, g2);
        let next_word = self.select(empty, g0, g1);
        let lz = self.math(naga::MathFunction::CountLeadingZeros, top_word);
        let thirty_one = self.u(31);
        let lz = self.math2(naga::MathFunction::Min, lz, thirty_one);
        let high = self.bin(B::ShiftLeft, top_word, lz);
        let carried = self.bin(B::ShiftRight, next_word, one);
        let rest = self.sub(thirty_one, lz);
        let carried = self.bin(B::ShiftRight, carried, rest);
        let high = self.bin(B::InclusiveOr, high, carried);
        let low = self.bin(B::ShiftLeft, next_word, lz);
        // high's top 24 bits convert exactly; the rest joins the low part.
        let head_mask = self.u(0xffff_ff00);
        let byte_mask = self.u(0xff);
        let head = self.bin(B::And, high, head_mask);
        let head = self.convert_to_float(head);
        let byte = self.bin(B::And, high, byte_mask);
        let byte = self.convert_to_float(byte);
        let low = self.convert_to_float(low);
        let two_m32 = self.f(1.0 / 4_294_967_296.0);
        let tail = self.fma(low, two_m32, byte);
        // Scale by 2^-(32 + lz + 32 * empty), built as exponent bits.
        let thirty_two = self.u(32);
        let skipped = self.select(empty, thirty_two, zero);
        let exponent = self.u(127 - 32);
        let exponent = self.sub(exponent, lz);
        let exponent = self.sub(exponent, skipped);
        let c23 = self.u(23);
        let exponent = self.bin(B::ShiftLeft, exponent, c23);
        let scale = self.as_float(exponent);
        let f_hi = self.mul(head, scale);
        let f_lo = self.mul(tail, scale);
        self.fast_two_sum(f_hi, f_lo)
    }

    /// A function-local copy of the 2/pi table, for indexing.
    fn table(&mut self) -> V {
        let words = TWO_OVER_PI_BITS
            .iter()
            .map(|&w| {
                self.fb
                    .add(naga::Expression::Literal(naga::Literal::U32(w)))
            })
            .collect();
        let value = self.fb.add(naga::Expression::Compose {
            ty: self.table_ty,
            components: words,
        });
        self.variable(self.table_ty, value)
    }

    // ---- the functions ----

    /// (sin x, cos x), sharing the reduction.
    fn sin_cos(&mut self, x: V) -> (V, V) {
        let a = self.math(naga::MathFunction::Abs, x);
        let (r, q) = self.reduce_half_pi(a);
        let s = self.sin_reduced(r);
        let c = self.cos_reduced(r);
        let sin = self.by_quadrant(q, s, c, false);
        let sign = self.sign_bit(x);
        let sin = self.flip_sign(sin, sign);
        let sin = self.nan_unless_finite(x, sin);
        let cos = self.by_quadrant(q, s, c, true);
        let cos = self.nan_unless_finite(x, cos);
        (sin, cos)
    }

    /// The element-wise function `b` of `x` (and `y`, the second argument
    /// of `atan2`/`atan2pi`), or `None` for a built-in not computed here.
    fn function(&mut self, b: Builtin, x: V, y: Option<V>) -> Option<V> {
        Some(match b {
            Builtin::Sin => self.sin_cos(x).0,
            Builtin::Cos => self.sin_cos(x).1,
            Builtin::Tan => self.tan(x),
            Builtin::Sinpi => self.sinpi(x),
            Builtin::Cospi => self.cospi(x),
            Builtin::Tanpi => self.tanpi(x),
            Builtin::Asin => {
                let v = self.asin(x);
                self.sum(v)
            }
            Builtin::Acos => {
                let v = self.acos(x);
                self.sum(v)
            }
            Builtin::Atan => {
                let v = self.atan(x);
                self.sum(v)
            }
            Builtin::Asinpi => {
                let v = self.asin(x);
                self.over_pi(v)
            }
            Builtin::Acospi => {
                let v = self.acos(x);
                self.over_pi(v)
            }
            Builtin::Atanpi => {
                let v = self.atan(x);
                self.over_pi(v)
            }
            // atan2(y, x): the call's first argument is y.
            Builtin::Atan2 => {
                let v = self.atan2(x, y?);
                self.sum(v)
            }
            Builtin::Atan2pi => {
                let v = self.atan2(x, y?);
                self.over_pi(v)
            }
            _ => return None,
        })
    }

    fn tan(&mut self, x: V) -> V {
        let a = self.math(naga::MathFunction::Abs, x);
        let (r, q) = self.reduce_half_pi(a);
        let v = self.tan_reduced(r, q);
        let sign = self.sign_bit(x);
        let v = self.flip_sign(v, sign);
        self.nan_unless_finite(x, v)
    }

    /// tan(r + q pi/2): sin/cos, or -cos/sin in odd quadrants.
    fn tan_reduced(&mut self, r: Pair, q: V) -> V {
        let s = self.sin_reduced(r);
        let c = self.cos_reduced(r);
        let one = self.u(1);
        let odd = self.bin(B::And, q, one);
        let zero = self.u(0);
        let odd = self.bin(B::NotEqual, odd, zero);
        let even_value = self.div(s, c);
        let nc = self.neg(c);
        let odd_value = self.div(nc, s);
        self.select(odd, odd_value, even_value)
    }

    /// |x| = n + t with t in [0, 2) reduced exactly to quadrant q (0..4) and
    /// pi r for r = t - q/2 in [-1/4, 1/4], as a pair.
    fn reduce_pi_units(&mut self, a: V) -> PiReduction {
        let half = self.f(0.5);
        let two = self.f(2.0);
        let halved = self.mul(a, half);
        let whole = self.math(naga::MathFunction::Floor, halved);
        let even = self.mul(whole, two);
        let t = self.sub(a, even);
        let doubled = self.mul(t, two);
        let q = self.math(naga::MathFunction::Round, doubled);
        let step = self.mul(q, half);
        let r = self.sub(t, step);
        // For a tiny |x| (then r = |x|, quadrant 0) r is scaled up so that
        // the low part of pi r stays normal on devices that flush
        // subnormals. Elsewhere r is 0 or above 2^-25.
        let limit = self.f(TINY);
        let tiny = self.bin(B::Less, a, limit);
        let one = self.f(1.0);
        let up = self.f(TINY_SCALE);
        let down = self.f(1.0 / TINY_SCALE);
        let up = self.select(tiny, up, one);
        let down = self.select(tiny, down, one);
        let r = self.mul(r, up);
        let pi_hi = self.f(PI[0]);
        let pi_lo = self.f(PI[1]);
        let head = self.two_prod(r, pi_hi);
        let lo = self.fma(r, pi_lo, head.lo);
        let pr = self.fast_two_sum(head.hi, lo);
        // sin(pi r) = tan(pi r) = pi r to far below an ulp there, rounded
        // once (by the scaling, if the result is subnormal).
        let tiny_value = self.mul(pr.hi, down);
        let pr = Pair {
            hi: tiny_value,
            lo: self.mul(pr.lo, down),
        };
        let quadrant = self.convert_to_uint(q);
        PiReduction {
            r: pr,
            quadrant,
            t,
            tiny,
            tiny_value,
        }
    }

    /// +0 where `v` is a zero of either sign.
    fn positive_zero(&mut self, v: V) -> V {
        let zero = self.f(0.0);
        let is_zero = self.bin(B::Equal, v, zero);
        self.select(is_zero, zero, v)
    }

    fn sinpi(&mut self, x: V) -> V {
        let a = self.math(naga::MathFunction::Abs, x);
        let reduction = self.reduce_pi_units(a);
        let (r, q) = (reduction.r, reduction.quadrant);
        let s = self.sin_reduced(r);
        let c = self.cos_reduced(r);
        let v = self.by_quadrant(q, s, c, false);
        let v = self.select(reduction.tiny, reduction.tiny_value, v);
        // sinpi(+n) = +0 and sinpi(-n) = -0 (OpenCL C 7.5.1).
        let v = self.positive_zero(v);
        let sign = self.sign_bit(x);
        let v = self.flip_sign(v, sign);
        self.nan_unless_finite(x, v)
    }

    fn cospi(&mut self, x: V) -> V {
        let a = self.math(naga::MathFunction::Abs, x);
        let reduction = self.reduce_pi_units(a);
        let (r, q) = (reduction.r, reduction.quadrant);
        let s = self.sin_reduced(r);
        let c = self.cos_reduced(r);
        let v = self.by_quadrant(q, s, c, true);
        // cospi(n + 0.5) = +0.
        let v = self.positive_zero(v);
        self.nan_unless_finite(x, v)
    }

    fn tanpi(&mut self, x: V) -> V {
        let a = self.math(naga::MathFunction::Abs, x);
        let reduction = self.reduce_pi_units(a);
        let (r, q, t) = (reduction.r, reduction.quadrant, reduction.t);
        let v = self.tan_reduced(r, q);
        let v = self.select(reduction.tiny, reduction.tiny_value, v);
        // Exact zeros and poles: tanpi(n) = copysign(0, n) for even n and
        // copysign(0, -n) for odd n; tanpi(n + 1/2) = +inf for even n and
        // -inf for odd n. For a = |x| the parity of n is whether t >= 1.
        let zero = self.f(0.0);
        let exact = self.bin(B::Equal, r.hi, zero);
        let one_u = self.u(1);
        let odd_q = self.bin(B::And, q, one_u);
        let zero_u = self.u(0);
        let pole = self.bin(B::NotEqual, odd_q, zero_u);
        let inf = self.inf();
        let special = self.select(pole, inf, zero);
        let one = self.f(1.0);
        let odd_n = self.bin(B::GreaterEqual, t, one);
        let minus = self.u(0x8000_0000);
        let n_sign = self.select(odd_n, minus, zero_u);
        let special = self.flip_sign(special, n_sign);
        let v = self.select(exact, special, v);
        let sign = self.sign_bit(x);
        let v = self.flip_sign(v, sign);
        self.nan_unless_finite(x, v)
    }

    /// atan(a) for a >= 0 (or NaN) as a pair, by the ranges
    /// [0, tan pi/8]: the series; (.., tan 3pi/8]: pi/4 + atan((a-1)/(a+1));
    /// above: pi/2 + atan(-1/a).
    fn atan_positive(&mut self, a: V) -> Pair {
        let one = self.f(1.0);
        let zero = self.f(0.0);
        // (a - 1) / (a + 1) with the rounding of a + 1 corrected.
        let n = self.sub(a, one);
        let d = self.two_sum(a, one);
        let t_mid = self.bin(B::Divide, n, d.hi);
        let residual = self.residual(n, t_mid, d.hi);
        let nt = self.neg(t_mid);
        let residual = self.fma(nt, d.lo, residual);
        let correction = self.bin(B::Divide, residual, d.hi);
        let t_mid = self.add(t_mid, correction);
        let minus_one = self.f(-1.0);
        let t_big = self.div(minus_one, a);
        let mid_start = self.f(0.414_213_57);
        let big_start = self.f(2.414_213_5);
        let is_mid = self.bin(B::Greater, a, mid_start);
        let is_big = self.bin(B::Greater, a, big_start);
        let t = self.select(is_mid, t_mid, a);
        let t = self.select(is_big, t_big, t);
        let base_hi = {
            let pio4 = self.f(PIO4[0]);
            let pio2 = self.f(PIO2[0]);
            let b = self.select(is_mid, pio4, zero);
            self.select(is_big, pio2, b)
        };
        let base_lo = {
            let pio4 = self.f(PIO4[1]);
            let pio2 = self.f(PIO2[1]);
            let b = self.select(is_mid, pio4, zero);
            self.select(is_big, pio2, b)
        };
        let z = self.mul(t, t);
        let cube = self.mul(t, z);
        let p = self.horner(z, &ATAN_POLY);
        let series_tail = self.mul(cube, p);
        // base + t + series_tail, with |t| <= base or base = 0.
        let head = self.two_sum(base_hi, t);
        let lo = self.add(base_lo, series_tail);
        let lo = self.add(head.lo, lo);
        self.fast_two_sum(head.hi, lo)
    }

    fn atan(&mut self, x: V) -> Pair {
        let a = self.math(naga::MathFunction::Abs, x);
        // Infinities and NaN never enter the algorithm (-1/a would meet an
        // infinity): atan(+-inf) = +-pi/2 exactly as a pair.
        let infinite = self.is_infinite(x);
        let nan = self.is_nan(x);
        let special = self.or(infinite, nan);
        let one = self.f(1.0);
        let a = self.select(special, one, a);
        let v = self.atan_positive(a);
        let half_pi = Pair {
            hi: self.f(PIO2[0]),
            lo: self.f(PIO2[1]),
        };
        let v = self.select_pair(infinite, half_pi, v);
        let sign = self.sign_bit(x);
        let v = Pair {
            hi: self.flip_sign(v.hi, sign),
            lo: self.flip_sign(v.lo, sign),
        };
        self.nan_where(nan, v)
    }

    /// NaN (both parts) where `condition` holds.
    fn nan_where(&mut self, condition: V, v: Pair) -> Pair {
        let nan = self.nan();
        Pair {
            hi: self.select(condition, nan, v.hi),
            lo: self.select(condition, nan, v.lo),
        }
    }

    fn atan2(&mut self, y: V, x: V) -> Pair {
        let ay = self.math(naga::MathFunction::Abs, y);
        let ax = self.math(naga::MathFunction::Abs, x);
        // The special cases of OpenCL C 7.5.1 come from finite stand-ins
        // chosen by bit tests, so no infinity reaches the arithmetic:
        // an infinite y against a finite x is 1 against 0 (pi/2), a finite
        // y against an infinite x is 0 against 1 (0 or pi), two infinities
        // are 1 against 1 (pi/4 or 3pi/4). Subnormals count as zeros, as
        // on devices that flush them. (The division normalises exponents
        // itself, so no other scaling is needed.)
        let zero = self.f(0.0);
        let one = self.f(1.0);
        let (y_inf, x_inf) = (self.is_infinite(y), self.is_infinite(x));
        let (y_zero, x_zero) = (self.is_zero_or_subnormal(y), self.is_zero_or_subnormal(x));
        let ay = self.select(y_zero, zero, ay);
        let ay = self.select(x_inf, zero, ay);
        let ay = self.select(y_inf, one, ay);
        let ax = self.select(x_zero, zero, ax);
        let ax = self.select(y_inf, zero, ax);
        let ax = self.select(x_inf, one, ax);
        let steep = self.bin(B::Greater, ay, ax);
        let small = self.select(steep, ax, ay);
        let large = self.select(steep, ay, ax);
        let t = self.div(small, large);
        // Equal magnitudes are 45 degrees (two zeros are caught below).
        let equal = self.bin(B::Equal, ay, ax);
        let t = self.select(equal, one, t);
        let base = self.atan_positive(t);
        let turned = self.constant_minus([PIO2[0], PIO2[1]], base);
        let angle = self.select_pair(steep, turned, base);
        // y = 0 is angle 0 (before reflecting for a negative x), whatever x.
        let flat = self.bin(B::Equal, ay, zero);
        let nothing = Pair { hi: zero, lo: zero };
        let angle = self.select_pair(flat, nothing, angle);
        let reflected = self.constant_minus(PI, angle);
        let x_sign = self.sign_bit(x);
        let zero_u = self.u(0);
        let left = self.bin(B::NotEqual, x_sign, zero_u);
        let angle = self.select_pair(left, reflected, angle);
        let y_sign = self.sign_bit(y);
        let angle = Pair {
            hi: self.flip_sign(angle.hi, y_sign),
            lo: self.flip_sign(angle.lo, y_sign),
        };
        let x_nan = self.is_nan(x);
        let y_nan = self.is_nan(y);
        let nan = self.or(x_nan, y_nan);
        self.nan_where(nan, angle)
    }

    /// asin(a) for 0 <= a <= 1 as a pair: the series up to 1/2, above it
    /// pi/2 - 2 asin(sqrt((1 - a)/2)). Also gives the pieces acos needs:
    /// (series value for a <= 1/2 as `x + tail`, 2 asin(s) as a pair).
    fn asin_parts(&mut self, a: V) -> (V, Pair) {
        let one = self.f(1.0);
        let half = self.f(0.5);
        // Near 0: a + a^3 P(a^2); the tail only.
        let z = self.mul(a, a);
        let cube = self.mul(a, z);
        let p = self.horner(z, &ASIN_POLY);
        let small_tail = self.mul(cube, p);
        // Near 1: s = sqrt(z) with z = (1 - a)/2 exact; s_lo corrects the
        // rounding of the square root (Vulkan's may be off by ulps).
        let gap = self.sub(one, a);
        let z = self.mul(gap, half);
        let s = self.math(naga::MathFunction::Sqrt, z);
        let residual = self.residual(z, s, s);
        let twice = self.add(s, s);
        let s_lo = self.bin(B::Divide, residual, twice);
        let zero = self.f(0.0);
        let positive = self.bin(B::Greater, s, zero);
        let s_lo = self.select(positive, s_lo, zero);
        let s_cube = self.mul(s, z);
        let p = self.horner(z, &ASIN_POLY);
        let w = self.fma(s_cube, p, s_lo);
        let two = self.f(2.0);
        let double_asin = Pair {
            hi: self.mul(s, two),
            lo: self.mul(w, two),
        };
        (small_tail, double_asin)
    }

    fn asin(&mut self, x: V) -> Pair {
        let a = self.math(naga::MathFunction::Abs, x);
        let (small_tail, double_asin) = self.asin_parts(a);
        let near_zero = Pair {
            hi: a,
            lo: small_tail,
        };
        let near_one = self.constant_minus([PIO2[0], PIO2[1]], double_asin);
        let half = self.f(0.5);
        let small = self.bin(B::LessEqual, a, half);
        let v = self.select_pair(small, near_zero, near_one);
        let sign = self.sign_bit(x);
        let v = Pair {
            hi: self.flip_sign(v.hi, sign),
            lo: self.flip_sign(v.lo, sign),
        };
        self.nan_beyond_one(a, v)
    }

    fn acos(&mut self, x: V) -> Pair {
        let a = self.math(naga::MathFunction::Abs, x);
        let (small_tail, double_asin) = self.asin_parts(a);
        // |x| <= 1/2: pi/2 - asin(x).
        let sign = self.sign_bit(x);
        let signed_tail = self.flip_sign(small_tail, sign);
        let asin = Pair {
            hi: x,
            lo: signed_tail,
        };
        let middle = self.constant_minus([PIO2[0], PIO2[1]], asin);
        // x > 1/2: 2 asin(sqrt((1 - x)/2)); x < -1/2: pi minus that.
        let right = self.fast_two_sum(double_asin.hi, double_asin.lo);
        let left = self.constant_minus(PI, double_asin);
        let zero_u = self.u(0);
        let negative = self.bin(B::NotEqual, sign, zero_u);
        let outer = self.select_pair(negative, left, right);
        let half = self.f(0.5);
        let small = self.bin(B::LessEqual, a, half);
        let v = self.select_pair(small, middle, outer);
        self.nan_beyond_one(a, v)
    }

    /// NaN where |x| > 1, infinite or NaN (`a` = |x|), by the bits.
    fn nan_beyond_one(&mut self, a: V, v: Pair) -> Pair {
        let m = self.magnitude_bits(a);
        let one = self.u(0x3f80_0000);
        let beyond = self.bin(B::Greater, m, one);
        self.nan_where(beyond, v)
    }

    /// v / pi, rounded once at the end. Tiny values are scaled by 2^64
    /// first so that the error terms of the product stay normal on devices
    /// that flush subnormals, and scaled back by the last multiplication.
    /// A zero (or a value such a device reads as zero) gives a zero of its
    /// sign, never `v` itself.
    fn over_pi(&mut self, v: Pair) -> V {
        let magnitude = self.math(naga::MathFunction::Abs, v.hi);
        let limit = self.f(TINY);
        let tiny = self.bin(B::Less, magnitude, limit);
        let one = self.f(1.0);
        let up = self.f(TINY_SCALE);
        let down = self.f(1.0 / TINY_SCALE);
        let up = self.select(tiny, up, one);
        let down = self.select(tiny, down, one);
        let scaled = Pair {
            hi: self.mul(v.hi, up),
            lo: self.mul(v.lo, up),
        };
        let q = self.times_constant_pair(scaled, INV_PI).hi;
        let q = self.mul(q, down);
        let is_zero = self.is_zero_or_subnormal(v.hi);
        let sign = self.sign_bit(v.hi);
        let signed_zero = self.as_float(sign);
        let q = self.select(is_zero, signed_zero, q);
        let nan = self.is_nan(v.hi);
        let nan_value = self.nan();
        self.select(nan, nan_value, q)
    }
}

impl ModuleBuilder<'_> {
    /// `b` applied to `args` with result type `ty`, or `None` when `b` is
    /// not one of this module's functions (or has a `double`/`half`
    /// argument, which this module does not implement).
    pub(in crate::lower) fn trig_builtin(
        &mut self,
        fb: &mut FnBuilder,
        b: Builtin,
        args: &[Expr],
        ty: &Type,
        location: Location,
    ) -> LResult<Option<Handle<naga::Expression>>> {
        use naga::MathFunction as M;
        let is_float = args
            .first()
            .is_some_and(|a| a.ty.element() == Some(Scalar::Float));
        if !is_float || !TRIG_BUILTINS.contains(&b) {
            return Ok(None);
        }
        let hardware = match b {
            Builtin::HalfSin => Some(M::Sin),
            Builtin::HalfCos => Some(M::Cos),
            Builtin::HalfTan => Some(M::Tan),
            _ if self.relaxed_math => match b {
                Builtin::Sin => Some(M::Sin),
                Builtin::Cos => Some(M::Cos),
                Builtin::Tan => Some(M::Tan),
                Builtin::Asin => Some(M::Asin),
                Builtin::Acos => Some(M::Acos),
                Builtin::Atan => Some(M::Atan),
                Builtin::Atan2 => Some(M::Atan2),
                _ => None,
            },
            _ => None,
        };
        if let Some(fun) = hardware {
            let x = self.plain(fb, &args[0])?;
            let y = match args.get(1) {
                Some(a) => Some(self.plain(fb, a)?),
                None => None,
            };
            return Ok(Some(fb.math(fun, x, y)));
        }
        let x = self.plain(fb, &args[0])?;
        if b == Builtin::Sincos {
            return self.sincos(fb, x, ty, &args[1], location).map(Some);
        }
        let y = match (b, args.get(1)) {
            (Builtin::Atan2 | Builtin::Atan2pi, Some(a)) => Some(self.plain(fb, a)?),
            _ => None,
        };
        let size = match ty {
            Type::Vector(_, n) => vector_size(*n),
            _ => None,
        };
        Ok(self.ops(fb, size).function(b, x, y))
    }

    /// Builds arithmetic on `fb` over values of `size` lanes.
    fn ops<'f>(&mut self, fb: &'f mut FnBuilder, size: Option<naga::VectorSize>) -> Ops<'f> {
        let mut of_width = |scalar| {
            self.add_type(match size {
                Some(size) => naga::TypeInner::Vector { size, scalar },
                None => naga::TypeInner::Scalar(scalar),
            })
        };
        let float_ty = of_width(naga::Scalar::F32);
        let uint_ty = of_width(naga::Scalar::U32);
        let word = self.u32_type();
        let table_ty = self.add_type(naga::TypeInner::Array {
            base: word,
            size: naga::ArraySize::Constant(
                std::num::NonZeroU32::new(TWO_OVER_PI_BITS.len() as u32).expect("table"),
            ),
            stride: 4,
        });
        Ops {
            fb,
            size,
            float_ty,
            uint_ty,
            table_ty,
        }
    }

    /// `sincos(x, cosval)`: returns sin x and stores cos x. 8/16-element
    /// vectors are split into parts before they reach it (`wide.rs`).
    fn sincos(
        &mut self,
        fb: &mut FnBuilder,
        x: Handle<naga::Expression>,
        ty: &Type,
        cosval: &Expr,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let (sin, cos) = match ty {
            Type::Vector(_, n) => self.ops(fb, vector_size(*n)).sin_cos(x),
            _ => self.ops(fb, None).sin_cos(x),
        };
        self.store_through(fb, cosval, cos, location)?;
        Ok(sin)
    }

    /// `*pointer = value` for an output-pointer argument.
    fn store_through(
        &mut self,
        fb: &mut FnBuilder,
        pointer: &Expr,
        value: Handle<naga::Expression>,
        location: Location,
    ) -> LResult<()> {
        let Some(pointee) = pointer.ty.pointee() else {
            return Err(self.error(location, "internal compiler error: not a pointer"));
        };
        let target = Expr::new(
            H::Deref(Box::new(pointer.clone())),
            pointee.ty.clone(),
            location,
        );
        let value = self.output_for(fb, value, pointer, location)?;
        let place = self.place(fb, &target)?;
        self.store(fb, place, Value::Plain(value), location, None)
    }
}
