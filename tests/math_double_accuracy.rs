//! Accuracy of the `double` math built-ins through the ICD: the
//! exponentials, logarithms, powers, `cbrt` and `hypot` against
//! double-double host references (`common/dd.rs`, about 106 bits) within
//! the OpenCL C full-profile double ULP bounds, and the exact functions
//! (0 ulp) bit for bit against the host. Random bit patterns (subnormals
//! included), log-spaced and linear sweeps, and the edge values of OpenCL C
//! 7.5.1. Prints the worst error per function. Skipped when the device
//! does not report `cl_khr_fp64`.

mod common;

use common::dd::{self, Dd, Exact};
use common::two_over_pi::{self, Big};
use common::ulp::{report, Runner, Worst};
use std::sync::OnceLock;

/// References of two arguments (real or integer second), and the host's
/// exact functions.
type RealReference = fn(f64, f64) -> Exact;
type IntegralReference = fn(f64, i32) -> Exact;
type HostUnary = fn(f64) -> f64;
type HostBinary = fn(f64, f64) -> f64;

const KERNELS: &str = "tests/kernels/math_double_functions.cl";
/// Random inputs per function.
const RANDOM: usize = 1 << 14;

fn runner() -> Option<Runner> {
    let runner = Runner::new(KERNELS);
    let device = opencl3::device::Device::new(runner.context.devices()[0]);
    if device
        .extensions()
        .expect("extensions")
        .contains("cl_khr_fp64")
    {
        Some(runner)
    } else {
        eprintln!("skipped: the device does not report cl_khr_fp64");
        None
    }
}

fn words(v: &[f64]) -> Vec<u32> {
    v.iter()
        .flat_map(|d| {
            let b = d.to_bits();
            [b as u32, (b >> 32) as u32]
        })
        .collect()
}

fn doubles(w: &[u32]) -> Vec<f64> {
    w.chunks(2)
        .map(|w| f64::from_bits(u64::from(w[0]) | (u64::from(w[1]) << 32)))
        .collect()
}

fn ints(v: &[i32]) -> Vec<u32> {
    v.iter().map(|&i| i as u32).collect()
}

/// Runs `k_<name>` over `inputs` (already as words), `outputs` result
/// buffers of `n` doubles each.
fn run(runner: &Runner, name: &str, inputs: &[&[u32]], outputs: usize, n: usize) -> Vec<Vec<u32>> {
    runner.run_raw(&format!("k_{name}"), inputs, outputs, 2 * n, n)
}

/// A deterministic stream of random doubles (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A finite double of random bits (subnormals included).
    fn finite(&mut self) -> f64 {
        loop {
            let v = f64::from_bits(self.next());
            if v.is_finite() {
                return v;
            }
        }
    }

    /// Uniform in [lo, hi].
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        let u = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        lo + (hi - lo) * u
    }
}

/// `n` values spaced evenly in log2 between 2^lo and 2^hi, both signs.
fn log_spaced(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    (0..n)
        .flat_map(|i| {
            let v = (lo + (hi - lo) * i as f64 / n as f64).exp2();
            [v, -v]
        })
        .filter(|v| *v != 0.0 && v.is_finite())
        .collect()
}

/// The edge values every function is tried on.
fn edges() -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        f64::MAX,
        -f64::MAX,
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        f64::from_bits(1),
        -f64::from_bits(1),
        f64::from_bits(0x000f_ffff_ffff_ffff),
        f64::EPSILON,
        1.0 - f64::EPSILON / 2.0,
        1.0 + f64::EPSILON,
        709.78,
        709.79,
        -708.39,
        -745.13,
        -745.14,
        -746.0,
        1023.999,
        1024.0,
        -1074.0,
        -1075.0,
        -1076.0,
        308.25,
        -323.3,
        -324.0,
        1e-300,
        1e300,
        9007199254740992.0,
        4503599627370496.5,
        std::f64::consts::SQRT_2,
        std::f64::consts::FRAC_1_SQRT_2,
        std::f64::consts::E,
    ];
    for k in -10..=10 {
        v.push(f64::from(k));
        v.push(f64::from(k) + 0.5);
    }
    v
}

/// The error of `got` against `want` in ulps of f64 at `want`, or why it
/// is wrong outright (a special value, a zero's sign).
fn ulp_error(got: f64, want: Exact) -> Result<f64, String> {
    let Exact { m, k } = want;
    if m.hi.is_nan() {
        return if got.is_nan() {
            Ok(0.0)
        } else {
            Err("expected NaN".into())
        };
    }
    if got.is_nan() {
        return Err("unexpected NaN".into());
    }
    if m.hi.is_infinite() || m.hi == 0.0 {
        let same = got == m.hi && got.is_sign_negative() == m.hi.is_sign_negative();
        return match (same, got == 0.0 && m.hi == 0.0) {
            (true, _) => Ok(0.0),
            (false, true) => Err("wrong sign of zero".into()),
            (false, false) if m.hi == 0.0 => Ok(got.abs() / f64::from_bits(1)),
            _ => Err("expected an infinity".into()),
        };
    }
    let exponent = libm::frexp(m.hi).1 - 1 + k;
    if exponent > 1023 {
        return if got.is_infinite() && (got > 0.0) == (m.hi > 0.0) {
            Ok(0.0)
        } else {
            Err("expected an infinity".into())
        };
    }
    let ulp_exponent = exponent.max(-1022) - 52;
    // Infinity counts as 2^1024 (so a result rounding up to it is half
    // an ulp off at most).
    let scaled = if got.is_infinite() {
        libm::scalbn(1f64.copysign(got), 1024 - k)
    } else {
        libm::scalbn(got, -k)
    };
    let diff = Dd::of(scaled).sub(m);
    Ok(libm::scalbn(diff.hi.abs(), k - ulp_exponent))
}

/// Records one measured result in `worst`.
fn record(worst: &mut Worst, got: f64, want: Exact, input: impl FnOnce() -> String) {
    record_above(worst, got, want, 0.0, input)
}

/// As [`record`], the error in ulps of `max(|want|, floor)`: an absolute
/// bound below `floor` (`lgamma` near its zeros for x < 0, where OpenCL
/// leaves the accuracy to the implementation).
fn record_above(
    worst: &mut Worst,
    got: f64,
    want: Exact,
    floor: f64,
    input: impl FnOnce() -> String,
) {
    worst.count += 1;
    let error = match ulp_error(got, want) {
        Ok(e) if floor > 0.0 && value(want).abs() < floor && got.is_finite() => {
            let ulp = libm::scalbn(1.0, libm::frexp(floor).1 - 53);
            Ok(e.min((got - value(want)).abs() / ulp))
        }
        other => other,
    };
    match error {
        Ok(e) if e > worst.ulp => {
            worst.ulp = e;
            worst.at = format!("{} -> {got:e} (want {:e})", input(), value(want));
        }
        Ok(_) => {}
        Err(why) => {
            if worst.wrong.len() < 5 {
                worst.wrong.push(format!(
                    "{}: got {got:e}, want {:e}: {why}",
                    input(),
                    value(want)
                ));
            }
        }
    }
}

fn value(e: Exact) -> f64 {
    libm::scalbn(e.m.hi, e.k)
}

/// Whether a C99 special case decides the result (the host's `std`
/// functions give it exactly).
fn special(v: f64) -> bool {
    !v.is_finite() || v == 0.0
}

