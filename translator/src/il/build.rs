//! The driver: every module's types, constants, variables and function
//! declarations read into one HIR program, imports linked to exports by
//! name, the function bodies read, the entry points made kernels; then the
//! analysis and the lowering every OpenCL C program takes.

use super::function::FunctionReader;
use super::listing::Listing;
use super::types::{address_space, read_type, IlType};
use super::{IlModule, SpecValues};
use crate::ast::AddressSpace;
use crate::builtins::BuiltinContext;
use crate::diagnostic::{Diagnostics, SourceMap, Span};
use crate::hir::{self, FunctionId, GlobalId};
use crate::reflect::AddressQualifier;
use crate::types::{Pointee, Scalar, Type};
use crate::{analysis, lower, BuildError, BuildOptions, DeviceCaps, Program};
use rspirv::dr::{Instruction, Module, Operand};
use rspirv::spirv::{
    BuiltIn, Decoration, FunctionParameterAttribute, LinkageType, Op, StorageClass,
};
use std::collections::HashMap;

/// Builds `modules` into a program for a device with `caps`.
pub(super) fn build(
    modules: &[(&IlModule, &SpecValues)],
    options: &str,
    caps: &DeviceCaps,
) -> Result<Program, BuildError> {
    let mut options = BuildOptions::parse(options).map_err(BuildError::InvalidOptions)?;
    // `-cl-std` chooses a source language; a module is OpenCL 3.0's IL,
    // with non-uniform work-groups unless `-cl-uniform-work-group-size`.
    options.cl_std = Some(crate::options::ClStd::Cl3_0);
    let mut sources = SourceMap::default();
    let mut reader = Reader {
        program: hir::Program::new(caps.address_bits),
        diags: Diagnostics::default(),
        context: BuiltinContext {
            size_type: if caps.address_bits == 64 {
                Scalar::ULong
            } else {
                Scalar::UInt
            },
            float64: caps.float64,
            float16: caps.float16,
            cl_std: (3, 0),
            image_3d_writes: caps.image_3d_writes(),
            subgroups: caps.subgroups,
        },
        exports: HashMap::new(),
    };
    reader.diags.suppress_warnings = options.suppress_warnings;
    let mut scopes: Vec<ModuleScope> = modules
        .iter()
        .enumerate()
        .map(|(i, &(il, spec))| {
            let name = if modules.len() == 1 {
                "module.spv".to_owned()
            } else {
                format!("module{i}.spv")
            };
            let listing = Listing::new(&name, &il.module, &il.words, &mut sources);
            reader.declare(&il.module, listing, spec)
        })
        .collect();
    for scope in &mut scopes {
        reader.link_imports(scope);
    }
    for scope in &scopes {
        reader.define_functions(scope);
    }
    if !reader.diags.has_errors() {
        reader.reject_recursion(&scopes);
    }
    let Reader {
        mut program,
        mut diags,
        ..
    } = reader;
    let lowered = if diags.has_errors() {
        lower::Lowered {
            kernels: Vec::new(),
            globals: crate::reflect::ProgramGlobals::default(),
        }
    } else {
        crate::unroll::unroll(&mut program, &options);
        let analysis = analysis::analyse(&program);
        lower::lower(&program, &analysis, &options, caps, &mut diags)
    };
    let log = diags.render(&sources);
    if diags.has_errors() {
        return Err(BuildError::Compile { log });
    }
    Ok(Program {
        kernels: lowered.kernels,
        globals: lowered.globals,
        log,
    })
}

/// Whether a pointer to `pointee` points to arrays in a buffer, which
/// the pointer model holds only as pointers to their elements.
pub(super) fn is_buffer_of_arrays(pointee: &Pointee) -> bool {
    matches!(pointee.ty, Type::Array(..))
        && matches!(pointee.space, AddressSpace::Global | AddressSpace::Constant)
}

