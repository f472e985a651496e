//! Problem sizes and repetition counts. Both sides of a comparison run the
//! same sizes, chosen from the smaller of the two devices: full sizes on
//! GPUs, smaller ones on CPU devices (lavapipe, PoCL) and with `--quick`.

use crate::pair::Pair;
use crate::side::Side;

const MIB: usize = 1 << 20;

#[derive(Debug, Clone)]
pub struct Config {
    pub quick: bool,
    /// Bytes of each buffer in the copy, write and read workloads (split
    /// in halves over two devices by `stream-split`).
    pub copy_bytes: usize,
    /// Bytes moved from one device to the other by `migrate`.
    pub migrate_bytes: usize,
    /// Launches in the back-to-back and set-argument workloads.
    pub launches: usize,
    /// Round trips timed (after warm-up) in the round-trip workload.
    pub round_trips: usize,
    /// Matrix order of the SGEMM (a multiple of 64; of 128 with two
    /// devices, so each half is whole tiles).
    pub sgemm_n: usize,
    /// Floats summed by the reduction.
    pub reduce_n: usize,
    /// Bodies in the N-body step (a multiple of 256).
    pub nbody_n: usize,
    /// Bytes histogrammed.
    pub histogram_bytes: usize,
    /// Width and height of the image workloads' source images, in pixels.
    pub image_side: usize,
    /// Default (warm-up, timed) runs per workload.
    pub reps: (usize, usize),
    /// Builds timed in the build workload.
    pub builds: usize,
}

impl Config {
    /// Sizes for `sides`: GPU sizes only when every side is a GPU, and no
    /// buffer larger than any side allows.
    pub fn for_sides(quick: bool, sides: &[&Side]) -> Config {
        let cpu = sides.iter().any(|s| s.is_cpu());
        let limit = sides
            .iter()
            .map(|s| s.buffer_limit())
            .min()
            .unwrap_or(64 << 20) as usize;
        Config::sized(quick, cpu, limit)
    }

    /// Sizes for the `--devices 2` mode: as [`Config::for_sides`] over
    /// every device of `pairs`, with an SGEMM order whose halves are whole
    /// 64-row tiles.
    pub fn for_pairs(quick: bool, pairs: &[&Pair]) -> Config {
        let sides: Vec<&Side> = pairs.iter().flat_map(|p| p.sides()).collect();
        let mut cfg = Config::for_sides(quick, &sides);
        cfg.sgemm_n = (cfg.sgemm_n / 128 * 128).max(128);
        cfg
    }

    /// The sizes for a kind of device with a per-buffer limit of `limit`
    /// bytes.
    pub fn sized(quick: bool, cpu: bool, limit: usize) -> Config {
        let (copy, sgemm, reduce, nbody, hist, image) = if quick {
            (16 * MIB, 256, 4 * MIB, 2048, 16 * MIB, 512)
        } else if cpu {
            (64 * MIB, 512, 16 * MIB, 4096, 64 * MIB, 1024)
        } else {
            (1024 * MIB, 4096, 64 * MIB, 16384, 256 * MIB, 4096)
        };
        let fit = |bytes: usize| floor_pow2(bytes.min(limit).max(MIB));
        Config {
            quick,
            copy_bytes: fit(copy),
            // 256 MiB on GPUs: a move takes milliseconds over PCIe.
            migrate_bytes: fit(copy / 4),
            launches: 10_000,
            round_trips: if quick { 200 } else { 1000 },
            sgemm_n: sgemm.min(largest_square(limit)),
            reduce_n: fit(reduce * 4) / 4,
            nbody_n: nbody,
            histogram_bytes: fit(hist),
            // The largest image is a float4 one of image_side^2 texels.
            image_side: image.min(floor_pow2(((limit / 16) as f64).sqrt() as usize)),
            reps: if quick { (1, 5) } else { (3, 31) },
            builds: if quick { 3 } else { 7 },
        }
    }
}

fn floor_pow2(x: usize) -> usize {
    if x == 0 {
        0
    } else {
        1 << (usize::BITS - 1 - x.leading_zeros())
    }
}

/// The largest multiple of 64 whose square matrix of floats fits `limit`.
fn largest_square(limit: usize) -> usize {
    let n = ((limit / 4) as f64).sqrt() as usize;
    (n / 64 * 64).max(64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_respect_the_allocation_limit() {
        let gpu = Config::sized(false, false, 8 << 30);
        assert_eq!(gpu.copy_bytes, 1 << 30);
        assert_eq!(gpu.sgemm_n, 4096);
        assert_eq!(gpu.migrate_bytes, 256 * MIB);
        let small = Config::sized(false, false, 100 * MIB);
        assert_eq!(small.copy_bytes, 64 * MIB);
        assert!(small.sgemm_n * small.sgemm_n * 4 <= 100 * MIB);
        assert_eq!(small.sgemm_n % 64, 0);
        let quick = Config::sized(true, true, 8 << 30);
        assert_eq!(quick.copy_bytes, 16 * MIB);
    }
}
