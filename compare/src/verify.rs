//! Host-side inputs and checks: a deterministic generator for input data,
//! exact comparison for copies and counts, and error-bounded comparison for
//! float results (bounds derived from how many roundings the device's
//! evaluation order can accumulate, so a right answer always passes and a
//! wrong one, such as a missed tile, does not).

/// Unit roundoff of `f32` as an `f64`.
pub const EPS32: f64 = f32::EPSILON as f64;

/// A small xorshift generator: reproducible inputs without a dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// Uniform in [lo, hi).
    pub fn uniform(&mut self, lo: f32, hi: f32) -> f32 {
        let unit = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * unit
    }

    pub fn floats(&mut self, n: usize, lo: f32, hi: f32) -> Vec<f32> {
        (0..n).map(|_| self.uniform(lo, hi)).collect()
    }
}

/// `n` distinct floats in [1, 2) (no NaN that a copy might canonicalise),
/// different for each `seed`, cheap enough for a GiB.
pub fn pattern(n: usize, seed: u32) -> Vec<f32> {
    (0..n as u32)
        .map(|i| {
            let mantissa = i.wrapping_mul(0x9E37_79B1).wrapping_add(seed) >> 9;
            f32::from_bits(0x3F80_0000 | mantissa)
        })
        .collect()
}

/// The first index where `got` and `want` differ, as a message.
pub fn exact<T: PartialEq + std::fmt::Debug>(
    what: &str,
    got: &[T],
    want: &[T],
) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!(
            "{what}: {} elements, expected {}",
            got.len(),
            want.len()
        ));
    }
    match got.iter().zip(want).position(|(g, w)| g != w) {
        None => Ok(()),
        Some(i) => Err(format!(
            "{what}[{i}] = {:?}, expected {:?}",
            got[i], want[i]
        )),
    }
}

/// Whether `got` is within `bound` of the exact `want`; NaN never is.
pub fn within(got: f64, want: f64, bound: f64) -> bool {
    (got - want).abs() <= bound
}

/// One float result against its reference and error bound, as a message.
pub fn close(what: &str, got: f32, want: f64, bound: f64) -> Result<(), String> {
    if within(got as f64, want, bound) {
        Ok(())
    } else {
        Err(format!(
            "{what} = {got}, expected {want} (allowed error {bound:.3e})"
        ))
    }
}

/// The error bound of a sum of `terms` products or values evaluated in
/// `depth` sequential roundings (each of relative size `EPS32`) whose
/// absolute values add up to `magnitude`: the classical `depth * u * sum|x|`.
pub fn sum_bound(depth: usize, magnitude: f64) -> f64 {
    depth as f64 * EPS32 * magnitude
}

/// The longest chain of additions any one result of the two-stage
/// reduction goes through: each work-item's strided loop over
/// `n / global` elements, the tree over `group` lanes, then the second
/// stage's loop over the partials and its tree.
pub fn reduction_depth(n: usize, global: usize, group: usize, groups: usize) -> usize {
    let tree = |lanes: usize| lanes.next_power_of_two().trailing_zeros() as usize;
    n.div_ceil(global) + tree(group) + groups.div_ceil(group) + tree(group)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_deterministic_and_in_range() {
        let a: Vec<f32> = Rng::new(7).floats(1000, -1.0, 1.0);
        let b: Vec<f32> = Rng::new(7).floats(1000, -1.0, 1.0);
        assert_eq!(a, b);
        assert!(a.iter().all(|x| (-1.0..1.0).contains(x)));
        assert_ne!(a, Rng::new(8).floats(1000, -1.0, 1.0));
    }

    #[test]
    fn pattern_is_finite_and_seeded() {
        let p = pattern(1 << 12, 1);
        assert!(p.iter().all(|x| (1.0..2.0).contains(x)));
        assert_ne!(p, pattern(1 << 12, 2));
    }

    #[test]
    fn exact_names_the_first_difference() {
        assert!(exact("x", &[1u32, 2, 3], &[1, 2, 3]).is_ok());
        assert_eq!(
            exact("x", &[1u32, 5, 6], &[1, 2, 3]).unwrap_err(),
            "x[1] = 5, expected 2"
        );
        assert!(exact("x", &[1u32], &[1, 2]).is_err());
    }

    #[test]
    fn tolerance_accepts_rounding_and_rejects_errors() {
        // A float sum of 1000 values in [0, 1): the f32 result is within the
        // bound, a result missing one term is not.
        let mut rng = Rng::new(3);
        let xs = rng.floats(1000, 0.0, 1.0);
        let exact_sum: f64 = xs.iter().map(|&x| x as f64).sum();
        let f32_sum: f32 = xs.iter().sum();
        let bound = sum_bound(xs.len(), exact_sum);
        assert!(close("sum", f32_sum, exact_sum, bound).is_ok());
        let missing: f32 = xs[1..].iter().sum();
        assert!(xs[0] as f64 > bound, "the dropped term exceeds the bound");
        assert!(close("sum", missing, exact_sum, bound).is_err());
        assert!(close("sum", f32::NAN, exact_sum, bound).is_err());
    }

    #[test]
    fn reduction_depth_counts_both_stages() {
        // 2^20 elements over 256 groups of 256: 16 per work-item, 8 tree
        // levels, one partial per second-stage lane, 8 more levels.
        assert_eq!(reduction_depth(1 << 20, 1 << 16, 256, 256), 16 + 8 + 1 + 8);
    }
}
