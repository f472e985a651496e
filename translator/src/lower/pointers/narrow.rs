//! `char`/`short`/`bool` buffers. naga has no 8- or 16-bit types, so such a
//! buffer is seen as `u32` words; a load extracts the element's bits, and
//! a store replaces them with an atomic compare-and-swap loop on the word
//! unless the element fills whole words, so that neighbouring work-items
//! writing other bytes of the same word do not race.
//!
//! `vloadn`/`vstoren` of `n` such scalars that span whole words move a run
//! of words instead of `n` elements (see [`WordRun`]): a `vstore16` of
//! `char`s was 32 atomics and a `vload16` 16 word loads, and the OpenCL-CTS's
//! vector_creation kernels (270 of each) took lavapipe over ten minutes to
//! compile.

use crate::diagnostic::Location;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::expressions::operators::extract_narrow;
use crate::lower::expressions::wide;
use crate::lower::function::FnBuilder;
use crate::lower::library::fp16;
use crate::lower::pointers::{NarrowElement, Place};
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

    /// Stores into a word-viewed buffer by replacing the element's bits
    /// with two atomics ([`replace_bits`]), so that work-items writing the
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
        replace_bits(fb, pointer, hole, set);
        Ok(())
    }
}

/// Replaces the bits `hole` selects in the word at `pointer` with `bits`
/// (which has none outside `hole`), leaving the others to whoever else
/// writes them: two atomics, setting the new bits first and then
/// clearing the rest. The word in between holds `old | bits`, so a
/// store of the value already there (work-items writing the same bytes
/// alike, as the conformance suite's kernels do) never shows any other
/// value to a reader; clearing first would show zero.
pub(in crate::lower) fn replace_bits(
    fb: &mut FnBuilder,
    pointer: Handle<naga::Expression>,
    hole: Handle<naga::Expression>,
    bits: Handle<naga::Expression>,
) {
    let others = fb.unary(naga::UnaryOperator::BitwiseNot, hole);
    let keep = fb.binary(naga::BinaryOperator::InclusiveOr, others, bits);
    for (fun, value) in [
        (naga::AtomicFunction::InclusiveOr, bits),
        (naga::AtomicFunction::And, keep),
    ] {
        fb.push(naga::Statement::Atomic {
            pointer,
            fun,
            value,
            result: None,
        });
    }
}

/// `n` consecutive `char`/`short` scalars of a word-viewed buffer, from
/// scalar index `first`, whose bytes fill whole words (`n * size` a
/// multiple of 4) but may start anywhere in a word. They cover `words`
/// words when the run starts on a word, and touch `words + 1` otherwise:
/// the words in between belong to the run whole; only the first and the
/// last are shared with neighbours.
pub(super) struct WordRun {
    global: Handle<naga::GlobalVariable>,
    first: Handle<naga::Expression>,
    scalar: Scalar,
    n: u32,
}

impl WordRun {
    /// The run `places` (the elements `vloadn`/`vstoren` touch, in order)
    /// make, if they are scalars of one word-viewed buffer whose bytes
    /// fill whole words.
    pub(super) fn of(places: &[Place]) -> Option<WordRun> {
        let Some(&Place::Narrow {
            global,
            index: first,
            element,
        }) = places.first()
        else {
            return None;
        };
        let scalar = element.scalar;
        let n = places.len() as u32;
        let integer = matches!(
            scalar,
            Scalar::Char | Scalar::UChar | Scalar::Short | Scalar::UShort
        );
        let same_buffer = places
            .iter()
            .all(|p| matches!(p, Place::Narrow { global: g, .. } if *g == global));
        (element.width == 1 && integer && same_buffer && (n * scalar.size()).is_multiple_of(4))
            .then_some(WordRun {
                global,
                first,
                scalar,
                n,
            })
    }

    fn words(&self) -> u32 {
        self.n * self.scalar.size() / 4
    }

    fn per_word(&self) -> u32 {
        4 / self.scalar.size()
    }
}

