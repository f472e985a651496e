//! Lowering: the checked program to one naga module per kernel.
//!
//! OpenCL pointers do not exist in naga, so every pointer value is resolved
//! here to a [`Root`] (a buffer argument, a private array or variable) plus an
//! element index, or to one of several roots chosen at run time (see
//! `chosen.rs`). A pointer variable keeps its root, or its position in its
//! root set, and its index in integer locals. Helper functions become naga
//! functions specialised per combination of pointer-argument roots; their
//! pointer parameters become index parameters (after a function-space
//! pointer to the caller's variable, for private memory). Work-item ids
//! come from the SPIR-V built-ins, copied to private globals at entry so
//! helpers can read them; sizes and offsets come from the push-constant
//! header (see [`PushConstantHeader`]).

mod async_copy;
mod atomics;
mod cast_memory;
mod chosen;
mod collectives;
mod convert;
mod divide64;
mod emit;
mod float_atomics;
mod float_words;
mod fma;
mod fp16;
mod geometric;
mod init;
mod int64;
mod integer_pointers;
mod kernel;
mod library;
mod math;
mod memory;
mod printf;
mod program_globals;
mod program_pointers;
mod records;
mod reinterpret;
mod roots;
mod shuffle;
mod statements;
mod switch;
mod views;
mod wide;
mod workitem;

use crate::analysis::provenance::Origin;
use crate::analysis::{Analysis, KernelFacts};
use crate::ast::{AddressSpace, BinaryOp};
use crate::builtins::Builtin;
use crate::caps::DeviceCaps;
use crate::diagnostic::{Diagnostics, Location};
use crate::hir::{self, ExprId, ExprKind as H, FunctionId, LocalId, StmtId, StmtKind};
use crate::options::BuildOptions;
use crate::reflect::{ArgKind, KernelArg, KernelReflection, PrintfReflection, PushConstantHeader};
use crate::spirv::{Kernel, LoweredKernel};
use crate::types::{Pointee, Record, Scalar, Type};
use emit::Emitter;
use naga::{Handle, Span};
use std::collections::{HashMap, HashSet};

/// What lowering a program makes: its kernels and the block of its
/// program-scope `__global` variables.
pub struct Lowered {
    pub kernels: Vec<Kernel>,
    pub globals: crate::reflect::ProgramGlobals,
}

/// Lowers every kernel of `program`. Problems that only show up here (a
/// construct the pointer model cannot express) are reported as errors.
pub fn lower(
    program: &hir::Program,
    options: &BuildOptions,
    caps: &DeviceCaps,
    diags: &mut Diagnostics,
) -> Lowered {
    let block = program_globals::GlobalsBlock::layout(program);
    let analysis = crate::analysis::analyse(program);
    let initial = {
        let mut builder = ModuleBuilder::new(program, &analysis, options, caps, diags, &block);
        builder.globals_initial_bytes(&block)
    };
    let mut lowered = Lowered {
        kernels: Vec::new(),
        globals: crate::reflect::ProgramGlobals::default(),
    };
    // An initializer it cannot evaluate was reported: the build fails.
    let Some(initial) = initial else {
        return lowered;
    };
    lowered.globals = crate::reflect::ProgramGlobals {
        size: block.size(),
        initial,
    };
    // Each kernel is its own module: lowered, validated and written as a
    // job of its own, in parallel where there are several.
    let kernels: Vec<(FunctionId, &hir::KernelInfo)> = program
        .functions
        .iter()
        .filter_map(|(id, f)| Some((id, f.kernel.as_ref()?)))
        .collect();
    let settings = diags.with_same_settings();
    let jobs = in_parallel(&kernels, |&(id, info)| {
        let mut diags = settings.with_same_settings();
        let lowered = ModuleBuilder::new(program, &analysis, options, caps, &mut diags, &block)
            .lowered_kernel(id, info, options);
        let finished = lowered.map(|k| k.finish());
        (diags, finished)
    });
    for ((kernel_diags, finished), (id, _)) in jobs.into_iter().zip(&kernels) {
        diags.append(kernel_diags);
        match finished {
            Some(Ok(kernel)) => lowered.kernels.push(kernel),
            Some(Err(e)) => diags.error(program.functions[*id].span, e.0),
            None => {}
        }
    }
    lowered
}

/// `job` of each of `items`, in order, run on as many threads as there
/// are cores and items (the calling thread one of them).
fn in_parallel<T: Sync, R: Send>(items: &[T], job: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = items.len().min(crate::cores::available());
    if threads <= 1 {
        return items.iter().map(job).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(item) = items.get(i) else { break };
            done.push((i, job(item)));
        }
        done
    };
    let mut results: Vec<Option<R>> = items.iter().map(|_| None).collect();
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        let own = work();
        let theirs = helpers.into_iter().flat_map(|h| match h.join() {
            Ok(done) => done,
            Err(panic) => std::panic::resume_unwind(panic),
        });
        for (i, r) in own.into_iter().chain(theirs) {
            results[i] = Some(r);
        }
    });
    results
        .into_iter()
        .map(|r| r.expect("every item was taken"))
        .collect()
}

impl ModuleBuilder<'_> {
    /// Kernel `id` as a module, before validation and writing; `None` when
    /// it has errors (reported).
    fn lowered_kernel(
        mut self,
        id: FunctionId,
        info: &hir::KernelInfo,
        options: &BuildOptions,
    ) -> Option<LoweredKernel> {
        let (mut reflection, module) = self.kernel(id, info)?;
        reflection.non_uniform_work_groups = options.effective_cl_std()
            >= crate::options::ClStd::Cl2_0
            && !options.uniform_work_group_size;
        let vars = self.builtins.as_ref()?;
        let sizes = crate::spirv::SizeConstants {
            local: vars.local_size,
            enqueued: vars.enqueued_size,
        };
        // Finite math lets the driver assume no NaN or infinity.
        let ieee = !(options.finite_math_only || options.fast_relaxed_math);
        let caps = self.caps;
        Some(LoweredKernel {
            reflection,
            module,
            sizes,
            local_args: self.local_args,
            group_scratch: self.group_scratch.into_values().collect(),
            preserve_inf_nan: [
                ieee && caps.preserve_inf_nan[0],
                ieee && caps.preserve_inf_nan[1] && caps.float64,
                ieee && caps.preserve_inf_nan[2] && caps.float16,
            ],
            half_rounds_to_nearest: caps.float16 && caps.half_rte,
        })
    }
}

/// Where a pointer points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Root {
    /// A global variable holding an array: a buffer argument (`array<T>`
    /// in storage space) or a `__local` array (workgroup space).
    Global(Handle<naga::GlobalVariable>),
    /// A private array or scalar variable of the current function.
    Private(Handle<naga::LocalVariable>, bool),
    /// A `__local`, `__constant` or private object seen through a pointer
    /// cast to another type: an index into `ModuleBuilder::cast_bases`
    /// (see `cast_memory.rs`).
    Cast(usize),
    /// Inside a helper, the caller's private variable that a pointer
    /// parameter points into: naga argument `arg` is a function-space
    /// pointer to it (of naga type `ty`, an array or not). `identity` is
    /// the variable's object identity in the caller (see `chosen.rs`).
    Argument {
        arg: u32,
        ty: Handle<naga::Type>,
        array: bool,
        identity: u32,
    },
    /// The null pointer (`0`, `NULL`): nothing to point into. Reading
    /// through it gives zero and writing does nothing (C leaves both
    /// undefined); it compares unequal to every other pointer.
    Null,
}

/// What a pointer value points into: one root known at compile time, or
/// one of several chosen at run time (see `chosen.rs`).
#[derive(Clone, Copy, Debug)]
enum Target {
    Fixed(Root),
    Chosen(Choice),
}

/// A root chosen at run time: `which` (a `u32`) indexes the root set `set`
/// (an index into `ModuleBuilder::root_sets`).
#[derive(Clone, Copy, Debug)]
struct Choice {
    set: usize,
    which: Handle<naga::Expression>,
}

/// A pointer value: what it points into and an element index (`u32`,
/// wrapping) counting elements of its pointee type.
#[derive(Clone, Copy, Debug)]
struct PointerValue {
    target: Target,
    index: Handle<naga::Expression>,
}

impl PointerValue {
    fn fixed(root: Root, index: Handle<naga::Expression>) -> Self {
        PointerValue {
            target: Target::Fixed(root),
            index,
        }
    }

    /// The same target at another index.
    fn at(self, index: Handle<naga::Expression>) -> Self {
        PointerValue { index, ..self }
    }
}

#[derive(Clone, Copy)]
enum Value {
    Plain(Handle<naga::Expression>),
    Pointer(PointerValue),
    /// `void` expressions (calls of void functions, casts to void).
    Void,
}

/// Something the lowering evaluates: an expression of the HIR function
/// being lowered, or a value it has computed already, with its C type
/// (the parts of a wide vector, a `half` widened to `float`), so that a
/// built-in can be lowered on either.
#[derive(Clone, Copy, Debug)]
enum Operand {
    Expr(ExprId),
    Value(Handle<naga::Expression>, Type),
    /// A pointer to a value of the pointee, which the program need not
    /// spell as a type (a part of a wide vector).
    Pointer(PointerValue, Pointee),
    /// An integer constant (its bits) of a scalar type.
    Int(u64, Type),
}

