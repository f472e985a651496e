//! Accuracy of the single-precision math built-ins through the ICD:
//! every function over dense sweeps (random bit patterns, log-spaced and
//! linear ranges) and edge values, against f64 references, within the
//! OpenCL C full-profile ULP bounds (0 for the exact functions), with
//! every special value checked. Prints the worst error per function.

mod common;

use common::ulp::{edges, linear, log_spaced, report, Bits, Runner, Worst};

const KERNELS: &str = "tests/kernels/math_functions.cl";
/// Random inputs per function in the sweeps.
const RANDOM: usize = 1 << 17;

/// Inputs for a unary function: random bit patterns, log-spaced values
/// over the whole range, a linear sweep of the interesting range, edges.
fn unary_inputs(seed: u64, range: (f64, f64)) -> Vec<f32> {
    let mut bits = Bits::new(seed);
    let mut x: Vec<f32> = (0..RANDOM).map(|_| bits.normal()).collect();
    x.extend(log_spaced(-126.0, 128.0, 1 << 15));
    x.extend(log_spaced(-30.0, 8.0, 1 << 15));
    x.extend(linear(range.0, range.1, 1 << 16));
    x.extend(edges());
    x
}

/// `rootn` and `pown` references: C99 `pow` semantics for an integer or
/// its reciprocal.
fn rootn(x: f64, n: i32) -> f64 {
    if n == 0 || (x < 0.0 && n % 2 == 0) || x.is_nan() {
        return f64::NAN;
    }
    let magnitude = x.abs().powf(1.0 / f64::from(n));
    if x.is_sign_negative() && n % 2 != 0 {
        -magnitude
    } else {
        magnitude
    }
}

/// `powr`: `pow` for x >= 0, with the OpenCL C special cases.
fn powr(x: f64, y: f64) -> f64 {
    let nan = x.is_nan()
        || y.is_nan()
        || x < 0.0
        || (x == 0.0 && y == 0.0)
        || (x == f64::INFINITY && y == 0.0)
        || (x == 1.0 && y.is_infinite());
    if nan {
        f64::NAN
    } else {
        x.abs().powf(y)
    }
}

/// `erf` by its series with positive terms,
/// `2/sqrt(pi) e^(-x^2) sum 2^n x^(2n+1) / (2n+1)!!` (for |x| <= 2.5).
fn erf_series(x: f64) -> f64 {
    let (mut term, mut sum, mut n) = (x, x, 0.0);
    while term.abs() > 1e-17 * sum.abs() {
        n += 1.0;
        term *= 2.0 * x * x / (2.0 * n + 1.0);
        sum += term;
    }
    2.0 / std::f64::consts::PI.sqrt() * (-x * x).exp() * sum
}

/// `erfc` for x >= 0.5 by its continued fraction, evaluated backwards.
fn erfc_fraction(x: f64) -> f64 {
    let depth = (60.0 + 800.0 / (x * x)) as u32;
    let mut k = x;
    for j in (1..=depth).rev() {
        k = x + f64::from(j) / 2.0 / k;
    }
    (-x * x).exp() / std::f64::consts::PI.sqrt() / k
}

fn erf(x: f64) -> f64 {
    if x.is_nan() {
        x
    } else if x.abs() <= 2.5 {
        erf_series(x)
    } else {
        (1.0 - erfc_fraction(x.abs())).copysign(x)
    }
}

fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        x
    } else if x.abs() < 0.5 {
        1.0 - erf_series(x)
    } else if x > 0.0 {
        erfc_fraction(x)
    } else {
        2.0 - erfc_fraction(-x)
    }
}

/// `ln Gamma(x)` for x > 0 and whether the value came from the shifted
/// Stirling series: `ln Gamma(x + n) - ln(x (x+1) ... (x+n-1))`, x + n >= 20.
fn ln_gamma_positive(x: f64) -> f64 {
    if x == 1.0 || x == 2.0 {
        return 0.0;
    }
    let (mut y, mut shift) = (x, 1.0);
    while y < 20.0 {
        shift *= y;
        y += 1.0;
    }
    let inv = 1.0 / y;
    let inv2 = inv * inv;
    let series = inv
        * (1.0 / 12.0
            + inv2
                * (-1.0 / 360.0 + inv2 * (1.0 / 1260.0 + inv2 * (-1.0 / 1680.0 + inv2 / 1188.0))));
    (y - 0.5) * y.ln() - y + 0.5 * (2.0 * std::f64::consts::PI).ln() + series - shift.ln()
}