/// `e^z`, where `z` may be out of range (or NaN from an overflowed
/// product whose sign `approx` still tells).
fn exp_of(z: Dd) -> Exact {
    if z.hi > 800.0 {
        Exact::of(f64::INFINITY)
    } else if z.hi < -800.0 {
        Exact::of(0.0)
    } else {
        dd::exp(z)
    }
}

fn ln(x: f64) -> Dd {
    dd::ln(Dd::of(x))
}

fn unary_reference(name: &str, x: f64) -> Exact {
    let std: fn(f64) -> f64 = match name {
        "exp" => f64::exp,
        "exp2" => f64::exp2,
        "exp10" => |x| 10f64.powf(x),
        "expm1" => f64::exp_m1,
        "log" => f64::ln,
        "log2" => f64::log2,
        "log10" => f64::log10,
        "log1p" => f64::ln_1p,
        "cbrt" => f64::cbrt,
        "rsqrt" => |x| 1.0 / x.sqrt(),
        "sinh" => f64::sinh,
        "cosh" => f64::cosh,
        "tanh" => f64::tanh,
        "asinh" => f64::asinh,
        "acosh" => f64::acosh,
        "atanh" => f64::atanh,
        "erf" => libm::erf,
        "erfc" => libm::erfc,
        "tgamma" => libm::tgamma,
        "lgamma" => libm::lgamma,
        _ => unreachable!("{name}"),
    };
    let outside = match name {
        "log" | "log2" | "log10" => x < 0.0 || x == 1.0,
        "log1p" => x <= -1.0,
        "acosh" => x <= 1.0,
        "atanh" => x.abs() >= 1.0,
        "tgamma" => x < 0.0 && x.fract() == 0.0,
        "lgamma" => (x <= 0.0 && x.fract() == 0.0) || x == 1.0 || x == 2.0,
        _ => false,
    };
    if special(x) || outside {
        return Exact::of(std(x));
    }
    match name {
        "exp" => exp_of(Dd::of(x)),
        "exp2" => exp_of(Dd::of(x.clamp(-2000.0, 2000.0)).mul(dd::ln2())),
        "exp10" => exp_of(Dd::of(x.clamp(-2000.0, 2000.0)).mul(dd::ln10())),
        "expm1" if x > 800.0 => Exact::of(f64::INFINITY),
        // e^-40 is below 0.04 ulp of 1.
        "expm1" if x < -40.0 => Exact::of(-1.0),
        "expm1" => dd::expm1(Dd::of(x)),
        "log" => Exact { m: ln(x), k: 0 },
        "log2" => Exact {
            m: ln(x).div(dd::ln2()),
            k: 0,
        },
        "log10" => Exact {
            m: ln(x).div(dd::ln10()),
            k: 0,
        },
        "log1p" => Exact {
            m: dd::ln1p(x),
            k: 0,
        },
        "sinh" if x.abs() > 800.0 => Exact::of(f64::INFINITY.copysign(x)),
        "cosh" if x.abs() > 800.0 => Exact::of(f64::INFINITY),
        "sinh" => dd::sinh_cosh(x, true),
        "cosh" => dd::sinh_cosh(x.abs(), false),
        "tanh" if x.abs() > 40.0 => Exact::of(1f64.copysign(x)),
        "tanh" => {
            // expm1(2x) / (expm1(2x) + 2)
            let e = dd::value(dd::expm1(Dd::of(2.0 * x)));
            Exact {
                m: e.div(e.add(Dd::of(2.0))),
                k: 0,
            }
        }
        "asinh" if x.abs() < 2f64.powi(-10) => {
            // (-1)^n (2n)! / (4^n (n!)^2 (2n + 1)): the binomial series.
            let mut c = Dd::of(1.0);
            let mut coefficients = vec![c];
            for n in 1..20 {
                let k = f64::from(n);
                c = c.mul_f(-(2.0 * k - 1.0)).div(Dd::of(2.0 * k));
                coefficients.push(c);
            }
            let r = dd::odd_series(x, |n| {
                coefficients[n as usize].div(Dd::of(f64::from(2 * n + 1)))
            });
            Exact { m: r, k: 0 }
        }
        "asinh" => {
            let ax = x.abs();
            let l = if ax > 2f64.powi(500) {
                dd::ln(Dd::of(ax)).add(dd::ln2())
            } else {
                let root = Dd::of(ax).mul(Dd::of(ax)).add(Dd::of(1.0)).sqrt();
                dd::ln(root.add(Dd::of(ax)))
            };
            Exact {
                m: if x < 0.0 { l.neg() } else { l },
                k: 0,
            }
        }
        "acosh" => {
            let l = if x > 2f64.powi(500) {
                dd::ln(Dd::of(x)).add(dd::ln2())
            } else {
                let root = Dd::of(x).mul(Dd::of(x)).sub(Dd::of(1.0)).sqrt();
                dd::ln(root.add(Dd::of(x)))
            };
            Exact { m: l, k: 0 }
        }
        "atanh" if x.abs() < 2f64.powi(-10) => {
            let r = dd::odd_series(x, |n| Dd::of(1.0).div(Dd::of(f64::from(2 * n + 1))));
            Exact { m: r, k: 0 }
        }
        "atanh" => {
            let ratio = Dd::of(1.0).add(Dd::of(x)).div(Dd::of(1.0).sub(Dd::of(x)));
            Exact {
                m: dd::ln(ratio).mul_f(0.5),
                k: 0,
            }
        }
        // 1 - erf(6) is below 0.1 ulp of 1.
        "erf" if x.abs() > 6.0 => Exact::of(1f64.copysign(x)),
        "erf" => Exact {
            m: if x.abs() <= 3.0 {
                erf_series(x)
            } else {
                Dd::of(1.0).sub(erfc_fraction(x.abs())).mul_f(x.signum())
            },
            k: 0,
        },
        "erfc" if x < -6.0 => Exact::of(2.0),
        "erfc" if x < -3.0 => Exact {
            m: Dd::of(2.0).sub(erfc_fraction(-x)),
            k: 0,
        },
        "erfc" if x <= 3.0 => Exact {
            m: Dd::of(1.0).sub(erf_series(x)),
            k: 0,
        },
        "erfc" if x > 27.5 => Exact::of(0.0),
        "erfc" => Exact {
            m: erfc_fraction(x),
            k: 0,
        },
        "lgamma" if x.abs() > 2.56e305 => Exact::of(f64::INFINITY),
        // -ln|x| - gamma x (the next term is x^2 zeta(2)/2).
        "lgamma" if x.abs() < 2f64.powi(-54) => Exact {
            m: dd::ln(Dd::of(x.abs()))
                .neg()
                .sub(Dd::of(0.577_215_664_901_532_9 * x)),
            k: 0,
        },
        "lgamma" if (x - 1.0).abs() < 2f64.powi(-10) => Exact {
            m: lgamma_near_root(x - 1.0, false),
            k: 0,
        },
        "lgamma" if (x - 2.0).abs() < 2f64.powi(-10) => Exact {
            m: lgamma_near_root(x - 2.0, true),
            k: 0,
        },
        "lgamma" if x > 0.0 => Exact {
            m: ln_gamma(Dd::of(x)),
            k: 0,
        },
        "lgamma" => {
            let s = sin_pi(x);
            let magnitude = if s.hi < 0.0 { s.neg() } else { s };
            let pi = Dd {
                hi: std::f64::consts::PI,
                lo: 1.224_646_799_147_353_2e-16,
            };
            let w = Dd::of(1.0).sub(Dd::of(x));
            Exact {
                m: dd::ln(pi).sub(ln_gamma(w)).sub(dd::ln(magnitude)),
                k: 0,
            }
        }
        "tgamma" if x > 172.0 => Exact::of(f64::INFINITY),
        "tgamma" if x < -200.0 => Exact::of(0f64.copysign(sin_pi(x).hi)),
        "tgamma" if x > 0.0 => exp_of(ln_gamma(Dd::of(x))),
        "tgamma" => {
            // pi / (sin(pi x) Gamma(1 - x))
            let s = sin_pi(x);
            let w = Dd::of(1.0).sub(Dd::of(x));
            let pi = Dd {
                hi: std::f64::consts::PI,
                lo: 1.224_646_799_147_353_2e-16,
            };
            let magnitude = if s.hi < 0.0 { s.neg() } else { s };
            let l = dd::ln(pi).sub(ln_gamma(w)).sub(dd::ln(magnitude));
            let r = exp_of(l);
            if s.hi < 0.0 {
                r.neg()
            } else {
                r
            }
        }
        "cbrt" => {
            let r = exp_of(ln(x.abs()).div(Dd::of(3.0)));
            if x < 0.0 {
                r.neg()
            } else {
                r
            }
        }
        "rsqrt" => exp_of(ln(x).div(Dd::of(-2.0))),
        _ => unreachable!("{name}"),
    }
}

