//! Pointer casts on `__local`, `__constant` and private memory: `(float4 *)`
//! of a `__local float` array, `*(uint *)&f` of a private float, a
//! `__constant` table read as bytes.
//!
//! Buffers get a typed view per pointee type (see `views.rs`); other memory
//! is one naga variable of one type. So a cast pointer into it keeps the
//! object (a [`CastBase`]) and reads or writes the bytes it designates
//! through the object's own scalars (its *units*): a wider value gathers
//! several units, a narrower one shifts and masks within one unit, both in
//! little-endian order as the host lays them out. The pointer's index
//! still counts elements of its pointee type; its byte offset is the index
//! times the pointee's size.
//!
//! Writing a value narrower than the unit is a read-modify-write of the
//! unit: right in private memory, but it would lose other work-items'
//! writes to the unit's other bytes in `__local` memory, so there it is
//! two atomics on a 32-bit integer unit. naga has atomics on no other
//! `__local` type, so a `__local` variable of another element type whose
//! address the kernel casts to a narrower pointee (see [`crate::analysis::KernelFacts::word_locals`])
//! is held as `u32` words, a byte image (see `records.rs`), and its cast
//! pointers use the words as units.
//!
//! naga's types do not hold every byte of an object either: a 3-vector
//! has no fourth lane for its padding (`sizeof(float3) == 16`), a `bool`
//! is no byte. Objects a cast reaches with such bytes, and objects a cast
//! sees as a struct, union or `bool`, are held as words too, decided by
//! the analysis (`FunctionFacts::word_privates`, `KernelFacts::word_locals`):
//! their padding is written and read back as the host's would be, and a
//! struct read through the cast is a byte image's place at the pointer's
//! byte. Only program-scope `__constant` 3-vectors remain as naga holds
//! them: read-only, their padding reads as the zero C initialises it to.

use crate::diagnostic::Location;
use crate::hir::FunctionId;
use crate::lower::atomics::float_words;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::expressions::operators::extract_narrow;
use crate::lower::expressions::wide;
use crate::lower::function::FnBuilder;
use crate::lower::library::fp16;
use crate::lower::naga_types::naga_scalar;
use crate::lower::pointers::{places, Place, Root};
use crate::types::{Scalar, Type};
use naga::Handle;

/// An object whose address was cast: `base` (a `__local` or `__constant`
/// global, or a private variable, never a buffer) and its C element type
/// (a scalar or vector; the object is one of them or an array of them).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct CastBase {
    pub(in crate::lower) base: Root,
    pub(in crate::lower) element: Type,
    /// The object is held as `u32` words (a byte image of its elements):
    /// its units are the words, not its elements' scalars.
    pub(in crate::lower) words: bool,
}

/// A `u32` literal.
fn u32_lit(fb: &mut Emitter, v: u32) -> Handle<naga::Expression> {
    fb.add(naga::Expression::Literal(naga::Literal::U32(v)))
}

/// `value` (a `u32` or `u64`) reinterpreted or converted as `kind`,
/// `convert` as in `naga::Expression::As`.
fn retype(
    fb: &mut Emitter,
    value: Handle<naga::Expression>,
    kind: naga::ScalarKind,
    convert: Option<u8>,
) -> Handle<naga::Expression> {
    fb.add(naga::Expression::As {
        expr: value,
        kind,
        convert,
    })
}

