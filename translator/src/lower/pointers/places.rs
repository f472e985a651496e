//! Places: the lvalues of the program (variables, dereferenced pointers,
//! members, elements, vector lanes) as [`Place`]s that loads and stores
//! read and write.

use crate::diagnostic::Location;
use crate::hir::{ExprId, ExprKind as H, LocalId};
use crate::int_constant::IntConstant;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::expressions::{wide, Operand};
use crate::lower::function::{FnBuilder, Slot};
use crate::lower::pointers::{NarrowElement, Place, PointerValue, Root, Target};
use crate::types::{Scalar, Type};
use naga::{Handle, Span};

/// The element of an array of type `array` that a constant `index` names:
/// a constant index makes an access chain with constant indices, which is
/// what lets a driver split a private array into registers. An index past
/// the end (in code that never runs, such as a copy of an unrolled loop's
/// body that a test skips) stays a run-time value, as naga rejects a
/// constant one out of bounds.
fn constant_element(fb: &FnBuilder, array: Type, index: ExprId) -> Option<u32> {
    let Type::Array(_, length) = array else {
        return None;
    };
    let index = fb.expr(index);
    let (&H::Int(bits), Some(s)) = (&index.kind, index.ty.scalar()) else {
        return None;
    };
    let value = IntConstant::from_bits(bits, s).value;
    (s.is_integer() && (0..i128::from(length)).contains(&value)).then_some(value as u32)
}

/// A pointer to lane `lane` (a run-time u32 below `width`) of the vector of
/// `width` lanes at `pointer`.
pub(in crate::lower) fn dynamic_lane_pointer(
    fb: &mut Emitter,
    pointer: Handle<naga::Expression>,
    width: u8,
    lane: Handle<naga::Expression>,
) -> Handle<naga::Expression> {
    if width <= wide::PART_LANES {
        return fb.add(naga::Expression::Access {
            base: pointer,
            index: lane,
        });
    }
    let two = fb.add(naga::Expression::Literal(naga::Literal::U32(2)));
    let part_index = fb.binary(naga::BinaryOperator::ShiftRight, lane, two);
    let part = fb.add(naga::Expression::Access {
        base: pointer,
        index: part_index,
    });
    let three = fb.add(naga::Expression::Literal(naga::Literal::U32(3)));
    let within = fb.binary(naga::BinaryOperator::And, lane, three);
    fb.add(naga::Expression::Access {
        base: part,
        index: within,
    })
}