/// `|x| = (q + f) pi/2` with the quadrant `q` (mod 4) and `f` in
/// [-1/2, 1/2], from the exact product of the significand with 1600 bits
/// of 2/pi; returns `q` and `f pi/2` as a double-double.
fn reduce_half_pi(x: f64) -> (u32, Dd) {
    static TABLE: OnceLock<Big> = OnceLock::new();
    let ax = x.abs();
    if ax <= std::f64::consts::FRAC_PI_4 {
        return (0, Dd::of(ax));
    }
    let table = TABLE.get_or_init(two_over_pi::two_over_pi);
    let (mantissa, exponent) = libm::frexp(ax);
    let m = (mantissa * 2f64.powi(53)) as u64;
    let e = exponent - 53;
    // |x| 2/pi = m T 2^(e - BITS): the binary point is at bit `point`.
    let product = table.mul_small(m);
    let point = (two_over_pi::BITS as i32 - e) as usize;
    let mut q = u32::from(product.bit(point)) + 2 * u32::from(product.bit(point + 1));
    let mut fraction = 0u128;
    for k in 1..=128 {
        fraction = (fraction << 1) | u128::from(product.bit(point - k));
    }
    let negative = fraction >> 127 == 1;
    if negative {
        q += 1;
        fraction = fraction.wrapping_neg();
    }
    let mut f = Dd::of(0.0);
    for k in 0..4 {
        let limb = ((fraction >> (96 - 32 * k)) & 0xffff_ffff) as f64;
        f = f.add(Dd::of(limb * 2f64.powi(-32 * (k + 1))));
    }
    let pio2 = Dd {
        hi: std::f64::consts::FRAC_PI_2,
        lo: 6.123_233_995_736_766e-17,
    };
    let r = f.mul(pio2);
    (q % 4, if negative { r.neg() } else { r })
}

/// sin and cos of a reduced double-double by their Taylor series.
fn sin_cos_reduced(r: Dd) -> (Dd, Dd) {
    let (mut sin, mut cos) = (Dd::of(0.0), Dd::of(0.0));
    let mut term = Dd::of(1.0);
    for n in 0..60 {
        // term = r^n / n!
        if n > 0 {
            term = term.mul(r).div(Dd::of(f64::from(n)));
        }
        let signed = if (n / 2) % 2 == 0 { term } else { term.neg() };
        if n % 2 == 0 {
            cos = cos.add(signed);
        } else {
            sin = sin.add(signed);
        }
    }
    (sin, cos)
}

fn trig_reference(name: &str, x: f64) -> Exact {
    if !x.is_finite() {
        return Exact::of(f64::NAN);
    }
    if x == 0.0 {
        return Exact::of(if name == "cos" { 1.0 } else { x });
    }
    let (q, r) = reduce_half_pi(x);
    let (s, c) = sin_cos_reduced(r);
    let odd = x < 0.0;
    let v = match (name, q) {
        ("sin", 0) => s,
        ("sin", 1) => c,
        ("sin", 2) => s.neg(),
        ("sin", _) => c.neg(),
        ("cos", 0) => c,
        ("cos", 1) => s.neg(),
        ("cos", 2) => c.neg(),
        ("cos", _) => s,
        (_, 0 | 2) => s.div(c),
        _ => c.div(s).neg(),
    };
    let v = if odd && name != "cos" { v.neg() } else { v };
    Exact { m: v, k: 0 }
}

/// `sinpi`, `cospi`, `tanpi` by the exact reduction `x = 2j + k/2 + r`,
/// the special values of OpenCL C 7.5.1 on the grid of halves.
fn pi_reference(name: &str, x: f64) -> Exact {
    if !x.is_finite() {
        return Exact::of(f64::NAN);
    }
    let xr = x % 2.0;
    let k = (2.0 * xr).round();
    let r = xr - k / 2.0;
    let q = (k as i64).rem_euclid(4);
    if r == 0.0 {
        let integer = q % 2 == 0;
        let v = match (name, integer) {
            ("sinpi", true) => 0f64.copysign(x),
            ("sinpi", false) => {
                if q == 1 {
                    1.0
                } else {
                    -1.0
                }
            }
            ("cospi", true) => {
                if q == 0 {
                    1.0
                } else {
                    -1.0
                }
            }
            ("cospi", false) => 0.0,
            (_, true) => {
                if q == 0 {
                    0f64.copysign(x)
                } else {
                    -0f64.copysign(x)
                }
            }
            (_, false) => {
                if q == 1 {
                    f64::INFINITY
                } else {
                    f64::NEG_INFINITY
                }
            }
        };
        return Exact::of(v);
    }
    let pi = Dd {
        hi: std::f64::consts::PI,
        lo: 1.224_646_799_147_353_2e-16,
    };
    let (s, c) = sin_cos_reduced(pi.mul_f(r));
    let v = match (name, q) {
        ("sinpi", 0) => s,
        ("sinpi", 1) => c,
        ("sinpi", 2) => s.neg(),
        ("sinpi", _) => c.neg(),
        ("cospi", 0) => c,
        ("cospi", 1) => s.neg(),
        ("cospi", 2) => c.neg(),
        ("cospi", _) => s,
        (_, 0 | 2) => s.div(c),
        _ => c.div(s).neg(),
    };
    Exact { m: v, k: 0 }
}

const PI_DD: Dd = Dd {
    hi: std::f64::consts::PI,
    lo: 1.224_646_799_147_353_2e-16,
};

/// `atan(t)` for a finite double-double t >= 0: three halvings
/// `t / (1 + sqrt(1 + t^2))`, then the Taylor series.
fn atan_dd(t: Dd) -> Dd {
    if t.hi > 1.0 {
        let half_pi = Dd {
            hi: PI_DD.hi / 2.0,
            lo: PI_DD.lo / 2.0,
        };
        return half_pi.sub(atan_dd(Dd::of(1.0).div(t)));
    }
    let mut u = t;
    for _ in 0..3 {
        let root = Dd::of(1.0).add(u.mul(u)).sqrt();
        u = u.div(Dd::of(1.0).add(root));
    }
    let u2 = u.mul(u);
    let mut power = u;
    let mut sum = Dd::of(0.0);
    for n in 0..30 {
        let term = power.div(Dd::of(f64::from(2 * n + 1)));
        sum = if n % 2 == 0 {
            sum.add(term)
        } else {
            sum.sub(term)
        };
        power = power.mul(u2);
    }
    sum.mul_f(8.0)
}

