//! Loads and stores: reading and writing every kind of [`Place`].

use crate::diagnostic::Location;
use crate::hir::LocalId;
use crate::lower::atomics::float_words;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::expressions::{wide, Value};
use crate::lower::function::{FnBuilder, Slot};
use crate::lower::pointers::Place;

impl ModuleBuilder<'_> {
    pub(in crate::lower) fn load(
        &mut self,
        fb: &mut FnBuilder,
        place: Place,
        location: Location,
    ) -> LResult<Value> {
        Ok(match place {
            Place::Memory(pointer) => Value::Plain(fb.add(naga::Expression::Load { pointer })),
            Place::FloatBits { pointer, float } => {
                Value::Plain(float_words::load_float_bits(fb, pointer, float))
            }
            Place::Lanes(pointer, lanes, ty) => {
                let vector = fb.add(naga::Expression::Load { pointer });
                Value::Plain(self.swizzle(fb, vector, &ty, &lanes, location)?)
            }
            Place::PointerVar(id) => Value::Pointer(self.load_pointer_var(fb, id)?),
            Place::Stored { pointer, roots } => {
                Value::Pointer(self.load_stored(fb, pointer, roots))
            }
            Place::BlockPointer { slot, pointee } => {
                Value::Pointer(self.load_block_pointer(fb, slot, &pointee, location)?)
            }
            Place::Bytes(bp) => Value::Plain(self.load_bytes(fb, &bp, location)?),
            Place::Narrow {
                global,
                index,
                element,
            } => Value::Plain(self.load_narrow_element(fb, global, index, element, location)?),
            Place::NarrowLanes {
                global,
                first,
                lanes,
                scalar,
            } => {
                let mut values = Vec::with_capacity(lanes.len());
                for l in lanes {
                    let at = Self::lane_index(fb, first, l);
                    values.push(wide::LaneRef {
                        value: self.load_narrow(fb, global, at, scalar),
                        width: 1,
                        lane: 0,
                    });
                }
                Value::Plain(self.gather(fb, scalar, &values, location)?)
            }
            Place::Cast {
                base,
                byte,
                scalar,
                lanes,
            } => Value::Plain(self.load_cast(fb, base, byte, scalar, &lanes, location)?),
            Place::Null(ty) if ty.is_pointer() => {
                let zero = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
                Value::Pointer(crate::lower::pointers::PointerValue::fixed(
                    crate::lower::pointers::Root::Null,
                    zero,
                ))
            }
            Place::Null(ty) => Value::Plain(self.zero(fb, &ty, location)?),
            Place::Chosen {
                which,
                candidates,
                ty,
            } => self.switch_cases(
                fb,
                which,
                candidates.len(),
                Some(&ty),
                location,
                |this, fb, k| this.load(fb, candidates[k].clone(), location),
            )?,
        })
    }

    /// Stores `value` to `place`; `init` names the local for initialisers.
    pub(in crate::lower) fn store(
        &mut self,
        fb: &mut FnBuilder,
        place: Place,
        value: Value,
        location: Location,
        init: Option<LocalId>,
    ) -> LResult<()> {
        let place = match (place, init) {
            // A typed value into a variable held as words, a byte image
            // of it (`FunctionFacts::word_privates`).
            (Place::PointerVar(_), Some(id))
                if !self.is_image(&fb.local(id).ty) && self.local_held_as_words(fb, id) =>
            {
                let Slot::Variable(v) = fb.slots[&id] else {
                    return Err(self.error(
                        location,
                        "internal compiler error: an initialised __local variable",
                    ));
                };
                let words = fb.add(naga::Expression::LocalVariable(v));
                self.image_place(fb, words, None, &fb.local(id).ty)
            }
            (Place::PointerVar(_), Some(id)) => match fb.slots[&id] {
                Slot::Variable(v) if fb.local(id).ty.is_pointer() => {
                    let pointer = fb.add(naga::Expression::LocalVariable(v));
                    match fb.stored.get(&id) {
                        Some(&roots) => Place::Stored { pointer, roots },
                        None => return Err(self.internal_error(fb, id)),
                    }
                }
                Slot::Variable(v) => Place::Memory(fb.add(naga::Expression::LocalVariable(v))),
                Slot::Workgroup(g) => Place::Memory(fb.add(naga::Expression::GlobalVariable(g))),
                Slot::Pointer { .. } => Place::PointerVar(id),
            },
            (p, _) => p,
        };
        match (place, value) {
            (Place::Memory(pointer), Value::Plain(value)) => {
                fb.push(naga::Statement::Store { pointer, value })
            }
            (Place::FloatBits { pointer, .. }, Value::Plain(value)) => {
                float_words::store_float_bits(fb, pointer, value)
            }
            (Place::Lanes(pointer, lanes, ty), Value::Plain(value)) => {
                let width = wide::width_of(&ty);
                let value_width = lanes.len() as u8;
                // A 3-vector's undefined fourth lane (`.hi`, `.odd`) is
                // not held: writing it does nothing.
                for (i, &l) in lanes.iter().enumerate().filter(|&(_, &l)| l < width) {
                    let lane = fb.lane(pointer, width, l);
                    let part = fb.lane(value, value_width, i as u8);
                    fb.push(naga::Statement::Store {
                        pointer: lane,
                        value: part,
                    });
                }
            }
            (Place::Bytes(bp), Value::Plain(value)) => {
                self.store_bytes(fb, &bp, value, location)?
            }
            (Place::PointerVar(id), Value::Pointer(p)) => {
                self.store_pointer_var(fb, id, p, location)?
            }
            (Place::Stored { pointer, roots }, value) => {
                self.store_stored(fb, pointer, roots, value, location)?
            }
            (Place::BlockPointer { slot, pointee }, Value::Pointer(p)) => {
                self.store_block_pointer(fb, slot, &pointee, p, location)?
            }
            (
                Place::Narrow {
                    global,
                    index,
                    element,
                },
                Value::Plain(value),
            ) => self.store_narrow_element(fb, global, index, element, value, location)?,
            // Lane by lane and atomically: the element's other lanes share
            // the words.
            (
                Place::NarrowLanes {
                    global,
                    first,
                    lanes,
                    scalar,
                },
                Value::Plain(value),
            ) => {
                let width = lanes.len() as u8;
                for (i, &l) in lanes.iter().enumerate() {
                    let at = Self::lane_index(fb, first, l);
                    let part = fb.lane(value, width, i as u8);
                    self.store_narrow(fb, global, at, scalar, part, location)?;
                }
            }
            (
                Place::Cast {
                    base,
                    byte,
                    scalar,
                    lanes,
                },
                Value::Plain(value),
            ) => self.store_cast(fb, base, byte, scalar, &lanes, value, location)?,
            (Place::Null(_), Value::Plain(_) | Value::Pointer(_)) => {}
            // A value, or a pointer into a stored pointer (`vp->p = q`
            // for a `vp` chosen at run time).
            (
                Place::Chosen {
                    which, candidates, ..
                },
                value @ (Value::Plain(_) | Value::Pointer(_)),
            ) => {
                self.switch_cases(
                    fb,
                    which,
                    candidates.len(),
                    None,
                    location,
                    |this, fb, k| {
                        let place = candidates[k].clone();
                        this.store(fb, place, value, location, None)?;
                        Ok(Value::Void)
                    },
                )?;
            }
            _ => return Err(self.error(location, "mismatched assignment of a pointer and a value")),
        }
        Ok(())
    }
}
