//! The exactly-rounded functions whose GLSL counterparts differ from
//! OpenCL's definition (NaN handling of min/max, `round` ties, ...) or are
//! missing: `fmin`/`fmax`, `round`, `fmod`, `remainder`, `remquo`,
//! `fract`, `frexp`, `modf`, `ldexp`, `ilogb`, `logb`, `nextafter`, `nan`,
//! `copysign`, `fdim`, `maxmag`, `minmag`. Each is written once for f32
//! and f64 through the vocabulary's format (field widths, bias).

use super::ops::{Ops, V};
use naga::{Block, Expression, Handle, Statement};

/// `fmin`: the other operand when one is NaN.
pub(in crate::lower) fn fmin(o: &mut Ops, x: V, y: V) -> V {
    let smaller = o.lt(y, x);
    let nan = o.is_nan(x);
    let take_y = o.or(smaller, nan);
    o.sel(take_y, y, x)
}

pub(in crate::lower) fn fmax(o: &mut Ops, x: V, y: V) -> V {
    let larger = o.gt(y, x);
    let nan = o.is_nan(x);
    let take_y = o.or(larger, nan);
    o.sel(take_y, y, x)
}

/// Half-way cases away from zero (naga's `Round` is ties-to-even).
pub(in crate::lower) fn round(o: &mut Ops, x: V) -> V {
    let t = o.trunc(x);
    let d = o.sub(x, t);
    let d = o.abs(d);
    let half = o.f(0.5);
    let up = o.ge(d, half);
    let one = o.f(1.0);
    let unit = o.copysign(one, x);
    let away = o.add(t, unit);
    o.sel(up, away, t)
}

pub(in crate::lower) fn fract(o: &mut Ops, x: V) -> (V, V) {
    let fl = o.floor(x);
    let f = o.sub(x, fl);
    // The largest float below 1.
    let below_one = o.f(1.0 - 2f64.powi(-o.precision()));
    let f = fmin(o, f, below_one);
    let inf = o.is_inf(x);
    let zero = o.f(0.0);
    let signed_zero = o.copysign(zero, x);
    let f = o.sel(inf, signed_zero, f);
    let is_zero = o.eqc(x, 0.0);
    let f = o.sel(is_zero, x, f);
    let nan = o.is_nan(x);
    (o.sel(nan, x, f), fl)
}

pub(in crate::lower) fn modf(o: &mut Ops, x: V) -> (V, V) {
    let t = o.trunc(x);
    let f = o.sub(x, t);
    let inf = o.is_inf(x);
    let zero = o.f(0.0);
    let f = o.sel(inf, zero, f);
    (o.copysign(f, x), t)
}

/// Mantissa in [1/2, 1) and exponent; 0, infinities and NaN give `(x, 0)`.
pub(in crate::lower) fn frexp(o: &mut Ops, x: V) -> (V, V) {
    let ax = o.abs(x);
    let tiny = o.ltc(ax, o.min_positive());
    let scaled = o.mulc(x, 2f64.powi(o.precision()));
    let xs = o.sel(tiny, scaled, x);
    let bits = o.bits(xs);
    let field = o.exponent_field(bits);
    let half_field = o.bias() - 1;
    let (normal, sub) = (o.i(half_field), o.i(half_field + o.precision()));
    let bias = o.sel(tiny, sub, normal);
    let e = o.sub(field, bias);
    let m = o.sign_and_mantissa(bits);
    let half = o.i(half_field);
    let m = o.with_exponent_field(m, half);
    let zero = o.eqc(x, 0.0);
    let inf = o.is_inf(x);
    let nan = o.is_nan(x);
    let special = o.or(zero, inf);
    let special = o.or(special, nan);
    let none = o.i(0);
    (o.sel(special, x, m), o.sel(special, none, e))
}

