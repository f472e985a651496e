//! Atomics and group operations as the built-ins they come from: the
//! OpenCL 1.x functions where the operation is relaxed, 32-bit and on
//! `__global` or `__local` memory, OpenCL 2.0's `_explicit` ones (with the
//! instruction's memory order and scope) otherwise; `Groups` instructions
//! as the work-group and sub-group collectives.

use super::arithmetic::signed_type;
use super::function::{FunctionReader, R};
use crate::ast::AddressSpace;
use crate::hir::{ExprId, ExprKind, StmtKind, Symbol};
use crate::types::Type;
use rspirv::dr::{Instruction, Operand};
use rspirv::spirv::{GroupOperation, Op};

/// The atomics as built-in names: the OpenCL 1.x name (relaxed), the
/// OpenCL 2.0 name (with an order and a scope), and whether the value and
/// the pointee are signed.
const ATOMICS: &[(Op, &str, &str, bool)] = &[
    (
        Op::AtomicExchange,
        "atomic_xchg",
        "atomic_exchange_explicit",
        false,
    ),
    (
        Op::AtomicIAdd,
        "atomic_add",
        "atomic_fetch_add_explicit",
        false,
    ),
    (
        Op::AtomicISub,
        "atomic_sub",
        "atomic_fetch_sub_explicit",
        false,
    ),
    (
        Op::AtomicSMin,
        "atomic_min",
        "atomic_fetch_min_explicit",
        true,
    ),
    (
        Op::AtomicUMin,
        "atomic_min",
        "atomic_fetch_min_explicit",
        false,
    ),
    (
        Op::AtomicSMax,
        "atomic_max",
        "atomic_fetch_max_explicit",
        true,
    ),
    (
        Op::AtomicUMax,
        "atomic_max",
        "atomic_fetch_max_explicit",
        false,
    ),
    (
        Op::AtomicAnd,
        "atomic_and",
        "atomic_fetch_and_explicit",
        false,
    ),
    (Op::AtomicOr, "atomic_or", "atomic_fetch_or_explicit", false),
    (
        Op::AtomicXor,
        "atomic_xor",
        "atomic_fetch_xor_explicit",
        false,
    ),
    (
        Op::AtomicFAddEXT,
        "atomic_fetch_add_explicit",
        "atomic_fetch_add_explicit",
        false,
    ),
    (
        Op::AtomicFMinEXT,
        "atomic_fetch_min_explicit",
        "atomic_fetch_min_explicit",
        false,
    ),
    (
        Op::AtomicFMaxEXT,
        "atomic_fetch_max_explicit",
        "atomic_fetch_max_explicit",
        false,
    ),
];

/// SPIR-V `Scope` (by value) as OpenCL C's `memory_scope`.
const MEMORY_SCOPES: &[(u64, u64)] = &[(0, 3), (1, 2), (2, 1), (3, 4), (4, 0)];

/// SPIR-V memory-semantics ordering bits as OpenCL C's `memory_order`.
const MEMORY_ORDERS: &[(u64, u64)] = &[(0x2, 2), (0x4, 3), (0x8, 4), (0x10, 5)];

/// The group operations: work-group or sub-group function name stems and
/// whether the operand is signed.
const GROUP_ARITHMETIC: &[(Op, &str, bool)] = &[
    (Op::GroupIAdd, "add", false),
    (Op::GroupFAdd, "add", false),
    (Op::GroupFMin, "min", false),
    (Op::GroupUMin, "min", false),
    (Op::GroupSMin, "min", true),
    (Op::GroupFMax, "max", false),
    (Op::GroupUMax, "max", false),
    (Op::GroupSMax, "max", true),
];

