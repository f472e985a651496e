//! Records held as byte images. A struct with a member narrower than 32
//! bits (`char`, `short`, `bool`, `half`, vectors and arrays of them) or
//! with a scalar not aligned to its size (packed), any union, and any
//! array of such records have no naga type with the host's layout: naga
//! has no 8-bit types, no overlapping members, and Vulkan no misaligned
//! scalars. Such a value
//! is instead an *image* of its bytes, an array of `u32` words (its size
//! rounded up to whole words), in registers, private and `__local` memory,
//! push constants and buffers alike, so a union's members share their bytes
//! exactly as on the host.
//!
//! A member is a byte offset into the image ([`BytePlace`]): reading it
//! takes the words that hold it apart; writing it changes only its own
//! bytes. Where other work-items may write the other bytes of a word
//! (buffers, `__local` memory), partial words are written with an atomic
//! and/or pair, so that no work-item loses another's write; whole words
//! are stored plainly (naga writes atomic stores once the variable has
//! become atomic). A member of a packed struct off its natural alignment
//! may lie across two words (three for 8-byte ones): it is assembled from
//! them and written into each as a partial word, so a store of it is
//! atomic word by word only, not as a whole (C asks no more of a plain
//! store).

use crate::diagnostic::Location;
use crate::hir::FunctionId;
use crate::lexer::FxHashMap;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::expressions::operators::extract_narrow;
use crate::lower::expressions::wide;
use crate::lower::function::FnBuilder;
use crate::lower::library::fp16;
use crate::lower::naga_types::naga_scalar;
use crate::lower::pointers::{Place, Root};
use crate::types::{Scalar, Type};
use naga::Handle;

/// The records' state: which roots hold byte images.
#[derive(Default)]
pub(super) struct Images {
    /// Roots whose elements are records held as byte images, with the
    /// element type; a private root (and a helper's argument root, the
    /// caller's private image) is keyed by its function too, as local
    /// variable handles are per function.
    roots: FxHashMap<(Option<FunctionId>, Root), Type>,
}

/// A value of `ty` at byte `offset` of a word array.
#[derive(Clone, Debug)]
pub(super) struct BytePlace {
    /// A pointer to the word array (`array<u32, N>`, or a buffer's
    /// `array<u32>`).
    words: Handle<naga::Expression>,
    /// The variable holding the words when other work-items may write next
    /// to this value (a buffer or `__local` memory): stores that keep some
    /// bytes of a word are then atomic.
    shared: Option<Handle<naga::GlobalVariable>>,
    /// The byte offset, a `u32`.
    offset: Handle<naga::Expression>,
    /// A power of two, at most 4, that `offset` is known to be a multiple
    /// of: it decides whether whole words can be moved at once.
    align: u32,
    ty: Type,
    /// For a swizzle of the vector `ty`: the vector's lanes it selects.
    lanes: Option<Vec<u8>>,
}

/// The largest power of two, at most 4, dividing `bytes` (4 for zero).
fn alignment_of(bytes: u64) -> u32 {
    if bytes == 0 {
        4
    } else {
        (1u32 << bytes.trailing_zeros().min(2)).min(4)
    }
}

/// The key of `root` in `image_roots`.
fn image_root_key(function: Option<FunctionId>, root: Root) -> (Option<FunctionId>, Root) {
    match root {
        Root::Private(..) | Root::Argument { .. } => (function, root),
        Root::Global(_) | Root::Cast(_) | Root::Null => (None, root),
    }
}

fn u32_literal(fb: &mut Emitter, v: u32) -> Handle<naga::Expression> {
    fb.add(naga::Expression::Literal(naga::Literal::U32(v)))
}