/// `sin(pi x)`, reduced exactly first.
fn sinpi(x: f64) -> f64 {
    let n = x.round();
    let s = (std::f64::consts::PI * (x - n)).sin();
    if n % 2.0 == 0.0 {
        s
    } else {
        -s
    }
}

fn tgamma(x: f64) -> f64 {
    if x.is_nan() || x == f64::NEG_INFINITY || (x < 0.0 && x == x.floor()) {
        return f64::NAN;
    }
    if x == 0.0 {
        return 1.0 / x;
    }
    if x == f64::INFINITY {
        return x;
    }
    if x > 0.0 {
        return ln_gamma_positive(x).exp();
    }
    // Gamma(x) = pi / (sin(pi x) Gamma(1 - x)), 1 - x exact in f64.
    std::f64::consts::PI / (sinpi(x) * ln_gamma_positive(1.0 - x).exp())
}

fn lgamma(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x.is_infinite() || (x <= 0.0 && x == x.floor()) {
        return f64::INFINITY;
    }
    if x > 0.0 {
        return ln_gamma_positive(x);
    }
    (std::f64::consts::PI / sinpi(x).abs()).ln() - ln_gamma_positive(1.0 - x)
}

fn unary_reference(name: &str) -> fn(f64) -> f64 {
    match name {
        "exp" | "half_exp" => f64::exp,
        "exp2" | "half_exp2" => f64::exp2,
        "exp10" | "half_exp10" => |x| 10f64.powf(x),
        "expm1" => f64::exp_m1,
        "log" | "half_log" => f64::ln,
        "log2" | "half_log2" => f64::log2,
        "log10" | "half_log10" => f64::log10,
        "log1p" => f64::ln_1p,
        "cbrt" => f64::cbrt,
        "sinh" => f64::sinh,
        "cosh" => f64::cosh,
        "tanh" => f64::tanh,
        "asinh" => f64::asinh,
        "acosh" => f64::acosh,
        "atanh" => f64::atanh,
        "erf" => erf,
        "erfc" => erfc,
        "tgamma" => tgamma,
        "lgamma" => lgamma,
        "half_recip" => |x| 1.0 / x,
        "half_sqrt" => f64::sqrt,
        "half_rsqrt" => |x| 1.0 / x.sqrt(),
        "round" => f64::round,
        "rint" => f64::round_ties_even,
        "logb" => |x| {
            if x == 0.0 {
                f64::NEG_INFINITY
            } else if x.is_infinite() {
                f64::INFINITY
            } else if x.is_nan() {
                x
            } else {
                x.abs().log2().floor()
            }
        },
        _ => unreachable!("no reference for {name}"),
    }
}