impl FunctionReader<'_, '_> {
    /// The atomic instructions.
    pub(super) fn atomic(&mut self, inst: &Instruction) -> R<()> {
        let op = inst.class.opcode;
        let pointer_id = Self::operand_id(inst, 0)?;
        let scope = self.constant_operand(inst, 1)?;
        let semantics = self.constant_operand(inst, 2)?;
        let order = MEMORY_ORDERS
            .iter()
            .find(|(bit, _)| semantics & bit != 0)
            .map_or(0, |(_, order)| *order);
        let scope = MEMORY_SCOPES
            .iter()
            .find(|(s, _)| *s == scope)
            .map_or(2, |(_, scope)| *scope);
        let order_e = self.expr(ExprKind::Int(order), Type::INT);
        let scope_e = self.expr(ExprKind::Int(scope), Type::INT);
        let pointer = self.read(pointer_id)?;
        let e = match op {
            Op::AtomicLoad => {
                self.call_builtin("atomic_load_explicit", vec![pointer, order_e, scope_e])?
            }
            Op::AtomicFlagTestAndSet => {
                let pointer = self.signed_pointer(pointer);
                self.call_builtin(
                    "atomic_flag_test_and_set_explicit",
                    vec![pointer, order_e, scope_e],
                )?
            }
            Op::AtomicFlagClear => {
                let pointer = self.signed_pointer(pointer);
                let call = self.call_builtin(
                    "atomic_flag_clear_explicit",
                    vec![pointer, order_e, scope_e],
                )?;
                self.stmt(StmtKind::Expr(call));
                return Ok(());
            }
            Op::AtomicStore => {
                let value = self.read(Self::operand_id(inst, 3)?)?;
                let call = self.call_builtin(
                    "atomic_store_explicit",
                    vec![pointer, value, order_e, scope_e],
                )?;
                self.stmt(StmtKind::Expr(call));
                return Ok(());
            }
            Op::AtomicIIncrement | Op::AtomicIDecrement => {
                let ty = self.result_type(inst)?;
                let one = self.expr(ExprKind::Int(1), ty);
                let name = if op == Op::AtomicIIncrement {
                    "atomic_fetch_add_explicit"
                } else {
                    "atomic_fetch_sub_explicit"
                };
                self.call_builtin(name, vec![pointer, one, order_e, scope_e])?
            }
            Op::AtomicCompareExchange | Op::AtomicCompareExchangeWeak => {
                let value = self.read(Self::operand_id(inst, 4)?)?;
                let comparator = self.read(Self::operand_id(inst, 5)?)?;
                let ty = self.ty(comparator);
                if order == 0
                    && ty.scalar().is_some_and(|s| s.size() == 4)
                    && self.named_space(pointer)
                {
                    let call =
                        self.call_builtin("atomic_cmpxchg", vec![pointer, comparator, value])?;
                    return self.define(inst, call);
                }
                // The old value is what `expected` holds after the call.
                let expected = self.local(ty, Symbol::EMPTY);
                self.stmt(StmtKind::Init(expected, comparator));
                let expected_lvalue = self.expr(ExprKind::Local(expected), ty);
                let pointer_ty = self.reader.program.types.pointer(crate::types::Pointee {
                    ty,
                    is_const: false,
                    is_volatile: false,
                    space: crate::ast::AddressSpace::Private,
                    endian_host: false,
                });
                let expected_pointer = self.expr(ExprKind::AddressOf(expected_lvalue), pointer_ty);
                let failure_order = if order == 3 || order == 4 { 2 } else { order };
                let failure = self.expr(ExprKind::Int(failure_order.min(order)), Type::INT);
                let call = self.call_builtin(
                    "atomic_compare_exchange_strong_explicit",
                    vec![pointer, expected_pointer, value, order_e, failure, scope_e],
                )?;
                self.stmt(StmtKind::Expr(call));
                self.expr(ExprKind::Local(expected), ty)
            }
            _ => {
                let Some(&(_, legacy, explicit, signed)) = ATOMICS.iter().find(|(o, ..)| *o == op)
                else {
                    return Err(format!("Op{op:?} is not supported yet"));
                };
                let value = self.read(Self::operand_id(inst, 3)?)?;
                let (pointer, value) = if signed {
                    let p = self.signed_pointer(pointer);
                    (p, self.signed(value))
                } else {
                    (pointer, value)
                };
                // OpenCL 1.x's atomics are relaxed, 32-bit, on __global
                // and __local memory; the others are 2.0's.
                let wide = self.ty(value).scalar().is_some_and(|s| s.size() == 8);
                let float = self.ty(value).element().is_some_and(|s| s.is_float());
                if order == 0 && !wide && !float && self.named_space(pointer) {
                    self.call_builtin(legacy, vec![pointer, value])?
                } else {
                    self.call_builtin(explicit, vec![pointer, value, order_e, scope_e])?
                }
            }
        };
        self.define(inst, e)
    }