/// The angle of the point (d, n), n, d >= 0 finite, not both 0.
fn angle_dd(n: Dd, d: Dd) -> Dd {
    let half_pi = Dd {
        hi: PI_DD.hi / 2.0,
        lo: PI_DD.lo / 2.0,
    };
    if n.hi > d.hi {
        half_pi.sub(atan_dd(d.div(n)))
    } else {
        atan_dd(n.div(d))
    }
}

fn inverse_trig_reference(name: &str, x: f64, y: f64) -> Exact {
    let turns = name.ends_with("pi");
    let finish = |r: Dd| Exact {
        m: if turns { r.div(PI_DD) } else { r },
        k: 0,
    };
    // Tiny angles (their own arctangents), 2^600 up: exact on the host.
    let tiny = |ratio: Dd| Exact {
        m: if turns { ratio.div(PI_DD) } else { ratio },
        k: -600,
    };
    match name.trim_end_matches("pi") {
        "asin" | "acos" => {
            if x.is_nan() || x.abs() > 1.0 {
                return Exact::of(f64::NAN);
            }
            let a = x.abs();
            let c = Dd::of(1.0)
                .sub(Dd::of(a))
                .mul(Dd::of(1.0).add(Dd::of(a)))
                .sqrt();
            if name.starts_with("asin") {
                if x == 0.0 {
                    return Exact::of(x);
                }
                if a < 2f64.powi(-900) {
                    let e = tiny(Dd::of(a * 2f64.powi(600)));
                    return if x < 0.0 { e.neg() } else { e };
                }
                let r = if c.hi == 0.0 {
                    Dd {
                        hi: PI_DD.hi / 2.0,
                        lo: PI_DD.lo / 2.0,
                    }
                } else {
                    angle_dd(Dd::of(a), c)
                };
                let e = finish(r);
                if x < 0.0 {
                    e.neg()
                } else {
                    e
                }
            } else {
                let r = angle_dd(c, Dd::of(a));
                finish(if x < 0.0 { PI_DD.sub(r) } else { r })
            }
        }
        "atan" => inverse_trig_reference(if turns { "atan2pi" } else { "atan2" }, x, 1.0),
        _ => {
            // atan2(y = x, x = y) in this argument order: (x, y) are the
            // kernel's (first, second) operands.
            let (yy, xx) = (x, y);
            if special(yy) || special(xx) || yy.is_nan() || xx.is_nan() {
                let v = libm::atan2(yy, xx);
                return Exact::of(if turns && v.is_finite() {
                    // Exact multiples of pi: 0, 1/4, 1/2, 3/4, 1.
                    let q = [0.0, 0.25, 0.5, 0.75, 1.0]
                        .into_iter()
                        .min_by(|a, b| {
                            (a * std::f64::consts::PI - v.abs())
                                .abs()
                                .total_cmp(&(b * std::f64::consts::PI - v.abs()).abs())
                        })
                        .expect("candidates");
                    q.copysign(v)
                } else {
                    v
                });
            }
            let e = if yy.abs() < xx.abs() * 2f64.powi(-900) && xx > 0.0 {
                tiny(Dd::of(yy.abs() * 2f64.powi(600)).div(Dd::of(xx)))
            } else {
                // The angle of the point scaled by a power of two, into
                // the range where double-double keeps its bits (a
                // subnormal coordinate has too few).
                let (ay, ax) = (yy.abs(), xx.abs());
                let scale = if ay.min(ax) < 2f64.powi(-800) && ay.max(ax) < 2f64.powi(200) {
                    2f64.powi(600)
                } else {
                    1.0
                };
                let r = angle_dd(Dd::of(ay * scale), Dd::of(ax * scale));
                finish(if xx < 0.0 { PI_DD.sub(r) } else { r })
            };
            if yy < 0.0 {
                e.neg()
            } else {
                e
            }
        }
    }
}

#[test]
fn inverse_trigonometric_functions_within_bounds() {
    let Some(runner) = runner() else { return };
    let mut results = Vec::new();
    for (seed, (name, bound, range)) in [
        ("asin", 4.0, (-1.0, 1.0)),
        ("acos", 4.0, (-1.0, 1.0)),
        ("atan", 5.0, (-10.0, 10.0)),
        ("asinpi", 5.0, (-1.0, 1.0)),
        ("acospi", 5.0, (-1.0, 1.0)),
        ("atanpi", 5.0, (-10.0, 10.0)),
    ]
    .into_iter()
    .enumerate()
    {
        let mut x = unary_inputs(seed as u64 + 60, range);
        for k in 0..2000 {
            let v = 1.0 - f64::from(k) * f64::EPSILON / 2.0;
            x.push(v);
            x.push(-v);
        }
        let got = doubles(&run(&runner, name, &[&words(&x)], 1, x.len())[0]);
        let mut worst = Worst::new(name, bound);
        for (&a, &g) in x.iter().zip(&got) {
            record(&mut worst, g, inverse_trig_reference(name, a, 0.0), || {
                format!("{a:e}")
            });
        }
        results.push(worst);
    }
    let (mut x, mut y) = power_inputs(13);
    let mut rng = Rng(17);
    for _ in 0..RANDOM {
        // Near the axes and the diagonals.
        let a = rng.uniform(-4.0, 4.0);
        x.push(a);
        y.push(a * (1.0 + rng.uniform(-1e-9, 1e-9)));
        x.push(a * 1e-12);
        y.push(rng.uniform(-4.0, 4.0));
    }
    // A subnormal coordinate against one of any size (y subnormal was 134
    // ulp off), and both subnormal.
    for k in 0..RANDOM / 4 {
        let subnormal = f64::from_bits(1 + rng.next() % ((1u64 << 52) - 1));
        let subnormal = if k % 2 == 0 { subnormal } else { -subnormal };
        let other = rng.uniform(1.0, 2.0) * 2f64.powi((k % 1100) as i32 - 1074);
        let other = if k % 3 == 0 { -other } else { other };
        if k % 5 == 0 {
            x.push(other);
            y.push(subnormal);
        } else {
            x.push(subnormal);
            y.push(other);
        }
    }
    for name in ["atan2", "atan2pi"] {
        let got = doubles(&run(&runner, name, &[&words(&x), &words(&y)], 1, x.len())[0]);
        let mut worst = Worst::new(name, 6.0);
        for ((&a, &b), &g) in x.iter().zip(&y).zip(&got) {
            record(&mut worst, g, inverse_trig_reference(name, a, b), || {
                format!("({a:e}, {b:e})")
            });
        }
        results.push(worst);
    }
    report(&results);
}

/// Doubles next to multiples of pi/2 (small and up to 2^30), the known
/// hardest case for doubles, values around the reduction switch at 2^20.
fn trig_inputs() -> Vec<f64> {
    let mut rng = Rng(41);
    let mut x: Vec<f64> = (0..RANDOM).map(|_| rng.finite()).collect();
    x.extend(log_spaced(-1074.0, 1024.0, 1 << 12));
    x.extend((0..RANDOM).map(|_| rng.uniform(-20.0, 20.0)));
    x.extend((0..RANDOM / 4).map(|_| rng.uniform(-2.5e6, 2.5e6)));
    for k in 1..2000u32 {
        for &scale in &[1.0, 1024.0, 1_048_576.0 / 3.0, 1e9] {
            let v = (f64::from(k) * scale).round() * std::f64::consts::FRAC_PI_2;
            for d in -2i64..=2 {
                x.push(f64::from_bits((v.to_bits() as i64 + d) as u64));
            }
        }
    }
    x.push(6_381_956_970_095_103.0 * 2f64.powi(797));
    x.push(-6_381_956_970_095_103.0 * 2f64.powi(797));
    for d in -3i64..=3 {
        x.push(f64::from_bits((1_048_576f64.to_bits() as i64 + d) as u64));
    }
    x.extend(edges());
    x
}