impl ModuleBuilder<'_> {
    /// Whether values of `ty` are held as byte images (decided once per
    /// program by the analysis, `analysis::records`).
    pub(super) fn is_image(&self, ty: &Type) -> bool {
        self.analysis.records().is_image(&self.program.types, *ty)
    }

    /// The size of `ty` in bytes, with records complete.
    fn byte_size(&self, ty: &Type) -> u64 {
        crate::stack::guard(|| match ty {
            Type::Record(r) => self.record(*r).size,
            Type::Array(elem, n) => self.byte_size(&self.program.types[*elem]) * n,
            t => self.type_size(t).unwrap_or(4),
        })
    }

    /// The number of words of the image of `ty`.
    pub(super) fn image_words(&self, ty: &Type) -> u32 {
        (self.byte_size(ty).div_ceil(4).max(1)) as u32
    }

    /// The naga type of images of `ty`: `array<u32, words>`.
    pub(super) fn image_type(&mut self, ty: &Type) -> Handle<naga::Type> {
        let base = self.u32_type();
        let words =
            std::num::NonZeroU32::new(self.image_words(ty)).unwrap_or(std::num::NonZeroU32::MIN);
        self.add_type(naga::TypeInner::Array {
            base,
            size: naga::ArraySize::Constant(words),
            stride: 4,
        })
    }

    /// The whole image at `words` (a variable of image type) as a place.
    pub(super) fn image_place(
        &mut self,
        fb: &mut FnBuilder,
        words: Handle<naga::Expression>,
        shared: Option<Handle<naga::GlobalVariable>>,
        ty: &Type,
    ) -> Place {
        let offset = u32_literal(fb, 0);
        Place::Bytes(BytePlace {
            words,
            shared,
            offset,
            align: 4,
            ty: *ty,
            lanes: None,
        })
    }

    /// Notes that pointers to `root` (a private root of `function`) count
    /// elements of `elem`, held as byte images.
    pub(super) fn note_image_root(
        &mut self,
        function: Option<FunctionId>,
        root: Root,
        elem: &Type,
    ) {
        self.images
            .roots
            .insert(image_root_key(function, root), *elem);
    }

    /// The element type of `root` (of `function`) when it holds byte
    /// images.
    pub(super) fn image_root_elem(&self, function: FunctionId, root: Root) -> Option<Type> {
        self.images
            .roots
            .get(&image_root_key(Some(function), root))
            .cloned()
    }

    /// The place of element `index` of `root` when the root holds byte
    /// images.
    pub(super) fn image_element_place(
        &mut self,
        fb: &mut FnBuilder,
        root: Root,
        index: Handle<naga::Expression>,
    ) -> Option<Place> {
        let elem = *self.images.roots.get(&image_root_key(Some(fb.hir), root))?;
        let (words, shared) = match root {
            Root::Global(g) => {
                let shared = match self.module.global_variables[g].space {
                    naga::AddressSpace::Storage { access } => {
                        access.contains(naga::StorageAccess::STORE).then_some(g)
                    }
                    naga::AddressSpace::WorkGroup => Some(g),
                    _ => None,
                };
                (fb.add(naga::Expression::GlobalVariable(g)), shared)
            }
            Root::Private(v, _) => (fb.add(naga::Expression::LocalVariable(v)), None),
            // The caller's private image, passed by pointer.
            Root::Argument { arg, .. } => (fb.add(naga::Expression::FunctionArgument(arg)), None),
            Root::Cast(_) | Root::Null => return None,
        };
        let zero = u32_literal(fb, 0);
        let at = BytePlace {
            words,
            shared,
            offset: zero,
            align: 4,
            ty: elem,
            lanes: None,
        };
        Some(Place::Bytes(self.indexed(fb, &at, index, &elem)))
    }

    /// The `ty` at byte `byte` (a `u32`, a multiple of `align`, or of its
    /// largest power of two) of `root`,
    /// an object held as words (a cast base's; see `cast_memory.rs`): a
    /// struct, union or `bool` read through a cast pointer into it.
    pub(super) fn cast_bytes_place(
        &mut self,
        fb: &mut FnBuilder,
        root: Root,
        byte: Handle<naga::Expression>,
        align: u32,
        ty: &Type,
    ) -> Option<Place> {
        let (words, shared) = match root {
            Root::Global(g) => {
                let shared = (self.module.global_variables[g].space
                    == naga::AddressSpace::WorkGroup)
                    .then_some(g);
                (fb.add(naga::Expression::GlobalVariable(g)), shared)
            }
            Root::Private(v, _) => (fb.add(naga::Expression::LocalVariable(v)), None),
            Root::Argument { arg, .. } => (fb.add(naga::Expression::FunctionArgument(arg)), None),
            Root::Cast(_) | Root::Null => return None,
        };
        Some(Place::Bytes(BytePlace {
            words,
            shared,
            offset: byte,
            align: alignment_of(u64::from(align)),
            ty: *ty,
            lanes: None,
        }))
    }

    /// `bp` moved by `bytes` and retyped to `ty`.
    fn at_offset(&mut self, fb: &mut FnBuilder, bp: &BytePlace, bytes: u64, ty: Type) -> BytePlace {
        let offset = if bytes == 0 {
            bp.offset
        } else {
            let b = u32_literal(fb, bytes as u32);
            fb.binary(naga::BinaryOperator::Add, bp.offset, b)
        };
        BytePlace {
            words: bp.words,
            shared: bp.shared,
            offset,
            align: bp.align.min(alignment_of(bytes)),
            ty,
            lanes: None,
        }
    }

    /// Element `index` (a `u32`) of a run of `elem` starting at `bp`.
    fn indexed(
        &mut self,
        fb: &mut FnBuilder,
        bp: &BytePlace,
        index: Handle<naga::Expression>,
        elem: &Type,
    ) -> BytePlace {
        crate::stack::guard(|| {
            let size = self.byte_size(elem);
            let size_lit = u32_literal(fb, size as u32);
            let scaled = fb.binary(naga::BinaryOperator::Multiply, index, size_lit);
            let offset = fb.binary(naga::BinaryOperator::Add, bp.offset, scaled);
            BytePlace {
                words: bp.words,
                shared: bp.shared,
                offset,
                align: bp.align.min(alignment_of(size)),
                ty: *elem,
                lanes: None,
            }
        })
    }

    /// `base.field` where `base` is in an image.
    pub(super) fn image_member(
        &mut self,
        fb: &mut FnBuilder,
        bp: BytePlace,
        field: usize,
        location: Location,
    ) -> LResult<Place> {
        let Type::Record(r) = &bp.ty else {
            return Err(self.error(
                location,
                "member access on a value that is not a struct or union",
            ));
        };
        let r = self.record(*r);
        let Some(f) = r.fields.get(field) else {
            return Err(self.error(location, "internal compiler error: no such member"));
        };
        Ok(Place::Bytes(self.at_offset(fb, &bp, f.offset, f.ty)))
    }

    /// `base[index]` where the array `base` is in an image.
    pub(super) fn image_index(
        &mut self,
        fb: &mut FnBuilder,
        bp: BytePlace,
        index: Handle<naga::Expression>,
        location: Location,
    ) -> LResult<Place> {
        let Type::Array(elem, _) = &bp.ty else {
            return Err(self.error(location, "subscript of a value that is not an array"));
        };
        let elem = self.program.types[*elem];
        Ok(Place::Bytes(self.indexed(fb, &bp, index, &elem)))
    }

    /// A swizzle of a vector in an image.
    pub(super) fn image_swizzle(&mut self, bp: BytePlace, lanes: &[u8]) -> Place {
        let lanes = match &bp.lanes {
            Some(outer) => lanes.iter().map(|&l| outer[usize::from(l)]).collect(),
            None => lanes.to_vec(),
        };
        Place::Bytes(BytePlace {
            lanes: Some(lanes),
            ..bp
        })
    }

    /// Lane `lane` (a run-time `u32` already kept inside the vector, or
    /// the swizzle's lane list) of a vector in an image.
    pub(super) fn image_lane(
        &mut self,
        fb: &mut FnBuilder,
        bp: BytePlace,
        lane: Handle<naga::Expression>,
        location: Location,
    ) -> LResult<Place> {
        let Type::Vector(s, _) = bp.ty else {
            return Err(self.error(location, "subscript of a non-vector"));
        };
        let lane = match &bp.lanes {
            Some(lanes) => {
                let mut chosen = u32_literal(fb, u32::from(lanes[0]));
                for (k, &l) in lanes.iter().enumerate().skip(1) {
                    let k = u32_literal(fb, k as u32);
                    let is_k = fb.binary(naga::BinaryOperator::Equal, lane, k);
                    let l = u32_literal(fb, u32::from(l));
                    chosen = fb.select(is_k, l, chosen);
                }
                chosen
            }
            None => lane,
        };
        let base = BytePlace { lanes: None, ..bp };
        Ok(Place::Bytes(self.indexed(
            fb,
            &base,
            lane,
            &Type::Scalar(s),
        )))
    }

    /// Sub-object `i` (member, element or lane) of an initializer's
    /// target in an image.
    pub(super) fn sub_place(
        &mut self,
        fb: &mut FnBuilder,
        place: Place,
        i: u64,
        location: Location,
    ) -> LResult<Place> {
        let Place::Bytes(bp) = place else {
            return Err(self.error(
                location,
                "internal compiler error: initializer target is not in an image",
            ));
        };
        Ok(Place::Bytes(match bp.ty {
            Type::Record(r) => {
                let r = self.record(r);
                let Some(f) = r.fields.get(i as usize) else {
                    return Err(self.error(location, "internal compiler error: no such member"));
                };
                self.at_offset(fb, &bp, f.offset, f.ty)
            }
            Type::Array(elem, _) => {
                let size = self.byte_size(&self.program.types[elem]);
                self.at_offset(fb, &bp, i * size, self.program.types[elem])
            }
            Type::Vector(s, _) => self.at_offset(fb, &bp, i * u64::from(s.size()), Type::Scalar(s)),
            // `{ 5 }` for a scalar.
            _ => bp,
        }))
    }

    // ---- loads ----

    fn load_word(
        fb: &mut FnBuilder,
        bp: &BytePlace,
        index: Handle<naga::Expression>,
    ) -> Handle<naga::Expression> {
        let pointer = fb.add(naga::Expression::Access {
            base: bp.words,
            index,
        });
        fb.add(naga::Expression::Load { pointer })
    }

    fn word_index(
        fb: &mut FnBuilder,
        offset: Handle<naga::Expression>,
    ) -> Handle<naga::Expression> {
        let two = u32_literal(fb, 2);
        fb.binary(naga::BinaryOperator::ShiftRight, offset, two)
    }

    /// The bit position of byte `offset` within its word.
    fn bit_in_word(
        fb: &mut FnBuilder,
        offset: Handle<naga::Expression>,
    ) -> Handle<naga::Expression> {
        let three = u32_literal(fb, 3);
        let byte = fb.binary(naga::BinaryOperator::And, offset, three);
        fb.binary(naga::BinaryOperator::ShiftLeft, byte, three)
    }

    /// Whether a scalar of `s` at `bp` may span two words (three for
    /// 8-byte ones): a member of a packed struct off its natural alignment.
    fn may_span(bp: &BytePlace, s: Scalar) -> bool {
        bp.align < s.size().min(4)
    }

    /// `offset + bytes`.
    fn offset_by(
        fb: &mut FnBuilder,
        offset: Handle<naga::Expression>,
        bytes: u32,
    ) -> Handle<naga::Expression> {
        if bytes == 0 {
            return offset;
        }
        let b = u32_literal(fb, bytes);
        fb.binary(naga::BinaryOperator::Add, offset, b)
    }

    /// `x >> (32 - bit)` for `bit` in 0..32: what a shift left by `bit`
    /// moves out of a word (zero for `bit` 0, where a shift by 32 would be
    /// undefined).
    fn spilled_right(
        fb: &mut FnBuilder,
        x: Handle<naga::Expression>,
        bit: Handle<naga::Expression>,
    ) -> Handle<naga::Expression> {
        let one = u32_literal(fb, 1);
        let thirty_one = u32_literal(fb, 31);
        let rest = fb.binary(naga::BinaryOperator::Subtract, thirty_one, bit);
        let half_way = fb.binary(naga::BinaryOperator::ShiftRight, x, one);
        fb.binary(naga::BinaryOperator::ShiftRight, half_way, rest)
    }

    /// The 32 bits of the image starting at byte `offset`, of which those
    /// up to byte `last` (in the word of `offset` or the next) are read:
    /// only the words holding bytes `offset..=last` are loaded, so none
    /// beyond the end of a buffer.
    fn load_spanning(
        fb: &mut FnBuilder,
        bp: &BytePlace,
        offset: Handle<naga::Expression>,
        last: Handle<naga::Expression>,
    ) -> Handle<naga::Expression> {
        let first = Self::word_index(fb, offset);
        let low_word = Self::load_word(fb, bp, first);
        let last = Self::word_index(fb, last);
        let high_word = Self::load_word(fb, bp, last);
        let bit = Self::bit_in_word(fb, offset);
        let low = fb.binary(naga::BinaryOperator::ShiftRight, low_word, bit);
        // `high_word << (32 - bit)`, zero for `bit` 0.
        let one = u32_literal(fb, 1);
        let thirty_one = u32_literal(fb, 31);
        let rest = fb.binary(naga::BinaryOperator::Subtract, thirty_one, bit);
        let half_way = fb.binary(naga::BinaryOperator::ShiftLeft, high_word, one);
        let high = fb.binary(naga::BinaryOperator::ShiftLeft, half_way, rest);
        fb.binary(naga::BinaryOperator::InclusiveOr, low, high)
    }

    /// Stores the low `size` (1 to 4) bytes of the `u32` `bits` at byte
    /// `offset`, which may lie across two words: each word's part is
    /// written as a store of part of a word (atomically where others may
    /// write next to it), so the value as a whole is not written
    /// atomically, which C does not ask of a plain store either.
    fn store_spanning(
        &mut self,
        fb: &mut FnBuilder,
        bp: &BytePlace,
        offset: Handle<naga::Expression>,
        size: u32,
        bits: Handle<naga::Expression>,
        location: Location,
    ) -> LResult<()> {
        let mask = u32_literal(fb, u32::MAX >> (32 - size * 8));
        let field = fb.binary(naga::BinaryOperator::And, bits, mask);
        let bit = Self::bit_in_word(fb, offset);
        let first = Self::word_index(fb, offset);
        let set = fb.binary(naga::BinaryOperator::ShiftLeft, field, bit);
        let hole = fb.binary(naga::BinaryOperator::ShiftLeft, mask, bit);
        self.store_word(fb, bp, first, set, Some(hole), location)?;
        // The bytes that spill into the next word; none (an empty hole in
        // the same word) when the value fits in the first.
        let last = Self::offset_by(fb, offset, size - 1);
        let last = Self::word_index(fb, last);
        let set = Self::spilled_right(fb, field, bit);
        let hole = Self::spilled_right(fb, mask, bit);
        self.store_word(fb, bp, last, set, Some(hole), location)
    }

    /// The value of `ty` at `bp`.
    pub(super) fn load_bytes(
        &mut self,
        fb: &mut FnBuilder,
        bp: &BytePlace,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        if let (Some(lanes), Type::Vector(s, _)) = (&bp.lanes, &bp.ty) {
            let s = *s;
            let mut values = Vec::with_capacity(lanes.len());
            for &l in lanes {
                let lane =
                    self.at_offset(fb, bp, u64::from(l) * u64::from(s.size()), Type::Scalar(s));
                let value = self.load_scalar(fb, &lane, s, location)?;
                values.push(wide::LaneRef {
                    value,
                    width: 1,
                    lane: 0,
                });
            }
            return self.gather(fb, s, &values, location);
        }
        match &bp.ty {
            Type::Scalar(s) => self.load_scalar(fb, bp, *s, location),
            Type::Vector(s, n) => {
                let s = *s;
                let mut values = Vec::with_capacity(usize::from(*n));
                for l in 0..*n {
                    let lane = self.at_offset(fb, bp, u64::from(l) * u64::from(s.size()), Type::Scalar(s));
                    let value = self.load_scalar(fb, &lane, s, location)?;
                    values.push(wide::LaneRef { value, width: 1, lane: 0 });
                }
                self.gather(fb, s, &values, location)
            }
            ty if self.is_image(ty) => Ok(self.load_image(fb, bp)),
            Type::Array(elem, n) => {
                let ty = self.value_type(&bp.ty, location)?;
                let elem_size = self.byte_size(&self.program.types[*elem]);
                let mut components = Vec::with_capacity(*n as usize);
                for k in 0..*n {
                    let at = self.at_offset(fb, bp, k * elem_size, self.program.types[*elem]);
                    components.push(self.load_bytes(fb, &at, location)?);
                }
                Ok(fb.add(naga::Expression::Compose { ty, components }))
            }
            Type::Record(r) => {
                let r = self.record(*r);
                let ty = self.value_type(&bp.ty, location)?;
                let mut components = Vec::with_capacity(r.fields.len());
                for f in &r.fields {
                    let at = self.at_offset(fb, bp, f.offset, f.ty);
                    components.push(self.load_bytes(fb, &at, location)?);
                }
                Ok(fb.add(naga::Expression::Compose { ty, components }))
            }
            t => Err(self.error(
                location,
                format!("values of type '{}' in a struct or union are not supported yet by this translator", self.display(t)),
            )),
        }
    }

    /// A scalar as its register value.
    fn load_scalar(
        &mut self,
        fb: &mut FnBuilder,
        bp: &BytePlace,
        s: Scalar,
        _location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let span = Self::may_span(bp, s);
        // The word holding the scalar's first (up to) 4 bytes, and the bit
        // they start at.
        let (word, bit) = if span {
            let last = Self::offset_by(fb, bp.offset, s.size().min(4) - 1);
            let bits = Self::load_spanning(fb, bp, bp.offset, last);
            (bits, u32_literal(fb, 0))
        } else {
            let index = Self::word_index(fb, bp.offset);
            let word = Self::load_word(fb, bp, index);
            (word, Self::bit_in_word(fb, bp.offset))
        };
        let target = naga_scalar(s);
        let bitcast = |fb: &mut Emitter, bits: Handle<naga::Expression>, from: naga::Scalar| {
            if from == target {
                bits
            } else {
                fb.add(naga::Expression::As {
                    expr: bits,
                    kind: target.kind,
                    convert: None,
                })
            }
        };
        Ok(match s.size() {
            4 => bitcast(fb, word, naga::Scalar::U32),
            8 => {
                let high = if span {
                    let at = Self::offset_by(fb, bp.offset, 4);
                    let last = Self::offset_by(fb, bp.offset, 7);
                    Self::load_spanning(fb, bp, at, last)
                } else {
                    let index = Self::word_index(fb, bp.offset);
                    let one = u32_literal(fb, 1);
                    let next = fb.binary(naga::BinaryOperator::Add, index, one);
                    Self::load_word(fb, bp, next)
                };
                let widen = |fb: &mut Emitter, w| {
                    fb.add(naga::Expression::As {
                        expr: w,
                        kind: naga::ScalarKind::Uint,
                        convert: Some(8),
                    })
                };
                let (low, high) = (widen(fb, word), widen(fb, high));
                let thirty_two = u32_literal(fb, 32);
                let high = fb.binary(naga::BinaryOperator::ShiftLeft, high, thirty_two);
                let bits = fb.binary(naga::BinaryOperator::InclusiveOr, high, low);
                bitcast(fb, bits, naga::Scalar::U64)
            }
            _ => match s {
                Scalar::Bool => {
                    let byte = extract_narrow(fb, word, bit, Scalar::UChar);
                    let zero = u32_literal(fb, 0);
                    fb.binary(naga::BinaryOperator::NotEqual, byte, zero)
                }
                // `half` from its 16 bits exactly (see `fp16.rs`), as
                // `char`/`short` from theirs.
                _ => extract_narrow(fb, word, bit, s),
            },
        })
    }

    /// The image of `bp.ty` at `bp`, as an `array<u32>` value.
    fn load_image(&mut self, fb: &mut FnBuilder, bp: &BytePlace) -> Handle<naga::Expression> {
        let ty = self.image_type(&bp.ty);
        let size = self.byte_size(&bp.ty) as u32;
        let words = self.image_words(&bp.ty);
        let first = Self::word_index(fb, bp.offset);
        let mut components = Vec::with_capacity(words as usize);
        if bp.align == 4 {
            for k in 0..words {
                let index = if k == 0 {
                    first
                } else {
                    let k = u32_literal(fb, k);
                    fb.binary(naga::BinaryOperator::Add, first, k)
                };
                components.push(Self::load_word(fb, bp, index));
            }
        } else {
            // Byte by byte: the image starts inside a word, and the words
            // around it may lie beyond the end of the buffer.
            let mut acc: Vec<Option<Handle<naga::Expression>>> = vec![None; words as usize];
            for b in 0..size {
                let at = self.at_offset(fb, bp, u64::from(b), Type::Scalar(Scalar::UChar));
                let index = Self::word_index(fb, at.offset);
                let word = Self::load_word(fb, &at, index);
                let bit = Self::bit_in_word(fb, at.offset);
                let mut byte = extract_narrow(fb, word, bit, Scalar::UChar);
                if b % 4 != 0 {
                    let shift = u32_literal(fb, (b % 4) * 8);
                    byte = fb.binary(naga::BinaryOperator::ShiftLeft, byte, shift);
                }
                let slot = &mut acc[(b / 4) as usize];
                *slot = Some(match *slot {
                    Some(w) => fb.binary(naga::BinaryOperator::InclusiveOr, w, byte),
                    None => byte,
                });
            }
            for w in acc {
                components.push(w.unwrap_or_else(|| u32_literal(fb, 0)));
            }
        }
        fb.add(naga::Expression::Compose { ty, components })
    }

    // ---- stores ----

    /// Stores `bits` into word `index`, keeping the bits outside `hole`
    /// (every bit when `hole` is `None`).
    fn store_word(
        &mut self,
        fb: &mut FnBuilder,
        bp: &BytePlace,
        index: Handle<naga::Expression>,
        bits: Handle<naga::Expression>,
        hole: Option<Handle<naga::Expression>>,
        location: Location,
    ) -> LResult<()> {
        let pointer = fb.add(naga::Expression::Access {
            base: bp.words,
            index,
        });
        match (bp.shared, hole) {
            (None, None) => fb.push(naga::Statement::Store {
                pointer,
                value: bits,
            }),
            (None, Some(hole)) => {
                let old = fb.add(naga::Expression::Load { pointer });
                let keep = fb.unary(naga::UnaryOperator::BitwiseNot, hole);
                let kept = fb.binary(naga::BinaryOperator::And, old, keep);
                let value = fb.binary(naga::BinaryOperator::InclusiveOr, kept, bits);
                fb.push(naga::Statement::Store { pointer, value });
            }
            // A whole word belongs to this value alone: a plain store,
            // which naga writes as an atomic store where the variable has
            // become atomic for partial words.
            (_, None) => fb.push(naga::Statement::Store {
                pointer,
                value: bits,
            }),
            (Some(global), Some(hole)) => {
                self.make_atomic(global, naga::Scalar::U32, location)?;
                crate::lower::pointers::narrow::replace_bits(fb, pointer, hole, bits);
            }
        }
        Ok(())
    }

    /// Stores the register value `value` of `bp.ty` at `bp`.
    pub(super) fn store_bytes(
        &mut self,
        fb: &mut FnBuilder,
        bp: &BytePlace,
        value: Handle<naga::Expression>,
        location: Location,
    ) -> LResult<()> {
        if let (Some(lanes), Type::Vector(s, _)) = (&bp.lanes, &bp.ty) {
            let s = *s;
            let width = lanes.len() as u8;
            for (i, &l) in lanes.iter().enumerate() {
                let lane =
                    self.at_offset(fb, bp, u64::from(l) * u64::from(s.size()), Type::Scalar(s));
                let part = fb.lane(value, width, i as u8);
                self.store_scalar(fb, &lane, s, part, location)?;
            }
            return Ok(());
        }
        match &bp.ty {
            Type::Scalar(s) => self.store_scalar(fb, bp, *s, value, location),
            Type::Vector(s, n) => {
                let s = *s;
                for l in 0..*n {
                    let lane = self.at_offset(fb, bp, u64::from(l) * u64::from(s.size()), Type::Scalar(s));
                    let part = fb.lane(value, *n, l);
                    self.store_scalar(fb, &lane, s, part, location)?;
                }
                Ok(())
            }
            ty if self.is_image(ty) => self.store_image(fb, bp, value, location),
            Type::Array(elem, n) => {
                let elem_size = self.byte_size(&self.program.types[*elem]);
                for k in 0..*n {
                    let at = self.at_offset(fb, bp, k * elem_size, self.program.types[*elem]);
                    let part = fb.add(naga::Expression::AccessIndex {
                        base: value,
                        index: k as u32,
                    });
                    self.store_bytes(fb, &at, part, location)?;
                }
                Ok(())
            }
            Type::Record(r) => {
                let r = self.record(*r);
                for (k, f) in r.fields.iter().enumerate() {
                    let at = self.at_offset(fb, bp, f.offset, f.ty);
                    let part = fb.add(naga::Expression::AccessIndex {
                        base: value,
                        index: k as u32,
                    });
                    self.store_bytes(fb, &at, part, location)?;
                }
                Ok(())
            }
            t => Err(self.error(
                location,
                format!("values of type '{}' in a struct or union are not supported yet by this translator", self.display(t)),
            )),
        }
    }

    /// Stores a scalar register value, touching only its own bytes.
    fn store_scalar(
        &mut self,
        fb: &mut FnBuilder,
        bp: &BytePlace,
        s: Scalar,
        value: Handle<naga::Expression>,
        location: Location,
    ) -> LResult<()> {
        let span = Self::may_span(bp, s);
        let index = Self::word_index(fb, bp.offset);
        let register = naga_scalar(s);
        match s.size() {
            4 | 8 => {
                let bits_kind = if s.size() == 8 {
                    naga::Scalar::U64
                } else {
                    naga::Scalar::U32
                };
                let bits = if register == bits_kind {
                    value
                } else {
                    fb.add(naga::Expression::As {
                        expr: value,
                        kind: naga::ScalarKind::Uint,
                        convert: None,
                    })
                };
                if s.size() == 4 {
                    return if span {
                        self.store_spanning(fb, bp, bp.offset, 4, bits, location)
                    } else {
                        self.store_word(fb, bp, index, bits, None, location)
                    };
                }
                let narrow = |fb: &mut Emitter, w| {
                    fb.add(naga::Expression::As {
                        expr: w,
                        kind: naga::ScalarKind::Uint,
                        convert: Some(4),
                    })
                };
                let low = narrow(fb, bits);
                let thirty_two = u32_literal(fb, 32);
                let high = fb.binary(naga::BinaryOperator::ShiftRight, bits, thirty_two);
                let high = narrow(fb, high);
                if span {
                    self.store_spanning(fb, bp, bp.offset, 4, low, location)?;
                    let at = Self::offset_by(fb, bp.offset, 4);
                    return self.store_spanning(fb, bp, at, 4, high, location);
                }
                self.store_word(fb, bp, index, low, None, location)?;
                let one = u32_literal(fb, 1);
                let next = fb.binary(naga::BinaryOperator::Add, index, one);
                self.store_word(fb, bp, next, high, None, location)
            }
            _ => {
                let bits = match s {
                    Scalar::Bool => {
                        let (one, zero) = (u32_literal(fb, 1), u32_literal(fb, 0));
                        fb.select(value, one, zero)
                    }
                    // Its 16 bits exactly (see `fp16.rs`).
                    Scalar::Half => fp16::half_to_bits(fb, value),
                    _ if register.kind == naga::ScalarKind::Sint => fb.add(naga::Expression::As {
                        expr: value,
                        kind: naga::ScalarKind::Uint,
                        convert: None,
                    }),
                    _ => value,
                };
                if span {
                    return self.store_spanning(fb, bp, bp.offset, s.size(), bits, location);
                }
                let mask = u32_literal(fb, (1u32 << (s.size() * 8)) - 1);
                let field = fb.binary(naga::BinaryOperator::And, bits, mask);
                let bit = Self::bit_in_word(fb, bp.offset);
                let set = fb.binary(naga::BinaryOperator::ShiftLeft, field, bit);
                let hole = fb.binary(naga::BinaryOperator::ShiftLeft, mask, bit);
                self.store_word(fb, bp, index, set, Some(hole), location)
            }
        }
    }

    /// Stores the image `value` of `bp.ty` at `bp`: its bytes only, not the
    /// rest of its last word.
    fn store_image(
        &mut self,
        fb: &mut FnBuilder,
        bp: &BytePlace,
        value: Handle<naga::Expression>,
        location: Location,
    ) -> LResult<()> {
        let size = self.byte_size(&bp.ty) as u32;
        let first = Self::word_index(fb, bp.offset);
        let word_of = |fb: &mut Emitter, k: u32| {
            fb.add(naga::Expression::AccessIndex {
                base: value,
                index: k,
            })
        };
        if bp.align == 4 {
            for k in 0..size.div_ceil(4) {
                let index = if k == 0 {
                    first
                } else {
                    let k = u32_literal(fb, k);
                    fb.binary(naga::BinaryOperator::Add, first, k)
                };
                let word = word_of(fb, k);
                let tail = size - k * 4;
                if tail >= 4 {
                    self.store_word(fb, bp, index, word, None, location)?;
                } else {
                    let mask = u32_literal(fb, (1u32 << (tail * 8)) - 1);
                    let bits = fb.binary(naga::BinaryOperator::And, word, mask);
                    self.store_word(fb, bp, index, bits, Some(mask), location)?;
                }
            }
            return Ok(());
        }
        for b in 0..size {
            let at = self.at_offset(fb, bp, u64::from(b), Type::Scalar(Scalar::UChar));
            let word = word_of(fb, b / 4);
            let byte = if b % 4 == 0 {
                word
            } else {
                let shift = u32_literal(fb, (b % 4) * 8);
                fb.binary(naga::BinaryOperator::ShiftRight, word, shift)
            };
            self.store_scalar(fb, &at, Scalar::UChar, byte, location)?;
        }
        Ok(())
    }
}
