//! Atomics: the OpenCL 1.x `atomic_*`/`atom_*` functions (32-bit, and
//! 64-bit with cl_khr_int64_*_atomics) and the OpenCL 2.0 `atomic_*` /
//! `atomic_*_explicit` functions on `atomic_int`, `atomic_uint`,
//! `atomic_long`, `atomic_ulong`, `atomic_flag`, and (store, load, exchange
//! and compare-exchange; add, sub, min and max in `float_atomics.rs`)
//! `atomic_float` and `atomic_double`, in `__global` buffers (through the
//! buffer's integer view) and `__local` memory (held as integer words, see
//! `float_words.rs`).
//!
//! The memory a location lives in (a buffer view, a `__local` array or
//! scalar) is retyped to hold `atomic<T>` the first time an atomic touches
//! it; plain loads and stores of it stay valid. Memory orders are mapped as
//! strongly as Vulkan without its memory model allows: the atomic
//! instruction itself acquires, releases, or both (`acq_rel` and
//! `seq_cst`) over the memory it lives in (see [`AtomicOrder`]).

mod float_atomics;
pub(super) mod float_words;

use crate::ast::AddressSpace;
use crate::builtins::C11AtomicOp;
use crate::diagnostic::Location;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::constants::register_literal;
use crate::lower::emit::Emitter;
use crate::lower::expressions::{Operand, Value};
use crate::lower::function::FnBuilder;
use crate::lower::naga_types::naga_scalar;
use crate::lower::pointers::{PointerValue, Root, Target};
use crate::types::{Scalar, Type};
use naga::{Handle, Span};

