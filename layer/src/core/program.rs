//! Programs: where they came from (OpenCL C source, SPIR-V, binaries, a
//! link), the state of each device's build (status, options, log, binary
//! type, the translation unit or SPIR-V behind it), and the built kernels
//! with their compute pipelines, cached per kernel, work-group size and
//! the formats and samplers of the images bound, all of which are
//! compiled into the SPIR-V.
//!
//! Builds run synchronously inside `clBuildProgram` (and `clCompileProgram`,
//! `clLinkProgram`, see [`crate::core::program_link`]), also when the
//! application passes a callback (the spec allows either).

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use opencl_sys::{
    cl_build_status, cl_int, cl_program_binary_type, CL_BUILD_ERROR, CL_BUILD_IN_PROGRESS,
    CL_BUILD_NONE, CL_BUILD_PROGRAM_FAILURE, CL_BUILD_SUCCESS, CL_INVALID_BINARY,
    CL_INVALID_BUILD_OPTIONS, CL_INVALID_DEVICE, CL_INVALID_OPERATION, CL_INVALID_PROGRAM,
    CL_INVALID_PROGRAM_EXECUTABLE, CL_OUT_OF_RESOURCES, CL_PROGRAM_BINARY_TYPE_NONE, CL_SUCCESS,
};
use translator::{BuildError, Specialization};

use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::object::{ClObject, Object, ObjectKind};
use crate::core::private_memory;
use crate::core::program_binary::{
    BinaryKind, BinaryUnit, DeviceIdentity, KernelEntry, ProgramBinary,
};
use crate::core::program_globals::GlobalsStorage;
use crate::core::program_il::{IlPart, IlProgram, IlUnit};
use crate::core::CLResult;
use crate::vulkan::ComputePipeline;

/// The option that makes `clGetKernelArgInfo` available.
const KERNEL_ARG_INFO_OPTION: &str = "-cl-kernel-arg-info";

/// Pipelines by kernel index, work-group size, enqueued work-group size,
/// `__local` argument lengths and the images' formats and samplers: each
/// combination is its own SPIR-V.
type PipelineCache = HashMap<PipelineKey, Arc<ComputePipeline>>;

#[derive(Clone, PartialEq, Eq, Hash)]
struct PipelineKey {
    index: usize,
    local_size: [u32; 3],
    enqueued: [u32; 3],
    local_lengths: Vec<u32>,
    specialization: Specialization,
}

/// A program built for one device.
pub struct Executable {
    device: Arc<Object<Device>>,
    translated: translator::Program,
    kernel_arg_info: bool,
    pipelines: Mutex<PipelineCache>,
    /// The program-scope `__global` variables of this build.
    globals: GlobalsStorage,
    /// Each kernel's private memory per work-item, found on first need.
    private_bytes: Vec<OnceLock<private_memory::Private>>,
}

impl Executable {
    pub fn device(&self) -> &Arc<Object<Device>> {
        &self.device
    }

    pub fn kernels(&self) -> &[translator::Kernel] {
        &self.translated.kernels
    }

    /// The storage of the program-scope `__global` variables.
    pub fn globals(&self) -> &GlobalsStorage {
        &self.globals
    }

    pub fn kernel_index(&self, name: &str) -> Option<usize> {
        self.kernels()
            .iter()
            .position(|k| k.reflection.name == name)
    }

    /// The private memory one work-item of kernel `index` uses (see
    /// [`crate::core::private_memory`]).
    pub fn private_bytes(&self, index: usize) -> CLResult<private_memory::Private> {
        let kernel = self
            .kernels()
            .get(index)
            .ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
        if let Some(known) = self.private_bytes.get(index).and_then(OnceLock::get) {
            return Ok(*known);
        }
        // Any launch configuration's module has the same variables.
        let local_args = kernel
            .reflection
            .args
            .iter()
            .filter(|arg| matches!(arg.kind, translator::ArgKind::Local { .. }))
            .count();
        let spirv = kernel
            .spirv([1, 1, 1], &vec![1; local_args])
            .map_err(|_| CL_OUT_OF_RESOURCES)?;
        let bytes = private_memory::private_bytes(&spirv);
        if let Some(slot) = self.private_bytes.get(index) {
            let _ = slot.set(bytes);
        }
        Ok(bytes)
    }