#[test]
fn trigonometric_functions_within_bounds() {
    let Some(runner) = runner() else { return };
    let x = trig_inputs();
    let mut results = Vec::new();
    for (name, bound) in [("sin", 4.0), ("cos", 4.0), ("tan", 5.0)] {
        let got = doubles(&run(&runner, name, &[&words(&x)], 1, x.len())[0]);
        let mut worst = Worst::new(name, bound);
        for (&a, &g) in x.iter().zip(&got) {
            record(&mut worst, g, trig_reference(name, a), || format!("{a:e}"));
        }
        results.push(worst);
    }
    // sincos: the same two results.
    let out = run(&runner, "sincos", &[&words(&x)], 2, x.len());
    let (s, c) = (doubles(&out[0]), doubles(&out[1]));
    let sin = doubles(&run(&runner, "sin", &[&words(&x)], 1, x.len())[0]);
    let cos = doubles(&run(&runner, "cos", &[&words(&x)], 1, x.len())[0]);
    for i in 0..x.len() {
        assert!(
            same(s[i], sin[i], false) && same(c[i], cos[i], false),
            "sincos({:e}) = ({:e}, {:e}), sin and cos give ({:e}, {:e})",
            x[i],
            s[i],
            c[i],
            sin[i],
            cos[i]
        );
    }
    // The *pi functions: halves and quarters, the grid's neighbours, and
    // the general inputs.
    let mut px = x.clone();
    for k in -400..=400 {
        let v = f64::from(k) * 0.25;
        px.push(v);
        px.push(f64::from_bits(v.to_bits() + 1));
        px.push(f64::from_bits(v.to_bits().wrapping_sub(1)));
    }
    for e in 50..56 {
        px.push(2f64.powi(e) + 1.0);
        px.push(-(2f64.powi(e) + 3.0));
        px.push(2f64.powi(e) - 0.5);
    }
    for (name, bound) in [("sinpi", 4.0), ("cospi", 4.0), ("tanpi", 6.0)] {
        let got = doubles(&run(&runner, name, &[&words(&px)], 1, px.len())[0]);
        let mut worst = Worst::new(name, bound);
        for (&a, &g) in px.iter().zip(&got) {
            record(&mut worst, g, pi_reference(name, a), || format!("{a:e}"));
        }
        results.push(worst);
    }
    report(&results);
}

/// `ln Gamma(w)` for w > 0 by Stirling's series at y = w + n >= 40, all
/// in double-double (Bernoulli numbers B_2 .. B_24).
fn ln_gamma(w: Dd) -> Dd {
    const BERNOULLI: [(f64, f64); 12] = [
        (1.0, 6.0),
        (-1.0, 30.0),
        (1.0, 42.0),
        (-1.0, 30.0),
        (5.0, 66.0),
        (-691.0, 2730.0),
        (7.0, 6.0),
        (-3617.0, 510.0),
        (43867.0, 798.0),
        (-174_611.0, 330.0),
        (854_513.0, 138.0),
        (-236_364_091.0, 2730.0),
    ];
    let mut y = w;
    let mut product = Dd::of(1.0);
    while y.hi < 40.0 {
        product = product.mul(y);
        y = y.add(Dd::of(1.0));
    }
    let pi = Dd {
        hi: std::f64::consts::PI,
        lo: 1.224_646_799_147_353_2e-16,
    };
    let mut l = y
        .sub(Dd::of(0.5))
        .mul(dd::ln(y))
        .sub(y)
        .add(dd::ln(pi.mul_f(2.0)).mul_f(0.5));
    let inverse = Dd::of(1.0).div(y);
    let inverse2 = inverse.mul(inverse);
    let mut power = inverse;
    for (k, &(num, den)) in BERNOULLI.iter().enumerate() {
        let k = (k + 1) as f64;
        let c = Dd::of(num).div(Dd::of(den * 2.0 * k * (2.0 * k - 1.0)));
        l = l.add(c.mul(power));
        power = power.mul(inverse2);
    }
    l.sub(dd::ln(product))
}

/// `zeta(k)` for k >= 2 by Euler-Maclaurin after 1000 terms.
fn zeta(k: i32) -> f64 {
    let n = 1000.0f64;
    let head: f64 = (1..1000).rev().map(|i| f64::from(i).powi(-k)).sum();
    let k_f = f64::from(k);
    head + n.powi(1 - k) / (k_f - 1.0) + 0.5 * n.powi(-k) + k_f / 12.0 * n.powi(-k - 1)
}

/// `lgamma(1 + t)` (or `lgamma(2 + t)`) by the Taylor series at the root:
/// the linear term in double-double, 12 more terms.
fn lgamma_near_root(t: f64, at_two: bool) -> Dd {
    let gamma = Dd {
        hi: 0.577_215_664_901_532_9,
        lo: -4.942_915_152_430_645e-18,
    };
    let linear = if at_two {
        Dd::of(1.0).sub(gamma)
    } else {
        gamma.neg()
    };
    let mut sum = linear.mul_f(t);
    for k in 2..14 {
        let z = zeta(k) - if at_two { 1.0 } else { 0.0 };
        let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
        sum = sum.add(Dd::of(sign * z / f64::from(k) * t.powi(k)));
    }
    sum
}

/// `sin(pi x)` for finite non-integer x, in double-double.
fn sin_pi(x: f64) -> Dd {
    let n = x.round();
    let r = x - n;
    let pi = Dd {
        hi: std::f64::consts::PI,
        lo: 1.224_646_799_147_353_2e-16,
    };
    let (s, _) = sin_cos_reduced(pi.mul_f(r));
    if n.rem_euclid(2.0) == 0.0 {
        s
    } else {
        s.neg()
    }
}

/// `erf(x)` by its Taylor series in double-double (|x| <= 3: some 13 of
/// the 106 bits go to cancellation).
fn erf_series(x: f64) -> Dd {
    let x2 = Dd::of(x).mul(Dd::of(x));
    let mut power = Dd::of(x);
    let mut sum = Dd::of(0.0);
    for n in 0..120 {
        let term = power.div(Dd::of(f64::from(2 * n + 1)));
        sum = if n % 2 == 0 {
            sum.add(term)
        } else {
            sum.sub(term)
        };
        power = power.mul(x2).div(Dd::of(f64::from(n + 1)));
    }
    let pi = Dd {
        hi: std::f64::consts::PI,
        lo: 1.224_646_799_147_353_2e-16,
    };
    sum.mul_f(2.0).div(pi.sqrt())
}

/// `erfc(x)` for x > 3 by Laplace's continued fraction, 300 deep, in
/// double-double.
fn erfc_fraction(x: f64) -> Dd {
    let a = Dd::of(x);
    let mut g = a;
    for k in (1..=300).rev() {
        g = a.add(Dd::of(f64::from(k) / 2.0).div(g));
    }
    let pi = Dd {
        hi: std::f64::consts::PI,
        lo: 1.224_646_799_147_353_2e-16,
    };
    let e = dd::value(dd::exp(a.mul(a).neg()));
    e.div(g.mul(pi.sqrt()))
}

