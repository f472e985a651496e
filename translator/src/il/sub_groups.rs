//! The `GroupNonUniform` instructions (`cl_khr_subgroup_*`) as the
//! sub-group built-ins they come from: the table gives each instruction's
//! name stem, and the group operation (reduce, scans, clustered reduce)
//! completes the name as OpenCL C spells it.

use super::function::{FunctionReader, R};
use crate::hir::ExprId;
use crate::types::Type;
use rspirv::dr::{Instruction, Operand};
use rspirv::spirv::{GroupOperation, Op};

/// How an instruction's operands (after its scope) become the call.
#[derive(Clone, Copy)]
enum Form {
    /// `name(operands...)`.
    Plain(&'static str),
    /// An arithmetic or logical operation: `sub_group_non_uniform_<form>_<stem>`
    /// or `sub_group_clustered_reduce_<stem>`; `signed` operands, and
    /// `logical` ones taken as `int` predicates.
    Arithmetic {
        stem: &'static str,
        signed: bool,
        logical: bool,
    },
    /// `sub_group_ballot_bit_count`, `_inclusive_scan`, `_exclusive_scan`.
    BallotCount,
}

const NON_UNIFORM: &[(Op, Form)] = &[
    (Op::GroupNonUniformElect, Form::Plain("sub_group_elect")),
    (
        Op::GroupNonUniformAll,
        Form::Plain("sub_group_non_uniform_all"),
    ),
    (
        Op::GroupNonUniformAny,
        Form::Plain("sub_group_non_uniform_any"),
    ),
    (
        Op::GroupNonUniformAllEqual,
        Form::Plain("sub_group_non_uniform_all_equal"),
    ),
    (
        Op::GroupNonUniformBroadcast,
        Form::Plain("sub_group_non_uniform_broadcast"),
    ),
    (
        Op::GroupNonUniformBroadcastFirst,
        Form::Plain("sub_group_broadcast_first"),
    ),
    (Op::GroupNonUniformBallot, Form::Plain("sub_group_ballot")),
    (
        Op::GroupNonUniformInverseBallot,
        Form::Plain("sub_group_inverse_ballot"),
    ),
    (
        Op::GroupNonUniformBallotBitExtract,
        Form::Plain("sub_group_ballot_bit_extract"),
    ),
    (Op::GroupNonUniformBallotBitCount, Form::BallotCount),
    (
        Op::GroupNonUniformBallotFindLSB,
        Form::Plain("sub_group_ballot_find_lsb"),
    ),
    (
        Op::GroupNonUniformBallotFindMSB,
        Form::Plain("sub_group_ballot_find_msb"),
    ),
    (Op::GroupNonUniformShuffle, Form::Plain("sub_group_shuffle")),
    (
        Op::GroupNonUniformShuffleXor,
        Form::Plain("sub_group_shuffle_xor"),
    ),
    (
        Op::GroupNonUniformShuffleUp,
        Form::Plain("sub_group_shuffle_up"),
    ),
    (
        Op::GroupNonUniformShuffleDown,
        Form::Plain("sub_group_shuffle_down"),
    ),
    (
        Op::GroupNonUniformRotateKHR,
        Form::Plain("sub_group_rotate"),
    ),
    (Op::GroupNonUniformIAdd, arithmetic("add", false)),
    (Op::GroupNonUniformFAdd, arithmetic("add", false)),
    (Op::GroupNonUniformIMul, arithmetic("mul", false)),
    (Op::GroupNonUniformFMul, arithmetic("mul", false)),
    (Op::GroupNonUniformSMin, arithmetic("min", true)),
    (Op::GroupNonUniformUMin, arithmetic("min", false)),
    (Op::GroupNonUniformFMin, arithmetic("min", false)),
    (Op::GroupNonUniformSMax, arithmetic("max", true)),
    (Op::GroupNonUniformUMax, arithmetic("max", false)),
    (Op::GroupNonUniformFMax, arithmetic("max", false)),
    (Op::GroupNonUniformBitwiseAnd, arithmetic("and", false)),
    (Op::GroupNonUniformBitwiseOr, arithmetic("or", false)),
    (Op::GroupNonUniformBitwiseXor, arithmetic("xor", false)),
    (Op::GroupNonUniformLogicalAnd, logical("logical_and")),
    (Op::GroupNonUniformLogicalOr, logical("logical_or")),
    (Op::GroupNonUniformLogicalXor, logical("logical_xor")),
];

const fn arithmetic(stem: &'static str, signed: bool) -> Form {
    Form::Arithmetic {
        stem,
        signed,
        logical: false,
    }
}

const fn logical(stem: &'static str) -> Form {
    Form::Arithmetic {
        stem,
        signed: false,
        logical: true,
    }
}

/// Whether `op` is one of the table's.
pub(super) fn is_non_uniform(op: Op) -> bool {
    NON_UNIFORM.iter().any(|(o, _)| *o == op)
}

impl FunctionReader<'_, '_> {
    /// A `GroupNonUniform` instruction of sub-group scope.
    pub(super) fn non_uniform(&mut self, inst: &Instruction) -> R<()> {
        let op = inst.class.opcode;
        let Some(&(_, form)) = NON_UNIFORM.iter().find(|(o, _)| *o == op) else {
            return Err(format!("Op{op:?} is not supported yet"));
        };
        if self.constant_operand(inst, 0)? != 3 {
            return Err("non-uniform group operations of scopes other than the sub-group".into());
        }
        let group_operation = inst.operands.iter().find_map(|o| match o {
            Operand::GroupOperation(g) => Some(*g),
            _ => None,
        });
        let mut operands = Vec::new();
        for (i, operand) in inst.operands.iter().enumerate().skip(1) {
            if matches!(operand, Operand::GroupOperation(_)) {
                continue;
            }
            let id = Self::operand_id(inst, i)?;
            let value = self.read(id)?;
            // Predicates are `int`s in OpenCL C.
            let value = if self.ty(value) == Type::BOOL {
                self.convert(value, Type::INT)
            } else {
                value
            };
            operands.push(value);
        }
        let call = match form {
            Form::Plain("sub_group_rotate") if operands.len() == 3 => {
                self.call_builtin("sub_group_clustered_rotate", operands)?
            }
            Form::Plain(name) => self.call_builtin(name, operands)?,
            Form::BallotCount => {
                let name = match group_operation {
                    Some(GroupOperation::InclusiveScan) => "sub_group_ballot_inclusive_scan",
                    Some(GroupOperation::ExclusiveScan) => "sub_group_ballot_exclusive_scan",
                    _ => "sub_group_ballot_bit_count",
                };
                self.call_builtin(name, operands)?
            }
            Form::Arithmetic {
                stem,
                signed,
                logical,
            } => {
                let operands: Vec<ExprId> = operands
                    .into_iter()
                    .enumerate()
                    .map(|(i, e)| match (i, signed, logical) {
                        (0, true, _) => self.signed(e),
                        (0, _, true) => self.convert(e, Type::INT),
                        _ => e,
                    })
                    .collect();
                let name = match group_operation {
                    Some(GroupOperation::Reduce) => format!("sub_group_non_uniform_reduce_{stem}"),
                    Some(GroupOperation::InclusiveScan) => {
                        format!("sub_group_non_uniform_scan_inclusive_{stem}")
                    }
                    Some(GroupOperation::ExclusiveScan) => {
                        format!("sub_group_non_uniform_scan_exclusive_{stem}")
                    }
                    Some(GroupOperation::ClusteredReduce) => {
                        format!("sub_group_clustered_reduce_{stem}")
                    }
                    _ => return Err("a group operation that is not a reduction or scan".into()),
                };
                self.call_builtin(&name, operands)?
            }
        };
        self.define(inst, call)
    }
}