/// What the modules share while they are read.
pub(super) struct Reader {
    pub program: hir::Program,
    pub diags: Diagnostics,
    pub context: BuiltinContext,
    /// Functions with `Export` or `LinkOnceODR` linkage, by name, and
    /// whether the one kept is `LinkOnceODR` (another definition may
    /// then stand beside it: `cl_khr_spirv_linkonce_odr` says they are
    /// the same).
    exports: HashMap<String, (FunctionId, bool)>,
}

/// A module variable as the functions see it.
#[derive(Clone, Copy, Debug)]
pub(super) enum ModuleVariable {
    /// A program-scope `__constant` or `__global` variable.
    Global(GlobalId),
    /// A `BuiltIn` input: its loads are work-item function calls.
    Builtin(BuiltIn),
    /// A `Workgroup` variable: the `__local` variable of the kernel that
    /// uses it (a local of that function, `AddressSpace::Local`).
    Workgroup(Type),
}

/// What the ids of one module stand for.
pub(super) struct ModuleScope<'m> {
    pub module: &'m Module,
    pub listing: Listing,
    pub types: HashMap<u32, IlType>,
    /// Constants, spec constants and undefined values, by id.
    pub constants: HashMap<u32, &'m Instruction>,
    pub variables: HashMap<u32, ModuleVariable>,
    pub functions: HashMap<u32, FunctionId>,
    /// Functions declared with `Import` linkage: their id and name.
    imports: Vec<(u32, String)>,
    pub names: HashMap<u32, &'m str>,
    pub decorations: HashMap<u32, Vec<&'m Instruction>>,
    /// The id of the `OpenCL.std` import.
    pub opencl_std: Option<u32>,
    /// The values set on the module's specialization constants.
    pub spec: &'m SpecValues,
}

impl ModuleScope<'_> {
    /// Whether `id` carries `decoration`.
    pub fn decorated(&self, id: u32, decoration: Decoration) -> bool {
        self.decoration(id, decoration).is_some()
    }

    /// The operands after the decoration of `id`'s first `decoration`.
    pub fn decoration(&self, id: u32, decoration: Decoration) -> Option<&[Operand]> {
        self.decorations.get(&id)?.iter().find_map(|d| {
            (d.operands.get(1) == Some(&Operand::Decoration(decoration))).then(|| &d.operands[2..])
        })
    }

    /// Whether parameter `id` has the function parameter attribute `attr`.
    pub fn has_param_attribute(&self, id: u32, attr: FunctionParameterAttribute) -> bool {
        self.decorations.get(&id).is_some_and(|list| {
            list.iter().any(|d| {
                d.operands.get(1) == Some(&Operand::Decoration(Decoration::FuncParamAttr))
                    && d.operands.get(2) == Some(&Operand::FunctionParameterAttribute(attr))
            })
        })
    }

    /// The value type of type id `id`.
    pub fn value_type(&self, id: u32) -> Result<Type, String> {
        match self.types.get(&id) {
            Some(IlType::Value(t)) => Ok(*t),
            Some(IlType::Unsupported(why)) => Err(format!("{why} is not supported yet")),
            _ => Err(format!("%{id} is not a type")),
        }
    }

    /// The value of integer constant `id` (its bits, zero-extended).
    pub fn constant_u64(&self, id: u32) -> Option<u64> {
        let inst = self.constants.get(&id)?;
        match (inst.class.opcode, inst.operands.first()) {
            (Op::Constant, Some(Operand::LiteralBit32(v))) => Some(*v as u64),
            (Op::Constant, Some(Operand::LiteralBit64(v))) => Some(*v),
            _ => None,
        }
    }
}

impl Reader {
    /// Reports `message` at `inst`, naming its word offset.
    pub fn error(&mut self, listing: &Listing, inst: &Instruction, message: impl Into<String>) {
        let (span, word) = listing.place(inst);
        let message = message.into();
        self.diags.error(
            span,
            format!("{message} (instruction at word offset {word})"),
        );
    }

