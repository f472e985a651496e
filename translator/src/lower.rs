//! Lowering: the checked program to one naga module per kernel.
//!
//! OpenCL pointers do not exist in naga, so every pointer value is resolved
//! here to a [`Root`] (a buffer argument, a private array or variable) plus an
//! element index. A pointer variable keeps its root fixed and its index in an
//! integer local. Helper functions become naga functions specialised per
//! combination of pointer-argument roots; their pointer parameters become
//! index parameters. Work-item ids come from the SPIR-V built-ins, copied to
//! private globals at entry so helpers can read them; sizes and offsets come
//! from the push-constant header (see [`PushConstantHeader`]).

use crate::ast::{AddressSpace, BinaryOp};
use crate::builtins::Builtin;
use crate::caps::DeviceCaps;
use crate::diagnostic::{Diagnostics, Location};
use crate::hir::{self, Expr, ExprKind as H, FunctionId, LocalId, Stmt};
use crate::options::BuildOptions;
use crate::reflect::{ArgKind, KernelArg, KernelReflection, PushConstantHeader};
use crate::spirv::Kernel;
use crate::types::{Scalar, Type};
use naga::{Handle, Span};
use std::collections::HashMap;

/// Lowers every kernel of `program`. Problems that only show up here (a
/// construct the pointer model cannot express) are reported as errors.
pub fn lower(
    program: &hir::Program,
    _options: &BuildOptions,
    caps: &DeviceCaps,
    diags: &mut Diagnostics,
) -> Vec<Kernel> {
    let mut kernels = Vec::new();
    for (id, f) in program.functions.iter().enumerate() {
        let Some(info) = &f.kernel else { continue };
        let mut builder = ModuleBuilder {
            program,
            caps,
            diags,
            module: naga::Module::default(),
            specialisations: HashMap::new(),
            narrow_buffers: HashMap::new(),
            local_args: Vec::new(),
            builtins: None,
            push_constants: None,
            in_progress: Vec::new(),
        };
        let Some((reflection, module)) = builder.kernel(id, info) else {
            continue;
        };
        let local_size = builder
            .builtins
            .as_ref()
            .expect("kernel builtins")
            .local_size;
        match Kernel::new(reflection, module, local_size, builder.local_args) {
            Ok(k) => kernels.push(k),
            Err(e) => diags.error(f.location, e.0),
        }
    }
    kernels
}

/// Where a pointer points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Root {
    /// A global variable holding an array: a buffer argument (`array<T>`
    /// in storage space) or a `__local` array (workgroup space).
    Global(Handle<naga::GlobalVariable>),
    /// A private array or scalar variable of the current function.
    Private(Handle<naga::LocalVariable>, bool),
}

/// A pointer value: its root and an element index (`u32`, wrapping).
#[derive(Clone, Copy, Debug)]
struct PointerValue {
    root: Root,
    index: Handle<naga::Expression>,
}

enum Value {
    Plain(Handle<naga::Expression>),
    Pointer(PointerValue),
    /// `void` expressions (calls of void functions, casts to void).
    Void,
}

/// How a HIR local is held in naga.
#[derive(Clone, Copy, Debug)]
enum Slot {
    Variable(Handle<naga::LocalVariable>),
    /// A `__local` variable of a kernel: a workgroup-space global.
    Workgroup(Handle<naga::GlobalVariable>),
    /// A pointer variable: fixed root (set by its first assignment) and
    /// an index variable.
    Pointer {
        root: Option<Root>,
        index: Handle<naga::LocalVariable>,
    },
}

/// A place that can be loaded from or stored to.
enum Place {
    Memory(Handle<naga::Expression>),
    /// Element `index` of a word-viewed buffer of `char`/`short`.
    Narrow {
        global: Handle<naga::GlobalVariable>,
        index: Handle<naga::Expression>,
        scalar: Scalar,
    },
    Lanes(Handle<naga::Expression>, Vec<u8>),
    PointerVar(LocalId),
}

struct BuiltinVars {
    global_id: Handle<naga::GlobalVariable>,
    local_id: Handle<naga::GlobalVariable>,
    group_id: Handle<naga::GlobalVariable>,
    /// The work-group size, as constants that `Kernel::spirv` sets per
    /// launch: launches may be split into several dispatches (more groups
    /// than one dispatch allows), so `NumWorkGroups` is not the NDRange's.
    local_size: [Handle<naga::Constant>; 3],
}

/// Reported already; lowering of this kernel stops.
struct Failed;

type LResult<T> = Result<T, Failed>;

struct ModuleBuilder<'a> {
    program: &'a hir::Program,
    caps: &'a DeviceCaps,
    diags: &'a mut Diagnostics,
    module: naga::Module,
    specialisations: HashMap<(FunctionId, Vec<Option<Root>>), Handle<naga::Function>>,
    builtins: Option<BuiltinVars>,
    push_constants: Option<Handle<naga::GlobalVariable>>,
    /// Functions being lowered, to reject recursion (OpenCL C 6.9.m).
    in_progress: Vec<FunctionId>,
    /// Buffers of `char`/`short` elements, seen through a `u32` word view
    /// (naga has no 8-bit types), with their C element type.
    narrow_buffers: HashMap<Handle<naga::GlobalVariable>, Scalar>,
    /// The workgroup arrays of `__local` pointer arguments, in order.
    local_args: Vec<Handle<naga::GlobalVariable>>,
}

/// The state of one naga function under construction.
struct FnBuilder {
    function: naga::Function,
    /// Open blocks, innermost last.
    blocks: Vec<naga::Block>,
    slots: HashMap<LocalId, Slot>,
    /// For each HIR local declared as a pointer parameter of a helper: the
    /// root it was specialised with.
    param_roots: HashMap<LocalId, Root>,
    hir: FunctionId,
}

fn naga_scalar(s: Scalar) -> naga::Scalar {
    match s {
        Scalar::Bool => naga::Scalar::BOOL,
        Scalar::Char | Scalar::Short | Scalar::Int => naga::Scalar::I32,
        Scalar::UChar | Scalar::UShort | Scalar::UInt => naga::Scalar::U32,
        Scalar::Long => naga::Scalar::I64,
        Scalar::ULong => naga::Scalar::U64,
        Scalar::Half => naga::Scalar::F16,
        Scalar::Float => naga::Scalar::F32,
        Scalar::Double => naga::Scalar::F64,
    }
}

fn vector_size(n: u8) -> Option<naga::VectorSize> {
    match n {
        2 => Some(naga::VectorSize::Bi),
        3 => Some(naga::VectorSize::Tri),
        4 => Some(naga::VectorSize::Quad),
        _ => None,
    }
}

fn literal(s: Scalar, bits: u64) -> naga::Literal {
    match naga_scalar(s) {
        naga::Scalar::BOOL => naga::Literal::Bool(bits != 0),
        naga::Scalar::I32 => naga::Literal::I32(crate::literal::sign_extend(bits, s) as i32),
        naga::Scalar::U32 => naga::Literal::U32(bits as u32),
        naga::Scalar::I64 => naga::Literal::I64(bits as i64),
        naga::Scalar::F32 => naga::Literal::F32(bits as i64 as f32),
        naga::Scalar::F64 => naga::Literal::F64(bits as i64 as f64),
        _ => naga::Literal::U64(bits),
    }
}

fn float_literal(s: Scalar, v: f64) -> naga::Literal {
    match s {
        Scalar::Double => naga::Literal::F64(v),
        _ => naga::Literal::F32(v as f32),
    }
}

impl<'a> ModuleBuilder<'a> {
    fn error(&mut self, location: Location, message: impl Into<String>) -> Failed {
        self.diags.error(location, message);
        Failed
    }

    fn add_type(&mut self, inner: naga::TypeInner) -> Handle<naga::Type> {
        self.module
            .types
            .insert(naga::Type { name: None, inner }, Span::UNDEFINED)
    }

    /// The naga type of a value of `ty` held in a register.
    fn value_type(&mut self, ty: &Type, location: Location) -> LResult<Handle<naga::Type>> {
        let inner = match ty {
            Type::Scalar(s) => naga::TypeInner::Scalar(naga_scalar(*s)),
            Type::Vector(s, n) => match vector_size(*n) {
                Some(size) => naga::TypeInner::Vector {
                    size,
                    scalar: naga_scalar(*s),
                },
                None => {
                    return Err(self.error(
                        location,
                        format!("{n}-component vectors are not supported yet by this translator"),
                    ))
                }
            },
            Type::Array(elem, n) => {
                let base = self.value_type(elem, location)?;
                let stride = self.storage_stride(elem, location)?;
                let size = std::num::NonZeroU32::new(*n as u32)
                    .ok_or_else(|| self.error(location, "arrays must not be empty"))?;
                naga::TypeInner::Array {
                    base,
                    size: naga::ArraySize::Constant(size),
                    stride,
                }
            }
            Type::Record(r) => return self.record_type(r, location),
            t => {
                return Err(self.error(
                    location,
                    format!(
                        "values of type '{}' are not supported yet by this translator",
                        t.display()
                    ),
                ))
            }
        };
        Ok(self.add_type(inner))
    }

    /// A struct or union as a naga struct with the host's member offsets
    /// (from the layout engine), so it can live in buffers shared with the
    /// host. Members narrower than 32 bits would need the word view.
    fn record_type(
        &mut self,
        r: &crate::types::Record,
        location: Location,
    ) -> LResult<Handle<naga::Type>> {
        let r = self
            .program
            .records
            .get(r.id as usize)
            .cloned()
            .unwrap_or_else(|| std::rc::Rc::new(r.clone()));
        if r.kind == crate::ast::RecordKind::Union {
            return Err(self.error(location, "unions are not supported yet by this translator"));
        }
        let mut members = Vec::with_capacity(r.fields.len());
        for field in &r.fields {
            let ty = self.memory_type(&field.ty, location)?;
            members.push(naga::StructMember {
                name: (!field.name.is_empty()).then(|| field.name.to_string()),
                ty,
                binding: None,
                offset: field.offset as u32,
            });
        }
        Ok(self.add_type(naga::TypeInner::Struct {
            members,
            span: r.size as u32,
        }))
    }

    /// The naga type of `ty` where its bytes are the host's (struct
    /// members, buffer elements): no 32-bit lanes for narrow types.
    fn memory_type(&mut self, ty: &Type, location: Location) -> LResult<Handle<naga::Type>> {
        match ty {
            Type::Scalar(s) | Type::Vector(s, _) if s.size() < 4 => Err(self.error(
                location,
                format!(
                    "struct members of type '{}' are not supported yet by this translator",
                    ty.display()
                ),
            )),
            Type::Array(elem, n) => {
                let base = self.memory_type(elem, location)?;
                let stride = elem.size(self.caps.address_bits).unwrap_or(4) as u32;
                let size = std::num::NonZeroU32::new(*n as u32)
                    .ok_or_else(|| self.error(location, "arrays must not be empty"))?;
                Ok(self.add_type(naga::TypeInner::Array {
                    base,
                    size: naga::ArraySize::Constant(size),
                    stride,
                }))
            }
            _ => self.value_type(ty, location),
        }
    }