/// `x * 2^k`, exact or rounded once: the exponent field is rewritten
/// directly; a subnormal result is formed 64 binades up and scaled down in
/// one multiplication.
pub(super) fn ldexp(o: &mut Ops, x: V, k: V) -> V {
    // Beyond these every result is 0 or infinite.
    let reach = if o.double { 2200 } else { 400 };
    let (lo, hi) = (o.i(-reach), o.i(reach));
    let k = o.max(k, lo);
    let k = o.min(k, hi);
    let ax = o.abs(x);
    let tiny = o.ltc(ax, o.min_positive());
    let scaled = o.mulc(x, 2f64.powi(o.precision()));
    let x_normal = o.sel(tiny, scaled, x);
    let (shift, none) = (o.i(o.precision()), o.i(0));
    let shift = o.sel(tiny, shift, none);
    let k = o.sub(k, shift);
    let bits = o.bits(x_normal);
    let field = o.exponent_field(bits);
    let e = o.add(field, k);
    let one = o.i(1);
    let low = o.lt(e, one);
    // Fields below this give 0 even 64 binades up and scaled back.
    let floor = o.i(if o.double { -60 } else { -30 });
    let raised = o.max(e, floor);
    let up = o.i(64);
    let raised = o.add(raised, up);
    let e_set = o.sel(low, raised, e);
    let rest = o.sign_and_mantissa(bits);
    let v = o.with_exponent_field(rest, e_set);
    let down = o.mulc(v, 2f64.powi(-64));
    let v = o.sel(low, down, v);
    let max = o.i(o.max_field());
    let over = o.gt(e, max);
    let inf = o.inf();
    let inf = o.copysign(inf, x);
    let v = o.sel(over, inf, v);
    let zero = o.eqc(x, 0.0);
    let nonfinite = o.is_inf(x);
    let nan = o.is_nan(x);
    let special = o.or(zero, nonfinite);
    let special = o.or(special, nan);
    o.sel(special, x, v)
}

/// The unbiased exponent of a finite non-zero `x` (subnormals normalised).
fn exponent(o: &mut Ops, x: V) -> V {
    let ax = o.abs(x);
    let tiny = o.ltc(ax, o.min_positive());
    let scaled = o.mulc(ax, 2f64.powi(o.precision()));
    let xs = o.sel(tiny, scaled, ax);
    let bits = o.bits(xs);
    let field = o.exponent_field(bits);
    let (normal, sub) = (o.i(o.bias()), o.i(o.bias() + o.precision()));
    let bias = o.sel(tiny, sub, normal);
    o.sub(field, bias)
}

pub(super) fn ilogb(o: &mut Ops, x: V) -> V {
    let e = exponent(o, x);
    let zero = o.eqc(x, 0.0);
    let (min, max) = (o.i(i32::MIN), o.i(i32::MAX));
    let e = o.sel(zero, min, e);
    let inf = o.is_inf(x);
    let nan = o.is_nan(x);
    let big = o.or(inf, nan);
    o.sel(big, max, e)
}

pub(super) fn logb(o: &mut Ops, x: V) -> V {
    let e = exponent(o, x);
    let e = o.float_from_int(e);
    let zero = o.eqc(x, 0.0);
    let inf = o.inf();
    let minus_inf = o.neg(inf);
    let e = o.sel(zero, minus_inf, e);
    let infinite = o.is_inf(x);
    let e = o.sel(infinite, inf, e);
    let nan = o.is_nan(x);
    o.sel(nan, x, e)
}

pub(in crate::lower) fn nextafter(o: &mut Ops, x: V, y: V) -> V {
    let bits = o.bits(x);
    // Adding 1 to the bits grows the magnitude whatever the sign.
    let less = o.lt(x, y);
    let positive = o.gtc(x, 0.0);
    let grow = o.eq(less, positive);
    let one = o.wi(1);
    let (up, down) = (o.add(bits, one), o.sub(bits, one));
    let next = o.sel(grow, up, down);
    let next = o.as_float(next);
    // From zero: the smallest subnormal with y's sign.
    let smallest = if o.double { o.d_bits(1) } else { o.f_bits(1) };
    let from_zero = o.copysign(smallest, y);
    let zero = o.eqc(x, 0.0);
    let r = o.sel(zero, from_zero, next);
    let same = o.eq(x, y);
    let r = o.sel(same, y, r);
    let (nx, ny) = (o.is_nan(x), o.is_nan(y));
    let nan = o.or(nx, ny);
    let q = o.nan();
    o.sel(nan, q, r)
}

/// A quiet NaN carrying `code` in its mantissa.
pub(in crate::lower) fn nan(o: &mut Ops, code: V) -> V {
    let (payload, quiet) = if o.double {
        (o.ul(0x0007_ffff_ffff_ffff), o.ul(0x7ff8_0000_0000_0000))
    } else {
        (o.u(0x003f_ffff), o.u(0x7fc0_0000))
    };
    let code = o.and(code, payload);
    let bits = o.or(code, quiet);
    o.as_float(bits)
}

pub(super) fn fdim(o: &mut Ops, x: V, y: V) -> V {
    let d = o.sub(x, y);
    let above = o.gt(x, y);
    let zero = o.f(0.0);
    let r = o.sel(above, d, zero);
    let (nx, ny) = (o.is_nan(x), o.is_nan(y));
    let nan = o.or(nx, ny);
    let q = o.nan();
    o.sel(nan, q, r)
}