/// (name, ulp bound, linear sweep range).
const UNARY: &[(&str, f64, (f64, f64))] = &[
    ("exp", 3.0, (-104.0, 89.0)),
    ("exp2", 3.0, (-150.0, 128.5)),
    ("exp10", 3.0, (-46.0, 39.0)),
    ("expm1", 3.0, (-2.0, 2.0)),
    ("log", 3.0, (0.0, 4.0)),
    ("log2", 3.0, (0.0, 4.0)),
    ("log10", 3.0, (0.0, 4.0)),
    ("log1p", 2.0, (-1.0, 3.0)),
    ("cbrt", 2.0, (-8.0, 8.0)),
    ("sinh", 4.0, (-90.0, 90.0)),
    ("cosh", 4.0, (-90.0, 90.0)),
    ("tanh", 5.0, (-10.0, 10.0)),
    ("asinh", 4.0, (-4.0, 4.0)),
    ("acosh", 4.0, (1.0, 5.0)),
    ("atanh", 5.0, (-1.0, 1.0)),
    ("erf", 16.0, (-5.0, 5.0)),
    ("erfc", 16.0, (-5.0, 11.0)),
    ("tgamma", 16.0, (-40.0, 40.0)),
    // Implementation-defined in OpenCL: held to tgamma's bound for x > 0,
    // and below 0 (where the reflection cancels at lgamma's zeros) to 16
    // ulp of max(|lgamma(x)|, 1).
    ("lgamma", 16.0, (-10.0, 10.0)),
    ("round", 0.0, (-10.0, 10.0)),
    ("rint", 0.0, (-10.0, 10.0)),
    ("logb", 0.0, (-10.0, 10.0)),
    ("half_exp", 8192.0, (-104.0, 89.0)),
    ("half_exp2", 8192.0, (-150.0, 128.5)),
    ("half_exp10", 8192.0, (-46.0, 39.0)),
    ("half_log", 8192.0, (0.0, 4.0)),
    ("half_log2", 8192.0, (0.0, 4.0)),
    ("half_log10", 8192.0, (0.0, 4.0)),
    ("half_recip", 8192.0, (-4.0, 4.0)),
    ("half_sqrt", 8192.0, (0.0, 4.0)),
    ("half_rsqrt", 8192.0, (0.0, 4.0)),
];

#[test]
fn unary_functions_within_bounds() {
    let runner = Runner::new(KERNELS);
    let mut results = Vec::new();
    for (seed, &(name, bound, range)) in UNARY.iter().enumerate() {
        let x = unary_inputs(seed as u64 + 1, range);
        let got = runner.unary(&format!("k_{name}"), &x, 4);
        let reference = unary_reference(name);
        let mut worst = Worst::new(name, bound);
        for (&x, &g) in x.iter().zip(&got) {
            let floor = if name == "lgamma" && x < 0.0 {
                1.0
            } else {
                0.0
            };
            worst.record_above(g, reference(f64::from(x)), floor, || format!("{x:e}"));
        }
        results.push(worst);
    }
    report(&results);
}

/// Pairs for a binary function: random pairs, a grid of edge values,
/// and pairs from `special` (function-specific ranges).
fn binary_inputs(seed: u64, special: &[(f32, f32)]) -> (Vec<f32>, Vec<f32>) {
    let mut bits = Bits::new(seed);
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for _ in 0..RANDOM {
        x.push(bits.normal());
        y.push(bits.normal());
    }
    let e = edges();
    for &a in &e {
        for &b in &e {
            x.push(a);
            y.push(b);
        }
    }
    for &(a, b) in special {
        x.push(a);
        y.push(b);
    }
    (x, y)
}

/// Pairs with x in a range and y in a range, on a grid.
fn grid(xs: &[f32], ys: &[f32]) -> Vec<(f32, f32)> {
    xs.iter()
        .flat_map(|&a| ys.iter().map(move |&b| (a, b)))
        .collect()
}

/// IEEE remainder and the quotient's low bits by exact long division of
/// the significands, one bit at a time.
fn remquo(x: f32, y: f32) -> (f64, i32) {
    if x.is_nan() || y.is_nan() || x.is_infinite() || y == 0.0 {
        return (f64::NAN, 0);
    }
    if y.is_infinite() {
        return (f64::from(x), 0);
    }
    let parts = |v: f32| {
        let b = v.abs().to_bits();
        let field = (b >> 23) as i32;
        let m = u64::from(b & 0x7f_ffff) | if field != 0 { 0x80_0000 } else { 0 };
        (m, field.max(1))
    };
    let ((mx, ex), (my, ey)) = (parts(x), parts(y));
    let (mut r, mut q);
    if ex >= ey {
        (r, q) = (mx % my, mx / my);
        for _ in 0..(ex - ey) {
            r <<= 1;
            q = (q << 1) | u64::from(r >= my);
            if r >= my {
                r -= my;
            }
        }
    } else {
        // |x| < |y|: the remainder is |x|.
        (r, q) = (mx, 0);
    }
    let scale = |m: u64, e: i32| m as f64 * 2f64.powi(e - 150);
    let mut rem = if ex >= ey { scale(r, ey) } else { scale(r, ex) };
    let ay = f64::from(y.abs());
    if 2.0 * rem > ay || (2.0 * rem == ay && q & 1 == 1) {
        rem -= ay;
        q = q.wrapping_add(1);
    }
    let quo = (q & 0x7f) as i32;
    let quo = if x.is_sign_negative() != y.is_sign_negative() {
        -quo
    } else {
        quo
    };
    (if x.is_sign_negative() { -rem } else { rem }, quo)
}

