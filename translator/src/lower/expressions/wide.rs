//! 8- and 16-element vectors. naga's vectors stop at 4 lanes, so a vector
//! of `n > 4` lanes is held as `array<vec4<T>, n / 4>`: element-wise
//! operations run once per 4-lane part on the hardware's vectors, the
//! array's layout (a part every 4 elements) is the OpenCL one wherever the
//! host sees the bytes, and a lane is reached by its constant part and
//! lane indices. Operations that are not element-wise (swizzles, vector
//! literals, loads and stores lane by lane) gather lanes with
//! [`ModuleBuilder::gather`], which keeps whole parts where it can.
//!
//! Built-in functions on wide vectors are split at the call: each argument
//! is cut into parts (scalars are shared by every part), the 4-lane
//! lowering of the built-in runs per part, and the parts are joined; `any`
//! and `all` combine their per-part answers. An output-pointer argument
//! (`fract`, `frexp`, `sincos`...) is evaluated once and each part's
//! result is stored through it cast to a pointer to the part type, offset
//! by the part's index.

use crate::builtins::Builtin;
use crate::diagnostic::Location;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::expressions::{Operand, Value};
use crate::lower::function::FnBuilder;
use crate::lower::naga_types::{naga_scalar, vector_size};
use crate::types::{Pointee, Scalar, Type};
use naga::Handle;

/// Lanes per part of a wide vector.
pub(in crate::lower) const PART_LANES: u8 = 4;

/// Whether `ty` is a vector naga cannot hold as one vector.
pub(in crate::lower) fn is_wide(ty: &Type) -> bool {
    matches!(ty, Type::Vector(_, n) if *n > PART_LANES)
}

/// The type each part of `ty` has: a 4-vector for a wide vector, the type
/// itself otherwise (a scalar operand is shared by every part).
pub(super) fn part_type(ty: &Type) -> Type {
    match ty {
        Type::Vector(s, n) if *n > PART_LANES => Type::Vector(*s, PART_LANES),
        t => *t,
    }
}

/// How many parts a value of `ty` is split into.
fn part_count(ty: &Type) -> u32 {
    match ty {
        Type::Vector(_, n) if *n > PART_LANES => u32::from(*n / PART_LANES),
        _ => 1,
    }
}

/// Lanes of a scalar (1) or vector value.
pub(in crate::lower) fn width_of(ty: &Type) -> u8 {
    match ty {
        Type::Vector(_, n) => *n,
        _ => 1,
    }
}

/// One lane of some value: the value, its width in lanes, and the lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::lower) struct LaneRef {
    pub(in crate::lower) value: Handle<naga::Expression>,
    pub(in crate::lower) width: u8,
    pub(in crate::lower) lane: u8,
}

impl Emitter {
    /// Lane `k` of `v`, a value of `width` lanes (1: a scalar); given a
    /// pointer to such a value, a pointer to the lane.
    pub(in crate::lower) fn lane(
        &mut self,
        v: Handle<naga::Expression>,
        width: u8,
        k: u8,
    ) -> Handle<naga::Expression> {
        match width {
            1 => v,
            w if w > PART_LANES => {
                let part = self.add(naga::Expression::AccessIndex {
                    base: v,
                    index: u32::from(k / PART_LANES),
                });
                self.add(naga::Expression::AccessIndex {
                    base: part,
                    index: u32::from(k % PART_LANES),
                })
            }
            _ => self.add(naga::Expression::AccessIndex {
                base: v,
                index: u32::from(k),
            }),
        }
    }

    /// Part `p` of a value of `ty` (the value itself when it is not wide).
    fn part(&mut self, v: Handle<naga::Expression>, ty: &Type, p: u32) -> Handle<naga::Expression> {
        if is_wide(ty) {
            self.add(naga::Expression::AccessIndex { base: v, index: p })
        } else {
            v
        }
    }
}

