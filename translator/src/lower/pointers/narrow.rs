//! `char`/`short`/`bool` buffers. naga has no 8- or 16-bit types, so such a
//! buffer is seen as `u32` words; a load extracts the element's bits, and
//! a store replaces them with an atomic compare-and-swap loop on the word
//! unless the element fills whole words, so that neighbouring work-items
//! writing other bytes of the same word do not race.

use crate::diagnostic::Location;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::expressions::operators::extract_narrow;
use crate::lower::expressions::wide;
use crate::lower::function::FnBuilder;
use crate::lower::library::fp16;
use crate::lower::pointers::NarrowElement;
use crate::types::Scalar;
use naga::Handle;

impl ModuleBuilder<'_> {
    /// For element `index` of a word-viewed buffer: a pointer to its word,
    /// the bit position within the word, and the element's mask.
    pub(super) fn narrow_word(
        &mut self,
        fb: &mut FnBuilder,
        global: Handle<naga::GlobalVariable>,
        index: Handle<naga::Expression>,
        scalar: Scalar,
    ) -> (Handle<naga::Expression>, Handle<naga::Expression>, u32) {
        let bits = scalar.size() * 8;
        let per_word = 32 / bits;
        let u32_lit =
            |fb: &mut Emitter, v: u32| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
        let shift = u32_lit(fb, per_word.trailing_zeros());
        let word_index = fb.binary(naga::BinaryOperator::ShiftRight, index, shift);
        let base = fb.add(naga::Expression::GlobalVariable(global));
        let pointer = fb.add(naga::Expression::Access {
            base,
            index: word_index,
        });
        let lane_mask = u32_lit(fb, per_word - 1);
        let lane = fb.binary(naga::BinaryOperator::And, index, lane_mask);
        let width = u32_lit(fb, bits);
        let bit = fb.binary(naga::BinaryOperator::Multiply, lane, width);
        (pointer, bit, (1u32 << bits) - 1)
    }

    pub(super) fn load_narrow(
        &mut self,
        fb: &mut FnBuilder,
        global: Handle<naga::GlobalVariable>,
        index: Handle<naga::Expression>,
        scalar: Scalar,
    ) -> Handle<naga::Expression> {
        let (pointer, bit, _) = self.narrow_word(fb, global, index, scalar);
        let word = fb.add(naga::Expression::Load { pointer });
        extract_narrow(fb, word, bit, scalar)
    }

    /// The index, in scalars, of the first lane of element `index`.
    pub(super) fn first_lane(
        fb: &mut FnBuilder,
        index: Handle<naga::Expression>,
        element: NarrowElement,
    ) -> Handle<naga::Expression> {
        let lanes = fb.add(naga::Expression::Literal(naga::Literal::U32(
            element.lanes(),
        )));
        fb.binary(naga::BinaryOperator::Multiply, index, lanes)
    }

    /// The scalar index of lane `lane` of the element whose lane 0 is at
    /// `first`.
    pub(super) fn lane_index(
        fb: &mut FnBuilder,
        first: Handle<naga::Expression>,
        lane: u8,
    ) -> Handle<naga::Expression> {
        let lane = fb.add(naga::Expression::Literal(naga::Literal::U32(u32::from(
            lane,
        ))));
        fb.binary(naga::BinaryOperator::Add, first, lane)
    }

    /// Element `index` of a word-viewed buffer: a scalar, or a vector
    /// gathered lane by lane.
    pub(super) fn load_narrow_element(
        &mut self,
        fb: &mut FnBuilder,
        global: Handle<naga::GlobalVariable>,
        index: Handle<naga::Expression>,
        element: NarrowElement,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        if element.width == 1 {
            return Ok(self.load_narrow(fb, global, index, element.scalar));
        }
        let first = Self::first_lane(fb, index, element);
        let mut lanes = Vec::with_capacity(usize::from(element.width));
        for lane in 0..u32::from(element.width) {
            let lane = fb.add(naga::Expression::Literal(naga::Literal::U32(lane)));
            let at = fb.binary(naga::BinaryOperator::Add, first, lane);
            let value = self.load_narrow(fb, global, at, element.scalar);
            lanes.push(wide::LaneRef {
                value,
                width: 1,
                lane: 0,
            });
        }
        self.gather(fb, element.scalar, &lanes, location)
    }

    /// Stores element `index` of a word-viewed buffer. A vector that fills
    /// whole words (`uchar4`, `short2`, `ushort4`, ...) is packed and
    /// stored a word at a time, with no atomics: no other element shares
    /// those words. Narrower vectors store lane by lane, atomically.
    pub(super) fn store_narrow_element(
        &mut self,
        fb: &mut FnBuilder,
        global: Handle<naga::GlobalVariable>,
        index: Handle<naga::Expression>,
        element: NarrowElement,
        value: Handle<naga::Expression>,
        location: Location,
    ) -> LResult<()> {
        let scalar = element.scalar;
        if element.width == 1 {
            return self.store_narrow(fb, global, index, scalar, value, location);
        }
        let first = Self::first_lane(fb, index, element);
        let u32_lit =
            |fb: &mut Emitter, v: u32| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
        if !element.fills_words() {
            for lane in 0..u32::from(element.width) {
                let part = fb.lane(value, element.width, lane as u8);
                let offset = u32_lit(fb, lane);
                let at = fb.binary(naga::BinaryOperator::Add, first, offset);
                self.store_narrow(fb, global, at, scalar, part, location)?;
            }
            return Ok(());
        }
        let bits = scalar.size() * 8;
        let per_word = 32 / bits;
        let words = scalar.size() * element.lanes() / 4;
        let shift = u32_lit(fb, per_word.trailing_zeros());
        let first_word = fb.binary(naga::BinaryOperator::ShiftRight, first, shift);
        let mask = u32_lit(fb, (1u32 << bits) - 1);
        for w in 0..words {
            let mut word = None;
            // A 3-vector's fourth lane is padding and is stored as zero.
            for k in (0..per_word).filter(|k| w * per_word + k < u32::from(element.width)) {
                let mut part = fb.lane(value, element.width, (w * per_word + k) as u8);
                if scalar == Scalar::Half {
                    part = fp16::half_to_bits(fb, part);
                } else if scalar.is_signed() {
                    part = fb.add(naga::Expression::As {
                        expr: part,
                        kind: naga::ScalarKind::Uint,
                        convert: None,
                    });
                }
                let mut field = fb.binary(naga::BinaryOperator::And, part, mask);
                if k > 0 {
                    let at = u32_lit(fb, k * bits);
                    field = fb.binary(naga::BinaryOperator::ShiftLeft, field, at);
                }
                word = Some(match word {
                    Some(acc) => fb.binary(naga::BinaryOperator::InclusiveOr, acc, field),
                    None => field,
                });
            }
            let value = word.unwrap_or_else(|| u32_lit(fb, 0));
            let offset = u32_lit(fb, w);
            let word_index = fb.binary(naga::BinaryOperator::Add, first_word, offset);
            let base = fb.add(naga::Expression::GlobalVariable(global));
            let pointer = fb.add(naga::Expression::Access {
                base,
                index: word_index,
            });
            fb.push(naga::Statement::Store { pointer, value });
        }
        Ok(())
    }

    /// Stores into a word-viewed buffer by clearing and setting the
    /// element's bits with two atomics, so that work-items writing the
    /// other bytes of the same word never lose their writes.
    pub(super) fn store_narrow(
        &mut self,
        fb: &mut FnBuilder,
        global: Handle<naga::GlobalVariable>,
        index: Handle<naga::Expression>,
        scalar: Scalar,
        value: Handle<naga::Expression>,
        location: Location,
    ) -> LResult<()> {
        self.make_atomic(global, naga::Scalar::U32, location)?;
        let (pointer, bit, mask) = self.narrow_word(fb, global, index, scalar);
        let bits = if scalar == Scalar::Half {
            fp16::half_to_bits(fb, value)
        } else if scalar == Scalar::Bool {
            let (one, zero) = (
                fb.add(naga::Expression::Literal(naga::Literal::U32(1))),
                fb.add(naga::Expression::Literal(naga::Literal::U32(0))),
            );
            fb.select(value, one, zero)
        } else if scalar.is_signed() {
            fb.add(naga::Expression::As {
                expr: value,
                kind: naga::ScalarKind::Uint,
                convert: None,
            })
        } else {
            value
        };
        let mask = fb.add(naga::Expression::Literal(naga::Literal::U32(mask)));
        let field = fb.binary(naga::BinaryOperator::And, bits, mask);
        let set = fb.binary(naga::BinaryOperator::ShiftLeft, field, bit);
        let hole = fb.binary(naga::BinaryOperator::ShiftLeft, mask, bit);
        let clear = fb.unary(naga::UnaryOperator::BitwiseNot, hole);
        for (fun, value) in [
            (naga::AtomicFunction::And, clear),
            (naga::AtomicFunction::InclusiveOr, set),
        ] {
            fb.push(naga::Statement::Atomic {
                pointer,
                fun,
                value,
                result: None,
            });
        }
        Ok(())
    }
}
