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
//! Which objects an atomic touches is only known once the kernel is
//! lowered (pointers reach them through helpers and variables), so an
//! atomic on an object not yet held as words names it and stops the
//! attempt, and the kernel is lowered again with it held as words (see
//! [`lower`](super::lower)). Objects are named by what declares them,
//! which stays the same from one attempt to the next.

use super::*;

/// What declares a `__local` object: a variable of a kernel, or a kernel's
/// `__local` pointer argument (by its position among them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum WorkgroupObject {
    Variable(FunctionId, LocalId),
    Argument(u32),
}

/// `ty` with its `float`s as `uint`s and `double`s as `ulong`s: the type
/// of an object held as words, of the same size and layout.
pub(super) fn as_words(ty: &Type) -> Type {
    match ty {
        Type::Scalar(Scalar::Float) => Type::Scalar(Scalar::UInt),
        Type::Scalar(Scalar::Double) => Type::Scalar(Scalar::ULong),
        Type::Array(elem, n) => Type::Array(std::rc::Rc::new(as_words(elem)), *n),
        t => t.clone(),
    }
}

/// The `float`/`double` scalar of an object that may be held as words:
/// a scalar or an array (of arrays) of them.
pub(super) fn float_scalar(ty: &Type) -> Option<Scalar> {
    match ty {
        Type::Scalar(s @ (Scalar::Float | Scalar::Double)) => Some(*s),
        Type::Array(elem, _) => float_scalar(elem),
        _ => None,
    }
}

impl ModuleBuilder<'_> {
    /// Whether the `__local` object `object` (of C type `ty`) is to be held
    /// as words; if so, notes `global` as holding it so.
    pub(super) fn holds_words(
        &mut self,
        object: WorkgroupObject,
        ty: &Type,
        global: Handle<naga::GlobalVariable>,
    ) {
        if let Some(s) = float_scalar(ty).filter(|_| self.word_objects.contains(&object)) {
            self.float_words.insert(global, s);
        }
    }

    /// The type a `__local` object of C type `ty` is declared with.
    pub(super) fn workgroup_type(&self, object: WorkgroupObject, ty: &Type) -> Type {
        if self.word_objects.contains(&object) {
            as_words(ty)
        } else {
            ty.clone()
        }
    }

    /// For an atomic on a `float`/`double` in workgroup variable `global`:
    /// `Ok` when the variable holds words already; otherwise it is noted
    /// for the next attempt and this one stops (`Err` with nothing
    /// reported, see `lower`).
    pub(super) fn require_words(
        &mut self,
        global: Handle<naga::GlobalVariable>,
        value_ty: &Type,
        location: Location,
    ) -> LResult<()> {
        if self.float_words.contains_key(&global) {
            return Ok(());
        }
        let object = self
            .workgroup_locals
            .iter()
            .find(|(_, &g)| g == global)
            .map(|(&(f, id), _)| WorkgroupObject::Variable(f, id))
            .or_else(|| {
                self.local_args
                    .iter()
                    .position(|&g| g == global)
                    .map(|i| WorkgroupObject::Argument(i as u32))
            });
        match object {
            Some(object) if !self.word_objects.contains(&object) => {
                self.wanted_word_objects.push(object);
                Err(Failed)
            }
            // Held as words yet not noted, or memory of the translator's
            // own: never expected, but reported rather than retried.
            _ => Err(self.error(
                location,
                format!(
                    "atomic operations on '{}' in this __local memory are not supported by this translator",
                    value_ty.display()
                ),
            )),
        }
    }

    /// The place of a `float`/`double` element of an object held as words,
    /// at naga pointer `pointer` (to its `u32`/`u64` word).
    pub(super) fn float_bits_place(
        &self,
        global: Handle<naga::GlobalVariable>,
        pointer: Handle<naga::Expression>,
    ) -> Option<Place> {
        let float = *self.float_words.get(&global)?;
        Some(Place::FloatBits {
            pointer,
            float: naga_scalar(float),
        })
    }
}

/// The value at a [`Place::FloatBits`]: its word, reinterpreted.
pub(super) fn load_float_bits(
    fb: &mut FnBuilder,
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
pub(super) fn store_float_bits(
    fb: &mut FnBuilder,
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
