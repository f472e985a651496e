//! Value instructions: arithmetic, comparisons, logic, conversions and
//! composites as C's operators (SPIR-V integers are held unsigned; an
//! instruction that reads them as signed converts its operands first).
//! The tables say which operator each instruction is; `atomics` has the
//! atomics and group operations.

use super::function::{FunctionReader, R};
use super::instructions::conversion_suffix;
use crate::ast::BinaryOp;
use crate::hir::{ExprId, ExprKind, StmtKind, Symbol, UnaryOp};
use crate::types::{Scalar, Type};
use rspirv::dr::{Instruction, Operand};
use rspirv::spirv::Op;

/// Instructions that are one C binary operator: the operator and whether
/// the operands are read as signed.
const BINARY: &[(Op, BinaryOp, bool)] = &[
    (Op::IAdd, BinaryOp::Add, false),
    (Op::ISub, BinaryOp::Sub, false),
    (Op::IMul, BinaryOp::Mul, false),
    (Op::UDiv, BinaryOp::Div, false),
    (Op::SDiv, BinaryOp::Div, true),
    (Op::UMod, BinaryOp::Rem, false),
    (Op::SRem, BinaryOp::Rem, true),
    (Op::FAdd, BinaryOp::Add, false),
    (Op::FSub, BinaryOp::Sub, false),
    (Op::FMul, BinaryOp::Mul, false),
    (Op::FDiv, BinaryOp::Div, false),
    (Op::ShiftLeftLogical, BinaryOp::Shl, false),
    (Op::ShiftRightLogical, BinaryOp::Shr, false),
    (Op::ShiftRightArithmetic, BinaryOp::Shr, true),
    (Op::BitwiseAnd, BinaryOp::BitAnd, false),
    (Op::BitwiseOr, BinaryOp::BitOr, false),
    (Op::BitwiseXor, BinaryOp::BitXor, false),
];

/// Comparisons: the C operator, whether the operands are signed, and
/// whether the result is the operator's negation (the unordered float
/// comparisons are true for NaN: `FUnordLessThan` is `!(a >= b)`).
const COMPARISONS: &[(Op, BinaryOp, bool, bool)] = &[
    (Op::IEqual, BinaryOp::Eq, false, false),
    (Op::INotEqual, BinaryOp::Ne, false, false),
    (Op::ULessThan, BinaryOp::Lt, false, false),
    (Op::SLessThan, BinaryOp::Lt, true, false),
    (Op::ULessThanEqual, BinaryOp::Le, false, false),
    (Op::SLessThanEqual, BinaryOp::Le, true, false),
    (Op::UGreaterThan, BinaryOp::Gt, false, false),
    (Op::SGreaterThan, BinaryOp::Gt, true, false),
    (Op::UGreaterThanEqual, BinaryOp::Ge, false, false),
    (Op::SGreaterThanEqual, BinaryOp::Ge, true, false),
    (Op::FOrdEqual, BinaryOp::Eq, false, false),
    (Op::FOrdLessThan, BinaryOp::Lt, false, false),
    (Op::FOrdGreaterThan, BinaryOp::Gt, false, false),
    (Op::FOrdLessThanEqual, BinaryOp::Le, false, false),
    (Op::FOrdGreaterThanEqual, BinaryOp::Ge, false, false),
    (Op::FUnordNotEqual, BinaryOp::Ne, false, false),
    (Op::FUnordLessThan, BinaryOp::Ge, false, true),
    (Op::FUnordGreaterThan, BinaryOp::Le, false, true),
    (Op::FUnordLessThanEqual, BinaryOp::Gt, false, true),
    (Op::FUnordGreaterThanEqual, BinaryOp::Lt, false, true),
];