/// `maxmag` (`larger`) or `minmag`: the operand of larger (smaller)
/// magnitude, `fmax` (`fmin`) of the two on a tie.
pub(super) fn by_magnitude(o: &mut Ops, x: V, y: V, larger: bool) -> V {
    let (ax, ay) = (o.abs(x), o.abs(y));
    let (x_wins, y_wins) = if larger {
        (o.gt(ax, ay), o.gt(ay, ax))
    } else {
        (o.lt(ax, ay), o.lt(ay, ax))
    };
    let tie = if larger { fmax(o, x, y) } else { fmin(o, x, y) };
    let r = o.sel(y_wins, y, tie);
    o.sel(x_wins, x, r)
}

/// A float's 24-bit (53-bit) integer significand and its i32 exponent (for
/// value `m * 2^(e - 150)`, f64 `m * 2^(e - 1075)`; subnormals have
/// exponent 1).
fn significand(o: &mut Ops, ax: V) -> (V, V) {
    let bits = o.bits(ax);
    let field = o.exponent_field(bits);
    let implicit_bit = 1i64 << o.mantissa_bits();
    let mask = o.wi(implicit_bit - 1);
    let m = o.and(bits, mask);
    let zero = o.i(0);
    let normal = o.ne(field, zero);
    let implicit = o.wi(implicit_bit);
    let wide_zero = o.wi(0);
    let lead = o.sel(normal, implicit, wide_zero);
    let m = o.or(m, lead);
    let one = o.i(1);
    let e = o.max(field, one);
    (o.uint_bits(m), e)
}

/// `|x| mod |y|` and the low bits of the integer quotient, by long
/// division of the significands 8 bits per step (the remainder stays
/// below 2^24, so a shifted one fits 32 bits; f64: 2^53 in 64 bits).
/// Finite, non-zero `y`.
fn divide_significands(o: &mut Ops, ax: V, ay: V, types: Types) -> Division {
    let (mx, ex) = significand(o, ax);
    let (my, ey) = significand(o, ay);
    let r0 = o.rem(mx, my);
    let q0 = o.udiv(mx, my);
    let d0 = o.sub(ex, ey);
    let vars = [types.uint, types.uint, types.int].map(|ty| {
        o.fb.function.local_variables.append(
            naga::LocalVariable {
                name: None,
                ty,
                init: None,
            },
            naga::Span::UNDEFINED,
        )
    });
    let pointers = vars.map(|v| o.fb.add(Expression::LocalVariable(v)));
    for (pointer, value) in pointers.into_iter().zip([r0, q0, d0]) {
        o.fb.push(Statement::Store { pointer, value });
    }
    let [r_ptr, q_ptr, d_ptr] = pointers;
    o.open_block();
    let load = |o: &mut Ops, pointer| o.fb.add(Expression::Load { pointer });
    let d = load(o, d_ptr);
    let zero = o.i(0);
    let pending = o.gt(d, zero);
    let any = match o.size {
        Some(_) => o.fb.add(Expression::Relational {
            fun: naga::RelationalFunction::Any,
            argument: pending,
        }),
        None => pending,
    };
    let done = o.fb.unary(naga::UnaryOperator::LogicalNot, any);
    let mut leave = Block::new();
    leave.push(Statement::Break, naga::Span::UNDEFINED);
    o.fb.push(Statement::If {
        condition: done,
        accept: leave,
        reject: Block::new(),
    });
    let eight = o.i(8);
    let step = o.min(d, eight);
    let step = o.max(step, zero);
    let shift = o.uint_bits(step);
    let r = load(o, r_ptr);
    let q = load(o, q_ptr);
    let shifted = o.shl_by(r, shift);
    let r_next = o.rem(shifted, my);
    let digits = o.udiv(shifted, my);
    let q_shifted = o.shl_by(q, shift);
    let q_next = o.add(q_shifted, digits);
    let d_next = o.sub(d, step);
    for (pointer, value) in [(r_ptr, r_next), (q_ptr, q_next), (d_ptr, d_next)] {
        o.fb.push(Statement::Store { pointer, value });
    }
    let body = o.close_block();
    o.fb.push(Statement::Loop {
        body,
        continuing: Block::new(),
        break_if: None,
    });
    let r = load(o, r_ptr);
    let q = load(o, q_ptr);
    let bias = o.i(-(o.bias() + o.mantissa_bits() as i32));
    let k = o.add(ey, bias);
    Division { r, my, k, q }
}

/// What [`long_division`] leaves: the remainder `r` and the divisor's
/// significand `my` as integers counting units of `2^k`, and the
/// quotient's low bits `q`.
struct Division {
    r: V,
    my: V,
    k: V,
    q: V,
}

