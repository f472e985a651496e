//! The OpenCL C 3.0 built-in function library (OpenCL C 6.15) as the checker
//! sees it: the name of every built-in, its overloads as rows of a
//! declarative table (parameter shapes, result shape, element types, vector
//! widths, the OpenCL C version that introduced it), overload resolution
//! against that table, and the integer/enum constants kernels pass to these
//! built-ins ([`PREDEFINED_CONSTANTS`]).
//!
//! What a built-in *does* is the lowering's business; this module only says
//! which overload a call means, what each argument must be converted to and
//! what the call returns, so the checker can make every conversion explicit.
//!
//! Covered: work-item functions, math (with `half_` and `native_`), integer,
//! common, geometric and relational functions, `shuffle`/`shuffle2`, vector
//! data loads and stores, barriers and fences, the address space qualifier
//! functions (`to_global`, `to_local`, `to_private`, `get_fence`), async
//! copies and prefetch, the OpenCL 1.x atomics (`atom_*` from the
//! `cl_khr_*_atomics` extensions and the 1.1 `atomic_*`), the OpenCL 2.0
//! atomics on the atomic types (which the checker maps to plain scalars:
//! `atomic_int` is `int`, `atomic_flag` is `int`, ...), the work-group
//! collectives, and the conversion operators
//! `convert_<type>[_sat][_<rounding>]` and `as_<type>` (OpenCL C 6.4),
//! which are parsed from the name instead of being listed.
//!
//! Not covered, with a "not supported yet" error rather than "undeclared"
//! (see [`NOT_SUPPORTED`]): image and sampler functions (there are no image
//! types yet), sub-group functions, pipes and device-side enqueue. `printf`
//! (variadic) is the checker's own business.

use crate::ast::AddressSpace;
use crate::hir::Names;
use crate::types::{storage_lanes, Opaque, Pointee, Scalar, Type, Types, VECTOR_WIDTHS};
use std::fmt;

/// What overload resolution needs to know about the program and the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuiltinContext {
    /// `size_t` on the device.
    pub size_type: Scalar,
    /// `double` overloads exist (`cl_khr_fp64` / `__opencl_c_fp64`).
    pub float64: bool,
    /// `half` overloads exist (`cl_khr_fp16`). `vload_half` and
    /// `vstore_half`, which only read and write `half` in memory, exist
    /// without it.
    pub float16: bool,
    /// The OpenCL C version the program is built as, e.g. `(1, 2)`.
    pub cl_std: (u32, u32),
}

macro_rules! builtins {
    ($($variant:ident = $name:literal,)*) => {
        /// Which built-in a call resolved to: one variant per function name
        /// family. Overloads that differ only in types share a variant (the
        /// checked call's types tell them apart); names that carry data
        /// (widths, rounding modes, target types) carry it here.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Builtin {
            $($variant,)*
            /// The OpenCL 1.x atomics: `atom_<op>` (`legacy`, from the
            /// `cl_khr_*_atomics` extensions) and `atomic_<op>` (1.1).
            Atomic { op: AtomicOp, legacy: bool },
            /// The OpenCL 2.0 atomics on the atomic types (OpenCL C
            /// 6.15.12): `atomic_<op>` and, with `explicit`,
            /// `atomic_<op>_explicit`.
            C11Atomic { op: C11AtomicOp, explicit: bool },
            /// `vload<n>`.
            Vload(u8),
            /// `vstore<n>`.
            Vstore(u8),
            /// `vload_half[n]`; 1 is the scalar `vload_half`.
            VloadHalf(u8),
            /// `vloada_half[n]`.
            VloadaHalf(u8),
            /// `vstore_half[n][_<rounding>]`.
            VstoreHalf(u8, Rounding),
            /// `vstorea_half[n][_<rounding>]`.
            VstoreaHalf(u8, Rounding),
            /// `convert_<type>[_sat][_<rounding>]`.
            Convert(Conversion),
            /// `as_<type>`: the target element type and width (1: scalar).
            As(Scalar, u8),
        }

        impl Builtin {
            /// Every built-in named by a fixed identifier (for the tests'
            /// completeness checks).
            #[cfg(test)]
            const SIMPLE: &'static [Builtin] = &[$(Builtin::$variant,)*];

            fn simple_name(self) -> Option<&'static str> {
                match self {
                    $(Builtin::$variant => Some($name),)*
                    _ => None,
                }
            }

            fn from_simple_name(name: &str) -> Option<Builtin> {
                match name {
                    $($name => Some(Builtin::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

builtins! {
    // Work-item functions.
    WorkDim = "get_work_dim",
    GlobalSize = "get_global_size",
    GlobalId = "get_global_id",
    LocalSize = "get_local_size",
    EnqueuedLocalSize = "get_enqueued_local_size",
    LocalId = "get_local_id",
    NumGroups = "get_num_groups",
    GroupId = "get_group_id",
    GlobalOffset = "get_global_offset",
    GlobalLinearId = "get_global_linear_id",
    LocalLinearId = "get_local_linear_id",
    // Math functions.
    Acos = "acos",
    Acosh = "acosh",
    Acospi = "acospi",
    Asin = "asin",
    Asinh = "asinh",
    Asinpi = "asinpi",
    Atan = "atan",
    Atan2 = "atan2",
    Atanh = "atanh",
    Atanpi = "atanpi",
    Atan2pi = "atan2pi",
    Cbrt = "cbrt",
    Ceil = "ceil",
    Copysign = "copysign",
    Cos = "cos",
    Cosh = "cosh",
    Cospi = "cospi",
    Erfc = "erfc",
    Erf = "erf",
    Exp = "exp",
    Exp2 = "exp2",
    Exp10 = "exp10",
    Expm1 = "expm1",
    Fabs = "fabs",
    Fdim = "fdim",
    Floor = "floor",
    Fma = "fma",
    Fmax = "fmax",
    Fmin = "fmin",
    Fmod = "fmod",
    Fract = "fract",
    Frexp = "frexp",
    Hypot = "hypot",
    Ilogb = "ilogb",
    Ldexp = "ldexp",
    Lgamma = "lgamma",
    LgammaR = "lgamma_r",
    Log = "log",
    Log2 = "log2",
    Log10 = "log10",
    Log1p = "log1p",
    Logb = "logb",
    Mad = "mad",
    Maxmag = "maxmag",
    Minmag = "minmag",
    Modf = "modf",
    Nan = "nan",
    Nextafter = "nextafter",
    Pow = "pow",
    Pown = "pown",
    Powr = "powr",
    Remainder = "remainder",
    Remquo = "remquo",
    Rint = "rint",
    Rootn = "rootn",
    Round = "round",
    Rsqrt = "rsqrt",
    Sin = "sin",
    Sincos = "sincos",
    Sinh = "sinh",
    Sinpi = "sinpi",
    Sqrt = "sqrt",
    Tan = "tan",
    Tanh = "tanh",
    Tanpi = "tanpi",
    Tgamma = "tgamma",
    Trunc = "trunc",
    HalfCos = "half_cos",
    HalfDivide = "half_divide",
    HalfExp = "half_exp",
    HalfExp2 = "half_exp2",
    HalfExp10 = "half_exp10",
    HalfLog = "half_log",
    HalfLog2 = "half_log2",
    HalfLog10 = "half_log10",
    HalfPowr = "half_powr",
    HalfRecip = "half_recip",
    HalfRsqrt = "half_rsqrt",
    HalfSin = "half_sin",
    HalfSqrt = "half_sqrt",
    HalfTan = "half_tan",
    NativeCos = "native_cos",
    NativeDivide = "native_divide",
    NativeExp = "native_exp",
    NativeExp2 = "native_exp2",
    NativeExp10 = "native_exp10",
    NativeLog = "native_log",
    NativeLog2 = "native_log2",
    NativeLog10 = "native_log10",
    NativePowr = "native_powr",
    NativeRecip = "native_recip",
    NativeRsqrt = "native_rsqrt",
    NativeSin = "native_sin",
    NativeSqrt = "native_sqrt",
    NativeTan = "native_tan",
    // Integer functions (clamp, max and min are shared with the common
    // functions: one name, integer and floating overloads).
    Abs = "abs",
    AbsDiff = "abs_diff",
    AddSat = "add_sat",
    Hadd = "hadd",
    Rhadd = "rhadd",
    Clamp = "clamp",
    Clz = "clz",
    Ctz = "ctz",
    MadHi = "mad_hi",
    MadSat = "mad_sat",
    Max = "max",
    Min = "min",
    MulHi = "mul_hi",
    Rotate = "rotate",
    SubSat = "sub_sat",
    Upsample = "upsample",
    Popcount = "popcount",
    Mad24 = "mad24",
    Mul24 = "mul24",
    // Common functions.
    Degrees = "degrees",
    Mix = "mix",
    Radians = "radians",
    Step = "step",
    Smoothstep = "smoothstep",
    Sign = "sign",
    // Geometric functions.
    Cross = "cross",
    Dot = "dot",
    Distance = "distance",
    Length = "length",
    Normalize = "normalize",
    FastDistance = "fast_distance",
    FastLength = "fast_length",
    FastNormalize = "fast_normalize",
    // Relational functions.
    Isequal = "isequal",
    Isnotequal = "isnotequal",
    Isgreater = "isgreater",
    Isgreaterequal = "isgreaterequal",
    Isless = "isless",
    Islessequal = "islessequal",
    Islessgreater = "islessgreater",
    Isfinite = "isfinite",
    Isinf = "isinf",
    Isnan = "isnan",
    Isnormal = "isnormal",
    Isordered = "isordered",
    Isunordered = "isunordered",
    Signbit = "signbit",
    Any = "any",
    All = "all",
    Bitselect = "bitselect",
    Select = "select",
    // Synchronization and fences.
    Barrier = "barrier",
    WorkGroupBarrier = "work_group_barrier",
    MemFence = "mem_fence",
    ReadMemFence = "read_mem_fence",
    WriteMemFence = "write_mem_fence",
    AtomicWorkItemFence = "atomic_work_item_fence",
    // Address space qualifier functions.
    ToGlobal = "to_global",
    ToLocal = "to_local",
    ToPrivate = "to_private",
    GetFence = "get_fence",
    // Miscellaneous vector functions.
    Shuffle = "shuffle",
    Shuffle2 = "shuffle2",
    // Work-group collective functions.
    WorkGroupAll = "work_group_all",
    WorkGroupAny = "work_group_any",
    WorkGroupBroadcast = "work_group_broadcast",
    WorkGroupReduceAdd = "work_group_reduce_add",
    WorkGroupReduceMin = "work_group_reduce_min",
    WorkGroupReduceMax = "work_group_reduce_max",
    WorkGroupScanExclusiveAdd = "work_group_scan_exclusive_add",
    WorkGroupScanExclusiveMin = "work_group_scan_exclusive_min",
    WorkGroupScanExclusiveMax = "work_group_scan_exclusive_max",
    WorkGroupScanInclusiveAdd = "work_group_scan_inclusive_add",
    WorkGroupScanInclusiveMin = "work_group_scan_inclusive_min",
    WorkGroupScanInclusiveMax = "work_group_scan_inclusive_max",
    // Async copies and prefetch.
    AsyncWorkGroupCopy = "async_work_group_copy",
    AsyncWorkGroupStridedCopy = "async_work_group_strided_copy",
    WaitGroupEvents = "wait_group_events",
    Prefetch = "prefetch",
}

/// The operation of an OpenCL 1.x atomic function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    Add,
    Sub,
    Xchg,
    Inc,
    Dec,
    Cmpxchg,
    Min,
    Max,
    And,
    Or,
    Xor,
}

const ATOMIC_OPS: &[(&str, AtomicOp)] = &[
    ("add", AtomicOp::Add),
    ("sub", AtomicOp::Sub),
    ("xchg", AtomicOp::Xchg),
    ("inc", AtomicOp::Inc),
    ("dec", AtomicOp::Dec),
    ("cmpxchg", AtomicOp::Cmpxchg),
    ("min", AtomicOp::Min),
    ("max", AtomicOp::Max),
    ("and", AtomicOp::And),
    ("or", AtomicOp::Or),
    ("xor", AtomicOp::Xor),
];

impl AtomicOp {
    pub fn name(self) -> &'static str {
        ATOMIC_OPS
            .iter()
            .find(|(_, op)| *op == self)
            .map_or("?", |(n, _)| n)
    }
}

/// The operation of an OpenCL 2.0 atomic function (OpenCL C 6.15.12); the
/// names and overloads are in the table `C11_ATOMICS`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum C11AtomicOp {
    Init,
    Store,
    Load,
    Exchange,
    CompareExchangeStrong,
    CompareExchangeWeak,
    FetchAdd,
    FetchSub,
    FetchOr,
    FetchXor,
    FetchAnd,
    FetchMin,
    FetchMax,
    FlagTestAndSet,
    FlagClear,
}

impl C11AtomicOp {
    fn row(self) -> &'static C11AtomicRow {
        C11_ATOMICS
            .iter()
            .find(|r| r.op == self)
            .expect("every OpenCL 2.0 atomic has a row")
    }

    /// The name after `atomic_` and before `_explicit`.
    pub fn name(self) -> &'static str {
        self.row().name
    }
}

/// The rounding-mode suffix of a conversion or a `vstore_half`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rounding {
    /// No suffix: the default for the conversion (round to zero to
    /// integers, to nearest even to floating point; `vstore_half` uses the
    /// current mode, which is round to nearest even).
    Default,
    Rte,
    Rtz,
    Rtp,
    Rtn,
}

const ROUNDINGS: &[(&str, Rounding)] = &[
    ("_rte", Rounding::Rte),
    ("_rtz", Rounding::Rtz),
    ("_rtp", Rounding::Rtp),
    ("_rtn", Rounding::Rtn),
];

impl Rounding {
    pub fn suffix(self) -> &'static str {
        ROUNDINGS
            .iter()
            .find(|(_, r)| *r == self)
            .map_or("", |(s, _)| s)
    }
}

/// `convert_<to><width>[_sat][_<rounding>]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Conversion {
    pub to: Scalar,
    /// 1 for a scalar.
    pub width: u8,
    /// `_sat`: out-of-range values clamp (integer targets only).
    pub saturate: bool,
    pub rounding: Rounding,
}

/// The element types that may follow `convert_` and `as_`, by name.
const TYPE_NAMES: &[Scalar] = &[
    Scalar::Char,
    Scalar::UChar,
    Scalar::Short,
    Scalar::UShort,
    Scalar::Int,
    Scalar::UInt,
    Scalar::Long,
    Scalar::ULong,
    Scalar::Half,
    Scalar::Float,
    Scalar::Double,
];

fn type_name(s: Scalar, width: u8) -> String {
    if width == 1 {
        s.name().to_string()
    } else {
        format!("{}{width}", s.name())
    }
}

