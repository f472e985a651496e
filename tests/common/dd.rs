//! Double-double reference arithmetic on the host (about 106 significant
//! bits) for testing the `double` math built-ins: values more accurate
//! than f64, so an f64 result's error can be measured in fractions of an
//! ulp. Products are exact through the host's fused `mul_add`.
//!
//! The algorithms are deliberately not the device's: `exp` sums a long
//! Taylor series after reducing by ln(2), `ln` refines the host's f64
//! logarithm by one Newton step on `exp`.

#![allow(dead_code)]

/// `hi + lo` with `|lo| <= ulp(hi) / 2`.
#[derive(Clone, Copy, Debug)]
pub struct Dd {
    pub hi: f64,
    pub lo: f64,
}

/// ln(2) to about 160 bits, as three doubles.
const LN_2: [f64; 3] = [
    std::f64::consts::LN_2,
    2.319_046_813_846_299_6e-17,
    5.707_708_438_416_212e-34,
];

/// A real number `m * 2^k`: wide-range values (results near the overflow
/// threshold or subnormal) keep a full double-double significand.
#[derive(Clone, Copy, Debug)]
pub struct Exact {
    pub m: Dd,
    pub k: i32,
}

impl Exact {
    /// An exact f64 (special values included).
    pub fn of(v: f64) -> Exact {
        Exact { m: Dd::of(v), k: 0 }
    }

    pub fn neg(self) -> Exact {
        Exact {
            m: self.m.neg(),
            k: self.k,
        }
    }
}

fn two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    let bb = s - a;
    let lo = (a - (s - bb)) + (b - bb);
    Dd { hi: s, lo }
}

fn fast_two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    Dd {
        hi: s,
        lo: b - (s - a),
    }
}

fn two_prod(a: f64, b: f64) -> Dd {
    let p = a * b;
    Dd {
        hi: p,
        lo: a.mul_add(b, -p),
    }
}

impl Dd {
    pub fn of(v: f64) -> Dd {
        Dd { hi: v, lo: 0.0 }
    }

    pub fn neg(self) -> Dd {
        Dd {
            hi: -self.hi,
            lo: -self.lo,
        }
    }

    pub fn add(self, b: Dd) -> Dd {
        let s = two_sum(self.hi, b.hi);
        let t = two_sum(self.lo, b.lo);
        let s = fast_two_sum(s.hi, s.lo + t.hi);
        fast_two_sum(s.hi, s.lo + t.lo)
    }

    pub fn sub(self, b: Dd) -> Dd {
        self.add(b.neg())
    }

    pub fn mul(self, b: Dd) -> Dd {
        let p = two_prod(self.hi, b.hi);
        fast_two_sum(p.hi, p.lo + (self.hi * b.lo + self.lo * b.hi))
    }

    pub fn mul_f(self, b: f64) -> Dd {
        self.mul(Dd::of(b))
    }

    pub fn div(self, b: Dd) -> Dd {
        let q1 = self.hi / b.hi;
        let r = self.sub(b.mul_f(q1));
        let q2 = r.hi / b.hi;
        let r = r.sub(b.mul_f(q2));
        let q3 = r.hi / b.hi;
        fast_two_sum(q1, q2).add(Dd::of(q3))
    }

    /// Times 2^k (exact while normal).
    pub fn scale(self, k: i32) -> Dd {
        Dd {
            hi: libm::scalbn(self.hi, k),
            lo: libm::scalbn(self.lo, k),
        }
    }

    pub fn sqrt(self) -> Dd {
        if self.hi == 0.0 {
            return self;
        }
        let s = self.hi.sqrt();
        let r = self.sub(two_prod(s, s));
        Dd::of(s).add(Dd::of(r.hi / (2.0 * s)))
    }
}

/// `k ln(2)` for an integer `k` (|k| < 2^20).
fn k_ln2(k: f64) -> Dd {
    Dd::of(LN_2[0])
        .mul_f(k)
        .add(Dd::of(LN_2[1]).mul_f(k))
        .add(Dd::of(LN_2[2] * k))
}

