//! Each instruction of a block as HIR: arithmetic, comparisons and
//! conversions as C's operators and conversions (operands taken as signed
//! where the instruction says so), memory access through the places of
//! `function`, `OpenCL.std` and the atomics, barriers and group operations
//! as the built-in library's calls, branches as gotos.

use super::function::{FunctionReader, Value, R};
use super::opencl_std::{rounding_suffix, std_call, Signedness, StdCall};
use crate::ast::BinaryOp;
use crate::hir::{ExprId, ExprKind, StmtKind, SwitchCase};
use crate::types::{Scalar, Type};
use rspirv::dr::{Instruction, Operand};
use rspirv::spirv::{BuiltIn, Decoration, Op};

/// The built-in variables as the OpenCL C functions they read, and whether
/// the function takes a dimension (the variable is a 3-vector of them).
const BUILTIN_VARIABLES: &[(BuiltIn, &str, bool)] = &[
    (BuiltIn::GlobalInvocationId, "get_global_id", true),
    (BuiltIn::LocalInvocationId, "get_local_id", true),
    (BuiltIn::WorkgroupId, "get_group_id", true),
    (BuiltIn::NumWorkgroups, "get_num_groups", true),
    (BuiltIn::WorkgroupSize, "get_local_size", true),
    (
        BuiltIn::EnqueuedWorkgroupSize,
        "get_enqueued_local_size",
        true,
    ),
    (BuiltIn::GlobalSize, "get_global_size", true),
    (BuiltIn::GlobalOffset, "get_global_offset", true),
    (BuiltIn::GlobalLinearId, "get_global_linear_id", false),
    (BuiltIn::LocalInvocationIndex, "get_local_linear_id", false),
    (BuiltIn::WorkDim, "get_work_dim", false),
    (BuiltIn::SubgroupSize, "get_sub_group_size", false),
    (BuiltIn::SubgroupMaxSize, "get_max_sub_group_size", false),
    (BuiltIn::NumSubgroups, "get_num_sub_groups", false),
    (
        BuiltIn::NumEnqueuedSubgroups,
        "get_enqueued_num_sub_groups",
        false,
    ),
    (BuiltIn::SubgroupId, "get_sub_group_id", false),
    (
        BuiltIn::SubgroupLocalInvocationId,
        "get_sub_group_local_id",
        false,
    ),
    (BuiltIn::SubgroupEqMask, "get_sub_group_eq_mask", false),
    (BuiltIn::SubgroupGeMask, "get_sub_group_ge_mask", false),
    (BuiltIn::SubgroupGtMask, "get_sub_group_gt_mask", false),
    (BuiltIn::SubgroupLeMask, "get_sub_group_le_mask", false),
    (BuiltIn::SubgroupLtMask, "get_sub_group_lt_mask", false),
];

/// SPIR-V memory semantics bits as `cl_mem_fence_flags`.
const FENCE_FLAGS: &[(u32, u64)] = &[(0x100, 1), (0x200, 2), (0x800, 4)];

