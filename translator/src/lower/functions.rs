//! Functions and calls: helper functions specialised per combination of
//! their pointer arguments' roots (recursion rejected, as OpenCL C 6.9.m
//! asks), each function's locals, and calls with their arguments.

use crate::analysis::provenance::Origin;
use crate::ast::AddressSpace;
use crate::diagnostic::Location;
use crate::hir::{ExprId, FunctionId, LocalId};
use crate::lexer::FxHashMap;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::expressions::Value;
use crate::lower::function::{ChosenVar, FnBuilder, Slot};
use crate::lower::pointers::{PointerValue, Root, Target};
use crate::types::{Scalar, Type};
use naga::{Handle, Span};

/// What a helper is specialised on: its pointer arguments' roots and the
/// kernel image arguments its image parameters are.
type Specialisation = (FunctionId, Vec<Option<Root>>, Vec<usize>);

/// The functions made so far.
#[derive(Default)]
pub(super) struct Functions {
    /// Each helper's specialisation per combination of argument roots and
    /// of the kernel image arguments its image parameters stand for.
    specialisations: FxHashMap<Specialisation, Handle<naga::Function>>,
    /// Functions being lowered, to reject recursion (OpenCL C 6.9.m).
    in_progress: Vec<FunctionId>,
    /// The roots (in the callee's terms) of the pointers helpers return.
    returned_roots: FxHashMap<Handle<naga::Function>, Vec<Root>>,
    /// The workgroup globals of `__local` variables declared in kernels.
    workgroup_locals: FxHashMap<(FunctionId, LocalId), Handle<naga::GlobalVariable>>,
}

impl Functions {
    /// The roots the pointers returned by `function` may have.
    pub(super) fn returned_roots(&self, function: Handle<naga::Function>) -> &[Root] {
        self.returned_roots
            .get(&function)
            .map_or(&[], Vec::as_slice)
    }
}

pub(super) enum ArgSource {
    Buffer(Handle<naga::GlobalVariable>),
    /// An image argument: its index among the kernel's (see
    /// `interface/images.rs`).
    Image(usize),
    PushConstant(u32),
    /// A `sampler_t` argument: the constant the launch specialises.
    Constant(Handle<naga::Constant>),
    /// A `char`/`short` scalar or vector argument: each lane `bit` bits
    /// into push-constant member `word` (a u32), as `(word, bit)`.
    NarrowPushConstant {
        lanes: Vec<(u32, u32)>,
        scalar: Scalar,
    },
}

