//! `vloadn`/`vstoren` and `vload_half`/`vstore_half` (OpenCL C 6.15.10):
//! vectors read and written element by element at `p + offset * n`, the
//! `half` forms converting with the rounding mode asked for.

use crate::diagnostic::Location;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::expressions::operators::extract_narrow;
use crate::lower::expressions::{wide, Operand, Value};
use crate::lower::function::FnBuilder;
use crate::lower::library::fp16;
use crate::lower::pointers::narrow::WordRun;
use crate::lower::pointers::Place;
use crate::types::{Scalar, Type};
use naga::Handle;

/// Where the 16 bits of one `half` of `vload_half`/`vstore_half` are.
enum HalfPlace {
    /// Element `index` (in halfs) of a word-viewed buffer.
    Word(Handle<naga::GlobalVariable>, Handle<naga::Expression>),
    /// A place of a `ushort` holding the bits.
    Bits(Place),
    /// A place of a `half` value.
    Value(Place),
}

/// The exact float value of the half whose bits are the low 16 of `bits`,
/// computed with integer operations. Unpacking the half instead lets a
/// driver fold `unpack(pack(x))` back to `x` (NVIDIA does), which hides
/// the rounding this is meant to observe.
fn half_bits_to_float(
    fb: &mut Emitter,
    bits: Handle<naga::Expression>,
) -> Handle<naga::Expression> {
    use naga::BinaryOperator as B;
    let lit = |fb: &mut Emitter, v: u32| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
    let (ten, mask5, mask10, sign_bit) =
        (lit(fb, 10), lit(fb, 0x1f), lit(fb, 0x3ff), lit(fb, 0x8000));
    let shifted = fb.binary(B::ShiftRight, bits, ten);
    let exponent = fb.binary(B::And, shifted, mask5);
    let mantissa = fb.binary(B::And, bits, mask10);
    let sign = fb.binary(B::And, bits, sign_bit);
    let sixteen = lit(fb, 16);
    let sign32 = fb.binary(B::ShiftLeft, sign, sixteen);
    // Normal: rebias the exponent (15 -> 127) and widen the mantissa.
    let rebias = lit(fb, 112);
    let biased = fb.binary(B::Add, exponent, rebias);
    let at23 = lit(fb, 23);
    let exponent32 = fb.binary(B::ShiftLeft, biased, at23);
    let at13 = lit(fb, 13);
    let mantissa32 = fb.binary(B::ShiftLeft, mantissa, at13);
    let normal = fb.binary(B::InclusiveOr, sign32, exponent32);
    let normal = fb.binary(B::InclusiveOr, normal, mantissa32);
    // Infinity and NaN: an infinity is enough, as NaN compares false.
    let infinity = lit(fb, 0x7f80_0000);
    let infinity = fb.binary(B::InclusiveOr, sign32, infinity);
    let all_ones = lit(fb, 0x1f);
    let is_special = fb.binary(B::Equal, exponent, all_ones);
    let float_bits = fb.select(is_special, infinity, normal);
    let wide = fb.add(naga::Expression::As {
        expr: float_bits,
        kind: naga::ScalarKind::Float,
        convert: None,
    });
    // Subnormal (and zero): mantissa * 2^-24, exactly.
    let m = fb.add(naga::Expression::As {
        expr: mantissa,
        kind: naga::ScalarKind::Float,
        convert: Some(4),
    });
    let scale = fb.add(naga::Expression::Literal(naga::Literal::F32(
        5.960_464_5e-8,
    )));
    let small = fb.binary(B::Multiply, m, scale);
    let negated = fb.unary(naga::UnaryOperator::Negate, small);
    let zero = lit(fb, 0);
    let negative = fb.binary(B::NotEqual, sign, zero);
    let small = fb.select(negative, negated, small);
    let is_small = fb.binary(B::Equal, exponent, zero);
    fb.select(is_small, small, wide)
}