impl FunctionReader<'_, '_> {
    /// Reads one instruction of the current block.
    pub(super) fn instruction(&mut self, inst: &Instruction) -> R<()> {
        let op = inst.class.opcode;
        let id = |i| Self::operand_id(inst, i);
        match op {
            Op::Phi
            | Op::LoopMerge
            | Op::SelectionMerge
            | Op::Line
            | Op::NoLine
            | Op::Nop
            | Op::LifetimeStart
            | Op::LifetimeStop
            | Op::AssumeTrueKHR => Ok(()),
            Op::ExpectKHR => {
                let value = self.read(id(0)?)?;
                self.define(inst, value)
            }

            // Control flow.
            Op::Branch => {
                let goto = self.jump(id(0)?)?;
                self.out.extend(goto);
                Ok(())
            }
            Op::BranchConditional => {
                let condition = self.read(id(0)?)?;
                let then = self.jump(id(1)?)?;
                let otherwise = self.jump(id(2)?)?;
                self.stmt(StmtKind::If(condition, then, otherwise));
                Ok(())
            }
            Op::Switch => self.switch(inst),
            Op::Return => {
                self.stmt(StmtKind::Return(None));
                Ok(())
            }
            Op::ReturnValue => {
                let value = self.read(id(0)?)?;
                let value = self.convert(value, self.f.ret);
                self.stmt(StmtKind::Return(Some(value)));
                Ok(())
            }
            Op::Unreachable => {
                let value = if self.returns_void() {
                    None
                } else {
                    Some(self.zero(self.f.ret)?)
                };
                self.stmt(StmtKind::Return(value));
                Ok(())
            }

            // Memory.
            Op::Variable => self.variable(inst),
            Op::Load => {
                let pointer = id(0)?;
                if !self.values.contains_key(&pointer) {
                    self.bind_module_variable(pointer)?;
                }
                if let Some(Value::Builtin(b)) = self.values.get(&pointer).cloned() {
                    let value = self.builtin_variable(b, inst)?;
                    return self.define(inst, value);
                }
                let value = self.lvalue(pointer)?;
                self.define(inst, value)
            }
            Op::Store => {
                let target = self.lvalue(id(0)?)?;
                let value = self.read(id(1)?)?;
                let ty = self.ty(target);
                if let (Some(lanes), Type::Vector(s, _)) =
                    (self.partly_defined.get(&id(1)?).cloned(), ty)
                {
                    let part = Type::Vector(s, lanes.len() as u8);
                    let part = if lanes.len() == 1 {
                        Type::Scalar(s)
                    } else {
                        part
                    };
                    let target = self.expr(ExprKind::Swizzle(target, lanes.clone()), part);
                    let value = self.expr(ExprKind::Swizzle(value, lanes), part);
                    let assign = self.expr(ExprKind::Assign(target, value), part);
                    self.stmt(StmtKind::Expr(assign));
                    return Ok(());
                }
                let value = self.convert(value, ty);
                let assign = self.expr(ExprKind::Assign(target, value), ty);
                self.stmt(StmtKind::Expr(assign));
                Ok(())
            }
            Op::CopyMemory => {
                let target = self.lvalue(id(0)?)?;
                let source = self.lvalue(id(1)?)?;
                let ty = self.ty(target);
                let source = self.convert(source, ty);
                let assign = self.expr(ExprKind::Assign(target, source), ty);
                self.stmt(StmtKind::Expr(assign));
                Ok(())
            }
            Op::CopyMemorySized => self.copy_bytes(inst),
            Op::AccessChain
            | Op::InBoundsAccessChain
            | Op::PtrAccessChain
            | Op::InBoundsPtrAccessChain => {
                let ty = self.result_type(inst)?;
                let ptr_chain = matches!(op, Op::PtrAccessChain | Op::InBoundsPtrAccessChain);
                let ids: R<Vec<u32>> = (0..inst.operands.len()).map(id).collect();
                let ids = ids?;
                let (first, indices) = if ptr_chain {
                    (ids.get(1).copied(), ids.get(2..).unwrap_or(&[]).to_vec())
                } else {
                    (None, ids[1..].to_vec())
                };
                self.values.insert(
                    inst.result_id.unwrap_or(0),
                    Value::Chain {
                        base: ids[0],
                        first,
                        indices,
                        ty,
                    },
                );
                Ok(())
            }
            Op::PtrCastToGeneric | Op::GenericCastToPtr => {
                let ty = self.result_type(inst)?;
                let value = id(0)?;
                self.values
                    .insert(inst.result_id.unwrap_or(0), Value::Cast { value, ty });
                Ok(())
            }
            Op::GenericCastToPtrExplicit => {
                let name = match inst.operands.get(1) {
                    Some(Operand::StorageClass(c)) => match c {
                        rspirv::spirv::StorageClass::CrossWorkgroup => "to_global",
                        rspirv::spirv::StorageClass::Workgroup => "to_local",
                        _ => "to_private",
                    },
                    _ => return Err("a cast without a storage class".into()),
                };
                let value = self.read(id(0)?)?;
                let call = self.call_builtin(name, vec![value])?;
                self.define(inst, call)
            }
            Op::Bitcast => self.bitcast(inst),
            Op::CopyObject => {
                let value = self.read(id(0)?)?;
                self.define(inst, value)
            }
            Op::Undef => {
                let ty = self.result_type(inst)?;
                let zero = self.zero(ty)?;
                self.define(inst, zero)
            }

            Op::FunctionCall => {
                let callee = self.function(id(0)?)?;
                let signature = self.reader.program.functions[callee].signature.clone();
                let ret = if callee == self.handle {
                    self.f.ret
                } else {
                    self.reader.program.functions[callee].ret
                };
                let mut args = Vec::new();
                for (i, &param) in (1..inst.operands.len()).zip(&signature) {
                    let arg = id(i)?;
                    // A by-value aggregate travels as a pointer to it.
                    let value = if self.pointee_of(arg) == Some(param) && !param.is_pointer() {
                        self.lvalue(arg)?
                    } else {
                        self.read(arg)?
                    };
                    args.push(self.convert(value, param));
                }
                let call = self.expr(ExprKind::Call(callee, args), ret);
                if ret == Type::Void {
                    self.stmt(StmtKind::Expr(call));
                    Ok(())
                } else {
                    self.define(inst, call)
                }
            }
            Op::ExtInst => self.ext_inst(inst),

            Op::ControlBarrier => {
                let execution = self.constant_operand(inst, 0)?;
                let flags = self.fence_flags(inst, 2)?;
                let name = if execution == 3 {
                    "sub_group_barrier"
                } else {
                    "barrier"
                };
                let call = self.call_builtin(name, vec![flags])?;
                self.stmt(StmtKind::Expr(call));
                Ok(())
            }
            Op::MemoryBarrier => {
                let flags = self.fence_flags(inst, 1)?;
                let call = self.call_builtin("mem_fence", vec![flags])?;
                self.stmt(StmtKind::Expr(call));
                Ok(())
            }

            Op::GroupAsyncCopy => {
                let destination = self.read(id(1)?)?;
                let source = self.read(id(2)?)?;
                let count = self.read(id(3)?)?;
                let stride = id(4)?;
                let event = self.read(id(5)?)?;
                let call = if self.scope.constant_u64(stride) == Some(1) {
                    self.call_builtin(
                        "async_work_group_copy",
                        vec![destination, source, count, event],
                    )?
                } else {
                    let stride = self.read(stride)?;
                    self.call_builtin(
                        "async_work_group_strided_copy",
                        vec![destination, source, count, stride, event],
                    )?
                };
                self.define(inst, call)
            }
            Op::GroupWaitEvents => {
                let count = self.read(id(1)?)?;
                let events = self.read(id(2)?)?;
                let call = self.call_builtin("wait_group_events", vec![count, events])?;
                self.stmt(StmtKind::Expr(call));
                Ok(())
            }
            Op::GenericPtrMemSemantics => {
                // `get_fence`'s CLK_LOCAL_MEM_FENCE (1) and
                // CLK_GLOBAL_MEM_FENCE (2) are the semantics bits 0x100
                // and 0x200: (flags & 3) << 8.
                let pointer = self.read(id(0)?)?;
                let flags = self.call_builtin("get_fence", vec![pointer])?;
                let flags = self.convert(flags, Type::UINT);
                let three = self.expr(ExprKind::Int(3), Type::UINT);
                let masked =
                    self.expr(ExprKind::Binary(BinaryOp::BitAnd, flags, three), Type::UINT);
                let eight = self.expr(ExprKind::Int(8), Type::UINT);
                let e = self.expr(ExprKind::Binary(BinaryOp::Shl, masked, eight), Type::UINT);
                self.define(inst, e)
            }
            _ if is_atomic(op) => self.atomic(inst),
            _ if is_group(op) => self.group(inst),
            _ if super::sub_groups::is_non_uniform(op) => self.non_uniform(inst),
            _ => self.arithmetic(inst),
        }
    }