impl From<ExprId> for Operand {
    fn from(e: ExprId) -> Self {
        Operand::Expr(e)
    }
}

impl From<&ExprId> for Operand {
    fn from(e: &ExprId) -> Self {
        Operand::Expr(*e)
    }
}

impl From<&Operand> for Operand {
    fn from(op: &Operand) -> Self {
        *op
    }
}

/// How a HIR local is held in naga.
#[derive(Clone, Copy, Debug)]
enum Slot {
    Variable(Handle<naga::LocalVariable>),
    /// A `__local` variable of a kernel: a workgroup-space global.
    Workgroup(Handle<naga::GlobalVariable>),
    /// A pointer variable: fixed root (set by its first assignment) and
    /// an index variable; or, for a variable given different roots, the
    /// root set and a `u32` variable holding the position in it.
    Pointer {
        root: Option<Root>,
        index: Handle<naga::LocalVariable>,
        chosen: Option<ChosenVar>,
    },
}

/// The root of a pointer variable given different roots: its root set
/// (an index into `ModuleBuilder::root_sets`) and the `u32` variable
/// holding its position in the set.
#[derive(Clone, Copy, Debug)]
struct ChosenVar {
    set: usize,
    which: Handle<naga::LocalVariable>,
}

/// A place that can be loaded from or stored to.
#[derive(Clone)]
enum Place {
    Memory(Handle<naga::Expression>),
    /// Element `index` of a word-viewed buffer of `char`/`short` values or
    /// vectors.
    Narrow {
        global: Handle<naga::GlobalVariable>,
        index: Handle<naga::Expression>,
        element: NarrowElement,
    },
    /// Lanes of an element of a word-viewed buffer of `char`/`short`
    /// vectors: `first` is the scalar index of the element's lane 0.
    NarrowLanes {
        global: Handle<naga::GlobalVariable>,
        first: Handle<naga::Expression>,
        lanes: Vec<u8>,
        scalar: Scalar,
    },
    /// A value in a byte image (see `records.rs`).
    Bytes(records::BytePlace),
    /// A `float`/`double` (`float`, a naga float scalar) in `__local`
    /// memory held as integer words: `pointer` points at its word (see
    /// `float_words.rs`).
    FloatBits {
        pointer: Handle<naga::Expression>,
        float: naga::Scalar,
    },
    /// Lanes of the vector of the given type at a pointer.
    Lanes(Handle<naga::Expression>, Vec<u8>, Type),
    PointerVar(LocalId),
    /// A program-scope pointer variable (see `program_globals.rs`): the
    /// `u32` word of the block that holds it, and its pointee type.
    BlockPointer {
        word: Handle<naga::Expression>,
        pointee: Type,
    },
    /// One of several places, by a root chosen at run time: `which`
    /// indexes `candidates`; `ty` is the C type of the value there.
    Chosen {
        which: Handle<naga::Expression>,
        candidates: Vec<Place>,
        ty: Type,
    },
    /// What a null pointer points at: reads give a zero `ty`, writes are
    /// dropped.
    Null(Type),
    /// Lanes of a value read from an object of another type through a
    /// cast pointer (see `cast_memory.rs`): lane `l` is the `scalar` at
    /// byte `byte + l * size` of cast base `base`.
    Cast {
        base: usize,
        byte: Handle<naga::Expression>,
        scalar: Scalar,
        lanes: Vec<u8>,
    },
}

/// The C element type of a word-viewed buffer: a `char`/`short` scalar
/// (`width` 1) or vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct NarrowElement {
    scalar: Scalar,
    width: u8,
}

impl NarrowElement {
    /// Scalars per element in memory (a 3-vector occupies 4).
    fn lanes(self) -> u32 {
        u32::from(crate::types::storage_lanes(self.width))
    }

    /// Whether each element fills whole 32-bit words, so it can be stored
    /// with plain word stores that touch no neighbour's bytes.
    fn fills_words(self) -> bool {
        (self.scalar.size() * self.lanes()).is_multiple_of(4)
    }
}

struct BuiltinVars {
    global_id: Handle<naga::GlobalVariable>,
    local_id: Handle<naga::GlobalVariable>,
    group_id: Handle<naga::GlobalVariable>,
    /// The work-group size, as constants that `Kernel::spirv` sets per
    /// launch: launches may be split into several dispatches (more groups
    /// than one dispatch allows), so `NumWorkGroups` is not the NDRange's.
    local_size: [Handle<naga::Constant>; 3],
    /// The enqueued work-group size, likewise: larger than `local_size` in
    /// the last groups of a non-uniform NDRange.
    enqueued_size: [Handle<naga::Constant>; 3],
}

/// Reported already; lowering of this kernel stops.
struct Failed;

type LResult<T> = Result<T, Failed>;

struct ModuleBuilder<'a> {
    program: &'a hir::Program,
    /// What the analysis found of the program's pointers (see
    /// [`crate::analysis`]).
    analysis: &'a Analysis,
    /// The facts of the kernel being lowered.
    kernel_facts: Option<&'a KernelFacts>,
    /// While above zero, errors are not reported: a pointer variable's
    /// roots are resolved ahead of its uses, which report what fails where
    /// it is written (see `roots.rs`).
    muted: u32,
    caps: &'a DeviceCaps,
    diags: &'a mut Diagnostics,
    module: naga::Module,
    specialisations: HashMap<(FunctionId, Vec<Option<Root>>), Handle<naga::Function>>,
    builtins: Option<BuiltinVars>,
    push_constants: Option<Handle<naga::GlobalVariable>>,
    /// Functions being lowered, to reject recursion (OpenCL C 6.9.m).
    in_progress: Vec<FunctionId>,
    /// Buffers of `char`/`short` elements or vectors, seen through a `u32`
    /// word view (naga has no 8-bit types), with their C element type.
    narrow_buffers: HashMap<Handle<naga::GlobalVariable>, NarrowElement>,
    /// Roots whose elements are records held as byte images (see
    /// `records.rs`), with the element type; a private root (and a
    /// helper's argument root, the caller's private image) is keyed by its
    /// function too, as local variable handles are per function.
    image_roots: HashMap<(Option<FunctionId>, Root), Type>,
    /// Every buffer view (see `views.rs`).
    views: Vec<views::BufferView>,
    /// Program-scope `__constant` variables used by this kernel.
    program_globals: HashMap<hir::GlobalId, Handle<naga::GlobalVariable>>,
    /// Where the program-scope `__global` variables lie (see
    /// `program_globals.rs`).
    globals_block: &'a program_globals::GlobalsBlock,
    /// The binding of that block and its first view, made on the kernel's
    /// first use of one of them.
    globals_view: Option<(u32, Handle<naga::GlobalVariable>)>,
    /// String literals used as arrays, by their bytes (see `init.rs`).
    string_globals: HashMap<Vec<u8>, Handle<naga::GlobalVariable>>,
    /// The workgroup arrays of `__local` pointer arguments, in order.
    local_args: Vec<Handle<naga::GlobalVariable>>,
    /// The work-group collectives' scratch arrays, by element type (see
    /// `collectives.rs`), sized per launch to the work-group.
    group_scratch: HashMap<Handle<naga::Type>, Handle<naga::GlobalVariable>>,
    /// Helper functions made once per module (see `divide64.rs`).
    helpers: HashMap<&'static str, Handle<naga::Function>>,
    /// The next free storage-buffer binding: past the arguments' (and the
    /// launch block's), then taken by the printf buffer and the program
    /// globals' block as the kernel first uses them.
    next_binding: u32,
    /// Made by the kernel's first `printf`.
    printf: Option<printf::PrintfBuffer>,
    /// `-cl-fast-relaxed-math` / `-cl-unsafe-math-optimizations`: the math
    /// built-ins may take the hardware paths (see `math/relaxed.rs`).
    relaxed_math: bool,
    /// The math library's functions made so far, by built-in, element
    /// type and width.
    math_functions: HashMap<(Builtin, Scalar, u8), Handle<naga::Function>>,
    /// Sets of roots that pointers chosen at run time range over.
    root_sets: Vec<Vec<Root>>,
    /// Objects whose address was cast to another pointee type.
    cast_bases: Vec<cast_memory::CastBase>,
    /// `__local` variables held as `u32` words because the kernel casts
    /// their address to a narrower pointee (see
    /// [`KernelFacts::word_locals`]).
    word_locals: HashSet<Handle<naga::GlobalVariable>>,
    /// The roots (in the callee's terms) of the pointers helpers return.
    returned_roots: HashMap<Handle<naga::Function>, Vec<Root>>,
    /// The workgroup globals of `__local` variables declared in kernels.
    workgroup_locals: HashMap<(FunctionId, LocalId), Handle<naga::GlobalVariable>>,
    /// The workgroup globals of `__local` `float`/`double` objects held as
    /// integer words for the atomics on them (see `float_words.rs`), with
    /// their C `float`/`double`.
    float_words: HashMap<Handle<naga::GlobalVariable>, Scalar>,
}