/// Instructions that are one relational or geometric built-in of their
/// operands, and whether its result is negated.
const BUILTIN_CALLS: &[(Op, &str, bool)] = &[
    (Op::IsNan, "isnan", false),
    (Op::IsInf, "isinf", false),
    (Op::IsFinite, "isfinite", false),
    (Op::IsNormal, "isnormal", false),
    (Op::SignBitSet, "signbit", false),
    (Op::Ordered, "isordered", false),
    (Op::Unordered, "isunordered", false),
    (Op::LessOrGreater, "islessgreater", false),
    (Op::FOrdNotEqual, "islessgreater", false),
    (Op::FUnordEqual, "islessgreater", true),
    (Op::Any, "any", false),
    (Op::All, "all", false),
    (Op::Dot, "dot", false),
    (Op::FRem, "fmod", false),
    (Op::BitCount, "popcount", false),
];

impl FunctionReader<'_, '_> {
    /// A value instruction not handled elsewhere.
    pub(super) fn arithmetic(&mut self, inst: &Instruction) -> R<()> {
        let op = inst.class.opcode;
        let operand = |this: &mut Self, i: usize| -> R<ExprId> {
            let id = Self::operand_id(inst, i)?;
            this.read(id)
        };
        if let Some((p, q)) = self.pointer_operands(inst) {
            return self.pointer_arithmetic(inst, p, q);
        }
        if let Some(&(_, binary, signed)) = BINARY.iter().find(|(o, ..)| *o == op) {
            let mut a = operand(self, 0)?;
            let mut b = operand(self, 1)?;
            if signed {
                a = self.signed(a);
                b = self.signed(b);
            }
            // Narrow scalars compute in `int`, as C promotes them; the
            // result is wrapped back to the width when it is stored.
            let (a, b) = (self.promoted(a), self.promoted(b));
            let ty = self.ty(a);
            let b = if matches!(binary, BinaryOp::Shl | BinaryOp::Shr) {
                // C's shift takes the count in the shifted type.
                self.convert(b, ty)
            } else {
                b
            };
            let e = self.expr(ExprKind::Binary(binary, a, b), ty);
            return self.define(inst, e);
        }
        if let Some(&(_, comparison, signed, negate)) = COMPARISONS.iter().find(|(o, ..)| *o == op)
        {
            let mut a = operand(self, 0)?;
            let mut b = operand(self, 1)?;
            if signed {
                a = self.signed(a);
                b = self.signed(b);
            }
            let ty = truth_type(self.ty(a));
            let mut e = self.expr(ExprKind::Binary(comparison, a, b), ty);
            if negate {
                e = self.expr(ExprKind::Unary(UnaryOp::LogicalNot, e), ty);
            }
            return self.define(inst, e);
        }
        if let Some(&(_, name, negate)) = BUILTIN_CALLS.iter().find(|(o, ..)| *o == op) {
            let mut args = Vec::new();
            for i in 0..inst.operands.len() {
                args.push(operand(self, i)?);
            }
            let mut e = self.call_builtin(name, args)?;
            if negate {
                let ty = self.ty(e);
                e = self.expr(ExprKind::Unary(UnaryOp::LogicalNot, e), ty);
            }
            return self.define(inst, e);
        }
        match op {
            Op::SNegate | Op::FNegate | Op::Not => {
                let a = operand(self, 0)?;
                let a = self.promoted(a);
                let ty = self.ty(a);
                let unary = if op == Op::Not {
                    UnaryOp::BitNot
                } else {
                    UnaryOp::Negate
                };
                let e = self.expr(ExprKind::Unary(unary, a), ty);
                self.define(inst, e)
            }
            Op::LogicalAnd | Op::LogicalOr | Op::LogicalEqual | Op::LogicalNotEqual => {
                let a = operand(self, 0)?;
                let b = operand(self, 1)?;
                let (a, b) = (self.as_truth(a), self.as_truth(b));
                let binary = match op {
                    Op::LogicalAnd => BinaryOp::BitAnd,
                    Op::LogicalOr => BinaryOp::BitOr,
                    Op::LogicalEqual => BinaryOp::Eq,
                    _ => BinaryOp::Ne,
                };
                let ty = self.ty(a);
                let e = self.expr(ExprKind::Binary(binary, a, b), ty);
                self.define(inst, e)
            }
            Op::LogicalNot => {
                let a = operand(self, 0)?;
                let a = self.as_truth(a);
                let ty = self.ty(a);
                let e = self.expr(ExprKind::Unary(UnaryOp::LogicalNot, a), ty);
                self.define(inst, e)
            }
            Op::Select => {
                let condition = operand(self, 0)?;
                let a = operand(self, 1)?;
                let b = operand(self, 2)?;
                let ty = self.ty(a);
                let e = match (self.ty(condition), ty) {
                    (Type::Vector(..), Type::Vector(s, n)) => {
                        let mask = self.convert(condition, Type::Vector(s.to_signed_int(), n));
                        self.call_builtin("select", vec![b, a, mask])?
                    }
                    _ => self.expr(ExprKind::Conditional(condition, a, b), ty),
                };
                self.define(inst, e)
            }
            Op::VectorTimesScalar => {
                let v = operand(self, 0)?;
                let s = operand(self, 1)?;
                let ty = self.ty(v);
                let s = self.expr(ExprKind::Splat(s), ty);
                let e = self.expr(ExprKind::Binary(BinaryOp::Mul, v, s), ty);
                self.define(inst, e)
            }
            Op::UConvert | Op::FConvert | Op::ConvertUToF | Op::ConvertFToU => {
                let a = operand(self, 0)?;
                let ty = self.result_type(inst)?;
                let e = self.conversion(inst, a, ty)?;
                self.define(inst, e)
            }
            Op::SConvert | Op::ConvertFToS => {
                let a = operand(self, 0)?;
                let a = if op == Op::SConvert {
                    self.signed(a)
                } else {
                    a
                };
                let ty = signed_type(self.result_type(inst)?);
                let e = self.conversion(inst, a, ty)?;
                self.define(inst, e)
            }
            Op::ConvertSToF => {
                let a = operand(self, 0)?;
                let a = self.signed(a);
                let ty = self.result_type(inst)?;
                let e = self.conversion(inst, a, ty)?;
                self.define(inst, e)
            }
            Op::SatConvertSToU | Op::SatConvertUToS => {
                let a = operand(self, 0)?;
                let (a, ty) = if op == Op::SatConvertSToU {
                    (self.signed(a), self.result_type(inst)?)
                } else {
                    (a, signed_type(self.result_type(inst)?))
                };
                let e = self.call_builtin(&format!("convert_{}_sat", type_name(ty)?), vec![a])?;
                self.define(inst, e)
            }
            Op::PtrEqual | Op::PtrNotEqual | Op::PtrDiff => {
                let a = operand(self, 0)?;
                let b = operand(self, 1)?;
                let (binary, ty) = match op {
                    Op::PtrEqual => (BinaryOp::Eq, Type::INT),
                    Op::PtrNotEqual => (BinaryOp::Ne, Type::INT),
                    _ => (BinaryOp::Sub, self.index_type()),
                };
                let e = self.expr(ExprKind::Binary(binary, a, b), ty);
                self.define(inst, e)
            }
            Op::CopyLogical => {
                let a = operand(self, 0)?;
                let ty = self.result_type(inst)?;
                let e = self.copy_logical(a, ty)?;
                self.define(inst, e)
            }
            Op::ConvertPtrToU | Op::ConvertUToPtr => {
                if op == Op::ConvertPtrToU {
                    let pointer = Self::operand_id(inst, 0)?;
                    self.pointer_integers
                        .insert(inst.result_id.unwrap_or(0), pointer);
                }
                let a = operand(self, 0)?;
                let ty = self.result_type(inst)?;
                let e = self.expr(ExprKind::Convert(a), ty);
                self.define(inst, e)
            }
            Op::CompositeExtract => {
                let base = operand(self, 0)?;
                let mut e = self.held(base);
                for operand in &inst.operands[1..] {
                    let Operand::LiteralBit32(k) = *operand else {
                        return Err("a composite index that is not a literal".into());
                    };
                    e = self.member(e, k)?;
                }
                self.define(inst, e)
            }
            Op::CompositeInsert => {
                let object = operand(self, 0)?;
                let base = operand(self, 1)?;
                let ty = self.ty(base);
                let copy = self.local(ty, Symbol::EMPTY);
                self.stmt(StmtKind::Init(copy, base));
                let mut target = self.expr(ExprKind::Local(copy), ty);
                for operand in &inst.operands[2..] {
                    let Operand::LiteralBit32(k) = *operand else {
                        return Err("a composite index that is not a literal".into());
                    };
                    target = self.member(target, k)?;
                }
                let target_ty = self.ty(target);
                let object = self.convert(object, target_ty);
                let assign = self.expr(ExprKind::Assign(target, object), target_ty);
                self.stmt(StmtKind::Expr(assign));
                let e = self.expr(ExprKind::Local(copy), ty);
                self.define(inst, e)
            }
            Op::CompositeConstruct => {
                let ty = self.result_type(inst)?;
                let mut parts = Vec::new();
                for i in 0..inst.operands.len() {
                    let part = operand(self, i)?;
                    parts.push(match (ty, self.ty(part)) {
                        (Type::Vector(Scalar::Int, _), Type::Scalar(Scalar::Bool)) => {
                            self.bool_lane(part)
                        }
                        _ => part,
                    });
                }
                let e = match ty {
                    Type::Vector(..) => self.expr(ExprKind::VectorLiteral(parts), ty),
                    _ => {
                        let items = super::constants::flatten(&self.f.exprs, parts);
                        self.expr(ExprKind::InitList(items), ty)
                    }
                };
                self.define(inst, e)
            }
            Op::VectorShuffle => {
                let a = operand(self, 0)?;
                let b = operand(self, 1)?;
                let ty = self.result_type(inst)?;
                let a_lanes = match self.ty(a) {
                    Type::Vector(_, n) => n as u32,
                    _ => return Err("a shuffle of values that are not vectors".into()),
                };
                let components: Vec<u32> = inst.operands[2..]
                    .iter()
                    .map(|o| match o {
                        // An undefined lane (0xFFFFFFFF) takes lane 0.
                        Operand::LiteralBit32(k) if *k != u32::MAX => *k,
                        _ => 0,
                    })
                    .collect();
                let defined: Vec<u8> = inst.operands[2..]
                    .iter()
                    .enumerate()
                    .filter(|(_, o)| **o != Operand::LiteralBit32(u32::MAX))
                    .map(|(lane, _)| lane as u8)
                    .collect();
                if defined.len() < components.len() {
                    self.partly_defined
                        .insert(inst.result_id.unwrap_or(0), defined);
                }
                let a = self.held(a);
                let e = if components.iter().all(|&k| k < a_lanes) {
                    let lanes = components.iter().map(|&k| k as u8).collect();
                    self.expr(ExprKind::Swizzle(a, lanes), ty)
                } else {
                    let b = self.held(b);
                    let element = Type::Scalar(ty.element().unwrap_or(Scalar::UInt));
                    let mut lanes = Vec::new();
                    for &k in &components {
                        let (source, lane) = if k < a_lanes {
                            (a, k)
                        } else {
                            (b, k - a_lanes)
                        };
                        let source = self.reread(source);
                        lanes.push(self.expr(ExprKind::Swizzle(source, vec![lane as u8]), element));
                    }
                    self.expr(ExprKind::VectorLiteral(lanes), ty)
                };
                self.define(inst, e)
            }
            Op::VectorExtractDynamic | Op::VectorInsertDynamic => {
                let v = operand(self, 0)?;
                let v = self.held(v);
                let (s, n) = match self.ty(v) {
                    Type::Vector(s, n) => (s, n),
                    _ => return Err("a lane of a value that is not a vector".into()),
                };
                let element = Type::Scalar(s);
                let (object, index_value) = if op == Op::VectorInsertDynamic {
                    (Some(operand(self, 1)?), operand(self, 2)?)
                } else {
                    (None, operand(self, 1)?)
                };
                // The index is read once, before the lanes choose.
                let index_ty = self.ty(index_value);
                let index = self.local(index_ty, Symbol::EMPTY);
                self.stmt(StmtKind::Init(index, index_value));
                let e = match object {
                    None => {
                        // (i == n-1) ? v[n-1] : ... (i == 1) ? v[1] : v[0]
                        let mut e = self.lane(v, 0, element);
                        for k in 1..n {
                            let is_k = self.index_is(index, index_ty, k);
                            let lane = self.lane(v, k, element);
                            e = self.expr(ExprKind::Conditional(is_k, lane, e), element);
                        }
                        e
                    }
                    Some(object) => {
                        let object = self.held(object);
                        let mut lanes = Vec::new();
                        for k in 0..n {
                            let is_k = self.index_is(index, index_ty, k);
                            let x = self.reread(object);
                            let lane = self.lane(v, k, element);
                            lanes.push(self.expr(ExprKind::Conditional(is_k, x, lane), element));
                        }
                        self.expr(ExprKind::VectorLiteral(lanes), Type::Vector(s, n))
                    }
                };
                self.define(inst, e)
            }
            Op::SMod => {
                // The remainder with the divisor's sign:
                // r = a % b; (r != 0 && (r ^ b) < 0) ? r + b : r
                let a = operand(self, 0)?;
                let b = operand(self, 1)?;
                let (a, b) = (self.signed(a), self.signed(b));
                let ty = self.ty(a);
                if !matches!(ty, Type::Scalar(_)) {
                    return Err("OpSMod of vectors is not supported yet".into());
                }
                let b_local = self.local(ty, Symbol::EMPTY);
                self.stmt(StmtKind::Init(b_local, b));
                let r_local = self.local(ty, Symbol::EMPTY);
                let b_read = self.expr(ExprKind::Local(b_local), ty);
                let rem = self.expr(ExprKind::Binary(BinaryOp::Rem, a, b_read), ty);
                self.stmt(StmtKind::Init(r_local, rem));
                let r = self.expr(ExprKind::Local(r_local), ty);
                let zero = self.zero(ty)?;
                let nonzero = self.expr(ExprKind::Binary(BinaryOp::Ne, r, zero), Type::INT);
                let r = self.expr(ExprKind::Local(r_local), ty);
                let b_read = self.expr(ExprKind::Local(b_local), ty);
                let x = self.expr(ExprKind::Binary(BinaryOp::BitXor, r, b_read), ty);
                let zero = self.zero(ty)?;
                let differ = self.expr(ExprKind::Binary(BinaryOp::Lt, x, zero), Type::INT);
                let adjust = self.expr(
                    ExprKind::Logical(BinaryOp::LogicalAnd, nonzero, differ),
                    Type::INT,
                );
                let r = self.expr(ExprKind::Local(r_local), ty);
                let b_read = self.expr(ExprKind::Local(b_local), ty);
                let sum = self.expr(ExprKind::Binary(BinaryOp::Add, r, b_read), ty);
                let r = self.expr(ExprKind::Local(r_local), ty);
                let e = self.expr(ExprKind::Conditional(adjust, sum, r), ty);
                self.define(inst, e)
            }
            op => Err(format!("Op{op:?} is not supported yet")),
        }
    }