    /// Whether the build options asked for `clGetKernelArgInfo` support.
    pub fn has_kernel_arg_info(&self) -> bool {
        self.kernel_arg_info
    }

    /// The pipeline of kernel `index` for groups of `local_size` in a launch
    /// enqueued with groups of `enqueued` (larger only in the last groups of
    /// a non-uniform NDRange), with `__local` argument array lengths
    /// `local_lengths`, for the image formats and samplers
    /// `specialization`; created on first use. Creation happens under the
    /// cache lock so that concurrent first launches do not compile the
    /// same pipeline twice.
    pub fn pipeline(
        &self,
        index: usize,
        local_size: [u32; 3],
        enqueued: [u32; 3],
        local_lengths: &[u32],
        specialization: &Specialization,
    ) -> CLResult<Arc<ComputePipeline>> {
        let mut pipelines = self
            .pipelines
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let key = PipelineKey {
            index,
            local_size,
            enqueued,
            local_lengths: local_lengths.to_vec(),
            specialization: specialization.clone(),
        };
        if let Some(pipeline) = pipelines.get(&key) {
            return Ok(pipeline.clone());
        }
        let kernel = self
            .kernels()
            .get(index)
            .ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
        // A SPIR-V writer error is a compiler bug; the device cannot run
        // the kernel, which OpenCL can only call a lack of resources.
        let spirv = kernel
            .spirv_specialized(local_size, enqueued, local_lengths, specialization)
            .map_err(|_| CL_OUT_OF_RESOURCES)?;
        let reflection = &kernel.reflection;
        let pipeline = self.device.kernel_pipeline(&spirv, reflection)?;
        pipelines.insert(key, pipeline.clone());
        Ok(pipeline)
    }
}

/// The state of the build for one device.
pub struct DeviceBuild {
    pub status: cl_build_status,
    pub options: String,
    pub log: String,
    /// What the device's binary holds; `None` is `CL_PROGRAM_BINARY_TYPE_NONE`.
    pub kind: Option<BinaryKind>,
    /// What the build came from: kept for compiled objects, libraries,
    /// links, loaded binaries and builds from SPIR-V; made on demand for
    /// `CL_PROGRAM_BINARIES` of an executable built from source.
    pub unit: Option<Unit>,
    /// A loaded binary's kernel table, which its translation must match.
    pub binary_kernels: Option<Vec<KernelEntry>>,
    pub executable: Option<Arc<Executable>>,
}

impl DeviceBuild {
    fn none() -> Self {
        DeviceBuild {
            status: CL_BUILD_NONE,
            options: String::new(),
            log: String::new(),
            kind: None,
            unit: None,
            binary_kernels: None,
            executable: None,
        }
    }

    pub(crate) fn in_progress(options: &str) -> Self {
        DeviceBuild {
            status: CL_BUILD_IN_PROGRESS,
            options: options.to_owned(),
            ..DeviceBuild::none()
        }
    }

    pub(crate) fn failed(options: &str, log: String) -> Self {
        DeviceBuild {
            status: CL_BUILD_ERROR,
            options: options.to_owned(),
            log,
            ..DeviceBuild::none()
        }
    }

    pub fn binary_type(&self) -> cl_program_binary_type {
        self.kind
            .map_or(CL_PROGRAM_BINARY_TYPE_NONE, BinaryKind::cl_value)
    }
}

/// What a build is made from, and what a binary saves.
#[derive(Clone, Debug)]
pub enum Unit {
    /// OpenCL C (or C++ for OpenCL) as [`translator::compile_unit`] leaves
    /// it: preprocessed and checked, or several such joined by a link.
    Source(Arc<str>),
    /// SPIR-V modules with their specialization constant values.
    Il(IlUnit),
}

/// How a program was created; it decides what `clBuildProgram` and
/// `clCompileProgram` accept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Source,
    Il,
    Binary,
    Link,
}