impl<'a> ModuleBuilder<'a> {
    fn new(
        program: &'a hir::Program,
        analysis: &'a Analysis,
        options: &BuildOptions,
        caps: &'a DeviceCaps,
        diags: &'a mut Diagnostics,
        globals_block: &'a program_globals::GlobalsBlock,
    ) -> Self {
        ModuleBuilder {
            program,
            analysis,
            kernel_facts: None,
            muted: 0,
            caps,
            diags,
            module: naga::Module::default(),
            specialisations: HashMap::new(),
            narrow_buffers: HashMap::new(),
            image_roots: HashMap::new(),
            program_globals: HashMap::new(),
            string_globals: HashMap::new(),
            globals_block,
            globals_view: None,
            views: Vec::new(),
            local_args: Vec::new(),
            group_scratch: HashMap::new(),
            helpers: HashMap::new(),
            next_binding: 0,
            printf: None,
            builtins: None,
            push_constants: None,
            in_progress: Vec::new(),
            relaxed_math: options.fast_relaxed_math || options.unsafe_math_optimizations,
            math_functions: HashMap::new(),
            root_sets: Vec::new(),
            cast_bases: Vec::new(),
            workgroup_locals: HashMap::new(),
            returned_roots: HashMap::new(),
            word_locals: HashSet::new(),
            float_words: HashMap::new(),
        }
    }
}

/// One HIR function being lowered: the naga function it becomes (which it
/// dereferences to, for emitting), and what the lowering keeps of the HIR
/// function's locals and pointers meanwhile.
struct FnBuilder<'a> {
    emit: Emitter,
    /// The HIR function it is lowered from.
    source: &'a hir::Function,
    slots: HashMap<LocalId, Slot>,
    /// For each pointer parameter: the root this specialisation (or, for
    /// a kernel, the launch) gives it.
    param_roots: HashMap<LocalId, Root>,
    /// The roots a returned pointer may have.
    return_roots: Vec<Root>,
    hir: FunctionId,
}

fn naga_scalar(s: Scalar) -> naga::Scalar {
    match s {
        Scalar::Bool => naga::Scalar::BOOL,
        Scalar::Char | Scalar::Short | Scalar::Int => naga::Scalar::I32,
        Scalar::UChar | Scalar::UShort | Scalar::UInt => naga::Scalar::U32,
        Scalar::Long => naga::Scalar::I64,
        Scalar::ULong => naga::Scalar::U64,
        Scalar::Half => naga::Scalar::F16,
        Scalar::Float => naga::Scalar::F32,
        Scalar::Double => naga::Scalar::F64,
    }
}

fn vector_size(n: u8) -> Option<naga::VectorSize> {
    match n {
        2 => Some(naga::VectorSize::Bi),
        3 => Some(naga::VectorSize::Tri),
        4 => Some(naga::VectorSize::Quad),
        _ => None,
    }
}

fn literal(s: Scalar, bits: u64) -> naga::Literal {
    match naga_scalar(s) {
        naga::Scalar::BOOL => naga::Literal::Bool(bits != 0),
        naga::Scalar::I32 => naga::Literal::I32(crate::literal::sign_extend(bits, s) as i32),
        naga::Scalar::U32 => naga::Literal::U32(bits as u32),
        naga::Scalar::I64 => naga::Literal::I64(bits as i64),
        naga::Scalar::F32 => naga::Literal::F32(bits as i64 as f32),
        naga::Scalar::F64 => naga::Literal::F64(bits as i64 as f64),
        naga::Scalar::F16 => naga::Literal::F16(::half::f16::from_f64(bits as i64 as f64)),
        _ => naga::Literal::U64(bits),
    }
}

/// The literal of register type `scalar` with bits `v` (truncated to its
/// width): a bit pattern, where [`literal`] makes a value of a C type.
fn register_literal(scalar: naga::Scalar, v: u64) -> naga::Literal {
    match scalar {
        naga::Scalar::I32 => naga::Literal::I32(v as i32),
        naga::Scalar::I64 => naga::Literal::I64(v as i64),
        naga::Scalar::U64 => naga::Literal::U64(v),
        _ => naga::Literal::U32(v as u32),
    }
}

fn float_literal(s: Scalar, v: f64) -> naga::Literal {
    match s {
        Scalar::Double => naga::Literal::F64(v),
        // Rounded to nearest even, as a C conversion of the value would.
        Scalar::Half => naga::Literal::F16(::half::f16::from_f64(v)),
        _ => naga::Literal::F32(v as f32),
    }
}

impl<'a> ModuleBuilder<'a> {
    fn error(&mut self, location: impl Into<Location>, message: impl Into<String>) -> Failed {
        if self.muted == 0 {
            self.diags.error(location, message);
        }
        Failed
    }