/// `|x|^y` for finite non-zero x, y, negated when `negative`.
fn power(ax: f64, y: Dd, negative: bool) -> Exact {
    let l = ln(ax);
    // Far out of range the product may overflow: its sign decides.
    let approx = l.hi * y.hi;
    let r = if approx < -746.0 {
        Exact::of(0.0)
    } else if approx > 800.0 {
        Exact::of(f64::INFINITY)
    } else {
        exp_of(l.mul(y))
    };
    if negative {
        r.neg()
    } else {
        r
    }
}

fn is_odd_integer(y: f64) -> bool {
    y.abs() < 2f64.powi(53) && y.fract() == 0.0 && (y % 2.0).abs() == 1.0
}

fn pow_reference(x: f64, y: f64) -> Exact {
    if special(x) || special(y) || x == 1.0 || (x < 0.0 && y.fract() != 0.0) {
        return Exact::of(x.powf(y));
    }
    power(x.abs(), Dd::of(y), x < 0.0 && is_odd_integer(y))
}

fn powr_reference(x: f64, y: f64) -> Exact {
    let nan = x.is_nan()
        || y.is_nan()
        || x < 0.0
        || (x == 0.0 && y == 0.0)
        || (x == f64::INFINITY && y == 0.0)
        || (x == 1.0 && y.is_infinite());
    if nan {
        Exact::of(f64::NAN)
    } else {
        pow_reference(x.abs(), y)
    }
}

fn pown_reference(x: f64, n: i32) -> Exact {
    if special(x) || n == 0 {
        return Exact::of(x.powi(n));
    }
    power(x.abs(), Dd::of(f64::from(n)), x < 0.0 && n % 2 != 0)
}

fn rootn_reference(x: f64, n: i32) -> Exact {
    if n == 0 || (x < 0.0 && n % 2 == 0) || x.is_nan() {
        return Exact::of(f64::NAN);
    }
    let negative = x.is_sign_negative() && n % 2 != 0;
    if special(x) {
        let magnitude = if (x == 0.0) == (n > 0) {
            0.0
        } else {
            f64::INFINITY
        };
        return Exact::of(if negative { -magnitude } else { magnitude });
    }
    let z = ln(x.abs()).div(Dd::of(f64::from(n)));
    let r = exp_of(z);
    if negative {
        r.neg()
    } else {
        r
    }
}

fn hypot_reference(x: f64, y: f64) -> Exact {
    if special(x) || special(y) {
        return Exact::of(x.hypot(y));
    }
    let e = libm::frexp(x.abs().max(y.abs())).1;
    let (a, b) = (libm::scalbn(x, -e), libm::scalbn(y, -e));
    let sum = Dd::of(a).mul(Dd::of(a)).add(Dd::of(b).mul(Dd::of(b)));
    Exact {
        m: sum.sqrt(),
        k: e,
    }
}

/// Inputs for a unary function: random bit patterns, log-spaced values
/// over the whole range, a linear sweep of `range`, the edges.
fn unary_inputs(seed: u64, range: (f64, f64)) -> Vec<f64> {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut x: Vec<f64> = (0..RANDOM).map(|_| rng.finite()).collect();
    x.extend(log_spaced(-1074.0, 1024.0, 1 << 12));
    x.extend(log_spaced(-60.0, 12.0, 1 << 12));
    x.extend((0..RANDOM).map(|_| rng.uniform(range.0, range.1)));
    x.extend(edges());
    x
}

const UNARY: &[(&str, f64, (f64, f64))] = &[
    ("exp", 3.0, (-746.0, 710.0)),
    ("exp2", 3.0, (-1076.0, 1025.0)),
    ("exp10", 3.0, (-324.0, 309.0)),
    ("expm1", 3.0, (-40.0, 710.0)),
    ("log", 3.0, (0.0, 4.0)),
    ("log2", 3.0, (0.0, 4.0)),
    ("log10", 3.0, (0.0, 4.0)),
    ("log1p", 2.0, (-1.0, 4.0)),
    ("cbrt", 2.0, (-10.0, 10.0)),
    ("rsqrt", 2.0, (0.0, 4.0)),
    ("sinh", 4.0, (-711.0, 711.0)),
    ("cosh", 4.0, (-711.0, 711.0)),
    ("tanh", 5.0, (-20.0, 20.0)),
    ("asinh", 4.0, (-4.0, 4.0)),
    ("acosh", 4.0, (1.0, 4.0)),
    ("atanh", 5.0, (-1.0, 1.0)),
    ("erf", 16.0, (-6.0, 6.0)),
    ("erfc", 16.0, (-6.0, 27.0)),
    ("tgamma", 16.0, (-180.0, 172.0)),
    ("lgamma", 16.0, (-10.0, 10.0)),
];

#[test]
fn transcendental_functions_within_bounds() {
    let Some(runner) = runner() else { return };
    let mut results = Vec::new();
    for (seed, &(name, bound, range)) in UNARY.iter().enumerate() {
        let mut x = unary_inputs(seed as u64 + 1, range);
        if name == "rsqrt" {
            // NVIDIA's double InverseSqrt gave 0 for this signalling NaN
            // (test_bruteforce on the H200).
            x.extend([
                f64::from_bits(0x7ff0_0000_0000_0200),
                f64::from_bits(0xfff0_0000_0000_0001),
            ]);
        }
        let got = doubles(&run(&runner, name, &[&words(&x)], 1, x.len())[0]);
        let mut worst = Worst::new(name, bound);
        for (&x, &g) in x.iter().zip(&got) {
            let floor = if name == "lgamma" && x < 0.0 {
                1.0
            } else {
                0.0
            };
            let want = unary_reference(name, x);
            record_above(&mut worst, g, want, floor, || format!("{x:e}"));
        }
        results.push(worst);
    }
    report(&results);
}

/// `lgamma_r` gives `lgamma`'s value and the sign of Gamma (0 at poles
/// and NaN).
#[test]
fn lgamma_r_value_and_sign() {
    let Some(runner) = runner() else { return };
    let x = unary_inputs(99, (-30.0, 30.0));
    let n = x.len();
    let value = doubles(&run(&runner, "lgamma", &[&words(&x)], 1, n)[0]);
    let out = run(&runner, "lgamma_r", &[&words(&x)], 2, n);
    let (got, sign) = (doubles(&out[0]), &out[1]);
    for i in 0..n {
        let a = x[i];
        assert!(
            same(got[i], value[i], false),
            "lgamma_r({a:e}) = {:e}, lgamma {:e}",
            got[i],
            value[i]
        );
        let want = if a.is_nan() || (a <= 0.0 && a.fract() == 0.0) || a == f64::NEG_INFINITY {
            0
        } else if a > 0.0 || a.floor().rem_euclid(2.0) == 0.0 {
            1
        } else {
            -1
        };
        assert_eq!(sign[i] as i32, want, "sign of Gamma({a:e})");
    }
}

