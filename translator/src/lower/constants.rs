//! Literals and constants: C values of a type as naga literals, zero
//! values, and scalars splatted to vectors.

use crate::diagnostic::Location;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::expressions::wide;
use crate::lower::function::FnBuilder;
use crate::lower::naga_types::{naga_scalar, vector_size};
use crate::types::{Scalar, Type};
use naga::Handle;

pub(super) fn literal(s: Scalar, bits: u64) -> naga::Literal {
    match naga_scalar(s) {
        naga::Scalar::BOOL => naga::Literal::Bool(bits != 0),
        naga::Scalar::I32 => naga::Literal::I32(crate::literal::sign_extend(bits, s) as i32),
        naga::Scalar::U32 => naga::Literal::U32(bits as u32),
        naga::Scalar::I64 => naga::Literal::I64(bits as i64),
        naga::Scalar::F32 => naga::Literal::F32(bits as i64 as f32),
        naga::Scalar::F64 => naga::Literal::F64(bits as i64 as f64),
        naga::Scalar::F16 => naga::Literal::F16(::half::f16::from_f64(bits as i64 as f64)),
        _ => naga::Literal::U64(bits),
    }
}

/// The literal of register type `scalar` with bits `v` (truncated to its
/// width): a bit pattern, where [`literal`] makes a value of a C type.
pub(super) fn register_literal(scalar: naga::Scalar, v: u64) -> naga::Literal {
    match scalar {
        naga::Scalar::I32 => naga::Literal::I32(v as i32),
        naga::Scalar::I64 => naga::Literal::I64(v as i64),
        naga::Scalar::U64 => naga::Literal::U64(v),
        _ => naga::Literal::U32(v as u32),
    }
}

pub(super) fn float_literal(s: Scalar, v: f64) -> naga::Literal {
    match s {
        Scalar::Double => naga::Literal::F64(v),
        // Rounded to nearest even, as a C conversion of the value would.
        Scalar::Half => naga::Literal::F16(::half::f16::from_f64(v)),
        _ => naga::Literal::F32(v as f32),
    }
}

impl ModuleBuilder<'_> {
    pub(super) fn zero(
        &mut self,
        fb: &mut FnBuilder,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let t = self.value_type(ty, location)?;
        Ok(fb.add(naga::Expression::ZeroValue(t)))
    }

    pub(super) fn constant(
        &mut self,
        fb: &mut FnBuilder,
        ty: &Type,
        bits: u64,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let s = ty.element().unwrap_or(Scalar::Int);
        let lit = fb.add(naga::Expression::Literal(literal(s, bits)));
        self.splat_to(fb, lit, ty, location)
    }

    /// The float constant `v` of the element type of `ty`, splat to it.
    pub(super) fn float_constant(
        &mut self,
        fb: &mut FnBuilder,
        ty: &Type,
        v: f64,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let s = ty.element().unwrap_or(Scalar::Float);
        let lit = fb.add(naga::Expression::Literal(float_literal(s, v)));
        self.splat_to(fb, lit, ty, location)
    }

    pub(super) fn splat_to(
        &mut self,
        fb: &mut FnBuilder,
        scalar: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        Ok(match ty {
            Type::Vector(s, n) if wide::is_wide(ty) => {
                let part = fb.add(naga::Expression::Splat {
                    size: naga::VectorSize::Quad,
                    value: scalar,
                });
                let ty = self.wide_type(*s, *n);
                let components = vec![part; usize::from(*n / wide::PART_LANES)];
                fb.add(naga::Expression::Compose { ty, components })
            }
            Type::Vector(_, n) => {
                let size = vector_size(*n)
                    .ok_or_else(|| self.error(location, "unsupported vector width"))?;
                fb.add(naga::Expression::Splat {
                    size,
                    value: scalar,
                })
            }
            _ => scalar,
        })
    }
}
