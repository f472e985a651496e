//! A channel order's swizzle, applied at run time from the info block's
//! swizzle word: four 4-bit [`Select`]s, each a lane of the source vector
//! or the constant 0 or 1 (`1` as an integer for integer images, as the
//! spec's missing alpha is).
//!
//! [`Select`]: crate::image::Select

use super::values::{compose, field, u32_lit, Expr};
use super::TexelKind;
use crate::image::Select;
use crate::lower::emit::Emitter;
use naga::{BinaryOperator as B, Expression as E};

/// Lane `i` of the result is `source[selects[i]]` or a constant, for the
/// four selects in the low 16 bits of `selects`.
pub(super) fn swizzle(
    fb: &mut Emitter,
    vec4: naga::Handle<naga::Type>,
    kind: TexelKind,
    source: Expr,
    selects: Expr,
) -> Expr {
    let (zero, one) = constants(fb, kind);
    let lanes = (0..4)
        .map(|lane| {
            let select = field(fb, selects, 4 * lane, 0xF);
            // A lane index even for the constants, so the dynamic access
            // stays in range.
            let last = u32_lit(fb, Select::W as u32);
            let index = fb.math(naga::MathFunction::Min, select, Some(last));
            let picked = fb.add(E::Access {
                base: source,
                index,
            });
            let zero_select = u32_lit(fb, Select::Zero as u32);
            let is_lane = fb.binary(B::Less, select, zero_select);
            let is_zero = fb.binary(B::Equal, select, zero_select);
            let constant = fb.select(is_zero, zero, one);
            fb.select(is_lane, picked, constant)
        })
        .collect();
    compose(fb, vec4, lanes)
}

/// 0 and 1 of the kind's scalar.
pub(super) fn constants(fb: &mut Emitter, kind: TexelKind) -> (Expr, Expr) {
    use naga::Literal as L;
    let (zero, one) = match kind {
        TexelKind::Float => (L::F32(0.0), L::F32(1.0)),
        TexelKind::Int => (L::I32(0), L::I32(1)),
        TexelKind::Uint => (L::U32(0), L::U32(1)),
    };
    (fb.add(E::Literal(zero)), fb.add(E::Literal(one)))
}
