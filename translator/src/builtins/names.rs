//! The names of the built-ins: the [`Builtin`] enum (one variant per name
//! family, the data a name carries in it), spelling a built-in, and
//! reading a call's name back, including the names that are parsed rather
//! than listed (`convert_*`, `as_*`, `vload<n>`, the atomics); and the
//! families known but not supported yet.

use super::atomics::C11_ATOMICS;
use super::images::ImageBuiltin;
use crate::types::{Scalar, VECTOR_WIDTHS};
use std::fmt;

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
            /// The image functions (`read_imagef`, `get_image_width`, ...).
            Image(ImageBuiltin),
            /// `sub_group_non_uniform_{reduce,scan_inclusive,scan_exclusive}_<op>`
            /// (`cl_khr_subgroup_non_uniform_arithmetic`) and
            /// `sub_group_clustered_reduce_<op>`
            /// (`cl_khr_subgroup_clustered_reduce`).
            SubGroupArithmetic(SubGroupOp, SubGroupForm),
        }

        impl Builtin {
            /// Every built-in named by a fixed identifier (for the tests'
            /// completeness checks).
            #[cfg(test)]
            pub(super) const SIMPLE: &'static [Builtin] = &[$(Builtin::$variant,)*];

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
    // Sub-group functions (cl_khr_subgroups).
    SubGroupSize = "get_sub_group_size",
    MaxSubGroupSize = "get_max_sub_group_size",
    NumSubGroups = "get_num_sub_groups",
    EnqueuedNumSubGroups = "get_enqueued_num_sub_groups",
    SubGroupId = "get_sub_group_id",
    SubGroupLocalId = "get_sub_group_local_id",
    SubGroupBarrier = "sub_group_barrier",
    SubGroupAll = "sub_group_all",
    SubGroupAny = "sub_group_any",
    SubGroupBroadcast = "sub_group_broadcast",
    SubGroupReduceAdd = "sub_group_reduce_add",
    SubGroupReduceMin = "sub_group_reduce_min",
    SubGroupReduceMax = "sub_group_reduce_max",
    SubGroupScanExclusiveAdd = "sub_group_scan_exclusive_add",
    SubGroupScanExclusiveMin = "sub_group_scan_exclusive_min",
    SubGroupScanExclusiveMax = "sub_group_scan_exclusive_max",
    SubGroupScanInclusiveAdd = "sub_group_scan_inclusive_add",
    SubGroupScanInclusiveMin = "sub_group_scan_inclusive_min",
    SubGroupScanInclusiveMax = "sub_group_scan_inclusive_max",
    // cl_khr_subgroup_shuffle, _shuffle_relative and _rotate.
    SubGroupShuffle = "sub_group_shuffle",
    SubGroupShuffleXor = "sub_group_shuffle_xor",
    SubGroupShuffleUp = "sub_group_shuffle_up",
    SubGroupShuffleDown = "sub_group_shuffle_down",
    SubGroupRotate = "sub_group_rotate",
    SubGroupClusteredRotate = "sub_group_clustered_rotate",
    // cl_khr_subgroup_non_uniform_vote.
    SubGroupElect = "sub_group_elect",
    SubGroupNonUniformAll = "sub_group_non_uniform_all",
    SubGroupNonUniformAny = "sub_group_non_uniform_any",
    SubGroupNonUniformAllEqual = "sub_group_non_uniform_all_equal",
    // cl_khr_subgroup_ballot.
    SubGroupNonUniformBroadcast = "sub_group_non_uniform_broadcast",
    SubGroupBroadcastFirst = "sub_group_broadcast_first",
    SubGroupBallot = "sub_group_ballot",
    SubGroupInverseBallot = "sub_group_inverse_ballot",
    SubGroupBallotBitExtract = "sub_group_ballot_bit_extract",
    SubGroupBallotBitCount = "sub_group_ballot_bit_count",
    SubGroupBallotInclusiveScan = "sub_group_ballot_inclusive_scan",
    SubGroupBallotExclusiveScan = "sub_group_ballot_exclusive_scan",
    SubGroupBallotFindLsb = "sub_group_ballot_find_lsb",
    SubGroupBallotFindMsb = "sub_group_ballot_find_msb",
    SubGroupEqMask = "get_sub_group_eq_mask",
    SubGroupGeMask = "get_sub_group_ge_mask",
    SubGroupGtMask = "get_sub_group_gt_mask",
    SubGroupLeMask = "get_sub_group_le_mask",
    SubGroupLtMask = "get_sub_group_lt_mask",
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
            Builtin::SubGroupArithmetic(op, form) => {
                write!(f, "sub_group_{}_{}", form.name(), op.name())
            }
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
            Builtin::Image(b) => write!(f, "{b}"),
            _ => f.write_str("?"),
        }
    }
}