impl fmt::Display for Builtin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(name) = self.simple_name() {
            return f.write_str(name);
        }
        let width = |n: u8| if n == 1 { String::new() } else { n.to_string() };
        match *self {
            Builtin::Atomic { op, legacy } => {
                let prefix = if legacy { "atom" } else { "atomic" };
                write!(f, "{prefix}_{}", op.name())
            }
            Builtin::C11Atomic { op, explicit } => write!(
                f,
                "atomic_{}{}",
                op.name(),
                if explicit { "_explicit" } else { "" }
            ),
            Builtin::Vload(n) => write!(f, "vload{n}"),
            Builtin::Vstore(n) => write!(f, "vstore{n}"),
            Builtin::VloadHalf(n) => write!(f, "vload_half{}", width(n)),
            Builtin::VloadaHalf(n) => write!(f, "vloada_half{}", width(n)),
            Builtin::VstoreHalf(n, r) => write!(f, "vstore_half{}{}", width(n), r.suffix()),
            Builtin::VstoreaHalf(n, r) => write!(f, "vstorea_half{}{}", width(n), r.suffix()),
            Builtin::Convert(c) => write!(
                f,
                "convert_{}{}{}",
                type_name(c.to, c.width),
                if c.saturate { "_sat" } else { "" },
                c.rounding.suffix()
            ),
            Builtin::As(s, n) => write!(f, "as_{}", type_name(s, n)),
            _ => f.write_str("?"),
        }
    }
}

impl Builtin {
    /// The built-in a call to `name` means, whatever its arguments.
    pub fn from_name(name: &str) -> Option<Builtin> {
        Builtin::from_simple_name(name)
            .or_else(|| parse_atomic(name))
            .or_else(|| parse_load_store(name))
            .or_else(|| parse_convert(name).map(Builtin::Convert))
            .or_else(|| parse_as(name))
    }
}

fn parse_atomic(name: &str) -> Option<Builtin> {
    let (rest, legacy) = match name.strip_prefix("atomic_") {
        Some(rest) => (rest, false),
        None => (name.strip_prefix("atom_")?, true),
    };
    if let Some(&(_, op)) = ATOMIC_OPS.iter().find(|(n, _)| *n == rest) {
        return Some(Builtin::Atomic { op, legacy });
    }
    if legacy {
        return None;
    }
    let (rest, explicit) = match rest.strip_suffix("_explicit") {
        Some(rest) => (rest, true),
        None => (rest, false),
    };
    let row = C11_ATOMICS.iter().find(|r| r.name == rest)?;
    // `atomic_init` has no `_explicit` form.
    if explicit && row.explicit.is_empty() {
        return None;
    }
    Some(Builtin::C11Atomic {
        op: row.op,
        explicit,
    })
}

/// A vector width written as a suffix: `2`, `3`, `4`, `8` or `16`.
fn vector_width(digits: &str) -> Option<u8> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
        return None;
    }
    let n: u8 = digits.parse().ok()?;
    VECTOR_WIDTHS.contains(&n).then_some(n)
}

/// An optional width suffix: none is a scalar.
fn optional_width(digits: &str) -> Option<u8> {
    if digits.is_empty() {
        Some(1)
    } else {
        vector_width(digits)
    }
}

fn strip_rounding(name: &str) -> (&str, Rounding) {
    for &(suffix, r) in ROUNDINGS {
        if let Some(rest) = name.strip_suffix(suffix) {
            return (rest, r);
        }
    }
    (name, Rounding::Default)
}

fn parse_load_store(name: &str) -> Option<Builtin> {
    // Longest prefixes first: `vloada_half` before `vload_half` before `vload`.
    if let Some(rest) = name.strip_prefix("vloada_half") {
        return optional_width(rest).map(Builtin::VloadaHalf);
    }
    if let Some(rest) = name.strip_prefix("vload_half") {
        return optional_width(rest).map(Builtin::VloadHalf);
    }
    if let Some(rest) = name.strip_prefix("vstorea_half") {
        let (rest, r) = strip_rounding(rest);
        return optional_width(rest).map(|n| Builtin::VstoreaHalf(n, r));
    }
    if let Some(rest) = name.strip_prefix("vstore_half") {
        let (rest, r) = strip_rounding(rest);
        return optional_width(rest).map(|n| Builtin::VstoreHalf(n, r));
    }
    if let Some(rest) = name.strip_prefix("vload") {
        return vector_width(rest).map(Builtin::Vload);
    }
    if let Some(rest) = name.strip_prefix("vstore") {
        return vector_width(rest).map(Builtin::Vstore);
    }
    None
}

/// `int`, `uchar4`, `double16`, ... (no `bool`: it has no conversions).
fn parse_type_name(name: &str) -> Option<(Scalar, u8)> {
    TYPE_NAMES.iter().find_map(|&s| {
        let digits = name.strip_prefix(s.name())?;
        Some((s, optional_width(digits)?))
    })
}

fn parse_convert(name: &str) -> Option<Conversion> {
    let rest = name.strip_prefix("convert_")?;
    let (rest, rounding) = strip_rounding(rest);
    let (rest, saturate) = match rest.strip_suffix("_sat") {
        Some(rest) => (rest, true),
        None => (rest, false),
    };
    let (to, width) = parse_type_name(rest)?;
    // Saturation only means something for integer targets, and the spec
    // defines `_sat` for them only.
    if saturate && to.is_float() {
        return None;
    }
    Some(Conversion {
        to,
        width,
        saturate,
        rounding,
    })
}

fn parse_as(name: &str) -> Option<Builtin> {
    let (s, n) = parse_type_name(name.strip_prefix("as_")?)?;
    Some(Builtin::As(s, n))
}

/// Built-in families the translator knows but does not support yet, so
/// calls to them say so instead of "undeclared": each entry covers its name
/// and its `_`-suffixed forms; one ending in `_` covers every name it starts.
pub const NOT_SUPPORTED: &[&str] = &[
    // The checker handles `printf` before it gets here.
    "printf",
    // Images and samplers.
    "read_imagef",
    "read_imagei",
    "read_imageui",
    "read_imageh",
    "write_imagef",
    "write_imagei",
    "write_imageui",
    "write_imageh",
    "get_image_",
    // Sub-groups, pipes, device-side enqueue.
    "work_group_reserve_",
    "work_group_commit_",
    "sub_group_",
    "get_sub_group_",
    "get_max_sub_group_size",
    "get_num_sub_groups",
    "get_enqueued_num_sub_groups",
    "read_pipe",
    "write_pipe",
    "reserve_read_pipe",
    "reserve_write_pipe",
    "commit_read_pipe",
    "commit_write_pipe",
    "get_pipe_",
    "enqueue_",
    "get_default_queue",
    "ndrange_",
    "get_kernel_",
    "retain_event",
    "release_event",
    "create_user_event",
    "is_valid_event",
    "set_user_event_status",
    "capture_event_profiling_info",
];

/// Enum and integer constants the spec defines for use with these
/// built-ins, with their type and value. The fence flags are macros in
/// clang's `opencl-c-base.h` and `cl_mem_fence_flags` (uint) here;
/// `memory_order` and `memory_scope` are enums there, so `int` here, with
/// clang's values (`__ATOMIC_*` and `__OPENCL_MEMORY_SCOPE_*`). Clang only
/// defines `CLK_IMAGE_MEM_FENCE`, `memory_order_*` and `memory_scope_*` for
/// OpenCL C 2.0 and newer; the table does not gate them.
pub const PREDEFINED_CONSTANTS: &[(&str, Scalar, i64)] = &[
    ("CLK_LOCAL_MEM_FENCE", Scalar::UInt, 1),
    ("CLK_GLOBAL_MEM_FENCE", Scalar::UInt, 2),
    ("CLK_IMAGE_MEM_FENCE", Scalar::UInt, 4),
    ("memory_order_relaxed", Scalar::Int, 0),
    ("memory_order_acquire", Scalar::Int, 2),
    ("memory_order_release", Scalar::Int, 3),
    ("memory_order_acq_rel", Scalar::Int, 4),
    ("memory_order_seq_cst", Scalar::Int, 5),
    ("memory_scope_work_item", Scalar::Int, 0),
    ("memory_scope_work_group", Scalar::Int, 1),
    ("memory_scope_device", Scalar::Int, 2),
    ("memory_scope_all_svm_devices", Scalar::Int, 3),
    ("memory_scope_all_devices", Scalar::Int, 3),
    ("memory_scope_sub_group", Scalar::Int, 4),
];

// ---- Signature shapes ----

/// A set of element types, one bit per `Scalar`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Elems(u16);

impl Elems {
    const fn of(list: &[Scalar]) -> Elems {
        let mut bits = 0;
        let mut i = 0;
        while i < list.len() {
            bits |= 1 << list[i] as u16;
            i += 1;
        }
        Elems(bits)
    }

    const fn or(self, other: Elems) -> Elems {
        Elems(self.0 | other.0)
    }

    fn contains(self, s: Scalar) -> bool {
        self.0 & (1 << s as u16) != 0
    }

    /// Contains `s`, and the device and program have it.
    fn allows(self, s: Scalar, ctx: &BuiltinContext) -> bool {
        self.contains(s)
            && match s {
                Scalar::Double => ctx.float64,
                Scalar::Half => ctx.float16,
                _ => true,
            }
    }
}

const FLOATS: Elems = Elems::of(&[Scalar::Half, Scalar::Float, Scalar::Double]);
/// `half_*`, `native_*` and `fast_*` are defined for `float` only.
const FLOAT_ONLY: Elems = Elems::of(&[Scalar::Float]);
const INTEGERS: Elems = Elems::of(&[
    Scalar::Char,
    Scalar::UChar,
    Scalar::Short,
    Scalar::UShort,
    Scalar::Int,
    Scalar::UInt,
    Scalar::Long,
    Scalar::ULong,
]);
const SIGNED: Elems = Elems::of(&[Scalar::Char, Scalar::Short, Scalar::Int, Scalar::Long]);
const INT32: Elems = Elems::of(&[Scalar::Int, Scalar::UInt]);
/// `upsample`'s high half: everything with a type twice as wide.
const UPSAMPLE: Elems = Elems::of(&[
    Scalar::Char,
    Scalar::UChar,
    Scalar::Short,
    Scalar::UShort,
    Scalar::Int,
    Scalar::UInt,
]);
/// Every element type but `bool`.
const ARITHMETIC: Elems = INTEGERS.or(FLOATS);
const ATOMIC64: Elems = INT32.or(Elems::of(&[Scalar::Long, Scalar::ULong]));
/// The value types of the OpenCL 2.0 atomic types: `atomic_int`,
/// `atomic_uint`, `atomic_long`, `atomic_ulong`, `atomic_float`,
/// `atomic_double`, and the pointer-sized ones (`size_t`'s types).
const ATOMIC_VALUES: Elems = ATOMIC64.or(Elems::of(&[Scalar::Float, Scalar::Double]));
/// `atomic_flag`, which the checker maps to `int`.
const ATOMIC_FLAG: Elems = Elems::of(&[Scalar::Int]);
/// The types the work-group collectives reduce, scan and broadcast.
const COLLECTIVE: Elems = ATOMIC64.or(FLOATS);
const ATOMIC_XCHG: Elems = INT32.or(FLOAT_ONLY);
/// `vstore_half` stores `float` and, with fp64, `double`.
const STORE_HALF: Elems = Elems::of(&[Scalar::Float, Scalar::Double]);
/// For shapes that never mention the gentype: resolution still picks one
/// (`float`), which nothing uses.
const NO_GENTYPE: Elems = FLOAT_ONLY;

/// A set of vector widths, bit `n` for width `n` (1: scalar).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Widths(u32);

impl Widths {
    const fn of(list: &[u8]) -> Widths {
        let mut bits = 0;
        let mut i = 0;
        while i < list.len() {
            bits |= 1 << list[i];
            i += 1;
        }
        Widths(bits)
    }

    fn contains(self, n: u8) -> bool {
        n < 32 && self.0 & (1 << n) != 0
    }

    /// The width when the set has just one.
    fn single(self) -> Option<u8> {
        (self.0.count_ones() == 1).then(|| self.0.trailing_zeros() as u8)
    }
}

const ALL_WIDTHS: Widths = Widths::of(&[1, 2, 3, 4, 8, 16]);
/// The geometric functions take scalars and vectors of up to 4 lanes.
const GEOMETRIC: Widths = Widths::of(&[1, 2, 3, 4]);
const CROSS: Widths = Widths::of(&[3, 4]);
const SCALAR: Widths = Widths::of(&[1]);
/// `shuffle` and `shuffle2` take and return 2, 4, 8 and 16 lanes.
const SHUFFLE: Widths = Widths::of(&[2, 4, 8, 16]);

/// A set of address spaces a pointer argument may point into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Spaces(u8);

fn space_bit(s: AddressSpace) -> u8 {
    match s {
        AddressSpace::Private => 1,
        AddressSpace::Global => 2,
        AddressSpace::Constant => 4,
        AddressSpace::Local => 8,
        AddressSpace::Generic => 16,
    }
}

impl Spaces {
    fn contains(self, s: AddressSpace) -> bool {
        self.0 & space_bit(s) != 0
    }
}

const GLOBAL: Spaces = Spaces(2);
const LOCAL: Spaces = Spaces(8);
const GLOBAL_OR_LOCAL: Spaces = Spaces(2 | 8);
/// Where a built-in may write: everything but `__constant`.
const WRITABLE: Spaces = Spaces(1 | 2 | 8 | 16);
/// What converts to a generic pointer: everything but `__constant`.
const GENERIC: Spaces = WRITABLE;
const ANY_SPACE: Spaces = Spaces(1 | 2 | 4 | 8 | 16);

/// What a pointer parameter points to, in terms of the gentype `T`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    /// `T` itself (`sincos`'s `cosval`, the atomics, async copies).
    Gen,
    /// `T`'s element (`vload`/`vstore`).
    Elem,
    /// `int` with `T`'s width (`frexp`, `lgamma_r`, `remquo`).
    IntN,
    /// `half` in memory (`vload_half`, `vstore_half`).
    Half,
    Event,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ptr {
    to: Target,
    spaces: Spaces,
    /// The built-in writes through it: no `const` pointee.
    writes: bool,
}

/// A parameter's shape. `T` is the overload's gentype: an element type
/// and a width, inferred from the arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum P {
    /// `gentype`: `T`; a scalar argument is converted and widened, as for
    /// operators (OpenCL C 6.4.2).
    Gen,
    /// `sgentype` in the "`gentype f(gentype, sgentype)`" forms: a scalar,
    /// widened to `T` ("the scalar is widened to the vector").
    Sgen,
    /// `intn` with `T`'s width (`ldexp`, `pown`, `rootn`).
    IntN,
    /// The unsigned integer of `T`'s element size and width (`nan`).
    NanCode,
    /// `ugentype`: unsigned `T` (`upsample`'s low half).
    UGen,
    /// `select`'s mask: any integer type with `T`'s element size and width.
    Mask,
    Uint,
    Int,
    Size,
    /// `event_t`; the literal `0` converts to it (as in clang), which the
    /// type alone cannot tell from other integers.
    Event,
    Ptr(Ptr),
    /// A pointer to anything in one of these spaces, taken as it is (the
    /// address space qualifier functions).
    AnyPtr(Spaces),
    /// `shuffle`'s mask: a vector of the unsigned integer of `T`'s element
    /// size, with the result's width (2, 4, 8 or 16).
    ShuffleMask,
}

const G: P = P::Gen;
const S: P = P::Sgen;
const fn ptr(to: Target, spaces: Spaces, writes: bool) -> P {
    P::Ptr(Ptr { to, spaces, writes })
}
/// A math function's out-parameter: `__global`, `__local`, `__private` or
/// generic, never `__constant`.
const OUT_GEN: P = ptr(Target::Gen, WRITABLE, true);
const OUT_INTN: P = ptr(Target::IntN, WRITABLE, true);
const ATOMIC_PTR: P = ptr(Target::Gen, GLOBAL_OR_LOCAL, true);
/// An OpenCL 2.0 atomic object, `volatile A *object`: `__global`, `__local`
/// or generic (so private too, which type-checks through the generic space
/// though the spec leaves it undefined), never `__constant`; `T` is `A`'s
/// value type `C`.
const ATOMIC_OBJ: P = ptr(Target::Gen, GENERIC, true);
/// `atomic_compare_exchange_*`'s `C *expected`, which it writes.
const ATOMIC_EXPECTED: P = ptr(Target::Gen, GENERIC, true);
/// `memory_order` and `memory_scope`, enums (so `int`) as in clang.
const ORDER: P = P::Int;
const SCOPE: P = P::Int;