    /// A `char` or `short` scalar as `int` (signed ones) or `uint`.
    fn promoted(&mut self, e: ExprId) -> ExprId {
        match self.ty(e) {
            Type::Scalar(s) if s.is_integer() && s != Scalar::Bool && s.size() < 4 => {
                let to = if s.is_signed() { Type::INT } else { Type::UINT };
                self.convert(e, to)
            }
            _ => e,
        }
    }

    /// The pointers behind both operands of a comparison or subtraction
    /// of `OpConvertPtrToU` integers.
    fn pointer_operands(&self, inst: &Instruction) -> Option<(u32, u32)> {
        let op = inst.class.opcode;
        let compares = COMPARISONS.iter().any(|(o, ..)| *o == op);
        if !compares && op != Op::ISub {
            return None;
        }
        let a = Self::operand_id(inst, 0).ok()?;
        let b = Self::operand_id(inst, 1).ok()?;
        Some((
            *self.pointer_integers.get(&a)?,
            *self.pointer_integers.get(&b)?,
        ))
    }

    /// A comparison or subtraction of two pointers' integers, done on the
    /// pointers as C does: the integers alone cannot say that two buffer
    /// arguments are one buffer, the pointer model can.
    fn pointer_arithmetic(&mut self, inst: &Instruction, p: u32, q: u32) -> R<()> {
        let op = inst.class.opcode;
        let (a, b) = (self.read(p)?, self.read(q)?);
        if op == Op::ISub {
            // Bytes: elements times the element size.
            let pointee = self.reader.program.types.pointee(self.ty(a)).map(|p| p.ty);
            let size = pointee.and_then(|t| self.reader.program.types.size(t));
            let same = pointee == self.reader.program.types.pointee(self.ty(b)).map(|p| p.ty);
            let (Some(size), true) = (size, same) else {
                return Err("a subtraction of pointers to different types".into());
            };
            let index = self.index_type();
            let elements = self.expr(ExprKind::Binary(BinaryOp::Sub, a, b), index);
            let size = self.expr(ExprKind::Int(size), index);
            let bytes = self.expr(ExprKind::Binary(BinaryOp::Mul, elements, size), index);
            return self.define(inst, bytes);
        }
        let &(_, comparison, _, negate) = COMPARISONS
            .iter()
            .find(|(o, ..)| *o == op)
            .ok_or("not a comparison")?;
        let mut e = self.expr(ExprKind::Binary(comparison, a, b), Type::INT);
        if negate {
            e = self.expr(ExprKind::Unary(UnaryOp::LogicalNot, e), Type::INT);
        }
        self.define(inst, e)
    }