impl Builtin {
    /// Whether `self` is a sub-group function (of `cl_khr_subgroups` or
    /// the extensions after it).
    pub fn is_sub_group(self) -> bool {
        self.sub_group_extension().is_some()
    }

    /// The sub-group extension that gives `self`. Every one is made of
    /// the subgroup operations `cl_khr_subgroups` needs
    /// (`caps::SubgroupOps::khr_subgroups`), so a device has all or none.
    pub fn sub_group_extension(self) -> Option<&'static str> {
        use Builtin as B;
        Some(match self {
            B::SubGroupShuffle | B::SubGroupShuffleXor => "cl_khr_subgroup_shuffle",
            B::SubGroupShuffleUp | B::SubGroupShuffleDown => "cl_khr_subgroup_shuffle_relative",
            B::SubGroupRotate | B::SubGroupClusteredRotate => "cl_khr_subgroup_rotate",
            B::SubGroupElect
            | B::SubGroupNonUniformAll
            | B::SubGroupNonUniformAny
            | B::SubGroupNonUniformAllEqual => "cl_khr_subgroup_non_uniform_vote",
            B::SubGroupNonUniformBroadcast
            | B::SubGroupBroadcastFirst
            | B::SubGroupBallot
            | B::SubGroupInverseBallot
            | B::SubGroupBallotBitExtract
            | B::SubGroupBallotBitCount
            | B::SubGroupBallotInclusiveScan
            | B::SubGroupBallotExclusiveScan
            | B::SubGroupBallotFindLsb
            | B::SubGroupBallotFindMsb
            | B::SubGroupEqMask
            | B::SubGroupGeMask
            | B::SubGroupGtMask
            | B::SubGroupLeMask
            | B::SubGroupLtMask => "cl_khr_subgroup_ballot",
            B::SubGroupArithmetic(_, SubGroupForm::ClusteredReduce) => {
                "cl_khr_subgroup_clustered_reduce"
            }
            B::SubGroupArithmetic(..) => "cl_khr_subgroup_non_uniform_arithmetic",
            _ if self.is_khr_sub_group() => "cl_khr_subgroups",
            _ => return None,
        })
    }

    /// Whether `self` is one of `cl_khr_subgroups`'s own functions.
    fn is_khr_sub_group(self) -> bool {
        use Builtin as B;
        matches!(
            self,
            B::SubGroupSize
                | B::MaxSubGroupSize
                | B::NumSubGroups
                | B::EnqueuedNumSubGroups
                | B::SubGroupId
                | B::SubGroupLocalId
                | B::SubGroupBarrier
                | B::SubGroupAll
                | B::SubGroupAny
                | B::SubGroupBroadcast
                | B::SubGroupReduceAdd
                | B::SubGroupReduceMin
                | B::SubGroupReduceMax
                | B::SubGroupScanExclusiveAdd
                | B::SubGroupScanExclusiveMin
                | B::SubGroupScanExclusiveMax
                | B::SubGroupScanInclusiveAdd
                | B::SubGroupScanInclusiveMin
                | B::SubGroupScanInclusiveMax
        )
    }

    /// The built-in a call to `name` means, whatever its arguments.
    pub fn from_name(name: &str) -> Option<Builtin> {
        Builtin::from_simple_name(name)
            .or_else(|| parse_atomic(name))
            .or_else(|| parse_load_store(name))
            .or_else(|| parse_convert(name).map(Builtin::Convert))
            .or_else(|| parse_as(name))
            .or_else(|| ImageBuiltin::parse(name).map(Builtin::Image))
            .or_else(|| parse_sub_group_arithmetic(name))
    }
}