/// A result's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum R {
    Void,
    Gen,
    /// `T`'s element (`dot`, `length`).
    Elem,
    IntN,
    /// Unsigned `T` (`abs`, `abs_diff`).
    UGen,
    /// `int` for scalars, the signed integer of the element's size for
    /// vectors (`isequal`, `isnan`, ...).
    Relational,
    /// The integer twice as wide as `T`'s element, same signedness.
    Upsample,
    Int,
    Uint,
    Size,
    Event,
    /// `bool` (the atomic flag and compare-exchange functions).
    Bool,
    /// `T`'s element with the width of the [`P::ShuffleMask`] argument.
    Shuffle,
    /// The [`P::AnyPtr`] argument, pointing into this space instead (same
    /// pointee type and qualifiers).
    Cast(AddressSpace),
}

#[derive(Clone, Copy, Debug)]
struct Sig {
    params: &'static [P],
    result: R,
    elems: Elems,
    widths: Widths,
}

const fn sig(params: &'static [P], result: R, elems: Elems, widths: Widths) -> Sig {
    Sig {
        params,
        result,
        elems,
        widths,
    }
}

/// Built-ins sharing one overload set.
struct Group {
    functions: &'static [Builtin],
    /// The OpenCL C version that introduced them.
    since: (u32, u32),
    sigs: &'static [Sig],
}

const CL1_0: (u32, u32) = (1, 0);
const CL1_1: (u32, u32) = (1, 1);
const CL1_2: (u32, u32) = (1, 2);
const CL2_0: (u32, u32) = (2, 0);

use Builtin as B;

/// The built-ins with fixed names. Rows follow the spec's tables; the
/// `sgentype` rows are listed as the spec lists them even where the
/// `gentype` row would also accept a scalar, so the table reads like the
/// spec.
const GROUPS: &[Group] = &[
    // ---- Work-item functions ----
    Group {
        functions: &[
            B::GlobalSize,
            B::GlobalId,
            B::LocalSize,
            B::LocalId,
            B::NumGroups,
            B::GroupId,
            B::GlobalOffset,
        ],
        since: CL1_0,
        sigs: &[sig(&[P::Uint], R::Size, NO_GENTYPE, SCALAR)],
    },
    Group {
        functions: &[B::EnqueuedLocalSize],
        since: CL2_0,
        sigs: &[sig(&[P::Uint], R::Size, NO_GENTYPE, SCALAR)],
    },
    Group {
        functions: &[B::WorkDim],
        since: CL1_0,
        sigs: &[sig(&[], R::Uint, NO_GENTYPE, SCALAR)],
    },
    Group {
        functions: &[B::GlobalLinearId, B::LocalLinearId],
        since: CL2_0,
        sigs: &[sig(&[], R::Size, NO_GENTYPE, SCALAR)],
    },
    // ---- Math functions ----
    Group {
        functions: &[
            B::Acos,
            B::Acosh,
            B::Acospi,
            B::Asin,
            B::Asinh,
            B::Asinpi,
            B::Atan,
            B::Atanh,
            B::Atanpi,
            B::Cbrt,
            B::Ceil,
            B::Cos,
            B::Cosh,
            B::Cospi,
            B::Erfc,
            B::Erf,
            B::Exp,
            B::Exp2,
            B::Exp10,
            B::Expm1,
            B::Fabs,
            B::Floor,
            B::Lgamma,
            B::Log,
            B::Log2,
            B::Log10,
            B::Log1p,
            B::Logb,
            B::Rint,
            B::Round,
            B::Rsqrt,
            B::Sin,
            B::Sinh,
            B::Sinpi,
            B::Sqrt,
            B::Tan,
            B::Tanh,
            B::Tanpi,
            B::Tgamma,
            B::Trunc,
            // Common functions of the same shape.
            B::Degrees,
            B::Radians,
            B::Sign,
        ],
        since: CL1_0,
        sigs: &[sig(&[G], R::Gen, FLOATS, ALL_WIDTHS)],
    },
    Group {
        functions: &[
            B::Atan2,
            B::Atan2pi,
            B::Copysign,
            B::Fdim,
            B::Fmod,
            B::Hypot,
            B::Maxmag,
            B::Minmag,
            B::Nextafter,
            B::Pow,
            B::Powr,
            B::Remainder,
        ],
        since: CL1_0,
        sigs: &[sig(&[G, G], R::Gen, FLOATS, ALL_WIDTHS)],
    },
    Group {
        functions: &[B::Fmax, B::Fmin],
        since: CL1_0,
        sigs: &[
            sig(&[G, G], R::Gen, FLOATS, ALL_WIDTHS),
            sig(&[G, S], R::Gen, FLOATS, ALL_WIDTHS),
        ],
    },
    Group {
        functions: &[B::Fma, B::Mad],
        since: CL1_0,
        sigs: &[sig(&[G, G, G], R::Gen, FLOATS, ALL_WIDTHS)],
    },
    Group {
        functions: &[B::Ilogb],
        since: CL1_0,
        sigs: &[sig(&[G], R::IntN, FLOATS, ALL_WIDTHS)],
    },
    Group {
        functions: &[B::Ldexp],
        since: CL1_0,
        sigs: &[
            sig(&[G, P::IntN], R::Gen, FLOATS, ALL_WIDTHS),
            sig(&[G, P::Int], R::Gen, FLOATS, ALL_WIDTHS),
        ],
    },
    Group {
        functions: &[B::Pown, B::Rootn],
        since: CL1_0,
        sigs: &[sig(&[G, P::IntN], R::Gen, FLOATS, ALL_WIDTHS)],
    },
    Group {
        functions: &[B::Nan],
        since: CL1_0,
        sigs: &[sig(&[P::NanCode], R::Gen, FLOATS, ALL_WIDTHS)],
    },
    Group {
        functions: &[B::Fract, B::Modf, B::Sincos],
        since: CL1_0,
        sigs: &[sig(&[G, OUT_GEN], R::Gen, FLOATS, ALL_WIDTHS)],
    },
    Group {
        functions: &[B::Frexp, B::LgammaR],
        since: CL1_0,
        sigs: &[sig(&[G, OUT_INTN], R::Gen, FLOATS, ALL_WIDTHS)],
    },
    Group {
        functions: &[B::Remquo],
        since: CL1_0,
        sigs: &[sig(&[G, G, OUT_INTN], R::Gen, FLOATS, ALL_WIDTHS)],
    },
    Group {
        functions: &[
            B::HalfCos,
            B::HalfExp,
            B::HalfExp2,
            B::HalfExp10,
            B::HalfLog,
            B::HalfLog2,
            B::HalfLog10,
            B::HalfRecip,
            B::HalfRsqrt,
            B::HalfSin,
            B::HalfSqrt,
            B::HalfTan,
            B::NativeCos,
            B::NativeExp,
            B::NativeExp2,
            B::NativeExp10,
            B::NativeLog,
            B::NativeLog2,
            B::NativeLog10,
            B::NativeRecip,
            B::NativeRsqrt,
            B::NativeSin,
            B::NativeSqrt,
            B::NativeTan,
        ],
        since: CL1_0,
        sigs: &[sig(&[G], R::Gen, FLOAT_ONLY, ALL_WIDTHS)],
    },
    Group {
        functions: &[B::HalfDivide, B::HalfPowr, B::NativeDivide, B::NativePowr],
        since: CL1_0,
        sigs: &[sig(&[G, G], R::Gen, FLOAT_ONLY, ALL_WIDTHS)],
    },
    // ---- Integer functions ----
    Group {
        functions: &[B::Abs],
        since: CL1_0,
        sigs: &[sig(&[G], R::UGen, INTEGERS, ALL_WIDTHS)],
    },
    Group {
        functions: &[B::AbsDiff],
        since: CL1_0,
        sigs: &[sig(&[G, G], R::UGen, INTEGERS, ALL_WIDTHS)],
    },
    Group {
        functions: &[B::AddSat, B::Hadd, B::Rhadd, B::SubSat, B::MulHi, B::Rotate],
        since: CL1_0,
        sigs: &[sig(&[G, G], R::Gen, INTEGERS, ALL_WIDTHS)],
    },
    Group {
        functions: &[B::Clz],
        since: CL1_0,
        sigs: &[sig(&[G], R::Gen, INTEGERS, ALL_WIDTHS)],
    },
    Group {
        functions: &[B::Popcount],
        since: CL1_2,
        sigs: &[sig(&[G], R::Gen, INTEGERS, ALL_WIDTHS)],
    },
    Group {
        functions: &[B::Ctz],
        since: CL2_0,
        sigs: &[sig(&[G], R::Gen, INTEGERS, ALL_WIDTHS)],
    },
    Group {
        functions: &[B::MadHi, B::MadSat],
        since: CL1_0,
        sigs: &[sig(&[G, G, G], R::Gen, INTEGERS, ALL_WIDTHS)],
    },
    Group {
        functions: &[B::Upsample],
        since: CL1_0,
        sigs: &[sig(&[G, P::UGen], R::Upsample, UPSAMPLE, ALL_WIDTHS)],
    },
    Group {
        functions: &[B::Mad24],
        since: CL1_0,
        sigs: &[sig(&[G, G, G], R::Gen, INT32, ALL_WIDTHS)],
    },
    Group {
        functions: &[B::Mul24],
        since: CL1_0,
        sigs: &[sig(&[G, G], R::Gen, INT32, ALL_WIDTHS)],
    },
    // Shared by the integer and the common functions.
    Group {
        functions: &[B::Clamp],
        since: CL1_0,
        sigs: &[
            sig(&[G, G, G], R::Gen, ARITHMETIC, ALL_WIDTHS),
            sig(&[G, S, S], R::Gen, ARITHMETIC, ALL_WIDTHS),
        ],
    },
    Group {
        functions: &[B::Max, B::Min],
        since: CL1_0,
        sigs: &[
            sig(&[G, G], R::Gen, ARITHMETIC, ALL_WIDTHS),
            sig(&[G, S], R::Gen, ARITHMETIC, ALL_WIDTHS),
        ],
    },
    // ---- Common functions ----
    Group {
        functions: &[B::Mix],
        since: CL1_0,
        sigs: &[
            sig(&[G, G, G], R::Gen, FLOATS, ALL_WIDTHS),
            sig(&[G, G, S], R::Gen, FLOATS, ALL_WIDTHS),
        ],
    },
    Group {
        functions: &[B::Step],
        since: CL1_0,
        sigs: &[
            sig(&[G, G], R::Gen, FLOATS, ALL_WIDTHS),
            sig(&[S, G], R::Gen, FLOATS, ALL_WIDTHS),
        ],
    },
    Group {
        functions: &[B::Smoothstep],
        since: CL1_0,
        sigs: &[
            sig(&[G, G, G], R::Gen, FLOATS, ALL_WIDTHS),
            sig(&[S, S, G], R::Gen, FLOATS, ALL_WIDTHS),
        ],
    },
    // ---- Geometric functions ----
    Group {
        functions: &[B::Cross],
        since: CL1_0,
        sigs: &[sig(&[G, G], R::Gen, FLOATS, CROSS)],
    },
    Group {
        functions: &[B::Dot, B::Distance],
        since: CL1_0,
        sigs: &[sig(&[G, G], R::Elem, FLOATS, GEOMETRIC)],
    },
    Group {
        functions: &[B::Length],
        since: CL1_0,
        sigs: &[sig(&[G], R::Elem, FLOATS, GEOMETRIC)],
    },
    Group {
        functions: &[B::Normalize],
        since: CL1_0,
        sigs: &[sig(&[G], R::Gen, FLOATS, GEOMETRIC)],
    },
    Group {
        functions: &[B::FastDistance],
        since: CL1_0,
        sigs: &[sig(&[G, G], R::Elem, FLOAT_ONLY, GEOMETRIC)],
    },
    Group {
        functions: &[B::FastLength],
        since: CL1_0,
        sigs: &[sig(&[G], R::Elem, FLOAT_ONLY, GEOMETRIC)],
    },
    Group {
        functions: &[B::FastNormalize],
        since: CL1_0,
        sigs: &[sig(&[G], R::Gen, FLOAT_ONLY, GEOMETRIC)],
    },
    // ---- Relational functions ----
    Group {
        functions: &[
            B::Isequal,
            B::Isnotequal,
            B::Isgreater,
            B::Isgreaterequal,
            B::Isless,
            B::Islessequal,
            B::Islessgreater,
            B::Isordered,
            B::Isunordered,
        ],
        since: CL1_0,
        sigs: &[sig(&[G, G], R::Relational, FLOATS, ALL_WIDTHS)],
    },
    Group {
        functions: &[B::Isfinite, B::Isinf, B::Isnan, B::Isnormal, B::Signbit],
        since: CL1_0,
        sigs: &[sig(&[G], R::Relational, FLOATS, ALL_WIDTHS)],
    },
    Group {
        functions: &[B::Any, B::All],
        since: CL1_0,
        sigs: &[sig(&[G], R::Int, SIGNED, ALL_WIDTHS)],
    },
    Group {
        functions: &[B::Bitselect],
        since: CL1_0,
        sigs: &[sig(&[G, G, G], R::Gen, ARITHMETIC, ALL_WIDTHS)],
    },
    Group {
        functions: &[B::Select],
        since: CL1_0,
        sigs: &[sig(&[G, G, P::Mask], R::Gen, ARITHMETIC, ALL_WIDTHS)],
    },
    // ---- Miscellaneous vector functions ----
    // `gentypen shuffle(gentypem x, ugentypen mask)`: `T` is `x`'s type.
    Group {
        functions: &[B::Shuffle],
        since: CL1_0,
        sigs: &[sig(&[G, P::ShuffleMask], R::Shuffle, ARITHMETIC, SHUFFLE)],
    },
    Group {
        functions: &[B::Shuffle2],
        since: CL1_0,
        sigs: &[sig(
            &[G, G, P::ShuffleMask],
            R::Shuffle,
            ARITHMETIC,
            SHUFFLE,
        )],
    },
    // ---- Synchronization and fences ----
    Group {
        functions: &[B::Barrier, B::MemFence, B::ReadMemFence, B::WriteMemFence],
        since: CL1_0,
        sigs: &[sig(&[P::Uint], R::Void, NO_GENTYPE, SCALAR)],
    },
    Group {
        functions: &[B::WorkGroupBarrier],
        since: CL2_0,
        sigs: &[
            sig(&[P::Uint], R::Void, NO_GENTYPE, SCALAR),
            sig(&[P::Uint, P::Int], R::Void, NO_GENTYPE, SCALAR),
        ],
    },
    Group {
        functions: &[B::AtomicWorkItemFence],
        since: CL2_0,
        sigs: &[sig(&[P::Uint, ORDER, SCOPE], R::Void, NO_GENTYPE, SCALAR)],
    },
    // ---- Address space qualifier functions ----
    // Any pointer that converts to a generic one (clang rejects
    // `__constant` with "expecting a generic pointer argument").
    Group {
        functions: &[B::ToGlobal],
        since: CL2_0,
        sigs: &[sig(
            &[P::AnyPtr(GENERIC)],
            R::Cast(AddressSpace::Global),
            NO_GENTYPE,
            SCALAR,
        )],
    },
    Group {
        functions: &[B::ToLocal],
        since: CL2_0,
        sigs: &[sig(
            &[P::AnyPtr(GENERIC)],
            R::Cast(AddressSpace::Local),
            NO_GENTYPE,
            SCALAR,
        )],
    },
    Group {
        functions: &[B::ToPrivate],
        since: CL2_0,
        sigs: &[sig(
            &[P::AnyPtr(GENERIC)],
            R::Cast(AddressSpace::Private),
            NO_GENTYPE,
            SCALAR,
        )],
    },
    Group {
        functions: &[B::GetFence],
        since: CL2_0,
        sigs: &[sig(&[P::AnyPtr(GENERIC)], R::Uint, NO_GENTYPE, SCALAR)],
    },
    // ---- Work-group collective functions ----
    Group {
        functions: &[B::WorkGroupAll, B::WorkGroupAny],
        since: CL2_0,
        sigs: &[sig(&[P::Int], R::Int, NO_GENTYPE, SCALAR)],
    },
    Group {
        functions: &[B::WorkGroupBroadcast],
        since: CL2_0,
        sigs: &[
            sig(&[G, P::Size], R::Gen, COLLECTIVE, SCALAR),
            sig(&[G, P::Size, P::Size], R::Gen, COLLECTIVE, SCALAR),
            sig(&[G, P::Size, P::Size, P::Size], R::Gen, COLLECTIVE, SCALAR),
        ],
    },
    Group {
        functions: &[
            B::WorkGroupReduceAdd,
            B::WorkGroupReduceMin,
            B::WorkGroupReduceMax,
            B::WorkGroupScanExclusiveAdd,
            B::WorkGroupScanExclusiveMin,
            B::WorkGroupScanExclusiveMax,
            B::WorkGroupScanInclusiveAdd,
            B::WorkGroupScanInclusiveMin,
            B::WorkGroupScanInclusiveMax,
        ],
        since: CL2_0,
        sigs: &[sig(&[G], R::Gen, COLLECTIVE, SCALAR)],
    },
    // ---- Async copies and prefetch ----
    Group {
        functions: &[B::AsyncWorkGroupCopy],
        since: CL1_0,
        sigs: &[
            sig(
                &[
                    ptr(Target::Gen, LOCAL, true),
                    ptr(Target::Gen, GLOBAL, false),
                    P::Size,
                    P::Event,
                ],
                R::Event,
                ARITHMETIC,
                ALL_WIDTHS,
            ),
            sig(
                &[
                    ptr(Target::Gen, GLOBAL, true),
                    ptr(Target::Gen, LOCAL, false),
                    P::Size,
                    P::Event,
                ],
                R::Event,
                ARITHMETIC,
                ALL_WIDTHS,
            ),
        ],
    },
    Group {
        functions: &[B::AsyncWorkGroupStridedCopy],
        since: CL1_0,
        sigs: &[
            sig(
                &[
                    ptr(Target::Gen, LOCAL, true),
                    ptr(Target::Gen, GLOBAL, false),
                    P::Size,
                    P::Size,
                    P::Event,
                ],
                R::Event,
                ARITHMETIC,
                ALL_WIDTHS,
            ),
            sig(
                &[
                    ptr(Target::Gen, GLOBAL, true),
                    ptr(Target::Gen, LOCAL, false),
                    P::Size,
                    P::Size,
                    P::Event,
                ],
                R::Event,
                ARITHMETIC,
                ALL_WIDTHS,
            ),
        ],
    },
    Group {
        functions: &[B::WaitGroupEvents],
        since: CL1_0,
        sigs: &[sig(
            &[P::Int, ptr(Target::Event, ANY_SPACE, false)],
            R::Void,
            NO_GENTYPE,
            SCALAR,
        )],
    },
    Group {
        functions: &[B::Prefetch],
        since: CL1_0,
        sigs: &[sig(
            &[ptr(Target::Gen, GLOBAL, false), P::Size],
            R::Void,
            ARITHMETIC,
            ALL_WIDTHS,
        )],
    },
];