impl ModuleBuilder<'_> {
    /// The naga type of a wide vector: an array of 4-vector parts.
    pub(in crate::lower) fn wide_type(&mut self, s: Scalar, n: u8) -> Handle<naga::Type> {
        let scalar = naga_scalar(s);
        let base = self.add_type(naga::TypeInner::Vector {
            size: naga::VectorSize::Quad,
            scalar,
        });
        self.add_type(naga::TypeInner::Array {
            base,
            size: naga::ArraySize::Constant(
                std::num::NonZeroU32::new(u32::from(n / PART_LANES)).expect("wide width"),
            ),
            stride: u32::from(scalar.width) * u32::from(PART_LANES),
        })
    }

    /// `f` applied part by part to `operands` (each with its type), joined
    /// into a value of `result`, which has as many lanes as the widest
    /// operand. `f` receives the part operands and the part type of
    /// `result`.
    pub(in crate::lower) fn per_part(
        &mut self,
        fb: &mut FnBuilder,
        result: &Type,
        operands: &[(Handle<naga::Expression>, &Type)],
        location: Location,
        mut f: impl FnMut(
            &mut Self,
            &mut FnBuilder,
            &[Handle<naga::Expression>],
            &Type,
        ) -> LResult<Handle<naga::Expression>>,
    ) -> LResult<Handle<naga::Expression>> {
        let part_ty = part_type(result);
        let mut parts = Vec::new();
        for p in 0..part_count(result) {
            let args: Vec<_> = operands.iter().map(|(h, ty)| fb.part(*h, ty, p)).collect();
            parts.push(f(self, fb, &args, &part_ty)?);
        }
        self.join(fb, result, parts, location)
    }

    /// A wide vector of type `ty` from its parts.
    fn join(
        &mut self,
        fb: &mut FnBuilder,
        ty: &Type,
        parts: Vec<Handle<naga::Expression>>,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        if !is_wide(ty) {
            return parts
                .into_iter()
                .next()
                .ok_or_else(|| self.error(location, "internal compiler error: no parts"));
        }
        let ty = self.value_type(ty, location)?;
        Ok(fb.add(naga::Expression::Compose {
            ty,
            components: parts,
        }))
    }

    /// A value of element type `s` made of `lanes` (1: the scalar itself),
    /// taking whole 4-vectors or parts where the lanes line up with one.
    pub(in crate::lower) fn gather(
        &mut self,
        fb: &mut FnBuilder,
        s: Scalar,
        lanes: &[LaneRef],
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let n = lanes.len() as u8;
        if n == 1 {
            let l = lanes[0];
            return Ok(fb.lane(l.value, l.width, l.lane));
        }
        if n > PART_LANES {
            let mut parts = Vec::new();
            for group in lanes.chunks(usize::from(PART_LANES)) {
                parts.push(self.gather(fb, s, group, location)?);
            }
            return self.join(fb, &Type::Vector(s, n), parts, location);
        }
        let first = lanes[0];
        let same_source = lanes.iter().all(|l| l.value == first.value);
        let in_order = lanes
            .iter()
            .enumerate()
            .all(|(i, l)| usize::from(l.lane) == usize::from(first.lane) + i);
        if same_source && in_order && first.lane == 0 && n == first.width {
            return Ok(first.value);
        }
        // Lanes all in one 4-lane part (or one vector of up to 4): a swizzle.
        let part_of = |l: &LaneRef| (l.width > PART_LANES).then_some(l.lane / PART_LANES);
        if same_source && lanes.iter().all(|l| part_of(l) == part_of(&first)) {
            let (vector, offset) = match part_of(&first) {
                Some(p) => (
                    fb.add(naga::Expression::AccessIndex {
                        base: first.value,
                        index: u32::from(p),
                    }),
                    p * PART_LANES,
                ),
                None => (first.value, 0),
            };
            let vector_width = first.width.min(PART_LANES);
            if in_order && first.lane == offset && n == vector_width {
                return Ok(vector);
            }
            if vector_width > 1 {
                let mut pattern = [naga::SwizzleComponent::X; 4];
                for (slot, l) in pattern.iter_mut().zip(lanes) {
                    *slot = naga::SwizzleComponent::XYZW[usize::from(l.lane - offset)];
                }
                return Ok(fb.add(naga::Expression::Swizzle {
                    size: vector_size(n).expect("2 to 4 lanes"),
                    vector,
                    pattern,
                }));
            }
        }
        let components = lanes
            .iter()
            .map(|l| fb.lane(l.value, l.width, l.lane))
            .collect();
        let ty = self.value_type(&Type::Vector(s, n), location)?;
        Ok(fb.add(naga::Expression::Compose { ty, components }))
    }

    /// The lanes of `v`, a value of `ty`, as references for [`Self::gather`].
    pub(super) fn lanes_of(v: Handle<naga::Expression>, ty: &Type) -> Vec<LaneRef> {
        let width = width_of(ty);
        (0..width)
            .map(|lane| LaneRef {
                value: v,
                width,
                lane,
            })
            .collect()
    }

    /// A built-in call with a wide argument or result, split into parts.
    /// Each argument is evaluated once, in order; the built-in is then
    /// lowered per part on the arguments' parts (for an output pointer, a
    /// pointer to each part of what it points to), so every 4-lane
    /// lowering applies unchanged.
    pub(in crate::lower) fn wide_builtin(
        &mut self,
        fb: &mut FnBuilder,
        b: Builtin,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Value> {
        let combine = match b {
            Builtin::Any => Some(naga::BinaryOperator::InclusiveOr),
            Builtin::All => Some(naga::BinaryOperator::And),
            _ => None,
        };
        let parts = args
            .iter()
            .map(|&a| part_count(&fb.ty(a)))
            .chain([part_count(ty)])
            .max()
            .unwrap_or(1);
        if !is_wide(ty) && combine.is_none() && *ty != Type::Void {
            return Err(self.error(
                location,
                format!("built-in function '{b}' on 8- and 16-element vectors is not supported yet by this translator"),
            ));
        }
        // The parts of each argument (or the whole of a non-wide one).
        let mut split: Vec<Vec<Operand>> = Vec::with_capacity(args.len());
        for &a in args {
            if let Some(pointee) = self.pointee_of(fb, a) {
                split.push(self.pointer_parts(fb, a, pointee, location)?);
                continue;
            }
            let a_ty = fb.ty(a);
            let v = self.plain(fb, a)?;
            let part_ty = part_type(&a_ty);
            let parts = (0..part_count(&a_ty))
                .map(|p| Operand::Value(fb.part(v, &a_ty, p), part_ty))
                .collect();
            split.push(parts);
        }
        let part_result = part_type(ty);
        let mut results = Vec::with_capacity(parts as usize);
        for p in 0..parts as usize {
            let part_args: Vec<Operand> =
                split.iter().map(|s| *s.get(p).unwrap_or(&s[0])).collect();
            match self.builtin_on(fb, b, &part_args, &part_result, location)? {
                Value::Plain(h) => results.push(h),
                _ => {
                    let ty = self.display(&part_result);
                    return Err(self.error(location, format!("expected a value of type '{ty}'")));
                }
            }
        }
        if let Some(op) = combine {
            let mut acc = results[0];
            for &r in &results[1..] {
                acc = fb.binary(op, acc, r);
            }
            return Ok(Value::Plain(acc));
        }
        Ok(Value::Plain(self.join(fb, ty, results, location)?))
    }

    /// The per-part pointers of an output-pointer argument `a` (pointing
    /// to `pointee`): the pointer is evaluated once, and part `p` is it
    /// seen as pointing to the part type, moved by `p` parts.
    fn pointer_parts(
        &mut self,
        fb: &mut FnBuilder,
        a: Operand,
        pointee: Pointee,
        location: Location,
    ) -> LResult<Vec<Operand>> {
        let value = self.pointer(fb, a)?;
        let part = Pointee {
            ty: part_type(&pointee.ty),
            ..pointee
        };
        let mut parts = Vec::new();
        for p in 0..part_count(&pointee.ty) {
            let cast = self.cast_pointer(fb, value, &pointee.ty, &part.ty, location)?;
            let offset = fb.add(naga::Expression::Literal(naga::Literal::U32(p)));
            let index = fb.binary(naga::BinaryOperator::Add, cast.index, offset);
            parts.push(Operand::Pointer(cast.at(index), part));
        }
        Ok(parts)
    }
}

/// Whether a built-in call is lowered by [`ModuleBuilder::wide_builtin`]:
/// a wide argument or result, for a built-in whose 4-lane lowering is
/// element-wise. The loads, stores and `as_type` have their own
/// lane-by-lane paths; `shuffle` moves lanes across parts, so splitting
/// it would be wrong.
pub(in crate::lower) fn splits_builtin(
    fb: &FnBuilder,
    b: Builtin,
    args: &[Operand],
    ty: &Type,
) -> bool {
    let own_path = matches!(
        b,
        Builtin::Shuffle
            | Builtin::Shuffle2
            | Builtin::Vload(_)
            | Builtin::Vstore(_)
            | Builtin::VloadHalf(_)
            | Builtin::VloadaHalf(_)
            | Builtin::VstoreHalf(..)
            | Builtin::VstoreaHalf(..)
            | Builtin::As(..)
    );
    !own_path && (is_wide(ty) || args.iter().any(|&a| is_wide(&fb.ty(a))))
}
