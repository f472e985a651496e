//! Kernels: arguments as buffer bindings, workgroup arrays and
//! push-constant members, and the entry point that copies the work-item
//! built-ins and arguments into place.

use crate::analysis::provenance::Origin;
use crate::ast::AddressSpace;
use crate::hir::{self, FunctionId};
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::expressions::operators::extract_narrow;
use crate::lower::expressions::wide;
use crate::lower::function::FnBuilder;
use crate::lower::functions::ArgSource;
use crate::lower::image_calls::TexelKind;
use crate::lower::interface::{images, BuiltinVars};
use crate::lower::pointers::{PointerValue, Root};
use crate::options::BuildOptions;
use crate::reflect::{ArgKind, KernelArg, KernelReflection, PushConstantHeader};
use crate::spirv::LoweredKernel;
use crate::types::{Scalar, Type};
use naga::Span;

impl ModuleBuilder<'_> {
    /// Kernel `id` as a module, before validation and writing; `None` when
    /// it has errors (reported).
    pub(in crate::lower) fn lowered_kernel(
        mut self,
        id: FunctionId,
        info: &hir::KernelInfo,
        options: &BuildOptions,
    ) -> Option<LoweredKernel> {
        let (mut reflection, module) = self.kernel(id, info)?;
        reflection.non_uniform_work_groups = options.effective_cl_std()
            >= crate::options::ClStd::Cl2_0
            && !options.uniform_work_group_size;
        let vars = self.interface.builtins.as_ref()?;
        let sizes = crate::spirv::SizeConstants {
            local: vars.local_size,
            enqueued: vars.enqueued_size,
        };
        // Finite math lets the driver assume no NaN or infinity.
        let ieee = !(options.finite_math_only || options.fast_relaxed_math);
        let caps = self.caps;
        let specialization = crate::specialization::SpecializationLiterals {
            image_formats: self.interface.images.format_literals(),
            samplers: self.interface.sampler_literals,
        };
        Some(LoweredKernel {
            reflection,
            module,
            sizes,
            specialization,
            local_args: self.interface.local_args,
            group_scratch: (self.interface.group_scratch.into_values())
                .chain(self.interface.loop_marks)
                .collect(),
            preserve_inf_nan: [
                ieee && caps.preserve_inf_nan[0],
                ieee && caps.preserve_inf_nan[1] && caps.float64,
                ieee && caps.preserve_inf_nan[2] && caps.float16,
            ],
            half_rounds_to_nearest: caps.float16 && caps.half_rte,
            denormals: caps.denormals.modes(options.denorms_are_zero),
        })
    }

    pub(in crate::lower) fn kernel(
        &mut self,
        id: FunctionId,
        info: &hir::KernelInfo,
    ) -> Option<(KernelReflection, naga::Module)> {
        let f = &self.program.functions[id];
        self.kernel_facts = self.analysis.kernel(id);
        let no_words = crate::lexer::FxHashSet::default();
        let word_params = self.kernel_facts.map_or(&no_words, |k| &k.word_params);
        let uvec3 = self.uvec3_type();
        let u32_ty = self.u32_type();
        let mut size_constants = |names: [&str; 3]| {
            names.map(|name| {
                let init = self.module.global_expressions.append(
                    naga::Expression::Literal(naga::Literal::U32(1)),
                    Span::UNDEFINED,
                );
                self.module.constants.append(
                    naga::Constant {
                        name: Some(name.into()),
                        ty: u32_ty,
                        init,
                    },
                    Span::UNDEFINED,
                )
            })
        };
        let local_size = size_constants(["local_size_x", "local_size_y", "local_size_z"]);
        let enqueued_size =
            size_constants(["enqueued_size_x", "enqueued_size_y", "enqueued_size_z"]);
        self.interface.builtins = Some(BuiltinVars {
            global_id: self.private_global("global_id", uvec3),
            local_id: self.private_global("local_id", uvec3),
            group_id: self.private_global("group_id", uvec3),
            local_size,
            enqueued_size,
        });

        // Arguments: buffers become storage globals, everything else goes
        // into the push constants after the header.
        let u32_ty = self.u32_type();
        let header_names = [
            "global_offset_x",
            "global_offset_y",
            "global_offset_z",
            "work_dim",
            "global_size_x",
            "global_size_y",
            "global_size_z",
            "group_offset_x",
            "group_offset_y",
            "group_offset_z",
        ];
        let mut members: Vec<naga::StructMember> = header_names
            .iter()
            .enumerate()
            .map(|(i, name)| naga::StructMember {
                name: Some((*name).into()),
                ty: u32_ty,
                binding: None,
                offset: i as u32 * 4,
            })
            .collect();
        let mut offset = PushConstantHeader::SIZE;
        let mut args = Vec::new();
        let mut arg_sources = Vec::new();
        let mut binding = 0u32;
        let mut failed = false;
        for (i, &param) in f.params.iter().enumerate() {
            let local = &f.locals[param];
            let arg = &info.args[i];
            if let Some(image) = local.ty.image() {
                // Whole 16-byte vectors, laid out alike in every block
                // layout.
                offset = offset.next_multiple_of(images::INFO_ALIGN);
                let info_offset = offset;
                let uvec4 = self.add_type(naga::TypeInner::Vector {
                    size: naga::VectorSize::Quad,
                    scalar: naga::Scalar::U32,
                });
                let name = self.name(local.name).to_string();
                let mut info_members = [0; 2];
                for (half, member) in info_members.iter_mut().enumerate() {
                    *member = members.len() as u32;
                    members.push(naga::StructMember {
                        name: Some(format!("{name}_info{half}")),
                        ty: uvec4,
                        binding: None,
                        offset,
                    });
                    offset += images::INFO_ALIGN;
                }
                let uses = self
                    .analysis
                    .function(id)
                    .and_then(|facts| facts.image_uses.get(&i).copied())
                    .unwrap_or_default();
                let kinds: Vec<TexelKind> = [
                    (uses.float, TexelKind::Float),
                    (uses.int, TexelKind::Int),
                    (uses.uint, TexelKind::Uint),
                ]
                .into_iter()
                .filter_map(|(used, kind)| used.then_some(kind))
                .collect();
                let (index, image_binding) =
                    self.declare_image_arg(&name, image, &kinds, info_members);
                arg_sources.push(ArgSource::Image(index));
                args.push(KernelArg {
                    name,
                    type_name: arg.type_name.clone(),
                    address: arg.address,
                    is_const: arg.is_const,
                    is_restrict: arg.is_restrict,
                    is_volatile: arg.is_volatile,
                    kind: ArgKind::Image {
                        binding: image_binding,
                        info_offset,
                        dim: image.dim,
                        depth: image.depth,
                        access: image.access,
                    },
                });
                continue;
            }
            let kind = match (&local.ty, self.pointee(&local.ty)) {
                (_, Some(p))
                    if p.space == AddressSpace::Local
                        && (self.is_image(&p.ty) || word_params.contains(&i)) =>
                {
                    // Records held as byte images, and memory a narrowing
                    // store through a cast writes part of an element of
                    // (`KernelFacts::word_params`): one word array whose
                    // length in words is set per launch.
                    let index = self.interface.local_args.len() as u32;
                    let base = self.u32_type();
                    let array = self.add_type(naga::TypeInner::Array {
                        base,
                        size: naga::ArraySize::Constant(std::num::NonZeroU32::MIN),
                        stride: 4,
                    });
                    let global = self.module.global_variables.append(
                        naga::GlobalVariable {
                            name: Some(self.name(local.name).to_string()),
                            space: naga::AddressSpace::WorkGroup,
                            binding: None,
                            ty: array,
                            init: None,
                            memory_decorations: naga::MemoryDecorations::empty(),
                        },
                        Span::UNDEFINED,
                    );
                    self.note_image_root(None, Root::Global(global), &p.ty);
                    if word_params.contains(&i) {
                        self.memory.hold_as_words(global);
                    }
                    self.interface.local_args.push(global);
                    arg_sources.push(ArgSource::Buffer(global));
                    ArgKind::Local {
                        index,
                        element_size: 4,
                        stride: 4,
                    }
                }
                (_, Some(p)) if p.space == AddressSpace::Local => {
                    // Workgroup memory whose length is set per launch: a
                    // one-element array here, resized by `Kernel::spirv`.
                    let index = self.interface.local_args.len() as u32;
                    let name = self.name(local.name).to_string();
                    // A `void *` counts bytes until it is cast, as for
                    // buffers: `uchar`s, packed into words.
                    let pointee = match p.ty {
                        Type::Void => Type::Scalar(Scalar::UChar),
                        ty => ty,
                    };
                    if let Some(global) = self.narrow_local_argument(&name, &pointee) {
                        // `char`/`short`/`half` elements packed into words:
                        // the length counts words.
                        self.interface.local_args.push(global);
                        arg_sources.push(ArgSource::Buffer(global));
                        args.push(KernelArg {
                            name,
                            type_name: arg.type_name.clone(),
                            address: arg.address,
                            is_const: arg.is_const,
                            is_restrict: arg.is_restrict,
                            is_volatile: arg.is_volatile,
                            kind: ArgKind::Local {
                                index,
                                element_size: 4,
                                stride: 4,
                            },
                        });
                        continue;
                    }
                    let object = Origin::Param(i);
                    let Ok(elem) = self.workgroup_type(&object, &p.ty, local.span.location())
                    else {
                        failed = true;
                        continue;
                    };
                    let stride = self
                        .storage_stride(&p.ty, local.span.location())
                        .unwrap_or(4);
                    let array = self.add_type(naga::TypeInner::Array {
                        base: elem,
                        size: naga::ArraySize::Constant(std::num::NonZeroU32::MIN),
                        stride,
                    });
                    let global = self.module.global_variables.append(
                        naga::GlobalVariable {
                            name: Some(self.name(local.name).to_string()),
                            space: naga::AddressSpace::WorkGroup,
                            binding: None,
                            ty: array,
                            init: None,
                            memory_decorations: naga::MemoryDecorations::empty(),
                        },
                        Span::UNDEFINED,
                    );
                    self.holds_words(&object, &p.ty, global);
                    self.interface.local_args.push(global);
                    arg_sources.push(ArgSource::Buffer(global));
                    ArgKind::Local {
                        index,
                        element_size: self.type_size(&p.ty).unwrap_or(4) as u32,
                        stride,
                    }
                }
                (_, Some(p)) => {
                    // A `const` buffer stays writable where a cast reaches
                    // it with a pointee that is not (see `unconst`).
                    let cast_writable = self
                        .analysis
                        .function(id)
                        .is_some_and(|facts| facts.pointers.unconst.contains(&Origin::Param(i)));
                    let writable =
                        p.space != AddressSpace::Constant && (!p.is_const || cast_writable);
                    let access = if writable {
                        naga::StorageAccess::LOAD | naga::StorageAccess::STORE
                    } else {
                        naga::StorageAccess::LOAD
                    };
                    // A `void *` buffer counts bytes until it is cast:
                    // its first view is the bytes (`views.rs`).
                    let first_view = match p.ty {
                        Type::Void => Type::Scalar(Scalar::UChar),
                        ty => ty,
                    };
                    let Ok(global) = self.buffer_view(
                        self.name(local.name),
                        binding,
                        access,
                        &first_view,
                        None,
                        local.span.location(),
                    ) else {
                        failed = true;
                        continue;
                    };
                    arg_sources.push(ArgSource::Buffer(global));
                    binding += 1;
                    ArgKind::Buffer {
                        binding: binding - 1,
                    }
                }
                (ty, _) => {
                    let Ok(naga_ty) = self.value_type(ty, local.span.location()) else {
                        failed = true;
                        continue;
                    };
                    let size = self.type_size(ty).unwrap_or(4) as u32;
                    let align = self.program.types.align(*ty).unwrap_or(4) as u32;
                    if self.is_image(ty) {
                        // A byte image is whole words: it starts on a word
                        // (the runtime copies the argument to the offset
                        // reflected here) and takes whole words.
                        offset = offset.next_multiple_of(4);
                        members.push(naga::StructMember {
                            name: Some(self.name(local.name).to_string()),
                            ty: naga_ty,
                            binding: None,
                            offset,
                        });
                        arg_sources.push(ArgSource::PushConstant(members.len() as u32 - 1));
                        let kind = ArgKind::Pod { offset, size };
                        offset += self.image_words(ty) * 4;
                        args.push(KernelArg {
                            name: self.name(local.name).to_string(),
                            type_name: arg.type_name.clone(),
                            address: arg.address,
                            is_const: arg.is_const,
                            is_restrict: arg.is_restrict,
                            is_volatile: arg.is_volatile,
                            kind,
                        });
                        continue;
                    }
                    offset = offset.next_multiple_of(align);
                    if let Some(s) = ty.element().filter(|s| s.size() < 4) {
                        // Push constants hold no 8/16-bit members: each lane
                        // (`char`, `short`, `half`) is read from the u32
                        // word holding it.
                        let mut lanes = Vec::new();
                        for lane in 0..u32::from(wide::width_of(ty)) {
                            let at = offset + lane * s.size();
                            let word_offset = at & !3;
                            let word = match members.iter().position(|m| m.offset == word_offset) {
                                Some(i) => i as u32,
                                None => {
                                    members.push(naga::StructMember {
                                        name: Some(format!("word_{word_offset}")),
                                        ty: u32_ty,
                                        binding: None,
                                        offset: word_offset,
                                    });
                                    members.len() as u32 - 1
                                }
                            };
                            lanes.push((word, (at & 3) * 8));
                        }
                        arg_sources.push(ArgSource::NarrowPushConstant { lanes, scalar: s });
                        let kind = ArgKind::Pod { offset, size };
                        offset += size;
                        args.push(KernelArg {
                            name: self.name(local.name).to_string(),
                            type_name: arg.type_name.clone(),
                            address: arg.address,
                            is_const: arg.is_const,
                            is_restrict: arg.is_restrict,
                            is_volatile: arg.is_volatile,
                            kind,
                        });
                        continue;
                    }
                    members.push(naga::StructMember {
                        name: Some(self.name(local.name).to_string()),
                        ty: naga_ty,
                        binding: None,
                        offset,
                    });
                    let kind = if ty.is_sampler() {
                        // The runtime still writes the word to the launch
                        // block, but the kernel reads the constant the
                        // launch specialises (`crate::specialization`).
                        let name = format!("{}_sampler", self.name(local.name));
                        arg_sources.push(ArgSource::Constant(self.sampler_constant(name)));
                        ArgKind::Sampler { offset }
                    } else {
                        arg_sources.push(ArgSource::PushConstant(members.len() as u32 - 1));
                        ArgKind::Pod { offset, size }
                    };
                    offset += size;
                    kind
                }
            };
            args.push(KernelArg {
                name: self.name(local.name).to_string(),
                type_name: arg.type_name.clone(),
                address: arg.address,
                is_const: arg.is_const,
                is_restrict: arg.is_restrict,
                is_volatile: arg.is_volatile,
                kind,
            });
        }
        if failed {
            return None;
        }
        // A NULL `cl_mem` argument is bound to a stand-in buffer; a bit per
        // buffer argument tells the kernel which pointers are null, so that
        // comparing them with 0 holds (see `identity_value`).
        let null_buffer_flags = (binding > 0).then(|| {
            offset = offset.next_multiple_of(4);
            let at = offset;
            self.interface.null_flags = Some((members.len() as u32, binding));
            for word in 0..binding.div_ceil(32) {
                members.push(naga::StructMember {
                    name: Some(format!("null_buffers_{word}")),
                    ty: u32_ty,
                    binding: None,
                    offset,
                });
                offset += 4;
            }
            at
        });
        // Where the kernel compares or subtracts buffer pointers, each
        // buffer argument's allocation and origin in it (see
        // `buffer_address`): two arguments set to one buffer, or to a
        // buffer and a sub-buffer of it, point into one object.
        let compares = self
            .kernel_facts
            .is_some_and(|facts| facts.compares_buffer_pointers);
        let buffer_aliases = (binding > 0 && compares).then(|| {
            let at = offset;
            self.interface.buffer_aliases = Some((members.len() as u32, binding));
            for b in 0..binding {
                for what in ["allocation", "origin"] {
                    members.push(naga::StructMember {
                        name: Some(format!("buffer_{b}_{what}")),
                        ty: u32_ty,
                        binding: None,
                        offset,
                    });
                    offset += 4;
                }
            }
            at
        });
        let push_constant_size = offset.next_multiple_of(4);
        let block = self.add_type(naga::TypeInner::Struct {
            members,
            span: push_constant_size,
        });
        // Beyond the push-constant budget (Vulkan guarantees only 128
        // bytes, and OpenCL promises 1 KiB of arguments) the same block is
        // read from a storage buffer the runtime fills per launch.
        let launch_block_binding =
            (push_constant_size > self.caps.max_push_constant_size).then(|| {
                binding += 1;
                binding - 1
            });
        let (space, resource) = match launch_block_binding {
            Some(binding) => (
                naga::AddressSpace::Storage {
                    access: naga::StorageAccess::LOAD,
                },
                Some(naga::ResourceBinding { group: 0, binding }),
            ),
            None => (naga::AddressSpace::Immediate, None),
        };
        let pc = self.module.global_variables.append(
            naga::GlobalVariable {
                name: Some("launch".into()),
                space,
                binding: resource,
                ty: block,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            Span::UNDEFINED,
        );
        self.interface.push_constants = Some(pc);

        self.interface.next_binding = binding;
        let mut function = self.entry_function(id, &arg_sources).ok()?;
        self.bind_sub_group_inputs(&mut function);
        let loop_status = self.guard_loops(&mut function);
        let printf = self.printf.reflection();
        self.module.entry_points.push(naga::EntryPoint {
            name: self.name(f.name).to_string(),
            stage: naga::ShaderStage::Compute,
            early_depth_test: None,
            workgroup_size: [1, 1, 1],
            workgroup_size_overrides: None,
            function,
            mesh_info: None,
            task_payload: None,
            incoming_ray_payload: None,
        });
        let reflection = KernelReflection {
            name: self.name(f.name).to_string(),
            args,
            push_constant_size,
            launch_block_binding,
            // The printf buffer and the program globals took theirs past the
            // arguments' on first use.
            storage_buffers: self.interface.next_binding,
            images: self.interface.images.descriptors(),
            program_globals: self.interface.globals_view.map(|(binding, _)| binding),
            printf,
            // Set by `lower`, which has the build options.
            non_uniform_work_groups: false,
            required_work_group_size: info.required_work_group_size,
            required_sub_group_size: info.required_sub_group_size,
            attributes: info.attributes.clone(),
            null_buffer_flags,
            buffer_aliases,
            loop_status,
        };
        Some((reflection, std::mem::take(&mut self.module)))
    }

    /// The `u32` constant a `sampler_t` argument's value is, whose init
    /// `LoweredKernel::finish` makes a placeholder the launch patches with
    /// the sampler's word.
    fn sampler_constant(&mut self, name: String) -> naga::Handle<naga::Constant> {
        let init = self.module.global_expressions.append(
            naga::Expression::Literal(naga::Literal::U32(0)),
            Span::UNDEFINED,
        );
        self.interface.sampler_literals.push(init);
        let ty = self.u32_type();
        self.module.constants.append(
            naga::Constant {
                name: Some(name),
                ty,
                init,
            },
            Span::UNDEFINED,
        )
    }

    /// The kernel's entry point: the work-item built-ins and arguments put
    /// in place, then the body.
    fn entry_function(&mut self, id: FunctionId, sources: &[ArgSource]) -> LResult<naga::Function> {
        let f = &self.program.functions[id];
        let uvec3 = self.uvec3_type();
        let mut fb = FnBuilder::new(self.program, id);
        let builtins = [
            naga::BuiltIn::GlobalInvocationId,
            naga::BuiltIn::LocalInvocationId,
            naga::BuiltIn::WorkGroupId,
        ];
        for b in builtins {
            fb.function.arguments.push(naga::FunctionArgument {
                name: None,
                ty: uvec3,
                binding: Some(naga::Binding::BuiltIn(b)),
            });
        }
        let vars = self.interface.builtins.as_ref().expect("kernel builtins");
        let targets = [vars.global_id, vars.local_id, vars.group_id];
        for (i, target) in targets.into_iter().enumerate() {
            let value = fb.add(naga::Expression::FunctionArgument(i as u32));
            let pointer = fb.add(naga::Expression::GlobalVariable(target));
            fb.push(naga::Statement::Store { pointer, value });
        }
        // Buffer and `__local` arguments are the roots of their parameters.
        for (&param, source) in f.params.iter().zip(sources) {
            match *source {
                ArgSource::Buffer(global) => fb.param_roots.insert(param, Root::Global(global)),
                ArgSource::Image(index) => fb.image_params.insert(param, index),
                _ => {}
            }
        }
        self.declare_locals(&mut fb)?;
        let pc = self.interface.push_constants.expect("push constants");
        for (&param, source) in f.params.iter().zip(sources) {
            match source {
                // Registered before the locals.
                ArgSource::Image(_) => {}
                &ArgSource::Buffer(global) => {
                    let zero = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
                    self.store_pointer_var(
                        &mut fb,
                        param,
                        PointerValue::fixed(Root::Global(global), zero),
                        f.span.location(),
                    )?;
                }
                &ArgSource::Constant(constant) => {
                    let value = fb.add(naga::Expression::Constant(constant));
                    let var = self.variable_slot(&fb, param)?;
                    let pointer = fb.add(naga::Expression::LocalVariable(var));
                    fb.push(naga::Statement::Store { pointer, value });
                }
                &ArgSource::PushConstant(member) => {
                    let base = fb.add(naga::Expression::GlobalVariable(pc));
                    let pointer = fb.add(naga::Expression::AccessIndex {
                        base,
                        index: member,
                    });
                    let value = fb.add(naga::Expression::Load { pointer });
                    let var = self.variable_slot(&fb, param)?;
                    let pointer = fb.add(naga::Expression::LocalVariable(var));
                    fb.push(naga::Statement::Store { pointer, value });
                }
                ArgSource::NarrowPushConstant { lanes, scalar } => {
                    let scalar = *scalar;
                    let mut values = Vec::with_capacity(lanes.len());
                    for &(word, bit) in lanes {
                        let base = fb.add(naga::Expression::GlobalVariable(pc));
                        let pointer = fb.add(naga::Expression::AccessIndex { base, index: word });
                        let word = fb.add(naga::Expression::Load { pointer });
                        let bit = fb.add(naga::Expression::Literal(naga::Literal::U32(bit)));
                        values.push(wide::LaneRef {
                            value: extract_narrow(&mut fb, word, bit, scalar),
                            width: 1,
                            lane: 0,
                        });
                    }
                    let location = f.locals[param].span.location();
                    let value = self.gather(&mut fb, scalar, &values, location)?;
                    let var = self.variable_slot(&fb, param)?;
                    let pointer = fb.add(naga::Expression::LocalVariable(var));
                    fb.push(naga::Statement::Store { pointer, value });
                }
            }
        }
        self.statements(&mut fb, &f.body)?;
        Ok(fb.finish())
    }
}