/// One OpenCL 2.0 atomic function (OpenCL C 6.15.12), `atomic_<name>`:
/// its parameters without `_explicit` and its overloads with it (none: no
/// `_explicit` form), which add a `memory_order` (two for
/// compare-exchange: success and failure) and optionally a `memory_scope`.
/// `T` is the atomic type's value type `C`; the operand is `C` too (the
/// spec's `M`, which differs only for `atomic_(u)intptr_t`, converts to it).
struct C11AtomicRow {
    name: &'static str,
    op: C11AtomicOp,
    plain: &'static [P],
    explicit: &'static [&'static [P]],
    result: R,
    elems: Elems,
}

const ATOMIC_OBJECT: &[P] = &[ATOMIC_OBJ];
const ATOMIC_OBJECT_EXPLICIT: &[&[P]] = &[&[ATOMIC_OBJ, ORDER], &[ATOMIC_OBJ, ORDER, SCOPE]];
const ATOMIC_OBJECT_VALUE: &[P] = &[ATOMIC_OBJ, G];
const ATOMIC_OBJECT_VALUE_EXPLICIT: &[&[P]] =
    &[&[ATOMIC_OBJ, G, ORDER], &[ATOMIC_OBJ, G, ORDER, SCOPE]];
const ATOMIC_CMPXCHG: &[P] = &[ATOMIC_OBJ, ATOMIC_EXPECTED, G];
const ATOMIC_CMPXCHG_EXPLICIT: &[&[P]] = &[
    &[ATOMIC_OBJ, ATOMIC_EXPECTED, G, ORDER, ORDER],
    &[ATOMIC_OBJ, ATOMIC_EXPECTED, G, ORDER, ORDER, SCOPE],
];

const fn c11_atomic(
    name: &'static str,
    op: C11AtomicOp,
    plain: &'static [P],
    explicit: &'static [&'static [P]],
    result: R,
    elems: Elems,
) -> C11AtomicRow {
    C11AtomicRow {
        name,
        op,
        plain,
        explicit,
        result,
        elems,
    }
}

/// `atomic_fetch_<key>` on the atomic types of `elems`.
const fn fetch(name: &'static str, op: C11AtomicOp, elems: Elems) -> C11AtomicRow {
    c11_atomic(
        name,
        op,
        ATOMIC_OBJECT_VALUE,
        ATOMIC_OBJECT_VALUE_EXPLICIT,
        R::Gen,
        elems,
    )
}

/// The OpenCL 2.0 atomics. The bitwise fetch-and-modify functions exist
/// for the integer atomic types only; add, sub, min and max also for
/// `atomic_float` and `atomic_double` (`cl_ext_float_atomics`, which every
/// device reports, see `DeviceCaps::float_atomics`); the flag functions
/// for `atomic_flag`.
const C11_ATOMICS: &[C11AtomicRow] = &[
    c11_atomic(
        "init",
        C11AtomicOp::Init,
        ATOMIC_OBJECT_VALUE,
        &[],
        R::Void,
        ATOMIC_VALUES,
    ),
    c11_atomic(
        "store",
        C11AtomicOp::Store,
        ATOMIC_OBJECT_VALUE,
        ATOMIC_OBJECT_VALUE_EXPLICIT,
        R::Void,
        ATOMIC_VALUES,
    ),
    c11_atomic(
        "load",
        C11AtomicOp::Load,
        ATOMIC_OBJECT,
        ATOMIC_OBJECT_EXPLICIT,
        R::Gen,
        ATOMIC_VALUES,
    ),
    c11_atomic(
        "exchange",
        C11AtomicOp::Exchange,
        ATOMIC_OBJECT_VALUE,
        ATOMIC_OBJECT_VALUE_EXPLICIT,
        R::Gen,
        ATOMIC_VALUES,
    ),
    c11_atomic(
        "compare_exchange_strong",
        C11AtomicOp::CompareExchangeStrong,
        ATOMIC_CMPXCHG,
        ATOMIC_CMPXCHG_EXPLICIT,
        R::Bool,
        ATOMIC_VALUES,
    ),
    c11_atomic(
        "compare_exchange_weak",
        C11AtomicOp::CompareExchangeWeak,
        ATOMIC_CMPXCHG,
        ATOMIC_CMPXCHG_EXPLICIT,
        R::Bool,
        ATOMIC_VALUES,
    ),
    fetch("fetch_add", C11AtomicOp::FetchAdd, ATOMIC_VALUES),
    fetch("fetch_sub", C11AtomicOp::FetchSub, ATOMIC_VALUES),
    fetch("fetch_or", C11AtomicOp::FetchOr, ATOMIC64),
    fetch("fetch_xor", C11AtomicOp::FetchXor, ATOMIC64),
    fetch("fetch_and", C11AtomicOp::FetchAnd, ATOMIC64),
    fetch("fetch_min", C11AtomicOp::FetchMin, ATOMIC_VALUES),
    fetch("fetch_max", C11AtomicOp::FetchMax, ATOMIC_VALUES),
    c11_atomic(
        "flag_test_and_set",
        C11AtomicOp::FlagTestAndSet,
        ATOMIC_OBJECT,
        ATOMIC_OBJECT_EXPLICIT,
        R::Bool,
        ATOMIC_FLAG,
    ),
    c11_atomic(
        "flag_clear",
        C11AtomicOp::FlagClear,
        ATOMIC_OBJECT,
        ATOMIC_OBJECT_EXPLICIT,
        R::Void,
        ATOMIC_FLAG,
    ),
];

// Vector data loads and stores: loads read any address space, stores
// write any but `__constant`.
const VLOAD: &[P] = &[P::Size, ptr(Target::Elem, ANY_SPACE, false)];
const VSTORE: &[P] = &[G, P::Size, ptr(Target::Elem, WRITABLE, true)];
const VLOAD_HALF: &[P] = &[P::Size, ptr(Target::Half, ANY_SPACE, false)];
const VSTORE_HALF: &[P] = &[G, P::Size, ptr(Target::Half, WRITABLE, true)];

/// The overloads of `b` and the OpenCL C version that introduced it; empty
/// for the conversions, which [`resolve`] handles by themselves.
fn overloads(b: Builtin) -> ((u32, u32), Vec<Sig>) {
    let only = |n: u8| Widths(1 << n);
    match b {
        // The OpenCL 1.x atomics, one table in the spec: the 32-bit
        // `atomic_*` (1.1) on `int`/`uint` plus `float` for `xchg`, and the
        // extensions' `atom_*`, also on 64-bit integers.
        Builtin::Atomic { op, legacy } => {
            let elems = match (legacy, op) {
                (true, _) => ATOMIC64,
                (false, AtomicOp::Xchg) => ATOMIC_XCHG,
                (false, _) => INT32,
            };
            let params: &'static [P] = match op {
                AtomicOp::Inc | AtomicOp::Dec => &[ATOMIC_PTR],
                AtomicOp::Cmpxchg => &[ATOMIC_PTR, G, G],
                _ => &[ATOMIC_PTR, G],
            };
            let since = if legacy { CL1_0 } else { CL1_1 };
            (since, vec![sig(params, R::Gen, elems, SCALAR)])
        }
        Builtin::C11Atomic { op, explicit } => {
            let row = op.row();
            let forms = if explicit {
                row.explicit
            } else {
                std::slice::from_ref(&row.plain)
            };
            let sigs = forms
                .iter()
                .map(|params| sig(params, row.result, row.elems, SCALAR))
                .collect();
            (CL2_0, sigs)
        }
        // The width of a load or store comes from its name.
        Builtin::Vload(n) => (CL1_0, vec![sig(VLOAD, R::Gen, ARITHMETIC, only(n))]),
        Builtin::Vstore(n) => (CL1_0, vec![sig(VSTORE, R::Void, ARITHMETIC, only(n))]),
        Builtin::VloadHalf(n) | Builtin::VloadaHalf(n) => {
            (CL1_0, vec![sig(VLOAD_HALF, R::Gen, FLOAT_ONLY, only(n))])
        }
        Builtin::VstoreHalf(n, _) | Builtin::VstoreaHalf(n, _) => {
            (CL1_0, vec![sig(VSTORE_HALF, R::Void, STORE_HALF, only(n))])
        }
        Builtin::Convert(_) | Builtin::As(..) => (CL1_0, Vec::new()),
        _ => GROUPS
            .iter()
            .find(|g| g.functions.contains(&b))
            .map_or((CL1_0, Vec::new()), |g| (g.since, g.sigs.to_vec())),
    }
}

// ---- Resolution ----

/// A resolved call: the built-in, the types to convert each argument to,
/// and the result type. A pointer parameter has exactly its argument's type.
#[derive(Debug, PartialEq)]
pub struct Resolved {
    pub builtin: Builtin,
    pub params: Vec<Type>,
    pub result: Type,
}

/// Picks the overload of the built-in `name` for arguments of types
/// `args`, whose compound parts are in `types` (results may add to it);
/// `names` spells record types in messages. `Err` says why none fits, in
/// clang's words where clang has them.
pub fn resolve(
    name: &str,
    args: &[Type],
    ctx: &BuiltinContext,
    types: &mut Types,
    names: &Names,
) -> Result<Resolved, String> {
    let Some(builtin) = Builtin::from_name(name) else {
        // An entry covers its name and the names it starts
        // (`atomic_load_explicit`); one ending in `_` is a prefix.
        let covered = |p: &&str| {
            name.strip_prefix(*p)
                .is_some_and(|rest| rest.is_empty() || p.ends_with('_') || rest.starts_with('_'))
        };
        if NOT_SUPPORTED.iter().any(covered) {
            return Err(format!(
                "built-in function '{name}' is not supported yet by this translator"
            ));
        }
        return Err(format!("use of undeclared identifier '{name}'"));
    };
    let no_match = |types: &Types| {
        let list: Vec<String> = args.iter().map(|&a| types.display(a, names)).collect();
        format!(
            "no matching function for call to '{name}' with arguments ({})",
            list.join(", ")
        )
    };
    match builtin {
        Builtin::Convert(c) => {
            return convert(builtin, c.to, c.width, args, ctx, || no_match(types))
        }
        Builtin::As(s, n) => return convert(builtin, s, n, args, ctx, || no_match(types)),
        _ => {}
    }
    let (since, sigs) = overloads(builtin);
    if ctx.cl_std < since {
        return Err(format!(
            "use of undeclared identifier '{name}' (it needs OpenCL C {}.{} or newer)",
            since.0, since.1
        ));
    }
    if !sigs.iter().any(|s| s.params.len() == args.len()) {
        let fewest = sigs.iter().map(|s| s.params.len()).min().unwrap_or(0);
        let most = sigs.iter().map(|s| s.params.len()).max().unwrap_or(0);
        let (which, expected) = if args.len() > most {
            ("many", most)
        } else if args.len() < fewest {
            ("few", fewest)
        } else {
            return Err(no_match(types));
        };
        return Err(format!(
            "too {which} arguments to function call '{name}', expected {expected}, have {}",
            args.len()
        ));
    }
    // The overload needing the fewest conversions wins; on a tie, the first
    // in the table (the spec's `gentype` form before its `sgentype` form,
    // which convert the arguments the same way).
    let mut best: Option<(usize, Vec<Type>, Type)> = None;
    for sig in sigs.iter().filter(|s| s.params.len() == args.len()) {
        if let Some((params, result)) = try_signature(sig, args, ctx, types) {
            let cost = params.iter().zip(args).filter(|(p, a)| p != a).count();
            if best.as_ref().is_none_or(|(c, _, _)| cost < *c) {
                best = Some((cost, params, result));
            }
        }
    }
    let (_, params, result) = best.ok_or_else(|| no_match(types))?;
    Ok(Resolved {
        builtin,
        params,
        result,
    })
}