    /// `OpCopyLogical`: `e` as the type `ty` of the same shape (records
    /// and arrays member by member).
    fn copy_logical(&mut self, e: ExprId, ty: Type) -> R<ExprId> {
        crate::stack::guard(|| {
            let from = self.ty(e);
            if from == ty {
                return Ok(e);
            }
            let count = match (from, ty) {
                (Type::Record(a), Type::Record(b)) => {
                    let types = &self.reader.program.types;
                    let n = types[a].fields.len();
                    if n != types[b].fields.len() {
                        return Err("OpCopyLogical between types of different shapes".into());
                    }
                    n as u32
                }
                (Type::Array(_, n), Type::Array(_, m)) if n == m => n as u32,
                _ => return Err("OpCopyLogical between types of different shapes".into()),
            };
            let held = self.held(e);
            let mut parts = Vec::with_capacity(count as usize);
            for k in 0..count {
                let source = self.reread(held);
                let part = self.member(source, k)?;
                let target_ty = match ty {
                    Type::Record(r) => self.reader.program.types[r].fields[k as usize].ty,
                    _ => self.reader.program.types.array_element(ty).unwrap_or(ty),
                };
                parts.push(self.copy_logical(part, target_ty)?);
            }
            let items = super::constants::flatten(&self.f.exprs, parts);
            Ok(self.expr(ExprKind::InitList(items), ty))
        })
    }