    /// Reads `module`'s module-level instructions and declares its
    /// functions.
    fn declare<'m>(
        &mut self,
        module: &'m Module,
        listing: Listing,
        spec: &'m SpecValues,
    ) -> ModuleScope<'m> {
        let mut scope = ModuleScope {
            module,
            listing,
            types: HashMap::new(),
            constants: HashMap::new(),
            variables: HashMap::new(),
            functions: HashMap::new(),
            imports: Vec::new(),
            names: HashMap::new(),
            decorations: HashMap::new(),
            opencl_std: None,
            spec,
        };
        for inst in &module.debug_names {
            if let (Op::Name, [Operand::IdRef(id), Operand::LiteralString(name)]) =
                (inst.class.opcode, &inst.operands[..])
            {
                scope.names.insert(*id, name.as_str());
            }
        }
        for inst in &module.annotations {
            if let (Op::Decorate, Some(Operand::IdRef(id))) =
                (inst.class.opcode, inst.operands.first())
            {
                scope.decorations.entry(*id).or_default().push(inst);
            }
        }
        for inst in &module.ext_inst_imports {
            if let Some(Operand::LiteralString(set)) = inst.operands.first() {
                if set == "OpenCL.std" {
                    scope.opencl_std = inst.result_id;
                }
            }
        }
        self.check_capabilities(&scope);
        for inst in &module.types_global_values {
            self.module_instruction(&mut scope, inst);
        }
        for function in &module.functions {
            let Some(def) = &function.def else { continue };
            let (Some(id), Some(Operand::IdRef(fn_type))) = (def.result_id, def.operands.get(1))
            else {
                continue;
            };
            let linkage = scope
                .decoration(id, Decoration::LinkageAttributes)
                .and_then(|ops| match ops {
                    [Operand::LiteralString(name), Operand::LinkageType(kind)] => {
                        Some((name.clone(), *kind))
                    }
                    _ => None,
                });
            if function.blocks.is_empty() {
                match linkage {
                    Some((name, LinkageType::Import)) => scope.imports.push((id, name)),
                    _ => self.error(
                        &scope.listing,
                        def,
                        "a function without a body must be imported",
                    ),
                }
                continue;
            }
            let signature = match scope.types.get(fn_type) {
                Some(IlType::Function { ret, params }) => {
                    let by_value: Vec<bool> = function
                        .parameters
                        .iter()
                        .map(|p| {
                            p.result_id.is_some_and(|p| {
                                scope.has_param_attribute(p, FunctionParameterAttribute::ByVal)
                            })
                        })
                        .collect();
                    let ret = scope.value_type(*ret);
                    let params: Result<Vec<Type>, String> = params
                        .iter()
                        .zip(by_value.iter().chain(std::iter::repeat(&false)))
                        .map(|(&p, &by_value)| {
                            let ty = scope.value_type(p)?;
                            // A by-value aggregate is passed as a pointer
                            // to a copy; the HIR passes the aggregate.
                            Ok(match (by_value, self.program.types.pointee(ty).copied()) {
                                (true, Some(pointee)) => pointee.ty,
                                // A buffer of arrays: a pointer to their
                                // elements (see `Value::ArrayParameter`).
                                (false, Some(pointee)) if is_buffer_of_arrays(&pointee) => {
                                    let element = self.program.types.innermost_element(pointee.ty);
                                    self.program.types.pointer(Pointee {
                                        ty: element,
                                        ..pointee
                                    })
                                }
                                _ => ty,
                            })
                        })
                        .collect();
                    match (ret, params) {
                        (Ok(ret), Ok(params)) => Some((ret, params)),
                        (Err(why), _) | (_, Err(why)) => {
                            self.error(&scope.listing, def, why);
                            None
                        }
                    }
                }
                _ => None,
            };
            let Some((ret, params)) = signature else {
                continue;
            };
            let name = scope.names.get(&id).copied().unwrap_or("");
            let symbol = self.program.names.intern(name);
            let f = hir::Function::declared(symbol, params, ret, Span::default());
            let handle = self.program.functions.append(f, naga::Span::UNDEFINED);
            scope.functions.insert(id, handle);
            match linkage {
                Some((name, LinkageType::Export)) => {
                    if let Some(&(_, false)) = self.exports.get(&name) {
                        self.error(
                            &scope.listing,
                            def,
                            format!("function '{name}' is exported by two modules"),
                        );
                    }
                    self.exports.insert(name, (handle, false));
                }
                Some((name, LinkageType::LinkOnceODR)) => {
                    self.exports.entry(name).or_insert((handle, true));
                }
                _ => {}
            }
        }
        scope
    }

    /// Refuses capabilities the front end has no meaning for.
    fn check_capabilities(&mut self, scope: &ModuleScope) {
        use rspirv::spirv::Capability as C;
        const ACCEPTED: &[C] = &[
            C::Addresses,
            C::Linkage,
            C::Kernel,
            C::Int8,
            C::Int16,
            C::Int64,
            C::Float16,
            C::Float16Buffer,
            C::Float64,
            C::Vector16,
            C::GenericPointer,
            C::Groups,
            C::Int64Atomics,
            C::GroupNonUniform,
            C::GroupNonUniformVote,
            C::GroupNonUniformBallot,
            C::GroupNonUniformArithmetic,
            C::GroupNonUniformShuffle,
            C::GroupNonUniformShuffleRelative,
            C::GroupNonUniformClustered,
            C::GroupNonUniformRotateKHR,
            // Hints with no meaning here.
            C::OptNoneEXT,
            C::ExpectAssumeKHR,
            C::AtomicFloat32AddEXT,
            C::AtomicFloat64AddEXT,
            C::AtomicFloat32MinMaxEXT,
            C::AtomicFloat64MinMaxEXT,
            C::SubgroupDispatch,
        ];
        for inst in &scope.module.capabilities {
            if let Some(Operand::Capability(cap)) = inst.operands.first() {
                if !ACCEPTED.contains(cap) {
                    self.error(
                        &scope.listing,
                        inst,
                        format!("capability {cap:?} is not supported yet"),
                    );
                }
            }
        }
        if let Some(model) = &scope.module.memory_model {
            use rspirv::spirv::AddressingModel as A;
            if let Some(Operand::AddressingModel(addressing)) = model.operands.first() {
                let bits = match addressing {
                    A::Physical32 => 32,
                    A::Physical64 => 64,
                    _ => 0,
                };
                if bits != self.program.types.address_bits() {
                    self.error(
                        &scope.listing,
                        model,
                        format!(
                            "the module's addressing model is {addressing:?}; the device has {}-bit pointers",
                            self.program.types.address_bits()
                        ),
                    );
                }
            }
        }
    }

    /// Reads one instruction of the types, constants and variables
    /// section.
    fn module_instruction<'m>(&mut self, scope: &mut ModuleScope<'m>, inst: &'m Instruction) {
        let Some(id) = inst.result_id else { return };
        let op = inst.class.opcode;
        if op.is_type() || op == Op::TypeForwardPointer {
            let packed = scope.decorated(id, Decoration::CPacked);
            let name = scope
                .names
                .get(&id)
                .map(|n| n.trim_start_matches("struct.").trim_start_matches("union."))
                .unwrap_or("");
            let name = self.program.names.intern(name);
            let known = |t: u32| scope.types.get(&t).cloned();
            let constant_u64 = |c: u32| scope.constant_u64(c);
            let ty = read_type(
                inst,
                &known,
                &constant_u64,
                packed,
                name,
                &mut self.program.types,
            );
            scope.types.insert(id, ty);
            return;
        }
        if op.is_constant() || op == Op::Undef {
            scope.constants.insert(id, inst);
            return;
        }
        if op != Op::Variable {
            return;
        }
        let Some(Operand::StorageClass(class)) = inst.operands.first() else {
            return;
        };
        let pointee = inst
            .result_type
            .and_then(|t| scope.value_type(t).ok())
            .and_then(|t| self.program.types.pointee(t).map(|p| p.ty));
        // A built-in is one by its decoration, whatever its storage class:
        // older generators declared them `UniformConstant`.
        let builtin = match scope.decoration(id, Decoration::BuiltIn) {
            Some([Operand::BuiltIn(b)]) => Some(*b),
            _ => None,
        };
        let variable = match (builtin, class, pointee) {
            (Some(b), ..) => ModuleVariable::Builtin(b),
            (None, StorageClass::Input, _) => {
                self.error(&scope.listing, inst, "an input variable must be a built-in");
                return;
            }
            (None, StorageClass::Workgroup, Some(ty)) => ModuleVariable::Workgroup(ty),
            (None, StorageClass::UniformConstant | StorageClass::CrossWorkgroup, Some(ty)) => {
                let space = address_space(*class).unwrap_or(AddressSpace::Global);
                let name = scope.names.get(&id).copied().unwrap_or("");
                let name = self.program.names.intern(name);
                let init = match inst.operands.get(1) {
                    Some(Operand::IdRef(c)) => {
                        match super::constants::global_initializer(self, scope, *c) {
                            Ok(e) => Some(e),
                            Err(why) => {
                                self.error(&scope.listing, inst, why);
                                None
                            }
                        }
                    }
                    _ => None,
                };
                let global = self.program.globals.append(
                    hir::Global {
                        name,
                        ty,
                        space,
                        init,
                        span: Span::default(),
                    },
                    naga::Span::UNDEFINED,
                );
                ModuleVariable::Global(global)
            }
            _ => {
                self.error(
                    &scope.listing,
                    inst,
                    format!("module variables in {class:?} storage are not supported yet"),
                );
                return;
            }
        };
        scope.variables.insert(id, variable);
    }

    /// Points each imported function at the export of its name.
    fn link_imports(&mut self, scope: &mut ModuleScope) {
        for (id, name) in std::mem::take(&mut scope.imports) {
            match self.exports.get(&name) {
                Some(&(f, _)) => {
                    scope.functions.insert(id, f);
                }
                None => {
                    let def = scope
                        .module
                        .functions
                        .iter()
                        .filter_map(|f| f.def.as_ref())
                        .find(|d| d.result_id == Some(id));
                    if let Some(def) = def {
                        self.error(
                            &scope.listing,
                            def,
                            format!(
                                "undefined function '{name}' (imported, and no module exports it)"
                            ),
                        );
                    }
                }
            }
        }
    }

    /// Reads every function body of `scope`, and makes its entry points
    /// kernels.
    fn define_functions(&mut self, scope: &ModuleScope) {
        for function in &scope.module.functions {
            let Some(id) = function.def.as_ref().and_then(|d| d.result_id) else {
                continue;
            };
            if function.blocks.is_empty() {
                continue;
            }
            let Some(&handle) = scope.functions.get(&id) else {
                continue;
            };
            FunctionReader::new(self, scope, handle).read_function(function);
        }
        for entry in &scope.module.entry_points {
            let (Some(Operand::IdRef(f)), Some(Operand::LiteralString(name))) =
                (entry.operands.get(1), entry.operands.get(2))
            else {
                continue;
            };
            if entry.operands.first()
                != Some(&Operand::ExecutionModel(
                    rspirv::spirv::ExecutionModel::Kernel,
                ))
            {
                self.error(
                    &scope.listing,
                    entry,
                    "only Kernel entry points are supported",
                );
                continue;
            }
            let Some(&handle) = scope.functions.get(f) else {
                continue;
            };
            let info = self.kernel_info(scope, *f, handle);
            let name = self.program.names.intern(name);
            let function = &mut self.program.functions[handle];
            function.name = name;
            function.kernel = Some(info);
        }
    }

    /// What reflection reports of kernel `f`'s arguments, and its
    /// execution modes.
    fn kernel_info(&mut self, scope: &ModuleScope, id: u32, f: FunctionId) -> hir::KernelInfo {
        let mut info = hir::KernelInfo::default();
        let function = &self.program.functions[f];
        let params: Vec<u32> = scope
            .module
            .functions
            .iter()
            .find(|g| g.def.as_ref().and_then(|d| d.result_id) == Some(id))
            .map(|g| g.parameters.iter().filter_map(|p| p.result_id).collect())
            .unwrap_or_default();
        for (&ty, &param) in function.signature.iter().zip(&params) {
            let pointee = self.program.types.pointee(ty).copied();
            let address = match pointee.map(|p| p.space) {
                Some(AddressSpace::Global) => AddressQualifier::Global,
                Some(AddressSpace::Constant) => AddressQualifier::Constant,
                Some(AddressSpace::Local) => AddressQualifier::Local,
                _ => AddressQualifier::Private,
            };
            info.args.push(hir::KernelArgInfo {
                type_name: self.program.display(ty),
                address,
                is_const: scope.has_param_attribute(param, FunctionParameterAttribute::NoWrite)
                    || address == AddressQualifier::Constant,
                is_restrict: scope.has_param_attribute(param, FunctionParameterAttribute::NoAlias),
                is_volatile: scope.decorated(param, Decoration::Volatile),
            });
        }
        for mode in &scope.module.execution_modes {
            let [Operand::IdRef(target), Operand::ExecutionMode(kind), rest @ ..] =
                &mode.operands[..]
            else {
                continue;
            };
            if *target != id {
                continue;
            }
            let literals: Vec<u32> = rest
                .iter()
                .filter_map(|o| match o {
                    Operand::LiteralBit32(v) => Some(*v),
                    _ => None,
                })
                .collect();
            use rspirv::spirv::ExecutionMode as M;
            match (kind, literals.as_slice()) {
                (M::LocalSize, &[x, y, z]) => info.required_work_group_size = Some([x, y, z]),
                (M::SubgroupSize, &[n]) => info.required_sub_group_size = Some(n),
                _ => {}
            }
        }
        info
    }

    /// Recursion has no place in a kernel (OpenCL C 6.9.h): every call is
    /// inlined.
    fn reject_recursion(&mut self, scopes: &[ModuleScope]) {
        let count = self.program.functions.len();
        let mut callees: Vec<Vec<usize>> = vec![Vec::new(); count];
        for (id, f) in self.program.functions.iter() {
            for (_, e) in f.exprs.iter() {
                if let hir::ExprKind::Call(callee, _) = e.kind {
                    callees[id.index()].push(callee.index());
                }
            }
        }
        // Depth-first, colouring: 1 on the path, 2 done.
        let mut state = vec![0u8; count];
        for start in 0..count {
            if state[start] != 0 {
                continue;
            }
            let mut stack = vec![(start, 0usize)];
            state[start] = 1;
            while let Some(&mut (node, ref mut next)) = stack.last_mut() {
                if let Some(&callee) = callees[node].get(*next) {
                    *next += 1;
                    match state[callee] {
                        0 => {
                            state[callee] = 1;
                            stack.push((callee, 0));
                        }
                        1 => {
                            let name = self.program.names[self
                                .program
                                .functions
                                .iter()
                                .nth(callee)
                                .map_or(hir::Symbol::EMPTY, |(_, f)| f.name)]
                            .to_owned();
                            let listing = &scopes[0].listing;
                            let first = scopes[0]
                                .module
                                .functions
                                .first()
                                .and_then(|f| f.def.as_ref());
                            if let Some(def) = first {
                                self.error(listing, def, format!("recursion is not allowed in OpenCL ('{name}' calls itself)"));
                            }
                            return;
                        }
                        _ => {}
                    }
                } else {
                    state[node] = 2;
                    stack.pop();
                }
            }
        }
    }
}