fn binary_reference(name: &str) -> fn(f32, f32) -> f64 {
    match name {
        "pow" => |x, y| f64::from(x).powf(f64::from(y)),
        "powr" | "half_powr" => |x, y| powr(f64::from(x), f64::from(y)),
        "half_divide" => |x, y| f64::from(x) / f64::from(y),
        "hypot" => |x, y| f64::from(x).hypot(f64::from(y)),
        "fmin" => |x, y| f64::from(x.min(y)),
        "fmax" => |x, y| f64::from(x.max(y)),
        "fmod" => |x, y| f64::from(x % y),
        "remainder" => |x, y| remquo(x, y).0,
        "copysign" => |x, y| f64::from(x.copysign(y)),
        "fdim" => |x, y| {
            if x.is_nan() || y.is_nan() {
                f64::NAN
            } else if x > y {
                f64::from(x - y)
            } else {
                0.0
            }
        },
        "maxmag" | "minmag" => unreachable!("by_magnitude"),
        "nextafter" => |x, y| {
            if x.is_nan() || y.is_nan() {
                f64::NAN
            } else if x == y {
                f64::from(y)
            } else if x == 0.0 {
                f64::from(f32::from_bits(1).copysign(y))
            } else {
                let b = x.to_bits();
                let grow = (x < y) == (x > 0.0);
                f64::from(f32::from_bits(if grow { b + 1 } else { b - 1 }))
            }
        },
        _ => unreachable!("no reference for {name}"),
    }
}

fn by_magnitude(x: f32, y: f32, larger: bool) -> f64 {
    let (ax, ay) = (x.abs(), y.abs());
    let (x_wins, y_wins) = if larger {
        (ax > ay, ay > ax)
    } else {
        (ax < ay, ay < ax)
    };
    let r = if x_wins {
        x
    } else if y_wins {
        y
    } else if larger {
        x.max(y)
    } else {
        x.min(y)
    };
    f64::from(r)
}