/// `e^z` for a finite double-double `z` (|z| < 2^19).
pub fn exp(z: Dd) -> Exact {
    let k = (z.hi / LN_2[0]).round();
    let r = z.sub(k_ln2(k));
    // Taylor to r^30: |r| <= 0.35, far below 2^-110.
    let mut sum = Dd::of(1.0);
    let mut term = Dd::of(1.0);
    for n in 1..=30 {
        term = term.mul(r).div(Dd::of(f64::from(n)));
        sum = sum.add(term);
    }
    Exact {
        m: sum,
        k: k as i32,
    }
}

/// `e^z - 1` for a finite double-double `z`.
pub fn expm1(z: Dd) -> Exact {
    if z.hi.abs() > 0.5 {
        let e = exp(z);
        let one = Dd::of(2f64.powi(-e.k));
        return Exact {
            m: e.m.sub(one),
            k: e.k,
        };
    }
    let mut sum = Dd::of(0.0);
    let mut term = Dd::of(1.0);
    for n in 1..=40 {
        term = term.mul(z).div(Dd::of(f64::from(n)));
        sum = sum.add(term);
    }
    Exact { m: sum, k: 0 }
}

/// `ln(x)` for a positive finite double-double `x`.
pub fn ln(x: Dd) -> Dd {
    // x = 2^e m with m in [1, 2): the Newton step works on m.
    let e = x.hi.log2().floor() as i32;
    let m = x.scale(-e);
    let y0 = m.hi.ln();
    let back = exp(Dd::of(-y0));
    let t = m.mul(back.m).scale(back.k).sub(Dd::of(1.0));
    // ln(m e^-y0) = t - t^2/2 + ..., t ~ 2^-52.
    let y = Dd::of(y0).add(t).sub(t.mul(t).mul_f(0.5));
    k_ln2(f64::from(e)).add(y)
}

/// `ln(1 + x)` for x > -1 (a series below 2^-10, where `1 + x` would round).
pub fn ln1p(x: f64) -> Dd {
    if x.abs() < 2f64.powi(-10) {
        let mut sum = Dd::of(0.0);
        let mut power = Dd::of(1.0);
        for n in 1..=16 {
            power = power.mul_f(x);
            let term = power.div(Dd::of(f64::from(n)));
            sum = if n % 2 == 1 {
                sum.add(term)
            } else {
                sum.sub(term)
            };
        }
        return sum;
    }
    ln(two_sum(1.0, x))
}

/// ln(10) and ln(2) as double-doubles.
pub fn ln10() -> Dd {
    ln(Dd::of(10.0))
}

pub fn ln2() -> Dd {
    Dd {
        hi: LN_2[0],
        lo: LN_2[1],
    }
}

/// `sum c_n x^(2n+1)` for the odd series `c` (small |x|).
pub fn odd_series(x: f64, c: impl Fn(i32) -> Dd) -> Dd {
    let x2 = Dd::of(x).mul(Dd::of(x));
    let mut power = Dd::of(x);
    let mut sum = Dd::of(0.0);
    for n in 0..20 {
        sum = sum.add(power.mul(c(n)));
        power = power.mul(x2);
    }
    sum
}

/// An exact value as a double-double (in range).
pub fn value(e: Exact) -> Dd {
    e.m.scale(e.k)
}

/// `sinh`, `cosh` (`odd` false) of a finite x: (e^x -+ e^-x) / 2.
pub fn sinh_cosh(x: f64, odd: bool) -> Exact {
    let ax = x.abs();
    if odd && ax < 0.5 {
        // x^(2n+1) / (2n+1)!
        let mut factorial = vec![Dd::of(1.0)];
        for n in 1..42 {
            let last = factorial[n - 1];
            factorial.push(last.mul_f(n as f64));
        }
        let r = odd_series(x, |n| Dd::of(1.0).div(factorial[2 * n as usize + 1]));
        return Exact { m: r, k: 0 };
    }
    let up = exp(Dd::of(ax));
    let down = exp(Dd::of(-ax));
    // e^-|x| relative to e^|x|: 2^(down.k - up.k).
    let shift = down.k - up.k;
    let other = if shift < -200 {
        Dd::of(0.0)
    } else {
        down.m.scale(shift)
    };
    let m = if odd {
        up.m.sub(other)
    } else {
        up.m.add(other)
    };
    let r = Exact { m, k: up.k - 1 };
    if odd && x < 0.0 {
        r.neg()
    } else {
        r
    }
}
