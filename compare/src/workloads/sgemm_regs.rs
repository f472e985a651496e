//! The same product as `sgemm` in another common style, Cedric Nugteren's
//! myGEMM kernels 6/7 (`kernels/sgemm_regs.cl`): 2D register blocking, an
//! 8 x 8 block of C per work-item in a private array `float acc[8][8]`,
//! 128 x 128 tiles per work-group of 16 x 16, and loops over the private
//! arrays with constant trip counts under `#pragma unroll`. What it
//! measures is whether such arrays end up in registers. Driven and checked
//! by `sgemm`'s code.

use crate::config::Config;
use crate::harness::{Prepared, Step};
use crate::side::Side;
use crate::workloads::sgemm::{prepare_blocking, Blocking};

pub const SOURCE: &str = include_str!("../../kernels/sgemm_regs.cl");

/// 128 x 128 tiles per work-group of 16 x 16, each work-item computing 8
/// columns and 8 rows of its tile (every 16th).
pub const REGISTER_BLOCKED: Blocking = Blocking {
    source: SOURCE,
    name: "sgemm_regs",
    local: [16, 16],
    per_item: [8, 8],
    tile: 128,
};

pub fn prepare<'a>(side: &'a Side, cfg: &Config) -> Step<Box<dyn Prepared + 'a>> {
    prepare_blocking(side, cfg, &REGISTER_BLOCKED)
}
