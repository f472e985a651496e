//! The bits of 2/pi from first principles, for testing argument
//! reductions: pi by Machin's formula in fixed point, then 2/pi by long
//! division, in a small big-integer type (32-bit limbs, least significant
//! first).

#![allow(dead_code)]

/// Fraction bits computed; far more than any double's reduction needs.
pub const BITS: usize = 1600;

#[derive(Clone, Debug, PartialEq)]
pub struct Big(pub Vec<u64>);

impl Big {
    pub fn zero(limbs: usize) -> Big {
        Big(vec![0; limbs])
    }

    /// 2^k.
    pub fn power_of_two(k: usize, limbs: usize) -> Big {
        let mut b = Big::zero(limbs);
        b.0[k / 32] = 1 << (k % 32);
        b
    }

    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    pub fn div_small(&self, d: u64) -> Big {
        let mut out = self.clone();
        let mut rest = 0u64;
        for l in out.0.iter_mut().rev() {
            let cur = (rest << 32) | *l;
            *l = cur / d;
            rest = cur % d;
        }
        out
    }

    pub fn add(&self, b: &Big) -> Big {
        let mut out = self.clone();
        let mut carry = 0;
        for (l, &r) in out.0.iter_mut().zip(&b.0) {
            let t = *l + r + carry;
            *l = t & 0xffff_ffff;
            carry = t >> 32;
        }
        out
    }

    /// `self - b` for `self >= b`.
    pub fn sub(&self, b: &Big) -> Big {
        let mut out = self.clone();
        let mut borrow = 0i64;
        for (l, &r) in out.0.iter_mut().zip(&b.0) {
            let t = *l as i64 - r as i64 - borrow;
            borrow = i64::from(t < 0);
            *l = (t + (borrow << 32)) as u64;
        }
        out
    }

    pub fn mul_small(&self, m: u64) -> Big {
        let mut out = self.clone();
        let mut carry = 0u128;
        for l in out.0.iter_mut() {
            let t = u128::from(*l) * u128::from(m) + carry;
            *l = (t & 0xffff_ffff) as u64;
            carry = t >> 32;
        }
        out
    }

    pub fn less(&self, b: &Big) -> bool {
        for (l, r) in self.0.iter().rev().zip(b.0.iter().rev()) {
            if l != r {
                return l < r;
            }
        }
        false
    }

    pub fn bit(&self, k: usize) -> bool {
        self.0.get(k / 32).is_some_and(|l| (l >> (k % 32)) & 1 == 1)
    }

    fn shift_left_one(&self) -> Big {
        let mut out = self.clone();
        let mut carry = 0;
        for l in out.0.iter_mut() {
            let t = (*l << 1) | carry;
            *l = t & 0xffff_ffff;
            carry = t >> 32;
        }
        out
    }
}

/// atan(1/n) 2^BITS (+ a few guard bits' worth of truncation).
fn atan_inverse(n: u64, limbs: usize) -> Big {
    let mut power = Big::power_of_two(BITS + 64, limbs).div_small(n);
    let mut sum = Big::zero(limbs);
    let mut k = 0u64;
    while !power.is_zero() {
        let term = power.div_small(2 * k + 1);
        sum = if k.is_multiple_of(2) {
            sum.add(&term)
        } else {
            sum.sub(&term)
        };
        power = power.div_small(n * n);
        k += 1;
    }
    sum
}

/// floor(2/pi 2^BITS) as a big integer (its bits after the binary point).
pub fn two_over_pi() -> Big {
    let limbs = (2 * BITS + 200) / 32;
    // pi 2^(BITS + 64) = 16 atan(1/5) - 4 atan(1/239).
    let pi = atan_inverse(5, limbs)
        .mul_small(16)
        .sub(&atan_inverse(239, limbs).mul_small(4));
    // 2^(2 BITS + 65) / (pi 2^(BITS + 64)) by long division.
    let top = 2 * BITS + 65;
    let mut rest = Big::zero(limbs);
    let mut quotient = Big::zero(limbs);
    for k in (0..=top).rev() {
        rest = rest.shift_left_one();
        if k == top {
            rest.0[0] |= 1;
        }
        if !rest.less(&pi) {
            rest = rest.sub(&pi);
            quotient.0[k / 32] |= 1 << (k % 32);
        }
    }
    quotient
}
