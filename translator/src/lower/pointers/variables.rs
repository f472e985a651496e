//! Variables and pointer variables: how a local is reached (its slot),
//! a private variable passed to a helper, and pointer variables, which hold
//! a root (fixed, or a position in a root set) and an index.

use crate::diagnostic::Location;
use crate::hir::{ExprId, ExprKind as H, LocalId};
use crate::lower::builder::{Failed, LResult, ModuleBuilder};
use crate::lower::function::{ChosenVar, FnBuilder, Slot};
use crate::lower::pointers::cast_memory::CastBase;
use crate::lower::pointers::{Choice, PointerValue, Root, Target};
use naga::Handle;

impl ModuleBuilder<'_> {
    /// The naga variable of a non-pointer local. Slots are made from the
    /// HIR types, which `check` made consistent with every use, so a
    /// mismatch is a translator bug, reported rather than panicking.
    pub(in crate::lower) fn variable_slot(
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
    pub(in crate::lower) fn private_argument(
        &mut self,
        fb: &mut FnBuilder,
        root: Root,
        arg: u32,
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
            // Private memory seen as another type (a struct's member, a
            // cast): the helper reaches the caller's variable as an
            // argument and sees it through the same kind of cast base.
            Root::Cast(b)
                if matches!(
                    self.memory.cast_bases[b].base,
                    Root::Private(..) | Root::Argument { .. }
                ) =>
            {
                let cast = self.memory.cast_bases[b].clone();
                let Some((base, pointer)) = self.private_argument(fb, cast.base, arg)? else {
                    return Ok(None);
                };
                let root = self.cast_base_root(CastBase { base, ..cast });
                (root, pointer)
            }
            _ => return Ok(None),
        }))
    }

    /// The naga type of the caller's private variable that a helper's
    /// parameter of root `root` reaches through a pointer argument (its
    /// `Root::Argument`, seen directly or through a cast base), if any.
    pub(in crate::lower) fn argument_memory(&self, root: Root) -> Option<Handle<naga::Type>> {
        match root {
            Root::Argument { ty, .. } => Some(ty),
            Root::Cast(b) => self.argument_memory(self.memory.cast_bases[b].base),
            _ => None,
        }
    }

    /// A pointer to the first element of `array`: a variable, an array
    /// member reached through a pointer (`p->arr`), or a whole array
    /// reached through a pointer to it (`*q` for an `int (*q)[4] = &a`,
    /// C++'s `auto &r = a`).
    pub(in crate::lower) fn array_start(
        &mut self,
        fb: &mut FnBuilder,
        array: ExprId,
        location: Location,
    ) -> LResult<PointerValue> {
        if let Some(p) = self.member_array_pointer(fb, array, location)? {
            return Ok(p);
        }
        if let H::Deref(pointer) = fb.expr(array).kind {
            let ty = fb.expr(array).ty;
            let p = self.pointer(fb, pointer)?;
            let roots = match p.target {
                Target::Fixed(root) => vec![root],
                Target::Chosen(choice) => self.memory.root_sets[choice.set].clone(),
            };
            let mut whole = true;
            for root in roots {
                whole &= self.whole_root(fb, root, &ty, location)?.is_some();
            }
            if whole {
                return Ok(p);
            }
        }
        let root = self.array_root(fb, array)?;
        let index = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
        Ok(PointerValue::fixed(root, index))
    }

    /// Where the array `array` (a variable) lives, as a pointer root.
    pub(in crate::lower) fn array_root(&mut self, fb: &FnBuilder, array: ExprId) -> LResult<Root> {
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
    fn pointer_slot(
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
            // Read before any assignment: C leaves the value indeterminate,
            // and null is one such value (reads give zero, writes are
            // dropped), as a build error is not what clang gives.
            (None, None) => {
                let zero = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
                return Ok(PointerValue::fixed(Root::Null, zero));
            }
        };
        Ok(PointerValue { target, index })
    }

    /// Stores a pointer into pointer variable `id`, whose roots the
    /// analysis gave it (see `roots.rs`): one, or several chosen at run
    /// time by a position the store sets too.
    pub(in crate::lower) fn store_pointer_var(
        &mut self,
        fb: &mut FnBuilder,
        id: LocalId,
        value: PointerValue,
        location: Location,
    ) -> LResult<()> {
        // A pointer variable whose address is taken, held in memory.
        if let (Some(&Slot::Variable(v)), Some(&roots)) = (fb.slots.get(&id), fb.stored.get(&id)) {
            let pointer = fb.add(naga::Expression::LocalVariable(v));
            let value = crate::lower::expressions::Value::Pointer(value);
            return self.store_stored(fb, pointer, roots, value, location);
        }
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
}
