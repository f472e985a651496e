//! The pointer model. naga has no pointer values, so an OpenCL pointer
//! is lowered to a *root* (a buffer argument, a `__local` array, a private
//! variable, or one of several roots chosen at run time) plus an element
//! index. The analysis finds each pointer's roots before emission
//! ([`crate::analysis::provenance`]); this folder turns them into naga
//! variables, places, loads and stores:
//!
//! - `places.rs`: lvalues as [`Place`]s;
//! - `access.rs`: loads and stores through them;
//! - `narrow.rs`: `char`/`short` buffers held as 32-bit words;
//! - `vectors.rs`: `vloadn`/`vstoren` and the `half` forms;
//! - `values.rs` and `variables.rs`: pointer values and pointer variables;
//! - `views.rs`, `cast_memory.rs`, `integer_pointers.rs`,
//!   `program_pointers.rs`: pointers cast to other types, integers and
//!   program-scope pointers;
//! - `chosen.rs` and `roots.rs`: roots chosen at run time and the roots the
//!   analysis names;
//! - `stored.rs`: pointers stored in arrays of pointers and struct members;
//! - `address_spaces.rs`: `to_global`/`to_local`/`to_private` and
//!   `get_fence` on generic pointers.

mod access;
mod address_spaces;
mod cast_memory;
pub(super) mod chosen;
mod integer_pointers;
pub(super) mod narrow;
pub(super) mod places;
pub(super) mod program_pointers;
mod roots;
pub(super) mod stored;
mod values;
mod variables;
mod vectors;
pub(super) mod views;

use crate::hir::LocalId;
use crate::lexer::{FxHashMap, FxHashSet};
use crate::lower::records;
use crate::types::{Scalar, Type};
use naga::Handle;

/// The pointer model's state: what the module has made so far for the
/// pointers of the kernel.
#[derive(Default)]
pub(super) struct Memory {
    /// Sets of roots that pointers chosen at run time range over.
    root_sets: Vec<Vec<Root>>,
    /// Objects whose address was cast to another pointee type.
    cast_bases: Vec<cast_memory::CastBase>,
    /// Every buffer view.
    views: Vec<views::BufferView>,
    /// Buffers of `char`/`short` elements or vectors, seen through a `u32`
    /// word view (naga has no 8-bit types), with their C element type.
    narrow_buffers: FxHashMap<Handle<naga::GlobalVariable>, NarrowElement>,
    /// `__local` variables held as `u32` words because the kernel casts
    /// their address to a narrower pointee (see
    /// [`crate::analysis::KernelFacts::word_locals`]).
    word_locals: FxHashSet<Handle<naga::GlobalVariable>>,
    /// `__local` variables that are one object, not a C array, held as
    /// their own naga type: a pointer into one reaches the variable
    /// itself, even where that naga type is an array (an 8- or 16-lane
    /// vector's 4-lane parts, `wide.rs`), which must not be indexed as if
    /// it were the C array's elements.
    single_locals: FxHashSet<Handle<naga::GlobalVariable>>,
    /// The root sets of records' pointer members in this kernel.
    members: stored::MemberSets,
}

impl Memory {
    /// Whether `global` is a typed view of a buffer (see `views.rs`).
    pub(super) fn is_buffer_view(&self, global: Handle<naga::GlobalVariable>) -> bool {
        self.views.iter().any(|v| v.view == global)
    }

    /// The view of pointee `pointee` of the buffer whose first view is
    /// `first`, if made.
    pub(super) fn view_of(
        &self,
        first: Handle<naga::GlobalVariable>,
        pointee: &Type,
    ) -> Option<Handle<naga::GlobalVariable>> {
        let view = self
            .views
            .iter()
            .find(|v| v.first == first && v.pointee == *pointee);
        view.map(|v| v.view)
    }

    /// Holds `__local` variable `global` as `u32` words.
    pub(super) fn hold_as_words(&mut self, global: Handle<naga::GlobalVariable>) {
        self.word_locals.insert(global);
    }

    /// Notes that `__local` variable `global` is one object, not an array
    /// (see `single_locals`).
    pub(super) fn hold_single(&mut self, global: Handle<naga::GlobalVariable>) {
        self.single_locals.insert(global);
    }

    /// The object cast base `base` views (see `cast_memory.rs`), its
    /// element type, and whether it is held as `u32` words.
    pub(in crate::lower) fn cast_base(&self, base: usize) -> (Root, Type, bool) {
        let b = &self.cast_bases[base];
        (b.base, b.element, b.words)
    }

    /// The object cast base `base` views.
    pub(in crate::lower) fn cast_base_root(&self, base: usize) -> Root {
        self.cast_bases[base].base
    }

    /// Whether `__local` variable `global` is held as `u32` words.
    pub(super) fn held_as_words(&self, global: Handle<naga::GlobalVariable>) -> bool {
        self.word_locals.contains(&global)
    }
}

/// Where a pointer points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Root {
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
pub(super) enum Target {
    Fixed(Root),
    Chosen(Choice),
}

/// A root chosen at run time: `which` (a `u32`) indexes the root set `set`
/// (an index into `ModuleBuilder::root_sets`).
#[derive(Clone, Copy, Debug)]
pub(in crate::lower) struct Choice {
    pub(super) set: usize,
    pub(super) which: Handle<naga::Expression>,
}

/// A pointer value: what it points into and an element index (`u32`,
/// wrapping) counting elements of its pointee type.
#[derive(Clone, Copy, Debug)]
pub(super) struct PointerValue {
    pub(super) target: Target,
    pub(super) index: Handle<naga::Expression>,
}

impl PointerValue {
    pub(super) fn fixed(root: Root, index: Handle<naga::Expression>) -> Self {
        PointerValue {
            target: Target::Fixed(root),
            index,
        }
    }

    /// The same target at another index.
    pub(super) fn at(self, index: Handle<naga::Expression>) -> Self {
        PointerValue { index, ..self }
    }
}

/// A place that can be loaded from or stored to.
#[derive(Clone)]
pub(super) enum Place {
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
    /// A pointer stored in memory (an array of pointers' element, a
    /// struct's member): a `vec2<u32>` of index and position in `roots`
    /// (see `stored.rs`).
    Stored {
        pointer: Handle<naga::Expression>,
        roots: stored::StoredRoots,
    },
    /// A program-scope pointer variable (see `program_globals.rs`): the
    /// `u32` word of the block that holds it, and its pointee type.
    BlockPointer {
        slot: program_pointers::BlockPointerSlot,
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
pub(in crate::lower) struct NarrowElement {
    pub(super) scalar: Scalar,
    pub(super) width: u8,
}

impl NarrowElement {
    /// Scalars per element in memory (a 3-vector occupies 4).
    pub(super) fn lanes(self) -> u32 {
        u32::from(crate::types::storage_lanes(self.width))
    }

    /// Whether each element fills whole 32-bit words, so it can be stored
    /// with plain word stores that touch no neighbour's bytes.
    fn fills_words(self) -> bool {
        (self.scalar.size() * self.lanes()).is_multiple_of(4)
    }
}
