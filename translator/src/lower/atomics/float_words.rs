//! `__local` `float` and `double` memory held as integer words, for atomics
//! on it.
//!
//! Vulkan's atomics without extensions are integer ones, and naga has no
//! way to view workgroup memory under a second type (buffers get one
//! variable per view, see `views.rs`). So a `__local` `float` (`double`)
//! object that an atomic touches is declared as `u32` (`u64`) words from
//! the start: the atomic works on the words, and plain reads and writes
//! of the object move the same bits through a bitcast ([`Place::FloatBits`]).
//!
//! Which objects atomics touch (through helpers and variables too) the
//! analysis finds before the kernel is lowered
//! ([`KernelFacts::float_words`]): a `__local` variable
//! ([`Origin::Local`]) or `__local` pointer parameter ([`Origin::Param`])
//! of the kernel.

use crate::analysis::provenance::Origin;
use crate::diagnostic::Location;
use crate::lexer::FxHashMap;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::naga_types::naga_scalar;
use crate::lower::pointers::Place;
use crate::types::{Scalar, Type, Types};
use naga::Handle;

/// The workgroup globals of `__local` `float`/`double` objects held as
/// integer words for the atomics on them, with their C `float`/`double`.
#[derive(Default)]
pub(in crate::lower) struct FloatWords {
    words: FxHashMap<Handle<naga::GlobalVariable>, Scalar>,
}

impl FloatWords {
    /// The C floating type of `global`'s words, if it holds floats so.
    pub(in crate::lower) fn float_of(
        &self,
        global: Handle<naga::GlobalVariable>,
    ) -> Option<Scalar> {
        self.words.get(&global).copied()
    }
}

/// A `float` as a `uint` and a `double` as a `ulong`: the scalar an
/// object held as words has in their place, of the same size.
pub(in crate::lower) fn as_words(ty: &Type) -> Type {
    match ty {
        Type::Scalar(Scalar::Float) => Type::Scalar(Scalar::UInt),
        Type::Scalar(Scalar::Double) => Type::Scalar(Scalar::ULong),
        t => *t,
    }
}

/// The `float`/`double` scalar of an object that may be held as words:
/// a scalar or an array (of arrays) of them.
fn float_scalar(types: &Types, ty: &Type) -> Option<Scalar> {
    match types.innermost_element(*ty) {
        Type::Scalar(s @ (Scalar::Float | Scalar::Double)) => Some(s),
        _ => None,
    }
}

impl ModuleBuilder<'_> {
    /// Whether atomics on `float`/`double` reach the kernel's `__local`
    /// object `object`.
    fn held_as_words(&self, object: &Origin) -> bool {
        crate::stack::guard(|| {
            self.kernel_facts
                .is_some_and(|facts| facts.float_words.contains(object))
        })
    }

    /// Whether the `__local` object `object` (of C type `ty`) is to be held
    /// as words; if so, notes `global` as holding it so.
    pub(in crate::lower) fn holds_words(
        &mut self,
        object: &Origin,
        ty: &Type,
        global: Handle<naga::GlobalVariable>,
    ) {
        let scalar = float_scalar(&self.program.types, ty);
        if let Some(s) = scalar.filter(|_| self.held_as_words(object)) {
            self.float_words.words.insert(global, s);
        }
    }

    /// The naga type a `__local` object of C type `ty` is declared with:
    /// its own, or with words in place of its floats.
    pub(in crate::lower) fn workgroup_type(
        &mut self,
        object: &Origin,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Type>> {
        if !self.held_as_words(object) {
            return self.value_type(ty, location);
        }
        self.words_type(ty, location)
    }

    /// The naga type of `ty` with words in place of its floats, as
    /// `value_type` makes it for the type so changed.
    fn words_type(&mut self, ty: &Type, location: Location) -> LResult<Handle<naga::Type>> {
        crate::stack::guard(|| {
            let Type::Array(elem, n) = *ty else {
                return self.value_type(&as_words(ty), location);
            };
            let elem = self.program.types[elem];
            let base = self.words_type(&elem, location)?;
            let stride = self.storage_stride(&as_words(&elem), location)?;
            let size = std::num::NonZeroU32::new(n as u32)
                .ok_or_else(|| self.error(location, "arrays must not be empty"))?;
            Ok(self.add_type(naga::TypeInner::Array {
                base,
                size: naga::ArraySize::Constant(size),
                stride,
            }))
        })
    }

    /// For an atomic on a `float`/`double` in workgroup variable `global`:
    /// `Ok` when the variable holds words, as the analysis arranges for
    /// every `__local` object such atomics reach.
    pub(super) fn require_words(
        &mut self,
        global: Handle<naga::GlobalVariable>,
        value_ty: &Type,
        location: Location,
    ) -> LResult<()> {
        if self.float_words.words.contains_key(&global) {
            return Ok(());
        }
        // Memory of the translator's own, or an object the analysis did
        // not see reached: reported rather than lowered wrongly.
        let ty = self.display(value_ty);
        Err(self.error(
            location,
            format!(
                "atomic operations on '{ty}' in this __local memory are not supported by this translator"
            ),
        ))
    }

    /// The place of a `float`/`double` element of an object held as words,
    /// at naga pointer `pointer` (to its `u32`/`u64` word).
    pub(in crate::lower) fn float_bits_place(
        &self,
        global: Handle<naga::GlobalVariable>,
        pointer: Handle<naga::Expression>,
    ) -> Option<Place> {
        let float = *self.float_words.words.get(&global)?;
        Some(Place::FloatBits {
            pointer,
            float: naga_scalar(float),
        })
    }
}

/// The value at a [`Place::FloatBits`]: its word, reinterpreted.
pub(in crate::lower) fn load_float_bits(
    fb: &mut Emitter,
    pointer: Handle<naga::Expression>,
    float: naga::Scalar,
) -> Handle<naga::Expression> {
    let bits = fb.add(naga::Expression::Load { pointer });
    fb.add(naga::Expression::As {
        expr: bits,
        kind: float.kind,
        convert: None,
    })
}

/// Stores the `float`/`double` `value` into a [`Place::FloatBits`]: a plain
/// store of its bits, which naga writes as an atomic store once the
/// variable has become atomic.
pub(in crate::lower) fn store_float_bits(
    fb: &mut Emitter,
    pointer: Handle<naga::Expression>,
    value: Handle<naga::Expression>,
) {
    let bits = fb.add(naga::Expression::As {
        expr: value,
        kind: naga::ScalarKind::Uint,
        convert: None,
    });
    fb.push(naga::Statement::Store {
        pointer,
        value: bits,
    });
}
