//! The small expression builders every image function shares: literals,
//! components, vectors of four, and the per-lane choices the addressing
//! and conversion code is written in.

use crate::lower::emit::Emitter;
use naga::{BinaryOperator as B, Expression as E, Handle, Literal as L};

pub(super) type Expr = Handle<naga::Expression>;

pub(super) fn u32_lit(fb: &mut Emitter, v: u32) -> Expr {
    fb.add(E::Literal(L::U32(v)))
}

pub(super) fn i32_lit(fb: &mut Emitter, v: i32) -> Expr {
    fb.add(E::Literal(L::I32(v)))
}

pub(super) fn f32_lit(fb: &mut Emitter, v: f32) -> Expr {
    fb.add(E::Literal(L::F32(v)))
}

pub(super) fn bool_lit(fb: &mut Emitter, v: bool) -> Expr {
    fb.add(E::Literal(L::Bool(v)))
}

/// Component `index` of a vector value.
pub(super) fn component(fb: &mut Emitter, base: Expr, index: u32) -> Expr {
    fb.add(E::AccessIndex { base, index })
}

/// `value` in all four lanes.
pub(super) fn splat4(fb: &mut Emitter, value: Expr) -> Expr {
    fb.add(E::Splat {
        size: naga::VectorSize::Quad,
        value,
    })
}

pub(super) fn compose(fb: &mut Emitter, ty: Handle<naga::Type>, components: Vec<Expr>) -> Expr {
    fb.add(E::Compose { ty, components })
}

/// `value` converted (not reinterpreted) to `kind`, 32 bits.
pub(super) fn convert(fb: &mut Emitter, value: Expr, kind: naga::ScalarKind) -> Expr {
    fb.add(E::As {
        expr: value,
        kind,
        convert: Some(4),
    })
}

/// `value`'s bits as `kind`.
pub(super) fn bitcast(fb: &mut Emitter, value: Expr, kind: naga::ScalarKind) -> Expr {
    fb.add(E::As {
        expr: value,
        kind,
        convert: None,
    })
}

pub(super) fn clamp(fb: &mut Emitter, value: Expr, low: Expr, high: Expr) -> Expr {
    fb.add(E::Math {
        fun: naga::MathFunction::Clamp,
        arg: value,
        arg1: Some(low),
        arg2: Some(high),
        arg3: None,
    })
}

/// `word & mask`, for the fields of the sampler and info words.
pub(super) fn field(fb: &mut Emitter, word: Expr, shift: u32, mask: u32) -> Expr {
    let shifted = if shift == 0 {
        word
    } else {
        let by = u32_lit(fb, shift);
        fb.binary(B::ShiftRight, word, by)
    };
    let mask = u32_lit(fb, mask);
    fb.binary(B::And, shifted, mask)
}

/// Whether `word & mask == value`.
pub(super) fn field_is(fb: &mut Emitter, word: Expr, mask: u32, value: u32) -> Expr {
    let bits = field(fb, word, 0, mask);
    let value = u32_lit(fb, value);
    fb.binary(B::Equal, bits, value)
}

/// Whether the `u32` `value` is one of `candidates`.
pub(super) fn is_one_of(fb: &mut Emitter, value: Expr, candidates: &[u32]) -> Expr {
    let mut any = bool_lit(fb, false);
    for &c in candidates {
        let c = u32_lit(fb, c);
        let equal = fb.binary(B::Equal, value, c);
        any = fb.binary(B::LogicalOr, any, equal);
    }
    any
}

/// `NaN` lanes of a float value replaced by 0.
pub(super) fn nan_to_zero(fb: &mut Emitter, value: Expr, zero: Expr) -> Expr {
    let nan = fb.add(E::Relational {
        fun: naga::RelationalFunction::IsNan,
        argument: value,
    });
    fb.select(nan, zero, value)
}

/// The first of `choices` whose condition holds, else `otherwise`: the
/// spec's `if / else if` chains as one value.
pub(super) fn first_of(fb: &mut Emitter, choices: &[(Expr, Expr)], otherwise: Expr) -> Expr {
    choices
        .iter()
        .rev()
        .fold(otherwise, |rest, &(condition, value)| {
            fb.select(condition, value, rest)
        })
}
