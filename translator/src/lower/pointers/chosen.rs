//! Pointers whose root is chosen at run time: `c ? a : b` between
//! different buffers or arrays, and pointer variables given different
//! roots on different paths (ping-pong buffers swapped in a loop).
//!
//! naga has no pointer values, so such a pointer carries, next to its
//! element index, a `u32` position in a set of candidate roots. Loads,
//! stores and helper calls through it become a `switch` over the
//! candidates, each case the access that a pointer with that one root
//! would make.
//!
//! Which roots a pointer variable takes, and which a helper's returned
//! pointers may have, the analysis finds before the function is lowered
//! (see [`crate::analysis::provenance`] and `roots.rs`): a variable given
//! several is a chosen one from the start. A helper returning a pointer
//! returns its index and its position among the roots its returns may
//! have; the caller maps them to its own roots.
//!
//! The null pointer is a root of its own (`Root::Null`), so a pointer may
//! be chosen between null and memory like between two arrays.
//!
//! Pointer comparisons, differences, conversions to integers and `%p` use a
//! pointer's address: the identity of the object its root views (see
//! `object_identity`; null is object 0) and the byte offset in it.

use crate::ast::BinaryOp;
use crate::diagnostic::Location;
use crate::hir::{ExprId, ExprKind as H};
use crate::lower::builder::{Failed, LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::expressions::Value;
use crate::lower::function::FnBuilder;
use crate::lower::pointers::{Choice, PointerValue, Root, Target};
use crate::types::{Scalar, Type};
use naga::{Handle, Span};

/// Where the identities of buffer arguments named by their allocation in
/// the launch start (see `ModuleBuilder::identity_value`): past those of
/// globals (`1 + index`) and private variables (`0x10000 + index`).
const ALLOCATION_IDENTITIES: u32 = 0x20000;

/// `0` or `(T *)0`: a null pointer constant.
pub(in crate::lower) fn is_null_constant(fb: &FnBuilder, e: ExprId) -> bool {
    match fb.expr(e).kind {
        H::Int(0) => true,
        H::PointerCast(inner) => is_null_constant(fb, inner),
        _ => false,
    }
}

/// What [`ModuleBuilder::join_pointers`] makes: the index variable, the
/// root set and position variable where the roots differ, and the roots.
type JoinedPointer = (
    Handle<naga::LocalVariable>,
    Option<(usize, Handle<naga::LocalVariable>)>,
    Vec<Root>,
);

/// `table[which]` for a `u32` expression `which` below `table.len()`, as
/// a chain of selects (the tables are a few roots long).
pub(super) fn table_lookup(
    fb: &mut Emitter,
    which: Handle<naga::Expression>,
    table: &[u32],
) -> Handle<naga::Expression> {
    let lit = |fb: &mut Emitter, v: u32| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
    let mut result = lit(fb, table[table.len() - 1]);
    for (k, &value) in table.iter().enumerate().rev().skip(1) {
        let k = lit(fb, k as u32);
        let is_k = fb.binary(naga::BinaryOperator::Equal, which, k);
        let value = lit(fb, value);
        result = fb.select(is_k, value, result);
    }
    result
}

impl<'a> ModuleBuilder<'a> {
    /// The index of root set `roots`, made on first use.
    pub(in crate::lower) fn root_set(&mut self, roots: Vec<Root>) -> usize {
        match self.memory.root_sets.iter().position(|s| *s == roots) {
            Some(i) => i,
            None => {
                self.memory.root_sets.push(roots);
                self.memory.root_sets.len() - 1
            }
        }
    }

    /// Every root `target` may be.
    pub(super) fn roots_of(&self, target: Target) -> Vec<Root> {
        match target {
            Target::Fixed(root) => vec![root],
            Target::Chosen(choice) => self.memory.root_sets[choice.set].clone(),
        }
    }

    /// The position of `target`'s root in root set `set` as a `u32`
    /// expression, or `None` when it may be a root outside the set.
    pub(super) fn position_in(
        &mut self,
        fb: &mut FnBuilder,
        target: Target,
        set: usize,
    ) -> Option<Handle<naga::Expression>> {
        let roots = self.memory.root_sets[set].clone();
        let position = |r: &Root| roots.iter().position(|x| x == r).map(|p| p as u32);
        let lit =
            |fb: &mut Emitter, v: u32| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
        match target {
            Target::Fixed(root) => Some(lit(fb, position(&root)?)),
            Target::Chosen(choice) if choice.set == set => Some(choice.which),
            Target::Chosen(choice) => {
                let from = self.memory.root_sets[choice.set].clone();
                let map: Vec<u32> = from.iter().map(position).collect::<Option<_>>()?;
                Some(table_lookup(fb, choice.which, &map))
            }
        }
    }

    /// A `switch` on `which` (a `u32` below `count`) whose case `k` is made
    /// by `case(k)`; the last case is the default. With `result`, each
    /// case's value (of C type `result`) is the switch's value; a pointer
    /// result is chosen at run time among the roots of every case's
    /// pointer, as `c ? p : q` is.
    pub(super) fn switch_cases(
        &mut self,
        fb: &mut FnBuilder,
        which: Handle<naga::Expression>,
        count: usize,
        result: Option<&Type>,
        location: Location,
        mut case: impl FnMut(&mut Self, &mut FnBuilder, usize) -> LResult<Value>,
    ) -> LResult<Value> {
        let pointer_result = matches!(result, Some(Type::Pointer(_)));
        let var = match result {
            Some(ty) if !pointer_result => {
                let ty = self.value_type(ty, location)?;
                Some(fb.function.local_variables.append(
                    naga::LocalVariable {
                        name: None,
                        ty,
                        init: None,
                    },
                    Span::UNDEFINED,
                ))
            }
            _ => None,
        };
        let mut bodies = Vec::with_capacity(count);
        let mut pointers = Vec::new();
        for k in 0..count {
            fb.blocks.push(naga::Block::new());
            let value = case(self, fb, k);
            let stored = match (value, var) {
                (Ok(Value::Plain(value)), Some(var)) => {
                    let pointer = fb.add(naga::Expression::LocalVariable(var));
                    fb.push(naga::Statement::Store { pointer, value });
                    Ok(())
                }
                (Ok(Value::Pointer(p)), None) if pointer_result => {
                    pointers.push(p);
                    Ok(())
                }
                (Ok(_), _) if pointer_result => Err(self.error(
                    location,
                    "internal compiler error: a case of a pointer choice gave no pointer",
                )),
                (Ok(_), _) => Ok(()),
                (Err(e), _) => Err(e),
            };
            let body = fb.blocks.pop().expect("switch case");
            stored?;
            bodies.push(body);
        }
        let pointer = match pointer_result {
            true => Some(self.join_pointers(fb, &mut bodies, &pointers)),
            false => None,
        };
        let cases = bodies
            .into_iter()
            .enumerate()
            .map(|(k, body)| naga::SwitchCase {
                value: if k + 1 == count {
                    naga::SwitchValue::Default
                } else {
                    naga::SwitchValue::U32(k as u32)
                },
                body,
                fall_through: false,
            })
            .collect();
        fb.push(naga::Statement::Switch {
            selector: which,
            cases,
        });
        Ok(match (var, pointer) {
            (Some(var), _) => {
                let pointer = fb.add(naga::Expression::LocalVariable(var));
                Value::Plain(fb.add(naga::Expression::Load { pointer }))
            }
            (None, Some(joined)) => Value::Pointer(Self::load_joined(fb, joined)),
            (None, None) => Value::Void,
        })
    }

    /// One pointer from the pointers `pointers[k]` that blocks `blocks[k]`
    /// end with: each block stores its own into an index variable and,
    /// where the roots differ, its root's position in the set of all of
    /// them. Returns the index variable, the set and position variable
    /// (if any), and the roots.
    fn join_pointers(
        &mut self,
        fb: &mut FnBuilder,
        blocks: &mut [naga::Block],
        pointers: &[PointerValue],
    ) -> JoinedPointer {
        let mut roots = Vec::new();
        for p in pointers {
            for r in self.roots_of(p.target) {
                if !roots.contains(&r) {
                    roots.push(r);
                }
            }
        }
        let u32_ty = self.u32_type();
        let new_u32 = |fb: &mut Emitter| {
            fb.function.local_variables.append(
                naga::LocalVariable {
                    name: None,
                    ty: u32_ty,
                    init: None,
                },
                Span::UNDEFINED,
            )
        };
        let index = new_u32(fb);
        let chosen = (roots.len() > 1).then(|| (self.root_set(roots.clone()), new_u32(fb)));
        for (block, p) in blocks.iter_mut().zip(pointers) {
            fb.blocks.push(std::mem::take(block));
            let pointer = fb.add(naga::Expression::LocalVariable(index));
            fb.push(naga::Statement::Store {
                pointer,
                value: p.index,
            });
            if let Some((set, which)) = chosen {
                let value = self
                    .position_in(fb, p.target, set)
                    .expect("the set holds every case's roots");
                let pointer = fb.add(naga::Expression::LocalVariable(which));
                fb.push(naga::Statement::Store { pointer, value });
            }
            *block = fb.blocks.pop().expect("case");
        }
        (index, chosen, roots)
    }

    /// `case(root)` for the root `choice` holds, by a switch over its set.
    pub(in crate::lower) fn for_each_root(
        &mut self,
        fb: &mut FnBuilder,
        choice: Choice,
        result: Option<&Type>,
        location: Location,
        mut case: impl FnMut(&mut Self, &mut FnBuilder, Root) -> LResult<Value>,
    ) -> LResult<Value> {
        let roots = self.memory.root_sets[choice.set].clone();
        self.switch_cases(
            fb,
            choice.which,
            roots.len(),
            result,
            location,
            |this, fb, k| case(this, fb, roots[k]),
        )
    }

    /// `c ? a : b` of pointer type: each side is evaluated in its branch;
    /// the result has one root if both sides do, and is chosen at run time
    /// otherwise.
    pub(in crate::lower) fn conditional_pointer(
        &mut self,
        fb: &mut FnBuilder,
        c: ExprId,
        a: ExprId,
        b: ExprId,
    ) -> LResult<Value> {
        let condition = self.condition(fb, c)?;
        let mut blocks = Vec::with_capacity(2);
        let mut pointers = Vec::with_capacity(2);
        for side in [a, b] {
            fb.blocks.push(naga::Block::new());
            let p = self.pointer(fb, side);
            blocks.push(fb.blocks.pop().expect("branch"));
            pointers.push(p?);
        }
        let joined = self.join_pointers(fb, &mut blocks, &pointers);
        let reject = blocks.pop().expect("reject");
        let accept = blocks.pop().expect("accept");
        fb.push(naga::Statement::If {
            condition,
            accept,
            reject,
        });
        Ok(Value::Pointer(Self::load_joined(fb, joined)))
    }

    /// The pointer [`Self::join_pointers`] left in its variables, read
    /// after the blocks that set them.
    fn load_joined(fb: &mut FnBuilder, joined: JoinedPointer) -> PointerValue {
        let (index, chosen, roots) = joined;
        let pointer = fb.add(naga::Expression::LocalVariable(index));
        let index = fb.add(naga::Expression::Load { pointer });
        let target = match chosen {
            Some((set, which)) => {
                let pointer = fb.add(naga::Expression::LocalVariable(which));
                let which = fb.add(naga::Expression::Load { pointer });
                Target::Chosen(Choice { set, which })
            }
            None => Target::Fixed(roots[0]),
        };
        PointerValue { target, index }
    }

    /// The value `return p;` gives for a pointer: a `vec2<u32>` of its index
    /// and its position among the roots the function's returned pointers
    /// may have ([`FnBuilder::return_roots`]), which the caller maps to its
    /// own roots (see `call_values`).
    pub(in crate::lower) fn return_pointer(
        &mut self,
        fb: &mut FnBuilder,
        p: PointerValue,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        for root in self.roots_of(p.target) {
            let base = match root {
                Root::Cast(b) => self.memory.cast_bases[b].base,
                r => r,
            };
            let returnable = match base {
                Root::Private(..) => Err("a pointer to a local variable"),
                Root::Argument { .. } if base != root => {
                    Err("a pointer cast from another type of private memory")
                }
                _ => Ok(()),
            };
            if let Err(what) = returnable {
                return Err(self.error(
                    location,
                    format!("returning {what} is not supported by this translator"),
                ));
            }
        }
        let position = match fb.return_roots.is_empty() {
            true => None,
            false => {
                let set = self.root_set(fb.return_roots.clone());
                let position = self.position_in(fb, p.target, set);
                if position.is_none() {
                    return Err(self.missed_root(location));
                }
                position
            }
        };
        let position =
            position.unwrap_or_else(|| fb.add(naga::Expression::Literal(naga::Literal::U32(0))));
        let ty = self.returned_pointer_type();
        Ok(fb.add(naga::Expression::Compose {
            ty,
            components: vec![p.index, position],
        }))
    }

    /// A pointer reached a root the analysis did not foresee: a translator
    /// bug, reported rather than lowered to a wrong pointer.
    pub(super) fn missed_root(&mut self, location: Location) -> Failed {
        self.error(
            location,
            "internal compiler error: a pointer reaches an object the pointer analysis did not find",
        )
    }

    /// The naga type a function returning a pointer returns.
    pub(in crate::lower) fn returned_pointer_type(&mut self) -> Handle<naga::Type> {
        self.add_type(naga::TypeInner::Vector {
            size: naga::VectorSize::Bi,
            scalar: naga::Scalar::U32,
        })
    }

    /// The pointer a call of `function` returned (`result`, see
    /// [`Self::return_pointer`]), in the caller's roots: a root that is one
    /// of the callee's pointer arguments into private memory is the
    /// caller's root passed there (`private_args`: naga argument position
    /// and caller root).
    pub(in crate::lower) fn returned_pointer(
        &mut self,
        fb: &mut FnBuilder,
        function: Handle<naga::Function>,
        result: Handle<naga::Expression>,
        private_args: &[(u32, Root)],
    ) -> PointerValue {
        let index = fb.add(naga::Expression::AccessIndex {
            base: result,
            index: 0,
        });
        let roots: Vec<Root> = self
            .functions
            .returned_roots(function)
            .iter()
            .copied()
            .map(|root| match root {
                Root::Argument { arg, .. } => private_args
                    .iter()
                    .find(|(at, _)| *at == arg)
                    .map_or(Root::Null, |&(_, caller)| caller),
                r => r,
            })
            .collect();
        let target = match roots.len() {
            // A function that never returns (a pointer) at all.
            0 => Target::Fixed(Root::Null),
            1 => Target::Fixed(roots[0]),
            _ => {
                let which = fb.add(naga::Expression::AccessIndex {
                    base: result,
                    index: 1,
                });
                Target::Chosen(Choice {
                    set: self.root_set(roots),
                    which,
                })
            }
        };
        PointerValue { target, index }
    }

    /// A pointer's address: the identity of the object it points into (a
    /// `u32`, see [`Self::object_identity`]) and its byte offset there. `pointee`
    /// is its pointee type (`void` counts bytes).
    pub(super) fn pointer_address(
        &mut self,
        fb: &mut FnBuilder,
        p: PointerValue,
        pointee: &Type,
        location: Location,
    ) -> LResult<(Handle<naga::Expression>, Handle<naga::Expression>)> {
        let size = match pointee {
            Type::Void => 1,
            t => self
                .type_size(t)
                .ok_or_else(|| self.error(location, "address of an object without a size"))?
                as u32,
        };
        let lit =
            |fb: &mut Emitter, v: u32| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
        let size = lit(fb, size);
        let byte = fb.binary(naga::BinaryOperator::Multiply, p.index, size);
        let (identity, origin) = match p.target {
            Target::Fixed(root) => (self.identity_value(fb, root), self.buffer_origin(fb, root)),
            Target::Chosen(choice) => {
                let roots = self.memory.root_sets[choice.set].clone();
                let mut identity = self.identity_value(fb, roots[roots.len() - 1]);
                let mut origin = self.buffer_origin(fb, roots[roots.len() - 1]);
                for (k, &root) in roots.iter().enumerate().rev().skip(1) {
                    let id = self.identity_value(fb, root);
                    let k = lit(fb, k as u32);
                    let is_k = fb.binary(naga::BinaryOperator::Equal, choice.which, k);
                    identity = fb.select(is_k, id, identity);
                    origin = match (self.buffer_origin(fb, root), origin) {
                        (None, None) => None,
                        (here, rest) => {
                            let here = here.unwrap_or_else(|| lit(fb, 0));
                            let rest = rest.unwrap_or_else(|| lit(fb, 0));
                            Some(fb.select(is_k, here, rest))
                        }
                    };
                }
                (identity, origin)
            }
        };
        let byte = match origin {
            Some(origin) => fb.binary(naga::BinaryOperator::Add, origin, byte),
            None => byte,
        };
        Ok((identity, byte))
    }

    /// [`Self::object_identity`] as a value: 0, as null's, for a buffer
    /// argument the application set to a NULL `cl_mem` (the runtime binds
    /// a stand-in buffer and sets the argument's bit among the launch's
    /// null flags), so that `p == 0` holds for it. Where the kernel
    /// compares or subtracts buffer pointers, a buffer argument is named by
    /// its allocation in this launch (see [`Self::buffer_origin`]).
    pub(super) fn identity_value(
        &mut self,
        fb: &mut FnBuilder,
        root: Root,
    ) -> Handle<naga::Expression> {
        let id = match self.buffer_member(fb, root, |alias| alias.1) {
            // Above every identity `object_identity` gives.
            Some(allocation) => {
                let base = fb.add(naga::Expression::Literal(naga::Literal::U32(
                    ALLOCATION_IDENTITIES,
                )));
                fb.binary(naga::BinaryOperator::Add, base, allocation)
            }
            None => {
                let id = self.object_identity(root);
                fb.add(naga::Expression::Literal(naga::Literal::U32(id)))
            }
        };
        let Some(flag) = self.buffer_null_flag(fb, root) else {
            return id;
        };
        let null = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
        fb.select(flag, null, id)
    }

    /// The byte origin of buffer argument `root` in its allocation (a
    /// sub-buffer's origin in its parent), where the kernel compares or
    /// subtracts buffer pointers; `None` for other roots and kernels. The
    /// runtime names each argument's allocation by the first binding set
    /// to the same buffer or a region of it, so `p + 4 == q` holds for `q`
    /// a sub-buffer 16 bytes into `p`'s buffer.
    pub(super) fn buffer_origin(
        &mut self,
        fb: &mut FnBuilder,
        root: Root,
    ) -> Option<Handle<naga::Expression>> {
        self.buffer_member(fb, root, |alias| alias.2)
    }

    /// The `u32` launch block member `which` picks among buffer argument
    /// `root`'s allocation members, where the kernel has them.
    fn buffer_member(
        &mut self,
        fb: &mut FnBuilder,
        root: Root,
        which: impl Fn((Handle<naga::GlobalVariable>, u32, u32)) -> u32,
    ) -> Option<Handle<naga::Expression>> {
        let alias = self.interface.buffer_alias(self.buffer_binding(root)?)?;
        let base = fb.add(naga::Expression::GlobalVariable(alias.0));
        let pointer = fb.add(naga::Expression::AccessIndex {
            base,
            index: which(alias),
        });
        Some(fb.add(naga::Expression::Load { pointer }))
    }

    /// The binding of the buffer `root` views, if it is one.
    fn buffer_binding(&self, root: Root) -> Option<u32> {
        let Root::Global(g) = root else {
            return None;
        };
        let view = self.memory.views.iter().find(|v| v.view == g)?;
        let binding = self.module.global_variables[view.first].binding.as_ref()?;
        Some(binding.binding)
    }

    /// Whether `root`, a view of a buffer argument, is null in this launch
    /// (a `bool`); `None` for every other root.
    fn buffer_null_flag(
        &mut self,
        fb: &mut FnBuilder,
        root: Root,
    ) -> Option<Handle<naga::Expression>> {
        let binding = self.buffer_binding(root)?;
        let (launch, member, bit) = self.interface.null_flag(binding)?;
        let base = fb.add(naga::Expression::GlobalVariable(launch));
        let pointer = fb.add(naga::Expression::AccessIndex {
            base,
            index: member,
        });
        let word = fb.add(naga::Expression::Load { pointer });
        let mask = fb.add(naga::Expression::Literal(naga::Literal::U32(1 << bit)));
        let set = fb.binary(naga::BinaryOperator::And, word, mask);
        let zero = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
        Some(fb.binary(naga::BinaryOperator::NotEqual, set, zero))
    }

    /// A number naming the object `root` views, 0 for null:
    /// 1 + the index of the naga global of a buffer (its first view),
    /// `__local` or `__constant` array; `0x10000` + the index of the naga
    /// local of a private variable. Different views of one buffer and
    /// casts of one object name the same object.
    pub(in crate::lower) fn object_identity(&self, root: Root) -> u32 {
        match root {
            Root::Global(g) => {
                let first = self
                    .memory
                    .views
                    .iter()
                    .find(|v| v.view == g)
                    .map_or(g, |v| v.first);
                1 + first.index() as u32
            }
            Root::Private(v, _) => 0x10000 + v.index() as u32,
            Root::Cast(base) => self.object_identity(self.memory.cast_bases[base].base),
            Root::Argument { identity, .. } => identity,
            Root::Null => 0,
        }
    }

    /// The address of pointer operand `e`: a null pointer constant (the
    /// integer 0) is object 0 at offset 0.
    pub(in crate::lower) fn address_operand(
        &mut self,
        fb: &mut FnBuilder,
        id: ExprId,
    ) -> LResult<(Handle<naga::Expression>, Handle<naga::Expression>)> {
        let e = fb.expr(id);
        match self.pointee(&e.ty) {
            Some(_) if is_null_constant(fb, id) => {
                let zero = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
                Ok((zero, zero))
            }
            Some(pointee) => {
                let p = self.pointer(fb, id)?;
                self.pointer_address(fb, p, &pointee.ty, e.span.location())
            }
            None => {
                self.expr(fb, id)?;
                let zero = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
                Ok((zero, zero))
            }
        }
    }

    /// `(T)p` of a pointer to an integer type `ty`: the number `%p` prints
    /// (the object in the high 32 bits, the byte offset in the low 32);
    /// into a 32-bit integer, the object in the high 8 bits and the offset
    /// in the low 24, so objects past 16 MiB may collide. Null is 0. There
    /// is no way back: an integer cast to a pointer has no root.
    pub(in crate::lower) fn pointer_to_integer(
        &mut self,
        fb: &mut FnBuilder,
        p: ExprId,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        use naga::BinaryOperator as B;
        let (object, byte) = self.address_operand(fb, p)?;
        let wide = ty.scalar().is_some_and(|s| s.size() == 8);
        let (number, from) = if wide {
            let widen = |fb: &mut Emitter, v| {
                fb.add(naga::Expression::As {
                    expr: v,
                    kind: naga::ScalarKind::Uint,
                    convert: Some(8),
                })
            };
            let (object, byte) = (widen(fb, object), widen(fb, byte));
            let at = fb.add(naga::Expression::Literal(naga::Literal::U32(32)));
            let high = fb.binary(B::ShiftLeft, object, at);
            (
                fb.binary(B::InclusiveOr, high, byte),
                Type::Scalar(Scalar::ULong),
            )
        } else {
            let at = fb.add(naga::Expression::Literal(naga::Literal::U32(24)));
            let high = fb.binary(B::ShiftLeft, object, at);
            (fb.binary(B::Add, high, byte), Type::UINT)
        };
        self.convert(fb, number, &from, ty, location)
    }

    /// Pointer comparisons and differences (C99 6.5.6, 6.5.8, 6.5.9).
    /// Pointers into different objects compare by their objects' identity,
    /// an order C leaves unspecified; equality is exact.
    pub(in crate::lower) fn pointer_binary(
        &mut self,
        fb: &mut FnBuilder,
        op: BinaryOp,
        a: ExprId,
        b: ExprId,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        use naga::BinaryOperator as B;
        let (id_a, byte_a) = self.address_operand(fb, a)?;
        let (id_b, byte_b) = self.address_operand(fb, b)?;
        if op == BinaryOp::Sub {
            let size = self
                .pointee(&fb.expr(a).ty)
                .and_then(|p| self.type_size(&p.ty))
                .unwrap_or(1) as i32;
            let bytes = fb.binary(B::Subtract, byte_a, byte_b);
            let bytes = fb.add(naga::Expression::As {
                expr: bytes,
                kind: naga::ScalarKind::Sint,
                convert: None,
            });
            let size = fb.add(naga::Expression::Literal(naga::Literal::I32(size.max(1))));
            let elements = fb.binary(B::Divide, bytes, size);
            return self.convert(fb, elements, &Type::INT, ty, location);
        }
        let same_object = fb.binary(B::Equal, id_a, id_b);
        let compare = |fb: &mut Emitter, op| {
            let by_object = fb.binary(op, id_a, id_b);
            let by_offset = fb.binary(op, byte_a, byte_b);
            let within = fb.binary(B::LogicalAnd, same_object, by_offset);
            let apart = fb.unary(naga::UnaryOperator::LogicalNot, same_object);
            let across = fb.binary(B::LogicalAnd, apart, by_object);
            fb.binary(B::LogicalOr, within, across)
        };
        let result = match op {
            BinaryOp::Eq | BinaryOp::Ne => {
                let offsets = fb.binary(B::Equal, byte_a, byte_b);
                let equal = fb.binary(B::LogicalAnd, same_object, offsets);
                if op == BinaryOp::Eq {
                    equal
                } else {
                    fb.unary(naga::UnaryOperator::LogicalNot, equal)
                }
            }
            BinaryOp::Lt => compare(fb, B::Less),
            BinaryOp::Le => compare(fb, B::LessEqual),
            BinaryOp::Gt => compare(fb, B::Greater),
            BinaryOp::Ge => compare(fb, B::GreaterEqual),
            _ => {
                return Err(self.error(
                    location,
                    "this operation on pointers is not supported by this translator",
                ))
            }
        };
        self.bool_to_int(fb, result, ty, location)
    }
}
