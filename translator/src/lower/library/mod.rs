//! The built-in library: calls of OpenCL C's built-in functions, each
//! sent to the part that implements it.

mod async_copy;
mod collectives;
mod divide64;
mod flush;
mod fma;
mod formulas;
pub(super) mod fp16;
mod geometric;
pub(super) mod image;
mod int64;
pub(super) mod math;
mod shuffle;
mod sub_group_arithmetic;
mod sub_group_ballots;
mod sub_groups;

use crate::ast::AddressSpace;
use crate::builtins::Builtin;
use crate::caps::{DenormMode, DeviceCaps};
use crate::diagnostic::Location;
use crate::hir::ExprId;
use crate::lexer::FxHashMap;
use crate::lower::builder::{Failed, LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::expressions::convert::{self, is_plain_conversion};
use crate::lower::expressions::{wide, Operand, Value};
use crate::lower::function::FnBuilder;
use crate::options::BuildOptions;
use crate::types::{Scalar, Type};
use naga::Handle;

/// The library's state: functions made once per module.
pub(super) struct Library {
    /// `-cl-fast-relaxed-math` / `-cl-unsafe-math-optimizations`: the math
    /// built-ins may take the hardware paths (see `math/relaxed.rs`).
    relaxed_math: bool,
    /// `-cl-denorms-are-zero`.
    denorms_are_zero: bool,
    /// Helper functions (see `divide64.rs`).
    helpers: FxHashMap<&'static str, Handle<naga::Function>>,
    /// The math library's functions, by built-in, element type and width.
    math: FxHashMap<(Builtin, Scalar, u8), Handle<naga::Function>>,
}

impl Library {
    /// Whether `float` subnormals are kept in this build: what
    /// `CL_FP_DENORM` reports, unless `-cl-denorms-are-zero` flushes them.
    fn keeps_float_subnormals(&self, caps: &DeviceCaps) -> bool {
        caps.denormals.modes(self.denorms_are_zero)[0] == Some(DenormMode::Preserve)
    }

    pub(super) fn new(options: &BuildOptions) -> Self {
        Library {
            relaxed_math: options.fast_relaxed_math || options.unsafe_math_optimizations,
            denorms_are_zero: options.denorms_are_zero,
            helpers: FxHashMap::default(),
            math: FxHashMap::default(),
        }
    }
}

fn is_barrier(b: Builtin) -> bool {
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
    pub(super) fn builtin_call(
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
    pub(super) fn builtin_on(
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
            Builtin::Image(image) => return self.image_builtin(fb, image, args, ty, location),
            Builtin::AtomicWorkItemFence => {
                self.work_item_fence(fb, args)?;
                return Ok(Value::Void);
            }
            Builtin::AsyncWorkGroupCopy | Builtin::AsyncWorkGroupStridedCopy => {
                return self.async_copy(fb, b, args, location)
            }
            b if collectives::is_collective(b) => {
                return self.collective(fb, b, args, ty, location)
            }
            Builtin::SubGroupArithmetic(op, form) => {
                return self.sub_group_arithmetic(fb, op, form, args, ty, location)
            }
            // A wide vector is broadcast part by part (below).
            b if b.is_sub_group() && !wide::splits_builtin(fb, b, args, ty) => {
                return self.sub_group_function(fb, b, args, ty, location)
            }
            Builtin::WaitGroupEvents => {
                self.wait_group_events(fb);
                return Ok(Value::Void);
            }
            Builtin::Prefetch => return Ok(Value::Void),
            Builtin::ToGlobal => return self.address_space_cast(fb, AddressSpace::Global, args[0]),
            Builtin::ToLocal => return self.address_space_cast(fb, AddressSpace::Local, args[0]),
            Builtin::ToPrivate => {
                return self.address_space_cast(fb, AddressSpace::Private, args[0])
            }
            Builtin::GetFence => self.fence_of(fb, args[0])?,
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
            b if self.flushes_float_bits(fb, b, args) => {
                self.builtin_on_flushed(fb, b, args, ty, location)?
            }
            b => self.builtin(fb, b, args, ty, location)?,
        };
        Ok(Value::Plain(h))
    }

    fn builtin(
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
        use naga::MathFunction as M;
        let fun = match b {
            // `rsqrt` is within OpenCL's 2 ulp on Vulkan's InverseSqrt (also
            // 2 ulp); the `native_*` functions have implementation-defined
            // accuracy, which is exactly what the hardware functions give.
            Builtin::Rsqrt | Builtin::NativeRsqrt => M::InverseSqrt,
            Builtin::NativeSqrt => M::Sqrt,
            Builtin::NativeExp => M::Exp,
            Builtin::NativeExp2 => M::Exp2,
            Builtin::NativeLog => M::Log,
            Builtin::NativeLog2 => M::Log2,
            Builtin::NativePowr => M::Pow,
            Builtin::Min => M::Min,
            Builtin::Max => M::Max,
            Builtin::Fabs => M::Abs,
            Builtin::Floor => M::Floor,
            Builtin::Ceil => M::Ceil,
            Builtin::Trunc => M::Trunc,
            Builtin::Sqrt => M::Sqrt,
            Builtin::Fma
                if !self.caps.fused_fma
                    && self.caps.float64
                    && ty.element() == Some(Scalar::Float) =>
            {
                let [a, b, c] = [0, 1, 2].map(|i| &args[i]);
                let (a, b, c) = (self.plain(fb, a)?, self.plain(fb, b)?, self.plain(fb, c)?);
                return self.float_fma_through_double(fb, [a, b, c], ty, location);
            }
            Builtin::Fma | Builtin::Mad => M::Fma,
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
            | Builtin::LocalLinearId => return self.work_item_function(fb, b, args, ty, location),
            _ => {
                return Err(self.error(
                    location,
                    format!("built-in function '{b}' is not supported yet by this translator"),
                ))
            }
        };
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            values.push(self.plain(fb, a)?);
        }
        let result = fb.add(naga::Expression::Math {
            fun,
            arg: values[0],
            arg1: values.get(1).copied(),
            arg2: values.get(2).copied(),
            arg3: None,
        });
        if b == Builtin::Rsqrt && ty.element() == Some(Scalar::Double) {
            // NVIDIA's driver gives 0 for the double InverseSqrt of some
            // NaNs (0x7ff0000000000200, the OpenCL-CTS's test_bruteforce
            // on the H200); a NaN stays a NaN.
            let is_nan = fb.add(naga::Expression::Relational {
                fun: naga::RelationalFunction::IsNan,
                argument: values[0],
            });
            return Ok(fb.select(is_nan, values[0], result));
        }
        Ok(result)
    }

    /// The `native_*` functions that are arithmetic around a hardware one.
    fn native_composite(
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
