//! The vocabulary the overload tables are written in: sets of element
//! types ([`Elems`]), widths ([`Widths`]) and address spaces, parameter
//! shapes ([`P`]) and result shapes ([`R`]) in terms of an overload's
//! gentype, and the signature and group rows built from them.

use super::{Builtin, BuiltinContext};
use crate::ast::AddressSpace;
use crate::types::Scalar;

/// A set of element types, one bit per `Scalar`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Elems(pub(super) u16);

impl Elems {
    pub(super) const fn of(list: &[Scalar]) -> Elems {
        let mut bits = 0;
        let mut i = 0;
        while i < list.len() {
            bits |= 1 << list[i] as u16;
            i += 1;
        }
        Elems(bits)
    }

    pub(super) const fn or(self, other: Elems) -> Elems {
        Elems(self.0 | other.0)
    }

    pub(super) fn contains(self, s: Scalar) -> bool {
        self.0 & (1 << s as u16) != 0
    }

    /// Contains `s`, and the device and program have it.
    pub(super) fn allows(self, s: Scalar, ctx: &BuiltinContext) -> bool {
        self.contains(s)
            && match s {
                Scalar::Double => ctx.float64,
                Scalar::Half => ctx.float16,
                _ => true,
            }
    }
}

pub(super) const FLOATS: Elems = Elems::of(&[Scalar::Half, Scalar::Float, Scalar::Double]);
/// `half_*`, `native_*` and `fast_*` are defined for `float` only.
pub(super) const FLOAT_ONLY: Elems = Elems::of(&[Scalar::Float]);
pub(super) const INTEGERS: Elems = Elems::of(&[
    Scalar::Char,
    Scalar::UChar,
    Scalar::Short,
    Scalar::UShort,
    Scalar::Int,
    Scalar::UInt,
    Scalar::Long,
    Scalar::ULong,
]);
pub(super) const SIGNED: Elems =
    Elems::of(&[Scalar::Char, Scalar::Short, Scalar::Int, Scalar::Long]);
pub(super) const INT32: Elems = Elems::of(&[Scalar::Int, Scalar::UInt]);
/// What the sub-group shuffles, broadcasts and votes take: every scalar but
/// `bool`.
pub(super) const SUB_GROUP_TYPES: Elems = INTEGERS.or(FLOATS);
/// `upsample`'s high half: everything with a type twice as wide.
pub(super) const UPSAMPLE: Elems = Elems::of(&[
    Scalar::Char,
    Scalar::UChar,
    Scalar::Short,
    Scalar::UShort,
    Scalar::Int,
    Scalar::UInt,
]);
/// Every element type but `bool`.
pub(super) const ARITHMETIC: Elems = INTEGERS.or(FLOATS);
pub(super) const ATOMIC64: Elems = INT32.or(Elems::of(&[Scalar::Long, Scalar::ULong]));
/// The value types of the OpenCL 2.0 atomic types: `atomic_int`,
/// `atomic_uint`, `atomic_long`, `atomic_ulong`, `atomic_float`,
/// `atomic_double`, and the pointer-sized ones (`size_t`'s types).
pub(super) const ATOMIC_VALUES: Elems = ATOMIC64.or(Elems::of(&[Scalar::Float, Scalar::Double]));
/// `atomic_flag`, which the checker maps to `int`.
pub(super) const ATOMIC_FLAG: Elems = Elems::of(&[Scalar::Int]);
/// The types the work-group collectives reduce, scan and broadcast.
pub(super) const COLLECTIVE: Elems = ATOMIC64.or(FLOATS);
pub(super) const ATOMIC_XCHG: Elems = INT32.or(FLOAT_ONLY);
/// `vstore_half` stores `float` and, with fp64, `double`.
pub(super) const STORE_HALF: Elems = Elems::of(&[Scalar::Float, Scalar::Double]);
/// For shapes that never mention the gentype: resolution still picks one
/// (`float`), which nothing uses.
pub(super) const NO_GENTYPE: Elems = FLOAT_ONLY;

/// A set of vector widths, bit `n` for width `n` (1: scalar).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Widths(pub(super) u32);

impl Widths {
    pub(super) const fn of(list: &[u8]) -> Widths {
        let mut bits = 0;
        let mut i = 0;
        while i < list.len() {
            bits |= 1 << list[i];
            i += 1;
        }
        Widths(bits)
    }

    pub(super) fn contains(self, n: u8) -> bool {
        n < 32 && self.0 & (1 << n) != 0
    }

    /// The width when the set has just one.
    pub(super) fn single(self) -> Option<u8> {
        (self.0.count_ones() == 1).then(|| self.0.trailing_zeros() as u8)
    }
}

