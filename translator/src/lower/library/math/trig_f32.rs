//! The single-precision trigonometric built-ins (`sin` .. `atan2pi`,
//! `sincos`, the `*pi` variants, `half_sin/cos/tan` and
//! `native_sin/cos/tan`) at OpenCL
//! full-profile accuracy, computed in software: GLSL.std.450's `Sin`/`Cos`
//! only promise about 2^-11 absolute error, where OpenCL asks for 4 ulp
//! over the whole float range. This file holds the entry the lowering calls
//! ([`ModuleBuilder::trig_builtin`]) and `sin`, `cos`, `tan` and the `*pi`
//! functions; the reduction modulo pi/2 is `trig_reduce_f32.rs`'s, the
//! inverse functions are `inverse_trig_f32.rs`'s. Unlike the rest of the
//! library these are expanded at each call rather than made naga
//! functions. Every function is element-wise, so one lowering serves
//! `float` and every vector width.
//!
//! The `*pi` functions reduce exactly in floating point. The polynomials
//! are the Taylor series truncated where the next term is below 2^-30 of
//! the result on the reduced interval, evaluated with fma. Vulkan lets
//! `Fma` round twice, so no exact step relies on it: exact products are
//! Dekker products of masked 12-bit halves. Devices may flush subnormal
//! results to zero and may divide through a reciprocal (NVIDIA does both),
//! so no error term is allowed to become subnormal where it matters (tiny
//! arguments are scaled by 2^64 first, and division works on
//! significands), and no infinity or NaN goes through the arithmetic to
//! produce a special value: those are chosen by selects on bit tests,
//! which a compiler assuming finite floats cannot fold
//! (`trig_ops_f32.rs`). `-cl-fast-relaxed-math` maps to the GLSL
//! functions; `half_*` and `native_*` are the precise ones (see
//! `trig_builtin`).
//!
//! The `double` functions (`trig_f64.rs`, `inverse_trig_f64.rs`) share the
//! series and constants but not the code: drivers keep f64 subnormals, the
//! double reduction uses 64-bit integers, and double-double needs the
//! second-order terms a float drops.

use super::inverse_trig_f32::{acos, asin, atan, atan2, over_pi};
use super::ops::{Df, Ops, V};
use super::series::sin_cos_taylor;
use super::trig_ops_f32::{
    div_significands, flip_sign_by, nan_unless_finite, sign_word, PI_PAIR, TINY, TINY_SCALE,
};
use super::trig_reduce_f32::{reduce_half_pi, Types, TWO_OVER_PI_BITS};
use crate::builtins::Builtin;
use crate::diagnostic::Location;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::expressions::{Operand, Value};
use crate::lower::function::FnBuilder;
use crate::lower::naga_types::vector_size;
use crate::types::{Scalar, Type};
use naga::Handle;

/// sin(x) = x + x^3 * S(x^2): Taylor coefficients of S.
const SIN_POLY: [f64; 5] = sin_cos_taylor(3);

/// cos(x) = 1 - x^2/2 + x^4 * C(x^2).
const COS_POLY: [f64; 5] = sin_cos_taylor(4);

/// The built-ins this module lowers (for `float` arguments).
const TRIG_BUILTINS: [Builtin; 21] = [
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
    Builtin::NativeSin,
    Builtin::NativeCos,
    Builtin::NativeTan,
];

/// `|x|` reduced in units of pi (see [`reduce_pi_units`]).
struct PiReduction {
    /// pi r, r = t - quadrant/2 in [-1/4, 1/4].
    r: Df,
    /// The quarter turn, 0..4, as a `u32`.
    quadrant: V,
    /// |x| modulo 2.
    t: V,
    /// Whether |x| is below [`TINY`], where `tiny_value` is the result of
    /// sinpi and tanpi.
    tiny: V,
    tiny_value: V,
}

/// sin(r) for r = hi + lo, |r| <= about pi/4.
fn sin_reduced(o: &mut Ops, r: Df) -> V {
    let z = o.mul(r.hi, r.hi);
    let cube = o.mul(r.hi, z);
    let s = o.poly(z, &SIN_POLY);
    // sin(hi + lo) = sin(hi) + lo * cos(hi); cos(hi) - 1 is below the
    // rounding of the result there.
    let tail = o.mad(cube, s, r.lo);
    o.add(r.hi, tail)
}