    fn variable(&mut self, inst: &Instruction) -> R<()> {
        let pointer = self.result_type(inst)?;
        let Some(pointee) = self.reader.program.types.pointee(pointer).copied() else {
            return Err("a variable whose type is not a pointer".into());
        };
        let name = match self.scope.names.get(&inst.result_id.unwrap_or(0)) {
            Some(n) => self.reader.program.names.intern(n),
            None => crate::hir::Symbol::EMPTY,
        };
        let local = self.local(pointee.ty, name);
        if let Some(Operand::IdRef(init)) = inst.operands.get(1) {
            let value = self.read(*init)?;
            let value = self.convert(value, pointee.ty);
            self.stmt(StmtKind::Init(local, value));
        }
        self.values
            .insert(inst.result_id.unwrap_or(0), Value::Variable(local, pointer));
        Ok(())
    }

    /// A work-item built-in variable's value: the `size_t` vector of the
    /// function for dimensions 0, 1 and 2, or its scalar.
    fn builtin_variable(&mut self, b: BuiltIn, inst: &Instruction) -> R<ExprId> {
        let Some(&(_, name, dimensional)) = BUILTIN_VARIABLES.iter().find(|(v, ..)| *v == b) else {
            return Err(format!("the built-in variable {b:?} is not supported"));
        };
        let ty = self.result_type(inst)?;
        match ty {
            Type::Vector(..) if dimensional => {
                let mut lanes = Vec::new();
                for dimension in 0..3 {
                    let d = self.expr(ExprKind::Int(dimension), Type::UINT);
                    let call = self.call_builtin(name, vec![d])?;
                    lanes.push(call);
                }
                let lanes = lanes
                    .into_iter()
                    .map(|l| {
                        let element = Type::Scalar(ty.element().unwrap_or(Scalar::ULong));
                        self.convert(l, element)
                    })
                    .collect();
                Ok(self.expr(ExprKind::VectorLiteral(lanes), ty))
            }
            _ => self.call_builtin(name, Vec::new()),
        }
    }

