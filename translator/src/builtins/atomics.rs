//! The OpenCL 2.0 atomics on the atomic types (OpenCL C 6.15.12): one
//! row per function, with its plain and `_explicit` parameter lists.

use super::signatures::*;
use super::C11AtomicOp;

/// One OpenCL 2.0 atomic function (OpenCL C 6.15.12), `atomic_<name>`:
/// its parameters without `_explicit` and its overloads with it (none: no
/// `_explicit` form), which add a `memory_order` (two for
/// compare-exchange: success and failure) and optionally a `memory_scope`.
/// `T` is the atomic type's value type `C`; the operand is `C` too (the
/// spec's `M`, which differs only for `atomic_(u)intptr_t`, converts to it).
pub(super) struct C11AtomicRow {
    pub(super) name: &'static str,
    pub(super) op: C11AtomicOp,
    pub(super) plain: &'static [P],
    pub(super) explicit: &'static [&'static [P]],
    pub(super) result: R,
    pub(super) elems: Elems,
}

pub(super) const ATOMIC_OBJECT: &[P] = &[ATOMIC_OBJ];
pub(super) const ATOMIC_OBJECT_EXPLICIT: &[&[P]] =
    &[&[ATOMIC_OBJ, ORDER], &[ATOMIC_OBJ, ORDER, SCOPE]];
pub(super) const ATOMIC_OBJECT_VALUE: &[P] = &[ATOMIC_OBJ, G];
pub(super) const ATOMIC_OBJECT_VALUE_EXPLICIT: &[&[P]] =
    &[&[ATOMIC_OBJ, G, ORDER], &[ATOMIC_OBJ, G, ORDER, SCOPE]];
pub(super) const ATOMIC_CMPXCHG: &[P] = &[ATOMIC_OBJ, ATOMIC_EXPECTED, G];
pub(super) const ATOMIC_CMPXCHG_EXPLICIT: &[&[P]] = &[
    &[ATOMIC_OBJ, ATOMIC_EXPECTED, G, ORDER, ORDER],
    &[ATOMIC_OBJ, ATOMIC_EXPECTED, G, ORDER, ORDER, SCOPE],
];

pub(super) const fn c11_atomic(
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
pub(super) const fn fetch(name: &'static str, op: C11AtomicOp, elems: Elems) -> C11AtomicRow {
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
pub(super) const C11_ATOMICS: &[C11AtomicRow] = &[
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

impl C11AtomicOp {
    pub(super) fn row(self) -> &'static C11AtomicRow {
        C11_ATOMICS
            .iter()
            .find(|r| r.op == self)
            .expect("every OpenCL 2.0 atomic has a row")
    }
}
