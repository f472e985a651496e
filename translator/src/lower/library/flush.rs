//! Float subnormals flushed where a built-in works on bits. A device that
//! does not report `CL_FP_DENORM` for `float` may flush subnormals to
//! zero, and the OpenCL-CTS then accepts a built-in's result for the
//! inputs as given or for the inputs (and result) flushed, nothing between.
//! A function written with selects, integer operations and comparisons
//! mixes the two where the driver flushes in some instructions and not in
//! others: on NVIDIA's, `fmax` of two subnormals compared them as zeros
//! and returned the smaller one unflushed, `nextafter(-0x1.5p-128, 1)`
//! stepped from a flushed zero to an unflushed `0x1p-149`. These built-ins
//! take their `float` operands flushed, and give their `float` results
//! flushed, wherever `float` subnormals are not kept.

use crate::builtins::Builtin;
use crate::diagnostic::Location;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::expressions::Operand;
use crate::lower::function::FnBuilder;
use crate::lower::naga_types::vector_size;
use crate::types::{Scalar, Type};
use naga::Handle;

/// The built-ins whose lowering reads or builds `float` bits directly.
const ON_BITS: &[Builtin] = &[
    Builtin::Fmax,
    Builtin::Fmin,
    Builtin::Maxmag,
    Builtin::Minmag,
    Builtin::Nextafter,
    Builtin::Ldexp,
    Builtin::Frexp,
    Builtin::Fract,
    Builtin::Remainder,
    Builtin::Remquo,
];

/// A `u32` constant with `lanes` lanes.
fn u32_splat(fb: &mut Emitter, v: u32, lanes: u8) -> Handle<naga::Expression> {
    let literal = fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
    match vector_size(lanes) {
        Some(size) => fb.add(naga::Expression::Splat {
            size,
            value: literal,
        }),
        None => literal,
    }
}

/// `v` reinterpreted as `kind` (float bits and back).
fn reinterpret(
    fb: &mut Emitter,
    v: Handle<naga::Expression>,
    kind: naga::ScalarKind,
) -> Handle<naga::Expression> {
    fb.add(naga::Expression::As {
        expr: v,
        kind,
        convert: None,
    })
}

/// `x` (a `float` scalar or vector of up to four lanes) with each
/// subnormal lane replaced by a zero of its sign, through its bits so
/// that no driver folds it away.
pub(super) fn flush_subnormals(
    fb: &mut Emitter,
    x: Handle<naga::Expression>,
    lanes: u8,
) -> Handle<naga::Expression> {
    use naga::BinaryOperator as B;
    let bits = reinterpret(fb, x, naga::ScalarKind::Uint);
    let magnitude_mask = u32_splat(fb, 0x7fff_ffff, lanes);
    let sign_mask = u32_splat(fb, 0x8000_0000, lanes);
    let smallest_normal = u32_splat(fb, 0x0080_0000, lanes);
    let magnitude = fb.binary(B::And, bits, magnitude_mask);
    let sign = fb.binary(B::And, bits, sign_mask);
    let subnormal = fb.binary(B::Less, magnitude, smallest_normal);
    let kept = fb.select(subnormal, sign, bits);
    reinterpret(fb, kept, naga::ScalarKind::Float)
}

/// `nextafter` from a subnormal `x` where subnormals are not kept: the
/// step from its flushed zero lands on a subnormal, which the result's
/// flush would make zero again, while the next `float` may be the
/// smallest normal one (from the largest subnormal). The OpenCL-CTS
/// accepts `0x1p-126` with the step's sign from any subnormal (flushed to
/// zero, the next representable `float` is the smallest normal one), so
/// that is the result; from an exact zero the step stays a subnormal and
/// is flushed, as OpenCL C 7.5.3 has it.
fn step_from_subnormal_to_normal(
    fb: &mut Emitter,
    x: Handle<naga::Expression>,
    step: Handle<naga::Expression>,
    lanes: u8,
) -> Handle<naga::Expression> {
    use naga::BinaryOperator as B;
    let x_bits = reinterpret(fb, x, naga::ScalarKind::Uint);
    let step_bits = reinterpret(fb, step, naga::ScalarKind::Uint);
    let magnitude_mask = u32_splat(fb, 0x7fff_ffff, lanes);
    let sign_mask = u32_splat(fb, 0x8000_0000, lanes);
    let smallest_normal = u32_splat(fb, 0x0080_0000, lanes);
    let zero = u32_splat(fb, 0, lanes);
    let x_magnitude = fb.binary(B::And, x_bits, magnitude_mask);
    let x_nonzero = fb.binary(B::NotEqual, x_magnitude, zero);
    let x_small = fb.binary(B::Less, x_magnitude, smallest_normal);
    let step_magnitude = fb.binary(B::And, step_bits, magnitude_mask);
    let moved = fb.binary(B::NotEqual, step_magnitude, zero);
    let into_subnormals = fb.binary(B::Less, step_magnitude, smallest_normal);
    let sign = fb.binary(B::And, step_bits, sign_mask);
    let normal = fb.binary(B::InclusiveOr, sign, smallest_normal);
    // Selects, not `&&`: naga has no logical operators on bool vectors.
    let bits = fb.select(into_subnormals, normal, step_bits);
    let bits = fb.select(moved, bits, step_bits);
    let bits = fb.select(x_small, bits, step_bits);
    let bits = fb.select(x_nonzero, bits, step_bits);
    reinterpret(fb, bits, naga::ScalarKind::Float)
}

/// The lanes of a `float` scalar or vector type; `None` for others.
fn float_lanes(ty: &Type) -> Option<u8> {
    match *ty {
        Type::Scalar(Scalar::Float) => Some(1),
        Type::Vector(Scalar::Float, n) if n <= 4 => Some(n),
        _ => None,
    }
}

impl ModuleBuilder<'_> {
    /// Whether `b` on `args` is one of [`ON_BITS`] on `float`s in a build
    /// that keeps no `float` subnormals.
    pub(super) fn flushes_float_bits(&self, fb: &FnBuilder, b: Builtin, args: &[Operand]) -> bool {
        ON_BITS.contains(&b)
            && !self.library.keeps_float_subnormals(self.caps)
            && args.first().and_then(|&a| float_lanes(&fb.ty(a))).is_some()
    }

    /// Built-in `b` (see [`Self::flushes_float_bits`]) on its `float`
    /// operands flushed, its `float` result flushed.
    pub(super) fn builtin_on_flushed(
        &mut self,
        fb: &mut FnBuilder,
        b: Builtin,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let mut flushed = Vec::with_capacity(args.len());
        let mut first = None;
        for &arg in args {
            let arg_ty = fb.ty(arg);
            flushed.push(match float_lanes(&arg_ty) {
                Some(lanes) => {
                    let value = self.plain(fb, arg)?;
                    first.get_or_insert(value);
                    Operand::Value(flush_subnormals(fb, value, lanes), arg_ty)
                }
                None => arg,
            });
        }
        let mut result = self.builtin(fb, b, &flushed, ty, location)?;
        if let (Builtin::Nextafter, Some(lanes), Some(x)) = (b, float_lanes(ty), first) {
            result = step_from_subnormal_to_normal(fb, x, result, lanes);
        }
        Ok(match float_lanes(ty) {
            Some(lanes) => flush_subnormals(fb, result, lanes),
            None => result,
        })
    }
}