    /// `cl_mem_fence_flags` for the memory semantics in operand `i`.
    fn fence_flags(&mut self, inst: &Instruction, i: usize) -> R<ExprId> {
        let semantics = self.constant_operand(inst, i)? as u32;
        let flags = FENCE_FLAGS
            .iter()
            .filter(|(bit, _)| semantics & bit != 0)
            .fold(0, |acc, (_, flag)| acc | flag);
        Ok(self.expr(ExprKind::Int(flags), Type::UINT))
    }

    fn switch(&mut self, inst: &Instruction) -> R<()> {
        let selector = self.read(Self::operand_id(inst, 0)?)?;
        let default = Self::operand_id(inst, 1)?;
        let mut cases = Vec::new();
        for pair in inst.operands[2..].chunks(2) {
            let value = match pair.first() {
                Some(Operand::LiteralBit32(v)) => *v as u64,
                Some(Operand::LiteralBit64(v)) => *v,
                _ => return Err("a switch case without a literal".into()),
            };
            let Some(Operand::IdRef(target)) = pair.get(1) else {
                return Err("a switch case without a target".into());
            };
            let body = self.jump(*target)?;
            cases.push(SwitchCase {
                values: vec![value],
                is_default: false,
                body,
            });
        }
        let body = self.jump(default)?;
        cases.push(SwitchCase {
            values: Vec::new(),
            is_default: true,
            body,
        });
        self.stmt(StmtKind::Switch(selector, cases));
        Ok(())
    }