    /// A conversion of `a` to `ty`, through `convert_<type>_sat_<mode>`
    /// when decorations ask for saturation or a rounding mode.
    fn conversion(&mut self, inst: &Instruction, a: ExprId, ty: Type) -> R<ExprId> {
        let suffix = conversion_suffix(self, inst.result_id.unwrap_or(0));
        if suffix.is_empty() {
            return Ok(self.convert(a, ty));
        }
        self.call_builtin(&format!("convert_{}{suffix}", type_name(ty)?), vec![a])
    }

    /// `e` as an `int` truth value (a scalar `bool`), or as it is (a
    /// vector of -1/0 lanes).
    fn as_truth(&mut self, e: ExprId) -> ExprId {
        if self.ty(e) == Type::BOOL {
            self.convert(e, Type::INT)
        } else {
            e
        }
    }

    /// A `bool` as a vector lane: -1 for true.
    fn bool_lane(&mut self, b: ExprId) -> ExprId {
        let one = self.convert(b, Type::INT);
        self.expr(ExprKind::Unary(UnaryOp::Negate, one), Type::INT)
    }

    /// `e` held in a local, so it can be read again and taken apart.
    pub(super) fn held(&mut self, e: ExprId) -> ExprId {
        if let ExprKind::Local(_) = self.f.exprs[e].kind {
            return e;
        }
        let ty = self.ty(e);
        let local = self.local(ty, Symbol::EMPTY);
        self.stmt(StmtKind::Init(local, e));
        self.expr(ExprKind::Local(local), ty)
    }