/// `|x| mod |y|` as a float and the truncated quotient's low bits.
fn long_division(o: &mut Ops, ax: V, ay: V, types: Types) -> (V, V) {
    let d = divide_significands(o, ax, ay, types);
    let r = o.float_from_int(d.r);
    let value = o.scale(r, d.k);
    // |x| < |y|: the remainder is |x| itself, the quotient 0.
    let below = o.lt(ax, ay);
    let uzero = o.wu(0);
    (o.sel(below, ax, value), o.sel(below, uzero, d.q))
}

/// The naga types of the operands' shape for long division: unsigned
/// integers as wide as the float, and i32.
#[derive(Clone, Copy)]
pub(in crate::lower) struct Types {
    pub uint: Handle<naga::Type>,
    pub int: Handle<naga::Type>,
}

/// Whether `fmod`/`remainder` have no numeric answer: y = 0, x infinite,
/// or a NaN.
fn invalid_division(o: &mut Ops, x: V, y: V) -> V {
    let y_zero = o.eqc(y, 0.0);
    let x_inf = o.is_inf(x);
    let (nx, ny) = (o.is_nan(x), o.is_nan(y));
    let c = o.or(y_zero, x_inf);
    let c = o.or(c, nx);
    o.or(c, ny)
}

pub(super) fn fmod(o: &mut Ops, x: V, y: V, types: Types) -> V {
    let (ax, ay) = (o.abs(x), o.abs(y));
    let (r, _) = long_division(o, ax, ay, types);
    let r = o.copysign(r, x);
    let invalid = invalid_division(o, x, y);
    let q = o.nan();
    o.sel(invalid, q, r)
}

/// `remainder` and the quotient's low 7 bits with the sign of `x / y`
/// (`remquo`).
pub(super) fn remquo(o: &mut Ops, x: V, y: V, types: Types) -> (V, V) {
    let (ax, ay) = (o.abs(x), o.abs(y));
    let d = divide_significands(o, ax, ay, types);
    // Round the quotient to nearest, ties to even. The decision is taken
    // on the integers: as floats, a truncated remainder below FLT_MIN is
    // subnormal, and a driver that flushes it (NVIDIA's) would never round
    // up (remquo(-0x1.f4e888p+127, 0x1.96436ap-126) gave quotient 32 for
    // 33 on the H200).
    let one = o.wu(1);
    let uzero = o.wu(0);
    let twice = o.shl_by(d.r, one);
    let over = o.gt(twice, d.my);
    let tie = o.eq(twice, d.my);
    let parity = o.and(d.q, one);
    let odd = o.ne(parity, uzero);
    let tie_odd = o.and(tie, odd);
    let up = o.or(over, tie_odd);
    let rest = o.sub(d.my, d.r);
    let magnitude = o.sel(up, rest, d.r);
    let magnitude = o.float_from_int(magnitude);
    let magnitude = o.scale(magnitude, d.k);
    let minus = o.flip_sign(magnitude);
    let r = o.sel(up, minus, magnitude);
    let q_up = o.add(d.q, one);
    let q = o.sel(up, q_up, d.q);
    // |x| < |y|: the quotient is 0 or 1, decided on the floats, which are
    // normal here wherever the driver flushes (the operands come flushed).
    let below = o.lt(ax, ay);
    let twice_x = o.mulc(ax, 2.0);
    let over_x = o.gt(twice_x, ay);
    let x_up = o.sub(ax, ay);
    let r_below = o.sel(over_x, x_up, ax);
    let q_below = o.sel(over_x, one, uzero);
    let r = o.sel(below, r_below, r);
    let q = o.sel(below, q_below, q);
    let sx = o.sign_bit(x);
    let minus = o.flip_sign(r);
    let r = o.sel(sx, minus, r);
    let seven = o.wu(0x7f);
    let q = o.and(q, seven);
    let q = if o.double { o.int32(q) } else { o.sint_bits(q) };
    let sy = o.sign_bit(y);
    let opposite = o.ne(sx, sy);
    let minus_q = o.neg(q);
    let q = o.sel(opposite, minus_q, q);
    // remainder(x, +-inf) = x for finite x.
    let inf = o.inf();
    let y_inf = o.eq(ay, inf);
    let r = o.sel(y_inf, x, r);
    let zero_q = o.i(0);
    let q = o.sel(y_inf, zero_q, q);
    let invalid = invalid_division(o, x, y);
    let nan = o.nan();
    (o.sel(invalid, nan, r), o.sel(invalid, zero_q, q))
}