    /// `OpCopyMemorySized`: an assignment where both sides are objects of
    /// the size copied, else a copy byte by byte.
    fn copy_bytes(&mut self, inst: &Instruction) -> R<()> {
        let (target, source) = (Self::operand_id(inst, 0)?, Self::operand_id(inst, 1)?);
        let size = Self::operand_id(inst, 2)?;
        let target_ty = self.pointee_through_casts(target);
        let source_ty = self.pointee_through_casts(source);
        if let (Some((t, tid)), Some((s, sid)), Some(n)) =
            (target_ty, source_ty, self.scope.constant_u64(size))
        {
            if t == s && self.reader.program.types.size(t) == Some(n) {
                let target = self.lvalue(tid)?;
                let source = self.lvalue(sid)?;
                let assign = self.expr(ExprKind::Assign(target, source), t);
                self.stmt(StmtKind::Expr(assign));
                return Ok(());
            }
        }
        // for (i = 0; i < size; i++) ((uchar *)target)[i] = ((uchar *)source)[i];
        let uchar = Type::Scalar(Scalar::UChar);
        let byte_pointer = |this: &mut Self, id: u32| -> R<ExprId> {
            let p = this.read(id)?;
            let space = this
                .reader
                .program
                .types
                .pointee(this.ty(p))
                .map(|p| p.space)
                .ok_or("a copy between values that are not pointers")?;
            let ty = this.reader.program.types.pointer(crate::types::Pointee {
                ty: uchar,
                is_const: false,
                is_volatile: false,
                space,
                endian_host: false,
            });
            Ok(this.convert(p, ty))
        };
        let index_ty = self.index_type();
        let counter = self.local(index_ty, crate::hir::Symbol::EMPTY);
        let zero = self.expr(ExprKind::Int(0), index_ty);
        self.stmt(StmtKind::Init(counter, zero));
        let saved = std::mem::take(&mut self.out);
        let t = byte_pointer(self, target)?;
        let i = self.expr(ExprKind::Local(counter), index_ty);
        let t = self.expr(ExprKind::Index(t, i), uchar);
        let s = byte_pointer(self, source)?;
        let i = self.expr(ExprKind::Local(counter), index_ty);
        let s = self.expr(ExprKind::Index(s, i), uchar);
        let assign = self.expr(ExprKind::Assign(t, s), uchar);
        self.stmt(StmtKind::Expr(assign));
        let body = std::mem::replace(&mut self.out, saved);
        let i = self.expr(ExprKind::Local(counter), index_ty);
        let n = self.read(size)?;
        let n = self.convert(n, index_ty);
        let cond = self.expr(ExprKind::Binary(BinaryOp::Lt, i, n), Type::INT);
        let i = self.expr(ExprKind::Local(counter), index_ty);
        let step = self.expr(
            ExprKind::IncDec {
                target: i,
                increment: true,
                prefix: true,
            },
            index_ty,
        );
        self.stmt(StmtKind::Loop {
            cond: Some(cond),
            body,
            step: Some(step),
            test_first: true,
            unroll: crate::hir::UnrollHint::Unspecified,
        });
        Ok(())
    }

    /// The type a pointer points to before any pointer casts, and the id
    /// of that uncast pointer.
    fn pointee_through_casts(&mut self, mut id: u32) -> Option<(Type, u32)> {
        while let Some(Value::Cast { value, .. }) = self.values.get(&id) {
            id = *value;
        }
        if !self.values.contains_key(&id) {
            self.bind_module_variable(id).ok()?;
        }
        Some((self.pointee_of(id)?, id))
    }