pub struct Program {
    context: Arc<Object<Context>>,
    devices: Vec<Arc<Object<Device>>>,
    origin: Origin,
    /// Empty unless created from source.
    source: String,
    /// The module and its specialization constants when created from
    /// SPIR-V (`Origin::Il`), else `None`.
    il: Option<IlProgram>,
    /// Parallel to `devices`.
    builds: Mutex<Vec<DeviceBuild>>,
    /// Live kernel objects; a program with kernels cannot be rebuilt.
    attached_kernels: AtomicUsize,
}

impl ClObject for Program {
    const KIND: ObjectKind = ObjectKind::Program;
    const INVALID: opencl_sys::cl_int = CL_INVALID_PROGRAM;
}

/// Why one device's build failed; each entry point maps it to its own
/// error code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BuildFailure {
    Options,
    Compile,
}

impl Program {
    pub fn from_source(context: &Arc<Object<Context>>, source: String) -> Arc<Object<Program>> {
        let devices = context.devices().to_vec();
        let builds = devices.iter().map(|_| DeviceBuild::none()).collect();
        Self::new(context, devices, Origin::Source, source, builds)
    }

    /// `clCreateProgramWithIL`: `CL_INVALID_VALUE` for bytes that are not
    /// a SPIR-V module the translator reads.
    pub fn from_il(context: &Arc<Object<Context>>, bytes: &[u8]) -> CLResult<Arc<Object<Program>>> {
        let il = IlProgram::parse(bytes)?;
        let devices = context.devices().to_vec();
        let builds = devices.iter().map(|_| DeviceBuild::none()).collect();
        Ok(Object::new(Program {
            il: Some(il),
            ..Self::value(context, devices, Origin::Il, String::new(), builds)
        }))
    }

    pub(crate) fn new(
        context: &Arc<Object<Context>>,
        devices: Vec<Arc<Object<Device>>>,
        origin: Origin,
        source: String,
        builds: Vec<DeviceBuild>,
    ) -> Arc<Object<Program>> {
        Object::new(Self::value(context, devices, origin, source, builds))
    }

    fn value(
        context: &Arc<Object<Context>>,
        devices: Vec<Arc<Object<Device>>>,
        origin: Origin,
        source: String,
        builds: Vec<DeviceBuild>,
    ) -> Program {
        Program {
            context: context.clone(),
            devices,
            origin,
            source,
            il: None,
            builds: Mutex::new(builds),
            attached_kernels: AtomicUsize::new(0),
        }
    }

    /// `clCreateProgramWithBinary`: one binary per device. The status of
    /// each comes back in device order; the program exists only when all
    /// are `CL_SUCCESS`.
    pub fn from_binaries(
        context: &Arc<Object<Context>>,
        devices: Vec<Arc<Object<Device>>>,
        binaries: &[&[u8]],
    ) -> (Vec<cl_int>, CLResult<Arc<Object<Program>>>) {
        let mut statuses = Vec::with_capacity(devices.len());
        let mut builds = Vec::with_capacity(devices.len());
        for (device, bytes) in devices.iter().zip(binaries) {
            let identity = DeviceIdentity::of(device.info());
            let decoded = ProgramBinary::decode(bytes, &identity)
                .ok()
                .and_then(|binary| {
                    let ProgramBinary {
                        kind,
                        options,
                        unit,
                        kernels,
                        ..
                    } = binary;
                    Some(DeviceBuild {
                        options,
                        kind: Some(kind),
                        unit: Some(unit_of(unit)?),
                        binary_kernels: Some(kernels),
                        ..DeviceBuild::none()
                    })
                });
            match decoded {
                Some(build) => {
                    statuses.push(CL_SUCCESS);
                    builds.push(build);
                }
                None => statuses.push(CL_INVALID_BINARY),
            }
        }
        if statuses.iter().any(|&s| s != CL_SUCCESS) {
            return (statuses, Err(CL_INVALID_BINARY));
        }
        let program = Self::new(context, devices, Origin::Binary, String::new(), builds);
        (statuses, Ok(program))
    }

    pub fn context(&self) -> &Arc<Object<Context>> {
        &self.context
    }