/// The operation of a sub-group arithmetic function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SubGroupOp {
    Add,
    Mul,
    Min,
    Max,
    And,
    Or,
    Xor,
    LogicalAnd,
    LogicalOr,
    LogicalXor,
}

/// The operations by name, as the function names end.
const SUB_GROUP_OPS: [(&str, SubGroupOp); 10] = [
    ("add", SubGroupOp::Add),
    ("mul", SubGroupOp::Mul),
    ("min", SubGroupOp::Min),
    ("max", SubGroupOp::Max),
    ("and", SubGroupOp::And),
    ("or", SubGroupOp::Or),
    ("xor", SubGroupOp::Xor),
    ("logical_and", SubGroupOp::LogicalAnd),
    ("logical_or", SubGroupOp::LogicalOr),
    ("logical_xor", SubGroupOp::LogicalXor),
];

impl SubGroupOp {
    fn name(self) -> &'static str {
        SUB_GROUP_OPS
            .iter()
            .find(|(_, op)| *op == self)
            .map_or("", |(n, _)| n)
    }

    /// `logical_and` and the others on `int` predicates.
    pub fn is_logical(self) -> bool {
        matches!(
            self,
            SubGroupOp::LogicalAnd | SubGroupOp::LogicalOr | SubGroupOp::LogicalXor
        )
    }

    /// `and`, `or` and `xor` on integers.
    pub fn is_bitwise(self) -> bool {
        matches!(self, SubGroupOp::And | SubGroupOp::Or | SubGroupOp::Xor)
    }
}

/// Which work-items' operands a sub-group arithmetic function combines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SubGroupForm {
    /// Every active work-item's.
    NonUniformReduce,
    /// The active work-items' up to this one's.
    NonUniformInclusiveScan,
    /// The active work-items' before this one's.
    NonUniformExclusiveScan,
    /// The active work-items' of this one's cluster.
    ClusteredReduce,
}

const SUB_GROUP_FORMS: [(&str, SubGroupForm); 4] = [
    ("non_uniform_reduce", SubGroupForm::NonUniformReduce),
    (
        "non_uniform_scan_inclusive",
        SubGroupForm::NonUniformInclusiveScan,
    ),
    (
        "non_uniform_scan_exclusive",
        SubGroupForm::NonUniformExclusiveScan,
    ),
    ("clustered_reduce", SubGroupForm::ClusteredReduce),
];

impl SubGroupForm {
    fn name(self) -> &'static str {
        SUB_GROUP_FORMS
            .iter()
            .find(|(_, f)| *f == self)
            .map_or("", |(n, _)| n)
    }
}

fn parse_sub_group_arithmetic(name: &str) -> Option<Builtin> {
    let rest = name.strip_prefix("sub_group_")?;
    SUB_GROUP_FORMS.iter().find_map(|&(form_name, form)| {
        let op_name = rest.strip_prefix(form_name)?.strip_prefix('_')?;
        let &(_, op) = SUB_GROUP_OPS.iter().find(|(n, _)| *n == op_name)?;
        Some(Builtin::SubGroupArithmetic(op, form))
    })
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
    // Multi-sample images.
    "get_image_num_samples",
    // The sub-group extensions beyond cl_khr_subgroups, pipes,
    // device-side enqueue.
    "work_group_reserve_",
    "work_group_commit_",
    "sub_group_",
    "get_sub_group_",
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