/// Pairs for the powers: `|x|` log-spaced and `y` such that `|x|^y` spans
/// the whole range, random bits, integers, and the grid of edges.
fn power_inputs(seed: u64) -> (Vec<f64>, Vec<f64>) {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for i in 0..RANDOM {
        let a = rng.uniform(-1074.0, 1024.0).exp2();
        let l = a.log2();
        let target = rng.uniform(-1080.0, 1030.0);
        let b = if l.abs() > 1e-300 { target / l } else { 1.0 };
        let sign = if i % 4 == 0 { -1.0 } else { 1.0 };
        // Some negative bases with integer exponents.
        let b = if sign < 0.0 { b.round() } else { b };
        x.push(sign * a);
        y.push(b);
        // Bases near 1 with large exponents.
        x.push(1.0 + rng.uniform(-1e-3, 1e-3));
        y.push(rng.uniform(-5e5, 5e5));
        x.push(rng.finite());
        y.push(rng.finite());
    }
    let e = edges();
    for &a in &e {
        for &b in &e {
            x.push(a);
            y.push(b);
        }
    }
    (x, y)
}

#[test]
fn powers_and_hypot_within_bounds() {
    let Some(runner) = runner() else { return };
    let mut results = Vec::new();
    let (x, y) = power_inputs(7);
    let real: &[(&str, f64, RealReference)] = &[
        ("pow", 16.0, pow_reference),
        ("powr", 16.0, powr_reference),
        ("hypot", 4.0, hypot_reference),
    ];
    for &(name, bound, reference) in real {
        let got = doubles(&run(&runner, name, &[&words(&x), &words(&y)], 1, x.len())[0]);
        let mut worst = Worst::new(name, bound);
        for ((&a, &b), &g) in x.iter().zip(&y).zip(&got) {
            record(&mut worst, g, reference(a, b), || format!("({a:e}, {b:e})"));
        }
        results.push(worst);
    }
    // Integer second arguments: small ones on every x, large ones too.
    let mut rng = Rng(11);
    let (mut xi, mut n) = (Vec::new(), Vec::new());
    for &a in x.iter().step_by(3).chain(&edges()) {
        xi.push(a);
        n.push((rng.next() % 41) as i32 - 20);
        xi.push(a);
        n.push(rng.next() as i32);
    }
    for &v in &edges() {
        for k in [-3, -2, -1, 0, 1, 2, 3, 7, 8, i32::MAX, i32::MIN] {
            xi.push(v);
            n.push(k);
        }
    }
    let integral: &[(&str, f64, IntegralReference)] = &[
        ("pown", 16.0, pown_reference),
        ("rootn", 16.0, rootn_reference),
    ];
    for &(name, bound, reference) in integral {
        let got = doubles(&run(&runner, name, &[&words(&xi), &ints(&n)], 1, xi.len())[0]);
        let mut worst = Worst::new(name, bound);
        for ((&a, &k), &g) in xi.iter().zip(&n).zip(&got) {
            record(&mut worst, g, reference(a, k), || format!("({a:e}, {k})"));
        }
        results.push(worst);
    }
    report(&results);
}

/// The operand of larger (`larger`) or smaller magnitude, fmax/fmin on a
/// tie.
fn by_magnitude(a: f64, b: f64, larger: bool) -> f64 {
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
}

fn fdim(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if a > b {
        a - b
    } else {
        0.0
    }
}

fn ilogb(x: f64) -> i32 {
    if x == 0.0 {
        i32::MIN
    } else if !x.is_finite() {
        i32::MAX
    } else {
        libm::frexp(x).1 - 1
    }
}

fn logb(x: f64) -> f64 {
    if x.is_nan() {
        x
    } else if x.is_infinite() {
        f64::INFINITY
    } else if x == 0.0 {
        f64::NEG_INFINITY
    } else {
        f64::from(ilogb(x))
    }
}

/// `fract`: `x - floor(x)` below 1, with `floor(x)`.
fn fract(x: f64) -> (f64, f64) {
    let fl = x.floor();
    if x.is_nan() {
        return (x, x);
    }
    if x.is_infinite() {
        return (0f64.copysign(x), fl);
    }
    let f = (x - fl).min(1.0 - f64::EPSILON / 2.0);
    (if x == 0.0 { x } else { f }, fl)
}

/// Whether two exact results agree: the same bits, any NaN for NaN, and
/// either zero where C99 leaves the sign of a zero open (`fmin`, `fmax`).
fn same(got: f64, want: f64, any_zero: bool) -> bool {
    (got.is_nan() && want.is_nan())
        || got.to_bits() == want.to_bits()
        || (any_zero && got == 0.0 && want == 0.0)
}

/// Notes a mismatch (the first 40).
fn note(wrong: &mut Vec<String>, why: String) {
    if wrong.len() < 40 {
        wrong.push(why);
    }
}

/// Notes `got` unless it is the same as `want`.
fn check(wrong: &mut Vec<String>, name: &str, got: f64, want: f64, any_zero: bool, input: String) {
    if !same(got, want, any_zero) {
        note(wrong, format!("{name}{input}: got {got:e}, want {want:e}"));
    }
}

/// Inputs of the exact functions: random bit patterns, values near each
/// other (long quotients are short then), the grid of edges.
fn exact_inputs() -> (Vec<f64>, Vec<f64>) {
    let mut rng = Rng(23);
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for _ in 0..RANDOM {
        x.push(rng.finite());
        y.push(rng.finite());
        let a = rng.uniform(-100.0, 100.0);
        x.push(a);
        y.push(rng.uniform(-10.0, 10.0));
        x.push(a.round() + 0.5 * rng.uniform(-1.0, 1.0).signum());
        y.push(1.0);
    }
    let e = edges();
    for &a in &e {
        for &b in &e {
            x.push(a);
            y.push(b);
        }
    }
    (x, y)
}

