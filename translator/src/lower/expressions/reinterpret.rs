//! `as_<type>` (OpenCL C 6.4.4.2): the bits of a value seen as another
//! type of the same size. Between types with the same lane count and
//! register width it is a bitcast per lane (re-wrapped for `char`/`short`,
//! which live in 32-bit registers). Otherwise (`as_char16(int4)`,
//! `as_float8(double4)`, `as_uint2(ulong)`) the value is taken apart into
//! 32-bit words, lanes in order and little-endian within each word as in
//! memory, and the words are cut into the target's lanes. A 3-vector
//! occupies the room of a 4-vector: its fourth lane reads as zero bits and
//! is dropped when it is the target. `half` lanes are reinterpreted as the
//! `ushort` of their bits.

use crate::diagnostic::Location;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::expressions::operators::extract_narrow;
use crate::lower::expressions::wide;
use crate::lower::function::FnBuilder;
use crate::lower::library::fp16;
use crate::lower::naga_types::naga_scalar;
use crate::types::{Scalar, Type};
use naga::{BinaryOperator as B, Handle};

impl ModuleBuilder<'_> {
    pub(in crate::lower) fn reinterpret_bits(
        &mut self,
        fb: &mut FnBuilder,
        v: Handle<naga::Expression>,
        from: &Type,
        to: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let (Some(fs), Some(ts)) = (from.element(), to.element()) else {
            return Err(self.error(location, "as_type of a non-arithmetic value"));
        };
        let (fw, tw) = (wide::width_of(from), wide::width_of(to));
        let same_shape = fs == ts && fw == tw;
        if !same_shape && (fs == Scalar::Half || ts == Scalar::Half) {
            // `half` lanes move as the `ushort` of their bits, which the
            // word paths below already handle (`half3` <-> `half4` too).
            let ushort = |ty: &Type| fp16::with_element(ty, Scalar::UShort);
            let (v, from) = if fs == Scalar::Half {
                (self.half_bits(fb, v, from, location)?, ushort(from))
            } else {
                (v, *from)
            };
            if ts != Scalar::Half {
                return self.reinterpret_bits(fb, v, &from, to, location);
            }
            let bits = self.reinterpret_bits(fb, v, &from, &ushort(to), location)?;
            return self.half_from_bits(fb, bits, to, location);
        }
        if fw == tw && naga_scalar(fs).width == naga_scalar(ts).width {
            return self.per_part(fb, to, &[(v, from)], location, |this, fb, v, part_to| {
                let bits = fb.add(naga::Expression::As {
                    expr: v[0],
                    kind: naga_scalar(ts).kind,
                    convert: None,
                });
                this.wrap_narrow(fb, bits, part_to)
            });
        }
        let words = self.words_of(fb, v, fs, fw);
        let mut lanes = Vec::new();
        for k in 0..tw {
            let value = self.lane_from_words(fb, &words, ts, k);
            lanes.push(wide::LaneRef {
                value,
                width: 1,
                lane: 0,
            });
        }
        self.gather(fb, ts, &lanes, location)
    }

    /// The 32-bit words holding the `width` lanes of `v` (element `s`) as
    /// memory would, a 3-vector padded to 4 lanes with zero and a value
    /// of under 32 bits in the low bits of one word.
    fn words_of(
        &mut self,
        fb: &mut FnBuilder,
        v: Handle<naga::Expression>,
        s: Scalar,
        width: u8,
    ) -> Vec<Handle<naga::Expression>> {
        let u32_lit =
            |fb: &mut Emitter, v: u32| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
        let lanes = crate::types::storage_lanes(width);
        let lane_bits = |fb: &mut Emitter, k: u8| {
            if k >= width {
                None
            } else {
                Some(fb.lane(v, width, k))
            }
        };
        let mut words = Vec::new();
        match s.size() {
            8 => {
                for k in 0..lanes {
                    let Some(lane) = lane_bits(fb, k) else {
                        let zero = u32_lit(fb, 0);
                        words.extend([zero, zero]);
                        continue;
                    };
                    let bits = fb.add(naga::Expression::As {
                        expr: lane,
                        kind: naga::ScalarKind::Uint,
                        convert: None,
                    });
                    let low = fb.add(naga::Expression::As {
                        expr: bits,
                        kind: naga::ScalarKind::Uint,
                        convert: Some(4),
                    });
                    let thirty_two = u32_lit(fb, 32);
                    let shifted = fb.binary(B::ShiftRight, bits, thirty_two);
                    let high = fb.add(naga::Expression::As {
                        expr: shifted,
                        kind: naga::ScalarKind::Uint,
                        convert: Some(4),
                    });
                    words.extend([low, high]);
                }
            }
            4 => {
                for k in 0..lanes {
                    words.push(match lane_bits(fb, k) {
                        Some(lane) => fb.add(naga::Expression::As {
                            expr: lane,
                            kind: naga::ScalarKind::Uint,
                            convert: None,
                        }),
                        None => u32_lit(fb, 0),
                    });
                }
            }
            size => {
                // char/short lanes in 32-bit registers, packed into words;
                // a value narrower than a word (`char2`, `short`) fills the
                // low bits of one.
                let bits = size * 8;
                let per_word = 32 / bits;
                let mask = u32_lit(fb, (1u32 << bits) - 1);
                for w in 0..u32::from(lanes).div_ceil(per_word) {
                    let mut word = None;
                    for j in 0..per_word {
                        let Some(lane) = lane_bits(fb, (w * per_word + j) as u8) else {
                            continue;
                        };
                        let unsigned = fb.add(naga::Expression::As {
                            expr: lane,
                            kind: naga::ScalarKind::Uint,
                            convert: None,
                        });
                        let mut field = fb.binary(B::And, unsigned, mask);
                        if j > 0 {
                            let at = u32_lit(fb, j * bits);
                            field = fb.binary(B::ShiftLeft, field, at);
                        }
                        word = Some(match word {
                            Some(acc) => fb.binary(B::InclusiveOr, acc, field),
                            None => field,
                        });
                    }
                    words.push(word.unwrap_or_else(|| u32_lit(fb, 0)));
                }
            }
        }
        words
    }

    /// Lane `k` of element type `s` cut from `words`.
    fn lane_from_words(
        &mut self,
        fb: &mut FnBuilder,
        words: &[Handle<naga::Expression>],
        s: Scalar,
        k: u8,
    ) -> Handle<naga::Expression> {
        let scalar = naga_scalar(s);
        let k = u32::from(k);
        match s.size() {
            8 => {
                let widen = |fb: &mut Emitter, w| {
                    fb.add(naga::Expression::As {
                        expr: w,
                        kind: naga::ScalarKind::Uint,
                        convert: Some(8),
                    })
                };
                let low = widen(fb, words[2 * k as usize]);
                let high = widen(fb, words[2 * k as usize + 1]);
                let thirty_two = fb.add(naga::Expression::Literal(naga::Literal::U32(32)));
                let high = fb.binary(B::ShiftLeft, high, thirty_two);
                let bits = fb.binary(B::InclusiveOr, low, high);
                fb.add(naga::Expression::As {
                    expr: bits,
                    kind: scalar.kind,
                    convert: None,
                })
            }
            4 => fb.add(naga::Expression::As {
                expr: words[k as usize],
                kind: scalar.kind,
                convert: None,
            }),
            size => {
                let bits = size * 8;
                let per_word = 32 / bits;
                let at = fb.add(naga::Expression::Literal(naga::Literal::U32(
                    (k % per_word) * bits,
                )));
                extract_narrow(fb, words[(k / per_word) as usize], at, s)
            }
        }
    }
}