/// The half bits of `value` under `rounding`, from `nearest`, its bits
/// rounded to nearest even (what the hardware conversion does). A directed
/// mode moves one step when the nearest half lies on the wrong side of the
/// value: halves are sign and magnitude, so adding or subtracting one in
/// the integer bits steps the magnitude, through subnormals, and from the
/// largest finite half to infinity (and back). NaN compares false and
/// stays as it is.
fn directed_half(
    fb: &mut Emitter,
    value: Handle<naga::Expression>,
    nearest: Handle<naga::Expression>,
    rounding: crate::builtins::Rounding,
) -> Handle<naga::Expression> {
    use crate::builtins::Rounding;
    use naga::BinaryOperator as B;
    if matches!(rounding, Rounding::Default | Rounding::Rte) {
        return nearest;
    }
    let back = half_bits_to_float(fb, nearest);
    let abs = |fb: &mut Emitter, arg| fb.math(naga::MathFunction::Abs, arg, None);
    let lit = |fb: &mut Emitter, v: u32| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
    let sign = lit(fb, 0x8000);
    let sign = fb.binary(B::And, nearest, sign);
    let zero = lit(fb, 0);
    let negative = fb.binary(B::NotEqual, sign, zero);
    let (up, down) = (lit(fb, 1), lit(fb, u32::MAX));
    let (wrong_side, step) = match rounding {
        Rounding::Rtz => {
            let (a, b) = (abs(fb, back), abs(fb, value));
            (fb.binary(B::Greater, a, b), down)
        }
        Rounding::Rtp => {
            let step = fb.select(negative, down, up);
            (fb.binary(B::Less, back, value), step)
        }
        _ => {
            let step = fb.select(negative, up, down);
            (fb.binary(B::Greater, back, value), step)
        }
    };
    let stepped = fb.binary(B::Add, nearest, step);
    fb.select(wrong_side, stepped, nearest)
}