#[test]
fn exact_functions_match_the_host() {
    let Some(runner) = runner() else { return };
    let (x, y) = exact_inputs();
    let n = x.len();
    let (wx, wy) = (words(&x), words(&y));
    let mut wrong: Vec<String> = Vec::new();
    let unary: &[(&str, HostUnary)] = &[
        ("fabs", f64::abs),
        ("floor", f64::floor),
        ("ceil", f64::ceil),
        ("trunc", f64::trunc),
        ("round", f64::round),
        ("rint", f64::round_ties_even),
        ("sqrt", f64::sqrt),
        ("logb", logb),
    ];
    for &(name, f) in unary {
        let got = doubles(&run(&runner, name, &[&wx], 1, n)[0]);
        for (&a, &g) in x.iter().zip(&got) {
            check(&mut wrong, name, g, f(a), false, format!("({a:e})"));
        }
    }
    let binary: &[(&str, HostBinary, bool)] = &[
        ("fmod", |a, b| a % b, false),
        ("remainder", libm::remainder, false),
        ("copysign", f64::copysign, false),
        ("fmin", f64::min, true),
        ("fmax", f64::max, true),
        ("fdim", fdim, false),
        ("nextafter", libm::nextafter, false),
        ("maxmag", |a, b| by_magnitude(a, b, true), true),
        ("minmag", |a, b| by_magnitude(a, b, false), true),
        ("hypot", f64::hypot, false),
    ];
    for &(name, f, any_zero) in binary {
        let got = doubles(&run(&runner, name, &[&wx, &wy], 1, n)[0]);
        for ((&a, &b), &g) in x.iter().zip(&y).zip(&got) {
            // hypot is only exact at its special values.
            if name == "hypot" && !(special(a) || special(b)) {
                continue;
            }
            check(
                &mut wrong,
                name,
                g,
                f(a, b),
                any_zero,
                format!("({a:e}, {b:e})"),
            );
        }
    }
    // fma is correctly rounded; mad may round the product first. The
    // addends: other inputs, the rounded product negated (the fused result
    // is then the product's rounding error), small multiples of it, and
    // near-subnormal values with products near the subnormal range.
    let mut rng = Rng(3);
    let (mut fx, mut fy) = (x.clone(), y.clone());
    for i in (3..n).step_by(4) {
        fx[i] = rng.uniform(1.0, 2.0) * 2f64.powi((rng.next() % 200) as i32 - 100);
        fy[i] = rng.uniform(-2.0, 2.0) * 2f64.powi(-922 - (rng.next() % 200) as i32);
    }
    let fz: Vec<f64> = (0..n)
        .map(|i| match i % 4 {
            0 => y[n - 1 - i],
            1 => -(fx[i] * fy[i]),
            2 => -(fx[i] * fy[i]) * rng.uniform(0.5, 2.0),
            _ => rng.uniform(-4.0, 4.0) * f64::MIN_POSITIVE,
        })
        .collect();
    let operands = [words(&fx), words(&fy), words(&fz)];
    let operands: Vec<&[u32]> = operands.iter().map(Vec::as_slice).collect();
    let fma = doubles(&run(&runner, "fma", &operands, 1, n)[0]);
    let mad = doubles(&run(&runner, "mad", &operands, 1, n)[0]);
    for i in 0..n {
        let (a, b, c) = (fx[i], fy[i], fz[i]);
        let input = format!("({a:e}, {b:e}, {c:e})");
        check(
            &mut wrong,
            "fma",
            fma[i],
            a.mul_add(b, c),
            false,
            input.clone(),
        );
        if !same(mad[i], a * b + c, false) {
            check(&mut wrong, "mad", mad[i], a.mul_add(b, c), false, input);
        }
    }
    // Integer arguments and results.
    let mut rng = Rng(5);
    let k: Vec<i32> = (0..n)
        .map(|i| match i % 3 {
            0 => (rng.next() % 4400) as i32 - 2200,
            1 => (rng.next() % 130) as i32 - 65,
            _ => rng.next() as i32,
        })
        .collect();
    let got = doubles(&run(&runner, "ldexp", &[&wx, &ints(&k)], 1, n)[0]);
    for ((&a, &e), &g) in x.iter().zip(&k).zip(&got) {
        check(
            &mut wrong,
            "ldexp",
            g,
            libm::scalbn(a, e),
            false,
            format!("({a:e}, {e})"),
        );
    }
    let got = &run(&runner, "ilogb", &[&wx], 1, n)[0];
    for (&a, &g) in x.iter().zip(got) {
        if g as i32 != ilogb(a) {
            note(
                &mut wrong,
                format!("ilogb({a:e}): got {}, want {}", g as i32, ilogb(a)),
            );
        }
    }
    let out = run(&runner, "frexp", &[&wx], 2, n);
    let (m, e) = (doubles(&out[0]), &out[1]);
    for i in 0..n {
        let (wm, we) = libm::frexp(x[i]);
        let we = if x[i].is_finite() { we } else { 0 };
        check(
            &mut wrong,
            "frexp",
            m[i],
            wm,
            false,
            format!("({:e})", x[i]),
        );
        if e[i] as i32 != we {
            note(
                &mut wrong,
                format!("frexp({:e}) exponent: got {}, want {we}", x[i], e[i] as i32),
            );
        }
    }
    let out = run(&runner, "modf", &[&wx], 2, n);
    let (f, w) = (doubles(&out[0]), doubles(&out[1]));
    for i in 0..n {
        let (wf, ww) = libm::modf(x[i]);
        let input = format!("({:e})", x[i]);
        check(&mut wrong, "modf", f[i], wf, false, input.clone());
        check(&mut wrong, "modf whole", w[i], ww, false, input);
    }
    let out = run(&runner, "fract", &[&wx], 2, n);
    let (f, w) = (doubles(&out[0]), doubles(&out[1]));
    for i in 0..n {
        let (wf, ww) = fract(x[i]);
        let input = format!("({:e})", x[i]);
        check(&mut wrong, "fract", f[i], wf, false, input.clone());
        check(&mut wrong, "fract floor", w[i], ww, false, input);
    }
    let out = run(&runner, "remquo", &[&wx, &wy], 2, n);
    let (r, q) = (doubles(&out[0]), &out[1]);
    for i in 0..n {
        let (a, b) = (x[i], y[i]);
        let (wr, wq) = libm::remquo(a, b);
        check(
            &mut wrong,
            "remquo",
            r[i],
            wr,
            false,
            format!("({a:e}, {b:e})"),
        );
        let low = (wq.unsigned_abs() & 0x7f) as i32;
        let wq = if wr.is_nan() || b.is_infinite() {
            0
        } else if wq < 0 {
            -low
        } else {
            low
        };
        if q[i] as i32 != wq {
            note(
                &mut wrong,
                format!(
                    "remquo({a:e}, {b:e}) quotient: got {}, want {wq}",
                    q[i] as i32
                ),
            );
        }
    }
    let codes: Vec<u64> = (0..n as u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    let code_words: Vec<u32> = codes
        .iter()
        .flat_map(|c| [*c as u32, (c >> 32) as u32])
        .collect();
    let got = doubles(&run(&runner, "nan", &[&code_words], 1, n)[0]);
    for (&c, &g) in codes.iter().zip(&got) {
        let want = 0x7ff8_0000_0000_0000 | (c & 0x0007_ffff_ffff_ffff);
        if g.to_bits() != want {
            note(
                &mut wrong,
                format!("nan({c:#x}): got {:#x}, want {want:#x}", g.to_bits()),
            );
        }
    }
    for w in &wrong {
        println!("WRONG {w}");
    }
    assert!(wrong.is_empty(), "{} exact results differ", wrong.len());
}

/// The double4 forms give the scalar forms' results lane for lane.
#[test]
fn vector_forms_match_scalars() {
    let Some(runner) = runner() else { return };
    let mut rng = Rng(31);
    let x: Vec<f64> = (0..4096)
        .map(|i| {
            if i % 2 == 0 {
                rng.uniform(-700.0, 700.0)
            } else {
                rng.finite()
            }
        })
        .collect();
    let y: Vec<f64> = (0..4096).map(|_| rng.uniform(-3.0, 3.0)).collect();
    let n = x.len();
    let out = runner.run_raw("k_vectors", &[&words(&x), &words(&y)], 1, 16 * n, n / 4);
    let got = doubles(&out[0]);
    let ax: Vec<f64> = x.iter().map(|v| v.abs()).collect();
    let three = vec![3; n];
    let scalar = [
        run(&runner, "exp", &[&words(&x)], 1, n),
        run(&runner, "log", &[&words(&ax)], 1, n),
        run(&runner, "pow", &[&words(&ax), &words(&y)], 1, n),
        run(&runner, "fmod", &[&words(&x), &words(&y)], 1, n),
        run(&runner, "ldexp", &[&words(&x), &ints(&three)], 1, n),
        run(&runner, "hypot", &[&words(&x), &words(&y)], 1, n),
        run(&runner, "sin", &[&words(&x)], 1, n),
        run(&runner, "tan", &[&words(&x)], 1, n),
    ]
    .map(|o| doubles(&o[0]));
    for i in 0..n {
        let (group, lane) = (i / 4, i % 4);
        for (f, s) in scalar.iter().enumerate() {
            let g = got[(8 * group + f) * 4 + lane];
            assert!(
                same(g, s[i], false),
                "function {f} lane {lane} of element {i}: vector {g:e}, scalar {:e}",
                s[i]
            );
        }
    }
}