/// (name, ulp bound, extra input pairs).
type BinaryCase<'a> = (&'a str, f64, &'a [(f32, f32)]);
/// (name, ulp bound, reference).
type IntegerCase = (&'static str, f64, fn(f32, i32) -> f64);

#[test]
fn binary_functions_within_bounds() {
    let runner = Runner::new(KERNELS);
    let bases = linear(0.0, 4.0, 256);
    let exponents = linear(-40.0, 40.0, 256);
    let pow_grid = grid(&bases, &exponents);
    let near_one = grid(
        &linear(0.99, 1.01, 256),
        &[1e6, -1e6, 12345.5, 8e6, -3e7, 0.5, 3.0],
    );
    let negative_bases: Vec<(f32, f32)> = grid(&linear(-3.0, 0.0, 200), &linear(-20.0, 20.0, 40));
    let mut pow_special = pow_grid.clone();
    pow_special.extend(&near_one);
    pow_special.extend(&negative_bases);
    let mut mod_special = grid(&linear(-100.0, 100.0, 400), &linear(-3.0, 3.0, 200));
    mod_special.extend(grid(&[1e30, -3e38, 7.5e-30], &linear(0.1, 10.0, 300)));
    let cases: &[BinaryCase] = &[
        ("pow", 16.0, &pow_special),
        ("powr", 16.0, &pow_grid),
        ("hypot", 4.0, &pow_grid),
        ("half_powr", 8192.0, &pow_grid),
        ("half_divide", 8192.0, &[]),
        ("fmin", 0.0, &[]),
        ("fmax", 0.0, &[]),
        ("fmod", 0.0, &mod_special),
        ("remainder", 0.0, &mod_special),
        ("nextafter", 0.0, &[]),
        ("copysign", 0.0, &[]),
        ("fdim", 0.0, &[]),
        ("maxmag", 0.0, &[(1.0, -1.0), (-1.0, 1.0), (-2.0, 1.0)]),
        ("minmag", 0.0, &[(1.0, -1.0), (-1.0, 1.0), (-2.0, 1.0)]),
    ];
    let mut results = Vec::new();
    for (seed, &(name, bound, special)) in cases.iter().enumerate() {
        let (x, y) = binary_inputs(100 + seed as u64, special);
        let yb: Vec<u32> = y.iter().map(|v| v.to_bits()).collect();
        let got = runner.binary(&format!("k_{name}"), &x, &yb);
        let mut worst = Worst::new(name, bound);
        for ((&a, &b), &g) in x.iter().zip(&y).zip(&got) {
            let want = match name {
                "maxmag" => by_magnitude(a, b, true),
                "minmag" => by_magnitude(a, b, false),
                _ => binary_reference(name)(a, b),
            };
            worst.record(g, want, || format!("({a:e}, {b:e})"));
        }
        results.push(worst);
    }
    report(&results);
}

#[test]
fn integer_argument_functions_within_bounds() {
    let runner = Runner::new(KERNELS);
    let mut bits = Bits::new(7);
    let mut x = Vec::new();
    let mut n = Vec::new();
    for _ in 0..RANDOM {
        x.push(bits.normal());
        n.push(bits.next_u32() as i32 % 64);
    }
    for &v in &edges() {
        for k in [
            -7,
            -4,
            -3,
            -2,
            -1,
            0,
            1,
            2,
            3,
            5,
            8,
            100,
            -100,
            i32::MAX,
            i32::MIN,
            1 << 24,
            (1 << 24) + 1,
        ] {
            x.push(v);
            n.push(k);
        }
    }
    for &v in &linear(0.5, 1.5, 2000) {
        for k in [1_000_001, -999_999, 16_777_217, 123_456_789] {
            x.push(v);
            n.push(k);
        }
    }
    let nb: Vec<u32> = n.iter().map(|&k| k as u32).collect();
    let cases: &[IntegerCase] = &[
        ("pown", 16.0, |x, n| f64::from(x).powf(f64::from(n))),
        ("rootn", 16.0, |x, n| rootn(f64::from(x), n)),
        ("ldexp", 0.0, |x, n| {
            f64::from((f64::from(x) * 2f64.powi(n.clamp(-400, 400))) as f32)
        }),
    ];
    let mut results = Vec::new();
    for &(name, bound, reference) in cases {
        let got = runner.binary(&format!("k_{name}"), &x, &nb);
        let mut worst = Worst::new(name, bound);
        for ((&a, &k), &g) in x.iter().zip(&n).zip(&got) {
            let want = reference(a, k);
            // pown/rootn at 1 +- tiny with huge n: f64 pow of the f64
            // reference is itself exact enough.
            worst.record(g, want, || format!("({a:e}, {k})"));
        }
        results.push(worst);
    }
    report(&results);
}

/// The built-ins with a second result, `ilogb` and `nan`, exactly.
#[test]
fn exact_outputs_and_pointers() {
    let runner = Runner::new(KERNELS);
    let mut bits = Bits::new(99);
    let mut x: Vec<f32> = (0..RANDOM).map(|_| bits.normal()).collect();
    x.extend(edges());
    x.extend(linear(-5.0, 5.0, 4000));
    x.push(-1e-9);
    let xb: Vec<u32> = x.iter().map(|v| v.to_bits()).collect();
    let n = x.len();
    let mut failures = Vec::new();
    let mut check = |what: &str, x: f32, ok: bool, got: String| {
        if !ok && failures.len() < 20 {
            failures.push(format!("{what}({x:e}) = {got}"));
        }
    };
    let same = |a: f32, b: f32| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());

    let out = runner.run_raw("k_ilogb", &[&xb], 1, n, n);
    for (&v, &g) in x.iter().zip(&out[0]) {
        let g = g as i32;
        let want = if v == 0.0 {
            i32::MIN
        } else if !v.is_finite() {
            i32::MAX
        } else {
            f64::from(v).abs().log2().floor() as i32
        };
        check("ilogb", v, g == want, g.to_string());
    }

    let out = runner.run_raw("k_frexp", &[&xb], 2, n, n);
    for ((&v, &m), &e) in x.iter().zip(&out[0]).zip(&out[1]) {
        let (m, e) = (f32::from_bits(m), e as i32);
        let ok = if v == 0.0 || !v.is_finite() {
            same(m, v) && e == 0
        } else {
            let want_e = f64::from(v).abs().log2().floor() as i32 + 1;
            e == want_e && f64::from(m) == f64::from(v) * 2f64.powi(-want_e)
        };
        check("frexp", v, ok, format!("{m:e}, {e}"));
    }

    let out = runner.run_raw("k_fract", &[&xb], 2, n, n);
    for ((&v, &f), &w) in x.iter().zip(&out[0]).zip(&out[1]) {
        let (f, w) = (f32::from_bits(f), f32::from_bits(w));
        let want_w = v.floor();
        let want_f = if v.is_nan() {
            f32::NAN
        } else if v.is_infinite() {
            0f32.copysign(v)
        } else if v == 0.0 {
            v
        } else {
            (v - want_w).min(f32::from_bits(0x3f7f_ffff))
        };
        check(
            "fract",
            v,
            same(f, want_f) && same(w, want_w),
            format!("{f:e}, {w:e}"),
        );
    }

    let out = runner.run_raw("k_modf", &[&xb], 2, n, n / 4);
    for ((&v, &f), &w) in x.iter().zip(&out[0]).zip(&out[1]).take(n / 4 * 4) {
        let (f, w) = (f32::from_bits(f), f32::from_bits(w));
        let want_w = v.trunc();
        let want_f = if v.is_infinite() { 0.0 } else { v - want_w }.copysign(v);
        check(
            "modf",
            v,
            same(f, want_f) && same(w, want_w),
            format!("{f:e}, {w:e}"),
        );
    }

    // lgamma_r: the value lgamma gives, and Gamma's sign (0 at the poles
    // zero and negative integers, as OpenCL requires, and at NaN).
    let out = runner.run_raw("k_lgamma_r", &[&xb], 2, n, n);
    let plain = runner.unary("k_lgamma", &x, 4);
    for (((&v, &l), &sign), &p) in x.iter().zip(&out[0]).zip(&out[1]).zip(&plain) {
        let (l, sign) = (f32::from_bits(l), sign as i32);
        let want_sign = if v.is_nan() || (v <= 0.0 && v == v.floor()) {
            0
        } else if v > 0.0 {
            1
        } else if sinpi(f64::from(v)) < 0.0 {
            -1
        } else {
            1
        };
        let ok = same(l, p) && sign == want_sign;
        check(
            "lgamma_r",
            v,
            ok,
            format!("{l:e}, {sign} (lgamma {p:e}, sign {want_sign})"),
        );
    }

    let codes: Vec<u32> = (0..4096u32).map(|i| i * 1021).collect();
    let out = runner.run_raw("k_nan", &[&codes], 1, codes.len(), codes.len());
    for (&c, &g) in codes.iter().zip(&out[0]) {
        let ok = f32::from_bits(g).is_nan() && g & 0x3f_ffff == c & 0x3f_ffff;
        check("nan", c as f32, ok, format!("{g:#x}"));
    }

    let y: Vec<f32> = x.iter().rev().map(|v| v * 0.37).collect();
    let yb: Vec<u32> = y.iter().map(|v| v.to_bits()).collect();
    let out = runner.run_raw("k_remquo", &[&xb, &yb], 2, n, n);
    for (((&a, &b), &r), &q) in x.iter().zip(&y).zip(&out[0]).zip(&out[1]) {
        let (want_r, want_q) = remquo(a, b);
        let r = f32::from_bits(r);
        let q = q as i32;
        // The device does not report CL_FP_DENORM: a subnormal y may be
        // read as zero (a NaN remainder, any quotient), and a subnormal
        // remainder may be flushed to a zero of its sign.
        let subnormal = |v: f64| v != 0.0 && v.abs() < f64::from(f32::MIN_POSITIVE);
        let ok = if want_r.is_nan() || (subnormal(f64::from(b)) && r.is_nan()) {
            r.is_nan()
        } else if subnormal(want_r) && r == 0.0 {
            // Flushed, the remainder can no longer decide the rounding of
            // the quotient: x - q*y fell below FLT_MIN either way, and a
            // flushing device may land on either neighbour (the quotient's
            // low 7 bits, so 0 and 127 are neighbours too).
            let step = (q.abs() - want_q.abs()).rem_euclid(128);
            step <= 1 || step == 127
        } else {
            same(r, want_r as f32) && q == want_q
        };
        check(
            "remquo",
            a,
            ok,
            format!("{r:e}, {q} (y = {b:e}, want {want_r:e}, {want_q})"),
        );
    }
    assert!(
        failures.is_empty(),
        "wrong results:\n{}",
        failures.join("\n")
    );
}