    fn bitcast(&mut self, inst: &Instruction) -> R<()> {
        let ty = self.result_type(inst)?;
        let value = Self::operand_id(inst, 0)?;
        if ty.is_pointer() {
            self.values
                .insert(inst.result_id.unwrap_or(0), Value::Cast { value, ty });
            return Ok(());
        }
        let e = self.read(value)?;
        let e = if self.ty(e).is_pointer() {
            // SPIR-V 1.5: a pointer's address as an integer, or as a
            // vector of its bits.
            let address = self
                .index_type()
                .scalar()
                .map_or(Scalar::ULong, Scalar::to_unsigned);
            let address = self.expr(ExprKind::Convert(e), Type::Scalar(address));
            if ty == self.ty(address) {
                return self.define(inst, address);
            }
            address
        } else {
            e
        };
        let name = match ty {
            Type::Scalar(s) => format!("as_{}", s.name()),
            Type::Vector(s, n) => format!("as_{}{n}", s.name()),
            _ => return Err("a bitcast to that type is not supported".into()),
        };
        let call = self.call_builtin(&name, vec![e])?;
        self.define(inst, call)
    }

    fn ext_inst(&mut self, inst: &Instruction) -> R<()> {
        let (Some(Operand::IdRef(set)), Some(Operand::LiteralExtInstInteger(number))) =
            (inst.operands.first(), inst.operands.get(1))
        else {
            return Err("an extended instruction without a set and number".into());
        };
        if Some(*set) != self.scope.opencl_std {
            return Err("extended instruction sets other than OpenCL.std are not supported".into());
        }
        let call = std_call(*number)
            .ok_or_else(|| format!("OpenCL.std instruction {number} does not exist"))?;
        let ids: R<Vec<u32>> = (2..inst.operands.len())
            .map(|i| Self::operand_id(inst, i))
            .collect();
        let ids = ids?;
        let result = match call {
            StdCall::Printf => {
                let mut args = Vec::with_capacity(ids.len());
                args.push(self.format_string(ids[0])?);
                for &id in &ids[1..] {
                    args.push(self.read(id)?);
                }
                self.expr(ExprKind::Printf(args), Type::INT)
            }
            StdCall::Builtin { name, signed } => {
                let mut args = Vec::with_capacity(ids.len());
                for (i, &id) in ids.iter().enumerate() {
                    let e = self.read(id)?;
                    let take_signed = match signed {
                        Signedness::Keep => false,
                        Signedness::Signed => true,
                        Signedness::FirstSigned => i == 0,
                    };
                    args.push(if take_signed {
                        self.signed_operand(e)
                    } else {
                        e
                    });
                }
                self.call_builtin(&name, args)?
            }
            StdCall::VectorLoad { name } => {
                let lanes = match self.result_type(inst)? {
                    Type::Vector(_, n) => n.to_string(),
                    _ => String::new(),
                };
                let offset = self.read(ids[0])?;
                let pointer = self.read(ids[1])?;
                self.call_builtin(&format!("{name}{lanes}"), vec![offset, pointer])?
            }
            StdCall::VectorStore { name, rounding } => {
                let data = self.read(ids[0])?;
                let lanes = match self.ty(data) {
                    Type::Vector(_, n) => n.to_string(),
                    _ => String::new(),
                };
                let suffix = if rounding {
                    let mode = inst
                        .operands
                        .get(5)
                        .and_then(|o| match o {
                            Operand::FPRoundingMode(m) => Some(*m as u32),
                            // rspirv reads extended instructions' operands
                            // as ids, the literal mode among them.
                            Operand::LiteralBit32(m) | Operand::IdRef(m) => Some(*m),
                            _ => None,
                        })
                        .ok_or("a rounding store without its mode")?;
                    rounding_suffix(mode).ok_or("an unknown rounding mode")?
                } else {
                    ""
                };
                let offset = self.read(ids[1])?;
                let pointer = self.read(ids[2])?;
                let call = self.call_builtin(
                    &format!("{name}{lanes}{suffix}"),
                    vec![data, offset, pointer],
                )?;
                self.stmt(StmtKind::Expr(call));
                return Ok(());
            }
        };
        if self.result_type(inst)? == Type::Void {
            self.stmt(StmtKind::Expr(result));
            Ok(())
        } else {
            self.define(inst, result)
        }
    }