    /// What a pointer type points to.
    fn pointee(&self, ty: &Type) -> Option<&'a Pointee> {
        self.program.types.pointee(*ty)
    }

    /// What pointer operand `op` points to.
    fn pointee_of(&self, fb: &FnBuilder, op: Operand) -> Option<Pointee> {
        fb.pointee(op, &self.program.types)
    }

    /// The element type of an array type.
    fn element_of(&self, ty: &Type) -> Option<Type> {
        self.program.types.array_element(*ty)
    }

    fn record(&self, r: Handle<Record>) -> &'a Record {
        &self.program.types[r]
    }

    fn type_size(&self, ty: &Type) -> Option<u64> {
        self.program.types.size(*ty)
    }

    /// The spelling of a name of the program.
    fn name(&self, symbol: hir::Symbol) -> &'a str {
        &self.program.names[symbol]
    }

    /// `ty` as clang spells it in diagnostics.
    fn display(&self, ty: &Type) -> String {
        self.program.display(*ty)
    }

    fn add_type(&mut self, inner: naga::TypeInner) -> Handle<naga::Type> {
        self.module
            .types
            .insert(naga::Type { name: None, inner }, Span::UNDEFINED)
    }

    /// The naga type of a value of `ty` held in a register.
    fn value_type(&mut self, ty: &Type, location: Location) -> LResult<Handle<naga::Type>> {
        if self.is_image(ty) {
            return Ok(self.image_type(ty));
        }
        let inner = match ty {
            Type::Scalar(s) => naga::TypeInner::Scalar(naga_scalar(*s)),
            Type::Vector(s, n) => match vector_size(*n) {
                Some(size) => naga::TypeInner::Vector {
                    size,
                    scalar: naga_scalar(*s),
                },
                None if wide::is_wide(ty) => return Ok(self.wide_type(*s, *n)),
                None => {
                    return Err(self.error(
                        location,
                        format!("{n}-component vectors are not supported yet by this translator"),
                    ))
                }
            },
            Type::Array(elem, n) => {
                let elem = &self.program.types[*elem];
                let base = self.value_type(elem, location)?;
                let stride = self.storage_stride(elem, location)?;
                let size = std::num::NonZeroU32::new(*n as u32)
                    .ok_or_else(|| self.error(location, "arrays must not be empty"))?;
                naga::TypeInner::Array {
                    base,
                    size: naga::ArraySize::Constant(size),
                    stride,
                }
            }
            Type::Record(r) => return self.record_type(*r, location),
            // Events of the work-group copies, which complete at once.
            Type::Opaque(crate::types::Opaque::Event) => naga::TypeInner::Scalar(naga::Scalar::U32),
            t => {
                return Err(self.error(
                    location,
                    format!(
                        "values of type '{}' are not supported yet by this translator",
                        self.display(t)
                    ),
                ))
            }
        };
        Ok(self.add_type(inner))
    }

    /// A struct as a naga struct with the host's member offsets (from the
    /// layout engine), so it can live in buffers shared with the host.
    /// Unions and structs with members narrower than 32 bits are byte
    /// images instead (see `records.rs`) and do not come here.
    fn record_type(
        &mut self,
        r: Handle<Record>,
        location: Location,
    ) -> LResult<Handle<naga::Type>> {
        let r = self.record(r);
        if r.kind == crate::ast::RecordKind::Union {
            return Err(self.error(
                location,
                "internal compiler error: a union must be held as a byte image",
            ));
        }
        let mut members = Vec::with_capacity(r.fields.len());
        for field in &r.fields {
            let ty = self.memory_type(&field.ty, location)?;
            let name = &self.program.names[field.name];
            members.push(naga::StructMember {
                name: (!name.is_empty()).then(|| name.to_string()),
                ty,
                binding: None,
                offset: field.offset as u32,
            });
        }
        Ok(self.add_type(naga::TypeInner::Struct {
            members,
            span: r.size as u32,
        }))
    }

    /// The naga type of `ty` where its bytes are the host's (struct
    /// members, buffer elements): no 32-bit lanes for narrow types.
    fn memory_type(&mut self, ty: &Type, location: Location) -> LResult<Handle<naga::Type>> {
        match ty {
            Type::Scalar(s) | Type::Vector(s, _) if s.size() < 4 => Err(self.error(
                location,
                format!(
                    "struct members of type '{}' are not supported yet by this translator",
                    self.display(ty)
                ),
            )),
            Type::Array(elem, n) => {
                let elem = &self.program.types[*elem];
                let base = self.memory_type(elem, location)?;
                let stride = self.type_size(elem).unwrap_or(4) as u32;
                let size = std::num::NonZeroU32::new(*n as u32)
                    .ok_or_else(|| self.error(location, "arrays must not be empty"))?;
                Ok(self.add_type(naga::TypeInner::Array {
                    base,
                    size: naga::ArraySize::Constant(size),
                    stride,
                }))
            }
            _ => self.value_type(ty, location),
        }
    }

    /// The stride of `ty` in private or workgroup arrays, which no host
    /// sees: `char`/`short` values live in 32-bit lanes there.
    fn storage_stride(&mut self, ty: &Type, location: Location) -> LResult<u32> {
        let widened = |s: Scalar| u32::from(naga_scalar(s).width);
        match ty {
            Type::Scalar(s) => Ok(widened(*s)),
            Type::Vector(s, n) => Ok(widened(*s) * u32::from(crate::types::storage_lanes(*n))),
            _ => self.type_size(ty).map(|s| s as u32).ok_or_else(|| {
                let ty = self.display(ty);
                self.error(location, format!("type '{ty}' has no size"))
            }),
        }
    }

    /// The element type of a buffer argument: only types whose memory layout
    /// naga can express directly (32/64-bit scalars and 2/3/4-vectors of
    /// them) for now; narrower types need the word view.
    fn buffer_element_type(
        &mut self,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Type>> {
        if let Type::Scalar(s) | Type::Vector(s, _) = ty {
            if s.size() < 4 && *s != Scalar::Bool {
                // The word view: each u32 holds 4 chars or 2 shorts/halfs.
                return Ok(self.u32_type());
            }
        }
        if self.is_image(ty) {
            // The word view, as for `char` buffers.
            return Ok(self.u32_type());
        }
        if let Type::Record(_) = ty {
            return self.memory_type(ty, location);
        }
        let ok = match ty {
            Type::Scalar(s) | Type::Vector(s, _) => s.size() >= 4 && *s != Scalar::Bool,
            _ => false,
        };
        if !ok {
            return Err(self.error(
                location,
                format!(
                    "buffers of '{}' are not supported yet by this translator",
                    self.display(ty)
                ),
            ));
        }
        self.value_type(ty, location)
    }

    fn u32_type(&mut self) -> Handle<naga::Type> {
        self.add_type(naga::TypeInner::Scalar(naga::Scalar::U32))
    }

    fn uvec3_type(&mut self) -> Handle<naga::Type> {
        self.add_type(naga::TypeInner::Vector {
            size: naga::VectorSize::Tri,
            scalar: naga::Scalar::U32,
        })
    }

    fn private_global(
        &mut self,
        name: &str,
        ty: Handle<naga::Type>,
    ) -> Handle<naga::GlobalVariable> {
        self.module.global_variables.append(
            naga::GlobalVariable {
                name: Some(name.into()),
                space: naga::AddressSpace::Private,
                binding: None,
                ty,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            Span::UNDEFINED,
        )
    }

    // ---- kernels ----

    // ---- statements ----

    // ---- places ----

    // ---- expressions ----

    fn plain(
        &mut self,
        fb: &mut FnBuilder,
        e: impl Into<Operand>,
    ) -> LResult<Handle<naga::Expression>> {
        let e = e.into();
        match self.expr(fb, e)? {
            Value::Plain(h) => Ok(h),
            _ => {
                let ty = self.display(&fb.ty(e));
                let at = fb.hir(e).map(|e| e.span).unwrap_or_default();
                Err(self.error(at, format!("expected a value of type '{ty}'")))
            }
        }
    }

    /// A scalar condition as a naga `bool`.
    fn condition(
        &mut self,
        fb: &mut FnBuilder,
        e: impl Into<Operand>,
    ) -> LResult<Handle<naga::Expression>> {
        let operand = e.into();
        let ty = fb.ty(operand);
        if let Operand::Expr(id) = operand {
            match fb.expr(id).kind {
                H::Binary(op, a, b)
                    if op.is_comparison()
                        && matches!(ty, Type::Scalar(_))
                        && !fb.expr(a).ty.is_pointer()
                        && !fb.expr(b).ty.is_pointer() =>
                {
                    return self.comparison(fb, op, a, b);
                }
                H::Logical(op, a, b) => return self.logical(fb, op, a, b),
                H::Unary(hir::UnaryOp::LogicalNot, x)
                    if matches!(fb.expr(x).ty, Type::Scalar(_)) =>
                {
                    let c = self.condition(fb, x)?;
                    return Ok(fb.unary(naga::UnaryOperator::LogicalNot, c));
                }
                _ => {}
            }
            if let Type::Pointer(_) = ty {
                // Null is object 0; every other root names a nonzero one.
                let (object, _) = self.address_operand(fb, id)?;
                let null = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
                return Ok(fb.binary(naga::BinaryOperator::NotEqual, object, null));
            }
        }
        let v = self.plain(fb, operand)?;
        let s = ty.scalar().unwrap_or(Scalar::Int);
        if s == Scalar::Bool {
            return Ok(v);
        }
        let at = fb.hir(operand).map(|e| e.span).unwrap_or_default();
        let zero = self.zero(fb, &ty, at.location())?;
        // `!= 0` is true for NaN, as C wants: emit !(x == 0).
        let eq = fb.binary(naga::BinaryOperator::Equal, v, zero);
        Ok(fb.unary(naga::UnaryOperator::LogicalNot, eq))
    }

    fn zero(
        &mut self,
        fb: &mut FnBuilder,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let t = self.value_type(ty, location)?;
        Ok(fb.add(naga::Expression::ZeroValue(t)))
    }

    fn constant(
        &mut self,
        fb: &mut FnBuilder,
        ty: &Type,
        bits: u64,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let s = ty.element().unwrap_or(Scalar::Int);
        let lit = fb.add(naga::Expression::Literal(literal(s, bits)));
        self.splat_to(fb, lit, ty, location)
    }

    /// The float constant `v` of the element type of `ty`, splat to it.
    fn float_constant(
        &mut self,
        fb: &mut FnBuilder,
        ty: &Type,
        v: f64,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let s = ty.element().unwrap_or(Scalar::Float);
        let lit = fb.add(naga::Expression::Literal(float_literal(s, v)));
        self.splat_to(fb, lit, ty, location)
    }

    fn splat_to(
        &mut self,
        fb: &mut FnBuilder,
        scalar: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        Ok(match ty {
            Type::Vector(s, n) if wide::is_wide(ty) => {
                let part = fb.add(naga::Expression::Splat {
                    size: naga::VectorSize::Quad,
                    value: scalar,
                });
                let ty = self.wide_type(*s, *n);
                let components = vec![part; usize::from(*n / wide::PART_LANES)];
                fb.add(naga::Expression::Compose { ty, components })
            }
            Type::Vector(_, n) => {
                let size = vector_size(*n)
                    .ok_or_else(|| self.error(location, "unsupported vector width"))?;
                fb.add(naga::Expression::Splat {
                    size,
                    value: scalar,
                })
            }
            _ => scalar,
        })
    }

    fn comparison(
        &mut self,
        fb: &mut FnBuilder,
        op: BinaryOp,
        a: impl Into<Operand>,
        b: impl Into<Operand>,
    ) -> LResult<Handle<naga::Expression>> {
        let left = self.plain(fb, a)?;
        let right = self.plain(fb, b)?;
        Ok(self.compare(fb, op, left, right))
    }

    /// `left op right` for a comparison operator, as a naga bool (vector).
    fn compare(
        &mut self,
        fb: &mut FnBuilder,
        op: BinaryOp,
        left: Handle<naga::Expression>,
        right: Handle<naga::Expression>,
    ) -> Handle<naga::Expression> {
        let (naga_op, negate) = match op {
            BinaryOp::Lt => (naga::BinaryOperator::Less, false),
            BinaryOp::Gt => (naga::BinaryOperator::Greater, false),
            BinaryOp::Le => (naga::BinaryOperator::LessEqual, false),
            BinaryOp::Ge => (naga::BinaryOperator::GreaterEqual, false),
            BinaryOp::Eq => (naga::BinaryOperator::Equal, false),
            // Ordered != is false for NaN; C's != is true: use !(a == b).
            _ => (naga::BinaryOperator::Equal, true),
        };
        let r = fb.binary(naga_op, left, right);
        if negate {
            fb.unary(naga::UnaryOperator::LogicalNot, r)
        } else {
            r
        }
    }

    /// `&&`/`||` with short-circuit evaluation through a bool local.
    fn logical(
        &mut self,
        fb: &mut FnBuilder,
        op: BinaryOp,
        a: ExprId,
        b: ExprId,
    ) -> LResult<Handle<naga::Expression>> {
        let bool_ty = self.add_type(naga::TypeInner::Scalar(naga::Scalar::BOOL));
        let var = fb.function.local_variables.append(
            naga::LocalVariable {
                name: None,
                ty: bool_ty,
                init: None,
            },
            Span::UNDEFINED,
        );
        let first = self.condition(fb, a)?;
        let pointer = fb.add(naga::Expression::LocalVariable(var));
        fb.push(naga::Statement::Store {
            pointer,
            value: first,
        });
        fb.blocks.push(naga::Block::new());
        let r = self.condition(fb, b);
        let second_block = fb.blocks.pop().expect("rhs block");
        let second = r?;
        let mut block = second_block;
        let pointer2 = fb
            .function
            .expressions
            .append(naga::Expression::LocalVariable(var), Span::UNDEFINED);
        block.push(
            naga::Statement::Store {
                pointer: pointer2,
                value: second,
            },
            Span::UNDEFINED,
        );
        let (accept, reject) = if op == BinaryOp::LogicalAnd {
            (block, naga::Block::new())
        } else {
            (naga::Block::new(), block)
        };
        fb.push(naga::Statement::If {
            condition: first,
            accept,
            reject,
        });
        Ok(fb.add(naga::Expression::Load { pointer }))
    }

    /// A naga bool (vector) as the OpenCL integer result: 1/0 for scalars,
    /// -1/0 per lane for vectors.
    fn bool_to_int(
        &mut self,
        fb: &mut FnBuilder,
        b: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let true_bits = if matches!(ty, Type::Vector(..)) {
            u64::MAX
        } else {
            1
        };
        let accept = self.constant(fb, ty, true_bits, location)?;
        let reject = self.constant(fb, ty, 0, location)?;
        Ok(fb.add(naga::Expression::Select {
            condition: b,
            accept,
            reject,
        }))
    }

    fn expr(&mut self, fb: &mut FnBuilder, e: impl Into<Operand>) -> LResult<Value> {
        let id = match e.into() {
            Operand::Expr(id) => id,
            Operand::Value(v, _) => return Ok(Value::Plain(v)),
            Operand::Pointer(p, _) => return Ok(Value::Pointer(p)),
            Operand::Int(bits, ty) => {
                let v = self.constant(fb, &ty, bits, Location::default())?;
                return Ok(Value::Plain(v));
            }
        };
        let e = fb.expr(id);
        let location = e.span.location();
        if matches!(e.ty, Type::Pointer(_)) && chosen::is_null_constant(fb, id) {
            let zero = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
            return Ok(Value::Pointer(PointerValue::fixed(Root::Null, zero)));
        }
        // Operand types, read from the function (not through `fb`, which
        // the arms borrow mutably).
        let source = fb.source;
        let ty = |h: ExprId| source.exprs[h].ty;
        let h = match e.kind {
            H::Int(bits) => self.constant(fb, &e.ty, bits, location)?,
            H::Float(v) => self.float_constant(fb, &e.ty, v, location)?,
            H::Local(_) | H::Global(_) | H::Index(..) | H::Deref(_) | H::Member(..) => {
                let place = self.place(fb, id)?;
                return self.load(fb, place, location);
            }
            H::Swizzle(base, ref lanes) => {
                let base_ty = ty(base);
                let v = self.plain(fb, base)?;
                self.swizzle(fb, v, &base_ty, lanes, location)?
            }
            H::Convert(x) if ty(x).is_pointer() => {
                self.pointer_to_integer(fb, x, &e.ty, location)?
            }
            H::Convert(x) if e.ty.is_pointer() => {
                return Ok(Value::Pointer(
                    self.integer_to_pointer(fb, x, &e.ty, location)?,
                ))
            }
            H::Convert(x) => {
                let x_ty = ty(x);
                let v = self.plain(fb, x)?;
                self.convert(fb, v, &x_ty, &e.ty, location)?
            }
            H::Splat(x) => {
                let v = self.plain(fb, x)?;
                self.splat_to(fb, v, &e.ty, location)?
            }
            H::Unary(op, x) if wide::is_wide(&ty(x)) => {
                let x_ty = ty(x);
                let v = self.plain(fb, x)?;
                self.per_part(
                    fb,
                    &e.ty,
                    &[(v, &x_ty)],
                    location,
                    |this, fb, v, part_ty| {
                        Ok(match op {
                            hir::UnaryOp::Negate | hir::UnaryOp::BitNot => {
                                this.negate_or_invert(fb, op, v[0], part_ty, location)?
                            }
                            hir::UnaryOp::LogicalNot => {
                                let part = this.value_type(&wide::part_type(&x_ty), location)?;
                                let zero = fb.add(naga::Expression::ZeroValue(part));
                                let b = fb.binary(naga::BinaryOperator::Equal, v[0], zero);
                                this.bool_to_int(fb, b, part_ty, location)?
                            }
                        })
                    },
                )?
            }
            H::Unary(op, x) => match op {
                hir::UnaryOp::Negate | hir::UnaryOp::BitNot => {
                    let v = self.plain(fb, x)?;
                    self.negate_or_invert(fb, op, v, &e.ty, location)?
                }
                hir::UnaryOp::LogicalNot => {
                    let x_ty = ty(x);
                    let b = if matches!(x_ty, Type::Vector(..)) {
                        let v = self.plain(fb, x)?;
                        let zero = self.zero(fb, &x_ty, location)?;
                        fb.binary(naga::BinaryOperator::Equal, v, zero)
                    } else {
                        let c = self.condition(fb, x)?;
                        fb.unary(naga::UnaryOperator::LogicalNot, c)
                    };
                    self.bool_to_int(fb, b, &e.ty, location)?
                }
            },
            H::Binary(op, a, b) if op.is_comparison() && wide::is_wide(&ty(a)) => {
                let (a_ty, b_ty) = (ty(a), ty(b));
                let left = self.plain(fb, a)?;
                let right = self.plain(fb, b)?;
                let operands = [(left, &a_ty), (right, &b_ty)];
                self.per_part(fb, &e.ty, &operands, location, |this, fb, v, part_ty| {
                    let c = this.compare(fb, op, v[0], v[1]);
                    this.bool_to_int(fb, c, part_ty, location)
                })?
            }
            H::Binary(op, a, b) if ty(a).is_pointer() || ty(b).is_pointer() => {
                self.pointer_binary(fb, op, a, b, &e.ty, location)?
            }
            H::Binary(op, a, b) => {
                if op.is_comparison() {
                    let c = self.comparison(fb, op, a, b)?;
                    self.bool_to_int(fb, c, &e.ty, location)?
                } else if let Some(fused) = self.contracted(fb, op, a, b, &e.ty, location)? {
                    fused
                } else {
                    let left = self.plain(fb, a)?;
                    let right = self.plain(fb, b)?;
                    self.arithmetic(fb, op, left, right, &e.ty, location)?
                }
            }
            H::Logical(op, a, b) if matches!(e.ty, Type::Vector(..)) => {
                let (a_ty, b_ty) = (ty(a), ty(b));
                let left = self.plain(fb, a)?;
                let right = self.plain(fb, b)?;
                let combine = if op == BinaryOp::LogicalAnd {
                    naga::BinaryOperator::And
                } else {
                    naga::BinaryOperator::InclusiveOr
                };
                let operands = [(left, &a_ty), (right, &b_ty)];
                self.per_part(fb, &e.ty, &operands, location, |this, fb, v, part_ty| {
                    let zero_ty = this.value_type(&wide::part_type(&a_ty), location)?;
                    let mut set = Vec::new();
                    for &x in v {
                        let zero = fb.add(naga::Expression::ZeroValue(zero_ty));
                        let eq = fb.binary(naga::BinaryOperator::Equal, x, zero);
                        set.push(fb.unary(naga::UnaryOperator::LogicalNot, eq));
                    }
                    let c = fb.binary(combine, set[0], set[1]);
                    this.bool_to_int(fb, c, part_ty, location)
                })?
            }
            H::Logical(op, a, b) => {
                let c = self.logical(fb, op, a, b)?;
                self.bool_to_int(fb, c, &e.ty, location)?
            }
            H::Conditional(c, a, b) => return self.conditional(fb, id, c, a, b),
            H::Assign(target, value) => {
                let result = match self.expr(fb, value)? {
                    Value::Void => return Err(self.error(location, "assigning a void value")),
                    v => v,
                };
                let place = self.place(fb, target)?;
                self.store(fb, place, result, location, None)?;
                return Ok(result);
            }
            H::CompoundAssign {
                op,
                target,
                value,
                op_ty,
            } => {
                let target_ty = ty(target);
                let current = self.plain(fb, target)?;
                let current = self.convert(fb, current, &target_ty, &op_ty, location)?;
                let combined =
                    match self.contracted_update(fb, op, current, value, &op_ty, location)? {
                        Some(fused) => fused,
                        None => {
                            let v = self.plain(fb, value)?;
                            self.arithmetic(fb, op, current, v, &op_ty, location)?
                        }
                    };
                let result = self.convert(fb, combined, &op_ty, &target_ty, location)?;
                let place = self.place(fb, target)?;
                self.store(fb, place, Value::Plain(result), location, None)?;
                result
            }
            H::IncDec {
                target,
                increment,
                prefix,
            } => return self.inc_dec(fb, target, increment, prefix, location),
            H::PointerOffset(p, n) => {
                let p = self.pointer(fb, p)?;
                let n = self.index_value(fb, n)?;
                let index = fb.binary(naga::BinaryOperator::Add, p.index, n);
                return Ok(Value::Pointer(p.at(index)));
            }
            H::Decay(array) => {
                if let Some(p) = self.block_decay(fb, array)? {
                    return Ok(Value::Pointer(p));
                }
                let root = self.array_root(fb, array)?;
                let index = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
                return Ok(Value::Pointer(PointerValue::fixed(root, index)));
            }
            H::AddressOf(x) => return self.address_of(fb, x, location),
            H::Call(callee, ref args) => return self.call(fb, callee, args, &e.ty, location),
            H::Builtin(b, ref args) => return self.builtin_call(fb, b, args, &e.ty, location),
            H::Comma(a, b) => {
                self.expr(fb, a)?;
                return self.expr(fb, b);
            }
            H::PointerCast(inner) => {
                let p = self.pointer(fb, inner)?;
                let (Some(from), Some(to)) = (self.pointee(&ty(inner)), self.pointee(&e.ty)) else {
                    return Err(self.error(location, "pointer cast of a non-pointer"));
                };
                return Ok(Value::Pointer(
                    self.cast_pointer(fb, p, &from.ty, &to.ty, location)?,
                ));
            }
            H::Printf(ref args) => return Ok(Value::Plain(self.printf(fb, args, location)?)),
            H::Str(_) => {
                return Err(self.error(
                    location,
                    "string literals are not supported yet by this translator",
                ))
            }
            H::InitList(ref items) => {
                self.init_list(&mut init::Arena::Function(fb), &e.ty, items, location)?
            }
            H::VectorLiteral(ref parts) => {
                let mut lanes = Vec::new();
                for &p in parts {
                    let p_ty = ty(p);
                    let v = self.plain(fb, p)?;
                    lanes.extend(Self::lanes_of(v, &p_ty));
                }
                let s = e.ty.element().unwrap_or(Scalar::Float);
                self.gather(fb, s, &lanes, location)?
            }
        };
        Ok(Value::Plain(h))
    }

    /// A call of built-in `b` with `args`, whose result has type `ty`.
    fn builtin_call(
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
    fn builtin_on(
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

    /// Lanes `lanes` of `vector`, a value of `ty`.
    fn swizzle(
        &mut self,
        fb: &mut FnBuilder,
        vector: Handle<naga::Expression>,
        ty: &Type,
        lanes: &[u8],
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let width = wide::width_of(ty);
        let refs: Vec<_> = lanes
            .iter()
            .map(|&lane| wide::LaneRef {
                value: vector,
                width,
                lane,
            })
            .collect();
        let s = ty.element().unwrap_or(Scalar::Float);
        self.gather(fb, s, &refs, location)
    }

    /// `x * y + z`, `z + x * y`, `x * y - z` or `z - x * y` in floating
    /// point as one fused multiply-add: OpenCL C contracts within an
    /// expression by default (`FP_CONTRACT ON`, as clang does), and doing it
    /// here makes it the same on every driver rather than the driver's
    /// choice. `None` for any other expression.
    fn contracted(
        &mut self,
        fb: &mut FnBuilder,
        op: BinaryOp,
        a: ExprId,
        b: ExprId,
        ty: &Type,
        location: Location,
    ) -> LResult<Option<Handle<naga::Expression>>> {
        let float = matches!(ty.element(), Some(Scalar::Float | Scalar::Double));
        if !float || !matches!(op, BinaryOp::Add | BinaryOp::Sub) {
            return Ok(None);
        }
        let product = |e: ExprId| match fb.expr(e) {
            &hir::Expr {
                kind: H::Binary(BinaryOp::Mul, x, y),
                ty: product_ty,
                ..
            } if product_ty == *ty => Some((x, y)),
            _ => None,
        };
        let (x, y, z, negate_product) = match (product(a), product(b)) {
            (Some((x, y)), _) => (x, y, b, false),
            (None, Some((x, y))) => (x, y, a, op == BinaryOp::Sub),
            (None, None) => return Ok(None),
        };
        let negate_addend = op == BinaryOp::Sub && !negate_product;
        let (x, y, z) = (self.plain(fb, x)?, self.plain(fb, y)?, self.plain(fb, z)?);
        self.fused(fb, [x, y, z], negate_product, negate_addend, ty, location)
            .map(Some)
    }

    /// `target += x * y` or `target -= x * y` as one fused multiply-add,
    /// as [`ModuleBuilder::contracted`] does for the spelled-out forms.
    fn contracted_update(
        &mut self,
        fb: &mut FnBuilder,
        op: BinaryOp,
        current: Handle<naga::Expression>,
        value: ExprId,
        ty: &Type,
        location: Location,
    ) -> LResult<Option<Handle<naga::Expression>>> {
        let float = matches!(ty.element(), Some(Scalar::Float | Scalar::Double));
        let value = fb.expr(value);
        let (true, BinaryOp::Add | BinaryOp::Sub, &H::Binary(BinaryOp::Mul, x, y)) =
            (float && value.ty == *ty, op, &value.kind)
        else {
            return Ok(None);
        };
        let (x, y) = (self.plain(fb, x)?, self.plain(fb, y)?);
        let negate_product = op == BinaryOp::Sub;
        self.fused(fb, [x, y, current], negate_product, false, ty, location)
            .map(Some)
    }

    /// `(±x) * y + (±z)` as `Fma`, part by part for wide vectors.
    fn fused(
        &mut self,
        fb: &mut FnBuilder,
        [x, y, z]: [Handle<naga::Expression>; 3],
        negate_product: bool,
        negate_addend: bool,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let operands = [(x, ty), (y, ty), (z, ty)];
        self.per_part(fb, ty, &operands, location, |_, fb, v, _| {
            let x = if negate_product {
                fb.unary(naga::UnaryOperator::Negate, v[0])
            } else {
                v[0]
            };
            let z = if negate_addend {
                fb.unary(naga::UnaryOperator::Negate, v[2])
            } else {
                v[2]
            };
            Ok(fb.add(naga::Expression::Math {
                fun: naga::MathFunction::Fma,
                arg: x,
                arg1: Some(v[1]),
                arg2: Some(z),
                arg3: None,
            }))
        })
    }

    fn arithmetic(
        &mut self,
        fb: &mut FnBuilder,
        op: BinaryOp,
        left: Handle<naga::Expression>,
        right: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        use naga::BinaryOperator as N;
        if wide::is_wide(ty) {
            return self.per_part(
                fb,
                ty,
                &[(left, ty), (right, ty)],
                location,
                |this, fb, v, part_ty| this.arithmetic(fb, op, v[0], v[1], part_ty, location),
            );
        }
        let element = ty.element().unwrap_or(Scalar::Int);
        if matches!(op, BinaryOp::Div | BinaryOp::Rem)
            && element.is_integer()
            && element.size() == 8
        {
            return Ok(self.divide64(fb, op == BinaryOp::Rem, left, right, ty));
        }
        if op == BinaryOp::Div && element == Scalar::Float {
            return self.divide_f32(fb, left, right, ty, location);
        }
        if op == BinaryOp::Div && element == Scalar::Half {
            return self.divide_half(fb, left, right, ty, location);
        }
        let naga_op = match op {
            BinaryOp::Add => N::Add,
            BinaryOp::Sub => N::Subtract,
            BinaryOp::Mul => N::Multiply,
            BinaryOp::Div => N::Divide,
            BinaryOp::Rem => N::Modulo,
            BinaryOp::BitAnd => N::And,
            BinaryOp::BitOr => N::InclusiveOr,
            BinaryOp::BitXor => N::ExclusiveOr,
            BinaryOp::Shl => N::ShiftLeft,
            BinaryOp::Shr => N::ShiftRight,
            _ => return Err(self.error(location, "internal error: not an arithmetic operator")),
        };
        let right = if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
            // OpenCL masks the shift count to the C type's width (6.3.j),
            // not the register's: a char in 32 bits shifts by at most 7.
            // naga's shifts need an unsigned count.
            let s = ty.element().unwrap_or(Scalar::Int);
            let unsigned_ty = match ty {
                Type::Vector(_, n) => Type::Vector(s.to_unsigned(), *n),
                _ => Type::Scalar(s.to_unsigned()),
            };
            let count = if s.is_signed() {
                fb.add(naga::Expression::As {
                    expr: right,
                    kind: naga::ScalarKind::Uint,
                    convert: None,
                })
            } else {
                right
            };
            let mask = self.constant(fb, &unsigned_ty, u64::from(s.size()) * 8 - 1, location)?;
            let masked = fb.binary(N::And, count, mask);
            // naga wants a 32-bit count for 64-bit shifts.
            if naga_scalar(s).width == 8 {
                fb.add(naga::Expression::As {
                    expr: masked,
                    kind: naga::ScalarKind::Uint,
                    convert: Some(4),
                })
            } else {
                masked
            }
        } else {
            right
        };
        let result = fb.binary(naga_op, left, right);
        // Results of types narrower than 32 bits live in 32-bit registers and
        // wrap like the C type.
        self.wrap_narrow(fb, result, ty)
    }

    /// `x / y` in `float` within OpenCL's 2.5 ulp over the whole range.
    /// Vulkan bounds division only for divisors up to 2^126, and NVIDIA
    /// divides by multiplying with the reciprocal, which is a flushed
    /// subnormal beyond that: 1e30 / 1.5e38 came out 0. A larger divisor
    /// is scaled by 1/4 together with the dividend, which leaves the
    /// quotient as it is.
    fn divide_f32(
        &mut self,
        fb: &mut FnBuilder,
        x: Handle<naga::Expression>,
        y: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let constants = [
            self.float_constant(fb, ty, math::DIVISOR_LIMIT, location)?,
            self.float_constant(fb, ty, 0.25, location)?,
            self.float_constant(fb, ty, 1.0, location)?,
        ];
        Ok(scaled_divide(fb, x, y, constants))
    }

    /// `-v` or `~v` for a value of `ty`: unsigned negation as `0 - v`
    /// (naga negates signed values only), and `char`/`short` results
    /// wrapped back to their type.
    fn negate_or_invert(
        &mut self,
        fb: &mut FnBuilder,
        op: hir::UnaryOp,
        v: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let unsigned = ty.element().is_some_and(|s| !s.is_signed());
        let r = match op {
            hir::UnaryOp::Negate if unsigned => {
                let zero = self.zero(fb, ty, location)?;
                fb.binary(naga::BinaryOperator::Subtract, zero, v)
            }
            hir::UnaryOp::Negate => fb.unary(naga::UnaryOperator::Negate, v),
            _ => fb.unary(naga::UnaryOperator::BitwiseNot, v),
        };
        self.wrap_narrow(fb, r, ty)
    }

    /// Re-wraps a `char`/`short` value held in 32 bits to its type's range.
    fn wrap_narrow(
        &mut self,
        fb: &mut FnBuilder,
        v: Handle<naga::Expression>,
        ty: &Type,
    ) -> LResult<Handle<naga::Expression>> {
        let Some(s) = ty.element() else { return Ok(v) };
        let bits = s.size() * 8;
        if bits >= 32 || s == Scalar::Bool || s.is_float() {
            return Ok(v);
        }
        if wide::is_wide(ty) {
            return self.per_part(fb, ty, &[(v, ty)], Location::default(), |this, fb, v, t| {
                this.wrap_narrow(fb, v[0], t)
            });
        }
        let shift_ty = match ty {
            Type::Vector(_, n) => Type::Vector(Scalar::UInt, *n),
            _ => Type::UINT,
        };
        let shift = self.constant(fb, &shift_ty, u64::from(32 - bits), Location::default())?;
        let up = fb.binary(naga::BinaryOperator::ShiftLeft, v, shift);
        Ok(fb.binary(naga::BinaryOperator::ShiftRight, up, shift))
    }

    /// C conversion of a register value from `from` to `to`.
    fn convert(
        &mut self,
        fb: &mut FnBuilder,
        v: Handle<naga::Expression>,
        from: &Type,
        to: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        if from == to {
            return Ok(v);
        }
        if wide::is_wide(to) {
            return self.per_part(fb, to, &[(v, from)], location, |this, fb, v, part_to| {
                let part_from = wide::part_type(from);
                this.convert(fb, v[0], &part_from, part_to, location)
            });
        }
        let (Some(fs), Some(ts)) = (from.element(), to.element()) else {
            return Err(self.error(
                location,
                format!(
                    "cannot convert '{}' to '{}'",
                    self.display(from),
                    self.display(to)
                ),
            ));
        };
        if ts == Scalar::Bool {
            let zero = self.zero(fb, from, location)?;
            let eq = fb.binary(naga::BinaryOperator::Equal, v, zero);
            return Ok(fb.unary(naga::UnaryOperator::LogicalNot, eq));
        }
        if fs == Scalar::Bool {
            let one = self.constant(fb, to, 1, location)?;
            let zero = self.constant(fb, to, 0, location)?;
            return Ok(fb.add(naga::Expression::Select {
                condition: v,
                accept: one,
                reject: zero,
            }));
        }
        if fs == Scalar::Double && ts == Scalar::Half {
            return self.double_to_half(fb, v, from, location);
        }
        let (fn_, tn) = (naga_scalar(fs), naga_scalar(ts));
        let converted = if fn_ == tn {
            v
        } else if fn_.width == tn.width && fs.is_integer() && ts.is_integer() {
            fb.add(naga::Expression::As {
                expr: v,
                kind: tn.kind,
                convert: None,
            })
        } else if fs.is_integer() && ts.is_integer() {
            // C extends by the source's signedness: a `uint` becomes a
            // `long` by zero extension. naga's As to another kind and width
            // extends by the target's, so change the width first, within
            // the source's kind, then reinterpret.
            let resized = fb.add(naga::Expression::As {
                expr: v,
                kind: fn_.kind,
                convert: Some(tn.width),
            });
            if fn_.kind == tn.kind {
                resized
            } else {
                fb.add(naga::Expression::As {
                    expr: resized,
                    kind: tn.kind,
                    convert: None,
                })
            }
        } else {
            fb.add(naga::Expression::As {
                expr: v,
                kind: tn.kind,
                convert: Some(tn.width),
            })
        };
        self.wrap_narrow(fb, converted, to)
    }

    fn conditional(
        &mut self,
        fb: &mut FnBuilder,
        e: ExprId,
        c: ExprId,
        a: ExprId,
        b: ExprId,
    ) -> LResult<Value> {
        let e = fb.expr(e);
        if matches!(e.ty, Type::Pointer(_)) {
            return self.conditional_pointer(fb, c, a, b);
        }
        let condition = self.condition(fb, c)?;
        let ty = self.value_type(&e.ty, e.span.location())?;
        let var = fb.function.local_variables.append(
            naga::LocalVariable {
                name: None,
                ty,
                init: None,
            },
            Span::UNDEFINED,
        );
        let mut branches = Vec::new();
        for side in [a, b] {
            fb.blocks.push(naga::Block::new());
            let r = self.plain(fb, side);
            let mut block = fb.blocks.pop().expect("branch");
            let value = r?;
            let pointer = fb
                .function
                .expressions
                .append(naga::Expression::LocalVariable(var), Span::UNDEFINED);
            block.push(naga::Statement::Store { pointer, value }, Span::UNDEFINED);
            branches.push(block);
        }
        let reject = branches.pop().expect("reject");
        let accept = branches.pop().expect("accept");
        fb.push(naga::Statement::If {
            condition,
            accept,
            reject,
        });
        let pointer = fb.add(naga::Expression::LocalVariable(var));
        Ok(Value::Plain(fb.add(naga::Expression::Load { pointer })))
    }

    fn inc_dec(
        &mut self,
        fb: &mut FnBuilder,
        target: ExprId,
        increment: bool,
        prefix: bool,
        location: Location,
    ) -> LResult<Value> {
        let target_ty = fb.expr(target).ty;
        if let Type::Pointer(_) = target_ty {
            let place = self.place(fb, target)?;
            let Value::Pointer(old) = self.load(fb, place, location)? else {
                return Err(self.error(location, "expected a pointer"));
            };
            let step = fb.add(naga::Expression::Literal(naga::Literal::U32(
                if increment { 1 } else { u32::MAX },
            )));
            let index = fb.binary(naga::BinaryOperator::Add, old.index, step);
            let new = old.at(index);
            let place = self.place(fb, target)?;
            self.store(fb, place, Value::Pointer(new), location, None)?;
            return Ok(Value::Pointer(if prefix { new } else { old }));
        }
        let old = self.plain(fb, target)?;
        let op_ty = match target_ty {
            Type::Scalar(s) if s.is_integer() => Type::Scalar(crate::builtins::promote(s)),
            t => t,
        };
        let widened = self.convert(fb, old, &target_ty, &op_ty, location)?;
        let one = if op_ty.element().is_some_and(Scalar::is_float) {
            let lit = fb.add(naga::Expression::Literal(float_literal(
                op_ty.element().unwrap_or(Scalar::Float),
                1.0,
            )));
            self.splat_to(fb, lit, &op_ty, location)?
        } else {
            self.constant(fb, &op_ty, 1, location)?
        };
        let op = if increment {
            BinaryOp::Add
        } else {
            BinaryOp::Sub
        };
        let combined = self.arithmetic(fb, op, widened, one, &op_ty, location)?;
        let new = self.convert(fb, combined, &op_ty, &target_ty, location)?;
        let place = self.place(fb, target)?;
        self.store(fb, place, Value::Plain(new), location, None)?;
        Ok(Value::Plain(if prefix { new } else { old }))
    }

    fn call(
        &mut self,
        fb: &mut FnBuilder,
        id: FunctionId,
        args: &[ExprId],
        ret: &Type,
        location: Location,
    ) -> LResult<Value> {
        let mut values = Vec::new();
        for &a in args {
            match self.expr(fb, a)? {
                Value::Void => {
                    let at = fb.expr(a).span;
                    return Err(self.error(at, "void value used as an argument"));
                }
                v => values.push(v),
            }
        }
        self.call_values(fb, id, values, ret, location)
    }

    /// Calls helper `id` with evaluated arguments. A pointer chosen at run
    /// time picks, by a switch, the call of the helper specialised for
    /// each of its roots.
    fn call_values(
        &mut self,
        fb: &mut FnBuilder,
        id: FunctionId,
        values: Vec<Value>,
        ret: &Type,
        location: Location,
    ) -> LResult<Value> {
        let chosen = values.iter().enumerate().find_map(|(i, v)| match v {
            Value::Pointer(PointerValue {
                target: Target::Chosen(choice),
                ..
            }) => Some((i, *choice)),
            _ => None,
        });
        if let Some((position, choice)) = chosen {
            if matches!(ret, Type::Pointer(_)) {
                return Err(self.error(
                    location,
                    "a function returning a pointer, given a pointer chosen at run time, is not supported yet by this translator",
                ));
            }
            let result_ty = (*ret != Type::Void).then_some(ret);
            return self.for_each_root(fb, choice, result_ty, location, |this, fb, root| {
                let values = values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| match v {
                        Value::Pointer(p) if i == position => {
                            Value::Pointer(PointerValue::fixed(root, p.index))
                        }
                        Value::Pointer(p) => Value::Pointer(*p),
                        Value::Plain(h) => Value::Plain(*h),
                        Value::Void => Value::Void,
                    })
                    .collect();
                this.call_values(fb, id, values, ret, location)
            });
        }
        let mut roots = Vec::new();
        let mut arguments = Vec::new();
        let mut private_args = Vec::new();
        for v in values {
            match v {
                Value::Plain(h) => {
                    roots.push(None);
                    arguments.push(h);
                }
                Value::Pointer(PointerValue {
                    target: Target::Fixed(root),
                    index,
                }) => {
                    // Private memory travels as a pointer argument before
                    // the index.
                    let root =
                        match self.private_argument(fb, root, arguments.len() as u32, location)? {
                            Some((callee_root, pointer)) => {
                                // A byte image stays one in the helper.
                                if let Some(elem) = self.image_root_elem(fb.hir, root) {
                                    self.note_image_root(Some(id), callee_root, &elem);
                                }
                                private_args.push((arguments.len() as u32, root));
                                arguments.push(pointer);
                                callee_root
                            }
                            None => root,
                        };
                    roots.push(Some(root));
                    arguments.push(index);
                }
                _ => return Err(self.error(location, "void value used as an argument")),
            }
        }
        let function = self.helper(id, roots, location)?;
        let result = if *ret == Type::Void {
            None
        } else {
            Some(
                fb.function
                    .expressions
                    .append(naga::Expression::CallResult(function), Span::UNDEFINED),
            )
        };
        fb.push(naga::Statement::Call {
            function,
            arguments,
            result,
        });
        Ok(match result {
            Some(h) if matches!(ret, Type::Pointer(_)) => {
                Value::Pointer(self.returned_pointer(fb, function, h, &private_args))
            }
            Some(h) => Value::Plain(h),
            None => Value::Void,
        })
    }
}

/// The `char`/`short`/`half` at bit `bit` of a u32 `word`, as its
/// register value (sign-extended for signed integer types).
fn extract_narrow(
    fb: &mut Emitter,
    word: Handle<naga::Expression>,
    bit: Handle<naga::Expression>,
    scalar: Scalar,
) -> Handle<naga::Expression> {
    let shifted = fb.binary(naga::BinaryOperator::ShiftRight, word, bit);
    let mask = fb.add(naga::Expression::Literal(naga::Literal::U32(
        (1u32 << (scalar.size() * 8)) - 1,
    )));
    let value = fb.binary(naga::BinaryOperator::And, shifted, mask);
    if scalar == Scalar::Half {
        return fp16::bits_to_half(fb, value);
    }
    if !scalar.is_signed() {
        return value;
    }
    let as_int = fb.add(naga::Expression::As {
        expr: value,
        kind: naga::ScalarKind::Sint,
        convert: None,
    });
    let up = fb.add(naga::Expression::Literal(naga::Literal::U32(
        32 - scalar.size() * 8,
    )));
    let high = fb.binary(naga::BinaryOperator::ShiftLeft, as_int, up);
    fb.binary(naga::BinaryOperator::ShiftRight, high, up)
}

/// A `convert_*` that is the C conversion: no saturation, and the
/// rounding the hardware conversion uses (to zero into integers, to
/// nearest even into floating point, none needed between integers).
/// `x / y` with a divisor beyond `limit` scaled by `quarter` together with
/// `x` (else by `one`); the constants are splatted to the operands' shape.
/// See [`ModuleBuilder::divide_f32`].
fn scaled_divide(
    fb: &mut Emitter,
    x: Handle<naga::Expression>,
    y: Handle<naga::Expression>,
    [limit, quarter, one]: [Handle<naga::Expression>; 3],
) -> Handle<naga::Expression> {
    let magnitude = fb.math(naga::MathFunction::Abs, y, None);
    let big = fb.binary(naga::BinaryOperator::Greater, magnitude, limit);
    let scale = fb.select(big, quarter, one);
    let x = fb.binary(naga::BinaryOperator::Multiply, x, scale);
    let y = fb.binary(naga::BinaryOperator::Multiply, y, scale);
    fb.binary(naga::BinaryOperator::Divide, x, y)
}

fn is_plain_conversion(c: &crate::builtins::Conversion, from: &Type) -> bool {
    use crate::builtins::Rounding;
    let from_float = from.element().is_some_and(|s| s.is_float());
    let to_float = c.to.is_float();
    !c.saturate
        && match c.rounding {
            Rounding::Default => true,
            Rounding::Rtz => from_float && !to_float,
            Rounding::Rte => to_float || !from_float,
            Rounding::Rtp | Rounding::Rtn => !from_float && !to_float,
        }
        || (to_float && !convert::converts_to_float_directed(c, from) && !c.saturate)
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

enum ArgSource {
    Buffer(Handle<naga::GlobalVariable>),
    PushConstant(u32),
    /// A `char`/`short` scalar or vector argument: each lane `bit` bits
    /// into push-constant member `word` (a u32), as `(word, bit)`.
    NarrowPushConstant {
        lanes: Vec<(u32, u32)>,
        scalar: Scalar,
    },
}

impl<'a> FnBuilder<'a> {
    fn new(program: &'a hir::Program, hir: FunctionId) -> Self {
        FnBuilder {
            emit: Emitter::default(),
            source: &program.functions[hir],
            slots: HashMap::new(),
            param_roots: HashMap::new(),
            return_roots: Vec::new(),
            hir,
        }
    }

    /// A HIR expression of the function being lowered.
    fn expr(&self, e: ExprId) -> &'a hir::Expr {
        &self.source.exprs[e]
    }

    fn stmt(&self, s: StmtId) -> &'a hir::Stmt {
        &self.source.stmts[s]
    }

    fn local(&self, l: LocalId) -> &'a hir::Local {
        &self.source.locals[l]
    }

    /// The C type of an operand that is not a made-up pointer (those are
    /// asked for their [`Self::pointee`]).
    fn ty(&self, operand: Operand) -> Type {
        match operand {
            Operand::Expr(e) => self.expr(e).ty,
            Operand::Value(_, ty) | Operand::Int(_, ty) => ty,
            Operand::Pointer(..) => Type::Error,
        }
    }

    /// What a pointer operand points to.
    fn pointee(&self, operand: Operand, types: &crate::types::Types) -> Option<Pointee> {
        match operand {
            Operand::Pointer(_, pointee) => Some(pointee),
            op => types.pointee(self.ty(op)).copied(),
        }
    }

    /// The bits of an operand that is an integer constant.
    fn int_constant(&self, operand: Operand) -> Option<u64> {
        match operand {
            Operand::Int(bits, _) => Some(bits),
            Operand::Expr(e) => match self.expr(e).kind {
                H::Int(bits) => Some(bits),
                _ => None,
            },
            _ => None,
        }
    }

    /// The HIR expression an operand is, if it is one.
    fn hir(&self, operand: Operand) -> Option<&'a hir::Expr> {
        match operand {
            Operand::Expr(e) => Some(self.expr(e)),
            _ => None,
        }
    }

    fn finish(self) -> naga::Function {
        self.emit.finish()
    }
}

impl std::ops::Deref for FnBuilder<'_> {
    type Target = Emitter;
    fn deref(&self) -> &Emitter {
        &self.emit
    }
}

impl std::ops::DerefMut for FnBuilder<'_> {
    fn deref_mut(&mut self) -> &mut Emitter {
        &mut self.emit
    }
}