/// cos(r) for r = hi + lo, |r| <= about pi/4.
fn cos_reduced(o: &mut Ops, r: Df) -> V {
    let z = o.mul(r.hi, r.hi);
    let half = o.f(0.5);
    let w = o.mul(z, half);
    let one = o.f(1.0);
    // 1 - w rounds; recover what it lost, then add z^2 C(z) - hi * lo.
    let head = o.sub(one, w);
    let lost = o.sub(one, head);
    let lost = o.sub(lost, w);
    let c = o.poly(z, &COS_POLY);
    let zz = o.mul(z, z);
    let hl = o.mul(r.hi, r.lo);
    let nhl = o.neg(hl);
    let tail = o.mad(zz, c, nhl);
    let tail = o.add(lost, tail);
    o.add(head, tail)
}

/// sin(r + q pi/2) (`cosine` false) or cos(r + q pi/2) = sin(r + (q + 1)
/// pi/2) from sin r and cos r, for a quadrant `q` (a `u32`): odd
/// quadrants swap sine and cosine, quadrants 2 and 3 negate.
fn by_quadrant(o: &mut Ops, q: V, sin: V, cos: V, cosine: bool) -> V {
    let q = if cosine {
        let one = o.u(1);
        o.add(q, one)
    } else {
        q
    };
    let one = o.u(1);
    let odd = o.and(q, one);
    let zero = o.u(0);
    let swap = o.ne(odd, zero);
    let v = o.sel(swap, cos, sin);
    let two = o.u(2);
    let half_turn = o.and(q, two);
    let sign = o.shl(half_turn, 30);
    flip_sign_by(o, v, sign)
}

/// (sin x, cos x), sharing the reduction.
fn sin_cos(o: &mut Ops, t: Types, x: V) -> (V, V) {
    let a = o.abs(x);
    let (r, q) = reduce_half_pi(o, t, a);
    let s = sin_reduced(o, r);
    let c = cos_reduced(o, r);
    let sin = by_quadrant(o, q, s, c, false);
    let sign = sign_word(o, x);
    let sin = flip_sign_by(o, sin, sign);
    let sin = nan_unless_finite(o, x, sin);
    let cos = by_quadrant(o, q, s, c, true);
    let cos = nan_unless_finite(o, x, cos);
    (sin, cos)
}

/// The element-wise function `b` of `x` (and `y`, the second argument
/// of `atan2`/`atan2pi`), or `None` for a built-in not computed here.
fn function(o: &mut Ops, t: Types, b: Builtin, x: V, y: Option<V>) -> Option<V> {
    Some(match b {
        Builtin::Sin => sin_cos(o, t, x).0,
        Builtin::Cos => sin_cos(o, t, x).1,
        Builtin::Tan => tan(o, t, x),
        Builtin::Sinpi => sinpi(o, x),
        Builtin::Cospi => cospi(o, x),
        Builtin::Tanpi => tanpi(o, x),
        Builtin::Asin => {
            let v = asin(o, x);
            o.df_value(v)
        }
        Builtin::Acos => {
            let v = acos(o, x);
            o.df_value(v)
        }
        Builtin::Atan => {
            let v = atan(o, x);
            o.df_value(v)
        }
        Builtin::Asinpi => {
            let v = asin(o, x);
            over_pi(o, v)
        }
        Builtin::Acospi => {
            let v = acos(o, x);
            over_pi(o, v)
        }
        Builtin::Atanpi => {
            let v = atan(o, x);
            over_pi(o, v)
        }
        // atan2(y, x): the call's first argument is y.
        Builtin::Atan2 => {
            let v = atan2(o, x, y?);
            o.df_value(v)
        }
        Builtin::Atan2pi => {
            let v = atan2(o, x, y?);
            over_pi(o, v)
        }
        _ => return None,
    })
}

fn tan(o: &mut Ops, t: Types, x: V) -> V {
    let a = o.abs(x);
    let (r, q) = reduce_half_pi(o, t, a);
    let v = tan_reduced(o, r, q);
    let sign = sign_word(o, x);
    let v = flip_sign_by(o, v, sign);
    nan_unless_finite(o, x, v)
}

/// tan(r + q pi/2): sin/cos, or -cos/sin in odd quadrants.
fn tan_reduced(o: &mut Ops, r: Df, q: V) -> V {
    let s = sin_reduced(o, r);
    let c = cos_reduced(o, r);
    let one = o.u(1);
    let odd = o.and(q, one);
    let zero = o.u(0);
    let odd = o.ne(odd, zero);
    let even_value = div_significands(o, s, c);
    let nc = o.neg(c);
    let odd_value = div_significands(o, nc, s);
    o.sel(odd, odd_value, even_value)
}

