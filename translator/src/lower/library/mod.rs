//! The built-in library: calls of OpenCL C's built-in functions, each
//! sent to the part that implements it.

mod async_copy;
mod collectives;
mod divide64;
mod fma;
mod formulas;
pub(in crate::lower) mod fp16;
mod geometric;
mod int64;
pub(in crate::lower) mod math;
mod shuffle;

use crate::builtins::Builtin;
use crate::diagnostic::Location;
use crate::hir::ExprId;
use crate::lower::builder::{Failed, LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::expressions::convert::is_plain_conversion;
use crate::lower::expressions::{convert, wide, Operand, Value};
use crate::lower::function::FnBuilder;
use crate::reflect::PushConstantHeader;
use crate::types::{Scalar, Type};
use naga::Handle;

pub(in crate::lower) fn is_barrier(b: Builtin) -> bool {
    matches!(
        b,
        Builtin::Barrier
            | Builtin::WorkGroupBarrier
            | Builtin::MemFence
            | Builtin::ReadMemFence
            | Builtin::WriteMemFence
    )
}

impl ModuleBuilder<'_> {
    /// A call of built-in `b` with `args`, whose result has type `ty`.
    pub(in crate::lower) fn builtin_call(
        &mut self,
        fb: &mut FnBuilder,
        b: Builtin,
        args: &[ExprId],
        ty: &Type,
        location: Location,
    ) -> LResult<Value> {
        let operands: Vec<Operand> = args.iter().map(Operand::from).collect();
        self.builtin_on(fb, b, &operands, ty, location)
    }

    /// Built-in `b` on `args`: the program's operands, or values the
    /// lowering made (the parts of a wide call, see `wide.rs`).
    pub(in crate::lower) fn builtin_on(
        &mut self,
        fb: &mut FnBuilder,
        b: Builtin,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Value> {
        let first_ty = |fb: &FnBuilder| fb.ty(args[0]);
        let h = match b {
            Builtin::Atomic { op, .. } => return self.atomic(fb, op, args, ty, location),
            Builtin::C11Atomic { op, explicit } => {
                return self.c11_atomic(fb, op, explicit, args, ty, location)
            }
            Builtin::Vload(n) => return self.vload(fb, n, args, ty, location),
            Builtin::VloadHalf(n) => return self.vload_half(fb, n, n, args, ty, location),
            // vloada_half3 reads from p + offset * 4 (OpenCL C 6.15.10).
            Builtin::VloadaHalf(n) => {
                let stride = if n == 3 { 4 } else { n };
                return self.vload_half(fb, n, stride, args, ty, location);
            }
            Builtin::VstoreHalf(n, rounding) | Builtin::VstoreaHalf(n, rounding) => {
                let stride = match b {
                    Builtin::VstoreaHalf(3, _) => 4,
                    _ => n,
                };
                self.vstore_half(fb, n, stride, rounding, args, location)?;
                return Ok(Value::Void);
            }
            Builtin::Vstore(n) => {
                self.vstore(fb, n, args, location)?;
                return Ok(Value::Void);
            }
            b if is_barrier(b) => {
                self.barrier(fb, b, args);
                return Ok(Value::Void);
            }
            Builtin::AsyncWorkGroupCopy | Builtin::AsyncWorkGroupStridedCopy => {
                return self.async_copy(fb, b, args, location)
            }
            b if collectives::is_collective(b) => {
                return self.collective(fb, b, args, ty, location)
            }
            Builtin::WaitGroupEvents => {
                self.wait_group_events(fb);
                return Ok(Value::Void);
            }
            Builtin::Prefetch => return Ok(Value::Void),
            Builtin::As(s, n) => {
                let from = first_ty(fb);
                let v = self.plain(fb, args[0])?;
                let to = if n == 1 {
                    Type::Scalar(s)
                } else {
                    Type::Vector(s, n)
                };
                self.reinterpret_bits(fb, v, &from, &to, location)?
            }
            Builtin::Shuffle | Builtin::Shuffle2 => self.shuffle(fb, args, ty, location)?,
            b if wide::splits_builtin(fb, b, args, ty) => {
                return self.wide_builtin(fb, b, args, ty, location)
            }
            Builtin::Convert(c) if is_plain_conversion(&c, &first_ty(fb)) => {
                let from = first_ty(fb);
                let v = self.plain(fb, args[0])?;
                self.convert(fb, v, &from, ty, location)?
            }
            Builtin::Convert(c) if convert::converts_to_integer(&c, &first_ty(fb)) => {
                self.convert_integer(fb, &c, args[0], ty, location)?
            }
            Builtin::Convert(c) if convert::converts_to_float_directed(&c, &first_ty(fb)) => {
                self.convert_floating(fb, &c, args[0], ty, location)?
            }
            b => self.builtin(fb, b, args, ty, location)?,
        };
        Ok(Value::Plain(h))
    }

    pub(in crate::lower) fn builtin(
        &mut self,
        fb: &mut FnBuilder,
        b: Builtin,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        if let Some(h) = self.half_builtin(fb, b, args, ty, location)? {
            return Ok(h);
        }
        if let Some(h) = self.native_composite(fb, b, args, ty, location)? {
            return Ok(h);
        }
        if let Some(h) = self.math_builtin(fb, b, args, ty, location)? {
            return Ok(h);
        }
        if let Some(h) = self.library_builtin(fb, b, args, ty, location)? {
            return Ok(h);
        }
        if let Some(h) = self.trig_builtin(fb, b, args, ty, location)? {
            return Ok(h);
        }
        let math = |f: naga::MathFunction| Some(f);
        let function = match b {
            // `rsqrt` is within OpenCL's 2 ulp on Vulkan's InverseSqrt (also
            // 2 ulp); the `native_*` functions have implementation-defined
            // accuracy, which is exactly what the hardware functions give.
            Builtin::Rsqrt | Builtin::NativeRsqrt => math(naga::MathFunction::InverseSqrt),
            Builtin::NativeSqrt => math(naga::MathFunction::Sqrt),
            Builtin::NativeSin => math(naga::MathFunction::Sin),
            Builtin::NativeCos => math(naga::MathFunction::Cos),
            Builtin::NativeTan => math(naga::MathFunction::Tan),
            Builtin::NativeExp => math(naga::MathFunction::Exp),
            Builtin::NativeExp2 => math(naga::MathFunction::Exp2),
            Builtin::NativeLog => math(naga::MathFunction::Log),
            Builtin::NativeLog2 => math(naga::MathFunction::Log2),
            Builtin::NativePowr => math(naga::MathFunction::Pow),
            Builtin::Min => math(naga::MathFunction::Min),
            Builtin::Max => math(naga::MathFunction::Max),
            Builtin::Fabs => math(naga::MathFunction::Abs),
            Builtin::Floor => math(naga::MathFunction::Floor),
            Builtin::Ceil => math(naga::MathFunction::Ceil),
            Builtin::Trunc => math(naga::MathFunction::Trunc),
            Builtin::Sqrt => math(naga::MathFunction::Sqrt),
            Builtin::Fma
                if !self.caps.fused_fma
                    && self.caps.float64
                    && ty.element() == Some(Scalar::Float) =>
            {
                let [a, b, c] = [0, 1, 2].map(|i| &args[i]);
                let (a, b, c) = (self.plain(fb, a)?, self.plain(fb, b)?, self.plain(fb, c)?);
                return self.float_fma_through_double(fb, [a, b, c], ty, location);
            }
            Builtin::Fma | Builtin::Mad => math(naga::MathFunction::Fma),
            Builtin::WorkDim
            | Builtin::GlobalId
            | Builtin::LocalId
            | Builtin::GroupId
            | Builtin::GlobalSize
            | Builtin::LocalSize
            | Builtin::NumGroups
            | Builtin::GlobalOffset
            | Builtin::EnqueuedLocalSize
            | Builtin::GlobalLinearId
            | Builtin::LocalLinearId => None,
            _ => {
                return Err(self.error(
                    location,
                    format!("built-in function '{b}' is not supported yet by this translator"),
                ))
            }
        };
        if let Some(fun) = function {
            let mut values = Vec::new();
            for a in args {
                values.push(self.plain(fb, a)?);
            }
            return Ok(fb.add(naga::Expression::Math {
                fun,
                arg: values[0],
                arg1: values.get(1).copied(),
                arg2: values.get(2).copied(),
                arg3: None,
            }));
        }
        let pc = self.push_constants.expect("push constants");
        let vars = self.builtins.as_ref().expect("builtins");
        let load_global = |fb: &mut Emitter, g: Handle<naga::GlobalVariable>| {
            let pointer = fb.add(naga::Expression::GlobalVariable(g));
            fb.add(naga::Expression::Load { pointer })
        };
        let enqueued_size = vars.enqueued_size;
        let (global_id, local_id, group_id, local_size) = (
            vars.global_id,
            vars.local_id,
            vars.group_id,
            vars.local_size,
        );
        if b == Builtin::WorkDim {
            let base = fb.add(naga::Expression::GlobalVariable(pc));
            let pointer = fb.add(naga::Expression::AccessIndex {
                base,
                index: PushConstantHeader::WORK_DIM / 4,
            });
            return Ok(fb.add(naga::Expression::Load { pointer }));
        }
        let uvec3 = self.uvec3_type();
        let header_vector = |fb: &mut Emitter, byte_offset: u32| {
            let mut components = Vec::new();
            for i in 0..3 {
                let base = fb.add(naga::Expression::GlobalVariable(pc));
                let pointer = fb.add(naga::Expression::AccessIndex {
                    base,
                    index: byte_offset / 4 + i,
                });
                components.push(fb.add(naga::Expression::Load { pointer }));
            }
            fb.add(naga::Expression::Compose {
                ty: uvec3,
                components,
            })
        };
        // The work-group sizes, from the constants `Kernel::spirv` sets:
        // this group's, and the enqueued one that ids and group counts are
        // measured in (they differ in the last groups of a non-uniform
        // NDRange).
        let size_vector = |fb: &mut Emitter, constants: [Handle<naga::Constant>; 3]| {
            let components = constants
                .map(|c| fb.add(naga::Expression::Constant(c)))
                .to_vec();
            fb.add(naga::Expression::Compose {
                ty: uvec3,
                components,
            })
        };
        let local_vector = |fb: &mut Emitter| size_vector(fb, local_size);
        let enqueued_vector = |fb: &mut Emitter| size_vector(fb, enqueued_size);
        if matches!(b, Builtin::GlobalLinearId | Builtin::LocalLinearId) {
            let (id, size) = if b == Builtin::LocalLinearId {
                (load_global(fb, local_id), local_vector(fb))
            } else {
                // The id within the NDRange, without the global offset.
                let id = load_global(fb, global_id);
                let groups = header_vector(fb, PushConstantHeader::GROUP_OFFSET);
                let enqueued = enqueued_vector(fb);
                let first = fb.binary(naga::BinaryOperator::Multiply, groups, enqueued);
                let id = fb.binary(naga::BinaryOperator::Add, id, first);
                (id, header_vector(fb, PushConstantHeader::GLOBAL_SIZE))
            };
            let part = |fb: &mut Emitter, v, i| {
                fb.add(naga::Expression::AccessIndex { base: v, index: i })
            };
            let (x, y, z) = (part(fb, id, 0), part(fb, id, 1), part(fb, id, 2));
            let (sx, sy) = (part(fb, size, 0), part(fb, size, 1));
            // x + sx * (y + sy * z)
            let zy = fb.binary(naga::BinaryOperator::Multiply, sy, z);
            let yz = fb.binary(naga::BinaryOperator::Add, y, zy);
            let row = fb.binary(naga::BinaryOperator::Multiply, sx, yz);
            let linear = fb.binary(naga::BinaryOperator::Add, x, row);
            return self.convert(fb, linear, &Type::UINT, ty, location);
        }
        // A constant dimension below 3 (nearly every call) needs only its
        // own component: one header word and one size constant instead of
        // three of each, which keeps the IR (and the driver's work) small.
        if let Some(d) = fb.int_constant(args[0]) {
            if d < 3 {
                let d = d as u32;
                let header_word = |fb: &mut Emitter, byte_offset: u32| {
                    let base = fb.add(naga::Expression::GlobalVariable(pc));
                    let pointer = fb.add(naga::Expression::AccessIndex {
                        base,
                        index: byte_offset / 4 + d,
                    });
                    fb.add(naga::Expression::Load { pointer })
                };
                let component = |fb: &mut Emitter, g: Handle<naga::GlobalVariable>| {
                    let base = fb.add(naga::Expression::GlobalVariable(g));
                    let pointer = fb.add(naga::Expression::AccessIndex { base, index: d });
                    fb.add(naga::Expression::Load { pointer })
                };
                let size = |fb: &mut Emitter, c: [Handle<naga::Constant>; 3]| {
                    fb.add(naga::Expression::Constant(c[d as usize]))
                };
                use naga::BinaryOperator as Op;
                let value = match b {
                    Builtin::GlobalId => {
                        let id = component(fb, global_id);
                        let group = header_word(fb, PushConstantHeader::GROUP_OFFSET);
                        let enqueued = size(fb, enqueued_size);
                        let first = fb.binary(Op::Multiply, group, enqueued);
                        let offset = header_word(fb, PushConstantHeader::GLOBAL_OFFSET);
                        let base = fb.binary(Op::Add, first, offset);
                        fb.binary(Op::Add, id, base)
                    }
                    Builtin::LocalId => component(fb, local_id),
                    Builtin::GroupId => {
                        let id = component(fb, group_id);
                        let group = header_word(fb, PushConstantHeader::GROUP_OFFSET);
                        fb.binary(Op::Add, id, group)
                    }
                    Builtin::GlobalSize => header_word(fb, PushConstantHeader::GLOBAL_SIZE),
                    Builtin::GlobalOffset => header_word(fb, PushConstantHeader::GLOBAL_OFFSET),
                    Builtin::LocalSize => size(fb, local_size),
                    Builtin::EnqueuedLocalSize => size(fb, enqueued_size),
                    Builtin::NumGroups => {
                        let global = header_word(fb, PushConstantHeader::GLOBAL_SIZE);
                        let enqueued = size(fb, enqueued_size);
                        let one = fb.add(naga::Expression::Literal(naga::Literal::U32(1)));
                        let less_one = fb.binary(Op::Subtract, enqueued, one);
                        let rounded = fb.binary(Op::Add, global, less_one);
                        fb.binary(Op::Divide, rounded, enqueued)
                    }
                    _ => return Err(self.error(location, "internal error: unhandled built-in")),
                };
                return self.convert(fb, value, &Type::UINT, ty, location);
            }
        }
        let (vector, out_of_range) = match b {
            Builtin::GlobalId => {
                // (group_offset + WorkGroupId) * enqueued + LocalInvocationId
                // + global_offset, with GlobalInvocationId covering the
                // dispatch-relative part (a dispatch of smaller groups has
                // one group in that dimension, so it is LocalInvocationId).
                let id = load_global(fb, global_id);
                let groups = header_vector(fb, PushConstantHeader::GROUP_OFFSET);
                let enqueued = enqueued_vector(fb);
                let first = fb.binary(naga::BinaryOperator::Multiply, groups, enqueued);
                let offset = header_vector(fb, PushConstantHeader::GLOBAL_OFFSET);
                let base = fb.binary(naga::BinaryOperator::Add, first, offset);
                (fb.binary(naga::BinaryOperator::Add, id, base), 0)
            }
            Builtin::LocalId => (load_global(fb, local_id), 0),
            Builtin::GroupId => {
                let id = load_global(fb, group_id);
                let groups = header_vector(fb, PushConstantHeader::GROUP_OFFSET);
                (fb.binary(naga::BinaryOperator::Add, id, groups), 0)
            }
            Builtin::GlobalSize => (header_vector(fb, PushConstantHeader::GLOBAL_SIZE), 1),
            Builtin::GlobalOffset => (header_vector(fb, PushConstantHeader::GLOBAL_OFFSET), 0),
            Builtin::LocalSize => (local_vector(fb), 1),
            Builtin::EnqueuedLocalSize => (enqueued_vector(fb), 1),
            Builtin::NumGroups => {
                // Rounded up: a non-uniform NDRange ends in a smaller group.
                let size = header_vector(fb, PushConstantHeader::GLOBAL_SIZE);
                let enqueued = enqueued_vector(fb);
                let one = fb.add(naga::Expression::Literal(naga::Literal::U32(1)));
                let ones = fb.add(naga::Expression::Splat {
                    size: naga::VectorSize::Tri,
                    value: one,
                });
                let less_one = fb.binary(naga::BinaryOperator::Subtract, enqueued, ones);
                let rounded = fb.binary(naga::BinaryOperator::Add, size, less_one);
                (
                    fb.binary(naga::BinaryOperator::Divide, rounded, enqueued),
                    1,
                )
            }
            _ => return Err(self.error(location, "internal error: unhandled built-in")),
        };
        let component = self.dimension(fb, vector, args[0], out_of_range)?;
        self.convert(fb, component, &Type::UINT, ty, location)
    }

    /// The `native_*` functions that are arithmetic around a hardware one.
    pub(in crate::lower) fn native_composite(
        &mut self,
        fb: &mut FnBuilder,
        b: Builtin,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Option<Handle<naga::Expression>>> {
        let scaled = |this: &mut Self, fb: &mut FnBuilder, v, factor: f64| {
            let factor = this.float_constant(fb, ty, factor, location)?;
            Ok::<_, Failed>(fb.binary(naga::BinaryOperator::Multiply, v, factor))
        };
        Ok(Some(match b {
            Builtin::NativeRecip => {
                let x = self.plain(fb, args[0])?;
                let one = self.float_constant(fb, ty, 1.0, location)?;
                fb.binary(naga::BinaryOperator::Divide, one, x)
            }
            Builtin::NativeDivide => {
                let x = self.plain(fb, args[0])?;
                let y = self.plain(fb, args[1])?;
                fb.binary(naga::BinaryOperator::Divide, x, y)
            }
            Builtin::NativeExp10 => {
                let x = self.plain(fb, args[0])?;
                let x = scaled(self, fb, x, std::f64::consts::LOG2_10)?;
                fb.math(naga::MathFunction::Exp2, x, None)
            }
            Builtin::NativeLog10 => {
                let x = self.plain(fb, args[0])?;
                let log2 = fb.math(naga::MathFunction::Log2, x, None);
                scaled(self, fb, log2, std::f64::consts::LOG10_2)?
            }
            _ => return Ok(None),
        }))
    }
}