/// Where a run lies: its first word's index, and the bit its first byte
/// starts at in that word (0, 8, 16 or 24).
struct RunStart {
    word: Handle<naga::Expression>,
    shift: Handle<naga::Expression>,
}

fn u32_lit(fb: &mut Emitter, v: u32) -> Handle<naga::Expression> {
    fb.add(naga::Expression::Literal(naga::Literal::U32(v)))
}

/// `high` shifted right by `32 - shift` bits, 0 when `shift` is 0 (a
/// shift by 32 is undefined in SPIR-V, so it goes in two steps).
fn carry_in(
    fb: &mut Emitter,
    high: Handle<naga::Expression>,
    shift: Handle<naga::Expression>,
) -> Handle<naga::Expression> {
    use naga::BinaryOperator as B;
    let (one, thirty_one) = (u32_lit(fb, 1), u32_lit(fb, 31));
    let halved = fb.binary(B::ShiftRight, high, one);
    let rest = fb.binary(B::Subtract, thirty_one, shift);
    fb.binary(B::ShiftRight, halved, rest)
}

/// `low` shifted left by `32 - shift` bits, 0 when `shift` is 0.
fn carry_out(
    fb: &mut Emitter,
    low: Handle<naga::Expression>,
    shift: Handle<naga::Expression>,
) -> Handle<naga::Expression> {
    use naga::BinaryOperator as B;
    let (one, thirty_one) = (u32_lit(fb, 1), u32_lit(fb, 31));
    let doubled = fb.binary(B::ShiftLeft, low, one);
    let rest = fb.binary(B::Subtract, thirty_one, shift);
    fb.binary(B::ShiftLeft, doubled, rest)
}