impl ModuleBuilder<'_> {
    /// The element places `vloadn`/`vstoren` touch: `n` consecutive elements
    /// from `p + offset * n`, aligned to the element only (OpenCL C 6.15.10;
    /// `vload3` reads exactly three).
    fn vector_places(
        &mut self,
        fb: &mut FnBuilder,
        n: u8,
        stride: u8,
        offset: Operand,
        pointer: Operand,
        location: Location,
    ) -> LResult<Vec<Place>> {
        let element = self.pointee_of(fb, pointer).map_or(Type::Void, |t| t.ty);
        let location = fb.hir(pointer).map_or(location, |e| e.span.location());
        let p = self.pointer(fb, pointer)?;
        let offset = self.index_value(fb, offset)?;
        let width = fb.add(naga::Expression::Literal(naga::Literal::U32(u32::from(
            stride,
        ))));
        let scaled = fb.binary(naga::BinaryOperator::Multiply, offset, width);
        let first = fb.binary(naga::BinaryOperator::Add, p.index, scaled);
        let mut places = Vec::with_capacity(usize::from(n));
        for k in 0..u32::from(n) {
            let k = fb.add(naga::Expression::Literal(naga::Literal::U32(k)));
            let index = fb.binary(naga::BinaryOperator::Add, first, k);
            places.push(self.element_place(fb, p.at(index), &element, location)?);
        }
        Ok(places)
    }

    pub(in crate::lower) fn vload(
        &mut self,
        fb: &mut FnBuilder,
        n: u8,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Value> {
        let places = self.vector_places(fb, n, n, args[0], args[1], location)?;
        let s = ty.element().unwrap_or(Scalar::Float);
        if let Some(run) = WordRun::of(&places) {
            let lanes = self.load_word_run(fb, &run);
            return Ok(Value::Plain(self.gather(fb, s, &lanes, location)?));
        }
        let mut lanes = Vec::new();
        for place in places {
            match self.load(fb, place, location)? {
                Value::Plain(value) => lanes.push(wide::LaneRef {
                    value,
                    width: 1,
                    lane: 0,
                }),
                _ => return Err(self.error(location, "vload of pointers")),
            }
        }
        Ok(Value::Plain(self.gather(fb, s, &lanes, location)?))
    }

    pub(in crate::lower) fn vstore(
        &mut self,
        fb: &mut FnBuilder,
        n: u8,
        args: &[Operand],
        location: Location,
    ) -> LResult<()> {
        let data = self.plain(fb, args[0])?;
        let places = self.vector_places(fb, n, n, args[1], args[2], location)?;
        if let Some(run) = WordRun::of(&places) {
            let lanes: Vec<_> = (0..n).map(|k| fb.lane(data, n, k)).collect();
            return self.store_word_run(fb, &run, &lanes, location);
        }
        for (k, place) in places.into_iter().enumerate() {
            let lane = fb.lane(data, n, k as u8);
            self.store(fb, place, Value::Plain(lane), location, None)?;
        }
        Ok(())
    }

    /// The `half`s that `vload_half`/`vstore_half` touch, each as the
    /// place of its 16 bits: a word-viewed buffer's (there are no `half`
    /// values without cl_khr_fp16) or, in other memory reached through a
    /// cast, the `ushort` at the same bytes; or a `half` variable's own
    /// place where the memory holds `half` values.
    fn half_places(
        &mut self,
        fb: &mut FnBuilder,
        n: u8,
        stride: u8,
        offset: Operand,
        pointer: Operand,
        location: Location,
    ) -> LResult<Vec<HalfPlace>> {
        self.vector_places(fb, n, stride, offset, pointer, location)?
            .into_iter()
            .map(|place| match place {
                Place::Narrow { global, index, .. } => Ok(HalfPlace::Word(global, index)),
                Place::Cast {
                    base, byte, lanes, ..
                } => Ok(HalfPlace::Bits(Place::Cast {
                    base,
                    byte,
                    scalar: Scalar::UShort,
                    lanes,
                })),
                // A `half` variable: there are `half` values.
                place @ Place::Memory(_) => Ok(HalfPlace::Value(place)),
                _ => Err(self.error(
                    location,
                    "vload_half/vstore_half on this memory are not supported yet by this translator",
                )),
            })
            .collect()
    }

    /// `vload_halfn`: halfs widened to floats, exactly (every half is a
    /// float).
    pub(in crate::lower) fn vload_half(
        &mut self,
        fb: &mut FnBuilder,
        n: u8,
        stride: u8,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Value> {
        let mut lanes = Vec::new();
        for place in self.half_places(fb, n, stride, args[0], args[1], location)? {
            let bits = match place {
                HalfPlace::Word(global, index) => {
                    let (pointer, bit, _) = self.narrow_word(fb, global, index, Scalar::UShort);
                    let word = fb.add(naga::Expression::Load { pointer });
                    extract_narrow(fb, word, bit, Scalar::UShort)
                }
                HalfPlace::Bits(place) => match self.load(fb, place, location)? {
                    Value::Plain(bits) => bits,
                    _ => return Err(self.error(location, "vload_half of pointers")),
                },
                HalfPlace::Value(place) => {
                    let Value::Plain(half) = self.load(fb, place, location)? else {
                        return Err(self.error(location, "vload_half of pointers"));
                    };
                    // Every half is a float: the conversion is exact.
                    lanes.push(fb.add(naga::Expression::As {
                        expr: half,
                        kind: naga::ScalarKind::Float,
                        convert: Some(4),
                    }));
                    continue;
                }
            };
            let pair = fb.add(naga::Expression::Math {
                fun: naga::MathFunction::Unpack2x16float,
                arg: bits,
                arg1: None,
                arg2: None,
                arg3: None,
            });
            lanes.push(fb.add(naga::Expression::AccessIndex {
                base: pair,
                index: 0,
            }));
        }
        let lanes: Vec<_> = lanes
            .into_iter()
            .map(|value| wide::LaneRef {
                value,
                width: 1,
                lane: 0,
            })
            .collect();
        let s = ty.element().unwrap_or(Scalar::Float);
        Ok(Value::Plain(self.gather(fb, s, &lanes, location)?))
    }

    /// `vstore_halfn`: floats narrowed to halfs, rounding to nearest even;
    /// the directed roundings are not built yet.
    pub(in crate::lower) fn vstore_half(
        &mut self,
        fb: &mut FnBuilder,
        n: u8,
        stride: u8,
        rounding: crate::builtins::Rounding,
        args: &[Operand],
        location: Location,
    ) -> LResult<()> {
        let data = self.plain(fb, args[0])?;
        let float_ty = match &fb.ty(args[0]) {
            Type::Vector(_, m) => Type::Vector(Scalar::Float, *m),
            _ => Type::FLOAT,
        };
        let data = self.convert(fb, data, &fb.ty(args[0]), &float_ty, location)?;
        let vec2 = self.add_type(naga::TypeInner::Vector {
            size: naga::VectorSize::Bi,
            scalar: naga::Scalar::F32,
        });
        let places = self.half_places(fb, n, stride, args[1], args[2], location)?;
        for (k, place) in places.into_iter().enumerate() {
            let lane = fb.lane(data, n, k as u8);
            let zero = fb.add(naga::Expression::Literal(naga::Literal::F32(0.0)));
            let pair = fb.add(naga::Expression::Compose {
                ty: vec2,
                components: vec![lane, zero],
            });
            let bits = fb.add(naga::Expression::Math {
                fun: naga::MathFunction::Pack2x16float,
                arg: pair,
                arg1: None,
                arg2: None,
                arg3: None,
            });
            let bits = directed_half(fb, lane, bits, rounding);
            match place {
                HalfPlace::Word(global, index) => {
                    self.store_narrow(fb, global, index, Scalar::UShort, bits, location)?
                }
                HalfPlace::Bits(place) => {
                    self.store(fb, place, Value::Plain(bits), location, None)?
                }
                HalfPlace::Value(place) => {
                    let half = fp16::bits_to_half(fb, bits);
                    self.store(fb, place, Value::Plain(half), location, None)?
                }
            }
        }
        Ok(())
    }
}