impl ModuleBuilder<'_> {
    /// Whether `local` (not a record image) is held as `u32` words: a
    /// `__local` variable narrow stores reach, or a private one whose
    /// bytes a cast reaches beyond what its naga type holds
    /// (`FunctionFacts::word_privates`).
    pub(super) fn local_held_as_words(&self, fb: &FnBuilder, local: LocalId) -> bool {
        match fb.slots.get(&local) {
            Some(Slot::Workgroup(g)) => self.memory.word_locals.contains(g),
            Some(Slot::Variable(_)) => self
                .analysis
                .function(fb.hir)
                .is_some_and(|facts| facts.word_privates.contains(&local)),
            _ => false,
        }
    }

    pub(in crate::lower) fn place(&mut self, fb: &mut FnBuilder, id: ExprId) -> LResult<Place> {
        let e = fb.expr(id);
        let location = e.span.location();
        let source = fb.source;
        let ty = |h: ExprId| source.exprs[h].ty;
        match e.kind {
            H::Local(local) if self.is_image(&e.ty) || self.local_held_as_words(fb, local) => {
                let (words, shared) = match fb.slots[&local] {
                    Slot::Variable(v) => (fb.add(naga::Expression::LocalVariable(v)), None),
                    Slot::Workgroup(g) => (fb.add(naga::Expression::GlobalVariable(g)), Some(g)),
                    Slot::Pointer { .. } => return Err(self.internal_error(fb, local)),
                };
                Ok(self.image_place(fb, words, shared, &e.ty))
            }
            H::Local(local) => Ok(match fb.slots[&local] {
                Slot::Variable(v) if e.ty.is_pointer() => {
                    let pointer = Place::Memory(fb.add(naga::Expression::LocalVariable(v)));
                    return self.stored_pointer_place(fb, id, pointer, location);
                }
                Slot::Variable(v) => Place::Memory(fb.add(naga::Expression::LocalVariable(v))),
                Slot::Workgroup(g) => {
                    let pointer = fb.add(naga::Expression::GlobalVariable(g));
                    self.float_bits_place(g, pointer)
                        .unwrap_or(Place::Memory(pointer))
                }
                Slot::Pointer { .. } => Place::PointerVar(local),
            }),
            H::Global(global) if self.block_place_of(e) => self.block_place(fb, global, e),
            H::Global(global) => {
                let g = self.program_global(global, location)?;
                let words = fb.add(naga::Expression::GlobalVariable(g));
                if self.is_image(&e.ty) {
                    return Ok(self.image_place(fb, words, None, &e.ty));
                }
                Ok(Place::Memory(words))
            }
            // `"xyz"[i]`: the literal's array, as `char *s = "xyz"` points
            // into it.
            H::Str(ref bytes) => {
                let g = self.string_literal_global(bytes, &e.ty, location)?;
                Ok(Place::Memory(fb.add(naga::Expression::GlobalVariable(g))))
            }
            H::Index(base, index) if matches!(ty(base), Type::Vector(..)) => {
                self.vector_lane_place(fb, base, index, location)
            }
            H::Index(base, index) => {
                let base_is_array = ty(base).is_array();
                if base_is_array {
                    if let Some(place) = self.block_index_place(fb, base, index, &e.ty, location)? {
                        return Ok(place);
                    }
                }
                let index = match constant_element(fb, ty(base), index) {
                    Some(element) => fb.add(naga::Expression::Literal(naga::Literal::U32(element))),
                    None => self.index_value(fb, index)?,
                };
                if base_is_array {
                    let array = self.place(fb, base)?;
                    let element = self.array_element_place(fb, array, index, &e.ty, location)?;
                    if e.ty.is_pointer() {
                        return self.stored_pointer_place(fb, id, element, location);
                    }
                    return Ok(element);
                }
                let p = self.pointer(fb, base)?;
                let index = fb.binary(naga::BinaryOperator::Add, p.index, index);
                let element = self.element_place(fb, p.at(index), &e.ty, location)?;
                if e.ty.is_pointer() {
                    return self.stored_pointer_place(fb, id, element, location);
                }
                Ok(element)
            }
            H::Deref(p) => {
                let p = self.pointer(fb, p)?;
                let element = self.element_place(fb, p, &e.ty, location)?;
                if e.ty.is_pointer() {
                    return self.stored_pointer_place(fb, id, element, location);
                }
                Ok(element)
            }
            H::Member(base, field) => {
                let place = self.place(fb, base)?;
                let member = self.member_place(fb, place, field as u32, &e.ty, location)?;
                if e.ty.is_pointer() {
                    return self.stored_pointer_place(fb, id, member, location);
                }
                Ok(member)
            }
            H::Swizzle(base, ref lanes) => {
                let base_ty = ty(base);
                let place = self.place(fb, base)?;
                self.swizzle_place(fb, place, lanes, &base_ty, &e.ty, location)
            }
            // A member, element or lane of a value that is no object (a
            // call's result, a compound literal, `c ? s : t`): the value
            // is held in a temporary and read from there. The checker
            // only lets such places be read.
            _ if !matches!(e.ty, Type::Pointer(_) | Type::Void | Type::Error) => {
                self.temporary_place(fb, id)
            }
            _ => Err(self.error(
                location,
                "expression is not a place the translator can write to",
            )),
        }
    }

    /// The value of `id` stored in a new temporary, as a place.
    fn temporary_place(&mut self, fb: &mut FnBuilder, id: ExprId) -> LResult<Place> {
        let e = fb.expr(id);
        let (ty, location) = (e.ty, e.span.location());
        let value = self.plain(fb, id)?;
        let naga_ty = self.value_type(&ty, location)?;
        let var = fb.function.local_variables.append(
            naga::LocalVariable {
                name: None,
                ty: naga_ty,
                init: None,
            },
            Span::UNDEFINED,
        );
        let pointer = fb.add(naga::Expression::LocalVariable(var));
        fb.push(naga::Statement::Store { pointer, value });
        Ok(if self.is_image(&ty) {
            self.image_place(fb, pointer, None, &ty)
        } else {
            Place::Memory(pointer)
        })
    }

    /// Member `field` (of C type `ty`) of the struct at `place`.
    fn member_place(
        &mut self,
        fb: &mut FnBuilder,
        place: Place,
        field: u32,
        ty: &Type,
        location: Location,
    ) -> LResult<Place> {
        crate::stack::guard(|| match place {
            Place::Memory(pointer) => Ok(Place::Memory(fb.add(naga::Expression::AccessIndex {
                base: pointer,
                index: field,
            }))),
            Place::Chosen {
                which, candidates, ..
            } => {
                let mut members = Vec::with_capacity(candidates.len());
                for c in candidates {
                    members.push(self.member_place(fb, c, field, ty, location)?);
                }
                Ok(Place::Chosen {
                    which,
                    candidates: members,
                    ty: *ty,
                })
            }
            Place::Null(_) => Ok(Place::Null(*ty)),
            Place::Bytes(bp) => self.image_member(fb, bp, field as usize, location),
            _ => Err(self.error(
                location,
                "this struct member cannot be reached yet by this translator",
            )),
        })
    }

    /// Element `index` (a run-time u32) of the array at `place`; `ty` is
    /// the element's C type. An array in one of several places chosen at
    /// run time (a member of a struct that a joined pointer designates)
    /// is indexed in each of them.
    fn array_element_place(
        &mut self,
        fb: &mut FnBuilder,
        place: Place,
        index: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Place> {
        crate::stack::guard(|| match place {
            Place::Memory(array) => Ok(Place::Memory(
                fb.add(naga::Expression::Access { base: array, index }),
            )),
            Place::Bytes(bp) => self.image_index(fb, bp, index, location),
            Place::FloatBits { pointer, float } => {
                let pointer = fb.add(naga::Expression::Access {
                    base: pointer,
                    index,
                });
                Ok(Place::FloatBits { pointer, float })
            }
            Place::Chosen {
                which, candidates, ..
            } => {
                let mut elements = Vec::with_capacity(candidates.len());
                for c in candidates {
                    elements.push(self.array_element_place(fb, c, index, ty, location)?);
                }
                Ok(Place::Chosen {
                    which,
                    candidates: elements,
                    ty: *ty,
                })
            }
            Place::Null(_) => Ok(Place::Null(*ty)),
            _ => Err(self.error(location, "unsupported array access")),
        })
    }

    /// Lanes `lanes` of the vector (of C type `vector`) at `place`; `ty` is
    /// the swizzle's type.
    fn swizzle_place(
        &mut self,
        fb: &mut FnBuilder,
        place: Place,
        lanes: &[u8],
        vector: &Type,
        ty: &Type,
        location: Location,
    ) -> LResult<Place> {
        crate::stack::guard(|| match place {
            Place::Memory(ptr) => Ok(Place::Lanes(ptr, lanes.to_vec(), *vector)),
            Place::Lanes(ptr, outer, ty) => Ok(Place::Lanes(
                ptr,
                lanes.iter().map(|&l| outer[l as usize]).collect(),
                ty,
            )),
            Place::Cast {
                base,
                byte,
                scalar,
                lanes: outer,
            } => Ok(Place::Cast {
                base,
                byte,
                scalar,
                lanes: lanes.iter().map(|&l| outer[l as usize]).collect(),
            }),
            Place::Chosen {
                which, candidates, ..
            } => {
                let mut swizzled = Vec::with_capacity(candidates.len());
                for c in candidates {
                    swizzled.push(self.swizzle_place(fb, c, lanes, vector, ty, location)?);
                }
                Ok(Place::Chosen {
                    which,
                    candidates: swizzled,
                    ty: *ty,
                })
            }
            Place::Narrow {
                global,
                index,
                element,
            } => {
                let first = Self::first_lane(fb, index, element);
                Ok(Place::NarrowLanes {
                    global,
                    first,
                    lanes: lanes.to_vec(),
                    scalar: element.scalar,
                })
            }
            Place::NarrowLanes {
                global,
                first,
                lanes: outer,
                scalar,
            } => Ok(Place::NarrowLanes {
                global,
                first,
                lanes: lanes.iter().map(|&l| outer[l as usize]).collect(),
                scalar,
            }),
            Place::Null(_) => Ok(Place::Null(*ty)),
            Place::Bytes(bp) => Ok(self.image_swizzle(bp, lanes)),
            Place::PointerVar(_)
            | Place::FloatBits { .. }
            | Place::BlockPointer { .. }
            | Place::Stored { .. } => Err(self.error(location, "invalid swizzle target")),
        })
    }

    /// `v[i]`: the lane of vector `base` that a run-time index selects.
    /// The index is kept inside the vector (C leaves other indices
    /// undefined; they must not reach other memory). A vector that is not
    /// in memory is copied to a temporary first.
    fn vector_lane_place(
        &mut self,
        fb: &mut FnBuilder,
        base: ExprId,
        index: ExprId,
        location: Location,
    ) -> LResult<Place> {
        let base_node = fb.expr(base);
        let Type::Vector(s, n) = base_node.ty else {
            return Err(self.error(location, "subscript of a non-vector"));
        };
        let is_place = matches!(
            base_node.kind,
            H::Local(_)
                | H::Global(_)
                | H::Index(..)
                | H::Deref(_)
                | H::Member(..)
                | H::Swizzle(..)
        );
        let place = if is_place {
            self.place(fb, base)?
        } else {
            self.temporary_place(fb, base)?
        };
        let i = self.index_value(fb, index)?;
        let u32_lit =
            |fb: &mut Emitter, v: u32| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
        let last = u32_lit(fb, u32::from(n) - 1);
        let i = if n.is_power_of_two() {
            fb.binary(naga::BinaryOperator::And, i, last)
        } else {
            fb.math(naga::MathFunction::Min, i, Some(last))
        };
        self.lane_place(fb, place, n, s, i, location)
    }

    /// Lane `i` (a `u32` below `n`) of the vector of `n` lanes of `s` at
    /// `place`.
    fn lane_place(
        &mut self,
        fb: &mut FnBuilder,
        place: Place,
        n: u8,
        s: Scalar,
        i: Handle<naga::Expression>,
        location: Location,
    ) -> LResult<Place> {
        crate::stack::guard(|| {
            let u32_lit =
                |fb: &mut Emitter, v: u32| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
            // Through a swizzle, the index picks one of the swizzle's lanes.
            let select_lane = |fb: &mut Emitter, lanes: &[u8]| {
                let mut lane = u32_lit(fb, u32::from(lanes[0]));
                for (k, &l) in lanes.iter().enumerate().skip(1) {
                    let k = u32_lit(fb, k as u32);
                    let is_k = fb.binary(naga::BinaryOperator::Equal, i, k);
                    let l = u32_lit(fb, u32::from(l));
                    lane = fb.select(is_k, l, lane);
                }
                lane
            };
            Ok(match place {
                Place::Memory(pointer) => Place::Memory(dynamic_lane_pointer(fb, pointer, n, i)),
                Place::Lanes(pointer, lanes, ty) => {
                    let lane = select_lane(fb, &lanes);
                    Place::Memory(dynamic_lane_pointer(fb, pointer, wide::width_of(&ty), lane))
                }
                Place::Narrow {
                    global,
                    index,
                    element,
                } => {
                    let first = Self::first_lane(fb, index, element);
                    Place::Narrow {
                        global,
                        index: fb.binary(naga::BinaryOperator::Add, first, i),
                        element: NarrowElement {
                            scalar: s,
                            width: 1,
                        },
                    }
                }
                Place::NarrowLanes {
                    global,
                    first,
                    lanes,
                    scalar,
                } => {
                    let lane = select_lane(fb, &lanes);
                    Place::Narrow {
                        global,
                        index: fb.binary(naga::BinaryOperator::Add, first, lane),
                        element: NarrowElement { scalar, width: 1 },
                    }
                }
                Place::Cast {
                    base,
                    byte,
                    scalar,
                    lanes,
                } => {
                    let lane = select_lane(fb, &lanes);
                    let size = u32_lit(fb, scalar.size());
                    let offset = fb.binary(naga::BinaryOperator::Multiply, lane, size);
                    Place::Cast {
                        base,
                        byte: fb.binary(naga::BinaryOperator::Add, byte, offset),
                        scalar,
                        lanes: vec![0],
                    }
                }
                Place::Chosen {
                    which, candidates, ..
                } => {
                    let mut lanes = Vec::with_capacity(candidates.len());
                    for c in candidates {
                        lanes.push(self.lane_place(fb, c, n, s, i, location)?);
                    }
                    Place::Chosen {
                        which,
                        candidates: lanes,
                        ty: Type::Scalar(s),
                    }
                }
                Place::Null(_) => Place::Null(Type::Scalar(s)),
                Place::Bytes(bp) => return self.image_lane(fb, bp, i, location),
                Place::PointerVar(_)
                | Place::FloatBits { .. }
                | Place::BlockPointer { .. }
                | Place::Stored { .. } => {
                    return Err(self.error(location, "subscript of a pointer variable's vector"))
                }
            })
        })
    }

    /// The place of the element (of C type `ty`) a pointer designates:
    /// memory, an element of a word-viewed buffer, bytes of an object of
    /// another type, or one of several of these by a root chosen at run
    /// time.
    pub(in crate::lower) fn element_place(
        &mut self,
        fb: &mut FnBuilder,
        p: PointerValue,
        ty: &Type,
        location: Location,
    ) -> LResult<Place> {
        match p.target {
            Target::Fixed(root) => self.root_element_place(fb, root, p.index, ty, location),
            Target::Chosen(choice) => {
                let roots = self.memory.root_sets[choice.set].clone();
                let mut candidates = Vec::with_capacity(roots.len());
                for root in roots {
                    candidates.push(self.root_element_place(fb, root, p.index, ty, location)?);
                }
                Ok(Place::Chosen {
                    which: choice.which,
                    candidates,
                    ty: *ty,
                })
            }
        }
    }

    /// The place of the element `p` points at, where `p` is a pointer
    /// operand of the call at `location`.
    pub(in crate::lower) fn pointed_place(
        &mut self,
        fb: &mut FnBuilder,
        p: Operand,
        location: Location,
    ) -> LResult<Place> {
        let ty = self.pointee_of(fb, p).map_or(Type::Void, |t| t.ty);
        let value = self.pointer(fb, p)?;
        self.element_place(fb, value, &ty, location)
    }

    fn root_element_place(
        &mut self,
        fb: &mut FnBuilder,
        root: Root,
        index: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Place> {
        if let Some(place) = self.image_element_place(fb, root, index) {
            return Ok(place);
        }
        if let Some(whole) = self.whole_root_place(fb, root, ty, location)? {
            return Ok(whole);
        }
        match root {
            Root::Global(global) => {
                if let Some(&element) = self.memory.narrow_buffers.get(&global) {
                    return Ok(Place::Narrow {
                        global,
                        index,
                        element,
                    });
                }
                if self.float_words.float_of(global).is_some() {
                    let pointer = self.element_pointer(fb, root, index, location)?;
                    return Ok(self
                        .float_bits_place(global, pointer)
                        .unwrap_or(Place::Memory(pointer)));
                }
            }
            Root::Cast(base) => return self.cast_place(fb, base, index, ty, location),
            Root::Null => return Ok(Place::Null(*ty)),
            Root::Private(..) | Root::Argument { .. } => {}
        }
        Ok(Place::Memory(
            self.element_pointer(fb, root, index, location)?,
        ))
    }

    /// The whole variable `root` as a place, where `ty`, the pointee, is
    /// the variable's own array type (see `whole_root`).
    fn whole_root_place(
        &mut self,
        fb: &mut FnBuilder,
        root: Root,
        ty: &Type,
        location: Location,
    ) -> LResult<Option<Place>> {
        Ok(self.whole_root(fb, root, ty, location)?.map(Place::Memory))
    }

    /// A naga pointer to the whole variable `root`, where `ty`, the
    /// pointee, is the variable's own array type: `int (*q)[4] = &a` for
    /// an `int a[4]` points at `a` itself, with its index counted in `a`'s
    /// elements (0; any other is out of bounds). A pointer to a row of a
    /// larger array (`&b[1]` for an `int b[3][4]`) has the row type as the
    /// root's element and is indexed as any other element: `None`.
    pub(in crate::lower) fn whole_root(
        &mut self,
        fb: &mut FnBuilder,
        root: Root,
        ty: &Type,
        location: Location,
    ) -> LResult<Option<Handle<naga::Expression>>> {
        if !ty.is_array() {
            return Ok(None);
        }
        let (variable, variable_ty) = match root {
            Root::Private(v, true) => (
                naga::Expression::LocalVariable(v),
                fb.function.local_variables[v].ty,
            ),
            Root::Global(g) if !self.memory.single_locals.contains(&g) => (
                naga::Expression::GlobalVariable(g),
                self.module.global_variables[g].ty,
            ),
            Root::Argument {
                arg,
                ty,
                array: true,
                ..
            } => (naga::Expression::FunctionArgument(arg), ty),
            _ => return Ok(None),
        };
        if self.value_type(ty, location)? != variable_ty {
            return Ok(None);
        }
        Ok(Some(fb.add(variable)))
    }

    /// A naga pointer to element `index` of `root`, which is not a cast.
    pub(in crate::lower) fn element_pointer(
        &mut self,
        fb: &mut FnBuilder,
        root: Root,
        index: Handle<naga::Expression>,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        Ok(match root {
            Root::Global(g) => {
                let base = fb.add(naga::Expression::GlobalVariable(g));
                let ty = self.module.global_variables[g].ty;
                let array = matches!(self.module.types[ty].inner, naga::TypeInner::Array { .. });
                if array && !self.memory.single_locals.contains(&g) {
                    fb.add(naga::Expression::Access { base, index })
                } else {
                    // `&x` of a `__local` scalar or vector (a wide one is
                    // a naga array of its parts): as for a private scalar.
                    base
                }
            }
            Root::Private(v, is_array) => {
                let base = fb.add(naga::Expression::LocalVariable(v));
                if is_array {
                    fb.add(naga::Expression::Access { base, index })
                } else {
                    // `&x` of a scalar: only index 0 is valid C; others are
                    // out of bounds and read x too, as naga cannot fault.
                    base
                }
            }
            Root::Argument { arg, array, .. } => {
                let base = fb.add(naga::Expression::FunctionArgument(arg));
                if array {
                    fb.add(naga::Expression::Access { base, index })
                } else {
                    base
                }
            }
            Root::Cast(_) | Root::Null => {
                return Err(self.error(
                    location,
                    "internal compiler error: a cast or null pointer used as a typed one",
                ))
            }
        })
    }
}