impl ModuleBuilder<'_> {
    /// The root a pointer into `root` (pointing at `from`s) has once cast
    /// to point at `to`s, where `root` is not a buffer view; `function`
    /// is the function the pointer is in.
    pub(super) fn cast_memory_root(
        &mut self,
        function: Option<FunctionId>,
        root: Root,
        from: &Type,
        to: &Type,
        location: Location,
    ) -> LResult<Root> {
        // Held as words: `__local` memory narrow stores reach, and records
        // held as byte images (whose members' addresses are taken:
        // `analysis/records.rs`), private variables held as words
        // (`FunctionFacts::word_privates`); a private image, in the
        // function or passed to a helper, is reached as the array of
        // words it is.
        let image = self.is_image(from)
            || matches!(root, Root::Private(..) | Root::Argument { .. })
                && function.is_some_and(|f| self.image_root_elem(f, root).is_some());
        let words =
            image || matches!(root, Root::Global(g) if self.memory.word_locals.contains(&g));
        let root = match root {
            Root::Private(v, false) if image => Root::Private(v, true),
            Root::Argument {
                arg, ty, identity, ..
            } if image => Root::Argument {
                arg,
                ty,
                array: true,
                identity,
            },
            root => root,
        };
        if let Root::Cast(b) = root {
            // Back to the object's own type: a typed pointer again.
            let own = match self.memory.cast_bases[b].base {
                Root::Global(g) => self.float_words.float_of(g).map(Type::Scalar),
                _ => None,
            };
            return Ok(
                if self.memory.cast_bases[b].element == *to || own.as_ref() == Some(to) {
                    self.typed_root(function, self.memory.cast_bases[b].base)
                } else {
                    root
                },
            );
        }
        let supported = words
            || match from {
                Type::Scalar(s) | Type::Vector(s, _) => s != &Scalar::Bool,
                _ => false,
            };
        if !supported {
            return Err(self.error(
                location,
                format!(
                    "pointer casts of __local, __constant or private '{}' objects are not supported yet by this translator",
                    self.display(from)
                ),
            ));
        }
        // `__local` memory held as words (see `float_words.rs`): its
        // units are the words.
        let element = match root {
            Root::Global(g) if self.float_words.float_of(g).is_some() => {
                float_words::as_words(from)
            }
            _ => *from,
        };
        Ok(self.cast_base_root(CastBase {
            base: root,
            element,
            words,
        }))
    }

    /// The root typed pointers to the object of cast base root `root`
    /// have: a byte image that is not an array is reached as the array of
    /// its words by the cast base, but as itself by typed pointers (as
    /// `declare_locals` notes it, and as the analysis names it).
    fn typed_root(&self, function: Option<FunctionId>, root: Root) -> Root {
        let Some(function) = function else {
            return root;
        };
        let single = match root {
            Root::Private(v, true) => Root::Private(v, false),
            Root::Argument {
                arg,
                ty,
                array: true,
                identity,
            } => Root::Argument {
                arg,
                ty,
                array: false,
                identity,
            },
            other => return other,
        };
        if self.image_root_elem(function, single).is_some() {
            single
        } else {
            root
        }
    }

    /// The root of cast base `base`, made once.
    pub(super) fn cast_base_root(&mut self, base: CastBase) -> Root {
        let index = match self.memory.cast_bases.iter().position(|b| *b == base) {
            Some(i) => i,
            None => {
                self.memory.cast_bases.push(base);
                self.memory.cast_bases.len() - 1
            }
        };
        Root::Cast(index)
    }

    /// The place of element `index` (a `ty`) of a pointer into cast base
    /// `base`.
    pub(super) fn cast_place(
        &mut self,
        fb: &mut FnBuilder,
        base: usize,
        index: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Place> {
        let (scalar, width) = match *ty {
            Type::Scalar(s) => (s, 1),
            Type::Vector(s, n) => (s, n),
            _ => (Scalar::Bool, 0),
        };
        if width == 0 || scalar == Scalar::Bool {
            // Structs, unions and `bool`s in an object held as words: a
            // byte image's place at the pointer's byte.
            let CastBase {
                base: root, words, ..
            } = self.memory.cast_bases[base];
            if words {
                if let Some(size) = self.type_size(ty) {
                    // The byte is a multiple of the size.
                    let align = size as u32;
                    let size = u32_lit(fb, size as u32);
                    let byte = fb.binary(naga::BinaryOperator::Multiply, index, size);
                    if let Some(place) = self.cast_bytes_place(fb, root, byte, align, ty) {
                        return Ok(place);
                    }
                }
            }
            return Err(self.error(
                location,
                format!(
                    "reading or writing '{}' through a cast pointer into __local, __constant or private memory is not supported yet by this translator",
                    self.display(ty)
                ),
            ));
        }
        let size = self.type_size(ty).unwrap_or(4) as u32;
        let size = u32_lit(fb, size);
        let byte = fb.binary(naga::BinaryOperator::Multiply, index, size);
        Ok(Place::Cast {
            base,
            byte,
            scalar,
            lanes: (0..width).collect(),
        })
    }

    pub(super) fn load_cast(
        &mut self,
        fb: &mut FnBuilder,
        base: usize,
        byte: Handle<naga::Expression>,
        scalar: Scalar,
        lanes: &[u8],
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let mut values = Vec::with_capacity(lanes.len());
        for &lane in lanes {
            let at = self.lane_byte(fb, byte, scalar, lane);
            values.push(wide::LaneRef {
                value: self.read_scalar(fb, base, at, scalar, location)?,
                width: 1,
                lane: 0,
            });
        }
        self.gather(fb, scalar, &values, location)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn store_cast(
        &mut self,
        fb: &mut FnBuilder,
        base: usize,
        byte: Handle<naga::Expression>,
        scalar: Scalar,
        lanes: &[u8],
        value: Handle<naga::Expression>,
        location: Location,
    ) -> LResult<()> {
        let width = lanes.len() as u8;
        for (i, &lane) in lanes.iter().enumerate() {
            let at = self.lane_byte(fb, byte, scalar, lane);
            let part = fb.lane(value, width, i as u8);
            self.write_scalar(fb, base, at, scalar, part, location)?;
        }
        Ok(())
    }

    fn lane_byte(
        &mut self,
        fb: &mut FnBuilder,
        byte: Handle<naga::Expression>,
        scalar: Scalar,
        lane: u8,
    ) -> Handle<naga::Expression> {
        if lane == 0 {
            return byte;
        }
        let offset = u32_lit(fb, u32::from(lane) * scalar.size());
        fb.binary(naga::BinaryOperator::Add, byte, offset)
    }

    /// The scalar type of cast base `base`'s units.
    fn unit_scalar(&self, base: usize) -> Scalar {
        if self.memory.cast_bases[base].words {
            return Scalar::UInt;
        }
        self.memory.cast_bases[base]
            .element
            .element()
            .unwrap_or(Scalar::UInt)
    }

    /// A naga pointer to unit `unit` (a `u32`) of cast base `base`.
    fn unit_pointer(
        &mut self,
        fb: &mut FnBuilder,
        base: usize,
        unit: Handle<naga::Expression>,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let CastBase {
            base: root,
            element,
            words,
        } = self.memory.cast_bases[base].clone();
        let width = match element {
            Type::Vector(_, n) if !words => n,
            _ => return self.element_pointer(fb, root, unit, location),
        };
        let lanes = u32::from(crate::types::storage_lanes(width));
        let shift = u32_lit(fb, lanes.trailing_zeros());
        let element_index = fb.binary(naga::BinaryOperator::ShiftRight, unit, shift);
        let element = self.element_pointer(fb, root, element_index, location)?;
        let mask = u32_lit(fb, lanes - 1);
        let mut lane = fb.binary(naga::BinaryOperator::And, unit, mask);
        if width == 3 {
            // The fourth unit of a 3-vector is padding that naga does not
            // hold: `load_unit` reads it as zero, and stores never come
            // here (`store_unit` refuses them; objects a cast may store
            // into are held as words, `FunctionFacts::word_privates`). Kept
            // inside the vector all the same.
            let last = u32_lit(fb, 2);
            lane = fb.math(naga::MathFunction::Min, lane, Some(last));
        }
        Ok(places::dynamic_lane_pointer(fb, element, width, lane))
    }

    /// The bits of unit `unit` of `base`: a `u32` (a `u64` for 8-byte
    /// units), zero beyond a narrow unit's width.
    fn load_unit(
        &mut self,
        fb: &mut FnBuilder,
        base: usize,
        unit: Handle<naga::Expression>,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let scalar = self.unit_scalar(base);
        let pointer = self.unit_pointer(fb, base, unit, location)?;
        let value = fb.add(naga::Expression::Load { pointer });
        let mut bits = if scalar == Scalar::Half {
            fp16::half_to_bits(fb, value)
        } else if naga_scalar(scalar).kind == naga::ScalarKind::Uint {
            value
        } else {
            retype(fb, value, naga::ScalarKind::Uint, None)
        };
        if let CastBase {
            element: Type::Vector(_, 3),
            words: false,
            ..
        } = self.memory.cast_bases[base]
        {
            // A 3-vector's padding (its fourth unit): only read-only
            // objects get here, program-scope `__constant` ones, whose
            // padding C initialises to zero.
            let three = u32_lit(fb, 3);
            let lane = fb.binary(naga::BinaryOperator::And, unit, three);
            let is_padding = fb.binary(naga::BinaryOperator::Equal, lane, three);
            let zero = if scalar.size() == 8 {
                fb.add(naga::Expression::Literal(naga::Literal::U64(0)))
            } else {
                u32_lit(fb, 0)
            };
            bits = fb.select(is_padding, zero, bits);
        }
        Ok(if scalar.size() < 4 {
            let mask = u32_lit(fb, (1u32 << (scalar.size() * 8)) - 1);
            fb.binary(naga::BinaryOperator::And, bits, mask)
        } else {
            bits
        })
    }

    /// Stores `bits` (as `load_unit` gives them) to unit `unit` of `base`.
    fn store_unit(
        &mut self,
        fb: &mut FnBuilder,
        base: usize,
        unit: Handle<naga::Expression>,
        bits: Handle<naga::Expression>,
        location: Location,
    ) -> LResult<()> {
        let scalar = self.unit_scalar(base);
        let value = if scalar.size() < 4 {
            let zero = u32_lit(fb, 0);
            extract_narrow(fb, bits, zero, scalar)
        } else if naga_scalar(scalar).kind == naga::ScalarKind::Uint {
            bits
        } else {
            retype(fb, bits, naga_scalar(scalar).kind, None)
        };
        if let CastBase {
            element: element @ Type::Vector(_, 3),
            words: false,
            ..
        } = &self.memory.cast_bases[base]
        {
            // A cast pointer's store may land on a 3-vector's padding
            // (vstore3 at an odd offset does), which naga does not hold:
            // it would have to go to another lane, or nowhere, and either
            // reads back wrong.
            let element = self.display(element);
            return Err(self.error(
                location,
                format!("storing through a cast pointer into memory of '{element}' is not supported yet by this translator: the padding of its 3-vectors is not held"),
            ));
        }
        let pointer = self.unit_pointer(fb, base, unit, location)?;
        fb.push(naga::Statement::Store { pointer, value });
        Ok(())
    }

    /// The `scalar` at byte `byte` of `base`, as a register value.
    fn read_scalar(
        &mut self,
        fb: &mut FnBuilder,
        base: usize,
        byte: Handle<naga::Expression>,
        scalar: Scalar,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        use naga::BinaryOperator as B;
        let unit_size = self.unit_scalar(base).size();
        let size = scalar.size();
        let shift = u32_lit(fb, unit_size.trailing_zeros());
        let first = fb.binary(B::ShiftRight, byte, shift);
        let bits = if size >= unit_size {
            let mut bits = None;
            for k in 0..size / unit_size {
                let offset = u32_lit(fb, k);
                let unit = fb.binary(B::Add, first, offset);
                let mut part = self.load_unit(fb, base, unit, location)?;
                if size == 8 && unit_size < 8 {
                    part = retype(fb, part, naga::ScalarKind::Uint, Some(8));
                }
                if k > 0 {
                    let at = u32_lit(fb, k * unit_size * 8);
                    part = fb.binary(B::ShiftLeft, part, at);
                }
                bits = Some(match bits {
                    Some(acc) => fb.binary(B::InclusiveOr, acc, part),
                    None => part,
                });
            }
            bits.expect("at least one unit")
        } else {
            let unit = self.load_unit(fb, base, first, location)?;
            let within = u32_lit(fb, unit_size - 1);
            let within = fb.binary(B::And, byte, within);
            let eight = u32_lit(fb, 8);
            let bit = fb.binary(B::Multiply, within, eight);
            let shifted = fb.binary(B::ShiftRight, unit, bit);
            if unit_size == 8 {
                retype(fb, shifted, naga::ScalarKind::Uint, Some(4))
            } else {
                shifted
            }
        };
        Ok(if size < 4 {
            let zero = u32_lit(fb, 0);
            extract_narrow(fb, bits, zero, scalar)
        } else if naga_scalar(scalar).kind == naga::ScalarKind::Uint {
            bits
        } else {
            retype(fb, bits, naga_scalar(scalar).kind, None)
        })
    }

    /// Writes `value`, a register value of `scalar`, at byte `byte` of
    /// `base`.
    fn write_scalar(
        &mut self,
        fb: &mut FnBuilder,
        base: usize,
        byte: Handle<naga::Expression>,
        scalar: Scalar,
        value: Handle<naga::Expression>,
        location: Location,
    ) -> LResult<()> {
        use naga::BinaryOperator as B;
        let unit_size = self.unit_scalar(base).size();
        let size = scalar.size();
        let mut bits = if scalar == Scalar::Half {
            fp16::half_to_bits(fb, value)
        } else if naga_scalar(scalar).kind == naga::ScalarKind::Uint {
            value
        } else {
            retype(fb, value, naga::ScalarKind::Uint, None)
        };
        if size < 4 {
            let mask = u32_lit(fb, (1u32 << (size * 8)) - 1);
            bits = fb.binary(B::And, bits, mask);
        }
        let shift = u32_lit(fb, unit_size.trailing_zeros());
        let first = fb.binary(B::ShiftRight, byte, shift);
        if size >= unit_size {
            for k in 0..size / unit_size {
                let mut part = bits;
                if k > 0 {
                    let at = u32_lit(fb, k * unit_size * 8);
                    part = fb.binary(B::ShiftRight, part, at);
                }
                if size == 8 && unit_size < 8 {
                    part = retype(fb, part, naga::ScalarKind::Uint, Some(4));
                }
                if unit_size < 4 {
                    let mask = u32_lit(fb, (1u32 << (unit_size * 8)) - 1);
                    part = fb.binary(B::And, part, mask);
                }
                let offset = u32_lit(fb, k);
                let unit = fb.binary(B::Add, first, offset);
                self.store_unit(fb, base, unit, part, location)?;
            }
            return Ok(());
        }
        let within = u32_lit(fb, unit_size - 1);
        let within = fb.binary(B::And, byte, within);
        let eight = u32_lit(fb, 8);
        let bit = fb.binary(B::Multiply, within, eight);
        if let Root::Global(g) = self.memory.cast_bases[base].base {
            if self.module.global_variables[g].space == naga::AddressSpace::WorkGroup {
                return self.write_local_part(fb, base, g, first, bits, bit, size, location);
            }
        }
        let old = self.load_unit(fb, base, first, location)?;
        let mut mask = u32_lit(fb, (1u32 << (size * 8)) - 1);
        if unit_size == 8 {
            bits = retype(fb, bits, naga::ScalarKind::Uint, Some(8));
            mask = retype(fb, mask, naga::ScalarKind::Uint, Some(8));
        }
        let field = fb.binary(B::ShiftLeft, bits, bit);
        let hole = fb.binary(B::ShiftLeft, mask, bit);
        let keep = fb.unary(naga::UnaryOperator::BitwiseNot, hole);
        let kept = fb.binary(B::And, old, keep);
        let new = fb.binary(B::InclusiveOr, kept, field);
        self.store_unit(fb, base, first, new, location)
    }

    /// Writes the low `size` bytes of `bits` at bit `bit` of unit `unit`
    /// of a `__local` array with two atomics (see
    /// `narrow::replace_bits`), so that work-items writing the unit's
    /// other bytes keep their writes. That needs 32-bit integer units (the array becomes
    /// atomic; its plain loads and stores become atomic ones).
    #[allow(clippy::too_many_arguments)]
    fn write_local_part(
        &mut self,
        fb: &mut FnBuilder,
        base: usize,
        global: Handle<naga::GlobalVariable>,
        unit: Handle<naga::Expression>,
        bits: Handle<naga::Expression>,
        bit: Handle<naga::Expression>,
        size: u32,
        location: Location,
    ) -> LResult<()> {
        use naga::BinaryOperator as B;
        let unit_scalar = match self.memory.cast_bases[base] {
            CastBase { words: true, .. } => Scalar::UInt,
            CastBase {
                element: Type::Scalar(s @ (Scalar::Int | Scalar::UInt)),
                ..
            } => s,
            CastBase {
                element: ref other, ..
            } => {
                let message = format!(
                    "internal compiler error: storing part of a '{}' element of __local memory through a cast pointer the analysis did not see reach it",
                    self.display(other)
                );
                return Err(self.error(location, message));
            }
        };
        let scalar = naga_scalar(unit_scalar);
        self.make_atomic(global, scalar, location)?;
        let mask = u32_lit(fb, (1u32 << (size * 8)) - 1);
        let field = fb.binary(B::And, bits, mask);
        let mut set = fb.binary(B::ShiftLeft, field, bit);
        let mut hole = fb.binary(B::ShiftLeft, mask, bit);
        if scalar.kind == naga::ScalarKind::Sint {
            set = retype(fb, set, naga::ScalarKind::Sint, None);
            hole = retype(fb, hole, naga::ScalarKind::Sint, None);
        }
        let pointer = self.unit_pointer(fb, base, unit, location)?;
        super::narrow::replace_bits(fb, pointer, hole, set);
        Ok(())
    }
}
