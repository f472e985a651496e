//! `shuffle(x, mask)` and `shuffle2(x, y, mask)` (OpenCL C 6.15.16.9):
//! lane `i` of the result is lane `mask[i]` of `x` (or of the
//! concatenation of `x` and `y`), only the low bits that can index it
//! counting. A constant mask becomes a gather of known lanes. A mask known
//! only at run time picks each result lane without private memory, by a
//! tree of selects over every lane of the inputs, one round per bit of the
//! index. Dynamic extracts from vector values would be shorter SPIR-V, but
//! lavapipe compiles them far slower: a kernel of 32 shuffles of `int`
//! vectors took 30 s with them and 4.6 s with selects on Mesa 22.3 (154 s
//! and 19 s on Mesa 25.0). Spilling the inputs to a local array instead
//! would cost up to 256 bytes of private memory per call, and kernels with
//! dozens of calls outgrow what a CPU device gives a work-item.

use crate::diagnostic::Location;
use crate::hir::ExprKind as H;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::expressions::{wide, Operand};
use crate::lower::function::FnBuilder;
use crate::lower::naga_types::naga_scalar;
use crate::types::{Scalar, Type};
use naga::{BinaryOperator as B, Handle};

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
        // The inputs' 4-lane parts (or each input whole, when it has at
        // most 4 lanes), in lane order: lane `k` of the inputs taken
        // together is lane `k % part_width` of part `k / part_width`.
        let part_width = width.min(wide::PART_LANES);
        let mut parts = Vec::new();
        for &value in &values {
            if wide::is_wide(&fb.ty(inputs[0])) {
                for p in 0..width / wide::PART_LANES {
                    parts.push(fb.add(naga::Expression::AccessIndex {
                        base: value,
                        index: u32::from(p),
                    }));
                }
            } else {
                parts.push(value);
            }
        }
        let mask_width = naga_scalar(fb.ty(*mask).element().unwrap_or(Scalar::UInt)).width;
        let u32_lit =
            |fb: &mut Emitter, v: u32| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
        // Every lane of the inputs, in order, extracted once for all the
        // result's lanes.
        let all_lanes: Vec<_> = parts
            .iter()
            .flat_map(|&base| (0..u32::from(part_width)).map(move |lane| (base, lane)))
            .map(|(base, index)| fb.add(naga::Expression::AccessIndex { base, index }))
            .collect();
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
            // Each round halves the candidates by one bit of the index,
            // lowest first; bits above the inputs' lanes do not count.
            let mut candidates = all_lanes.clone();
            let mut bit = 1;
            while candidates.len() > 1 {
                let mask_bit = u32_lit(fb, bit);
                let set = fb.binary(B::And, index, mask_bit);
                let zero = u32_lit(fb, 0);
                let upper = fb.binary(B::NotEqual, set, zero);
                candidates = candidates
                    .chunks(2)
                    .map(|pair| fb.select(upper, pair[1], pair[0]))
                    .collect();
                bit <<= 1;
            }
            lanes.push(wide::LaneRef {
                value: candidates[0],
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