    /// An integer operand as signed, or an integer pointer as a pointer
    /// to the signed type (`frexp`'s exponent).
    fn signed_operand(&mut self, e: ExprId) -> ExprId {
        let ty = self.ty(e);
        if let Some(pointee) = self.reader.program.types.pointee(ty).copied() {
            if let Type::Scalar(s) | Type::Vector(s, _) = pointee.ty {
                if s.is_integer() {
                    let signed = match pointee.ty {
                        Type::Vector(_, n) => Type::Vector(s.to_signed_int(), n),
                        _ => Type::Scalar(s.to_signed_int()),
                    };
                    let pointer = self.reader.program.types.pointer(crate::types::Pointee {
                        ty: signed,
                        ..pointee
                    });
                    return self.convert(e, pointer);
                }
            }
            return e;
        }
        self.signed(e)
    }

    /// `printf`'s format: the string constant the pointer points into.
    fn format_string(&mut self, id: u32) -> R<ExprId> {
        let mut base = id;
        loop {
            match self.values.get(&base).cloned() {
                Some(Value::Chain { base: b, .. }) => base = b,
                Some(Value::Cast { value, .. }) => base = value,
                _ => break,
            }
        }
        if !self.values.contains_key(&base) {
            self.read(base)?;
        }
        if let Some(Value::Global(g, _)) = self.values.get(&base) {
            let global = &self.reader.program.globals[*g];
            if let Some(init) = global.init {
                let bytes: Option<Vec<u8>> = match &self.reader.program.global_exprs[init].kind {
                    ExprKind::InitList(items) => items
                        .iter()
                        .map(|(_, e)| match self.reader.program.global_exprs[*e].kind {
                            ExprKind::Int(b) => Some(b as u8),
                            _ => None,
                        })
                        .collect(),
                    _ => None,
                };
                if let Some(mut bytes) = bytes {
                    if let Some(end) = bytes.iter().position(|&b| b == 0) {
                        bytes.truncate(end);
                    }
                    let len = bytes.len() as u64 + 1;
                    let ty = self.reader.program.types.array(Type::CHAR, len);
                    return Ok(self.expr(ExprKind::Str(bytes), ty));
                }
            }
        }
        Err("printf's format must be a constant string".into())
    }
}

fn is_atomic(op: Op) -> bool {
    matches!(
        op,
        Op::AtomicLoad
            | Op::AtomicStore
            | Op::AtomicExchange
            | Op::AtomicCompareExchange
            | Op::AtomicCompareExchangeWeak
            | Op::AtomicIIncrement
            | Op::AtomicIDecrement
            | Op::AtomicIAdd
            | Op::AtomicISub
            | Op::AtomicSMin
            | Op::AtomicUMin
            | Op::AtomicSMax
            | Op::AtomicUMax
            | Op::AtomicAnd
            | Op::AtomicOr
            | Op::AtomicXor
            | Op::AtomicFAddEXT
            | Op::AtomicFMinEXT
            | Op::AtomicFMaxEXT
            | Op::AtomicFlagTestAndSet
            | Op::AtomicFlagClear
    )
}

fn is_group(op: Op) -> bool {
    matches!(
        op,
        Op::GroupAll
            | Op::GroupAny
            | Op::GroupBroadcast
            | Op::GroupIAdd
            | Op::GroupFAdd
            | Op::GroupFMin
            | Op::GroupUMin
            | Op::GroupSMin
            | Op::GroupFMax
            | Op::GroupUMax
            | Op::GroupSMax
    )
}

/// Decorations that change what a conversion does.
pub(super) fn conversion_suffix(reader: &FunctionReader, id: u32) -> String {
    let mut suffix = String::new();
    if reader.scope.decorated(id, Decoration::SaturatedConversion) {
        suffix.push_str("_sat");
    }
    if let Some([Operand::FPRoundingMode(mode)]) =
        reader.scope.decoration(id, Decoration::FPRoundingMode)
    {
        suffix.push_str(rounding_suffix(*mode as u32).unwrap_or(""));
    }
    suffix
}