    /// The stride of `ty` in private or workgroup arrays, which no host
    /// sees: `char`/`short` values live in 32-bit lanes there.
    fn storage_stride(&mut self, ty: &Type, location: Location) -> LResult<u32> {
        let widened = |s: Scalar| u32::from(naga_scalar(s).width);
        match ty {
            Type::Scalar(s) => Ok(widened(*s)),
            Type::Vector(s, n) => Ok(widened(*s) * u32::from(crate::types::storage_lanes(*n))),
            _ => ty
                .size(self.caps.address_bits)
                .map(|s| s as u32)
                .ok_or_else(|| {
                    self.error(location, format!("type '{}' has no size", ty.display()))
                }),
        }
    }

    /// The element type of a buffer argument: only types whose memory layout
    /// naga can express directly (32/64-bit scalars and 2/3/4-vectors of
    /// them) for now; narrower types need the word view.
    fn buffer_element_type(
        &mut self,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Type>> {
        if let Type::Scalar(s) = ty {
            if s.size() < 4 && s.is_integer() && *s != Scalar::Bool {
                // The word view: each u32 holds 4 chars or 2 shorts.
                return Ok(self.u32_type());
            }
        }
        if let Type::Record(_) = ty {
            return self.memory_type(ty, location);
        }
        let ok = match ty {
            Type::Scalar(s) | Type::Vector(s, 2..=4) => s.size() >= 4 && *s != Scalar::Bool,
            _ => false,
        };
        if !ok {
            return Err(self.error(
                location,
                format!(
                    "buffers of '{}' are not supported yet by this translator",
                    ty.display()
                ),
            ));
        }
        self.value_type(ty, location)
    }

    fn u32_type(&mut self) -> Handle<naga::Type> {
        self.add_type(naga::TypeInner::Scalar(naga::Scalar::U32))
    }

    fn uvec3_type(&mut self) -> Handle<naga::Type> {
        self.add_type(naga::TypeInner::Vector {
            size: naga::VectorSize::Tri,
            scalar: naga::Scalar::U32,
        })
    }

    fn private_global(
        &mut self,
        name: &str,
        ty: Handle<naga::Type>,
    ) -> Handle<naga::GlobalVariable> {
        self.module.global_variables.append(
            naga::GlobalVariable {
                name: Some(name.into()),
                space: naga::AddressSpace::Private,
                binding: None,
                ty,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            Span::UNDEFINED,
        )
    }

    // ---- kernels ----

    fn kernel(
        &mut self,
        id: FunctionId,
        info: &hir::KernelInfo,
    ) -> Option<(KernelReflection, naga::Module)> {
        let f = &self.program.functions[id];
        let uvec3 = self.uvec3_type();
        let u32_ty = self.u32_type();
        let local_size = ["local_size_x", "local_size_y", "local_size_z"].map(|name| {
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
        });
        self.builtins = Some(BuiltinVars {
            global_id: self.private_global("global_id", uvec3),
            local_id: self.private_global("local_id", uvec3),
            group_id: self.private_global("group_id", uvec3),
            local_size,
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
            let kind = match &local.ty {
                Type::Pointer(p) if p.space == AddressSpace::Local => {
                    // Workgroup memory whose length is set per launch: a
                    // one-element array here, resized by `Kernel::spirv`.
                    let Ok(elem) = self.value_type(&p.ty, local.location) else {
                        failed = true;
                        continue;
                    };
                    let index = self.local_args.len() as u32;
                    let stride = self.storage_stride(&p.ty, local.location).unwrap_or(4);
                    let array = self.add_type(naga::TypeInner::Array {
                        base: elem,
                        size: naga::ArraySize::Constant(std::num::NonZeroU32::MIN),
                        stride,
                    });
                    let global = self.module.global_variables.append(
                        naga::GlobalVariable {
                            name: Some(local.name.to_string()),
                            space: naga::AddressSpace::WorkGroup,
                            binding: None,
                            ty: array,
                            init: None,
                            memory_decorations: naga::MemoryDecorations::empty(),
                        },
                        Span::UNDEFINED,
                    );
                    self.local_args.push(global);
                    arg_sources.push(ArgSource::Buffer(global));
                    ArgKind::Local {
                        index,
                        element_size: p.ty.size(self.caps.address_bits).unwrap_or(4) as u32,
                        stride,
                    }
                }
                Type::Pointer(p) => {
                    let Ok(elem) = self.buffer_element_type(&p.ty, local.location) else {
                        failed = true;
                        continue;
                    };
                    let narrow = p.ty.scalar().filter(|s| s.size() < 4);
                    let stride = match narrow {
                        Some(_) => 4,
                        None => p.ty.size(self.caps.address_bits).unwrap_or(4) as u32,
                    };
                    let array = self.add_type(naga::TypeInner::Array {
                        base: elem,
                        size: naga::ArraySize::Dynamic,
                        stride,
                    });
                    let writable = !(p.is_const || p.space == AddressSpace::Constant);
                    let access = if writable {
                        naga::StorageAccess::LOAD | naga::StorageAccess::STORE
                    } else {
                        naga::StorageAccess::LOAD
                    };
                    let global = self.module.global_variables.append(
                        naga::GlobalVariable {
                            name: Some(local.name.to_string()),
                            space: naga::AddressSpace::Storage { access },
                            binding: Some(naga::ResourceBinding { group: 0, binding }),
                            ty: array,
                            init: None,
                            memory_decorations: naga::MemoryDecorations::empty(),
                        },
                        Span::UNDEFINED,
                    );
                    if let Some(s) = narrow {
                        self.narrow_buffers.insert(global, s);
                    }
                    arg_sources.push(ArgSource::Buffer(global));
                    binding += 1;
                    ArgKind::Buffer {
                        binding: binding - 1,
                    }
                }
                ty => {
                    let Ok(naga_ty) = self.value_type(ty, local.location) else {
                        failed = true;
                        continue;
                    };
                    let size = ty.size(self.caps.address_bits).unwrap_or(4) as u32;
                    let align = ty.align(self.caps.address_bits).unwrap_or(4) as u32;
                    offset = offset.next_multiple_of(align);
                    if let Type::Scalar(s) = ty {
                        if s.size() < 4 {
                            // Push constants hold no 8/16-bit members: the
                            // argument is read from the u32 word holding it.
                            let word_offset = offset & !3;
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
                            arg_sources.push(ArgSource::NarrowPushConstant {
                                word,
                                bit: (offset & 3) * 8,
                                scalar: *s,
                            });
                            let kind = ArgKind::Pod { offset, size };
                            offset += size;
                            args.push(KernelArg {
                                name: local.name.to_string(),
                                type_name: arg.type_name.clone(),
                                address: arg.address,
                                is_const: arg.is_const,
                                is_restrict: arg.is_restrict,
                                is_volatile: arg.is_volatile,
                                kind,
                            });
                            continue;
                        }
                    }
                    if ty.element().is_some_and(|s| s.size() < 4) {
                        self.error(local.location, format!("kernel arguments of type '{}' are not supported yet by this translator", ty.display()));
                        failed = true;
                        continue;
                    }
                    members.push(naga::StructMember {
                        name: Some(local.name.to_string()),
                        ty: naga_ty,
                        binding: None,
                        offset,
                    });
                    arg_sources.push(ArgSource::PushConstant(members.len() as u32 - 1));
                    let kind = ArgKind::Pod { offset, size };
                    offset += size;
                    kind
                }
            };
            args.push(KernelArg {
                name: local.name.to_string(),
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
        let push_constant_size = offset.next_multiple_of(4);
        let block = self.add_type(naga::TypeInner::Struct {
            members,
            span: push_constant_size,
        });
        let pc = self.module.global_variables.append(
            naga::GlobalVariable {
                name: Some("launch".into()),
                space: naga::AddressSpace::Immediate,
                binding: None,
                ty: block,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            Span::UNDEFINED,
        );
        self.push_constants = Some(pc);

        let function = self.entry_function(id, &arg_sources).ok()?;
        self.module.entry_points.push(naga::EntryPoint {
            name: f.name.to_string(),
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
            name: f.name.to_string(),
            args,
            push_constant_size,
            storage_buffers: binding,
            required_work_group_size: info.required_work_group_size,
            attributes: info.attributes.clone(),
        };
        Some((reflection, std::mem::take(&mut self.module)))
    }

    fn entry_function(&mut self, id: FunctionId, sources: &[ArgSource]) -> LResult<naga::Function> {
        let f = &self.program.functions[id];
        let uvec3 = self.uvec3_type();
        let mut fb = FnBuilder::new(id);
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
        let vars = self.builtins.as_ref().expect("kernel builtins");
        let targets = [vars.global_id, vars.local_id, vars.group_id];
        for (i, target) in targets.into_iter().enumerate() {
            let value = fb.add(naga::Expression::FunctionArgument(i as u32));
            let pointer = fb.add(naga::Expression::GlobalVariable(target));
            fb.push(naga::Statement::Store { pointer, value });
        }
        self.declare_locals(&mut fb)?;
        let pc = self.push_constants.expect("push constants");
        for (&param, source) in f.params.iter().zip(sources) {
            match *source {
                ArgSource::Buffer(global) => {
                    let zero = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
                    self.store_pointer_var(
                        &mut fb,
                        param,
                        PointerValue {
                            root: Root::Global(global),
                            index: zero,
                        },
                        f.location,
                    )?;
                }
                ArgSource::PushConstant(member) => {
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
                ArgSource::NarrowPushConstant { word, bit, scalar } => {
                    let base = fb.add(naga::Expression::GlobalVariable(pc));
                    let pointer = fb.add(naga::Expression::AccessIndex { base, index: word });
                    let word = fb.add(naga::Expression::Load { pointer });
                    let bit = fb.add(naga::Expression::Literal(naga::Literal::U32(bit)));
                    let value = extract_narrow(&mut fb, word, bit, scalar);
                    let var = self.variable_slot(&fb, param)?;
                    let pointer = fb.add(naga::Expression::LocalVariable(var));
                    fb.push(naga::Statement::Store { pointer, value });
                }
            }
        }
        self.statements(&mut fb, &f.body)?;
        Ok(fb.finish())
    }

    /// Creates a naga local for every HIR local that is not a parameter
    /// specialised to a root.
    fn declare_locals(&mut self, fb: &mut FnBuilder) -> LResult<()> {
        let f = &self.program.functions[fb.hir];
        let u32_ty = self.u32_type();
        for (id, local) in f.locals.iter().enumerate() {
            let slot =
                match &local.ty {
                    Type::Pointer(_) => Slot::Pointer {
                        root: fb.param_roots.get(&id).copied(),
                        index: fb.function.local_variables.append(
                            naga::LocalVariable {
                                name: Some(format!("{}_index", local.name)),
                                ty: u32_ty,
                                init: None,
                            },
                            Span::UNDEFINED,
                        ),
                    },
                    ty if local.space == AddressSpace::Local => {
                        let naga_ty = self.value_type(ty, local.location)?;
                        Slot::Workgroup(self.module.global_variables.append(
                            naga::GlobalVariable {
                                name: Some(local.name.to_string()),
                                space: naga::AddressSpace::WorkGroup,
                                binding: None,
                                ty: naga_ty,
                                init: None,
                                memory_decorations: naga::MemoryDecorations::empty(),
                            },
                            Span::UNDEFINED,
                        ))
                    }
                    _ if local.space == AddressSpace::Constant => return Err(self.error(
                        local.location,
                        "__constant variables in kernels are not supported yet by this translator",
                    )),
                    ty => {
                        let naga_ty = self.value_type(ty, local.location)?;
                        Slot::Variable(fb.function.local_variables.append(
                            naga::LocalVariable {
                                name: Some(local.name.to_string()),
                                ty: naga_ty,
                                init: None,
                            },
                            Span::UNDEFINED,
                        ))
                    }
                };
            fb.slots.insert(id, slot);
        }
        Ok(())
    }

    /// A helper function specialised for the roots of its pointer arguments.
    fn helper(
        &mut self,
        id: FunctionId,
        roots: Vec<Option<Root>>,
        location: Location,
    ) -> LResult<Handle<naga::Function>> {
        if let Some(&h) = self.specialisations.get(&(id, roots.clone())) {
            return Ok(h);
        }
        if !self.program.functions[id].defined {
            let name = self.program.functions[id].name.clone();
            return Err(self.error(
                location,
                format!("function '{name}' is declared but never defined"),
            ));
        }
        if self.in_progress.contains(&id) {
            return Err(self.error(location, "recursion is not allowed in OpenCL C"));
        }
        if roots.iter().any(|r| matches!(r, Some(Root::Private(..)))) {
            return Err(self.error(location, "passing pointers to private variables to functions is not supported yet by this translator"));
        }
        self.in_progress.push(id);
        let f = &self.program.functions[id];
        let mut fb = FnBuilder::new(id);
        fb.function.name = Some(f.name.to_string());
        let u32_ty = self.u32_type();
        for (&param, root) in f.params.iter().zip(&roots) {
            if let Some(root) = root {
                fb.param_roots.insert(param, *root);
            }
            let ty = match root {
                Some(_) => u32_ty,
                None => self.value_type(&f.locals[param].ty, f.locals[param].location)?,
            };
            fb.function.arguments.push(naga::FunctionArgument {
                name: Some(f.locals[param].name.to_string()),
                ty,
                binding: None,
            });
        }
        if f.ret != Type::Void {
            let ty = self.value_type(&f.ret, f.location)?;
            fb.function.result = Some(naga::FunctionResult { ty, binding: None });
        }
        self.declare_locals(&mut fb)?;
        for (i, &param) in f.params.iter().enumerate() {
            let value = fb.add(naga::Expression::FunctionArgument(i as u32));
            let pointer = match fb.slots[&param] {
                Slot::Variable(v) | Slot::Pointer { index: v, .. } => {
                    fb.add(naga::Expression::LocalVariable(v))
                }
                Slot::Workgroup(g) => fb.add(naga::Expression::GlobalVariable(g)),
            };
            fb.push(naga::Statement::Store { pointer, value });
        }
        self.statements(&mut fb, &f.body)?;
        let mut function = fb.finish();
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
        self.in_progress.pop();
        let h = self.module.functions.append(function, Span::UNDEFINED);
        self.specialisations.insert((id, roots), h);
        Ok(h)
    }

    // ---- statements ----

    fn statements(&mut self, fb: &mut FnBuilder, stmts: &[Stmt]) -> LResult<()> {
        for s in stmts {
            self.statement(fb, s)?;
        }
        Ok(())
    }

    fn nested(&mut self, fb: &mut FnBuilder, stmts: &[Stmt]) -> LResult<naga::Block> {
        fb.blocks.push(naga::Block::new());
        let r = self.statements(fb, stmts);
        let block = fb.blocks.pop().expect("nested block");
        r.map(|()| block)
    }

    fn statement(&mut self, fb: &mut FnBuilder, s: &Stmt) -> LResult<()> {
        match s {
            Stmt::Expr(e) => {
                self.expr(fb, e)?;
            }
            Stmt::Init(local, value) => {
                let location = value.location;
                let v = self.expr(fb, value)?;
                self.store(fb, Place::PointerVar(*local), v, location, Some(*local))?;
            }
            Stmt::If(cond, then, otherwise) => {
                let condition = self.condition(fb, cond)?;
                let accept = self.nested(fb, then)?;
                let reject = self.nested(fb, otherwise)?;
                fb.push(naga::Statement::If {
                    condition,
                    accept,
                    reject,
                });
            }
            Stmt::Loop {
                cond,
                body,
                step,
                test_first,
            } => {
                fb.blocks.push(naga::Block::new());
                if let (Some(c), true) = (cond, test_first) {
                    let c = self.condition(fb, c)?;
                    let not = fb.unary(naga::UnaryOperator::LogicalNot, c);
                    let mut exit = naga::Block::new();
                    exit.push(naga::Statement::Break, Span::UNDEFINED);
                    fb.push(naga::Statement::If {
                        condition: not,
                        accept: exit,
                        reject: naga::Block::new(),
                    });
                }
                let r = self.statements(fb, body);
                let body_block = fb.blocks.pop().expect("loop body");
                r?;
                fb.blocks.push(naga::Block::new());
                let mut break_if = None;
                let r = (|| {
                    if let Some(step) = step {
                        self.expr(fb, step)?;
                    }
                    if let (Some(c), false) = (cond, test_first) {
                        let c = self.condition(fb, c)?;
                        break_if = Some(fb.unary(naga::UnaryOperator::LogicalNot, c));
                    }
                    Ok(())
                })();
                let continuing = fb.blocks.pop().expect("continuing");
                r?;
                fb.push(naga::Statement::Loop {
                    body: body_block,
                    continuing,
                    break_if,
                });
            }
            Stmt::Break => fb.push(naga::Statement::Break),
            Stmt::Continue => fb.push(naga::Statement::Continue),
            Stmt::Return(value, location) => {
                let value = match value {
                    Some(v) => match self.expr(fb, v)? {
                        Value::Plain(h) => Some(h),
                        _ => {
                            return Err(self.error(
                                *location,
                                "returning pointers is not supported yet by this translator",
                            ))
                        }
                    },
                    None => None,
                };
                fb.push(naga::Statement::Return { value });
            }
            Stmt::Switch(value, cases) => self.switch(fb, value, cases)?,
            Stmt::Block(stmts) => {
                let block = self.nested(fb, stmts)?;
                fb.push(naga::Statement::Block(block));
            }
        }
        Ok(())
    }

    /// C's `switch` on naga's. naga writes invalid SPIR-V for an empty case
    /// that falls through, which is what several labels on one C body
    /// become; so when a body has several labels, a first switch maps the
    /// value to the index of its body and a second switch runs the bodies,
    /// one label each, falling through as C does.
    fn switch(
        &mut self,
        fb: &mut FnBuilder,
        value: &Expr,
        cases: &[hir::SwitchCase],
    ) -> LResult<()> {
        let scalar = value.ty.scalar().unwrap_or(Scalar::Int);
        if scalar.size() > 4 {
            return Err(self.error(
                value.location,
                "switch on 64-bit values is not supported yet by this translator",
            ));
        }
        let label = |bits: u64| {
            if scalar.is_signed() {
                naga::SwitchValue::I32(bits as u32 as i32)
            } else {
                naga::SwitchValue::U32(bits as u32)
            }
        };
        let one_label_each = cases
            .iter()
            .all(|c| c.values.len() + usize::from(c.is_default) <= 1);
        let selector = self.plain(fb, value)?;
        let (selector, labels): (_, Vec<Option<naga::SwitchValue>>) = if one_label_each {
            let labels = cases
                .iter()
                .map(|c| match (c.values.first(), c.is_default) {
                    (Some(&bits), _) => Some(label(bits)),
                    (None, true) => Some(naga::SwitchValue::Default),
                    // Statements before the first label never run.
                    (None, false) => None,
                })
                .collect();
            (selector, labels)
        } else {
            // First switch: value -> body index (u32::MAX: no body).
            let u32_ty = self.u32_type();
            let index_var = fb.function.local_variables.append(
                naga::LocalVariable {
                    name: Some("switch_case".into()),
                    ty: u32_ty,
                    init: None,
                },
                Span::UNDEFINED,
            );
            let mut map_cases = Vec::new();
            let mut default_body = u32::MAX;
            for (i, c) in cases.iter().enumerate() {
                if c.is_default {
                    default_body = i as u32;
                }
                for &bits in &c.values {
                    map_cases.push((label(bits), i as u32));
                }
            }
            map_cases.push((naga::SwitchValue::Default, default_body));
            let mut naga_cases = Vec::new();
            for (value, body_index) in map_cases {
                let mut block = naga::Block::new();
                let pointer = fb
                    .function
                    .expressions
                    .append(naga::Expression::LocalVariable(index_var), Span::UNDEFINED);
                let index = fb.function.expressions.append(
                    naga::Expression::Literal(naga::Literal::U32(body_index)),
                    Span::UNDEFINED,
                );
                block.push(
                    naga::Statement::Store {
                        pointer,
                        value: index,
                    },
                    Span::UNDEFINED,
                );
                naga_cases.push(naga::SwitchCase {
                    value,
                    body: block,
                    fall_through: false,
                });
            }
            fb.push(naga::Statement::Switch {
                selector,
                cases: naga_cases,
            });
            let pointer = fb.add(naga::Expression::LocalVariable(index_var));
            let index = fb.add(naga::Expression::Load { pointer });
            let labels = (0..cases.len())
                .map(|i| Some(naga::SwitchValue::U32(i as u32)))
                .collect();
            (index, labels)
        };
        let mut naga_cases = Vec::new();
        let mut has_default = false;
        for (case, value) in cases.iter().zip(labels) {
            let Some(value) = value else { continue };
            has_default |= value == naga::SwitchValue::Default;
            let body = self.nested(fb, &case.body)?;
            let ends_in_jump = matches!(
                body.last(),
                Some(
                    naga::Statement::Break
                        | naga::Statement::Continue
                        | naga::Statement::Return { .. }
                )
            );
            naga_cases.push(naga::SwitchCase {
                value,
                body,
                fall_through: !ends_in_jump,
            });
        }
        if !has_default {
            naga_cases.push(naga::SwitchCase {
                value: naga::SwitchValue::Default,
                body: naga::Block::new(),
                fall_through: false,
            });
        }
        if let Some(last) = naga_cases.last_mut() {
            last.fall_through = false;
        }
        fb.push(naga::Statement::Switch {
            selector,
            cases: naga_cases,
        });
        Ok(())
    }

    // ---- places ----

    fn place(&mut self, fb: &mut FnBuilder, e: &Expr) -> LResult<Place> {
        match &e.kind {
            H::Local(id) => Ok(match fb.slots[id] {
                Slot::Variable(v) => Place::Memory(fb.add(naga::Expression::LocalVariable(v))),
                Slot::Workgroup(g) => Place::Memory(fb.add(naga::Expression::GlobalVariable(g))),
                Slot::Pointer { .. } => Place::PointerVar(*id),
            }),
            H::Index(base, index) => {
                let index = self.index_value(fb, index)?;
                if let Type::Array(..) = base.ty {
                    let Place::Memory(array) = self.place(fb, base)? else {
                        return Err(self.error(e.location, "unsupported array access"));
                    };
                    return Ok(Place::Memory(
                        fb.add(naga::Expression::Access { base: array, index }),
                    ));
                }
                let p = self.pointer(fb, base)?;
                let index = fb.binary(naga::BinaryOperator::Add, p.index, index);
                Ok(self.element_place(
                    fb,
                    PointerValue {
                        root: p.root,
                        index,
                    },
                ))
            }
            H::Deref(p) => {
                let p = self.pointer(fb, p)?;
                Ok(self.element_place(fb, p))
            }
            H::Member(base, field) => match self.place(fb, base)? {
                Place::Memory(pointer) => {
                    Ok(Place::Memory(fb.add(naga::Expression::AccessIndex {
                        base: pointer,
                        index: *field as u32,
                    })))
                }
                _ => Err(self.error(
                    e.location,
                    "this struct member cannot be reached yet by this translator",
                )),
            },
            H::Swizzle(base, lanes) => match self.place(fb, base)? {
                Place::Memory(ptr) => Ok(Place::Lanes(ptr, lanes.clone())),
                Place::Lanes(ptr, outer) => Ok(Place::Lanes(
                    ptr,
                    lanes.iter().map(|&l| outer[l as usize]).collect(),
                )),
                Place::PointerVar(_) | Place::Narrow { .. } => {
                    Err(self.error(e.location, "invalid swizzle target"))
                }
            },
            _ => Err(self.error(
                e.location,
                "expression is not a place the translator can write to",
            )),
        }
    }

    /// The place a pointer designates: memory, or an element of a
    /// word-viewed buffer.
    fn element_place(&mut self, fb: &mut FnBuilder, p: PointerValue) -> Place {
        if let Root::Global(global) = p.root {
            if let Some(&scalar) = self.narrow_buffers.get(&global) {
                return Place::Narrow {
                    global,
                    index: p.index,
                    scalar,
                };
            }
        }
        Place::Memory(self.element_pointer(fb, p))
    }

    /// For element `index` of a word-viewed buffer: a pointer to its word,
    /// the bit position within the word, and the element's mask.
    fn narrow_word(
        &mut self,
        fb: &mut FnBuilder,
        global: Handle<naga::GlobalVariable>,
        index: Handle<naga::Expression>,
        scalar: Scalar,
    ) -> (Handle<naga::Expression>, Handle<naga::Expression>, u32) {
        let bits = scalar.size() * 8;
        let per_word = 32 / bits;
        let u32_lit =
            |fb: &mut FnBuilder, v: u32| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
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

    fn load_narrow(
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

    /// Stores into a word-viewed buffer by clearing and setting the
    /// element's bits with two atomics, so that work-items writing the
    /// other bytes of the same word never lose their writes.
    fn store_narrow(
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
        let bits = if scalar.is_signed() {
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

    /// A naga pointer to the element `p` designates.
    fn element_pointer(&mut self, fb: &mut FnBuilder, p: PointerValue) -> Handle<naga::Expression> {
        match p.root {
            Root::Global(g) => {
                let base = fb.add(naga::Expression::GlobalVariable(g));
                fb.add(naga::Expression::Access {
                    base,
                    index: p.index,
                })
            }
            Root::Private(v, is_array) => {
                let base = fb.add(naga::Expression::LocalVariable(v));
                if is_array {
                    fb.add(naga::Expression::Access {
                        base,
                        index: p.index,
                    })
                } else {
                    // `&x` of a scalar: only index 0 is valid C; others are
                    // out of bounds and read x too, as naga cannot fault.
                    base
                }
            }
        }
    }

    fn load(&mut self, fb: &mut FnBuilder, place: Place, location: Location) -> LResult<Value> {
        Ok(match place {
            Place::Memory(pointer) => Value::Plain(fb.add(naga::Expression::Load { pointer })),
            Place::Lanes(pointer, lanes) => {
                let vector = fb.add(naga::Expression::Load { pointer });
                Value::Plain(self.swizzle(fb, vector, &lanes, location)?)
            }
            Place::PointerVar(id) => Value::Pointer(self.load_pointer_var(fb, id, location)?),
            Place::Narrow {
                global,
                index,
                scalar,
            } => Value::Plain(self.load_narrow(fb, global, index, scalar)),
        })
    }

    /// The naga variable of a non-pointer local. Slots are made from the
    /// HIR types, which `check` made consistent with every use, so a
    /// mismatch is a translator bug, reported rather than panicking.
    fn variable_slot(
        &mut self,
        fb: &FnBuilder,
        id: LocalId,
    ) -> LResult<Handle<naga::LocalVariable>> {
        match fb.slots.get(&id) {
            Some(Slot::Variable(v)) => Ok(*v),
            _ => Err(self.internal_error(fb, id)),
        }
    }

    /// Where an array variable lives, as a pointer root.
    fn array_root(&mut self, fb: &FnBuilder, id: LocalId) -> LResult<Root> {
        match fb.slots.get(&id) {
            Some(Slot::Variable(v)) => Ok(Root::Private(*v, true)),
            Some(Slot::Workgroup(g)) => Ok(Root::Global(*g)),
            _ => Err(self.internal_error(fb, id)),
        }
    }

    /// The root and index variable of a pointer local.
    fn pointer_slot(
        &mut self,
        fb: &FnBuilder,
        id: LocalId,
    ) -> LResult<(Option<Root>, Handle<naga::LocalVariable>)> {
        match fb.slots.get(&id) {
            Some(Slot::Pointer { root, index }) => Ok((*root, *index)),
            _ => Err(self.internal_error(fb, id)),
        }
    }

    fn internal_error(&mut self, fb: &FnBuilder, id: LocalId) -> Failed {
        let local = &self.program.functions[fb.hir].locals[id];
        let (name, location) = (local.name.clone(), local.location);
        self.error(
            location,
            format!("internal compiler error: variable '{name}' has no storage of its type"),
        )
    }

    fn load_pointer_var(
        &mut self,
        fb: &mut FnBuilder,
        id: LocalId,
        location: Location,
    ) -> LResult<PointerValue> {
        let (root, index) = self.pointer_slot(fb, id)?;
        let Some(root) = root else {
            return Err(self.error(
                location,
                "pointer variable is used before it is given a value",
            ));
        };
        let pointer = fb.add(naga::Expression::LocalVariable(index));
        let index = fb.add(naga::Expression::Load { pointer });
        Ok(PointerValue { root, index })
    }

    fn store_pointer_var(
        &mut self,
        fb: &mut FnBuilder,
        id: LocalId,
        value: PointerValue,
        location: Location,
    ) -> LResult<()> {
        let (root, index) = self.pointer_slot(fb, id)?;
        match root {
            Some(r) if r != value.root => {
                return Err(self.error(
                    location,
                    "a pointer variable that points into different buffers or arrays at run time is not supported yet by this translator",
                ))
            }
            _ => {}
        }
        fb.slots.insert(
            id,
            Slot::Pointer {
                root: Some(value.root),
                index,
            },
        );
        let pointer = fb.add(naga::Expression::LocalVariable(index));
        fb.push(naga::Statement::Store {
            pointer,
            value: value.index,
        });
        Ok(())
    }

    /// Stores `value` to `place`; `init` names the local for initialisers.
    fn store(
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
            (Place::Lanes(pointer, lanes), Value::Plain(value)) => {
                if lanes.len() == 1 {
                    let lane = fb.add(naga::Expression::AccessIndex {
                        base: pointer,
                        index: lanes[0] as u32,
                    });
                    fb.push(naga::Statement::Store {
                        pointer: lane,
                        value,
                    });
                } else {
                    for (i, &l) in lanes.iter().enumerate() {
                        let lane = fb.add(naga::Expression::AccessIndex {
                            base: pointer,
                            index: l as u32,
                        });
                        let part = fb.add(naga::Expression::AccessIndex {
                            base: value,
                            index: i as u32,
                        });
                        fb.push(naga::Statement::Store {
                            pointer: lane,
                            value: part,
                        });
                    }
                }
            }
            (Place::PointerVar(id), Value::Pointer(p)) => {
                self.store_pointer_var(fb, id, p, location)?
            }
            (
                Place::Narrow {
                    global,
                    index,
                    scalar,
                },
                Value::Plain(value),
            ) => self.store_narrow(fb, global, index, scalar, value, location)?,
            _ => return Err(self.error(location, "mismatched assignment of a pointer and a value")),
        }
        Ok(())
    }

    // ---- expressions ----

    fn plain(&mut self, fb: &mut FnBuilder, e: &Expr) -> LResult<Handle<naga::Expression>> {
        match self.expr(fb, e)? {
            Value::Plain(h) => Ok(h),
            _ => Err(self.error(
                e.location,
                format!("expected a value of type '{}'", e.ty.display()),
            )),
        }
    }

    fn pointer(&mut self, fb: &mut FnBuilder, e: &Expr) -> LResult<PointerValue> {
        match self.expr(fb, e)? {
            Value::Pointer(p) => Ok(p),
            _ => Err(self.error(
                e.location,
                "this pointer cannot be resolved to a buffer or array at compile time",
            )),
        }
    }

    /// An integer index as a wrapping `u32`.
    fn index_value(&mut self, fb: &mut FnBuilder, e: &Expr) -> LResult<Handle<naga::Expression>> {
        let v = self.plain(fb, e)?;
        let s = e.ty.scalar().unwrap_or(Scalar::Int);
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

    /// A scalar condition as a naga `bool`.
    fn condition(&mut self, fb: &mut FnBuilder, e: &Expr) -> LResult<Handle<naga::Expression>> {
        match &e.kind {
            H::Binary(op, a, b) if op.is_comparison() && matches!(e.ty, Type::Scalar(_)) => {
                return self.comparison(fb, *op, a, b);
            }
            H::Logical(op, a, b) => return self.logical(fb, *op, a, b),
            H::Unary(hir::UnaryOp::LogicalNot, x) if matches!(x.ty, Type::Scalar(_)) => {
                let c = self.condition(fb, x)?;
                return Ok(fb.unary(naga::UnaryOperator::LogicalNot, c));
            }
            _ => {}
        }
        if let Type::Pointer(_) = e.ty {
            // Pointers resolved to a root are never null.
            self.pointer(fb, e)?;
            return Ok(fb.add(naga::Expression::Literal(naga::Literal::Bool(true))));
        }
        let v = self.plain(fb, e)?;
        let s = e.ty.scalar().unwrap_or(Scalar::Int);
        if s == Scalar::Bool {
            return Ok(v);
        }
        let zero = self.zero(fb, &e.ty, e.location)?;
        // `!= 0` is true for NaN, as C wants: emit !(x == 0).
        let eq = fb.binary(naga::BinaryOperator::Equal, v, zero);
        Ok(fb.unary(naga::UnaryOperator::LogicalNot, eq))
    }

    fn zero(
        &mut self,
        fb: &mut FnBuilder,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let t = self.value_type(ty, location)?;
        Ok(fb.add(naga::Expression::ZeroValue(t)))
    }

    fn constant(
        &mut self,
        fb: &mut FnBuilder,
        ty: &Type,
        bits: u64,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let s = ty.element().unwrap_or(Scalar::Int);
        let lit = fb.add(naga::Expression::Literal(literal(s, bits)));
        self.splat_to(fb, lit, ty, location)
    }

    fn splat_to(
        &mut self,
        fb: &mut FnBuilder,
        scalar: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        Ok(match ty {
            Type::Vector(_, n) => {
                let size = vector_size(*n)
                    .ok_or_else(|| self.error(location, "unsupported vector width"))?;
                fb.add(naga::Expression::Splat {
                    size,
                    value: scalar,
                })
            }
            _ => scalar,
        })
    }

    fn comparison(
        &mut self,
        fb: &mut FnBuilder,
        op: BinaryOp,
        a: &Expr,
        b: &Expr,
    ) -> LResult<Handle<naga::Expression>> {
        let left = self.plain(fb, a)?;
        let right = self.plain(fb, b)?;
        let (naga_op, negate) = match op {
            BinaryOp::Lt => (naga::BinaryOperator::Less, false),
            BinaryOp::Gt => (naga::BinaryOperator::Greater, false),
            BinaryOp::Le => (naga::BinaryOperator::LessEqual, false),
            BinaryOp::Ge => (naga::BinaryOperator::GreaterEqual, false),
            BinaryOp::Eq => (naga::BinaryOperator::Equal, false),
            // Ordered != is false for NaN; C's != is true: use !(a == b).
            _ => (naga::BinaryOperator::Equal, true),
        };
        let r = fb.binary(naga_op, left, right);
        Ok(if negate {
            fb.unary(naga::UnaryOperator::LogicalNot, r)
        } else {
            r
        })
    }

    /// `&&`/`||` with short-circuit evaluation through a bool local.
    fn logical(
        &mut self,
        fb: &mut FnBuilder,
        op: BinaryOp,
        a: &Expr,
        b: &Expr,
    ) -> LResult<Handle<naga::Expression>> {
        let bool_ty = self.add_type(naga::TypeInner::Scalar(naga::Scalar::BOOL));
        let var = fb.function.local_variables.append(
            naga::LocalVariable {
                name: None,
                ty: bool_ty,
                init: None,
            },
            Span::UNDEFINED,
        );
        let first = self.condition(fb, a)?;
        let pointer = fb.add(naga::Expression::LocalVariable(var));
        fb.push(naga::Statement::Store {
            pointer,
            value: first,
        });
        fb.blocks.push(naga::Block::new());
        let r = self.condition(fb, b);
        let second_block = fb.blocks.pop().expect("rhs block");
        let second = r?;
        let mut block = second_block;
        let pointer2 = fb
            .function
            .expressions
            .append(naga::Expression::LocalVariable(var), Span::UNDEFINED);
        block.push(
            naga::Statement::Store {
                pointer: pointer2,
                value: second,
            },
            Span::UNDEFINED,
        );
        let (accept, reject) = if op == BinaryOp::LogicalAnd {
            (block, naga::Block::new())
        } else {
            (naga::Block::new(), block)
        };
        fb.push(naga::Statement::If {
            condition: first,
            accept,
            reject,
        });
        Ok(fb.add(naga::Expression::Load { pointer }))
    }

    /// A naga bool (vector) as the OpenCL integer result: 1/0 for scalars,
    /// -1/0 per lane for vectors.
    fn bool_to_int(
        &mut self,
        fb: &mut FnBuilder,
        b: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let true_bits = if matches!(ty, Type::Vector(..)) {
            u64::MAX
        } else {
            1
        };
        let accept = self.constant(fb, ty, true_bits, location)?;
        let reject = self.constant(fb, ty, 0, location)?;
        Ok(fb.add(naga::Expression::Select {
            condition: b,
            accept,
            reject,
        }))
    }

    fn expr(&mut self, fb: &mut FnBuilder, e: &Expr) -> LResult<Value> {
        let location = e.location;
        let h = match &e.kind {
            H::Int(bits) => self.constant(fb, &e.ty, *bits, location)?,
            H::Float(v) => {
                let s = e.ty.element().unwrap_or(Scalar::Float);
                let lit = fb.add(naga::Expression::Literal(float_literal(s, *v)));
                self.splat_to(fb, lit, &e.ty, location)?
            }
            H::Local(_) | H::Index(..) | H::Deref(_) | H::Member(..) => {
                let place = self.place(fb, e)?;
                return self.load(fb, place, location);
            }
            H::Swizzle(base, lanes) => {
                let v = self.plain(fb, base)?;
                self.swizzle(fb, v, lanes, location)?
            }
            H::Convert(x) => {
                let v = self.plain(fb, x)?;
                self.convert(fb, v, &x.ty, &e.ty, location)?
            }
            H::Splat(x) => {
                let v = self.plain(fb, x)?;
                self.splat_to(fb, v, &e.ty, location)?
            }
            H::Unary(op, x) => match op {
                hir::UnaryOp::Negate => {
                    let v = self.plain(fb, x)?;
                    fb.unary(naga::UnaryOperator::Negate, v)
                }
                hir::UnaryOp::BitNot => {
                    let v = self.plain(fb, x)?;
                    fb.unary(naga::UnaryOperator::BitwiseNot, v)
                }
                hir::UnaryOp::LogicalNot => {
                    let b = if matches!(x.ty, Type::Vector(..)) {
                        let v = self.plain(fb, x)?;
                        let zero = self.zero(fb, &x.ty, location)?;
                        fb.binary(naga::BinaryOperator::Equal, v, zero)
                    } else {
                        let c = self.condition(fb, x)?;
                        fb.unary(naga::UnaryOperator::LogicalNot, c)
                    };
                    self.bool_to_int(fb, b, &e.ty, location)?
                }
            },
            H::Binary(op, a, b) => {
                if op.is_comparison() {
                    let c = self.comparison(fb, *op, a, b)?;
                    self.bool_to_int(fb, c, &e.ty, location)?
                } else {
                    let left = self.plain(fb, a)?;
                    let right = self.plain(fb, b)?;
                    self.arithmetic(fb, *op, left, right, &e.ty, location)?
                }
            }
            H::Logical(op, a, b) => {
                let c = self.logical(fb, *op, a, b)?;
                self.bool_to_int(fb, c, &e.ty, location)?
            }
            H::Conditional(c, a, b) => return self.conditional(fb, e, c, a, b),
            H::Assign(target, value) => {
                let v = self.expr(fb, value)?;
                let result = match v {
                    Value::Plain(h) => Value::Plain(h),
                    Value::Pointer(p) => Value::Pointer(p),
                    Value::Void => return Err(self.error(location, "assigning a void value")),
                };
                let place = self.place(fb, target)?;
                let copy = match &result {
                    Value::Plain(h) => Value::Plain(*h),
                    Value::Pointer(p) => Value::Pointer(*p),
                    Value::Void => Value::Void,
                };
                self.store(fb, place, copy, location, None)?;
                return Ok(result);
            }
            H::CompoundAssign {
                op,
                target,
                value,
                op_ty,
            } => {
                let current = self.plain(fb, target)?;
                let current = self.convert(fb, current, &target.ty, op_ty, location)?;
                let v = self.plain(fb, value)?;
                let combined = self.arithmetic(fb, *op, current, v, op_ty, location)?;
                let result = self.convert(fb, combined, op_ty, &target.ty, location)?;
                let place = self.place(fb, target)?;
                self.store(fb, place, Value::Plain(result), location, None)?;
                result
            }
            H::IncDec {
                target,
                increment,
                prefix,
            } => return self.inc_dec(fb, target, *increment, *prefix, location),
            H::PointerOffset(p, n) => {
                let p = self.pointer(fb, p)?;
                let n = self.index_value(fb, n)?;
                let index = fb.binary(naga::BinaryOperator::Add, p.index, n);
                return Ok(Value::Pointer(PointerValue {
                    root: p.root,
                    index,
                }));
            }
            H::Decay(array) => {
                let H::Local(id) = array.kind else {
                    return Err(self.error(
                        location,
                        "only arrays in variables can be used as pointers for now",
                    ));
                };
                let root = self.array_root(fb, id)?;
                let index = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
                return Ok(Value::Pointer(PointerValue { root, index }));
            }
            H::AddressOf(x) => return self.address_of(fb, x, location),
            H::Call(id, args) => return self.call(fb, *id, args, &e.ty, location),
            H::Builtin(Builtin::Atomic { op, .. }, args) => {
                return self.atomic(fb, *op, args, &e.ty, location)
            }
            H::Builtin(Builtin::Vload(n), args) => {
                return self.vload(fb, *n, args, &e.ty, location)
            }
            H::Builtin(Builtin::Vstore(n), args) => {
                self.vstore(fb, *n, args, location)?;
                return Ok(Value::Void);
            }
            H::Builtin(b, args) if is_barrier(*b) => {
                self.barrier(fb, *b, args);
                return Ok(Value::Void);
            }
            H::Builtin(b, args) => self.builtin(fb, *b, args, &e.ty, location)?,
            H::Comma(a, b) => {
                self.expr(fb, a)?;
                return self.expr(fb, b);
            }
            H::PointerCast(_) => {
                return Err(self.error(
                    location,
                    "pointer casts between element types are not supported yet by this translator",
                ))
            }
            H::Printf(_) => {
                return Err(self.error(location, "printf is not supported yet by this translator"))
            }
            H::Str(_) => {
                return Err(self.error(
                    location,
                    "string literals are not supported yet by this translator",
                ))
            }
            H::Global(_) => {
                return Err(self.error(
                    location,
                    "program-scope variables are not supported yet by this translator",
                ))
            }
            H::InitList(_) => {
                return Err(self.error(
                    location,
                    "initializer lists are not supported yet by this translator",
                ))
            }
            H::VectorLiteral(parts) => {
                let ty = self.value_type(&e.ty, location)?;
                let mut components = Vec::new();
                for p in parts {
                    components.push(self.plain(fb, p)?);
                }
                fb.add(naga::Expression::Compose { ty, components })
            }
        };
        Ok(Value::Plain(h))
    }

    fn swizzle(
        &mut self,
        fb: &mut FnBuilder,
        vector: Handle<naga::Expression>,
        lanes: &[u8],
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        if lanes.len() == 1 {
            return Ok(fb.add(naga::Expression::AccessIndex {
                base: vector,
                index: lanes[0] as u32,
            }));
        }
        let size = vector_size(lanes.len() as u8).ok_or_else(|| {
            self.error(
                location,
                "swizzles wider than 4 lanes are not supported yet by this translator",
            )
        })?;
        let mut pattern = [naga::SwizzleComponent::X; 4];
        for (slot, &l) in pattern.iter_mut().zip(lanes) {
            *slot = match l {
                0 => naga::SwizzleComponent::X,
                1 => naga::SwizzleComponent::Y,
                2 => naga::SwizzleComponent::Z,
                _ => naga::SwizzleComponent::W,
            };
        }
        Ok(fb.add(naga::Expression::Swizzle {
            size,
            vector,
            pattern,
        }))
    }

    fn arithmetic(
        &mut self,
        fb: &mut FnBuilder,
        op: BinaryOp,
        left: Handle<naga::Expression>,
        right: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        use naga::BinaryOperator as N;
        let naga_op = match op {
            BinaryOp::Add => N::Add,
            BinaryOp::Sub => N::Subtract,
            BinaryOp::Mul => N::Multiply,
            BinaryOp::Div => N::Divide,
            BinaryOp::Rem => N::Modulo,
            BinaryOp::BitAnd => N::And,
            BinaryOp::BitOr => N::InclusiveOr,
            BinaryOp::BitXor => N::ExclusiveOr,
            BinaryOp::Shl => N::ShiftLeft,
            BinaryOp::Shr => N::ShiftRight,
            _ => return Err(self.error(location, "internal error: not an arithmetic operator")),
        };
        let right = if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
            // OpenCL masks the shift count to the width (6.3.j); naga's
            // shifts need an unsigned count.
            let s = ty.element().unwrap_or(Scalar::Int);
            let unsigned_ty = match ty {
                Type::Vector(_, n) => Type::Vector(s.to_unsigned(), *n),
                _ => Type::Scalar(s.to_unsigned()),
            };
            let count = if s.is_signed() {
                fb.add(naga::Expression::As {
                    expr: right,
                    kind: naga::ScalarKind::Uint,
                    convert: None,
                })
            } else {
                right
            };
            let mask = self.constant(
                fb,
                &unsigned_ty,
                u64::from(naga_scalar(s).width) * 8 - 1,
                location,
            )?;
            let masked = fb.binary(N::And, count, mask);
            // naga wants a 32-bit count for 64-bit shifts.
            if naga_scalar(s).width == 8 {
                fb.add(naga::Expression::As {
                    expr: masked,
                    kind: naga::ScalarKind::Uint,
                    convert: Some(4),
                })
            } else {
                masked
            }
        } else {
            right
        };
        let result = fb.binary(naga_op, left, right);
        // Results of types narrower than 32 bits live in 32-bit registers and
        // wrap like the C type.
        self.wrap_narrow(fb, result, ty)
    }

    /// Re-wraps a `char`/`short` value held in 32 bits to its type's range.
    fn wrap_narrow(
        &mut self,
        fb: &mut FnBuilder,
        v: Handle<naga::Expression>,
        ty: &Type,
    ) -> LResult<Handle<naga::Expression>> {
        let Some(s) = ty.element() else { return Ok(v) };
        let bits = s.size() * 8;
        if bits >= 32 || s == Scalar::Bool {
            return Ok(v);
        }
        let shift_ty = match ty {
            Type::Vector(_, n) => Type::Vector(Scalar::UInt, *n),
            _ => Type::UINT,
        };
        let shift = self.constant(fb, &shift_ty, u64::from(32 - bits), Location::default())?;
        let up = fb.binary(naga::BinaryOperator::ShiftLeft, v, shift);
        Ok(fb.binary(naga::BinaryOperator::ShiftRight, up, shift))
    }

    /// C conversion of a register value from `from` to `to`.
    fn convert(
        &mut self,
        fb: &mut FnBuilder,
        v: Handle<naga::Expression>,
        from: &Type,
        to: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        if from == to {
            return Ok(v);
        }
        let (Some(fs), Some(ts)) = (from.element(), to.element()) else {
            return Err(self.error(
                location,
                format!("cannot convert '{}' to '{}'", from.display(), to.display()),
            ));
        };
        if ts == Scalar::Bool {
            let zero = self.zero(fb, from, location)?;
            let eq = fb.binary(naga::BinaryOperator::Equal, v, zero);
            return Ok(fb.unary(naga::UnaryOperator::LogicalNot, eq));
        }
        if fs == Scalar::Bool {
            let one = self.constant(fb, to, 1, location)?;
            let zero = self.constant(fb, to, 0, location)?;
            return Ok(fb.add(naga::Expression::Select {
                condition: v,
                accept: one,
                reject: zero,
            }));
        }
        let (fn_, tn) = (naga_scalar(fs), naga_scalar(ts));
        let converted = if fn_ == tn {
            v
        } else if fn_.width == tn.width && fs.is_integer() && ts.is_integer() {
            fb.add(naga::Expression::As {
                expr: v,
                kind: tn.kind,
                convert: None,
            })
        } else {
            fb.add(naga::Expression::As {
                expr: v,
                kind: tn.kind,
                convert: Some(tn.width),
            })
        };
        self.wrap_narrow(fb, converted, to)
    }

    fn conditional(
        &mut self,
        fb: &mut FnBuilder,
        e: &Expr,
        c: &Expr,
        a: &Expr,
        b: &Expr,
    ) -> LResult<Value> {
        if matches!(e.ty, Type::Pointer(_)) {
            return Err(self.error(
                e.location,
                "choosing a pointer at run time is not supported yet by this translator",
            ));
        }
        let condition = self.condition(fb, c)?;
        let ty = self.value_type(&e.ty, e.location)?;
        let var = fb.function.local_variables.append(
            naga::LocalVariable {
                name: None,
                ty,
                init: None,
            },
            Span::UNDEFINED,
        );
        let mut branches = Vec::new();
        for side in [a, b] {
            fb.blocks.push(naga::Block::new());
            let r = self.plain(fb, side);
            let mut block = fb.blocks.pop().expect("branch");
            let value = r?;
            let pointer = fb
                .function
                .expressions
                .append(naga::Expression::LocalVariable(var), Span::UNDEFINED);
            block.push(naga::Statement::Store { pointer, value }, Span::UNDEFINED);
            branches.push(block);
        }
        let reject = branches.pop().expect("reject");
        let accept = branches.pop().expect("accept");
        fb.push(naga::Statement::If {
            condition,
            accept,
            reject,
        });
        let pointer = fb.add(naga::Expression::LocalVariable(var));
        Ok(Value::Plain(fb.add(naga::Expression::Load { pointer })))
    }

    fn inc_dec(
        &mut self,
        fb: &mut FnBuilder,
        target: &Expr,
        increment: bool,
        prefix: bool,
        location: Location,
    ) -> LResult<Value> {
        if let Type::Pointer(_) = target.ty {
            let place = self.place(fb, target)?;
            let Value::Pointer(old) = self.load(fb, place, location)? else {
                return Err(self.error(location, "expected a pointer"));
            };
            let step = fb.add(naga::Expression::Literal(naga::Literal::U32(
                if increment { 1 } else { u32::MAX },
            )));
            let index = fb.binary(naga::BinaryOperator::Add, old.index, step);
            let new = PointerValue {
                root: old.root,
                index,
            };
            let place = self.place(fb, target)?;
            self.store(fb, place, Value::Pointer(new), location, None)?;
            return Ok(Value::Pointer(if prefix { new } else { old }));
        }
        let old = self.plain(fb, target)?;
        let op_ty = match &target.ty {
            Type::Scalar(s) if s.is_integer() => Type::Scalar(crate::builtins::promote(*s)),
            t => t.clone(),
        };
        let widened = self.convert(fb, old, &target.ty, &op_ty, location)?;
        let one = if op_ty.element().is_some_and(Scalar::is_float) {
            let lit = fb.add(naga::Expression::Literal(float_literal(
                op_ty.element().unwrap_or(Scalar::Float),
                1.0,
            )));
            self.splat_to(fb, lit, &op_ty, location)?
        } else {
            self.constant(fb, &op_ty, 1, location)?
        };
        let op = if increment {
            BinaryOp::Add
        } else {
            BinaryOp::Sub
        };
        let combined = self.arithmetic(fb, op, widened, one, &op_ty, location)?;
        let new = self.convert(fb, combined, &op_ty, &target.ty, location)?;
        let place = self.place(fb, target)?;
        self.store(fb, place, Value::Plain(new), location, None)?;
        Ok(Value::Plain(if prefix { new } else { old }))
    }

    fn address_of(&mut self, fb: &mut FnBuilder, x: &Expr, location: Location) -> LResult<Value> {
        match &x.kind {
            H::Index(base, index) if matches!(base.ty, Type::Pointer(_)) => {
                let p = self.pointer(fb, base)?;
                let i = self.index_value(fb, index)?;
                let index = fb.binary(naga::BinaryOperator::Add, p.index, i);
                Ok(Value::Pointer(PointerValue {
                    root: p.root,
                    index,
                }))
            }
            H::Index(base, index) => {
                let H::Local(id) = base.kind else {
                    return Err(self.error(
                        location,
                        "taking this address is not supported yet by this translator",
                    ));
                };
                let root = self.array_root(fb, id)?;
                let index = self.index_value(fb, index)?;
                Ok(Value::Pointer(PointerValue { root, index }))
            }
            H::Deref(p) => Ok(Value::Pointer(self.pointer(fb, p)?)),
            H::Local(id) if matches!(x.ty, Type::Array(..)) => {
                let root = self.array_root(fb, *id)?;
                let index = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
                Ok(Value::Pointer(PointerValue { root, index }))
            }
            H::Local(id) => {
                let Slot::Variable(v) = fb.slots[id] else {
                    return Err(self.error(
                        location,
                        "taking this address is not supported yet by this translator",
                    ));
                };
                let index = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
                let is_array = matches!(x.ty, Type::Array(..));
                Ok(Value::Pointer(PointerValue {
                    root: Root::Private(v, is_array),
                    index,
                }))
            }
            _ => Err(self.error(
                location,
                "taking this address is not supported yet by this translator",
            )),
        }
    }

    fn call(
        &mut self,
        fb: &mut FnBuilder,
        id: FunctionId,
        args: &[Expr],
        ret: &Type,
        location: Location,
    ) -> LResult<Value> {
        let mut roots = Vec::new();
        let mut arguments = Vec::new();
        for a in args {
            match self.expr(fb, a)? {
                Value::Plain(h) => {
                    roots.push(None);
                    arguments.push(h);
                }
                Value::Pointer(p) => {
                    roots.push(Some(p.root));
                    arguments.push(p.index);
                }
                Value::Void => return Err(self.error(a.location, "void value used as an argument")),
            }
        }
        let function = self.helper(id, roots, location)?;
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
            Some(h) => Value::Plain(h),
            None => Value::Void,
        })
    }

    fn builtin(
        &mut self,
        fb: &mut FnBuilder,
        b: Builtin,
        args: &[Expr],
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let math = |f: naga::MathFunction| Some(f);
        let function = match b {
            Builtin::Min | Builtin::Fmin => math(naga::MathFunction::Min),
            Builtin::Max | Builtin::Fmax => math(naga::MathFunction::Max),
            Builtin::Fabs => math(naga::MathFunction::Abs),
            Builtin::Floor => math(naga::MathFunction::Floor),
            Builtin::Ceil => math(naga::MathFunction::Ceil),
            Builtin::Trunc => math(naga::MathFunction::Trunc),
            Builtin::Sqrt => math(naga::MathFunction::Sqrt),
            Builtin::Fma | Builtin::Mad => math(naga::MathFunction::Fma),
            Builtin::WorkDim
            | Builtin::GlobalId
            | Builtin::LocalId
            | Builtin::GroupId
            | Builtin::GlobalSize
            | Builtin::LocalSize
            | Builtin::NumGroups
            | Builtin::GlobalOffset
            | Builtin::EnqueuedLocalSize
            | Builtin::GlobalLinearId
            | Builtin::LocalLinearId => None,
            _ => {
                return Err(self.error(
                    location,
                    format!("built-in function '{b}' is not supported yet by this translator"),
                ))
            }
        };
        if let Some(fun) = function {
            let mut values = Vec::new();
            for a in args {
                values.push(self.plain(fb, a)?);
            }
            return Ok(fb.add(naga::Expression::Math {
                fun,
                arg: values[0],
                arg1: values.get(1).copied(),
                arg2: values.get(2).copied(),
                arg3: None,
            }));
        }
        let pc = self.push_constants.expect("push constants");
        let vars = self.builtins.as_ref().expect("builtins");
        let load_global = |fb: &mut FnBuilder, g: Handle<naga::GlobalVariable>| {
            let pointer = fb.add(naga::Expression::GlobalVariable(g));
            fb.add(naga::Expression::Load { pointer })
        };
        let (global_id, local_id, group_id, local_size) = (
            vars.global_id,
            vars.local_id,
            vars.group_id,
            vars.local_size,
        );
        if b == Builtin::WorkDim {
            let base = fb.add(naga::Expression::GlobalVariable(pc));
            let pointer = fb.add(naga::Expression::AccessIndex {
                base,
                index: PushConstantHeader::WORK_DIM / 4,
            });
            return Ok(fb.add(naga::Expression::Load { pointer }));
        }
        let uvec3 = self.uvec3_type();
        let header_vector = |fb: &mut FnBuilder, byte_offset: u32| {
            let mut components = Vec::new();
            for i in 0..3 {
                let base = fb.add(naga::Expression::GlobalVariable(pc));
                let pointer = fb.add(naga::Expression::AccessIndex {
                    base,
                    index: byte_offset / 4 + i,
                });
                components.push(fb.add(naga::Expression::Load { pointer }));
            }
            fb.add(naga::Expression::Compose {
                ty: uvec3,
                components,
            })
        };
        if matches!(b, Builtin::GlobalLinearId | Builtin::LocalLinearId) {
            let components = local_size
                .map(|c| fb.add(naga::Expression::Constant(c)))
                .to_vec();
            let local = fb.add(naga::Expression::Compose {
                ty: uvec3,
                components,
            });
            let (id, size) = if b == Builtin::LocalLinearId {
                (load_global(fb, local_id), local)
            } else {
                // The id within the NDRange, without the global offset.
                let id = load_global(fb, global_id);
                let groups = header_vector(fb, PushConstantHeader::GROUP_OFFSET);
                let first = fb.binary(naga::BinaryOperator::Multiply, groups, local);
                let id = fb.binary(naga::BinaryOperator::Add, id, first);
                (id, header_vector(fb, PushConstantHeader::GLOBAL_SIZE))
            };
            let part = |fb: &mut FnBuilder, v, i| {
                fb.add(naga::Expression::AccessIndex { base: v, index: i })
            };
            let (x, y, z) = (part(fb, id, 0), part(fb, id, 1), part(fb, id, 2));
            let (sx, sy) = (part(fb, size, 0), part(fb, size, 1));
            // x + sx * (y + sy * z)
            let zy = fb.binary(naga::BinaryOperator::Multiply, sy, z);
            let yz = fb.binary(naga::BinaryOperator::Add, y, zy);
            let row = fb.binary(naga::BinaryOperator::Multiply, sx, yz);
            let linear = fb.binary(naga::BinaryOperator::Add, x, row);
            return self.convert(fb, linear, &Type::UINT, ty, location);
        }
        let (vector, out_of_range) = match b {
            Builtin::GlobalId => {
                // (group_offset + WorkGroupId) * local + LocalInvocationId
                // + global_offset, with GlobalInvocationId covering the
                // dispatch-relative part.
                let id = load_global(fb, global_id);
                let groups = header_vector(fb, PushConstantHeader::GROUP_OFFSET);
                let components = local_size
                    .map(|c| fb.add(naga::Expression::Constant(c)))
                    .to_vec();
                let local = fb.add(naga::Expression::Compose {
                    ty: uvec3,
                    components,
                });
                let first = fb.binary(naga::BinaryOperator::Multiply, groups, local);
                let offset = header_vector(fb, PushConstantHeader::GLOBAL_OFFSET);
                let base = fb.binary(naga::BinaryOperator::Add, first, offset);
                (fb.binary(naga::BinaryOperator::Add, id, base), 0)
            }
            Builtin::LocalId => (load_global(fb, local_id), 0),
            Builtin::GroupId => {
                let id = load_global(fb, group_id);
                let groups = header_vector(fb, PushConstantHeader::GROUP_OFFSET);
                (fb.binary(naga::BinaryOperator::Add, id, groups), 0)
            }
            Builtin::GlobalSize => (header_vector(fb, PushConstantHeader::GLOBAL_SIZE), 1),
            Builtin::GlobalOffset => (header_vector(fb, PushConstantHeader::GLOBAL_OFFSET), 0),
            // Work-groups are uniform, so the enqueued size is the size.
            Builtin::LocalSize | Builtin::EnqueuedLocalSize => {
                let components = local_size
                    .map(|c| fb.add(naga::Expression::Constant(c)))
                    .to_vec();
                (
                    fb.add(naga::Expression::Compose {
                        ty: uvec3,
                        components,
                    }),
                    1,
                )
            }
            Builtin::NumGroups => {
                // Work-groups are uniform, so the global size divides evenly.
                let size = header_vector(fb, PushConstantHeader::GLOBAL_SIZE);
                let components = local_size
                    .map(|c| fb.add(naga::Expression::Constant(c)))
                    .to_vec();
                let local = fb.add(naga::Expression::Compose {
                    ty: uvec3,
                    components,
                });
                (fb.binary(naga::BinaryOperator::Divide, size, local), 1)
            }
            _ => return Err(self.error(location, "internal error: unhandled built-in")),
        };
        let component = self.dimension(fb, vector, &args[0], out_of_range)?;
        self.convert(fb, component, &Type::UINT, ty, location)
    }

    /// The OpenCL 1.x `atomic_*`/`atom_*` functions on 32-bit integers in
    /// buffers and `__local` arrays. The array they touch is retyped to
    /// hold `atomic<T>`: plain loads and stores of it stay valid (naga and
    /// SPIR-V allow them on atomics), and every access to one location
    /// agrees on being atomic.
    fn atomic(
        &mut self,
        fb: &mut FnBuilder,
        op: crate::builtins::AtomicOp,
        args: &[Expr],
        ty: &Type,
        location: Location,
    ) -> LResult<Value> {
        use crate::builtins::AtomicOp as Op;
        let p = self.pointer(fb, &args[0])?;
        let Root::Global(global) = p.root else {
            return Err(self.error(
                location,
                "atomic operations on private memory are not supported by this translator",
            ));
        };
        let scalar = match ty.scalar() {
            Some(s @ (Scalar::Int | Scalar::UInt)) => naga_scalar(s),
            _ => {
                return Err(self.error(
                    location,
                    format!(
                        "atomic operations on '{}' are not supported yet by this translator",
                        ty.display()
                    ),
                ))
            }
        };
        self.make_atomic(global, scalar, location)?;
        let base = fb.add(naga::Expression::GlobalVariable(global));
        let pointer = fb.add(naga::Expression::Access {
            base,
            index: p.index,
        });
        let operand = |this: &mut Self, fb: &mut FnBuilder, i: usize| this.plain(fb, &args[i]);
        let one = |fb: &mut FnBuilder| {
            fb.add(naga::Expression::Literal(if scalar == naga::Scalar::I32 {
                naga::Literal::I32(1)
            } else {
                naga::Literal::U32(1)
            }))
        };
        let (fun, value) = match op {
            Op::Add => (naga::AtomicFunction::Add, operand(self, fb, 1)?),
            Op::Sub => (naga::AtomicFunction::Subtract, operand(self, fb, 1)?),
            Op::Inc => (naga::AtomicFunction::Add, one(fb)),
            Op::Dec => (naga::AtomicFunction::Subtract, one(fb)),
            Op::Min => (naga::AtomicFunction::Min, operand(self, fb, 1)?),
            Op::Max => (naga::AtomicFunction::Max, operand(self, fb, 1)?),
            Op::And => (naga::AtomicFunction::And, operand(self, fb, 1)?),
            Op::Or => (naga::AtomicFunction::InclusiveOr, operand(self, fb, 1)?),
            Op::Xor => (naga::AtomicFunction::ExclusiveOr, operand(self, fb, 1)?),
            Op::Xchg => (
                naga::AtomicFunction::Exchange { compare: None },
                operand(self, fb, 1)?,
            ),
            Op::Cmpxchg => {
                let compare = operand(self, fb, 1)?;
                (
                    naga::AtomicFunction::Exchange {
                        compare: Some(compare),
                    },
                    operand(self, fb, 2)?,
                )
            }
        };
        let comparison = matches!(op, Op::Cmpxchg);
        let result_ty = if comparison {
            self.module.generate_predeclared_type(
                naga::PredeclaredType::AtomicCompareExchangeWeakResult(scalar),
            )
        } else {
            self.add_type(naga::TypeInner::Scalar(scalar))
        };
        // Results of atomics belong to their statement, never to an Emit.
        let result = fb.function.expressions.append(
            naga::Expression::AtomicResult {
                ty: result_ty,
                comparison,
            },
            Span::UNDEFINED,
        );
        fb.push(naga::Statement::Atomic {
            pointer,
            fun,
            value,
            result: Some(result),
        });
        if comparison {
            // atomic_cmpxchg returns the old value.
            return Ok(Value::Plain(fb.add(naga::Expression::AccessIndex {
                base: result,
                index: 0,
            })));
        }
        Ok(Value::Plain(result))
    }

    /// Retypes an array global's elements as `atomic<scalar>`.
    fn make_atomic(
        &mut self,
        global: Handle<naga::GlobalVariable>,
        scalar: naga::Scalar,
        location: Location,
    ) -> LResult<()> {
        let ty = self.module.global_variables[global].ty;
        let naga::TypeInner::Array { base, size, stride } = self.module.types[ty].inner else {
            return Err(self.error(location, "atomic operations need an array of int or uint"));
        };
        match self.module.types[base].inner {
            naga::TypeInner::Atomic(s) if s == scalar => Ok(()),
            naga::TypeInner::Scalar(s) if s == scalar => {
                let atomic = self.add_type(naga::TypeInner::Atomic(scalar));
                let array = self.add_type(naga::TypeInner::Array {
                    base: atomic,
                    size,
                    stride,
                });
                self.module.global_variables[global].ty = array;
                Ok(())
            }
            _ => Err(self.error(
                location,
                "atomic operations on memory of another type are not supported yet by this translator",
            )),
        }
    }

    /// The element places `vloadn`/`vstoren` touch: `n` consecutive elements
    /// from `p + offset * n`, aligned to the element only (OpenCL C 6.15.10;
    /// `vload3` reads exactly three).
    fn vector_places(
        &mut self,
        fb: &mut FnBuilder,
        n: u8,
        offset: &Expr,
        pointer: &Expr,
    ) -> LResult<Vec<Place>> {
        let p = self.pointer(fb, pointer)?;
        let offset = self.index_value(fb, offset)?;
        let width = fb.add(naga::Expression::Literal(naga::Literal::U32(u32::from(n))));
        let scaled = fb.binary(naga::BinaryOperator::Multiply, offset, width);
        let first = fb.binary(naga::BinaryOperator::Add, p.index, scaled);
        let mut places = Vec::with_capacity(usize::from(n));
        for k in 0..u32::from(n) {
            let k = fb.add(naga::Expression::Literal(naga::Literal::U32(k)));
            let index = fb.binary(naga::BinaryOperator::Add, first, k);
            places.push(self.element_place(
                fb,
                PointerValue {
                    root: p.root,
                    index,
                },
            ));
        }
        Ok(places)
    }

    fn vload(
        &mut self,
        fb: &mut FnBuilder,
        n: u8,
        args: &[Expr],
        ty: &Type,
        location: Location,
    ) -> LResult<Value> {
        let vector = self.value_type(ty, location)?;
        let mut components = Vec::new();
        for place in self.vector_places(fb, n, &args[0], &args[1])? {
            match self.load(fb, place, location)? {
                Value::Plain(h) => components.push(h),
                _ => return Err(self.error(location, "vload of pointers")),
            }
        }
        Ok(Value::Plain(fb.add(naga::Expression::Compose {
            ty: vector,
            components,
        })))
    }

    fn vstore(
        &mut self,
        fb: &mut FnBuilder,
        n: u8,
        args: &[Expr],
        location: Location,
    ) -> LResult<()> {
        let data = self.plain(fb, &args[0])?;
        let places = self.vector_places(fb, n, &args[1], &args[2])?;
        for (k, place) in places.into_iter().enumerate() {
            let lane = fb.add(naga::Expression::AccessIndex {
                base: data,
                index: k as u32,
            });
            self.store(fb, place, Value::Plain(lane), location, None)?;
        }
        Ok(())
    }

    /// `barrier(flags)` and the fences. The flags are CLK_LOCAL_MEM_FENCE
    /// (workgroup memory) and CLK_GLOBAL_MEM_FENCE (buffers); flags that are
    /// not a constant order both.
    fn barrier(&mut self, fb: &mut FnBuilder, b: Builtin, args: &[Expr]) {
        let flags = match args.first().map(|a| &a.kind) {
            Some(H::Int(bits)) => *bits,
            _ => 3,
        };
        let mut barrier = naga::Barrier::empty();
        if flags & 1 != 0 {
            barrier |= naga::Barrier::WORK_GROUP;
        }
        if flags & 2 != 0 {
            barrier |= naga::Barrier::STORAGE;
        }
        let statement = match b {
            Builtin::Barrier | Builtin::WorkGroupBarrier => {
                naga::Statement::ControlBarrier(barrier)
            }
            _ => naga::Statement::MemoryBarrier(barrier),
        };
        fb.push(statement);
    }

    /// Component `dim` of a `uvec3`, or `default` for a dimension >= 3
    /// (OpenCL C 6.15.1).
    fn dimension(
        &mut self,
        fb: &mut FnBuilder,
        vector: Handle<naga::Expression>,
        dim: &Expr,
        default: u32,
    ) -> LResult<Handle<naga::Expression>> {
        if let H::Int(d) = dim.kind {
            return Ok(if d < 3 {
                fb.add(naga::Expression::AccessIndex {
                    base: vector,
                    index: d as u32,
                })
            } else {
                fb.add(naga::Expression::Literal(naga::Literal::U32(default)))
            });
        }
        let d = self.plain(fb, dim)?;
        let two = fb.add(naga::Expression::Literal(naga::Literal::U32(2)));
        let clamped = fb.add(naga::Expression::Math {
            fun: naga::MathFunction::Min,
            arg: d,
            arg1: Some(two),
            arg2: None,
            arg3: None,
        });
        let value = fb.add(naga::Expression::Access {
            base: vector,
            index: clamped,
        });
        let three = fb.add(naga::Expression::Literal(naga::Literal::U32(3)));
        let in_range = fb.binary(naga::BinaryOperator::Less, d, three);
        let fallback = fb.add(naga::Expression::Literal(naga::Literal::U32(default)));
        Ok(fb.add(naga::Expression::Select {
            condition: in_range,
            accept: value,
            reject: fallback,
        }))
    }
}

/// The `char`/`short` at bit `bit` of a u32 `word`, as its register value
/// (sign-extended for signed types).
fn extract_narrow(
    fb: &mut FnBuilder,
    word: Handle<naga::Expression>,
    bit: Handle<naga::Expression>,
    scalar: Scalar,
) -> Handle<naga::Expression> {
    let shifted = fb.binary(naga::BinaryOperator::ShiftRight, word, bit);
    let mask = fb.add(naga::Expression::Literal(naga::Literal::U32(
        (1u32 << (scalar.size() * 8)) - 1,
    )));
    let value = fb.binary(naga::BinaryOperator::And, shifted, mask);
    if !scalar.is_signed() {
        return value;
    }
    let as_int = fb.add(naga::Expression::As {
        expr: value,
        kind: naga::ScalarKind::Sint,
        convert: None,
    });
    let up = fb.add(naga::Expression::Literal(naga::Literal::U32(
        32 - scalar.size() * 8,
    )));
    let high = fb.binary(naga::BinaryOperator::ShiftLeft, as_int, up);
    fb.binary(naga::BinaryOperator::ShiftRight, high, up)
}

fn is_barrier(b: Builtin) -> bool {
    matches!(
        b,
        Builtin::Barrier
            | Builtin::WorkGroupBarrier
            | Builtin::MemFence
            | Builtin::ReadMemFence
            | Builtin::WriteMemFence
    )
}

enum ArgSource {
    Buffer(Handle<naga::GlobalVariable>),
    PushConstant(u32),
    /// A `char`/`short` argument: `bit` bits into push-constant member
    /// `word` (a u32).
    NarrowPushConstant {
        word: u32,
        bit: u32,
        scalar: Scalar,
    },
}

impl FnBuilder {
    fn new(hir: FunctionId) -> Self {
        FnBuilder {
            function: naga::Function::default(),
            blocks: vec![naga::Block::new()],
            slots: HashMap::new(),
            param_roots: HashMap::new(),
            hir,
        }
    }

    /// Appends an expression; those that need it are emitted at once in the
    /// current block, so evaluation order follows the source.
    fn add(&mut self, e: naga::Expression) -> Handle<naga::Expression> {
        let needs_emit = !e.needs_pre_emit() && !matches!(e, naga::Expression::CallResult(_));
        let start = self.function.expressions.len();
        let h = self.function.expressions.append(e, Span::UNDEFINED);
        if needs_emit {
            let block = self.blocks.last_mut().expect("open block");
            // Extend the block's last `Emit` when it ends right here, so a
            // run of expressions costs one statement, not one each.
            if let Some(naga::Statement::Emit(range)) = block.last_mut() {
                if let Some((first, last)) = range.first_and_last() {
                    if last.index() + 1 == h.index() {
                        *range = naga::Range::new_from_bounds(first, h);
                        return h;
                    }
                }
            }
            let range = self.function.expressions.range_from(start);
            self.push(naga::Statement::Emit(range));
        }
        h
    }

    fn binary(
        &mut self,
        op: naga::BinaryOperator,
        left: Handle<naga::Expression>,
        right: Handle<naga::Expression>,
    ) -> Handle<naga::Expression> {
        self.add(naga::Expression::Binary { op, left, right })
    }

    fn unary(
        &mut self,
        op: naga::UnaryOperator,
        expr: Handle<naga::Expression>,
    ) -> Handle<naga::Expression> {
        self.add(naga::Expression::Unary { op, expr })
    }

    fn push(&mut self, s: naga::Statement) {
        self.blocks
            .last_mut()
            .expect("open block")
            .push(s, Span::UNDEFINED);
    }

    fn finish(mut self) -> naga::Function {
        self.function.body = self.blocks.pop().expect("function body");
        self.function
    }
}