/// Vector widths 2, 3, 4, 8 and 16 agree lane by lane with the scalar
/// functions (8/16 are split into 4-lane parts).
#[test]
fn vector_widths_match_scalars() {
    let runner = Runner::new(KERNELS);
    let mut bits = Bits::new(5);
    let groups = 512;
    let x: Vec<u32> = (0..16 * groups)
        .map(|_| (bits.normal() % 50.0).to_bits())
        .collect();
    let vector = runner.run_raw("k_widths", &[&x], 1, 32 * groups, groups);
    let scalar = runner.run_raw("k_widths_scalar", &[&x], 1, 32 * groups, groups);
    for (i, (&v, &s)) in vector[0].iter().zip(&scalar[0]).enumerate() {
        let (v, s) = (f32::from_bits(v), f32::from_bits(s));
        assert!(
            v.to_bits() == s.to_bits() || (v.is_nan() && s.is_nan()),
            "lane {i}: vector {v:e} vs scalar {s:e}"
        );
    }
}

/// Under `-cl-fast-relaxed-math`, within the relaxed table's bounds:
/// exp/exp2 3 + floor(|2x|) ulp, log/log2 2^-21 absolute on [0.5, 2] and
/// 3 ulp elsewhere, over their whole ranges (subnormal results of exp and
/// exp2, subnormal arguments of log and log2: `log2(0x1p-141f)` was about
/// -127), the derived functions (exp10, sinh, ...) 8192 ulp. A device
/// without `CL_FP_DENORM` may flush a subnormal argument to zero (log
/// -inf) or result to zero. The table shows each function's worst error
/// as a fraction of its bound at that input.
#[test]
fn relaxed_math_within_relaxed_bounds() {
    let runner = Runner::with_options(KERNELS, "-cl-fast-relaxed-math");
    let device = opencl3::device::Device::new(runner.context.devices()[0]);
    let float_denormals =
        device.single_fp_config().expect("fp config") & opencl3::device::CL_FP_DENORM != 0;
    let x = linear(-20.0, 20.0, 40_000);
    let positive = linear(0.01, 100.0, 40_000);
    let mut exp_range = x.clone();
    exp_range.extend(linear(-104.0, 89.0, 20_000));
    let mut exp2_range = x.clone();
    exp2_range.extend(linear(-150.0, 128.5, 20_000));
    let mut log_range = positive.clone();
    log_range.extend(
        log_spaced(-126.0, 128.0, 10_000)
            .into_iter()
            .filter(|&v| v > 0.0),
    );
    // The subnormals: each power of two, and random significands.
    log_range.extend((1..=23).map(|k| f32::from_bits(1 << k)));
    let mut bits = Bits::new(141);
    log_range.extend((0..2_000).map(|_| f32::from_bits(1 + bits.next_u32() % 0x7f_ffff)));
    // 0x1p-141f, the case found.
    log_range.push(f32::from_bits(1 << 8));
    let mut results = Vec::new();
    for name in [
        "exp", "exp2", "log", "log2", "exp10", "log10", "sinh", "cosh", "tanh",
    ] {
        let inputs = match name {
            "exp" => &exp_range,
            "exp2" => &exp2_range,
            "log" | "log2" | "log10" => &log_range,
            _ => &x,
        };
        let got = runner.unary(&format!("k_{name}"), inputs, 4);
        let reference = unary_reference(name);
        let mut worst = Worst::new(&format!("{name} relaxed"), 1.0);
        for (&v, &g) in inputs.iter().zip(&got) {
            let want = reference(f64::from(v));
            let v64 = f64::from(v);
            if !float_denormals && v.is_subnormal() && g == f32::NEG_INFINITY {
                // Flushed to zero on the way in.
                worst.count += 1;
                continue;
            }
            let (bound, floor) = match name {
                "exp" | "exp2" => (3.0 + (2.0 * v64).abs().floor(), 0.0),
                // 2^-21 absolute = 4 ulp of 1.0 (ulp 2^-23) on [0.5, 2].
                "log" | "log2" if (0.5..=2.0).contains(&v64) => (4.0, 1.0),
                "log" | "log2" => (3.0, 0.0),
                // Derived from the hardware log2, whose error is absolute
                // near 1.
                "log10" => (8192.0, 1.0),
                _ => (8192.0, 0.0),
            };
            match common::ulp::ulp_error_above(g, want, floor) {
                Ok(e) if e / bound > worst.ulp => {
                    worst.ulp = e / bound;
                    worst.at = format!("{v:e} -> {g:e} (want {want:e})");
                }
                Ok(_) => {}
                Err(why) => worst.wrong.push(format!("{v:e}: {why}")),
            }
            worst.count += 1;
        }
        results.push(worst);
    }
    report(&results);
}