/// `convert_*` and `as_*`: one argument of any arithmetic type, taken as
/// it is, and a result of the type in the name.
fn convert(
    builtin: Builtin,
    to: Scalar,
    width: u8,
    args: &[Type],
    ctx: &BuiltinContext,
    no_match: impl Fn() -> String,
) -> Result<Resolved, String> {
    if to == Scalar::Double && !ctx.float64 {
        return Err(format!(
            "built-in function '{builtin}' needs type 'double', which this device does not support (cl_khr_fp64)"
        ));
    }
    if to == Scalar::Half && !ctx.float16 {
        return Err(format!(
            "built-in function '{builtin}' needs type 'half', which is not enabled (cl_khr_fp16)"
        ));
    }
    let [arg] = args else {
        let which = if args.len() > 1 { "many" } else { "few" };
        return Err(format!(
            "too {which} arguments to function call '{builtin}', expected 1, have {}",
            args.len()
        ));
    };
    let result = gentype(to, width);
    let param = match (builtin, arg) {
        // `as_*` reinterprets the bytes: the sizes must match, 3-vectors
        // counting as 4 lanes (OpenCL C 6.4.4.2, as clang's
        // `__builtin_astype`).
        (Builtin::As(..), Type::Scalar(s) | Type::Vector(s, _)) if *s != Scalar::Bool => {
            let lanes = |t: &Type| match t {
                Type::Vector(_, n) => u32::from(storage_lanes(*n)),
                _ => 1,
            };
            let bytes = |t: &Type, s: Scalar| lanes(t) * s.size();
            if bytes(arg, *s) != bytes(&result, to) {
                return Err(no_match());
            }
            *arg
        }
        (Builtin::As(..), _) => return Err(no_match()),
        // `convert_*` keeps the lane count; `bool` promotes to `int` first,
        // as it does for clang's overloads.
        (_, Type::Scalar(Scalar::Bool)) if width == 1 => Type::INT,
        (_, Type::Scalar(_)) if width == 1 => *arg,
        (_, Type::Vector(_, n)) if *n == width => *arg,
        _ => return Err(no_match()),
    };
    Ok(Resolved {
        builtin,
        params: vec![param],
        result,
    })
}

fn gentype(elem: Scalar, width: u8) -> Type {
    if width == 1 {
        Type::Scalar(elem)
    } else {
        Type::Vector(elem, width)
    }
}

/// The overload's gentype `T`.
#[derive(Clone, Copy, Debug)]
struct Gentype {
    elem: Scalar,
    width: u8,
}

impl Gentype {
    fn ty(self) -> Type {
        gentype(self.elem, self.width)
    }

    fn with(self, elem: Scalar) -> Type {
        gentype(elem, self.width)
    }

    fn with_width(self, width: u8) -> Type {
        gentype(self.elem, width)
    }
}

/// Records `value` in `slot`; `None` when it disagrees with what is there.
fn agree<T: PartialEq + Copy>(slot: &mut Option<T>, value: T) -> Option<()> {
    match *slot {
        Some(v) if v != value => None,
        _ => {
            *slot = Some(value);
            Some(())
        }
    }
}

fn float_of_size(bytes: u32) -> Option<Scalar> {
    match bytes {
        2 => Some(Scalar::Half),
        4 => Some(Scalar::Float),
        8 => Some(Scalar::Double),
        _ => None,
    }
}

fn int_of_size(bytes: u32, signed: bool) -> Scalar {
    let s = match bytes {
        1 => Scalar::Char,
        2 => Scalar::Short,
        4 => Scalar::Int,
        _ => Scalar::Long,
    };
    if signed {
        s
    } else {
        s.to_unsigned()
    }
}

/// Infers `T` for `sig` from the arguments. Vector and pointer arguments
/// fix it exactly, since OpenCL C has no implicit conversions between
/// vector types and pointers must match; scalar arguments only suggest an
/// element, combined with the usual arithmetic conversions, which picks
/// `float` for `clamp(x, 0, 1)` and `pow(x, 2)` and keeps `char` for
/// `min(char, char)`.
fn infer(sig: &Sig, args: &[Type], ctx: &BuiltinContext, types: &Types) -> Option<Gentype> {
    let mut elem: Option<Scalar> = None;
    let mut width: Option<u8> = None;
    let mut suggested: Option<Scalar> = None;
    for (p, a) in sig.params.iter().zip(args) {
        match (p, a) {
            (P::Gen, Type::Vector(s, n)) => {
                agree(&mut elem, *s)?;
                agree(&mut width, *n)?;
            }
            (P::Gen | P::Sgen, Type::Scalar(s)) => {
                suggested = Some(match suggested {
                    Some(prev) if prev != *s => common_scalar(prev, *s),
                    _ => *s,
                });
            }
            (P::IntN | P::UGen | P::Mask, Type::Vector(_, n)) => agree(&mut width, *n)?,
            (P::NanCode, Type::Vector(s, n)) => {
                agree(&mut width, *n)?;
                agree(&mut elem, float_of_size(s.size())?)?;
            }
            (P::NanCode, Type::Scalar(s)) => {
                if let Some(f) = float_of_size(s.size()) {
                    agree(&mut elem, f)?;
                }
            }
            (P::Ptr(ptr), Type::Pointer(pointee)) => match (ptr.to, types[*pointee].ty) {
                (Target::Gen, Type::Scalar(s)) => {
                    agree(&mut elem, s)?;
                    agree(&mut width, 1)?;
                }
                (Target::Gen, Type::Vector(s, n)) => {
                    agree(&mut elem, s)?;
                    agree(&mut width, n)?;
                }
                (Target::Elem, Type::Scalar(s)) => agree(&mut elem, s)?,
                (Target::IntN, Type::Scalar(_)) => agree(&mut width, 1)?,
                (Target::IntN, Type::Vector(_, n)) => agree(&mut width, n)?,
                _ => {}
            },
            _ => {}
        }
    }
    let width = match width {
        Some(n) => n,
        None if sig.widths.contains(1) => 1,
        None => sig.widths.single()?,
    };
    if !sig.widths.contains(width) {
        return None;
    }
    let elem = match elem {
        Some(s) if sig.elems.allows(s, ctx) => s,
        Some(_) => return None,
        None => {
            // A suggested element the overload lacks: integers promote
            // (`mad24(char, char, char)` is `int`), and anything converts
            // to `float` where `float` is the only sensible choice
            // (`sqrt(2)`, `native_sin(1.0)`).
            let candidates = suggested
                .into_iter()
                .flat_map(|s| [s, promote(s)])
                .chain([Scalar::Float]);
            let mut pick = None;
            for s in candidates {
                if sig.elems.allows(s, ctx) {
                    pick = Some(s);
                    break;
                }
            }
            let pick = pick?;
            // A floating argument never silently becomes an integer
            // gentype (`abs(1.5f)` has no overload).
            if suggested.is_some_and(Scalar::is_float) && pick.is_integer() {
                return None;
            }
            pick
        }
    };
    Some(Gentype { elem, width })
}

fn try_signature(
    sig: &Sig,
    args: &[Type],
    ctx: &BuiltinContext,
    types: &mut Types,
) -> Option<(Vec<Type>, Type)> {
    let t = infer(sig, args, ctx, types)?;
    let params = sig
        .params
        .iter()
        .zip(args)
        .map(|(p, a)| parameter(*p, a, t, ctx, types))
        .collect::<Option<Vec<Type>>>()?;
    Some((params, result(sig, args, t, ctx, types)?))
}

/// The type argument `arg` converts to for parameter `p` of the overload
/// with gentype `t`, or `None` when it cannot.
fn parameter(p: P, arg: &Type, t: Gentype, ctx: &BuiltinContext, types: &Types) -> Option<Type> {
    // An integer-valued parameter of type `want`: an exact vector, or any
    // integer scalar (converted, and widened for vectors).
    let integer = |want: Type| match arg {
        Type::Vector(..) if *arg == want => Some(want),
        Type::Scalar(s) if s.is_integer() => Some(want),
        _ => None,
    };
    match p {
        P::Gen => match arg {
            Type::Vector(..) if *arg == t.ty() => Some(t.ty()),
            Type::Scalar(_) => Some(t.ty()),
            _ => None,
        },
        P::Sgen => match arg {
            Type::Scalar(_) => Some(t.ty()),
            _ => None,
        },
        P::IntN => integer(t.with(Scalar::Int)),
        P::UGen => integer(t.with(t.elem.to_unsigned())),
        P::NanCode => integer(t.with(int_of_size(t.elem.size(), false))),
        P::Mask => match arg {
            Type::Vector(s, n) if s.is_integer() && s.size() == t.elem.size() && *n == t.width => {
                Some(*arg)
            }
            Type::Scalar(s) if s.is_integer() && t.width == 1 => Some(Type::Scalar(int_of_size(
                t.elem.size(),
                *s == Scalar::Bool || s.is_signed(),
            ))),
            _ => None,
        },
        P::Uint => integer_scalar(arg, Type::UINT),
        P::Int => integer_scalar(arg, Type::INT),
        P::Size => integer_scalar(arg, Type::Scalar(ctx.size_type)),
        P::Event => match arg {
            Type::Opaque(Opaque::Event) => Some(*arg),
            Type::Scalar(s) if s.is_integer() => Some(EVENT),
            _ => None,
        },
        P::ShuffleMask => match arg {
            Type::Vector(s, n)
                if *s == int_of_size(t.elem.size(), false) && SHUFFLE.contains(*n) =>
            {
                Some(*arg)
            }
            _ => None,
        },
        P::AnyPtr(spaces) => types
            .pointee(*arg)
            .filter(|p| spaces.contains(p.space))
            .map(|_| *arg),
        P::Ptr(ptr) => {
            let pointee = types.pointee(*arg)?;
            let want = match ptr.to {
                Target::Gen => t.ty(),
                Target::Elem => Type::Scalar(t.elem),
                Target::IntN => t.with(Scalar::Int),
                Target::Half => Type::Scalar(Scalar::Half),
                Target::Event => EVENT,
            };
            let fits = pointee.ty == want
                && ptr.spaces.contains(pointee.space)
                && !(ptr.writes && pointee.is_const);
            fits.then_some(*arg)
        }
    }
}

fn integer_scalar(arg: &Type, want: Type) -> Option<Type> {
    matches!(arg, Type::Scalar(s) if s.is_integer()).then_some(want)
}

const EVENT: Type = Type::Opaque(Opaque::Event);

/// The result type of the overload `sig` with gentype `t` for arguments
/// `args` (which have been checked against it).
fn result(
    sig: &Sig,
    args: &[Type],
    t: Gentype,
    ctx: &BuiltinContext,
    types: &mut Types,
) -> Option<Type> {
    // The argument of the first parameter `is` picks.
    let arg_for = |is: fn(&P) -> bool| {
        sig.params
            .iter()
            .zip(args)
            .find_map(|(p, a)| is(p).then_some(a))
    };
    Some(match sig.result {
        R::Void => Type::Void,
        R::Gen => t.ty(),
        R::Elem => Type::Scalar(t.elem),
        R::IntN => t.with(Scalar::Int),
        R::UGen => t.with(t.elem.to_unsigned()),
        R::Relational if t.width == 1 => Type::INT,
        R::Relational => t.with(t.elem.to_signed_int()),
        R::Upsample => t.with(int_of_size(t.elem.size() * 2, t.elem.is_signed())),
        R::Int => Type::INT,
        R::Uint => Type::UINT,
        R::Size => Type::Scalar(ctx.size_type),
        R::Event => EVENT,
        R::Bool => Type::BOOL,
        R::Shuffle => match arg_for(|p| matches!(p, P::ShuffleMask))? {
            Type::Vector(_, n) => t.with_width(*n),
            _ => return None,
        },
        R::Cast(space) => {
            let pointee = *types.pointee(*arg_for(|p| matches!(p, P::AnyPtr(_)))?)?;
            types.pointer(Pointee { space, ..pointee })
        }
    })
}

/// The usual arithmetic conversions for two scalars (C99 6.3.1.8), after
/// integer promotion.
pub fn common_scalar(a: Scalar, b: Scalar) -> Scalar {
    let (a, b) = (promote(a), promote(b));
    if a == b {
        return a;
    }
    if a.is_float() || b.is_float() {
        return if a.rank() >= b.rank() { a } else { b };
    }
    if a.is_signed() == b.is_signed() {
        return if a.rank() >= b.rank() { a } else { b };
    }
    let (signed, unsigned) = if a.is_signed() { (a, b) } else { (b, a) };
    if unsigned.rank() >= signed.rank() {
        unsigned
    } else if signed.size() > unsigned.size() {
        signed
    } else {
        signed.to_unsigned()
    }
}