impl ModuleBuilder<'_> {
    fn run_start(&mut self, fb: &mut FnBuilder, run: &WordRun) -> RunStart {
        use naga::BinaryOperator as B;
        let log_size = u32_lit(fb, run.scalar.size().trailing_zeros());
        let byte = fb.binary(B::ShiftLeft, run.first, log_size);
        let two = u32_lit(fb, 2);
        let word = fb.binary(B::ShiftRight, byte, two);
        let (three, eight) = (u32_lit(fb, 3), u32_lit(fb, 8));
        let within = fb.binary(B::And, byte, three);
        let shift = fb.binary(B::Multiply, within, eight);
        RunStart { word, shift }
    }

    fn run_word(
        fb: &mut FnBuilder,
        run: &WordRun,
        start: &RunStart,
        offset: Handle<naga::Expression>,
    ) -> Handle<naga::Expression> {
        let index = fb.binary(naga::BinaryOperator::Add, start.word, offset);
        let base = fb.add(naga::Expression::GlobalVariable(run.global));
        fb.add(naga::Expression::Access { base, index })
    }

    /// The run's scalars, lane by lane: its words, each assembled from the
    /// two words of memory it straddles. The word after the run is read
    /// only when the run does not start on a word (else the last word is
    /// read again and shifted out), so nothing past the buffer is read.
    pub(super) fn load_word_run(
        &mut self,
        fb: &mut FnBuilder,
        run: &WordRun,
    ) -> Vec<wide::LaneRef> {
        use naga::BinaryOperator as B;
        let start = self.run_start(fb, run);
        let words = run.words();
        let mut memory = Vec::with_capacity(words as usize + 1);
        for j in 0..words {
            let offset = u32_lit(fb, j);
            let pointer = Self::run_word(fb, run, &start, offset);
            memory.push(fb.add(naga::Expression::Load { pointer }));
        }
        let (zero, whole, one) = (u32_lit(fb, 0), u32_lit(fb, words), u32_lit(fb, 1));
        let aligned = fb.binary(B::Equal, start.shift, zero);
        let back = fb.select(aligned, one, zero);
        let after = fb.binary(B::Subtract, whole, back);
        let pointer = Self::run_word(fb, run, &start, after);
        memory.push(fb.add(naga::Expression::Load { pointer }));
        let bits = run.scalar.size() * 8;
        let mut lanes = Vec::with_capacity(run.n as usize);
        for j in 0..words as usize {
            let low = fb.binary(B::ShiftRight, memory[j], start.shift);
            let high = carry_out(fb, memory[j + 1], start.shift);
            let word = fb.binary(B::InclusiveOr, low, high);
            for k in 0..run.per_word() {
                let bit = u32_lit(fb, k * bits);
                lanes.push(wide::LaneRef {
                    value: extract_narrow(fb, word, bit, run.scalar),
                    width: 1,
                    lane: 0,
                });
            }
        }
        lanes
    }

    /// Stores `lanes` (register values of the run's scalar) over the run:
    /// the words wholly inside it with plain stores, the first and last,
    /// which neighbours share, by replacing their bytes with atomics
    /// ([`replace_bits`]; the last only when the run does not start on a
    /// word).
    pub(super) fn store_word_run(
        &mut self,
        fb: &mut FnBuilder,
        run: &WordRun,
        lanes: &[Handle<naga::Expression>],
        location: Location,
    ) -> LResult<()> {
        use naga::BinaryOperator as B;
        self.make_atomic(run.global, naga::Scalar::U32, location)?;
        let bits = run.scalar.size() * 8;
        let mask = u32_lit(fb, (1u32 << bits) - 1);
        let packed: Vec<_> = lanes
            .chunks(run.per_word() as usize)
            .map(|chunk| {
                let mut word = None;
                for (k, &lane) in chunk.iter().enumerate() {
                    let lane = if run.scalar.is_signed() {
                        fb.add(naga::Expression::As {
                            expr: lane,
                            kind: naga::ScalarKind::Uint,
                            convert: None,
                        })
                    } else {
                        lane
                    };
                    let mut field = fb.binary(B::And, lane, mask);
                    if k > 0 {
                        let at = u32_lit(fb, k as u32 * bits);
                        field = fb.binary(B::ShiftLeft, field, at);
                    }
                    word = Some(match word {
                        Some(acc) => fb.binary(B::InclusiveOr, acc, field),
                        None => field,
                    });
                }
                word.expect("a word has lanes")
            })
            .collect();
        let start = self.run_start(fb, run);
        let words = run.words() as usize;
        let all = u32_lit(fb, u32::MAX);
        // The first word: the run's low bytes, above `shift`.
        let first_bytes = fb.binary(B::ShiftLeft, packed[0], start.shift);
        let first_mask = fb.binary(B::ShiftLeft, all, start.shift);
        let zero = u32_lit(fb, 0);
        let pointer = Self::run_word(fb, run, &start, zero);
        replace_bits(fb, pointer, first_mask, first_bytes);
        // Words wholly inside the run.
        for j in 1..words {
            let low = fb.binary(B::ShiftLeft, packed[j], start.shift);
            let high = carry_in(fb, packed[j - 1], start.shift);
            let value = fb.binary(B::InclusiveOr, low, high);
            let offset = u32_lit(fb, j as u32);
            let pointer = Self::run_word(fb, run, &start, offset);
            fb.push(naga::Statement::Store { pointer, value });
        }
        // The word after, holding the run's high bytes when it straddles.
        let straddles = fb.binary(B::NotEqual, start.shift, zero);
        fb.blocks.push(naga::Block::new());
        let last_bytes = carry_in(fb, packed[words - 1], start.shift);
        let last_mask = carry_in(fb, all, start.shift);
        let offset = u32_lit(fb, words as u32);
        let pointer = Self::run_word(fb, run, &start, offset);
        replace_bits(fb, pointer, last_mask, last_bytes);
        let accept = fb.blocks.pop().expect("the straddling word's block");
        fb.push(naga::Statement::If {
            condition: straddles,
            accept,
            reject: naga::Block::new(),
        });
        Ok(())
    }
}