    pub fn devices(&self) -> &[Arc<Object<Device>>] {
        &self.devices
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    pub fn origin(&self) -> Origin {
        self.origin
    }

    /// The SPIR-V of a program created from IL; `None` for the others.
    pub fn il(&self) -> Option<&IlProgram> {
        self.il.as_ref()
    }

    pub(crate) fn builds(&self) -> MutexGuard<'_, Vec<DeviceBuild>> {
        self.builds.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn device_index(&self, device: &Object<Device>) -> CLResult<usize> {
        self.devices
            .iter()
            .position(|d| d.is(device))
            .ok_or(CL_INVALID_DEVICE)
    }

    /// Reads one device's build state.
    pub fn with_build<R>(
        &self,
        device: &Object<Device>,
        read: impl FnOnce(&DeviceBuild) -> R,
    ) -> CLResult<R> {
        let index = self.device_index(device)?;
        Ok(read(&self.builds()[index]))
    }

    /// Successful builds, in device order.
    pub fn executables(&self) -> Vec<Arc<Executable>> {
        self.builds()
            .iter()
            .filter_map(|build| build.executable.clone())
            .collect()
    }

    /// Any successful build; `CL_INVALID_PROGRAM_EXECUTABLE` if none.
    pub fn any_executable(&self) -> CLResult<Arc<Executable>> {
        self.executables()
            .into_iter()
            .next()
            .ok_or(CL_INVALID_PROGRAM_EXECUTABLE)
    }

    pub fn attach_kernel(&self) {
        self.attached_kernels.fetch_add(1, Ordering::AcqRel);
    }

    pub fn detach_kernel(&self) {
        self.attached_kernels.fetch_sub(1, Ordering::AcqRel);
    }

    /// Indices of `devices` (all of the program's when `None`).
    pub(crate) fn target_indices(
        &self,
        devices: Option<&[Arc<Object<Device>>]>,
    ) -> CLResult<Vec<usize>> {
        match devices {
            Some(list) => list.iter().map(|d| self.device_index(d)).collect(),
            None => Ok((0..self.devices.len()).collect()),
        }
    }

    /// Runs `run` for each device in `targets` and stores what it returns,
    /// after checking that no kernel is attached and no build is running.
    /// Returns the first failure.
    pub(crate) fn run_builds(
        &self,
        targets: &[usize],
        options: &str,
        run: impl Fn(usize, &Arc<Object<Device>>) -> (DeviceBuild, Option<BuildFailure>),
    ) -> CLResult<Option<BuildFailure>> {
        {
            let mut builds = self.builds();
            if self.attached_kernels.load(Ordering::Acquire) > 0
                || builds.iter().any(|b| b.status == CL_BUILD_IN_PROGRESS)
            {
                return Err(CL_INVALID_OPERATION);
            }
            for &index in targets {
                let previous = std::mem::replace(&mut builds[index], DeviceBuild::none());
                builds[index] = DeviceBuild {
                    // A binary's unit stays: clBuildProgram builds from it.
                    unit: previous.unit,
                    binary_kernels: previous.binary_kernels,
                    ..DeviceBuild::in_progress(options)
                };
            }
        }
        // Compiling can take long; the lock is not held so that status
        // queries from other threads see CL_BUILD_IN_PROGRESS.
        let mut failure = None;
        for &index in targets {
            let (build, failed) = run(index, &self.devices[index]);
            failure = failure.or(failed);
            self.builds()[index] = build;
        }
        Ok(failure)
    }

    /// `clBuildProgram` for `devices` (all of the program's when `None`).
    pub fn build(&self, devices: Option<&[Arc<Object<Device>>]>, options: &str) -> CLResult<()> {
        let targets = self.target_indices(devices)?;
        if self.origin == Origin::Link {
            return Err(CL_INVALID_OPERATION);
        }
        // A binary's unit and options, read before the builds start.
        let loaded: Vec<Option<LoadedBinary>> = {
            let builds = self.builds();
            builds
                .iter()
                .map(|b| {
                    Some(LoadedBinary {
                        kind: b.kind?,
                        unit: b.unit.clone()?,
                        options: b.options.clone(),
                        kernels: b.binary_kernels.clone()?,
                    })
                })
                .collect()
        };
        if self.origin == Origin::Binary && targets.iter().any(|&i| loaded[i].is_none()) {
            return Err(CL_INVALID_BINARY);
        }
        let failure = self.run_builds(&targets, options, |index, device| {
            match (&self.origin, &loaded[index], &self.il) {
                (Origin::Binary, Some(binary), _) => {
                    let linked = match &binary.unit {
                        // A binary's unit may be several linked ones: it
                        // is built under the linking rules.
                        Unit::Source(text) => catch_unwind(AssertUnwindSafe(|| {
                            device
                                .translator()
                                .link(&[text], &binary.options, device.build_caps())
                        })),
                        Unit::Il(il) => il.build(device, &binary.options),
                    };
                    let (mut build, mut failed) = executable_from(device, &binary.options, linked);
                    let translated = build
                        .executable
                        .as_ref()
                        .map(|e| kernel_entries(e.kernels()));
                    // A compiled object or library has no kernel table to
                    // compare with.
                    let matches =
                        binary.kernels.is_empty() || translated.as_ref() == Some(&binary.kernels);
                    if failed.is_none() && !matches {
                        build = DeviceBuild::failed(
                            &binary.options,
                            "error: the binary's kernels do not match its translation\n".to_owned(),
                        );
                        failed = Some(BuildFailure::Compile);
                    }
                    // What was loaded stays: for the binary queries, and for
                    // building again.
                    build.unit = Some(binary.unit.clone());
                    build.binary_kernels = Some(binary.kernels.clone());
                    build.kind = build.kind.or(Some(binary.kind));
                    (build, failed)
                }
                (_, _, Some(il)) => build_il_executable(device, il.unit(), options),
                _ => build_executable(device, &self.source, options),
            }
        })?;
        match failure {
            None => Ok(()),
            Some(BuildFailure::Options) => Err(CL_INVALID_BUILD_OPTIONS),
            Some(BuildFailure::Compile) => Err(CL_BUILD_PROGRAM_FAILURE),
        }
    }

    /// The binary of device `index` in the format of
    /// [`crate::core::program_binary`]; empty when that device has nothing
    /// built. An executable built from source gets its unit made here, once.
    pub fn binary(&self, index: usize) -> Vec<u8> {
        let (kind, options, unit, executable) = {
            let builds = self.builds();
            let Some(build) = builds.get(index) else {
                return Vec::new();
            };
            let Some(kind) = build.kind else {
                return Vec::new();
            };
            (
                kind,
                build.options.clone(),
                build.unit.clone(),
                build.executable.clone(),
            )
        };
        let device = &self.devices[index];
        let unit = match unit {
            Some(unit) => unit,
            // Builds from SPIR-V keep their unit; without one, nothing
            // was built from it.
            None if self.origin != Origin::Source => return Vec::new(),
            None => {
                let compiled = catch_unwind(AssertUnwindSafe(|| {
                    device.translator().compile_unit(
                        &self.source,
                        &options,
                        device.build_caps(),
                        &[],
                    )
                }));
                // The source built with these options, so it compiles
                // again; if it somehow does not, there is no binary.
                let Ok(Ok(compiled)) = compiled else {
                    return Vec::new();
                };
                let unit = Unit::Source(compiled.text.into());
                if let Some(build) = self.builds().get_mut(index) {
                    build.unit = Some(unit.clone());
                }
                unit
            }
        };
        let kernels = executable.map_or_else(Vec::new, |e| kernel_entries(e.kernels()));
        ProgramBinary {
            device: DeviceIdentity::of(device.info()),
            kind,
            options,
            unit: match unit {
                Unit::Source(text) => BinaryUnit::Source(text.to_string()),
                Unit::Il(il) => BinaryUnit::Il(
                    il.parts
                        .iter()
                        .map(|part| (part.module.words().to_vec(), part.spec.clone()))
                        .collect(),
                ),
            },
            kernels,
        }
        .encode()
    }
}

/// A decoded binary's unit; `None` when its SPIR-V does not read (the
/// checksum held, so only another translator could have written it, and
/// the version check refuses those first).
fn unit_of(unit: BinaryUnit) -> Option<Unit> {
    Some(match unit {
        BinaryUnit::Source(text) => Unit::Source(text.into()),
        BinaryUnit::Il(modules) => {
            let mut parts = Vec::with_capacity(modules.len());
            for (words, spec) in modules {
                let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                let module = translator::il::IlModule::parse(&bytes).ok()?;
                parts.push(IlPart {
                    module: Arc::new(module),
                    spec,
                });
            }
            Unit::Il(IlUnit { parts })
        }
    })
}

/// The kernel table a binary records.
fn kernel_entries(kernels: &[translator::Kernel]) -> Vec<KernelEntry> {
    kernels
        .iter()
        .map(|k| KernelEntry {
            name: k.reflection.name.clone(),
            arg_count: k.reflection.args.len() as u32,
        })
        .collect()
}

/// What `clBuildProgram` builds a binary program from.
struct LoadedBinary {
    kind: BinaryKind,
    unit: Unit,
    options: String,
    kernels: Vec<KernelEntry>,
}

/// Translates `source` into an executable for `device`. Panics in the
/// translator become a build error, not a crash across the C ABI.
fn build_executable(
    device: &Arc<Object<Device>>,
    source: &str,
    options: &str,
) -> (DeviceBuild, Option<BuildFailure>) {
    let compiled = catch_unwind(AssertUnwindSafe(|| {
        device
            .translator()
            .build(source, options, device.build_caps())
    }));
    executable_from(device, options, compiled)
}

/// Builds the SPIR-V `unit` into an executable for `device`; the unit
/// stays with the build, for `CL_PROGRAM_BINARIES`.
pub(crate) fn build_il_executable(
    device: &Arc<Object<Device>>,
    unit: IlUnit,
    options: &str,
) -> (DeviceBuild, Option<BuildFailure>) {
    let compiled = unit.build(device, options);
    let (mut build, failed) = executable_from(device, options, compiled);
    if failed.is_none() {
        build.unit = Some(Unit::Il(unit));
    }
    // Kernel argument information comes only from source built with
    // -cl-kernel-arg-info (OpenCL 3.0, clGetKernelArgInfo): a module's
    // is CL_KERNEL_ARG_INFO_NOT_AVAILABLE.
    if let Some(executable) = build.executable.as_mut().and_then(Arc::get_mut) {
        executable.kernel_arg_info = false;
    }
    (build, failed)
}

/// The device build for what the translator returned (or its panic).
pub(crate) fn executable_from(
    device: &Arc<Object<Device>>,
    options: &str,
    compiled: std::thread::Result<Result<translator::Program, BuildError>>,
) -> (DeviceBuild, Option<BuildFailure>) {
    match compiled {
        Ok(Ok(translated)) => {
            let log = translated.log.clone();
            let globals = GlobalsStorage::new(translated.globals.clone());
            let kernel_count = translated.kernels.len();
            let executable = Executable {
                globals,
                device: device.clone(),
                translated,
                kernel_arg_info: options
                    .split_whitespace()
                    .any(|option| option == KERNEL_ARG_INFO_OPTION),
                pipelines: Mutex::new(HashMap::new()),
                private_bytes: (0..kernel_count).map(|_| OnceLock::new()).collect(),
            };
            let build = DeviceBuild {
                status: CL_BUILD_SUCCESS,
                options: options.to_owned(),
                log,
                kind: Some(BinaryKind::Executable),
                unit: None,
                binary_kernels: None,
                executable: Some(Arc::new(executable)),
            };
            (build, None)
        }
        Ok(Err(error)) => translator_failure(options, error),
        Err(_) => crashed(options),
    }
}

/// The failed build for a translator error.
pub(crate) fn translator_failure(
    options: &str,
    error: BuildError,
) -> (DeviceBuild, Option<BuildFailure>) {
    match error {
        BuildError::InvalidOptions(error) => (
            DeviceBuild::failed(options, format!("invalid build options: {error}\n")),
            Some(BuildFailure::Options),
        ),
        BuildError::Compile { log } => (
            DeviceBuild::failed(options, log),
            Some(BuildFailure::Compile),
        ),
    }
}

/// The failed build when the translator panicked.
pub(crate) fn crashed(options: &str) -> (DeviceBuild, Option<BuildFailure>) {
    (
        DeviceBuild::failed(
            options,
            "internal compiler error: the compiler crashed; please report this program\n"
                .to_owned(),
        ),
        Some(BuildFailure::Compile),
    )
}