    /// Whether `pointer` points to `__global` or `__local` memory, where
    /// OpenCL 1.x's atomics work.
    fn named_space(&self, pointer: ExprId) -> bool {
        self.reader
            .program
            .types
            .pointee(self.ty(pointer))
            .is_some_and(|p| matches!(p.space, AddressSpace::Global | AddressSpace::Local))
    }

    /// A pointer to an integer as a pointer to the signed integer.
    fn signed_pointer(&mut self, pointer: ExprId) -> ExprId {
        let ty = self.ty(pointer);
        let Some(pointee) = self.reader.program.types.pointee(ty).copied() else {
            return pointer;
        };
        let signed = signed_type(pointee.ty);
        let to = self.reader.program.types.pointer(crate::types::Pointee {
            ty: signed,
            ..pointee
        });
        self.convert(pointer, to)
    }

    /// The group operations, as work-group or sub-group functions.
    pub(super) fn group(&mut self, inst: &Instruction) -> R<()> {
        let op = inst.class.opcode;
        let prefix = match self.constant_operand(inst, 0)? {
            2 => "work_group",
            3 => "sub_group",
            _ => {
                return Err("group operations of scopes other than work-group and sub-group".into())
            }
        };
        let e = match op {
            Op::GroupAll | Op::GroupAny => {
                let predicate = self.read(Self::operand_id(inst, 1)?)?;
                let predicate = self.convert(predicate, Type::INT);
                let name = if op == Op::GroupAll { "all" } else { "any" };
                self.call_builtin(&format!("{prefix}_{name}"), vec![predicate])?
            }
            Op::GroupBroadcast => {
                let value = self.read(Self::operand_id(inst, 1)?)?;
                let id = self.read(Self::operand_id(inst, 2)?)?;
                let held = self.held(id);
                let mut args = vec![value];
                match self.ty(held) {
                    Type::Vector(s, n) => {
                        for k in 0..n {
                            args.push(self.lane(held, k, Type::Scalar(s)));
                        }
                    }
                    _ => args.push(held),
                }
                self.call_builtin(&format!("{prefix}_broadcast"), args)?
            }
            _ => {
                let Some(&(_, stem, signed)) = GROUP_ARITHMETIC.iter().find(|(o, ..)| *o == op)
                else {
                    return Err(format!("Op{op:?} is not supported yet"));
                };
                let form = match inst.operands.get(1) {
                    Some(Operand::GroupOperation(GroupOperation::Reduce)) => "reduce",
                    Some(Operand::GroupOperation(GroupOperation::InclusiveScan)) => {
                        "scan_inclusive"
                    }
                    Some(Operand::GroupOperation(GroupOperation::ExclusiveScan)) => {
                        "scan_exclusive"
                    }
                    _ => return Err("a group operation that is not a reduction or scan".into()),
                };
                let x = self.read(Self::operand_id(inst, 2)?)?;
                let x = if signed { self.signed(x) } else { x };
                self.call_builtin(&format!("{prefix}_{form}_{stem}"), vec![x])?
            }
        };
        self.define(inst, e)
    }
}