/// `fmin` .. `minmag` and `rint` on double, where the device has fp64:
/// the non-NaN operand wins, ties of magnitude go to fmax/fmin.
#[test]
fn double_min_max_family() {
    let runner = Runner::new("tests/kernels/math_functions.cl");
    let device = opencl3::device::Device::new(runner.context.devices()[0]);
    if !device
        .extensions()
        .expect("extensions")
        .contains("cl_khr_fp64")
    {
        eprintln!("skipped: the device does not report cl_khr_fp64");
        return;
    }
    let runner = Runner::new("tests/kernels/math_double.cl");
    let values = [
        0.0,
        -0.0,
        1.5,
        -1.5,
        2.5,
        -2.5,
        3.0,
        f64::NAN,
        f64::INFINITY,
        -1e300,
        1e-300,
    ];
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for &a in &values {
        for &b in &values {
            x.push(a);
            y.push(b);
        }
    }
    let bits = |v: &[f64]| -> Vec<u32> {
        v.iter()
            .flat_map(|d| {
                let b = d.to_bits();
                [b as u32, (b >> 32) as u32]
            })
            .collect()
    };
    let n = x.len();
    let out = runner.run_raw("k_double", &[&bits(&x), &bits(&y)], 1, 14 * n, n);
    let got: Vec<f64> = out[0]
        .chunks(2)
        .map(|w| f64::from_bits(u64::from(w[0]) | (u64::from(w[1]) << 32)))
        .collect();
    for (i, (&a, &b)) in x.iter().zip(&y).enumerate() {
        let magnitude = |larger: bool| {
            let (wins_a, wins_b) = if larger {
                (a.abs() > b.abs(), b.abs() > a.abs())
            } else {
                (a.abs() < b.abs(), b.abs() < a.abs())
            };
            if wins_a {
                a
            } else if wins_b {
                b
            } else if larger {
                a.max(b)
            } else {
                a.min(b)
            }
        };
        let want = [
            a.min(b),
            a.max(b),
            a.min(b),
            a.max(b),
            magnitude(true),
            magnitude(false),
            a.round_ties_even(),
        ];
        for (k, &w) in want.iter().enumerate() {
            let g = got[7 * i + k];
            // Signed zeros may come either way from fmin/fmax (C99).
            let ok = (g.is_nan() && w.is_nan()) || g == w;
            assert!(ok, "function {k} of ({a:e}, {b:e}): got {g:e}, want {w:e}");
        }
    }
}