    /// Another read of the local that `held` returned.
    fn reread(&mut self, e: ExprId) -> ExprId {
        let expr = self.f.exprs[e].clone();
        self.expr(expr.kind, expr.ty)
    }

    /// Lane `k` of the held vector `v`.
    pub(super) fn lane(&mut self, v: ExprId, k: u8, element: Type) -> ExprId {
        let v = self.reread(v);
        self.expr(ExprKind::Swizzle(v, vec![k]), element)
    }

    /// `index == k` for the index local.
    fn index_is(&mut self, index: crate::hir::LocalId, ty: Type, k: u8) -> ExprId {
        let i = self.expr(ExprKind::Local(index), ty);
        let k = self.expr(ExprKind::Int(k as u64), ty);
        self.expr(ExprKind::Binary(BinaryOp::Eq, i, k), Type::INT)
    }

    /// Member, element or lane `k` of the composite `e`.
    fn member(&mut self, e: ExprId, k: u32) -> R<ExprId> {
        let ty = self.ty(e);
        Ok(match ty {
            Type::Vector(s, _) => self.expr(ExprKind::Swizzle(e, vec![k as u8]), Type::Scalar(s)),
            Type::Record(r) => {
                let field = self.reader.program.types[r]
                    .fields
                    .get(k as usize)
                    .map(|f| f.ty)
                    .ok_or("a member index past the members")?;
                self.expr(ExprKind::Member(e, k as usize), field)
            }
            Type::Array(..) => {
                let element = self.reader.program.types.array_element(ty).unwrap_or(ty);
                let index_ty = self.index_type();
                let i = self.expr(ExprKind::Int(k as u64), index_ty);
                self.expr(ExprKind::Index(e, i), element)
            }
            _ => return Err("a member of a value that has none".into()),
        })
    }
}

/// The type of a comparison of operands of type `ty`: `int`, or the
/// signed integer vector of the lanes' width.
fn truth_type(ty: Type) -> Type {
    match ty {
        Type::Vector(s, n) => Type::Vector(s.to_signed_int(), n),
        _ => Type::INT,
    }
}

/// The signed integer type of an integer scalar or vector type.
pub(super) fn signed_type(ty: Type) -> Type {
    match ty {
        Type::Scalar(s) if s.is_integer() => Type::Scalar(s.to_signed_int()),
        Type::Vector(s, n) if s.is_integer() => Type::Vector(s.to_signed_int(), n),
        t => t,
    }
}

/// The OpenCL C name of a scalar or vector type (`convert_<name>`).
fn type_name(ty: Type) -> R<String> {
    match ty {
        Type::Scalar(s) => Ok(s.name().to_owned()),
        Type::Vector(s, n) => Ok(format!("{}{n}", s.name())),
        _ => Err("a conversion to a type that is not a scalar or vector".into()),
    }
}
