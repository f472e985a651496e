//! Places and memory: the pointer model's roots and indices, loads and
//! stores (through the word view for `char`/`short` buffers), and
//! `vloadn`/`vstoren`.

use super::*;

impl ModuleBuilder<'_> {
    pub(super) fn place(&mut self, fb: &mut FnBuilder, id: ExprId) -> LResult<Place> {
        let e = fb.expr(id);
        let location = e.span.location();
        let source = fb.source;
        let ty = |h: ExprId| source.exprs[h].ty;
        match e.kind {
            H::Local(local)
                if self.is_image(&e.ty)
                    || matches!(fb.slots.get(&local), Some(Slot::Workgroup(g)) if self.word_locals.contains(g)) =>
            {
                let (words, shared) = match fb.slots[&local] {
                    Slot::Variable(v) => (fb.add(naga::Expression::LocalVariable(v)), None),
                    Slot::Workgroup(g) => (fb.add(naga::Expression::GlobalVariable(g)), Some(g)),
                    Slot::Pointer { .. } => return Err(self.internal_error(fb, local)),
                };
                Ok(self.image_place(fb, words, shared, &e.ty))
            }
            H::Local(local) => Ok(match fb.slots[&local] {
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
                let index = self.index_value(fb, index)?;
                if base_is_array {
                    let array = match self.place(fb, base)? {
                        Place::Memory(array) => array,
                        Place::Bytes(bp) => return self.image_index(fb, bp, index, location),
                        Place::FloatBits { pointer, float } => {
                            let pointer = fb.add(naga::Expression::Access {
                                base: pointer,
                                index,
                            });
                            return Ok(Place::FloatBits { pointer, float });
                        }
                        _ => return Err(self.error(location, "unsupported array access")),
                    };
                    return Ok(Place::Memory(
                        fb.add(naga::Expression::Access { base: array, index }),
                    ));
                }
                let p = self.pointer(fb, base)?;
                let index = fb.binary(naga::BinaryOperator::Add, p.index, index);
                self.element_place(fb, p.at(index), &e.ty, location)
            }
            H::Deref(p) => {
                let p = self.pointer(fb, p)?;
                self.element_place(fb, p, &e.ty, location)
            }
            H::Member(base, field) => {
                let place = self.place(fb, base)?;
                self.member_place(fb, place, field as u32, &e.ty, location)
            }
            H::Swizzle(base, ref lanes) => {
                let base_ty = ty(base);
                let place = self.place(fb, base)?;
                self.swizzle_place(fb, place, lanes, &base_ty, &e.ty, location)
            }
            _ => Err(self.error(
                location,
                "expression is not a place the translator can write to",
            )),
        }
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
        match place {
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
        }
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
        match place {
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
            Place::PointerVar(_) | Place::FloatBits { .. } | Place::BlockPointer { .. } => {
                Err(self.error(location, "invalid swizzle target"))
            }
        }
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
            let value = self.plain(fb, base)?;
            let ty = self.value_type(&base_node.ty, location)?;
            let var = fb.function.local_variables.append(
                naga::LocalVariable {
                    name: None,
                    ty,
                    init: None,
                },
                Span::UNDEFINED,
            );
            let pointer = fb.add(naga::Expression::LocalVariable(var));
            fb.push(naga::Statement::Store { pointer, value });
            Place::Memory(pointer)
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
            Place::PointerVar(_) | Place::FloatBits { .. } | Place::BlockPointer { .. } => {
                return Err(self.error(location, "subscript of a pointer variable's vector"))
            }
        })
    }

    /// The place of the element (of C type `ty`) a pointer designates:
    /// memory, an element of a word-viewed buffer, bytes of an object of
    /// another type, or one of several of these by a root chosen at run
    /// time.
    pub(super) fn element_place(
        &mut self,
        fb: &mut FnBuilder,
        p: PointerValue,
        ty: &Type,
        location: Location,
    ) -> LResult<Place> {
        match p.target {
            Target::Fixed(root) => self.root_element_place(fb, root, p.index, ty, location),
            Target::Chosen(choice) => {
                let roots = self.root_sets[choice.set].clone();
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
    pub(super) fn pointed_place(
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
        match root {
            Root::Global(global) => {
                if let Some(&element) = self.narrow_buffers.get(&global) {
                    return Ok(Place::Narrow {
                        global,
                        index,
                        element,
                    });
                }
                if self.float_words.contains_key(&global) {
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

    /// For element `index` of a word-viewed buffer: a pointer to its word,
    /// the bit position within the word, and the element's mask.
    pub(super) fn narrow_word(
        &mut self,
        fb: &mut FnBuilder,
        global: Handle<naga::GlobalVariable>,
        index: Handle<naga::Expression>,
        scalar: Scalar,
    ) -> (Handle<naga::Expression>, Handle<naga::Expression>, u32) {
        let bits = scalar.size() * 8;
        let per_word = 32 / bits;
        let u32_lit =
            |fb: &mut Emitter, v: u32| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
        let shift = u32_lit(fb, per_word.trailing_zeros());
        let word_index = fb.binary(naga::BinaryOperator::ShiftRight, index, shift);
        let base = fb.add(naga::Expression::GlobalVariable(global));
        let pointer = fb.add(naga::Expression::Access {
            base,
            index: word_index,
        });
        let lane_mask = u32_lit(fb, per_word - 1);
        let lane = fb.binary(naga::BinaryOperator::And, index, lane_mask);
        let width = u32_lit(fb, bits);
        let bit = fb.binary(naga::BinaryOperator::Multiply, lane, width);
        (pointer, bit, (1u32 << bits) - 1)
    }

    pub(super) fn load_narrow(
        &mut self,
        fb: &mut FnBuilder,
        global: Handle<naga::GlobalVariable>,
        index: Handle<naga::Expression>,
        scalar: Scalar,
    ) -> Handle<naga::Expression> {
        let (pointer, bit, _) = self.narrow_word(fb, global, index, scalar);
        let word = fb.add(naga::Expression::Load { pointer });
        extract_narrow(fb, word, bit, scalar)
    }

    /// The index, in scalars, of the first lane of element `index`.
    fn first_lane(
        fb: &mut FnBuilder,
        index: Handle<naga::Expression>,
        element: NarrowElement,
    ) -> Handle<naga::Expression> {
        let lanes = fb.add(naga::Expression::Literal(naga::Literal::U32(
            element.lanes(),
        )));
        fb.binary(naga::BinaryOperator::Multiply, index, lanes)
    }

    /// The scalar index of lane `lane` of the element whose lane 0 is at
    /// `first`.
    fn lane_index(
        fb: &mut FnBuilder,
        first: Handle<naga::Expression>,
        lane: u8,
    ) -> Handle<naga::Expression> {
        let lane = fb.add(naga::Expression::Literal(naga::Literal::U32(u32::from(
            lane,
        ))));
        fb.binary(naga::BinaryOperator::Add, first, lane)
    }

    /// Element `index` of a word-viewed buffer: a scalar, or a vector
    /// gathered lane by lane.
    fn load_narrow_element(
        &mut self,
        fb: &mut FnBuilder,
        global: Handle<naga::GlobalVariable>,
        index: Handle<naga::Expression>,
        element: NarrowElement,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        if element.width == 1 {
            return Ok(self.load_narrow(fb, global, index, element.scalar));
        }
        let first = Self::first_lane(fb, index, element);
        let mut lanes = Vec::with_capacity(usize::from(element.width));
        for lane in 0..u32::from(element.width) {
            let lane = fb.add(naga::Expression::Literal(naga::Literal::U32(lane)));
            let at = fb.binary(naga::BinaryOperator::Add, first, lane);
            let value = self.load_narrow(fb, global, at, element.scalar);
            lanes.push(wide::LaneRef {
                value,
                width: 1,
                lane: 0,
            });
        }
        self.gather(fb, element.scalar, &lanes, location)
    }

    /// Stores element `index` of a word-viewed buffer. A vector that fills
    /// whole words (`uchar4`, `short2`, `ushort4`, ...) is packed and
    /// stored a word at a time, with no atomics: no other element shares
    /// those words. Narrower vectors store lane by lane, atomically.
    fn store_narrow_element(
        &mut self,
        fb: &mut FnBuilder,
        global: Handle<naga::GlobalVariable>,
        index: Handle<naga::Expression>,
        element: NarrowElement,
        value: Handle<naga::Expression>,
        location: Location,
    ) -> LResult<()> {
        let scalar = element.scalar;
        if element.width == 1 {
            return self.store_narrow(fb, global, index, scalar, value, location);
        }
        let first = Self::first_lane(fb, index, element);
        let u32_lit =
            |fb: &mut Emitter, v: u32| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
        if !element.fills_words() {
            for lane in 0..u32::from(element.width) {
                let part = fb.lane(value, element.width, lane as u8);
                let offset = u32_lit(fb, lane);
                let at = fb.binary(naga::BinaryOperator::Add, first, offset);
                self.store_narrow(fb, global, at, scalar, part, location)?;
            }
            return Ok(());
        }
        let bits = scalar.size() * 8;
        let per_word = 32 / bits;
        let words = scalar.size() * element.lanes() / 4;
        let shift = u32_lit(fb, per_word.trailing_zeros());
        let first_word = fb.binary(naga::BinaryOperator::ShiftRight, first, shift);
        let mask = u32_lit(fb, (1u32 << bits) - 1);
        for w in 0..words {
            let mut word = None;
            // A 3-vector's fourth lane is padding and is stored as zero.
            for k in (0..per_word).filter(|k| w * per_word + k < u32::from(element.width)) {
                let mut part = fb.lane(value, element.width, (w * per_word + k) as u8);
                if scalar == Scalar::Half {
                    part = fp16::half_to_bits(fb, part);
                } else if scalar.is_signed() {
                    part = fb.add(naga::Expression::As {
                        expr: part,
                        kind: naga::ScalarKind::Uint,
                        convert: None,
                    });
                }
                let mut field = fb.binary(naga::BinaryOperator::And, part, mask);
                if k > 0 {
                    let at = u32_lit(fb, k * bits);
                    field = fb.binary(naga::BinaryOperator::ShiftLeft, field, at);
                }
                word = Some(match word {
                    Some(acc) => fb.binary(naga::BinaryOperator::InclusiveOr, acc, field),
                    None => field,
                });
            }
            let value = word.unwrap_or_else(|| u32_lit(fb, 0));
            let offset = u32_lit(fb, w);
            let word_index = fb.binary(naga::BinaryOperator::Add, first_word, offset);
            let base = fb.add(naga::Expression::GlobalVariable(global));
            let pointer = fb.add(naga::Expression::Access {
                base,
                index: word_index,
            });
            fb.push(naga::Statement::Store { pointer, value });
        }
        Ok(())
    }

    /// Stores into a word-viewed buffer by clearing and setting the
    /// element's bits with two atomics, so that work-items writing the
    /// other bytes of the same word never lose their writes.
    pub(super) fn store_narrow(
        &mut self,
        fb: &mut FnBuilder,
        global: Handle<naga::GlobalVariable>,
        index: Handle<naga::Expression>,
        scalar: Scalar,
        value: Handle<naga::Expression>,
        location: Location,
    ) -> LResult<()> {
        self.make_atomic(global, naga::Scalar::U32, location)?;
        let (pointer, bit, mask) = self.narrow_word(fb, global, index, scalar);
        let bits = if scalar == Scalar::Half {
            fp16::half_to_bits(fb, value)
        } else if scalar.is_signed() {
            fb.add(naga::Expression::As {
                expr: value,
                kind: naga::ScalarKind::Uint,
                convert: None,
            })
        } else {
            value
        };
        let mask = fb.add(naga::Expression::Literal(naga::Literal::U32(mask)));
        let field = fb.binary(naga::BinaryOperator::And, bits, mask);
        let set = fb.binary(naga::BinaryOperator::ShiftLeft, field, bit);
        let hole = fb.binary(naga::BinaryOperator::ShiftLeft, mask, bit);
        let clear = fb.unary(naga::UnaryOperator::BitwiseNot, hole);
        for (fun, value) in [
            (naga::AtomicFunction::And, clear),
            (naga::AtomicFunction::InclusiveOr, set),
        ] {
            fb.push(naga::Statement::Atomic {
                pointer,
                fun,
                value,
                result: None,
            });
        }
        Ok(())
    }

    /// A naga pointer to element `index` of `root`, which is not a cast.
    pub(super) fn element_pointer(
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
                if matches!(self.module.types[ty].inner, naga::TypeInner::Array { .. }) {
                    fb.add(naga::Expression::Access { base, index })
                } else {
                    // `&x` of a `__local` scalar: as for a private scalar.
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

    pub(super) fn load(
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
            Place::PointerVar(id) => Value::Pointer(self.load_pointer_var(fb, id, location)?),
            Place::BlockPointer { word, pointee } => {
                Value::Pointer(self.load_block_pointer(fb, word, &pointee, location)?)
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

    /// The naga variable of a non-pointer local. Slots are made from the
    /// HIR types, which `check` made consistent with every use, so a
    /// mismatch is a translator bug, reported rather than panicking.
    pub(super) fn variable_slot(
        &mut self,
        fb: &FnBuilder,
        id: LocalId,
    ) -> LResult<Handle<naga::LocalVariable>> {
        match fb.slots.get(&id) {
            Some(Slot::Variable(v)) => Ok(*v),
            _ => Err(self.internal_error(fb, id)),
        }
    }

    /// For a pointer into private memory passed as argument `arg` of a
    /// helper call: the helper's root for it and the naga pointer to pass
    /// (the variable, or this helper's own such argument). `None` for
    /// other memory, which the helper reaches by itself. The root carries
    /// the variable's identity, so helpers are specialised per variable
    /// and compare pointers as the caller would.
    pub(super) fn private_argument(
        &mut self,
        fb: &mut FnBuilder,
        root: Root,
        arg: u32,
        location: Location,
    ) -> LResult<Option<(Root, Handle<naga::Expression>)>> {
        Ok(Some(match root {
            Root::Private(v, array) => {
                let ty = fb.function.local_variables[v].ty;
                let identity = self.object_identity(root);
                let pointer = fb.add(naga::Expression::LocalVariable(v));
                let root = Root::Argument {
                    arg,
                    ty,
                    array,
                    identity,
                };
                (root, pointer)
            }
            Root::Argument {
                arg: own,
                ty,
                array,
                identity,
            } => {
                let pointer = fb.add(naga::Expression::FunctionArgument(own));
                let root = Root::Argument {
                    arg,
                    ty,
                    array,
                    identity,
                };
                (root, pointer)
            }
            Root::Cast(b)
                if matches!(
                    self.cast_bases[b].base,
                    Root::Private(..) | Root::Argument { .. }
                ) =>
            {
                return Err(self.error(
                    location,
                    "passing a pointer cast from another type of private memory to a function is not supported yet by this translator",
                ));
            }
            _ => return Ok(None),
        }))
    }

    /// Where the array `array` (a variable) lives, as a pointer root.
    pub(super) fn array_root(&mut self, fb: &FnBuilder, array: ExprId) -> LResult<Root> {
        let array = fb.expr(array);
        match array.kind {
            H::Local(id) => match fb.slots.get(&id) {
                Some(Slot::Variable(v)) => Ok(Root::Private(*v, true)),
                Some(Slot::Workgroup(g)) => Ok(Root::Global(*g)),
                _ => Err(self.internal_error(fb, id)),
            },
            H::Global(id) => Ok(Root::Global(
                self.program_global(id, array.span.location())?,
            )),
            H::Str(ref bytes) => Ok(Root::Global(self.string_literal_global(
                bytes,
                &array.ty,
                array.span.location(),
            )?)),
            _ => Err(self.error(
                array.span,
                "only arrays in variables can be used as pointers for now",
            )),
        }
    }

    /// The root, index variable and root choice of a pointer local.
    pub(super) fn pointer_slot(
        &mut self,
        fb: &FnBuilder,
        id: LocalId,
    ) -> LResult<(Option<Root>, Handle<naga::LocalVariable>, Option<ChosenVar>)> {
        match fb.slots.get(&id) {
            Some(Slot::Pointer {
                root,
                index,
                chosen,
            }) => Ok((*root, *index, *chosen)),
            _ => Err(self.internal_error(fb, id)),
        }
    }

    pub(super) fn internal_error(&mut self, fb: &FnBuilder, id: LocalId) -> Failed {
        let local = fb.local(id);
        let name = &self.program.names[local.name];
        let message =
            format!("internal compiler error: variable '{name}' has no storage of its type");
        self.error(local.span, message)
    }

    pub(super) fn load_pointer_var(
        &mut self,
        fb: &mut FnBuilder,
        id: LocalId,
        location: Location,
    ) -> LResult<PointerValue> {
        let (root, index, chosen) = self.pointer_slot(fb, id)?;
        let pointer = fb.add(naga::Expression::LocalVariable(index));
        let index = fb.add(naga::Expression::Load { pointer });
        let target = match (chosen, root) {
            (Some(ChosenVar { set, which }), _) => {
                let pointer = fb.add(naga::Expression::LocalVariable(which));
                let which = fb.add(naga::Expression::Load { pointer });
                Target::Chosen(Choice { set, which })
            }
            (None, Some(root)) => Target::Fixed(root),
            (None, None) => {
                return Err(self.error(
                    location,
                    "pointer variable is used before it is given a value",
                ))
            }
        };
        Ok(PointerValue { target, index })
    }

    /// Stores a pointer into pointer variable `id`, whose roots the
    /// analysis gave it (see `roots.rs`): one, or several chosen at run
    /// time by a position the store sets too.
    pub(super) fn store_pointer_var(
        &mut self,
        fb: &mut FnBuilder,
        id: LocalId,
        value: PointerValue,
        location: Location,
    ) -> LResult<()> {
        let (root, index, chosen) = self.pointer_slot(fb, id)?;
        match (chosen, root, value.target) {
            (Some(ChosenVar { set, which }), _, target) => {
                let Some(position) = self.position_in(fb, target, set) else {
                    return Err(self.missed_root(location));
                };
                let pointer = fb.add(naga::Expression::LocalVariable(which));
                fb.push(naga::Statement::Store {
                    pointer,
                    value: position,
                });
            }
            (None, Some(r), Target::Fixed(given)) if r == given => {}
            _ => return Err(self.missed_root(location)),
        }
        let pointer = fb.add(naga::Expression::LocalVariable(index));
        fb.push(naga::Statement::Store {
            pointer,
            value: value.index,
        });
        Ok(())
    }

    /// Stores `value` to `place`; `init` names the local for initialisers.
    pub(super) fn store(
        &mut self,
        fb: &mut FnBuilder,
        place: Place,
        value: Value,
        location: Location,
        init: Option<LocalId>,
    ) -> LResult<()> {
        let place = match (place, init) {
            (Place::PointerVar(_), Some(id)) => match fb.slots[&id] {
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
                for (i, &l) in lanes.iter().enumerate() {
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
            (Place::BlockPointer { word, pointee }, Value::Pointer(p)) => {
                self.store_block_pointer(fb, word, &pointee, p, location)?
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
            (Place::Null(_), Value::Plain(_)) => {}
            (
                Place::Chosen {
                    which, candidates, ..
                },
                Value::Plain(value),
            ) => {
                self.switch_cases(
                    fb,
                    which,
                    candidates.len(),
                    None,
                    location,
                    |this, fb, k| {
                        let place = candidates[k].clone();
                        this.store(fb, place, Value::Plain(value), location, None)?;
                        Ok(Value::Void)
                    },
                )?;
            }
            _ => return Err(self.error(location, "mismatched assignment of a pointer and a value")),
        }
        Ok(())
    }

    pub(super) fn pointer(
        &mut self,
        fb: &mut FnBuilder,
        e: impl Into<Operand>,
    ) -> LResult<PointerValue> {
        let e = e.into();
        match self.expr(fb, e)? {
            Value::Pointer(p) => Ok(p),
            _ => {
                let at = fb.hir(e).map(|e| e.span).unwrap_or_default();
                Err(self.error(
                    at,
                    "this pointer cannot be resolved to a buffer or array at compile time",
                ))
            }
        }
    }

    /// An integer index as a wrapping `u32`.
    pub(super) fn index_value(
        &mut self,
        fb: &mut FnBuilder,
        e: impl Into<Operand>,
    ) -> LResult<Handle<naga::Expression>> {
        let e = e.into();
        let s = fb.ty(e).scalar().unwrap_or(Scalar::Int);
        let v = self.plain(fb, e)?;
        Ok(match s.size() {
            8 => fb.add(naga::Expression::As {
                expr: v,
                kind: naga::ScalarKind::Uint,
                convert: Some(4),
            }),
            _ if s.is_signed() => fb.add(naga::Expression::As {
                expr: v,
                kind: naga::ScalarKind::Uint,
                convert: None,
            }),
            _ => v,
        })
    }

    pub(super) fn address_of(
        &mut self,
        fb: &mut FnBuilder,
        id: ExprId,
        location: Location,
    ) -> LResult<Value> {
        let x = fb.expr(id);
        let source = fb.source;
        let ty = |h: ExprId| source.exprs[h].ty;
        match x.kind {
            H::Index(base, index) if ty(base).is_pointer() => {
                let p = self.pointer(fb, base)?;
                let i = self.index_value(fb, index)?;
                let index = fb.binary(naga::BinaryOperator::Add, p.index, i);
                Ok(Value::Pointer(p.at(index)))
            }
            H::Index(base, index) => {
                if let Some(p) = self.block_element_pointer(fb, base, index, &x.ty, location)? {
                    return Ok(Value::Pointer(p));
                }
                let root = self.array_root(fb, base)?;
                let index = self.index_value(fb, index)?;
                Ok(Value::Pointer(PointerValue::fixed(root, index)))
            }
            H::Deref(p) => Ok(Value::Pointer(self.pointer(fb, p)?)),
            H::Global(global) if self.block_place_of(x) => {
                self.block_address(fb, global, id).map(Value::Pointer)
            }
            H::Local(_) | H::Global(_) if x.ty.is_array() => {
                let root = self.array_root(fb, id)?;
                let index = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
                Ok(Value::Pointer(PointerValue::fixed(root, index)))
            }
            H::Local(local) => {
                let v = match fb.slots[&local] {
                    Slot::Variable(v) => v,
                    Slot::Workgroup(g) => {
                        let index = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
                        return Ok(Value::Pointer(PointerValue::fixed(Root::Global(g), index)));
                    }
                    Slot::Pointer { .. } => {
                        return Err(self.error(
                            location,
                            "taking this address is not supported yet by this translator",
                        ))
                    }
                };
                let index = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
                let is_array = matches!(x.ty, Type::Array(..));
                Ok(Value::Pointer(PointerValue::fixed(
                    Root::Private(v, is_array),
                    index,
                )))
            }
            _ => Err(self.error(
                location,
                "taking this address is not supported yet by this translator",
            )),
        }
    }

    /// The element places `vloadn`/`vstoren` touch: `n` consecutive elements
    /// from `p + offset * n`, aligned to the element only (OpenCL C 6.15.10;
    /// `vload3` reads exactly three).
    pub(super) fn vector_places(
        &mut self,
        fb: &mut FnBuilder,
        n: u8,
        stride: u8,
        offset: Operand,
        pointer: Operand,
        location: Location,
    ) -> LResult<Vec<Place>> {
        let element = self.pointee_of(fb, pointer).map_or(Type::Void, |t| t.ty);
        let location = fb.hir(pointer).map_or(location, |e| e.span.location());
        let p = self.pointer(fb, pointer)?;
        let offset = self.index_value(fb, offset)?;
        let width = fb.add(naga::Expression::Literal(naga::Literal::U32(u32::from(
            stride,
        ))));
        let scaled = fb.binary(naga::BinaryOperator::Multiply, offset, width);
        let first = fb.binary(naga::BinaryOperator::Add, p.index, scaled);
        let mut places = Vec::with_capacity(usize::from(n));
        for k in 0..u32::from(n) {
            let k = fb.add(naga::Expression::Literal(naga::Literal::U32(k)));
            let index = fb.binary(naga::BinaryOperator::Add, first, k);
            places.push(self.element_place(fb, p.at(index), &element, location)?);
        }
        Ok(places)
    }

    pub(super) fn vload(
        &mut self,
        fb: &mut FnBuilder,
        n: u8,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Value> {
        let mut lanes = Vec::new();
        for place in self.vector_places(fb, n, n, args[0], args[1], location)? {
            match self.load(fb, place, location)? {
                Value::Plain(value) => lanes.push(wide::LaneRef {
                    value,
                    width: 1,
                    lane: 0,
                }),
                _ => return Err(self.error(location, "vload of pointers")),
            }
        }
        let s = ty.element().unwrap_or(Scalar::Float);
        Ok(Value::Plain(self.gather(fb, s, &lanes, location)?))
    }

    pub(super) fn vstore(
        &mut self,
        fb: &mut FnBuilder,
        n: u8,
        args: &[Operand],
        location: Location,
    ) -> LResult<()> {
        let data = self.plain(fb, args[0])?;
        let places = self.vector_places(fb, n, n, args[1], args[2], location)?;
        for (k, place) in places.into_iter().enumerate() {
            let lane = fb.lane(data, n, k as u8);
            self.store(fb, place, Value::Plain(lane), location, None)?;
        }
        Ok(())
    }

    /// The 16 bits of each `half` that `vload_half`/`vstore_half` touch:
    /// they live in word-viewed buffers (there are no `half` values
    /// without cl_khr_fp16).
    fn half_places(
        &mut self,
        fb: &mut FnBuilder,
        n: u8,
        stride: u8,
        offset: Operand,
        pointer: Operand,
        location: Location,
    ) -> LResult<Vec<(Handle<naga::GlobalVariable>, Handle<naga::Expression>)>> {
        self.vector_places(fb, n, stride, offset, pointer, location)?
            .into_iter()
            .map(|place| match place {
                Place::Narrow { global, index, .. } => Ok((global, index)),
                _ => Err(self.error(
                    location,
                    "vload_half/vstore_half on this memory are not supported yet by this translator",
                )),
            })
            .collect()
    }

    /// `vload_halfn`: halfs widened to floats, exactly (every half is a
    /// float).
    pub(super) fn vload_half(
        &mut self,
        fb: &mut FnBuilder,
        n: u8,
        stride: u8,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Value> {
        let mut lanes = Vec::new();
        for (global, index) in self.half_places(fb, n, stride, args[0], args[1], location)? {
            let (pointer, bit, _) = self.narrow_word(fb, global, index, Scalar::UShort);
            let word = fb.add(naga::Expression::Load { pointer });
            let bits = extract_narrow(fb, word, bit, Scalar::UShort);
            let pair = fb.add(naga::Expression::Math {
                fun: naga::MathFunction::Unpack2x16float,
                arg: bits,
                arg1: None,
                arg2: None,
                arg3: None,
            });
            lanes.push(fb.add(naga::Expression::AccessIndex {
                base: pair,
                index: 0,
            }));
        }
        let lanes: Vec<_> = lanes
            .into_iter()
            .map(|value| wide::LaneRef {
                value,
                width: 1,
                lane: 0,
            })
            .collect();
        let s = ty.element().unwrap_or(Scalar::Float);
        Ok(Value::Plain(self.gather(fb, s, &lanes, location)?))
    }

    /// `vstore_halfn`: floats narrowed to halfs, rounding to nearest even;
    /// the directed roundings are not built yet.
    pub(super) fn vstore_half(
        &mut self,
        fb: &mut FnBuilder,
        n: u8,
        stride: u8,
        rounding: crate::builtins::Rounding,
        args: &[Operand],
        location: Location,
    ) -> LResult<()> {
        let data = self.plain(fb, args[0])?;
        let float_ty = match &fb.ty(args[0]) {
            Type::Vector(_, m) => Type::Vector(Scalar::Float, *m),
            _ => Type::FLOAT,
        };
        let data = self.convert(fb, data, &fb.ty(args[0]), &float_ty, location)?;
        let vec2 = self.add_type(naga::TypeInner::Vector {
            size: naga::VectorSize::Bi,
            scalar: naga::Scalar::F32,
        });
        let places = self.half_places(fb, n, stride, args[1], args[2], location)?;
        for (k, (global, index)) in places.into_iter().enumerate() {
            let lane = fb.lane(data, n, k as u8);
            let zero = fb.add(naga::Expression::Literal(naga::Literal::F32(0.0)));
            let pair = fb.add(naga::Expression::Compose {
                ty: vec2,
                components: vec![lane, zero],
            });
            let bits = fb.add(naga::Expression::Math {
                fun: naga::MathFunction::Pack2x16float,
                arg: pair,
                arg1: None,
                arg2: None,
                arg3: None,
            });
            let bits = directed_half(fb, lane, bits, rounding);
            self.store_narrow(fb, global, index, Scalar::UShort, bits, location)?;
        }
        Ok(())
    }
}

/// The exact float value of the half whose bits are the low 16 of `bits`,
/// computed with integer operations. Unpacking the half instead lets a
/// driver fold `unpack(pack(x))` back to `x` (NVIDIA does), which hides
/// the rounding this is meant to observe.
fn half_bits_to_float(
    fb: &mut Emitter,
    bits: Handle<naga::Expression>,
) -> Handle<naga::Expression> {
    use naga::BinaryOperator as B;
    let lit = |fb: &mut Emitter, v: u32| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
    let (ten, mask5, mask10, sign_bit) =
        (lit(fb, 10), lit(fb, 0x1f), lit(fb, 0x3ff), lit(fb, 0x8000));
    let shifted = fb.binary(B::ShiftRight, bits, ten);
    let exponent = fb.binary(B::And, shifted, mask5);
    let mantissa = fb.binary(B::And, bits, mask10);
    let sign = fb.binary(B::And, bits, sign_bit);
    let sixteen = lit(fb, 16);
    let sign32 = fb.binary(B::ShiftLeft, sign, sixteen);
    // Normal: rebias the exponent (15 -> 127) and widen the mantissa.
    let rebias = lit(fb, 112);
    let biased = fb.binary(B::Add, exponent, rebias);
    let at23 = lit(fb, 23);
    let exponent32 = fb.binary(B::ShiftLeft, biased, at23);
    let at13 = lit(fb, 13);
    let mantissa32 = fb.binary(B::ShiftLeft, mantissa, at13);
    let normal = fb.binary(B::InclusiveOr, sign32, exponent32);
    let normal = fb.binary(B::InclusiveOr, normal, mantissa32);
    // Infinity and NaN: an infinity is enough, as NaN compares false.
    let infinity = lit(fb, 0x7f80_0000);
    let infinity = fb.binary(B::InclusiveOr, sign32, infinity);
    let all_ones = lit(fb, 0x1f);
    let is_special = fb.binary(B::Equal, exponent, all_ones);
    let float_bits = fb.select(is_special, infinity, normal);
    let wide = fb.add(naga::Expression::As {
        expr: float_bits,
        kind: naga::ScalarKind::Float,
        convert: None,
    });
    // Subnormal (and zero): mantissa * 2^-24, exactly.
    let m = fb.add(naga::Expression::As {
        expr: mantissa,
        kind: naga::ScalarKind::Float,
        convert: Some(4),
    });
    let scale = fb.add(naga::Expression::Literal(naga::Literal::F32(
        5.960_464_5e-8,
    )));
    let small = fb.binary(B::Multiply, m, scale);
    let negated = fb.unary(naga::UnaryOperator::Negate, small);
    let zero = lit(fb, 0);
    let negative = fb.binary(B::NotEqual, sign, zero);
    let small = fb.select(negative, negated, small);
    let is_small = fb.binary(B::Equal, exponent, zero);
    fb.select(is_small, small, wide)
}

/// The half bits of `value` under `rounding`, from `nearest`, its bits
/// rounded to nearest even (what the hardware conversion does). A directed
/// mode moves one step when the nearest half lies on the wrong side of the
/// value: halves are sign and magnitude, so adding or subtracting one in
/// the integer bits steps the magnitude, through subnormals, and from the
/// largest finite half to infinity (and back). NaN compares false and
/// stays as it is.
fn directed_half(
    fb: &mut Emitter,
    value: Handle<naga::Expression>,
    nearest: Handle<naga::Expression>,
    rounding: crate::builtins::Rounding,
) -> Handle<naga::Expression> {
    use crate::builtins::Rounding;
    use naga::BinaryOperator as B;
    if matches!(rounding, Rounding::Default | Rounding::Rte) {
        return nearest;
    }
    let back = half_bits_to_float(fb, nearest);
    let abs = |fb: &mut Emitter, arg| fb.math(naga::MathFunction::Abs, arg, None);
    let lit = |fb: &mut Emitter, v: u32| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
    let sign = lit(fb, 0x8000);
    let sign = fb.binary(B::And, nearest, sign);
    let zero = lit(fb, 0);
    let negative = fb.binary(B::NotEqual, sign, zero);
    let (up, down) = (lit(fb, 1), lit(fb, u32::MAX));
    let (wrong_side, step) = match rounding {
        Rounding::Rtz => {
            let (a, b) = (abs(fb, back), abs(fb, value));
            (fb.binary(B::Greater, a, b), down)
        }
        Rounding::Rtp => {
            let step = fb.select(negative, down, up);
            (fb.binary(B::Less, back, value), step)
        }
        _ => {
            let step = fb.select(negative, up, down);
            (fb.binary(B::Greater, back, value), step)
        }
    };
    let stepped = fb.binary(B::Add, nearest, step);
    fb.select(wrong_side, stepped, nearest)
}

/// A pointer to lane `lane` (a run-time u32 below `width`) of the vector of
/// `width` lanes at `pointer`.
pub(super) fn dynamic_lane_pointer(
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
