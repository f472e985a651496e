//! The overloads of every built-in, as the spec's tables list them: the
//! groups of built-ins with fixed names sharing an overload set, and
//! [`overloads`], which adds the ones whose names carry data (the 1.x
//! atomics, loads and stores, the OpenCL 2.0 atomics from `atomics`).

use super::signatures::*;
use super::{AtomicOp, Builtin, SubGroupForm};
use crate::ast::AddressSpace;

use Builtin as B;

/// The built-ins with fixed names. Rows follow the spec's tables; the
/// `sgentype` rows are listed as the spec lists them even where the
/// `gentype` row would also accept a scalar, so the table reads like the
/// spec.
pub(super) const GROUPS: &[Group] = &[
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
    // ---- Sub-group functions (cl_khr_subgroups) ----
    Group {
        functions: &[
            B::SubGroupSize,
            B::MaxSubGroupSize,
            B::NumSubGroups,
            B::EnqueuedNumSubGroups,
            B::SubGroupId,
            B::SubGroupLocalId,
        ],
        since: CL1_0,
        sigs: &[sig(&[], R::Uint, NO_GENTYPE, SCALAR)],
    },
    Group {
        functions: &[B::SubGroupBarrier],
        since: CL1_0,
        sigs: &[
            sig(&[P::Uint], R::Void, NO_GENTYPE, SCALAR),
            sig(&[P::Uint, P::Int], R::Void, NO_GENTYPE, SCALAR),
        ],
    },
    Group {
        functions: &[B::SubGroupAll, B::SubGroupAny],
        since: CL1_0,
        sigs: &[sig(&[P::Int], R::Int, NO_GENTYPE, SCALAR)],
    },
    // With cl_khr_subgroup_extended_types: `char` and `short` too, and
    // vectors for the broadcasts.
    Group {
        functions: &[B::SubGroupBroadcast],
        since: CL1_0,
        sigs: &[sig(&[G, P::Uint], R::Gen, SUB_GROUP_TYPES, ALL_WIDTHS)],
    },
    Group {
        functions: &[
            B::SubGroupReduceAdd,
            B::SubGroupReduceMin,
            B::SubGroupReduceMax,
            B::SubGroupScanExclusiveAdd,
            B::SubGroupScanExclusiveMin,
            B::SubGroupScanExclusiveMax,
            B::SubGroupScanInclusiveAdd,
            B::SubGroupScanInclusiveMin,
            B::SubGroupScanInclusiveMax,
        ],
        since: CL1_0,
        sigs: &[sig(&[G], R::Gen, SUB_GROUP_TYPES, SCALAR)],
    },
    // ---- The sub-group extensions ----
    Group {
        functions: &[
            B::SubGroupShuffle,
            B::SubGroupShuffleXor,
            B::SubGroupShuffleUp,
            B::SubGroupShuffleDown,
        ],
        since: CL1_0,
        sigs: &[sig(&[G, P::Uint], R::Gen, SUB_GROUP_TYPES, SCALAR)],
    },
    Group {
        functions: &[B::SubGroupNonUniformBroadcast],
        since: CL1_0,
        sigs: &[sig(&[G, P::Uint], R::Gen, SUB_GROUP_TYPES, ALL_WIDTHS)],
    },
    Group {
        functions: &[B::SubGroupRotate],
        since: CL1_0,
        sigs: &[sig(&[G, P::Int], R::Gen, SUB_GROUP_TYPES, SCALAR)],
    },
    Group {
        functions: &[B::SubGroupClusteredRotate],
        since: CL1_0,
        sigs: &[sig(&[G, P::Int, P::Uint], R::Gen, SUB_GROUP_TYPES, SCALAR)],
    },
    Group {
        functions: &[B::SubGroupBroadcastFirst],
        since: CL1_0,
        sigs: &[sig(&[G], R::Gen, SUB_GROUP_TYPES, SCALAR)],
    },
    Group {
        functions: &[B::SubGroupNonUniformAllEqual],
        since: CL1_0,
        sigs: &[sig(&[G], R::Int, SUB_GROUP_TYPES, SCALAR)],
    },
    Group {
        functions: &[B::SubGroupElect],
        since: CL1_0,
        sigs: &[sig(&[], R::Int, NO_GENTYPE, SCALAR)],
    },
    Group {
        functions: &[B::SubGroupNonUniformAll, B::SubGroupNonUniformAny],
        since: CL1_0,
        sigs: &[sig(&[P::Int], R::Int, NO_GENTYPE, SCALAR)],
    },
    Group {
        functions: &[B::SubGroupBallot],
        since: CL1_0,
        sigs: &[sig(&[P::Int], R::Uint4, NO_GENTYPE, SCALAR)],
    },
    Group {
        functions: &[B::SubGroupInverseBallot],
        since: CL1_0,
        sigs: &[sig(&[P::Uint4], R::Int, NO_GENTYPE, SCALAR)],
    },
    Group {
        functions: &[B::SubGroupBallotBitExtract],
        since: CL1_0,
        sigs: &[sig(&[P::Uint4, P::Uint], R::Int, NO_GENTYPE, SCALAR)],
    },
    Group {
        functions: &[
            B::SubGroupBallotBitCount,
            B::SubGroupBallotInclusiveScan,
            B::SubGroupBallotExclusiveScan,
            B::SubGroupBallotFindLsb,
            B::SubGroupBallotFindMsb,
        ],
        since: CL1_0,
        sigs: &[sig(&[P::Uint4], R::Uint, NO_GENTYPE, SCALAR)],
    },
    Group {
        functions: &[
            B::SubGroupEqMask,
            B::SubGroupGeMask,
            B::SubGroupGtMask,
            B::SubGroupLeMask,
            B::SubGroupLtMask,
        ],
        since: CL1_0,
        sigs: &[sig(&[], R::Uint4, NO_GENTYPE, SCALAR)],
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

// Vector data loads and stores: loads read any address space, stores
// write any but `__constant`.
const VLOAD: &[P] = &[P::Size, ptr(Target::Elem, ANY_SPACE, false)];
const VSTORE: &[P] = &[G, P::Size, ptr(Target::Elem, WRITABLE, true)];
const VLOAD_HALF: &[P] = &[P::Size, ptr(Target::Half, ANY_SPACE, false)];
const VSTORE_HALF: &[P] = &[G, P::Size, ptr(Target::Half, WRITABLE, true)];

/// The overloads of `b` and the OpenCL C version that introduced it; empty
/// for the conversions, which `resolve` handles by themselves.
pub(super) fn overloads(b: Builtin) -> ((u32, u32), Vec<Sig>) {
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
        Builtin::SubGroupArithmetic(op, form) => {
            // The clustered forms take the cluster size after the operand.
            let params: &'static [P] = match (op.is_logical(), form) {
                (true, SubGroupForm::ClusteredReduce) => &[P::Int, P::Uint],
                (true, _) => &[P::Int],
                (false, SubGroupForm::ClusteredReduce) => &[G, P::Uint],
                (false, _) => &[G],
            };
            let (result, elems) = match op {
                _ if op.is_logical() => (R::Int, NO_GENTYPE),
                _ if op.is_bitwise() => (R::Gen, INTEGERS),
                _ => (R::Gen, SUB_GROUP_TYPES),
            };
            (CL1_0, vec![sig(params, result, elems, SCALAR)])
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
