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
mod shuffle;
mod statements;
mod switch;
mod views;
mod wide;
mod word_locals;
mod workitem;

use crate::ast::{AddressSpace, BinaryOp};
use crate::builtins::Builtin;
use crate::caps::DeviceCaps;
use crate::diagnostic::{Diagnostics, Location};
use crate::hir::{self, Expr, ExprKind as H, FunctionId, LocalId, Stmt};
use crate::options::BuildOptions;
use crate::reflect::{ArgKind, KernelArg, KernelReflection, PrintfReflection, PushConstantHeader};
use crate::spirv::{Kernel, LoweredKernel};
use crate::types::{Scalar, Type};
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
    let block = program_globals::GlobalsBlock::layout(program, caps.address_bits);
    let initial = {
        let mut builder = ModuleBuilder::new(program, options, caps, diags, &block);
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
    let kernel_count = program
        .functions
        .iter()
        .filter(|f| f.kernel.is_some())
        .count();
    let mut locations = Vec::new();
    let finished = crate::spirv::finish_kernels(kernel_count, |finish| {
        for (id, f) in program.functions.iter().enumerate() {
            let Some(info) = &f.kernel else { continue };
            // `__local` objects to hold as words, found by earlier attempts
            // (see `float_words.rs`); each attempt adds one at least.
            let mut word_objects = HashSet::new();
            let (builder, built) = loop {
                let mark = diags.len();
                let mut builder = ModuleBuilder::new(program, options, caps, diags, &block);
                builder.word_objects = word_objects.clone();
                let built = builder.kernel(id, info);
                let wanted = std::mem::take(&mut builder.wanted_word_objects);
                // An attempt that found such objects stopped there, even if
                // some caller made do without what failed.
                if !wanted.is_empty() {
                    drop(builder);
                    diags.truncate(mark);
                    word_objects.extend(wanted);
                    continue;
                }
                break (builder, built);
            };
            let Some((mut reflection, module)) = built else {
                continue;
            };
            reflection.non_uniform_work_groups = options.effective_cl_std()
                >= crate::options::ClStd::Cl2_0
                && !options.uniform_work_group_size;
            let vars = builder.builtins.as_ref().expect("kernel builtins");
            let sizes = crate::spirv::SizeConstants {
                local: vars.local_size,
                enqueued: vars.enqueued_size,
            };
            // Finite math lets the driver assume no NaN or infinity.
            let ieee = !(options.finite_math_only || options.fast_relaxed_math);
            finish(LoweredKernel {
                reflection,
                module,
                sizes,
                local_args: builder.local_args,
                group_scratch: builder.group_scratch.into_values().collect(),
                preserve_inf_nan: [
                    ieee && caps.preserve_inf_nan[0],
                    ieee && caps.preserve_inf_nan[1] && caps.float64,
                    ieee && caps.preserve_inf_nan[2] && caps.float16,
                ],
                half_rounds_to_nearest: caps.float16 && caps.half_rte,
            });
            locations.push(f.location);
        }
    });
    for (finished, location) in finished.into_iter().zip(locations) {
        match finished {
            Ok(kernel) => lowered.kernels.push(kernel),
            Err(e) => diags.error(location, e.0),
        }
    }
    lowered
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

enum Value {
    Plain(Handle<naga::Expression>),
    Pointer(PointerValue),
    /// `void` expressions (calls of void functions, casts to void).
    Void,
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
    /// their address to a narrower pointee (see `word_locals.rs`).
    word_locals: std::collections::HashSet<Handle<naga::GlobalVariable>>,
    /// The roots (in the callee's terms) of the pointers helpers return.
    returned_roots: HashMap<Handle<naga::Function>, Vec<Root>>,
    /// The workgroup globals of `__local` variables declared in kernels.
    workgroup_locals: HashMap<(FunctionId, LocalId), Handle<naga::GlobalVariable>>,
    /// `__local` `float`/`double` objects held as integer words for the
    /// atomics on them (see `float_words.rs`), as earlier attempts found.
    word_objects: HashSet<float_words::WorkgroupObject>,
    /// The workgroup globals holding them, with their C `float`/`double`.
    float_words: HashMap<Handle<naga::GlobalVariable>, Scalar>,
    /// Objects this attempt found atomics on that it does not hold as
    /// words: the kernel is lowered again.
    wanted_word_objects: Vec<float_words::WorkgroupObject>,
}

impl<'a> ModuleBuilder<'a> {
    fn new(
        program: &'a hir::Program,
        options: &BuildOptions,
        caps: &'a DeviceCaps,
        diags: &'a mut Diagnostics,
        globals_block: &'a program_globals::GlobalsBlock,
    ) -> Self {
        ModuleBuilder {
            program,
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
            word_locals: Default::default(),
            word_objects: HashSet::new(),
            float_words: HashMap::new(),
            wanted_word_objects: Vec::new(),
        }
    }
}

/// The state of one naga function under construction.
struct FnBuilder {
    function: naga::Function,
    /// Open blocks, innermost last.
    blocks: Vec<naga::Block>,
    slots: HashMap<LocalId, Slot>,
    /// For each HIR local declared as a pointer parameter of a helper: the
    /// root it was specialised with.
    param_roots: HashMap<LocalId, Root>,
    /// Pointer variables known (from an earlier attempt) to be given
    /// different roots, with the set of their roots.
    chosen_vars: HashMap<LocalId, usize>,
    /// Pointer variables found given a root outside what they were made
    /// for, with every root seen: the function is lowered again.
    conflicts: HashMap<LocalId, Vec<Root>>,
    /// The roots a returned pointer may have, known from earlier attempts.
    return_roots: Vec<Root>,
    /// Roots of returned pointers not in `return_roots`: the function is
    /// lowered again.
    missing_returns: Vec<Root>,
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
    fn error(&mut self, location: Location, message: impl Into<String>) -> Failed {
        self.diags.error(location, message);
        Failed
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
            Type::Record(r) => return self.record_type(r, location),
            // Events of the work-group copies, which complete at once.
            Type::Unsupported(name) if &**name == "event_t" => {
                naga::TypeInner::Scalar(naga::Scalar::U32)
            }
            t => {
                return Err(self.error(
                    location,
                    format!(
                        "values of type '{}' are not supported yet by this translator",
                        t.display()
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
        r: &crate::types::Record,
        location: Location,
    ) -> LResult<Handle<naga::Type>> {
        let r = self
            .program
            .records
            .get(r.id as usize)
            .cloned()
            .unwrap_or_else(|| std::rc::Rc::new(r.clone()));
        if r.kind == crate::ast::RecordKind::Union {
            return Err(self.error(
                location,
                "internal compiler error: a union must be held as a byte image",
            ));
        }
        let mut members = Vec::with_capacity(r.fields.len());
        for field in &r.fields {
            let ty = self.memory_type(&field.ty, location)?;
            members.push(naga::StructMember {
                name: (!field.name.is_empty()).then(|| field.name.to_string()),
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
                    ty.display()
                ),
            )),
            Type::Array(elem, n) => {
                let base = self.memory_type(elem, location)?;
                let stride = elem.size(self.caps.address_bits).unwrap_or(4) as u32;
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
            _ => ty
                .size(self.caps.address_bits)
                .map(|s| s as u32)
                .ok_or_else(|| {
                    self.error(location, format!("type '{}' has no size", ty.display()))
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
                    ty.display()
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

    fn plain(&mut self, fb: &mut FnBuilder, e: &Expr) -> LResult<Handle<naga::Expression>> {
        match self.expr(fb, e)? {
            Value::Plain(h) => Ok(h),
            _ => Err(self.error(
                e.location,
                format!("expected a value of type '{}'", e.ty.display()),
            )),
        }
    }

    /// A scalar condition as a naga `bool`.
    fn condition(&mut self, fb: &mut FnBuilder, e: &Expr) -> LResult<Handle<naga::Expression>> {
        match &e.kind {
            H::Binary(op, a, b)
                if op.is_comparison()
                    && matches!(e.ty, Type::Scalar(_))
                    && !matches!(a.ty, Type::Pointer(_))
                    && !matches!(b.ty, Type::Pointer(_)) =>
            {
                return self.comparison(fb, *op, a, b);
            }
            H::Logical(op, a, b) => return self.logical(fb, *op, a, b),
            H::Unary(hir::UnaryOp::LogicalNot, x) if matches!(x.ty, Type::Scalar(_)) => {
                let c = self.condition(fb, x)?;
                return Ok(fb.unary(naga::UnaryOperator::LogicalNot, c));
            }
            _ => {}
        }
        if let Type::Pointer(_) = e.ty {
            // Null is object 0; every other root names a nonzero one.
            let (object, _) = self.address_operand(fb, e)?;
            let null = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
            return Ok(fb.binary(naga::BinaryOperator::NotEqual, object, null));
        }
        let v = self.plain(fb, e)?;
        let s = e.ty.scalar().unwrap_or(Scalar::Int);
        if s == Scalar::Bool {
            return Ok(v);
        }
        let zero = self.zero(fb, &e.ty, e.location)?;
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
        a: &Expr,
        b: &Expr,
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
        a: &Expr,
        b: &Expr,
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

    fn expr(&mut self, fb: &mut FnBuilder, e: &Expr) -> LResult<Value> {
        let location = e.location;
        if matches!(e.ty, Type::Pointer(_)) && chosen::is_null_constant(e) {
            let zero = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
            return Ok(Value::Pointer(PointerValue::fixed(Root::Null, zero)));
        }
        let h = match &e.kind {
            H::Int(bits) => self.constant(fb, &e.ty, *bits, location)?,
            H::Float(v) => self.float_constant(fb, &e.ty, *v, location)?,
            H::Local(_) | H::Global(_) | H::Index(..) | H::Deref(_) | H::Member(..) => {
                let place = self.place(fb, e)?;
                return self.load(fb, place, location);
            }
            H::Swizzle(base, lanes) => {
                let v = self.plain(fb, base)?;
                self.swizzle(fb, v, &base.ty, lanes, location)?
            }
            H::Convert(x) if matches!(x.ty, Type::Pointer(_)) => {
                self.pointer_to_integer(fb, x, &e.ty, location)?
            }
            H::Convert(x) if matches!(e.ty, Type::Pointer(_)) => {
                return Ok(Value::Pointer(
                    self.integer_to_pointer(fb, x, &e.ty, location)?,
                ))
            }
            H::Convert(x) => {
                let v = self.plain(fb, x)?;
                self.convert(fb, v, &x.ty, &e.ty, location)?
            }
            H::Splat(x) => {
                let v = self.plain(fb, x)?;
                self.splat_to(fb, v, &e.ty, location)?
            }
            H::Unary(op, x) if wide::is_wide(&x.ty) => {
                let v = self.plain(fb, x)?;
                self.per_part(
                    fb,
                    &e.ty,
                    &[(v, &x.ty)],
                    location,
                    |this, fb, v, part_ty| {
                        Ok(match op {
                            hir::UnaryOp::Negate | hir::UnaryOp::BitNot => {
                                this.negate_or_invert(fb, *op, v[0], part_ty, location)?
                            }
                            hir::UnaryOp::LogicalNot => {
                                let zero = fb.add(naga::Expression::ZeroValue(
                                    this.value_type(&wide::part_type(&x.ty), location)?,
                                ));
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
                    self.negate_or_invert(fb, *op, v, &e.ty, location)?
                }
                hir::UnaryOp::LogicalNot => {
                    let b = if matches!(x.ty, Type::Vector(..)) {
                        let v = self.plain(fb, x)?;
                        let zero = self.zero(fb, &x.ty, location)?;
                        fb.binary(naga::BinaryOperator::Equal, v, zero)
                    } else {
                        let c = self.condition(fb, x)?;
                        fb.unary(naga::UnaryOperator::LogicalNot, c)
                    };
                    self.bool_to_int(fb, b, &e.ty, location)?
                }
            },
            H::Binary(op, a, b) if op.is_comparison() && wide::is_wide(&a.ty) => {
                let left = self.plain(fb, a)?;
                let right = self.plain(fb, b)?;
                let operands = [(left, &a.ty), (right, &b.ty)];
                self.per_part(fb, &e.ty, &operands, location, |this, fb, v, part_ty| {
                    let c = this.compare(fb, *op, v[0], v[1]);
                    this.bool_to_int(fb, c, part_ty, location)
                })?
            }
            H::Binary(op, a, b)
                if matches!(a.ty, Type::Pointer(_)) || matches!(b.ty, Type::Pointer(_)) =>
            {
                self.pointer_binary(fb, *op, a, b, &e.ty, location)?
            }
            H::Binary(op, a, b) => {
                if op.is_comparison() {
                    let c = self.comparison(fb, *op, a, b)?;
                    self.bool_to_int(fb, c, &e.ty, location)?
                } else if let Some(fused) = self.contracted(fb, *op, a, b, &e.ty, location)? {
                    fused
                } else {
                    let left = self.plain(fb, a)?;
                    let right = self.plain(fb, b)?;
                    self.arithmetic(fb, *op, left, right, &e.ty, location)?
                }
            }
            H::Logical(op, a, b) if matches!(e.ty, Type::Vector(..)) => {
                let left = self.plain(fb, a)?;
                let right = self.plain(fb, b)?;
                let combine = if *op == BinaryOp::LogicalAnd {
                    naga::BinaryOperator::And
                } else {
                    naga::BinaryOperator::InclusiveOr
                };
                let operands = [(left, &a.ty), (right, &b.ty)];
                self.per_part(fb, &e.ty, &operands, location, |this, fb, v, part_ty| {
                    let zero_ty = this.value_type(&wide::part_type(&a.ty), location)?;
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
                let c = self.logical(fb, *op, a, b)?;
                self.bool_to_int(fb, c, &e.ty, location)?
            }
            H::Conditional(c, a, b) => return self.conditional(fb, e, c, a, b),
            H::Assign(target, value) => {
                let v = self.expr(fb, value)?;
                let result = match v {
                    Value::Plain(h) => Value::Plain(h),
                    Value::Pointer(p) => Value::Pointer(p),
                    Value::Void => return Err(self.error(location, "assigning a void value")),
                };
                let place = self.place(fb, target)?;
                let copy = match &result {
                    Value::Plain(h) => Value::Plain(*h),
                    Value::Pointer(p) => Value::Pointer(*p),
                    Value::Void => Value::Void,
                };
                self.store(fb, place, copy, location, None)?;
                return Ok(result);
            }
            H::CompoundAssign {
                op,
                target,
                value,
                op_ty,
            } => {
                let current = self.plain(fb, target)?;
                let current = self.convert(fb, current, &target.ty, op_ty, location)?;
                let combined =
                    match self.contracted_update(fb, *op, current, value, op_ty, location)? {
                        Some(fused) => fused,
                        None => {
                            let v = self.plain(fb, value)?;
                            self.arithmetic(fb, *op, current, v, op_ty, location)?
                        }
                    };
                let result = self.convert(fb, combined, op_ty, &target.ty, location)?;
                let place = self.place(fb, target)?;
                self.store(fb, place, Value::Plain(result), location, None)?;
                result
            }
            H::IncDec {
                target,
                increment,
                prefix,
            } => return self.inc_dec(fb, target, *increment, *prefix, location),
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
            H::Call(id, args) => return self.call(fb, *id, args, &e.ty, location),
            H::Builtin(Builtin::Atomic { op, .. }, args) => {
                return self.atomic(fb, *op, args, &e.ty, location)
            }
            H::Builtin(Builtin::C11Atomic { op, explicit }, args) => {
                return self.c11_atomic(fb, *op, *explicit, args, &e.ty, location)
            }
            H::Builtin(Builtin::Vload(n), args) => {
                return self.vload(fb, *n, args, &e.ty, location)
            }
            H::Builtin(Builtin::VloadHalf(n), args) => {
                return self.vload_half(fb, *n, *n, args, &e.ty, location)
            }
            // vloada_half3 reads from p + offset * 4 (OpenCL C 6.15.10).
            H::Builtin(Builtin::VloadaHalf(n), args) => {
                let stride = if *n == 3 { 4 } else { *n };
                return self.vload_half(fb, *n, stride, args, &e.ty, location);
            }
            H::Builtin(
                Builtin::VstoreHalf(n, rounding) | Builtin::VstoreaHalf(n, rounding),
                args,
            ) => {
                let stride = match e.kind {
                    H::Builtin(Builtin::VstoreaHalf(3, _), _) => 4,
                    _ => *n,
                };
                self.vstore_half(fb, *n, stride, *rounding, args, location)?;
                return Ok(Value::Void);
            }
            H::Builtin(Builtin::Vstore(n), args) => {
                self.vstore(fb, *n, args, location)?;
                return Ok(Value::Void);
            }
            H::Builtin(b, args) if is_barrier(*b) => {
                self.barrier(fb, *b, args);
                return Ok(Value::Void);
            }
            H::Builtin(
                b @ (Builtin::AsyncWorkGroupCopy | Builtin::AsyncWorkGroupStridedCopy),
                args,
            ) => return self.async_copy(fb, *b, args, location),
            H::Builtin(b, args) if collectives::is_collective(*b) => {
                return self.collective(fb, *b, args, &e.ty, location)
            }
            H::Builtin(Builtin::WaitGroupEvents, _) => {
                self.wait_group_events(fb);
                return Ok(Value::Void);
            }
            H::Builtin(Builtin::Prefetch, _) => return Ok(Value::Void),
            H::Builtin(Builtin::As(s, n), args) => {
                let v = self.plain(fb, &args[0])?;
                let to = if *n == 1 {
                    Type::Scalar(*s)
                } else {
                    Type::Vector(*s, *n)
                };
                self.reinterpret_bits(fb, v, &args[0].ty, &to, location)?
            }
            H::Builtin(Builtin::Shuffle | Builtin::Shuffle2, args) => {
                self.shuffle(fb, args, &e.ty, location)?
            }
            H::Builtin(b, args) if wide::splits_builtin(*b, args, &e.ty) => {
                return self.wide_builtin(fb, *b, args, &e.ty, location)
            }
            H::Builtin(Builtin::Convert(c), args) if is_plain_conversion(c, &args[0].ty) => {
                let v = self.plain(fb, &args[0])?;
                self.convert(fb, v, &args[0].ty, &e.ty, location)?
            }
            H::Builtin(Builtin::Convert(c), args)
                if convert::converts_to_integer(c, &args[0].ty) =>
            {
                self.convert_integer(fb, c, &args[0], &e.ty, location)?
            }
            H::Builtin(Builtin::Convert(c), args)
                if convert::converts_to_float_directed(c, &args[0].ty) =>
            {
                self.convert_floating(fb, c, &args[0], &e.ty, location)?
            }
            H::Builtin(b, args) => self.builtin(fb, *b, args, &e.ty, location)?,
            H::Comma(a, b) => {
                self.expr(fb, a)?;
                return self.expr(fb, b);
            }
            H::PointerCast(inner) => {
                let p = self.pointer(fb, inner)?;
                let (Some(from), Some(to)) = (inner.ty.pointee(), e.ty.pointee()) else {
                    return Err(self.error(location, "pointer cast of a non-pointer"));
                };
                let (from, to) = (from.ty.clone(), to.ty.clone());
                return Ok(Value::Pointer(
                    self.cast_pointer(fb, p, &from, &to, location)?,
                ));
            }
            H::Printf(args) => return Ok(Value::Plain(self.printf(fb, args, location)?)),
            H::Str(_) => {
                return Err(self.error(
                    location,
                    "string literals are not supported yet by this translator",
                ))
            }
            H::InitList(items) => {
                self.init_list(&mut init::Arena::Function(fb), &e.ty, items, location)?
            }
            H::VectorLiteral(parts) => {
                let mut lanes = Vec::new();
                for p in parts {
                    let v = self.plain(fb, p)?;
                    lanes.extend(Self::lanes_of(v, &p.ty));
                }
                let s = e.ty.element().unwrap_or(Scalar::Float);
                self.gather(fb, s, &lanes, location)?
            }
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
    fn contracted<'e>(
        &mut self,
        fb: &mut FnBuilder,
        op: BinaryOp,
        a: &'e Expr,
        b: &'e Expr,
        ty: &Type,
        location: Location,
    ) -> LResult<Option<Handle<naga::Expression>>> {
        let float = matches!(ty.element(), Some(Scalar::Float | Scalar::Double));
        if !float || !matches!(op, BinaryOp::Add | BinaryOp::Sub) {
            return Ok(None);
        }
        let product = |e: &'e Expr| match &e.kind {
            H::Binary(BinaryOp::Mul, x, y) if e.ty == *ty => Some((&**x, &**y)),
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
        value: &Expr,
        ty: &Type,
        location: Location,
    ) -> LResult<Option<Handle<naga::Expression>>> {
        let float = matches!(ty.element(), Some(Scalar::Float | Scalar::Double));
        let (true, BinaryOp::Add | BinaryOp::Sub, H::Binary(BinaryOp::Mul, x, y)) =
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
                format!("cannot convert '{}' to '{}'", from.display(), to.display()),
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
        e: &Expr,
        c: &Expr,
        a: &Expr,
        b: &Expr,
    ) -> LResult<Value> {
        if matches!(e.ty, Type::Pointer(_)) {
            return self.conditional_pointer(fb, c, a, b);
        }
        let condition = self.condition(fb, c)?;
        let ty = self.value_type(&e.ty, e.location)?;
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
        target: &Expr,
        increment: bool,
        prefix: bool,
        location: Location,
    ) -> LResult<Value> {
        if let Type::Pointer(_) = target.ty {
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
        let op_ty = match &target.ty {
            Type::Scalar(s) if s.is_integer() => Type::Scalar(crate::builtins::promote(*s)),
            t => t.clone(),
        };
        let widened = self.convert(fb, old, &target.ty, &op_ty, location)?;
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
        let new = self.convert(fb, combined, &op_ty, &target.ty, location)?;
        let place = self.place(fb, target)?;
        self.store(fb, place, Value::Plain(new), location, None)?;
        Ok(Value::Plain(if prefix { new } else { old }))
    }

    fn call(
        &mut self,
        fb: &mut FnBuilder,
        id: FunctionId,
        args: &[Expr],
        ret: &Type,
        location: Location,
    ) -> LResult<Value> {
        let mut values = Vec::new();
        for a in args {
            match self.expr(fb, a)? {
                Value::Void => return Err(self.error(a.location, "void value used as an argument")),
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
    fb: &mut FnBuilder,
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
    fb: &mut FnBuilder,
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

impl FnBuilder {
    fn new(hir: FunctionId) -> Self {
        FnBuilder {
            function: naga::Function::default(),
            blocks: vec![naga::Block::new()],
            slots: HashMap::new(),
            param_roots: HashMap::new(),
            chosen_vars: HashMap::new(),
            conflicts: HashMap::new(),
            return_roots: Vec::new(),
            missing_returns: Vec::new(),
            hir,
        }
    }

    /// Appends an expression; those that need it are emitted at once in the
    /// current block, so evaluation order follows the source.
    fn add(&mut self, e: naga::Expression) -> Handle<naga::Expression> {
        let needs_emit = !e.needs_pre_emit() && !matches!(e, naga::Expression::CallResult(_));
        let start = self.function.expressions.len();
        let h = self.function.expressions.append(e, Span::UNDEFINED);
        if needs_emit {
            let block = self.blocks.last_mut().expect("open block");
            // Extend the block's last `Emit` when it ends right here, so a
            // run of expressions costs one statement, not one each.
            if let Some(naga::Statement::Emit(range)) = block.last_mut() {
                if let Some((first, last)) = range.first_and_last() {
                    if last.index() + 1 == h.index() {
                        *range = naga::Range::new_from_bounds(first, h);
                        return h;
                    }
                }
            }
            let range = self.function.expressions.range_from(start);
            self.push(naga::Statement::Emit(range));
        }
        h
    }

    fn binary(
        &mut self,
        op: naga::BinaryOperator,
        left: Handle<naga::Expression>,
        right: Handle<naga::Expression>,
    ) -> Handle<naga::Expression> {
        self.add(naga::Expression::Binary { op, left, right })
    }

    fn select(
        &mut self,
        condition: Handle<naga::Expression>,
        accept: Handle<naga::Expression>,
        reject: Handle<naga::Expression>,
    ) -> Handle<naga::Expression> {
        self.add(naga::Expression::Select {
            condition,
            accept,
            reject,
        })
    }

    /// A one- or two-argument math function.
    fn math(
        &mut self,
        fun: naga::MathFunction,
        arg: Handle<naga::Expression>,
        arg1: Option<Handle<naga::Expression>>,
    ) -> Handle<naga::Expression> {
        self.add(naga::Expression::Math {
            fun,
            arg,
            arg1,
            arg2: None,
            arg3: None,
        })
    }

    fn unary(
        &mut self,
        op: naga::UnaryOperator,
        expr: Handle<naga::Expression>,
    ) -> Handle<naga::Expression> {
        self.add(naga::Expression::Unary { op, expr })
    }

    fn push(&mut self, s: naga::Statement) {
        self.blocks
            .last_mut()
            .expect("open block")
            .push(s, Span::UNDEFINED);
    }

    fn finish(mut self) -> naga::Function {
        self.function.body = self.blocks.pop().expect("function body");
        self.function
    }
}