/// |x| = n + t with t in [0, 2) reduced exactly to quadrant q (0..4) and
/// pi r for r = t - q/2 in [-1/4, 1/4], as a pair.
fn reduce_pi_units(o: &mut Ops, a: V) -> PiReduction {
    let half = o.f(0.5);
    let two = o.f(2.0);
    let halved = o.mul(a, half);
    let whole = o.floor(halved);
    let even = o.mul(whole, two);
    let t = o.sub(a, even);
    let doubled = o.mul(t, two);
    let q = o.rint(doubled);
    let step = o.mul(q, half);
    let r = o.sub(t, step);
    // For a tiny |x| (then r = |x|, quadrant 0) r is scaled up so that
    // the low part of pi r stays normal on devices that flush
    // subnormals. Elsewhere r is 0 or above 2^-25.
    let limit = o.f(TINY);
    let tiny = o.lt(a, limit);
    let one = o.f(1.0);
    let up = o.f(TINY_SCALE);
    let down = o.f(1.0 / TINY_SCALE);
    let up = o.sel(tiny, up, one);
    let down = o.sel(tiny, down, one);
    let r = o.mul(r, up);
    let pi_hi = o.f(PI_PAIR[0]);
    let pi_lo = o.f(PI_PAIR[1]);
    let head = o.two_prod(r, pi_hi);
    let lo = o.mad(r, pi_lo, head.lo);
    let pr = o.fast_two_sum(head.hi, lo);
    // sin(pi r) = tan(pi r) = pi r to far below an ulp there, rounded
    // once (by the scaling, if the result is subnormal).
    let tiny_value = o.mul(pr.hi, down);
    let pr = Df {
        hi: tiny_value,
        lo: o.mul(pr.lo, down),
    };
    let quadrant = o.uint32(q);
    PiReduction {
        r: pr,
        quadrant,
        t,
        tiny,
        tiny_value,
    }
}

/// +0 where `v` is a zero of either sign.
fn positive_zero(o: &mut Ops, v: V) -> V {
    let zero = o.f(0.0);
    let is_zero = o.eq(v, zero);
    o.sel(is_zero, zero, v)
}

fn sinpi(o: &mut Ops, x: V) -> V {
    let a = o.abs(x);
    let reduction = reduce_pi_units(o, a);
    let (r, q) = (reduction.r, reduction.quadrant);
    let s = sin_reduced(o, r);
    let c = cos_reduced(o, r);
    let v = by_quadrant(o, q, s, c, false);
    let v = o.sel(reduction.tiny, reduction.tiny_value, v);
    // sinpi(+n) = +0 and sinpi(-n) = -0 (OpenCL C 7.5.1).
    let v = positive_zero(o, v);
    let sign = sign_word(o, x);
    let v = flip_sign_by(o, v, sign);
    nan_unless_finite(o, x, v)
}

fn cospi(o: &mut Ops, x: V) -> V {
    let a = o.abs(x);
    let reduction = reduce_pi_units(o, a);
    let (r, q) = (reduction.r, reduction.quadrant);
    let s = sin_reduced(o, r);
    let c = cos_reduced(o, r);
    let v = by_quadrant(o, q, s, c, true);
    // cospi(n + 0.5) = +0.
    let v = positive_zero(o, v);
    nan_unless_finite(o, x, v)
}

fn tanpi(o: &mut Ops, x: V) -> V {
    let a = o.abs(x);
    let reduction = reduce_pi_units(o, a);
    let (r, q, t) = (reduction.r, reduction.quadrant, reduction.t);
    let v = tan_reduced(o, r, q);
    let v = o.sel(reduction.tiny, reduction.tiny_value, v);
    // Exact zeros and poles: tanpi(n) = copysign(0, n) for even n and
    // copysign(0, -n) for odd n; tanpi(n + 1/2) = +inf for even n and
    // -inf for odd n. For a = |x| the parity of n is whether t >= 1.
    let zero = o.f(0.0);
    let exact = o.eq(r.hi, zero);
    let one_u = o.u(1);
    let odd_q = o.and(q, one_u);
    let zero_u = o.u(0);
    let pole = o.ne(odd_q, zero_u);
    let inf = o.inf();
    let special = o.sel(pole, inf, zero);
    let one = o.f(1.0);
    let odd_n = o.ge(t, one);
    let minus = o.u(0x8000_0000);
    let n_sign = o.sel(odd_n, minus, zero_u);
    let special = flip_sign_by(o, special, n_sign);
    let v = o.sel(exact, special, v);
    let sign = sign_word(o, x);
    let v = flip_sign_by(o, v, sign);
    nan_unless_finite(o, x, v)
}