impl ModuleBuilder<'_> {
    /// Creates a naga local for every HIR local, and gives each pointer
    /// variable the roots it may hold (see `roots.rs`).
    pub(super) fn declare_locals(&mut self, fb: &mut FnBuilder) -> LResult<()> {
        let f = fb.source;
        let word_locals = self
            .kernel_facts
            .filter(|_| f.kernel.is_some())
            .map(|facts| &facts.word_locals);
        let word_privates = self
            .analysis
            .function(fb.hir)
            .map(|facts| &facts.word_privates);
        let u32_ty = self.u32_type();
        let u32_local = |fb: &mut Emitter, name: String| {
            fb.function.local_variables.append(
                naga::LocalVariable {
                    name: Some(name),
                    ty: u32_ty,
                    init: None,
                },
                Span::UNDEFINED,
            )
        };
        let cells = self.cells(fb);
        for (id, local) in f.locals.iter() {
            // Images are only parameters, which stand for a kernel image
            // argument (`FnBuilder::image_params`) and hold no value.
            if local.ty.image().is_some() {
                continue;
            }
            let slot = match &local.ty {
                // A pointer variable whose address is taken lives in
                // memory, as a stored pointer (`pointers/stored.rs`).
                Type::Pointer(_) if cells.contains(&id) => {
                    let ty = self.stored_pointer_type();
                    Slot::Variable(fb.function.local_variables.append(
                        naga::LocalVariable {
                            name: Some(self.name(local.name).to_string()),
                            ty,
                            init: None,
                        },
                        Span::UNDEFINED,
                    ))
                }
                Type::Pointer(_) => Slot::Pointer {
                    root: None,
                    index: u32_local(fb, format!("{}_index", self.name(local.name))),
                    chosen: None,
                },
                // Made once per module: a kernel called from another is
                // lowered once per specialisation, and its `__local`
                // variables are per work-group, not per call.
                _ if local.space == AddressSpace::Local
                    && self.functions.workgroup_locals.contains_key(&(fb.hir, id)) =>
                {
                    Slot::Workgroup(self.functions.workgroup_locals[&(fb.hir, id)])
                }
                ty if local.space == AddressSpace::Local => {
                    // Held as a byte image when its address is cast to a
                    // narrower pointee (`KernelFacts::word_locals`), else as integer
                    // words when atomics need it (`float_words.rs`).
                    let object = Origin::Local(id);
                    let words = word_locals.is_some_and(|w| w.contains(&id));
                    let naga_ty = if words {
                        self.image_type(ty)
                    } else {
                        self.workgroup_type(&object, ty, local.span.location())?
                    };
                    let global = self.module.global_variables.append(
                        naga::GlobalVariable {
                            name: Some(self.name(local.name).to_string()),
                            space: naga::AddressSpace::WorkGroup,
                            binding: None,
                            ty: naga_ty,
                            init: None,
                            memory_decorations: naga::MemoryDecorations::empty(),
                        },
                        Span::UNDEFINED,
                    );
                    if words {
                        self.memory.hold_as_words(global);
                    } else {
                        self.holds_words(&object, ty, global);
                        // A record held as a byte image is reached as
                        // the array of its words (`note_image_root` below).
                        if !ty.is_array() && !self.is_image(ty) {
                            self.memory.hold_single(global);
                        }
                    }
                    self.functions.workgroup_locals.insert((fb.hir, id), global);
                    Slot::Workgroup(global)
                }
                // A kernel's `__constant` variable is read-only and
                // initialised, so a private copy per work-item, set by
                // its `Init` statement, behaves the same.
                ty => {
                    // Held as a byte image when a pointer cast reaches
                    // bytes naga's own type would not hold
                    // (`FunctionFacts::word_privates`).
                    let naga_ty = if word_privates.is_some_and(|w| w.contains(&id)) {
                        self.image_type(ty)
                    } else {
                        self.value_type(ty, local.span.location())?
                    };
                    Slot::Variable(fb.function.local_variables.append(
                        naga::LocalVariable {
                            name: Some(self.name(local.name).to_string()),
                            ty: naga_ty,
                            init: None,
                        },
                        Span::UNDEFINED,
                    ))
                }
            };
            let words = match slot {
                Slot::Workgroup(g) => self.memory.held_as_words(g),
                Slot::Variable(_) => word_privates.is_some_and(|w| w.contains(&id)),
                Slot::Pointer { .. } => false,
            };
            if words || self.is_image(&local.ty) {
                // Pointers into the variable count its elements (itself
                // for a non-array).
                let (elem, is_array) = match self.element_of(&local.ty) {
                    Some(elem) => (elem, true),
                    None => (local.ty, false),
                };
                match slot {
                    Slot::Variable(v) => {
                        self.note_image_root(Some(fb.hir), Root::Private(v, is_array), &elem)
                    }
                    Slot::Workgroup(g) => self.note_image_root(None, Root::Global(g), &elem),
                    Slot::Pointer { .. } => {}
                }
            }
            fb.slots.insert(id, slot);
        }
        // Roots once every variable (a root itself) has its slot; the root
        // positions of variables given several after every variable. The
        // kernel's struct members' roots first, which variables may be
        // given.
        self.make_member_sets(fb);
        for (id, local) in f.locals.iter() {
            let array = local.ty.is_array()
                && self.program.types.innermost_element(local.ty).is_pointer()
                && local.space == AddressSpace::Private;
            if array || (local.ty.is_pointer() && cells.contains(&id)) {
                let set = self.array_set(fb, id)?;
                fb.stored.insert(id, set);
            }
            if !local.ty.is_pointer() {
                continue;
            }
            let roots = self.variable_roots(fb, id);
            let (root, chosen) = match roots.as_slice() {
                [] => (None, None),
                &[root] => (Some(root), None),
                _ => {
                    let which = u32_local(fb, format!("{}_root", self.name(local.name)));
                    let set = self.root_set(roots);
                    (None, Some(ChosenVar { set, which }))
                }
            };
            if let Some(Slot::Pointer {
                root: slot_root,
                chosen: slot_chosen,
                ..
            }) = fb.slots.get_mut(&id)
            {
                *slot_root = root;
                *slot_chosen = chosen;
            }
        }
        Ok(())
    }

    /// A helper function specialised for the roots of its pointer arguments.
    pub(super) fn helper(
        &mut self,
        id: FunctionId,
        roots: Vec<Option<Root>>,
        images: Vec<usize>,
        location: Location,
    ) -> LResult<Handle<naga::Function>> {
        let key = (id, roots, images);
        if let Some(&h) = self.functions.specialisations.get(&key) {
            return Ok(h);
        }
        let (id, roots, images) = key;
        if !self.program.functions[id].defined {
            let name = self.name(self.program.functions[id].name);
            return Err(self.error(
                location,
                format!("function '{name}' is declared but never defined"),
            ));
        }
        if self.functions.in_progress.contains(&id) {
            return Err(self.error(location, "recursion is not allowed in OpenCL C"));
        }
        self.functions.in_progress.push(id);
        let built = self.helper_function(id, &roots, &images);
        self.functions.in_progress.pop();
        let (mut function, returned) = built?;
        if let Some(result) = &function.result {
            // C lets control reach the end of a non-void function; give
            // naga a return on that path.
            if !matches!(function.body.last(), Some(naga::Statement::Return { .. })) {
                let zero = function
                    .expressions
                    .append(naga::Expression::ZeroValue(result.ty), Span::UNDEFINED);
                function.body.push(
                    naga::Statement::Return { value: Some(zero) },
                    Span::UNDEFINED,
                );
            }
        }
        let h = self.module.functions.append(function, Span::UNDEFINED);
        self.functions
            .specialisations
            .insert((id, roots, images), h);
        self.functions.returned_roots.insert(h, returned);
        Ok(h)
    }

    /// Helper `id` specialised for `roots`, and the roots its returned
    /// pointers may have.
    fn helper_function(
        &mut self,
        id: FunctionId,
        roots: &[Option<Root>],
        images: &[usize],
    ) -> LResult<(naga::Function, Vec<Root>)> {
        let f = &self.program.functions[id];
        let mut fb = FnBuilder::new(self.program, id);
        fb.function.name = Some(self.name(f.name).to_string());
        let u32_ty = self.u32_type();
        // The naga argument holding each parameter's value (or index).
        let mut value_args = Vec::with_capacity(f.params.len());
        let mut images = images.iter();
        for (&param, root) in f.params.iter().zip(roots) {
            if f.locals[param].ty.image().is_some() {
                // No naga argument: the image is the kernel's.
                if let Some(&image) = images.next() {
                    fb.image_params.insert(param, image);
                }
                continue;
            }
            let name = self.name(f.locals[param].name).to_string();
            if let Some(root) = root {
                fb.param_roots.insert(param, *root);
            }
            if let Some(ty) = root.and_then(|r| self.argument_memory(r)) {
                let pointer = self.add_type(naga::TypeInner::Pointer {
                    base: ty,
                    space: naga::AddressSpace::Function,
                });
                fb.function.arguments.push(naga::FunctionArgument {
                    name: Some(format!("{name}_memory")),
                    ty: pointer,
                    binding: None,
                });
            }
            let ty = match root {
                Some(_) => u32_ty,
                None => {
                    let param = &f.locals[param];
                    self.value_type(&param.ty, param.span.location())?
                }
            };
            value_args.push(fb.function.arguments.len() as u32);
            fb.function.arguments.push(naga::FunctionArgument {
                name: Some(name),
                ty,
                binding: None,
            });
        }
        if f.ret != Type::Void {
            let ty = match f.ret {
                Type::Pointer(_) => self.returned_pointer_type(),
                _ => self.value_type(&f.ret, f.span.location())?,
            };
            fb.function.result = Some(naga::FunctionResult { ty, binding: None });
        }
        self.declare_locals(&mut fb)?;
        fb.return_roots = self.return_roots(&fb);
        let value_params = f
            .params
            .iter()
            .filter(|&&p| f.locals[p].ty.image().is_none());
        for (&param, &arg) in value_params.zip(&value_args) {
            let value = fb.add(naga::Expression::FunctionArgument(arg));
            if let Some(&root) = fb.param_roots.get(&param) {
                let location = f.locals[param].span.location();
                self.store_pointer_var(&mut fb, param, PointerValue::fixed(root, value), location)?;
                continue;
            }
            let pointer = match fb.slots[&param] {
                Slot::Variable(v) | Slot::Pointer { index: v, .. } => {
                    fb.add(naga::Expression::LocalVariable(v))
                }
                Slot::Workgroup(g) => fb.add(naga::Expression::GlobalVariable(g)),
            };
            fb.push(naga::Statement::Store { pointer, value });
        }
        self.statements(&mut fb, &f.body)?;
        let returns = std::mem::take(&mut fb.return_roots);
        Ok((fb.finish(), returns))
    }

    pub(super) fn call(
        &mut self,
        fb: &mut FnBuilder,
        id: FunctionId,
        args: &[ExprId],
        ret: &Type,
        location: Location,
    ) -> LResult<Value> {
        let mut values = Vec::new();
        let mut images = Vec::new();
        for &a in args {
            if fb.expr(a).ty.image().is_some() {
                let at = fb.expr(a).span;
                images.push(self.image_arg_of(fb, a.into(), at.location())?);
                values.push(Value::Void);
                continue;
            }
            match self.expr(fb, a)? {
                Value::Void => {
                    let at = fb.expr(a).span;
                    return Err(self.error(at, "void value used as an argument"));
                }
                v => values.push(v),
            }
        }
        self.call_values(fb, id, values, &images, ret, location)
    }

    /// Calls helper `id` with evaluated arguments. A pointer chosen at run
    /// time picks, by a switch, the call of the helper specialised for
    /// each of its roots.
    /// Image arguments are `Value::Void` in `values`, the kernel image
    /// arguments they stand for in `images`, in order.
    pub(super) fn call_values(
        &mut self,
        fb: &mut FnBuilder,
        id: FunctionId,
        values: Vec<Value>,
        images: &[usize],
        ret: &Type,
        location: Location,
    ) -> LResult<Value> {
        let chosen = values.iter().enumerate().find_map(|(i, v)| match v {
            Value::Pointer(PointerValue {
                target: Target::Chosen(choice),
                ..
            }) => Some((i, *choice)),
            _ => None,
        });
        if let Some((position, choice)) = chosen {
            let result_ty = (*ret != Type::Void).then_some(ret);
            return self.for_each_root(fb, choice, result_ty, location, |this, fb, root| {
                let values = values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| match v {
                        Value::Pointer(p) if i == position => {
                            Value::Pointer(PointerValue::fixed(root, p.index))
                        }
                        Value::Pointer(p) => Value::Pointer(*p),
                        Value::Plain(h) => Value::Plain(*h),
                        Value::Void => Value::Void,
                    })
                    .collect();
                this.call_values(fb, id, values, images, ret, location)
            });
        }
        let mut roots = Vec::new();
        let mut arguments = Vec::new();
        let mut private_args = Vec::new();
        for v in values {
            match v {
                Value::Plain(h) => {
                    roots.push(None);
                    arguments.push(h);
                }
                Value::Pointer(PointerValue {
                    target: Target::Fixed(root),
                    index,
                }) => {
                    // Private memory travels as a pointer argument before
                    // the index.
                    let root = match self.private_argument(fb, root, arguments.len() as u32)? {
                        Some((callee_root, pointer)) => {
                            // A byte image stays one in the helper.
                            if let Some(elem) = self.image_root_elem(fb.hir, root) {
                                self.note_image_root(Some(id), callee_root, &elem);
                            }
                            private_args.push((arguments.len() as u32, root));
                            arguments.push(pointer);
                            callee_root
                        }
                        None => root,
                    };
                    roots.push(Some(root));
                    arguments.push(index);
                }
                // An image (see above): no naga argument.
                Value::Void => roots.push(None),
                _ => return Err(self.error(location, "void value used as an argument")),
            }
        }
        let function = self.helper(id, roots, images.to_vec(), location)?;
        let result = if *ret == Type::Void {
            None
        } else {
            Some(
                fb.function
                    .expressions
                    .append(naga::Expression::CallResult(function), Span::UNDEFINED),
            )
        };
        fb.push(naga::Statement::Call {
            function,
            arguments,
            result,
        });
        Ok(match result {
            Some(h) if matches!(ret, Type::Pointer(_)) => {
                Value::Pointer(self.returned_pointer(fb, function, h, &private_args))
            }
            Some(h) => Value::Plain(h),
            None => Value::Void,
        })
    }
}
