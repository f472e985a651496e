//! `shuffle(x, mask)` and `shuffle2(x, y, mask)` (OpenCL C 6.15.16.9):
//! lane `i` of the result is lane `mask[i]` of `x` (or of the
//! concatenation of `x` and `y`), only the low bits that can index it
//! counting. A constant mask becomes a gather of known lanes; a mask known
//! only at run time indexes the inputs through local variables, the one
//! place naga allows a dynamic lane index.

use crate::diagnostic::Location;
use crate::hir::ExprKind as H;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::expressions::{wide, Operand};
use crate::lower::function::FnBuilder;
use crate::lower::naga_types::naga_scalar;
use crate::lower::pointers::places;
use crate::types::{Scalar, Type};
use naga::{BinaryOperator as B, Handle, Span};

impl ModuleBuilder<'_> {
    pub(in crate::lower) fn shuffle(
        &mut self,
        fb: &mut FnBuilder,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let (Some((mask, inputs)), Some(s)) = (args.split_last(), ty.element()) else {
            return Err(self.error(location, "internal compiler error: shuffle without a mask"));
        };
        let width = wide::width_of(&fb.ty(inputs[0]));
        let mut values = Vec::with_capacity(inputs.len());
        for &x in inputs {
            values.push(self.plain(fb, x)?);
        }
        // Lanes of the inputs taken together; a power of two.
        let total = u64::from(width) * inputs.len() as u64;
        let n = wide::width_of(ty);
        if let Some(indices) = constant_lanes(fb, *mask) {
            let lanes: Vec<_> = indices
                .iter()
                .map(|&m| {
                    let k = (m % total) as u8;
                    wide::LaneRef {
                        value: values[usize::from(k / width)],
                        width,
                        lane: k % width,
                    }
                })
                .collect();
            return self.gather(fb, s, &lanes, location);
        }
        let m = self.plain(fb, mask)?;
        let naga_ty = self.value_type(&fb.ty(inputs[0]), location)?;
        let mut variables = Vec::with_capacity(values.len());
        for value in values {
            let var = fb.function.local_variables.append(
                naga::LocalVariable {
                    name: None,
                    ty: naga_ty,
                    init: None,
                },
                Span::UNDEFINED,
            );
            let pointer = fb.add(naga::Expression::LocalVariable(var));
            fb.push(naga::Statement::Store { pointer, value });
            variables.push(var);
        }
        let mask_width = naga_scalar(fb.ty(*mask).element().unwrap_or(Scalar::UInt)).width;
        let u32_lit =
            |fb: &mut Emitter, v: u32| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
        let mut lanes = Vec::with_capacity(usize::from(n));
        for i in 0..n {
            let mut index = fb.lane(m, n, i);
            if mask_width == 8 {
                index = fb.add(naga::Expression::As {
                    expr: index,
                    kind: naga::ScalarKind::Uint,
                    convert: Some(4),
                });
            }
            let within = u32_lit(fb, u32::from(width) - 1);
            let lane = fb.binary(B::And, index, within);
            let mut picked = None;
            for (k, &var) in variables.iter().enumerate() {
                let base = fb.add(naga::Expression::LocalVariable(var));
                let pointer = places::dynamic_lane_pointer(fb, base, width, lane);
                let value = fb.add(naga::Expression::Load { pointer });
                picked = Some(match picked {
                    None => value,
                    Some(from_x) => {
                        // shuffle2: the next bit up chooses y.
                        let bit = u32_lit(fb, u32::from(width) * k as u32);
                        let set = fb.binary(B::And, index, bit);
                        let zero = u32_lit(fb, 0);
                        let from_y = fb.binary(B::NotEqual, set, zero);
                        fb.select(from_y, value, from_x)
                    }
                });
            }
            lanes.push(wide::LaneRef {
                value: picked.expect("an input"),
                width: 1,
                lane: 0,
            });
        }
        self.gather(fb, s, &lanes, location)
    }
}

/// The lanes of a constant integer vector (a literal, a splat or a vector
/// literal of constants), or `None`.
fn constant_lanes(fb: &FnBuilder, mask: Operand) -> Option<Vec<u64>> {
    let e = fb.hir(mask)?;
    let n = usize::from(wide::width_of(&e.ty));
    match e.kind {
        H::Int(bits) => Some(vec![bits; n]),
        H::Splat(x) => match fb.expr(x).kind {
            H::Int(bits) => Some(vec![bits; n]),
            _ => None,
        },
        H::VectorLiteral(ref parts) => {
            let mut lanes = Vec::with_capacity(n);
            for &p in parts {
                lanes.extend(constant_lanes(fb, p.into())?);
            }
            Some(lanes)
        }
        _ => None,
    }
}