pub(super) const ALL_WIDTHS: Widths = Widths::of(&[1, 2, 3, 4, 8, 16]);
/// The geometric functions take scalars and vectors of up to 4 lanes.
pub(super) const GEOMETRIC: Widths = Widths::of(&[1, 2, 3, 4]);
pub(super) const CROSS: Widths = Widths::of(&[3, 4]);
pub(super) const SCALAR: Widths = Widths::of(&[1]);
/// `shuffle` and `shuffle2` take and return 2, 4, 8 and 16 lanes.
pub(super) const SHUFFLE: Widths = Widths::of(&[2, 4, 8, 16]);

/// A set of address spaces a pointer argument may point into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Spaces(pub(super) u8);

pub(super) fn space_bit(s: AddressSpace) -> u8 {
    match s {
        AddressSpace::Private => 1,
        AddressSpace::Global => 2,
        AddressSpace::Constant => 4,
        AddressSpace::Local => 8,
        AddressSpace::Generic => 16,
    }
}

impl Spaces {
    pub(super) fn contains(self, s: AddressSpace) -> bool {
        self.0 & space_bit(s) != 0
    }
}

pub(super) const GLOBAL: Spaces = Spaces(2);
pub(super) const LOCAL: Spaces = Spaces(8);
pub(super) const GLOBAL_OR_LOCAL: Spaces = Spaces(2 | 8);
/// Where a built-in may write: everything but `__constant`.
pub(super) const WRITABLE: Spaces = Spaces(1 | 2 | 8 | 16);
/// What converts to a generic pointer: everything but `__constant`.
pub(super) const GENERIC: Spaces = WRITABLE;
pub(super) const ANY_SPACE: Spaces = Spaces(1 | 2 | 4 | 8 | 16);

/// What a pointer parameter points to, in terms of the gentype `T`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Target {
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
pub(super) struct Ptr {
    pub(super) to: Target,
    pub(super) spaces: Spaces,
    /// The built-in writes through it: no `const` pointee.
    pub(super) writes: bool,
}

/// A parameter's shape. `T` is the overload's gentype: an element type
/// and a width, inferred from the arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum P {
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
    /// `uint4`: a sub-group ballot.
    Uint4,
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

pub(super) const G: P = P::Gen;
pub(super) const S: P = P::Sgen;
pub(super) const fn ptr(to: Target, spaces: Spaces, writes: bool) -> P {
    P::Ptr(Ptr { to, spaces, writes })
}
/// A math function's out-parameter: `__global`, `__local`, `__private` or
/// generic, never `__constant`.
pub(super) const OUT_GEN: P = ptr(Target::Gen, WRITABLE, true);
pub(super) const OUT_INTN: P = ptr(Target::IntN, WRITABLE, true);
pub(super) const ATOMIC_PTR: P = ptr(Target::Gen, GLOBAL_OR_LOCAL, true);
/// An OpenCL 2.0 atomic object, `volatile A *object`: `__global`, `__local`
/// or generic (so private too, which type-checks through the generic space
/// though the spec leaves it undefined), never `__constant`; `T` is `A`'s
/// value type `C`.
pub(super) const ATOMIC_OBJ: P = ptr(Target::Gen, GENERIC, true);
/// `atomic_compare_exchange_*`'s `C *expected`, which it writes.
pub(super) const ATOMIC_EXPECTED: P = ptr(Target::Gen, GENERIC, true);
/// `memory_order` and `memory_scope`, enums (so `int`) as in clang.
pub(super) const ORDER: P = P::Int;
pub(super) const SCOPE: P = P::Int;

/// A result's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum R {
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
    /// `uint4`: a sub-group ballot.
    Uint4,
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
pub(super) struct Sig {
    pub(super) params: &'static [P],
    pub(super) result: R,
    pub(super) elems: Elems,
    pub(super) widths: Widths,
}

pub(super) const fn sig(params: &'static [P], result: R, elems: Elems, widths: Widths) -> Sig {
    Sig {
        params,
        result,
        elems,
        widths,
    }
}

/// Built-ins sharing one overload set.
pub(super) struct Group {
    pub(super) functions: &'static [Builtin],
    /// The OpenCL C version that introduced them.
    pub(super) since: (u32, u32),
    pub(super) sigs: &'static [Sig],
}

pub(super) const CL1_0: (u32, u32) = (1, 0);
pub(super) const CL1_1: (u32, u32) = (1, 1);
pub(super) const CL1_2: (u32, u32) = (1, 2);
pub(super) const CL2_0: (u32, u32) = (2, 0);