impl ModuleBuilder<'_> {
    /// The OpenCL 1.x `atomic_*`/`atom_*` functions.
    pub(super) fn atomic(
        &mut self,
        fb: &mut FnBuilder,
        op: crate::builtins::AtomicOp,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Value> {
        let p = self.pointer(fb, args[0])?;
        let mut operands = Vec::with_capacity(args.len() - 1);
        for a in &args[1..] {
            operands.push(self.plain(fb, a)?);
        }
        match p.target {
            // One atomic per candidate root, by a switch.
            Target::Chosen(choice) => {
                self.for_each_root(fb, choice, Some(ty), location, |this, fb, root| {
                    let p = PointerValue::fixed(root, p.index);
                    this.atomic_at(fb, op, p, &operands, ty, location)
                })
            }
            // Undefined in C; reached only where the program never runs it.
            Target::Fixed(Root::Null) => Ok(Value::Plain(self.zero(fb, ty, location)?)),
            Target::Fixed(_) => self.atomic_at(fb, op, p, &operands, ty, location),
        }
    }

    /// An OpenCL 1.x atomic on the element `p` points at, with its
    /// operands evaluated.
    fn atomic_at(
        &mut self,
        fb: &mut FnBuilder,
        op: crate::builtins::AtomicOp,
        p: PointerValue,
        operands: &[Handle<naga::Expression>],
        ty: &Type,
        location: Location,
    ) -> LResult<Value> {
        use crate::builtins::AtomicOp as Op;
        if let Target::Fixed(Root::Null) = p.target {
            // Undefined in C; reached only where the program never runs it.
            return Ok(Value::Plain(self.zero(fb, ty, location)?));
        }
        let target = self.atomic_target(fb, p, ty, location)?;
        let scalar = target.bits;
        let operand = |fb: &mut Emitter, i: usize| target.to_bits(fb, operands[i - 1]);
        let (fun, value) = match op {
            Op::Add => (naga::AtomicFunction::Add, operand(fb, 1)),
            Op::Sub => (naga::AtomicFunction::Subtract, operand(fb, 1)),
            Op::Inc => (naga::AtomicFunction::Add, one(fb, scalar)),
            Op::Dec => (naga::AtomicFunction::Subtract, one(fb, scalar)),
            Op::Min => (naga::AtomicFunction::Min, operand(fb, 1)),
            Op::Max => (naga::AtomicFunction::Max, operand(fb, 1)),
            Op::And => (naga::AtomicFunction::And, operand(fb, 1)),
            Op::Or => (naga::AtomicFunction::InclusiveOr, operand(fb, 1)),
            Op::Xor => (naga::AtomicFunction::ExclusiveOr, operand(fb, 1)),
            Op::Xchg => (
                naga::AtomicFunction::Exchange { compare: None },
                operand(fb, 1),
            ),
            Op::Cmpxchg => {
                let compare = operand(fb, 1);
                let value = operand(fb, 2);
                let result = self.atomic_rmw(
                    fb,
                    &target,
                    naga::AtomicFunction::Exchange {
                        compare: Some(compare),
                    },
                    value,
                )?;
                // atomic_cmpxchg returns the old value.
                return Ok(Value::Plain(fb.add(naga::Expression::AccessIndex {
                    base: result,
                    index: 0,
                })));
            }
        };
        let old = self.atomic_rmw(fb, &target, fun, value)?;
        Ok(Value::Plain(target.value_of_bits(fb, old)))
    }

    /// The OpenCL 2.0 atomics on `atomic_*` objects, with the memory order
    /// and scope of the `_explicit` forms (sequentially consistent and
    /// device scope otherwise).
    pub(super) fn c11_atomic(
        &mut self,
        fb: &mut FnBuilder,
        op: C11AtomicOp,
        explicit: bool,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Value> {
        let p = self.pointer(fb, args[0])?;
        match p.target {
            // One atomic per candidate root, by a switch; the other
            // arguments are evaluated in the case that runs.
            Target::Chosen(choice) => {
                let result = (*ty != Type::Void).then_some(ty);
                self.for_each_root(fb, choice, result, location, |this, fb, root| {
                    let p = PointerValue::fixed(root, p.index);
                    this.c11_atomic_at(fb, op, explicit, args, p, ty, location)
                })
            }
            _ => self.c11_atomic_at(fb, op, explicit, args, p, ty, location),
        }
    }

    /// An OpenCL 2.0 atomic on the object `p` points at; `args[0]` is the
    /// expression `p` came from, `ty` the call's type.
    #[allow(clippy::too_many_arguments)]
    fn c11_atomic_at(
        &mut self,
        fb: &mut FnBuilder,
        op: C11AtomicOp,
        explicit: bool,
        args: &[Operand],
        p: PointerValue,
        ty: &Type,
        location: Location,
    ) -> LResult<Value> {
        use C11AtomicOp as Op;
        if let Target::Fixed(Root::Null) = p.target {
            // Undefined in C; reached only where the program never runs it.
            return Ok(match ty {
                Type::Void => Value::Void,
                ty => Value::Plain(self.zero(fb, ty, location)?),
            });
        }
        let object_ty = self.pointee_of(fb, args[0]).map_or(Type::INT, |p| p.ty);
        let target = self.atomic_target(fb, p, &object_ty, location)?;
        let scalar = target.bits;
        // Where the order argument of the `_explicit` form is.
        let order_at = match op {
            Op::Init => None,
            Op::Load | Op::FlagTestAndSet | Op::FlagClear => Some(1),
            Op::CompareExchangeStrong | Op::CompareExchangeWeak => Some(3),
            _ => Some(2),
        };
        let order = match order_at
            .filter(|_| explicit)
            .and_then(|i| fb.int_constant(args[i]))
        {
            Some(order) => order,
            // Not a constant (or no `_explicit`): the strongest.
            _ => MEMORY_ORDER_SEQ_CST,
        };
        let memory = self.atomic_memory(fb, args[0]);
        let (release, acquire) = match (op, order) {
            (Op::Init, _) | (_, MEMORY_ORDER_RELAXED) => (false, false),
            (_, MEMORY_ORDER_ACQUIRE) => (false, true),
            (_, MEMORY_ORDER_RELEASE) => (true, false),
            _ => (true, true),
        };
        let order = AtomicOrder {
            memory,
            release: release && self.caps.ordered_atomics,
            acquire: acquire && self.caps.ordered_atomics,
        };
        let result = match op {
            Op::Init | Op::Store | Op::FlagClear => {
                let value = match op {
                    Op::FlagClear => zero(fb, scalar),
                    _ => {
                        let value = self.plain(fb, args[1])?;
                        target.to_bits(fb, value)
                    }
                };
                target.mark(fb, &order);
                self.atomic_store(fb, &target, value)?;
                Value::Void
            }
            Op::Load => {
                target.mark(fb, &order);
                let bits = self.atomic_load(fb, &target)?;
                Value::Plain(target.value_of_bits(fb, bits))
            }
            Op::FlagTestAndSet => {
                let set = one(fb, scalar);
                let exchange = naga::AtomicFunction::Exchange { compare: None };
                target.mark(fb, &order);
                let old = self.atomic_rmw(fb, &target, exchange, set)?;
                let clear = zero(fb, scalar);
                Value::Plain(fb.binary(naga::BinaryOperator::NotEqual, old, clear))
            }
            Op::CompareExchangeStrong | Op::CompareExchangeWeak => {
                // `*expected` receives the value found, which is what it
                // already holds when the exchange happened.
                let expected = self.pointed_place(fb, args[1], location)?;
                let Value::Plain(compare) = self.load(fb, expected.clone(), location)? else {
                    return Err(self.error(location, "atomic_compare_exchange of a pointer"));
                };
                // Floats compare by their bits, as C11's compare-exchange
                // compares object representations.
                let compare = target.to_bits(fb, compare);
                let desired = self.plain(fb, args[2])?;
                let desired = target.to_bits(fb, desired);
                let exchange = naga::AtomicFunction::Exchange {
                    compare: Some(compare),
                };
                target.mark(fb, &order);
                let result = self.atomic_rmw(fb, &target, exchange, desired)?;
                let old = fb.add(naga::Expression::AccessIndex {
                    base: result,
                    index: 0,
                });
                let old = target.value_of_bits(fb, old);
                self.store(fb, expected, Value::Plain(old), location, None)?;
                Value::Plain(fb.add(naga::Expression::AccessIndex {
                    base: result,
                    index: 1,
                }))
            }
            Op::FetchAdd | Op::FetchSub | Op::FetchMin | Op::FetchMax if target.float.is_some() => {
                let operand = self.plain(fb, args[1])?;
                Value::Plain(self.float_fetch_modify(fb, op, &target, operand, &order)?)
            }
            _ => {
                let fun = match op {
                    Op::Exchange => naga::AtomicFunction::Exchange { compare: None },
                    Op::FetchAdd => naga::AtomicFunction::Add,
                    Op::FetchSub => naga::AtomicFunction::Subtract,
                    Op::FetchOr => naga::AtomicFunction::InclusiveOr,
                    Op::FetchXor => naga::AtomicFunction::ExclusiveOr,
                    Op::FetchAnd => naga::AtomicFunction::And,
                    Op::FetchMin => naga::AtomicFunction::Min,
                    _ => naga::AtomicFunction::Max,
                };
                let value = self.plain(fb, args[1])?;
                let value = target.to_bits(fb, value);
                target.mark(fb, &order);
                let old = self.atomic_rmw(fb, &target, fun, value)?;
                Value::Plain(target.value_of_bits(fb, old))
            }
        };
        Ok(result)
    }

    /// The atomic object `p` points at (a `value_ty`), with its memory
    /// retyped to hold atomics. `float` and `double` objects are reached
    /// through the buffer's integer view of their width: Vulkan's atomics
    /// without extensions are integer ones, and exchanges, loads and stores
    /// only move bits.
    fn atomic_target(
        &mut self,
        fb: &mut FnBuilder,
        mut p: PointerValue,
        value_ty: &Type,
        location: Location,
    ) -> LResult<AtomicTarget> {
        let value = value_ty.scalar();
        let bits = match value {
            Some(s @ (Scalar::Int | Scalar::UInt)) => s,
            // cl_khr_int64_{base,extended}_atomics, and atomic_long/ulong.
            Some(s @ (Scalar::Long | Scalar::ULong)) if self.caps.int64_atomics => s,
            Some(Scalar::Float) => Scalar::UInt,
            Some(Scalar::Double) if self.caps.int64_atomics => Scalar::ULong,
            _ => {
                return Err(self.error(
                    location,
                    format!(
                        "atomic operations on '{}' are not supported yet by this translator",
                        self.display(value_ty)
                    ),
                ))
            }
        };
        let float = matches!(value, Some(Scalar::Float | Scalar::Double));
        let float = float.then(|| naga_scalar(value.unwrap_or(Scalar::Float)));
        if let Target::Fixed(root) = p.target {
            if self.private_root(root) {
                // Memory no other work-item sees: the atomic is a plain
                // read-modify-write of the place.
                let place = self.element_place(fb, p, value_ty, location)?;
                return Ok(AtomicTarget {
                    at: AtomicAt::Private(place),
                    bits: naga_scalar(bits),
                    float,
                    location,
                });
            }
        }
        if float.is_some() {
            match p.target {
                // A buffer: its integer view.
                Target::Fixed(Root::Global(g)) if self.memory.is_buffer_view(g) => {
                    let from = Type::Scalar(value.unwrap_or(Scalar::Float));
                    p = self.cast_pointer(fb, p, &from, &Type::Scalar(bits), location)?;
                }
                // `__local` memory: held as words (see `float_words.rs`).
                Target::Fixed(Root::Global(g))
                    if self.module.global_variables[g].space == naga::AddressSpace::WorkGroup =>
                {
                    self.require_words(g, value_ty, location)?;
                }
                // A cast of `__local` memory held as integers.
                Target::Fixed(Root::Cast(_)) => {}
                _ => {
                    return Err(self.error(
                        location,
                        format!(
                            "atomic operations on '{}' outside __global and __local memory are not supported by this translator",
                            self.display(value_ty)
                        ),
                    ))
                }
            }
        }
        let (global, index, unit) = match p.target {
            Target::Fixed(Root::Global(global)) => (global, p.index, bits),
            Target::Fixed(Root::Null) => {
                return Err(self.error(
                    location,
                    "atomic operation on a null pointer",
                ))
            }
            Target::Fixed(Root::Cast(base)) => {
                let (global, unit) = self.cast_atomic_unit(base, bits, location)?;
                (global, p.index, unit)
            }
            Target::Fixed(Root::Private(..) | Root::Argument { .. }) | Target::Chosen(_) => {
                return Err(self.error(
                    location,
                    "internal compiler error: an atomic through a pointer chosen at run time reached one root",
                ))
            }
        };
        let unit = naga_scalar(unit);
        self.make_atomic(global, unit, location)?;
        let pointer = self.element_pointer(fb, Root::Global(global), index, location)?;
        // An `int` atomic on `uint` units (or the reverse) reinterprets
        // its operands and results, as `float` ones do.
        let value = naga_scalar(value.unwrap_or(Scalar::Int));
        let reinterpret = float.or((value != unit).then_some(value));
        Ok(AtomicTarget {
            at: AtomicAt::Memory(pointer),
            bits: unit,
            float: reinterpret,
            location,
        })
    }

    /// Whether `root` is memory of this work-item alone: a private
    /// variable, the caller's one, or a cast of either.
    fn private_root(&self, root: Root) -> bool {
        match root {
            Root::Private(..) | Root::Argument { .. } => true,
            Root::Cast(base) => self.private_root(self.memory.cast_base_root(base)),
            _ => false,
        }
    }

    /// For an atomic on `bits` through a pointer into cast base `base`
    /// (`__local` memory seen as another type): the workgroup variable
    /// whose units the atomic works on, one per atomic object, and their
    /// scalar. The units must be integers of the atomic's size: 32-bit
    /// words (memory held as words, see `float_words.rs` and
    /// `KernelFacts::word_locals`), or the object's own integers.
    fn cast_atomic_unit(
        &mut self,
        base: usize,
        bits: Scalar,
        location: Location,
    ) -> LResult<(Handle<naga::GlobalVariable>, Scalar)> {
        let (root, element, words) = self.memory.cast_base(base);
        let unit = match (root, element) {
            (Root::Global(g), _)
                if self.module.global_variables[g].space == naga::AddressSpace::WorkGroup =>
            {
                match element {
                    _ if words => Some((g, Scalar::UInt)),
                    Type::Scalar(s) if s.is_integer() => Some((g, s)),
                    _ => None,
                }
            }
            _ => None,
        };
        match unit {
            Some((g, unit)) if unit.size() == bits.size() => Ok((g, unit)),
            _ => Err(self.error(
                location,
                format!(
                    "atomic operations on '{}' through a pointer cast from '{}' memory are not supported by this translator",
                    self.display(&Type::Scalar(bits)),
                    self.display(&element)
                ),
            )),
        }
    }

    /// The value of the atomic object (its bits), without order.
    fn atomic_load(
        &mut self,
        fb: &mut FnBuilder,
        target: &AtomicTarget,
    ) -> LResult<Handle<naga::Expression>> {
        match target.at {
            AtomicAt::Memory(pointer) => Ok(fb.add(naga::Expression::Load { pointer })),
            AtomicAt::Private(ref place) => {
                let location = target.location;
                let Value::Plain(value) = self.load(fb, place.clone(), location)? else {
                    return Err(self.error(location, "atomic operation on a pointer"));
                };
                Ok(target.to_bits(fb, value))
            }
        }
    }

    /// Stores `bits` in the atomic object.
    fn atomic_store(
        &mut self,
        fb: &mut FnBuilder,
        target: &AtomicTarget,
        bits: Handle<naga::Expression>,
    ) -> LResult<()> {
        match target.at {
            AtomicAt::Memory(pointer) => {
                fb.push(naga::Statement::Store {
                    pointer,
                    value: bits,
                });
                Ok(())
            }
            AtomicAt::Private(ref place) => {
                let value = target.value_of_bits(fb, bits);
                self.store(
                    fb,
                    place.clone(),
                    Value::Plain(value),
                    target.location,
                    None,
                )
            }
        }
    }

    /// An atomic read-modify-write of the object; its result as
    /// [`Self::atomic_statement`] gives it. On private memory, a plain
    /// load, operation and store.
    fn atomic_rmw(
        &mut self,
        fb: &mut FnBuilder,
        target: &AtomicTarget,
        fun: naga::AtomicFunction,
        value: Handle<naga::Expression>,
    ) -> LResult<Handle<naga::Expression>> {
        use naga::BinaryOperator as B;
        if let AtomicAt::Memory(pointer) = target.at {
            let min_max = matches!(fun, naga::AtomicFunction::Min | naga::AtomicFunction::Max);
            if let Some(other) = target
                .float
                .filter(|s| min_max && s.kind != target.bits.kind)
            {
                // Signed and unsigned minima differ; Vulkan's min and max
                // compare the memory's integers.
                let (value, unit) = (scalar_name(other), scalar_name(target.bits));
                return Err(self.error(
                    target.location,
                    format!("atomic minimum and maximum on '{value}' through a pointer cast from '{unit}' __local memory are not supported by this translator"),
                ));
            }
            return Ok(self.atomic_statement(fb, pointer, target.bits, fun, value));
        }
        let old = self.atomic_load(fb, target)?;
        let (new, result) = match fun {
            naga::AtomicFunction::Add => (fb.binary(B::Add, old, value), old),
            naga::AtomicFunction::Subtract => (fb.binary(B::Subtract, old, value), old),
            naga::AtomicFunction::And => (fb.binary(B::And, old, value), old),
            naga::AtomicFunction::InclusiveOr => (fb.binary(B::InclusiveOr, old, value), old),
            naga::AtomicFunction::ExclusiveOr => (fb.binary(B::ExclusiveOr, old, value), old),
            naga::AtomicFunction::Min => (fb.math(naga::MathFunction::Min, old, Some(value)), old),
            naga::AtomicFunction::Max => (fb.math(naga::MathFunction::Max, old, Some(value)), old),
            naga::AtomicFunction::Exchange { compare: None } => (value, old),
            naga::AtomicFunction::Exchange {
                compare: Some(compare),
            } => {
                let equal = fb.binary(B::Equal, old, compare);
                let new = fb.select(equal, value, old);
                let ty = self.module.generate_predeclared_type(
                    naga::PredeclaredType::AtomicCompareExchangeWeakResult(target.bits),
                );
                let result = fb.add(naga::Expression::Compose {
                    ty,
                    components: vec![old, equal],
                });
                (new, result)
            }
        };
        self.atomic_store(fb, target, new)?;
        Ok(result)
    }

    /// The memory a barrier around an atomic on `object` must order.
    fn atomic_memory(&self, fb: &FnBuilder, object: Operand) -> naga::Barrier {
        match self.pointee_of(fb, object).map(|p| p.space) {
            Some(AddressSpace::Local) => naga::Barrier::WORK_GROUP,
            Some(AddressSpace::Global) => naga::Barrier::STORAGE,
            // A generic pointer may point into either.
            _ => naga::Barrier::WORK_GROUP | naga::Barrier::STORAGE,
        }
    }

    /// An atomic read-modify-write; its result (for a compare-exchange,
    /// the `{old_value, exchanged}` pair).
    pub(super) fn atomic_statement(
        &mut self,
        fb: &mut FnBuilder,
        pointer: Handle<naga::Expression>,
        scalar: naga::Scalar,
        fun: naga::AtomicFunction,
        value: Handle<naga::Expression>,
    ) -> Handle<naga::Expression> {
        let comparison = matches!(fun, naga::AtomicFunction::Exchange { compare: Some(_) });
        let result_ty = if comparison {
            self.module.generate_predeclared_type(
                naga::PredeclaredType::AtomicCompareExchangeWeakResult(scalar),
            )
        } else {
            self.add_type(naga::TypeInner::Scalar(scalar))
        };
        // Results of atomics belong to their statement, never to an Emit.
        let result = fb.function.expressions.append(
            naga::Expression::AtomicResult {
                ty: result_ty,
                comparison,
            },
            Span::UNDEFINED,
        );
        fb.push(naga::Statement::Atomic {
            pointer,
            fun,
            value,
            result: Some(result),
        });
        result
    }

    /// Retypes an array global's elements as `atomic<scalar>`.
    pub(super) fn make_atomic(
        &mut self,
        global: Handle<naga::GlobalVariable>,
        scalar: naga::Scalar,
        location: Location,
    ) -> LResult<()> {
        let ty = self.module.global_variables[global].ty;
        let naga::TypeInner::Array { base, size, stride } = self.module.types[ty].inner else {
            // A `__local` scalar.
            return match self.module.types[ty].inner {
                naga::TypeInner::Atomic(s) if s == scalar => Ok(()),
                naga::TypeInner::Scalar(s) if s == scalar => {
                    self.module.global_variables[global].ty =
                        self.add_type(naga::TypeInner::Atomic(scalar));
                    Ok(())
                }
                _ => Err(self.error(location, "atomic operations need an int or uint")),
            };
        };
        match self.module.types[base].inner {
            naga::TypeInner::Atomic(s) if s == scalar => Ok(()),
            naga::TypeInner::Scalar(s) if s == scalar => {
                let atomic = self.add_type(naga::TypeInner::Atomic(scalar));
                let array = self.add_type(naga::TypeInner::Array {
                    base: atomic,
                    size,
                    stride,
                });
                self.module.global_variables[global].ty = array;
                Ok(())
            }
            _ => Err(self.error(
                location,
                "atomic operations on memory of another type are not supported yet by this translator",
            )),
        }
    }
}

/// The ordering an OpenCL 2.0 atomic asks for. naga writes every atomic
/// relaxed and has no way to say otherwise, so the order travels as marker
/// barriers just before the atomic (flagged `TEXTURE`, which no OpenCL
/// fence uses: one for release, two for acquire, three for both), and
/// [`crate::atomic_order`] turns them into the atomic's own memory
/// semantics in the SPIR-V. Separate fences around the atomic would order
/// as much, but lavapipe loses atomic updates when a fence sits in a loop
/// that work-items leave at different iterations (a compare-exchange
/// loop).
struct AtomicOrder {
    memory: naga::Barrier,
    release: bool,
    acquire: bool,
}

impl AtomicOrder {
    fn mark(&self, fb: &mut FnBuilder) {
        let count = usize::from(self.release) + 2 * usize::from(self.acquire);
        for _ in 0..count {
            fb.push(naga::Statement::MemoryBarrier(
                self.memory | crate::atomic_order::MARKER,
            ));
        }
    }
}

/// Where an atomic operates: memory of `atomic<bits>`, and where the
/// value's own scalar differs (`float` and `double` objects, or an `int`
/// atomic on `uint` units), that scalar, converted bit for bit.
struct AtomicTarget {
    pub(super) at: AtomicAt,
    pub(super) bits: naga::Scalar,
    pub(super) float: Option<naga::Scalar>,
    /// The call's, for diagnostics.
    location: Location,
}

/// The object of an atomic.
enum AtomicAt {
    /// A pointer to `atomic<bits>` in memory other work-items share.
    Memory(Handle<naga::Expression>),
    /// A place of private memory, of the value's own type: no other
    /// work-item sees it, so no atomic instruction is needed.
    Private(crate::lower::pointers::Place),
}

impl AtomicTarget {
    /// Marks the next atomic instruction with `order`: none for private
    /// memory, which has no atomic instruction to carry it.
    pub(super) fn mark(&self, fb: &mut FnBuilder, order: &AtomicOrder) {
        if let AtomicAt::Memory(_) = self.at {
            order.mark(fb);
        }
    }

    pub(super) fn to_bits(
        &self,
        fb: &mut Emitter,
        value: Handle<naga::Expression>,
    ) -> Handle<naga::Expression> {
        match self.float {
            Some(_) => fb.add(naga::Expression::As {
                expr: value,
                kind: self.bits.kind,
                convert: None,
            }),
            None => value,
        }
    }

    fn value_of_bits(
        &self,
        fb: &mut FnBuilder,
        bits: Handle<naga::Expression>,
    ) -> Handle<naga::Expression> {
        match self.float {
            Some(float) => fb.add(naga::Expression::As {
                expr: bits,
                kind: float.kind,
                convert: None,
            }),
            None => bits,
        }
    }
}

/// The C name of an integer scalar of naga's.
fn scalar_name(s: naga::Scalar) -> &'static str {
    match (s.kind, s.width) {
        (naga::ScalarKind::Sint, 4) => "int",
        (naga::ScalarKind::Uint, 4) => "uint",
        (naga::ScalarKind::Sint, _) => "long",
        _ => "ulong",
    }
}

const MEMORY_ORDER_RELAXED: u64 = 0;
const MEMORY_ORDER_ACQUIRE: u64 = 2;
const MEMORY_ORDER_RELEASE: u64 = 3;
const MEMORY_ORDER_SEQ_CST: u64 = 5;

fn one(fb: &mut Emitter, scalar: naga::Scalar) -> Handle<naga::Expression> {
    fb.add(naga::Expression::Literal(register_literal(scalar, 1)))
}

fn zero(fb: &mut Emitter, scalar: naga::Scalar) -> Handle<naga::Expression> {
    fb.add(naga::Expression::Literal(register_literal(scalar, 0)))
}