/// Integer promotion: everything below `int` becomes `int`.
pub fn promote(s: Scalar) -> Scalar {
    if s.is_integer() && s.rank() < Scalar::Int.rank() {
        Scalar::Int
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CTX: BuiltinContext = BuiltinContext {
        size_type: Scalar::ULong,
        float64: true,
        float16: false,
        cl_std: (3, 0),
    };

    fn v(s: Scalar, n: u8) -> Type {
        Type::Vector(s, n)
    }

    fn sc(s: Scalar) -> Type {
        Type::Scalar(s)
    }

    thread_local! {
        /// The types of every test's arguments, as a program's would be.
        static TYPES: std::cell::RefCell<Types> = std::cell::RefCell::new(Types::new(64));
    }

    fn ptr_to(ty: Type, space: AddressSpace, is_const: bool) -> Type {
        TYPES.with(|types| {
            types.borrow_mut().pointer(Pointee {
                ty,
                is_const,
                is_volatile: false,
                space,
                endian_host: false,
            })
        })
    }

    fn resolve(name: &str, args: &[Type], ctx: &BuiltinContext) -> Result<Resolved, String> {
        TYPES.with(|types| {
            super::resolve(name, args, ctx, &mut types.borrow_mut(), &Names::default())
        })
    }

    fn ok(name: &str, args: &[Type]) -> Resolved {
        ok_in(name, args, &CTX)
    }

    fn ok_in(name: &str, args: &[Type], ctx: &BuiltinContext) -> Resolved {
        match resolve(name, args, ctx) {
            Ok(r) => r,
            Err(e) => panic!("{name}: {e}"),
        }
    }

    fn err(name: &str, args: &[Type]) -> String {
        err_in(name, args, &CTX)
    }

    fn err_in(name: &str, args: &[Type], ctx: &BuiltinContext) -> String {
        match resolve(name, args, ctx) {
            Ok(r) => panic!("{name} resolved to {r:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn usual_arithmetic_conversions() {
        use Scalar::*;
        assert_eq!(common_scalar(Char, UShort), Int);
        assert_eq!(common_scalar(Int, UInt), UInt);
        assert_eq!(common_scalar(Long, UInt), Long);
        assert_eq!(common_scalar(Long, ULong), ULong);
        assert_eq!(common_scalar(Int, Float), Float);
        assert_eq!(common_scalar(Double, Float), Double);
    }

    #[test]
    fn every_name_round_trips_and_has_overloads() {
        for &b in Builtin::SIMPLE {
            let name = b.to_string();
            assert_eq!(Builtin::from_name(&name), Some(b), "{name}");
            assert!(!overloads(b).1.is_empty(), "{name} has no overloads");
        }
        // Each fixed name is in exactly one group.
        for &b in Builtin::SIMPLE {
            let groups = GROUPS.iter().filter(|g| g.functions.contains(&b)).count();
            assert_eq!(groups, 1, "{b}");
        }
        for name in [
            "atom_add",
            "atomic_cmpxchg",
            "vload3",
            "vstore16",
            "vload_half",
            "vload_half4",
            "vloada_half8",
            "vstore_half_rtz",
            "vstore_half2",
            "vstorea_half16_rtn",
            "convert_int",
            "convert_uchar4_sat_rte",
            "convert_float16_rtp",
            "as_uint3",
            "atomic_init",
            "atomic_load",
            "atomic_store_explicit",
            "atomic_compare_exchange_weak_explicit",
            "atomic_fetch_max",
            "atomic_fetch_xor_explicit",
            "atomic_flag_test_and_set",
            "atomic_flag_clear_explicit",
        ] {
            let b = Builtin::from_name(name).unwrap_or_else(|| panic!("{name}"));
            assert_eq!(b.to_string(), name);
        }
        for name in [
            "vload1",
            "vload5",
            "vload04",
            "vload",
            "vstore_half_rtq",
            "vload_half_rte",
            "convert_bool",
            "convert_float_sat",
            "convert_int5",
            "convert_int_rte_sat",
            "as_bool",
            "atomic_nand",
            "atomic_init_explicit",
            "atomic_fetch_nand",
            "atom_load",
            "atom_fetch_add",
            "atomic_load_explicit_explicit",
        ] {
            assert_eq!(Builtin::from_name(name), None, "{name}");
        }
    }

    #[test]
    fn every_c11_atomic_round_trips() {
        for row in C11_ATOMICS {
            let rows = C11_ATOMICS.iter().filter(|r| r.op == row.op).count();
            assert_eq!(rows, 1, "{}", row.name);
            for explicit in [false, true] {
                let b = Builtin::C11Atomic {
                    op: row.op,
                    explicit,
                };
                let name = b.to_string();
                if explicit && row.explicit.is_empty() {
                    assert_eq!(Builtin::from_name(&name), None, "{name}");
                    continue;
                }
                assert_eq!(Builtin::from_name(&name), Some(b), "{name}");
                assert!(!overloads(b).1.is_empty(), "{name} has no overloads");
            }
        }
    }

    #[test]
    fn work_item_functions() {
        let r = ok("get_global_id", &[Type::INT]);
        assert_eq!(
            (r.builtin, r.params, r.result),
            (Builtin::GlobalId, vec![Type::UINT], sc(Scalar::ULong))
        );
        let ctx32 = BuiltinContext {
            size_type: Scalar::UInt,
            ..CTX
        };
        assert_eq!(
            ok_in("get_local_size", &[Type::UINT], &ctx32).result,
            Type::UINT
        );
        assert_eq!(ok("get_work_dim", &[]).result, Type::UINT);
        assert_eq!(ok("get_global_linear_id", &[]).result, sc(Scalar::ULong));
        assert!(err("get_global_id", &[Type::FLOAT]).starts_with("no matching function"));
        let cl12 = BuiltinContext {
            cl_std: (1, 2),
            ..CTX
        };
        assert_eq!(
            err_in("get_enqueued_local_size", &[Type::UINT], &cl12),
            "use of undeclared identifier 'get_enqueued_local_size' (it needs OpenCL C 2.0 or newer)"
        );
    }

    #[test]
    fn arity_errors() {
        assert_eq!(
            err("sqrt", &[Type::INT, Type::INT]),
            "too many arguments to function call 'sqrt', expected 1, have 2"
        );
        assert_eq!(
            err("get_work_dim", &[Type::INT]),
            "too many arguments to function call 'get_work_dim', expected 0, have 1"
        );
        assert_eq!(
            err("fma", &[Type::FLOAT]),
            "too few arguments to function call 'fma', expected 3, have 1"
        );
        assert_eq!(
            err("work_group_barrier", &[]),
            "too few arguments to function call 'work_group_barrier', expected 1, have 0"
        );
        assert_eq!(
            err("nothing", &[]),
            "use of undeclared identifier 'nothing'"
        );
        assert_eq!(
            err("printf", &[]),
            "built-in function 'printf' is not supported yet by this translator"
        );
        assert_eq!(
            err("atomic_fetch_add", &[]),
            "too few arguments to function call 'atomic_fetch_add', expected 2, have 0"
        );
        assert_eq!(
            err("atomic_load_explicit", &[]),
            "too few arguments to function call 'atomic_load_explicit', expected 2, have 0"
        );
        assert!(err("read_imagef", &[]).contains("not supported yet"));
        assert!(err("get_image_width", &[]).contains("not supported yet"));
        assert!(err("sub_group_reduce_add", &[]).contains("not supported yet"));
        assert!(err("work_group_reserve_read_pipe", &[]).contains("not supported yet"));
        assert_eq!(
            err("work_group_reduce_mul", &[Type::INT]),
            "use of undeclared identifier 'work_group_reduce_mul'"
        );
        assert_eq!(
            err("atomic_foo", &[]),
            "use of undeclared identifier 'atomic_foo'"
        );
    }

    #[test]
    fn math_gentypes_and_literals() {
        let f4 = v(Scalar::Float, 4);
        // An integer argument converts to the float gentype.
        let r = ok("sqrt", &[Type::INT]);
        assert_eq!((r.params, r.result), (vec![Type::FLOAT], Type::FLOAT));
        let r = ok("pow", &[Type::FLOAT, Type::INT]);
        assert_eq!(r.params, vec![Type::FLOAT, Type::FLOAT]);
        let r = ok("pow", &[f4, Type::INT]);
        assert_eq!(r.params, vec![f4, f4]);
        assert_eq!(
            ok("cos", &[v(Scalar::Double, 16)]).result,
            v(Scalar::Double, 16)
        );
        assert_eq!(
            ok("atan2", &[sc(Scalar::Double), Type::FLOAT]).result,
            sc(Scalar::Double)
        );
        // No implicit conversions between vector types.
        let e = err("pow", &[f4, v(Scalar::Float, 2)]);
        assert_eq!(
            e,
            "no matching function for call to 'pow' with arguments (float4, float2)"
        );
        assert!(resolve("sin", &[v(Scalar::Int, 4)], &CTX).is_err());
        // fmin/fmax take a scalar second argument, widened.
        let r = ok("fmin", &[f4, Type::FLOAT]);
        assert_eq!(
            (r.builtin, r.params, r.result),
            (Builtin::Fmin, vec![f4, f4], f4)
        );
        assert!(resolve("fmin", &[v(Scalar::Int, 4), Type::INT], &CTX).is_err());
        // ldexp/pown/rootn take int exponents; ldexp also a scalar int.
        let r = ok("ldexp", &[f4, Type::INT]);
        assert_eq!(r.params, vec![f4, Type::INT]);
        let r = ok("pown", &[f4, v(Scalar::Int, 4)]);
        assert_eq!(r.params[1], v(Scalar::Int, 4));
        assert!(resolve("pown", &[f4, v(Scalar::Int, 2)], &CTX).is_err());
        assert_eq!(
            ok("ilogb", &[v(Scalar::Double, 3)]).result,
            v(Scalar::Int, 3)
        );
        // nan: the code's size picks the float type.
        assert_eq!(ok("nan", &[v(Scalar::UInt, 4)]).result, f4);
        assert_eq!(ok("nan", &[sc(Scalar::ULong)]).result, sc(Scalar::Double));
        assert_eq!(ok("nan", &[Type::INT]).result, Type::FLOAT);
        // half_ and native_ are float only; a double argument converts.
        assert_eq!(ok("native_sin", &[sc(Scalar::Double)]).result, Type::FLOAT);
        assert!(resolve("half_cos", &[v(Scalar::Double, 2)], &CTX).is_err());
        assert_eq!(
            ok("native_divide", &[Type::FLOAT, Type::INT]).result,
            Type::FLOAT
        );
        assert_eq!(
            ok("mad", &[Type::FLOAT, Type::FLOAT, Type::INT]).builtin,
            Builtin::Mad
        );
    }

    #[test]
    fn double_and_half_gating() {
        let no_fp64 = BuiltinContext {
            float64: false,
            ..CTX
        };
        // Without fp64 a double argument has no overload (the checker
        // would not let one exist; this is the table's own gate).
        assert!(resolve("sqrt", &[v(Scalar::Double, 2)], &no_fp64).is_err());
        assert_eq!(
            ok_in("sqrt", &[sc(Scalar::Double)], &no_fp64).result,
            Type::FLOAT
        );
        assert!(resolve("nan", &[sc(Scalar::ULong)], &no_fp64).is_err());
        assert!(err_in("convert_double", &[Type::INT], &no_fp64).contains("cl_khr_fp64"));
        assert!(err("as_half2", &[Type::INT]).contains("cl_khr_fp16"));
        assert!(resolve("sqrt", &[v(Scalar::Half, 4)], &CTX).is_err());
        let fp16 = BuiltinContext {
            float16: true,
            ..CTX
        };
        assert_eq!(
            ok_in("sqrt", &[v(Scalar::Half, 4)], &fp16).result,
            v(Scalar::Half, 4)
        );
        assert_eq!(
            ok_in("isnan", &[v(Scalar::Half, 4)], &fp16).result,
            v(Scalar::Short, 4)
        );
        assert_eq!(
            ok_in("convert_half", &[Type::FLOAT], &fp16).result,
            sc(Scalar::Half)
        );
        // vstore_half of a double needs fp64; of a float, nothing.
        let hp = ptr_to(sc(Scalar::Half), AddressSpace::Global, false);
        let args = [sc(Scalar::Double), Type::INT, hp];
        assert_eq!(ok("vstore_half", &args).params[0], sc(Scalar::Double));
        assert_eq!(ok_in("vstore_half", &args, &no_fp64).params[0], Type::FLOAT);
        assert!(resolve(
            "vstore_half2",
            &[v(Scalar::Double, 2), Type::INT, hp],
            &no_fp64
        )
        .is_err());
    }

    #[test]
    fn pointer_out_parameters() {
        let f4 = v(Scalar::Float, 4);
        for space in [
            AddressSpace::Private,
            AddressSpace::Global,
            AddressSpace::Local,
            AddressSpace::Generic,
        ] {
            let p = ptr_to(f4, space, false);
            let r = ok("sincos", &[f4, p]);
            assert_eq!((r.params, r.result), (vec![f4, p], f4));
        }
        // Not through __constant or const, and the pointee must match.
        let e = err("sincos", &[f4, ptr_to(f4, AddressSpace::Constant, false)]);
        assert_eq!(
            e,
            "no matching function for call to 'sincos' with arguments (float4, __constant float4*)"
        );
        assert!(resolve("modf", &[f4, ptr_to(f4, AddressSpace::Private, true)], &CTX).is_err());
        assert!(resolve(
            "fract",
            &[f4, ptr_to(Type::FLOAT, AddressSpace::Private, false)],
            &CTX
        )
        .is_err());
        // The pointer decides the gentype for a literal first argument.
        let dp = ptr_to(sc(Scalar::Double), AddressSpace::Private, false);
        let r = ok("fract", &[Type::INT, dp]);
        assert_eq!(r.result, sc(Scalar::Double));
        // frexp, lgamma_r, remquo write ints of the gentype's width.
        let i4 = ptr_to(v(Scalar::Int, 4), AddressSpace::Private, false);
        assert_eq!(ok("frexp", &[f4, i4]).result, f4.clone());
        assert_eq!(ok("remquo", &[f4, f4, i4]).result, f4.clone());
        assert!(resolve(
            "lgamma_r",
            &[f4, ptr_to(Type::INT, AddressSpace::Private, false)],
            &CTX
        )
        .is_err());
        assert_eq!(
            ok(
                "lgamma_r",
                &[Type::FLOAT, ptr_to(Type::INT, AddressSpace::Local, false)]
            )
            .result,
            Type::FLOAT
        );
    }

    #[test]
    fn integer_functions() {
        use Scalar::*;
        assert_eq!(ok("abs", &[Type::INT]).result, Type::UINT);
        assert_eq!(ok("abs", &[v(Char, 16)]).result, v(UChar, 16));
        assert_eq!(
            ok("abs_diff", &[v(Long, 2), v(Long, 2)]).result,
            v(ULong, 2)
        );
        assert!(resolve("abs", &[Type::FLOAT], &CTX).is_err());
        // min(char, char) stays char; mixed types use the usual conversions.
        assert_eq!(ok("min", &[sc(Char), sc(Char)]).result, sc(Char));
        assert_eq!(ok("max", &[Type::INT, Type::UINT]).result, Type::UINT);
        assert_eq!(ok("max", &[Type::FLOAT, Type::INT]).result, Type::FLOAT);
        let r = ok("clamp", &[v(UInt, 8), Type::INT, Type::INT]);
        assert_eq!(r.params, vec![v(UInt, 8); 3]);
        let r = ok("clamp", &[Type::FLOAT, Type::INT, Type::INT]);
        assert_eq!(r.result, Type::FLOAT);
        for name in ["add_sat", "hadd", "rhadd", "sub_sat", "mul_hi", "rotate"] {
            assert_eq!(
                ok(name, &[v(UShort, 3), v(UShort, 3)]).result,
                v(UShort, 3),
                "{name}"
            );
        }
        assert_eq!(
            ok("mad_sat", &[Type::INT, Type::INT, Type::INT]).result,
            Type::INT
        );
        assert_eq!(
            ok("mad_hi", &[v(ULong, 4), v(ULong, 4), v(ULong, 4)]).result,
            v(ULong, 4)
        );
        assert_eq!(ok("clz", &[sc(UChar)]).result, sc(UChar));
        assert_eq!(ok("popcount", &[v(Int, 2)]).result, v(Int, 2));
        let cl12 = BuiltinContext {
            cl_std: (1, 2),
            ..CTX
        };
        assert!(err_in("ctz", &[Type::INT], &cl12).contains("2.0"));
        assert_eq!(ok("ctz", &[Type::INT]).result, Type::INT);
        // upsample: twice as wide, signedness of the high half.
        assert_eq!(ok("upsample", &[sc(Char), sc(UChar)]).result, sc(Short));
        assert_eq!(
            ok("upsample", &[v(UInt, 4), v(UInt, 4)]).result,
            v(ULong, 4)
        );
        assert_eq!(
            ok("upsample", &[v(Short, 2), v(UShort, 2)]).result,
            v(Int, 2)
        );
        assert!(resolve("upsample", &[v(Short, 2), v(Short, 2)], &CTX).is_err());
        assert!(resolve("upsample", &[sc(Long), sc(ULong)], &CTX).is_err());
        // mad24/mul24: 32-bit only; smaller integers promote.
        assert_eq!(
            ok("mad24", &[sc(Char), sc(Char), sc(Char)]).result,
            Type::INT
        );
        assert_eq!(ok("mul24", &[v(UInt, 4), v(UInt, 4)]).result, v(UInt, 4));
        assert!(resolve("mul24", &[v(Long, 4), v(Long, 4)], &CTX).is_err());
    }

    #[test]
    fn common_and_geometric_functions() {
        use Scalar::*;
        let f4 = v(Float, 4);
        let r = ok("mix", &[f4, f4, Type::FLOAT]);
        assert_eq!(r.params, vec![f4; 3]);
        let r = ok("step", &[Type::FLOAT, f4]);
        assert_eq!((r.params, r.result), (vec![f4, f4], f4));
        let r = ok("smoothstep", &[Type::INT, Type::FLOAT, v(Double, 2)]);
        assert_eq!(r.result, v(Double, 2));
        assert_eq!(ok("sign", &[Type::INT]).result, Type::FLOAT);
        assert_eq!(ok("degrees", std::slice::from_ref(&f4)).result, f4.clone());
        assert!(resolve("mix", &[v(Int, 4), v(Int, 4), Type::INT], &CTX).is_err());
        assert_eq!(ok("cross", &[v(Float, 3), v(Float, 3)]).result, v(Float, 3));
        assert!(resolve("cross", &[v(Float, 2), v(Float, 2)], &CTX).is_err());
        assert!(resolve("cross", &[Type::FLOAT, Type::FLOAT], &CTX).is_err());
        assert_eq!(ok("dot", &[f4, f4]).result, Type::FLOAT);
        assert_eq!(ok("dot", &[Type::FLOAT, Type::FLOAT]).result, Type::FLOAT);
        assert_eq!(
            ok("distance", &[v(Double, 3), v(Double, 3)]).result,
            sc(Double)
        );
        assert_eq!(ok("length", &[v(Float, 2)]).result, Type::FLOAT);
        assert_eq!(
            ok("normalize", std::slice::from_ref(&f4)).result,
            f4.clone()
        );
        assert!(resolve("length", &[v(Float, 8)], &CTX).is_err());
        assert_eq!(
            ok("fast_length", std::slice::from_ref(&f4)).result,
            Type::FLOAT
        );
        assert!(resolve("fast_normalize", &[v(Double, 4)], &CTX).is_err());
    }

    #[test]
    fn relational_functions() {
        use Scalar::*;
        assert_eq!(ok("isequal", &[Type::FLOAT, Type::FLOAT]).result, Type::INT);
        assert_eq!(ok("isless", &[v(Float, 4), v(Float, 4)]).result, v(Int, 4));
        assert_eq!(ok("isnan", &[v(Double, 2)]).result, v(Long, 2));
        assert_eq!(ok("isinf", &[sc(Double)]).result, Type::INT);
        assert_eq!(ok("signbit", &[v(Float, 3)]).result, v(Int, 3));
        assert_eq!(ok("any", &[v(Int, 4)]).result, Type::INT);
        assert_eq!(ok("all", &[sc(Char)]).result, Type::INT);
        assert!(resolve("any", &[v(UInt, 4)], &CTX).is_err());
        assert!(resolve("any", &[v(Float, 4)], &CTX).is_err());
        assert_eq!(
            ok("bitselect", &[v(UInt, 2), v(UInt, 2), v(UInt, 2)]).result,
            v(UInt, 2)
        );
        assert_eq!(
            ok("bitselect", &[v(Float, 2), v(Float, 2), v(Float, 2)]).result,
            v(Float, 2)
        );
        // select: the mask is any integer of the element's size.
        let r = ok("select", &[v(Float, 4), v(Float, 4), v(UInt, 4)]);
        assert_eq!((r.params[2], r.result), (v(UInt, 4), v(Float, 4)));
        assert_eq!(
            ok("select", &[v(Double, 2), v(Double, 2), v(Long, 2)]).result,
            v(Double, 2)
        );
        assert!(resolve("select", &[v(Double, 2), v(Double, 2), v(Int, 2)], &CTX).is_err());
        assert!(resolve("select", &[v(Float, 4), v(Float, 4), Type::INT], &CTX).is_err());
        let r = ok("select", &[sc(Short), sc(Short), Type::INT]);
        assert_eq!(r.params[2], sc(Short));
        let r = ok("select", &[Type::FLOAT, Type::FLOAT, Type::UINT]);
        assert_eq!(r.params[2], Type::UINT);
    }

    #[test]
    fn vector_loads_and_stores() {
        use Scalar::*;
        let constant = ptr_to(Type::FLOAT, AddressSpace::Constant, true);
        let r = ok("vload4", &[Type::INT, constant]);
        assert_eq!(
            (r.builtin, r.params, r.result),
            (Builtin::Vload(4), vec![sc(ULong), constant], v(Float, 4))
        );
        let local = ptr_to(sc(UChar), AddressSpace::Local, false);
        assert_eq!(ok("vload3", &[Type::UINT, local]).result, v(UChar, 3));
        assert!(resolve(
            "vload4",
            &[Type::INT, ptr_to(v(Float, 4), AddressSpace::Global, false)],
            &CTX
        )
        .is_err());
        // Stores: data of the pointee type and width, never to __constant
        // or through const.
        let global = ptr_to(Type::FLOAT, AddressSpace::Global, false);
        let r = ok("vstore8", &[v(Float, 8), Type::INT, global]);
        assert_eq!((r.params[2], r.result), (global, Type::Void));
        let e = err("vstore4", &[v(Float, 4), Type::INT, constant]);
        assert_eq!(
            e,
            "no matching function for call to 'vstore4' with arguments (float4, int, __constant const float*)"
        );
        assert!(resolve(
            "vstore4",
            &[
                v(Float, 4),
                Type::INT,
                ptr_to(Type::FLOAT, AddressSpace::Global, true)
            ],
            &CTX
        )
        .is_err());
        assert!(resolve("vstore4", &[v(Int, 4), Type::INT, global], &CTX).is_err());
        assert!(resolve("vstore4", &[v(Float, 2), Type::INT, global], &CTX).is_err());
        // The half forms read and write half, convert from/to float.
        let half_c = ptr_to(sc(Half), AddressSpace::Constant, true);
        assert_eq!(ok("vload_half", &[Type::INT, half_c]).result, Type::FLOAT);
        assert_eq!(ok("vloada_half3", &[Type::INT, half_c]).result, v(Float, 3));
        let half_g = ptr_to(sc(Half), AddressSpace::Global, false);
        let r = ok("vstore_half4_rtz", &[v(Float, 4), Type::INT, half_g]);
        assert_eq!(r.builtin, Builtin::VstoreHalf(4, Rounding::Rtz));
        let r = ok("vstorea_half_rte", &[Type::INT, Type::INT, half_g]);
        assert_eq!(r.params[0], Type::FLOAT);
        assert!(resolve("vstore_half", &[Type::FLOAT, Type::INT, half_c], &CTX).is_err());
    }

    #[test]
    fn synchronization_and_atomics() {
        use Scalar::*;
        let r = ok("barrier", &[Type::UINT]);
        assert_eq!((r.params, r.result), (vec![Type::UINT], Type::Void));
        assert_eq!(ok("mem_fence", &[Type::INT]).params, vec![Type::UINT]);
        assert_eq!(
            ok("work_group_barrier", &[Type::UINT, Type::INT])
                .params
                .len(),
            2
        );
        assert_eq!(
            ok(
                "atomic_work_item_fence",
                &[Type::UINT, Type::INT, Type::INT]
            )
            .result,
            Type::Void
        );
        let gi = ptr_to(Type::INT, AddressSpace::Global, false);
        let r = ok("atomic_add", &[gi, Type::UINT]);
        assert_eq!(
            (r.builtin, r.params, r.result),
            (
                Builtin::Atomic {
                    op: AtomicOp::Add,
                    legacy: false
                },
                vec![gi, Type::INT],
                Type::INT
            )
        );
        let lu = ptr_to(Type::UINT, AddressSpace::Local, false);
        assert_eq!(
            ok("atomic_inc", std::slice::from_ref(&lu)).result,
            Type::UINT
        );
        assert_eq!(
            ok("atom_cmpxchg", &[lu, Type::INT, Type::INT]).params[1],
            Type::UINT
        );
        assert!(resolve(
            "atomic_add",
            &[ptr_to(Type::INT, AddressSpace::Private, false), Type::INT],
            &CTX
        )
        .is_err());
        let gf = ptr_to(Type::FLOAT, AddressSpace::Global, false);
        assert_eq!(ok("atomic_xchg", &[gf, Type::FLOAT]).result, Type::FLOAT);
        assert!(resolve("atomic_add", &[gf, Type::FLOAT], &CTX).is_err());
        let gl = ptr_to(sc(Long), AddressSpace::Global, false);
        assert_eq!(ok("atom_max", &[gl, Type::INT]).result, sc(Long));
        assert!(resolve("atomic_max", &[gl, Type::INT], &CTX).is_err());
        assert!(err("atomic_inc", &[]).starts_with("too few arguments"));
    }

    #[test]
    fn shuffles() {
        use Scalar::*;
        // The mask's width is the result's; its element is the unsigned
        // integer of the element's size.
        let r = ok("shuffle", &[v(Float, 4), v(UInt, 8)]);
        assert_eq!(
            (r.builtin, r.params, r.result),
            (Builtin::Shuffle, vec![v(Float, 4), v(UInt, 8)], v(Float, 8))
        );
        for m in [2, 4, 8, 16] {
            for n in [2, 4, 8, 16] {
                for (x, mask) in [
                    (Char, UChar),
                    (UChar, UChar),
                    (Short, UShort),
                    (UShort, UShort),
                    (Int, UInt),
                    (UInt, UInt),
                    (Long, ULong),
                    (ULong, ULong),
                    (Float, UInt),
                    (Double, ULong),
                ] {
                    assert_eq!(ok("shuffle", &[v(x, m), v(mask, n)]).result, v(x, n));
                    assert_eq!(
                        ok("shuffle2", &[v(x, m), v(x, m), v(mask, n)]).result,
                        v(x, n)
                    );
                }
            }
        }
        assert_eq!(
            ok("shuffle2", &[v(Double, 2), v(Double, 2), v(ULong, 16)]).result,
            v(Double, 16)
        );
        // Wrong mask types: signed, another size, scalar, 3 lanes.
        assert_eq!(
            err("shuffle", &[v(Float, 4), v(Int, 4)]),
            "no matching function for call to 'shuffle' with arguments (float4, int4)"
        );
        assert!(resolve("shuffle", &[v(Float, 4), v(UShort, 4)], &CTX).is_err());
        assert!(resolve("shuffle", &[v(Char, 4), v(UInt, 4)], &CTX).is_err());
        assert!(resolve("shuffle", &[v(Float, 4), Type::UINT], &CTX).is_err());
        assert!(resolve("shuffle", &[v(Float, 4), v(UInt, 3)], &CTX).is_err());
        assert!(resolve("shuffle", &[v(Float, 4), v(Float, 4)], &CTX).is_err());
        // x is a 2-, 4-, 8- or 16-vector; shuffle2's x and y agree.
        assert!(resolve("shuffle", &[v(Float, 3), v(UInt, 4)], &CTX).is_err());
        assert!(resolve("shuffle", &[Type::FLOAT, v(UInt, 4)], &CTX).is_err());
        assert!(resolve("shuffle2", &[v(Float, 4), v(Float, 8), v(UInt, 4)], &CTX).is_err());
        assert!(resolve("shuffle2", &[v(Float, 4), v(Int, 4), v(UInt, 4)], &CTX).is_err());
        assert!(err("shuffle2", &[v(Float, 4), v(UInt, 4)]).starts_with("too few arguments"));
        // half needs fp16, double fp64; shuffle is OpenCL C 1.0.
        assert!(resolve("shuffle", &[v(Half, 4), v(UShort, 4)], &CTX).is_err());
        let fp16 = BuiltinContext {
            float16: true,
            ..CTX
        };
        assert_eq!(
            ok_in("shuffle", &[v(Half, 4), v(UShort, 2)], &fp16).result,
            v(Half, 2)
        );
        let no_fp64 = BuiltinContext {
            float64: false,
            ..CTX
        };
        assert!(resolve("shuffle", &[v(Double, 4), v(ULong, 4)], &no_fp64).is_err());
        let cl10 = BuiltinContext {
            cl_std: (1, 0),
            ..CTX
        };
        assert_eq!(
            ok_in("shuffle", &[v(Int, 16), v(UInt, 4)], &cl10).result,
            v(Int, 4)
        );
    }

    #[test]
    fn address_space_qualifier_functions() {
        use Scalar::*;
        let generic = ptr_to(v(Float, 4), AddressSpace::Generic, false);
        let r = ok("to_global", std::slice::from_ref(&generic));
        assert_eq!(
            (r.builtin, r.params, r.result),
            (
                Builtin::ToGlobal,
                vec![generic],
                ptr_to(v(Float, 4), AddressSpace::Global, false)
            )
        );
        // Any pointee, qualifiers kept, from any space but __constant.
        let const_global = ptr_to(Type::INT, AddressSpace::Global, true);
        assert_eq!(
            ok("to_local", std::slice::from_ref(&const_global)).result,
            ptr_to(Type::INT, AddressSpace::Local, true)
        );
        let void_local = ptr_to(Type::Void, AddressSpace::Local, false);
        assert_eq!(
            ok("to_private", std::slice::from_ref(&void_local)).result,
            ptr_to(Type::Void, AddressSpace::Private, false)
        );
        let private = ptr_to(sc(Char), AddressSpace::Private, false);
        assert_eq!(
            ok("to_global", std::slice::from_ref(&private)).result,
            ptr_to(sc(Char), AddressSpace::Global, false)
        );
        for p in [&generic, &const_global, &void_local, &private] {
            let r = ok("get_fence", std::slice::from_ref(p));
            assert_eq!((r.builtin, r.result), (Builtin::GetFence, Type::UINT));
        }
        let constant = ptr_to(Type::FLOAT, AddressSpace::Constant, true);
        for name in ["to_global", "to_local", "to_private", "get_fence"] {
            assert_eq!(
                err(name, std::slice::from_ref(&constant)),
                format!("no matching function for call to '{name}' with arguments (__constant const float*)")
            );
            assert!(resolve(name, &[Type::INT], &CTX).is_err());
            assert!(err(name, &[]).starts_with("too few arguments"));
            let cl12 = BuiltinContext {
                cl_std: (1, 2),
                ..CTX
            };
            assert_eq!(
                err_in(name, std::slice::from_ref(&generic), &cl12),
                format!("use of undeclared identifier '{name}' (it needs OpenCL C 2.0 or newer)")
            );
        }
    }

    #[test]
    fn work_group_collectives() {
        use Scalar::*;
        for name in ["work_group_all", "work_group_any"] {
            let r = ok(name, &[sc(Char)]);
            assert_eq!((r.params, r.result), (vec![Type::INT], Type::INT));
            assert!(resolve(name, &[v(Int, 4)], &CTX).is_err());
        }
        let fp16 = BuiltinContext {
            float16: true,
            ..CTX
        };
        let ops = [
            "work_group_reduce_add",
            "work_group_reduce_min",
            "work_group_reduce_max",
            "work_group_scan_exclusive_add",
            "work_group_scan_exclusive_min",
            "work_group_scan_exclusive_max",
            "work_group_scan_inclusive_add",
            "work_group_scan_inclusive_min",
            "work_group_scan_inclusive_max",
        ];
        for name in ops {
            for s in [Int, UInt, Long, ULong, Float, Double] {
                let r = ok(name, &[sc(s)]);
                assert_eq!((r.params, r.result), (vec![sc(s)], sc(s)), "{name}");
            }
            // Smaller integers promote to int; no vectors.
            assert_eq!(ok(name, &[sc(UShort)]).result, Type::INT);
            // (Without fp16 a half argument converts to float, as for the
            // math functions; the checker has no half values then.)
            assert_eq!(ok(name, &[sc(Half)]).result, Type::FLOAT);
            assert_eq!(ok_in(name, &[sc(Half)], &fp16).result, sc(Half));
            assert!(resolve(name, &[v(Float, 4)], &CTX).is_err());
            assert!(resolve(name, &[v(Int, 2)], &CTX).is_err());
        }
        // Broadcast: a 1-, 2- or 3-dimensional local id of size_t.
        let r = ok("work_group_broadcast", &[Type::FLOAT, Type::INT]);
        assert_eq!(
            (r.builtin, r.params, r.result),
            (
                Builtin::WorkGroupBroadcast,
                vec![Type::FLOAT, sc(ULong)],
                Type::FLOAT
            )
        );
        let r = ok(
            "work_group_broadcast",
            &[sc(Long), Type::UINT, Type::UINT, Type::UINT],
        );
        assert_eq!(r.params, vec![sc(Long), sc(ULong), sc(ULong), sc(ULong)]);
        assert_eq!(
            ok("work_group_broadcast", &[sc(Double), Type::INT, Type::INT]).result,
            sc(Double)
        );
        assert_eq!(
            ok_in("work_group_broadcast", &[sc(Half), Type::INT], &fp16).result,
            sc(Half)
        );
        assert!(resolve("work_group_broadcast", &[v(UInt, 2), Type::INT], &CTX).is_err());
        assert!(resolve("work_group_broadcast", &[Type::INT, Type::FLOAT], &CTX).is_err());
        assert_eq!(
            err(
                "work_group_broadcast",
                &[Type::INT, Type::INT, Type::INT, Type::INT, Type::INT]
            ),
            "too many arguments to function call 'work_group_broadcast', expected 4, have 5"
        );
        assert!(err("work_group_broadcast", &[Type::INT]).starts_with("too few arguments"));
        let cl12 = BuiltinContext {
            cl_std: (1, 2),
            ..CTX
        };
        for name in ops
            .iter()
            .chain(&["work_group_all", "work_group_broadcast"])
        {
            assert_eq!(
                err_in(name, &[Type::INT, Type::INT], &cl12),
                format!("use of undeclared identifier '{name}' (it needs OpenCL C 2.0 or newer)")
            );
        }
    }

    #[test]
    fn c11_atomics() {
        use AddressSpace::*;
        use Scalar::*;
        let c11 = |op, explicit| Builtin::C11Atomic { op, explicit };
        let gi = ptr_to(Type::INT, Global, false);
        // atomic_init and atomic_store take the value type.
        let r = ok("atomic_init", &[gi, Type::UINT]);
        assert_eq!(
            (r.builtin, r.params, r.result),
            (
                c11(C11AtomicOp::Init, false),
                vec![gi, Type::INT],
                Type::Void
            )
        );
        let gf = ptr_to(Type::FLOAT, Generic, false);
        assert_eq!(
            ok("atomic_store", &[gf, Type::INT]).params,
            vec![gf, Type::FLOAT]
        );
        let lu = ptr_to(Type::UINT, Local, false);
        let r = ok(
            "atomic_store_explicit",
            &[lu, Type::INT, Type::INT, Type::INT],
        );
        assert_eq!(
            (r.builtin, r.params, r.result),
            (
                c11(C11AtomicOp::Store, true),
                vec![lu, Type::UINT, Type::INT, Type::INT],
                Type::Void
            )
        );
        assert_eq!(
            ok("atomic_store_explicit", &[lu, Type::INT, Type::INT]).result,
            Type::Void
        );
        assert_eq!(
            err("atomic_store_explicit", &[lu, Type::INT]),
            "too few arguments to function call 'atomic_store_explicit', expected 3, have 2"
        );
        assert_eq!(
            err("atomic_store", &[lu, Type::INT, Type::INT]),
            "too many arguments to function call 'atomic_store', expected 2, have 3"
        );
        // Every value type: int, uint, long, ulong, float, double (and the
        // pointer-sized ones, which are among these).
        for s in [Int, UInt, Long, ULong, Float, Double] {
            for space in [Global, Local, Generic, Private] {
                let p = ptr_to(sc(s), space, false);
                assert_eq!(ok("atomic_load", std::slice::from_ref(&p)).result, sc(s));
                assert_eq!(ok("atomic_load_explicit", &[p, Type::INT]).result, sc(s));
                assert_eq!(
                    ok("atomic_load_explicit", &[p, Type::INT, Type::INT]).result,
                    sc(s)
                );
                assert_eq!(ok("atomic_exchange", &[p, Type::INT]).result, sc(s));
                assert_eq!(
                    ok(
                        "atomic_exchange_explicit",
                        &[p, Type::INT, Type::INT, Type::INT]
                    )
                    .result,
                    sc(s)
                );
                let expected = ptr_to(sc(s), Private, false);
                for name in [
                    "atomic_compare_exchange_strong",
                    "atomic_compare_exchange_weak",
                ] {
                    let r = ok(name, &[p, expected, Type::INT]);
                    assert_eq!((r.params[2], r.result), (sc(s), Type::BOOL), "{name}");
                    let explicit = format!("{name}_explicit");
                    let mut args = vec![p, expected, Type::INT, Type::INT, Type::INT];
                    assert_eq!(ok(&explicit, &args).result, Type::BOOL);
                    args.push(Type::INT);
                    assert_eq!(ok(&explicit, &args).result, Type::BOOL);
                    assert!(err(&explicit, &args[..4]).starts_with("too few arguments"));
                }
            }
        }
        // Other element types and vectors have no atomic type.
        for t in [sc(Short), sc(UChar), v(Int, 2)] {
            let p = ptr_to(t, Global, false);
            assert!(resolve("atomic_load", std::slice::from_ref(&p), &CTX).is_err());
        }
        // double needs fp64.
        let no_fp64 = BuiltinContext {
            float64: false,
            ..CTX
        };
        let gd = ptr_to(sc(Double), Global, false);
        assert!(resolve("atomic_load", std::slice::from_ref(&gd), &no_fp64).is_err());
        // compare-exchange: `expected` points to the value type, anywhere
        // but __constant, and is written.
        for space in [Global, Local, Generic] {
            let e = ptr_to(Type::INT, space, false);
            assert!(resolve("atomic_compare_exchange_strong", &[gi, e, Type::INT], &CTX).is_ok());
        }
        for e in [
            ptr_to(Type::INT, Constant, true),
            ptr_to(Type::INT, Private, true),
            ptr_to(Type::UINT, Private, false),
            Type::INT,
        ] {
            assert!(resolve("atomic_compare_exchange_weak", &[gi, e, Type::INT], &CTX).is_err());
        }
        // Fetch-and-modify: integers; a pointer-sized unsigned object
        // takes a ptrdiff_t operand, converted.
        for key in ["add", "sub", "or", "xor", "and", "min", "max"] {
            let name = format!("atomic_fetch_{key}");
            let explicit = format!("{name}_explicit");
            for s in [Int, UInt, Long, ULong] {
                let p = ptr_to(sc(s), Local, false);
                let r = ok(&name, &[p, sc(Long)]);
                assert_eq!((r.params[1], r.result), (sc(s), sc(s)), "{name}");
                assert_eq!(ok(&explicit, &[p, Type::INT, Type::INT]).result, sc(s));
                assert_eq!(
                    ok(&explicit, &[p, Type::INT, Type::INT, Type::INT]).result,
                    sc(s)
                );
            }
            // cl_ext_float_atomics: add, sub, min and max on floats, with
            // an operand converted to the object's type; the bitwise ones
            // stay integer-only.
            let arithmetic = ["add", "sub", "min", "max"].contains(&key);
            for s in [Float, Double] {
                let p = ptr_to(sc(s), Local, false);
                let r = resolve(&name, &[p, Type::INT], &CTX);
                assert_eq!(r.is_ok(), arithmetic, "{name} on {s:?}");
                if let Ok(r) = r {
                    assert_eq!((r.params[1], r.result), (sc(s), sc(s)), "{name}");
                    let r = ok(&explicit, &[p, sc(s), Type::INT, Type::INT]);
                    assert_eq!(r.result, sc(s), "{explicit}");
                }
            }
        }
        let gd = ptr_to(sc(Double), Global, false);
        assert!(resolve("atomic_fetch_add", &[gd, sc(Double)], &no_fp64).is_err());
        // atomic_flag is int.
        let flag = ptr_to(Type::INT, Global, false);
        let r = ok("atomic_flag_test_and_set", std::slice::from_ref(&flag));
        assert_eq!(
            (r.builtin, r.result),
            (c11(C11AtomicOp::FlagTestAndSet, false), Type::BOOL)
        );
        assert_eq!(
            ok(
                "atomic_flag_test_and_set_explicit",
                &[flag, Type::INT, Type::INT]
            )
            .result,
            Type::BOOL
        );
        assert_eq!(
            ok("atomic_flag_clear", std::slice::from_ref(&flag)).result,
            Type::Void
        );
        assert_eq!(
            ok("atomic_flag_clear_explicit", &[flag, Type::INT]).result,
            Type::Void
        );
        assert!(resolve("atomic_flag_clear", std::slice::from_ref(&lu), &CTX).is_err());
        assert!(resolve("atomic_flag_test_and_set", std::slice::from_ref(&gf), &CTX).is_err());
        // No atomic object in __constant or behind const, whatever the
        // function.
        let constant = ptr_to(Type::INT, Constant, false);
        let const_global = ptr_to(Type::INT, Global, true);
        for obj in [constant, const_global] {
            let e = ptr_to(Type::INT, Private, false);
            for (name, rest) in [
                ("atomic_init", vec![Type::INT]),
                ("atomic_store", vec![Type::INT]),
                ("atomic_load", vec![]),
                ("atomic_load_explicit", vec![Type::INT]),
                ("atomic_exchange", vec![Type::INT]),
                ("atomic_compare_exchange_strong", vec![e, Type::INT]),
                ("atomic_fetch_add", vec![Type::INT]),
                ("atomic_fetch_max_explicit", vec![Type::INT, Type::INT]),
                ("atomic_flag_test_and_set", vec![]),
                ("atomic_flag_clear", vec![]),
            ] {
                let mut args = vec![obj];
                args.extend(rest);
                assert!(
                    err(name, &args).starts_with("no matching function"),
                    "{name}"
                );
            }
        }
        assert_eq!(
            err("atomic_load", &[ptr_to(Type::INT, Constant, false)]),
            "no matching function for call to 'atomic_load' with arguments (__constant int*)"
        );
        // OpenCL C 2.0 and newer.
        let cl12 = BuiltinContext {
            cl_std: (1, 2),
            ..CTX
        };
        for name in [
            "atomic_init",
            "atomic_load_explicit",
            "atomic_fetch_add",
            "atomic_compare_exchange_weak_explicit",
            "atomic_flag_clear",
        ] {
            assert_eq!(
                err_in(name, std::slice::from_ref(&gi), &cl12),
                format!("use of undeclared identifier '{name}' (it needs OpenCL C 2.0 or newer)")
            );
        }
        // The 1.1 atomics keep their names.
        let r = ok_in("atomic_add", &[gi, Type::INT], &cl12);
        assert_eq!(
            r.builtin,
            Builtin::Atomic {
                op: AtomicOp::Add,
                legacy: false
            }
        );
    }

    #[test]
    fn async_copies() {
        use Scalar::*;
        let local = ptr_to(v(Float, 4), AddressSpace::Local, false);
        let global = ptr_to(v(Float, 4), AddressSpace::Global, true);
        let event = EVENT;
        let r = ok(
            "async_work_group_copy",
            &[local, global, Type::INT, Type::INT],
        );
        assert_eq!(r.result, event);
        assert_eq!(r.params[3], event);
        let r = ok(
            "async_work_group_strided_copy",
            &[
                ptr_to(v(Float, 4), AddressSpace::Global, false),
                local,
                Type::INT,
                Type::INT,
                event,
            ],
        );
        assert_eq!(r.params[4], event);
        // Local to local, or const destinations, do not exist.
        assert!(resolve(
            "async_work_group_copy",
            &[local, local, Type::INT, event],
            &CTX
        )
        .is_err());
        assert!(resolve(
            "async_work_group_copy",
            &[global, local, Type::INT, event],
            &CTX
        )
        .is_err());
        let events = ptr_to(event, AddressSpace::Private, false);
        assert_eq!(
            ok("wait_group_events", &[Type::INT, events]).result,
            Type::Void
        );
        assert_eq!(ok("prefetch", &[global, sc(ULong)]).result, Type::Void);
    }

    #[test]
    fn conversions() {
        use Scalar::*;
        let r = ok("convert_int4_sat_rte", &[v(Float, 4)]);
        let c = Conversion {
            to: Int,
            width: 4,
            saturate: true,
            rounding: Rounding::Rte,
        };
        assert_eq!(
            (r.builtin, r.params, r.result),
            (Builtin::Convert(c), vec![v(Float, 4)], v(Int, 4))
        );
        assert_eq!(ok("convert_float", &[sc(ULong)]).result, Type::FLOAT);
        assert_eq!(
            ok("convert_uchar_sat", &[Type::BOOL]).params,
            vec![Type::INT]
        );
        assert_eq!(
            ok("convert_double16_rtn", &[v(Char, 16)]).result,
            v(Double, 16)
        );
        assert_eq!(
            err("convert_int4", &[v(Float, 2)]),
            "no matching function for call to 'convert_int4' with arguments (float2)"
        );
        assert!(resolve("convert_int4", &[Type::FLOAT], &CTX).is_err());
        assert!(resolve("convert_int", &[v(Float, 4)], &CTX).is_err());
        assert!(err("convert_int", &[]).starts_with("too few arguments"));
        assert_eq!(
            err("convert_float_sat", &[Type::INT]),
            "use of undeclared identifier 'convert_float_sat'"
        );
    }

    #[test]
    fn reinterpretations() {
        use Scalar::*;
        let r = ok("as_uint", &[Type::FLOAT]);
        assert_eq!(
            (r.builtin, r.params, r.result),
            (Builtin::As(UInt, 1), vec![Type::FLOAT], Type::UINT)
        );
        assert_eq!(ok("as_float4", &[v(Int, 4)]).result, v(Float, 4));
        assert_eq!(ok("as_char8", &[sc(Double)]).result, v(Char, 8));
        // 3-vectors are the size of 4-vectors.
        assert_eq!(ok("as_float3", &[v(Int, 4)]).result, v(Float, 3));
        assert_eq!(ok("as_int4", &[v(Float, 3)]).result, v(Int, 4));
        assert_eq!(ok("as_char4", &[v(Char, 3)]).result, v(Char, 4));
        assert_eq!(
            err("as_int", &[sc(Short)]),
            "no matching function for call to 'as_int' with arguments (short)"
        );
        assert!(resolve("as_float2", &[v(Float, 4)], &CTX).is_err());
        assert!(resolve("as_int", &[Type::BOOL], &CTX).is_err());
    }

    #[test]
    fn predefined_constants() {
        let value = |n: &str| {
            PREDEFINED_CONSTANTS
                .iter()
                .find(|c| c.0 == n)
                .map(|c| (c.1, c.2))
        };
        assert_eq!(value("CLK_LOCAL_MEM_FENCE"), Some((Scalar::UInt, 1)));
        assert_eq!(value("CLK_GLOBAL_MEM_FENCE"), Some((Scalar::UInt, 2)));
        assert_eq!(value("memory_order_seq_cst"), Some((Scalar::Int, 5)));
        assert_eq!(value("memory_scope_device"), Some((Scalar::Int, 2)));
    }
}