impl ModuleBuilder<'_> {
    /// `b` applied to `args` with result type `ty`, or `None` when `b` is
    /// not one of this module's functions (or has a `double`/`half`
    /// argument, which this module does not implement).
    pub(in crate::lower) fn trig_builtin(
        &mut self,
        fb: &mut FnBuilder,
        b: Builtin,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Option<Handle<naga::Expression>>> {
        use naga::MathFunction as M;
        let is_float = args
            .first()
            .is_some_and(|a| fb.ty(*a).element() == Some(Scalar::Float));
        if !is_float || !TRIG_BUILTINS.contains(&b) {
            return Ok(None);
        }
        // `half_*` (8192 ulp for |x| <= 2^16) and `native_*` (accuracy
        // implementation-defined) are the precise functions: Vulkan's
        // `Sin`/`Cos`/`Tan` are bounded only in absolute error on
        // [-pi, pi], and NVIDIA's reduce no further (`half_sin(72.26f)`
        // was a million ulp off there).
        let b = match b {
            Builtin::HalfSin | Builtin::NativeSin => Builtin::Sin,
            Builtin::HalfCos | Builtin::NativeCos => Builtin::Cos,
            Builtin::HalfTan | Builtin::NativeTan => Builtin::Tan,
            b => b,
        };
        let hardware = match b {
            _ if self.library.relaxed_math => match b {
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
            let x = self.plain(fb, args[0])?;
            let y = match args.get(1) {
                Some(a) => Some(self.plain(fb, *a)?),
                None => None,
            };
            return Ok(Some(fb.math(fun, x, y)));
        }
        let x = self.plain(fb, args[0])?;
        if b == Builtin::Sincos {
            return self.sincos(fb, x, ty, args[1], location).map(Some);
        }
        let y = match (b, args.get(1)) {
            (Builtin::Atan2 | Builtin::Atan2pi, Some(a)) => Some(self.plain(fb, *a)?),
            _ => None,
        };
        let size = match ty {
            Type::Vector(_, n) => vector_size(*n),
            _ => None,
        };
        let types = self.trig_types(size);
        Ok(function(
            &mut Ops::of_width(fb, size, false),
            types,
            b,
            x,
            y,
        ))
    }

    /// The types the reduction modulo pi/2 needs at `size` lanes.
    fn trig_types(&mut self, size: Option<naga::VectorSize>) -> Types {
        let mut of_width = |scalar| {
            self.add_type(match size {
                Some(size) => naga::TypeInner::Vector { size, scalar },
                None => naga::TypeInner::Scalar(scalar),
            })
        };
        let float = of_width(naga::Scalar::F32);
        let uint = of_width(naga::Scalar::U32);
        let word = self.u32_type();
        let table = self.add_type(naga::TypeInner::Array {
            base: word,
            size: naga::ArraySize::Constant(
                std::num::NonZeroU32::new(TWO_OVER_PI_BITS.len() as u32).expect("table"),
            ),
            stride: 4,
        });
        Types { float, uint, table }
    }

    /// `sincos(x, cosval)`: returns sin x and stores cos x. 8/16-element
    /// vectors are split into parts before they reach it (`wide.rs`).
    fn sincos(
        &mut self,
        fb: &mut FnBuilder,
        x: Handle<naga::Expression>,
        ty: &Type,
        cosval: Operand,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let size = match ty {
            Type::Vector(_, n) => vector_size(*n),
            _ => None,
        };
        let types = self.trig_types(size);
        let (sin, cos) = sin_cos(&mut Ops::of_width(fb, size, false), types, x);
        self.store_through(fb, cosval, cos, location)?;
        Ok(sin)
    }

    /// `*pointer = value` for an output-pointer argument.
    fn store_through(
        &mut self,
        fb: &mut FnBuilder,
        pointer: Operand,
        value: Handle<naga::Expression>,
        location: Location,
    ) -> LResult<()> {
        if self.pointee_of(fb, pointer).is_none() {
            return Err(self.error(location, "internal compiler error: not a pointer"));
        }
        let value = self.output_for(fb, value, pointer, location)?;
        let place = self.pointed_place(fb, pointer, location)?;
        self.store(fb, place, Value::Plain(value), location, None)
    }
}
