//! The ballot functions of `cl_khr_subgroup_ballot`. A ballot is a
//! `uint4` whose bit `i` (word `i / 32`, bit `i % 32`) stands for the
//! sub-group's work-item of local id `i`; `sub_group_ballot` is Vulkan's,
//! and the functions that read one and the masks are arithmetic on its
//! four words, which count only bits below the sub-group's largest size
//! (`get_max_sub_group_size`).

use crate::builtins::Builtin;
use crate::diagnostic::Location;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::expressions::{Operand, Value};
use crate::lower::function::FnBuilder;
use crate::types::Type;
use naga::{BinaryOperator as Op, Handle, Span};

/// Whether `b` is a ballot function this module lowers: those of
/// `cl_khr_subgroup_ballot` but its broadcasts, which are gathers.
pub(super) fn is_ballot_function(b: Builtin) -> bool {
    b.sub_group_extension() == Some("cl_khr_subgroup_ballot")
        && !matches!(
            b,
            Builtin::SubGroupNonUniformBroadcast | Builtin::SubGroupBroadcastFirst
        )
}

impl ModuleBuilder<'_> {
    /// A call of ballot function `b` with `args`, whose result has type
    /// `ty`.
    pub(super) fn ballot_function(
        &mut self,
        fb: &mut FnBuilder,
        b: Builtin,
        args: &[Operand],
        location: Location,
    ) -> LResult<Value> {
        use naga::BuiltIn as In;
        let lane = self.sub_group_value(fb, In::SubgroupInvocationId);
        let one = fb.add(naga::Expression::Literal(naga::Literal::U32(1)));
        let lane_and_below = fb.binary(Op::Add, lane, one);
        let value = match b {
            Builtin::SubGroupBallot => {
                let predicate = self.condition(fb, args[0])?;
                let result = (fb.function.expressions)
                    .append(naga::Expression::SubgroupBallotResult, Span::UNDEFINED);
                fb.push(naga::Statement::SubgroupBallot {
                    result,
                    predicate: Some(predicate),
                });
                result
            }
            Builtin::SubGroupInverseBallot | Builtin::SubGroupBallotBitExtract => {
                let ballot = self.plain(fb, args[0])?;
                let index = match b {
                    Builtin::SubGroupInverseBallot => lane,
                    _ => {
                        let index_ty = fb.ty(args[1]);
                        let index = self.plain(fb, args[1])?;
                        self.convert(fb, index, &index_ty, &Type::UINT, location)?
                    }
                };
                let bit = self.ballot_bit(fb, ballot, index);
                let zero = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
                let set = fb.binary(Op::NotEqual, bit, zero);
                let one = self.constant(fb, &Type::INT, 1, location)?;
                let zero = self.constant(fb, &Type::INT, 0, location)?;
                return Ok(Value::Plain(fb.select(set, one, zero)));
            }
            Builtin::SubGroupBallotBitCount
            | Builtin::SubGroupBallotInclusiveScan
            | Builtin::SubGroupBallotExclusiveScan => {
                let ballot = self.plain(fb, args[0])?;
                let bound = match b {
                    Builtin::SubGroupBallotBitCount => self.max_lanes(fb),
                    Builtin::SubGroupBallotInclusiveScan => lane_and_below,
                    _ => lane,
                };
                let mask = self.lanes_below(fb, bound);
                let counted = fb.binary(Op::And, ballot, mask);
                self.ballot_bit_count(fb, counted)
            }
            Builtin::SubGroupBallotFindLsb | Builtin::SubGroupBallotFindMsb => {
                let ballot = self.plain(fb, args[0])?;
                let max = self.max_lanes(fb);
                let mask = self.lanes_below(fb, max);
                let ballot = fb.binary(Op::And, ballot, mask);
                self.find_bit(fb, ballot, b == Builtin::SubGroupBallotFindLsb)
            }
            _ => {
                let max = self.max_lanes(fb);
                let all = self.lanes_below(fb, max);
                let le = self.lanes_below(fb, lane_and_below);
                let lt = self.lanes_below(fb, lane);
                match b {
                    Builtin::SubGroupEqMask => fb.binary(Op::ExclusiveOr, le, lt),
                    Builtin::SubGroupGeMask => fb.binary(Op::ExclusiveOr, all, lt),
                    Builtin::SubGroupGtMask => fb.binary(Op::ExclusiveOr, all, le),
                    Builtin::SubGroupLeMask => le,
                    _ => lt,
                }
            }
        };
        Ok(Value::Plain(value))
    }

    /// `get_max_sub_group_size()`.
    fn max_lanes(&mut self, fb: &mut FnBuilder) -> Handle<naga::Expression> {
        let size = self.sub_group_value(fb, naga::BuiltIn::SubgroupSize);
        let group = self.linear_size(fb, true);
        fb.math(naga::MathFunction::Min, size, Some(group))
    }

    /// Bit `index` of `ballot`, 0 or 1 (an index past the ballot reads
    /// its last word).
    pub(super) fn ballot_bit(
        &mut self,
        fb: &mut FnBuilder,
        ballot: Handle<naga::Expression>,
        index: Handle<naga::Expression>,
    ) -> Handle<naga::Expression> {
        let literal =
            |fb: &mut FnBuilder, v| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
        let five = literal(fb, 5);
        let last = literal(fb, 3);
        let word = fb.binary(Op::ShiftRight, index, five);
        let word = fb.math(naga::MathFunction::Min, word, Some(last));
        let word = fb.add(naga::Expression::Access {
            base: ballot,
            index: word,
        });
        let low = literal(fb, 31);
        let shift = fb.binary(Op::And, index, low);
        let shifted = fb.binary(Op::ShiftRight, word, shift);
        let one = literal(fb, 1);
        fb.binary(Op::And, shifted, one)
    }

    /// The ballot with the bits of lanes below `n` set.
    fn lanes_below(
        &mut self,
        fb: &mut FnBuilder,
        n: Handle<naga::Expression>,
    ) -> Handle<naga::Expression> {
        let literal =
            |fb: &mut FnBuilder, v| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
        let mut words = Vec::with_capacity(4);
        for word in 0..4u32 {
            let first = literal(fb, 32 * word);
            // How many of this word's 32 lanes are below n.
            let past = fb.math(naga::MathFunction::Max, n, Some(first));
            let count = fb.binary(Op::Subtract, past, first);
            let thirty_one = literal(fb, 31);
            let shift = fb.math(naga::MathFunction::Min, count, Some(thirty_one));
            let one = literal(fb, 1);
            let bit = fb.binary(Op::ShiftLeft, one, shift);
            let partial = fb.binary(Op::Subtract, bit, one);
            let thirty_two = literal(fb, 32);
            let full = fb.binary(Op::GreaterEqual, count, thirty_two);
            let all = literal(fb, u32::MAX);
            words.push(fb.select(full, all, partial));
        }
        let ty = self.add_type(naga::TypeInner::Vector {
            size: naga::VectorSize::Quad,
            scalar: naga::Scalar::U32,
        });
        fb.add(naga::Expression::Compose {
            ty,
            components: words,
        })
    }

    /// How many bits of `ballot` are set.
    fn ballot_bit_count(
        &mut self,
        fb: &mut FnBuilder,
        ballot: Handle<naga::Expression>,
    ) -> Handle<naga::Expression> {
        let counts = fb.math(naga::MathFunction::CountOneBits, ballot, None);
        let mut total = fb.add(naga::Expression::AccessIndex {
            base: counts,
            index: 0,
        });
        for word in 1..4 {
            let count = fb.add(naga::Expression::AccessIndex {
                base: counts,
                index: word,
            });
            total = fb.binary(Op::Add, total, count);
        }
        total
    }

    /// The lowest (`lowest`) or highest set bit of `ballot`; all ones
    /// where none is.
    fn find_bit(
        &mut self,
        fb: &mut FnBuilder,
        ballot: Handle<naga::Expression>,
        lowest: bool,
    ) -> Handle<naga::Expression> {
        let literal =
            |fb: &mut FnBuilder, v| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
        let mut found = literal(fb, u32::MAX);
        // The word that decides comes last: the lowest for the lowest bit.
        let order: Vec<u32> = if lowest {
            vec![3, 2, 1, 0]
        } else {
            vec![0, 1, 2, 3]
        };
        for word in order {
            let bits = fb.add(naga::Expression::AccessIndex {
                base: ballot,
                index: word,
            });
            let fun = if lowest {
                naga::MathFunction::FirstTrailingBit
            } else {
                naga::MathFunction::FirstLeadingBit
            };
            let bit = fb.math(fun, bits, None);
            let first = literal(fb, 32 * word);
            let position = fb.binary(Op::Add, first, bit);
            let zero = literal(fb, 0);
            let any = fb.binary(Op::NotEqual, bits, zero);
            found = fb.select(any, position, found);
        }
        found
    }
}
