//! Programs: OpenCL C source, its build for each device (status, options,
//! log), and the built kernels with their compute pipelines, cached per
//! kernel and work-group size because the work-group size is compiled into
//! the SPIR-V.
//!
//! Builds run synchronously inside `clBuildProgram`, also when the
//! application passes a callback (the spec allows either).

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use opencl_sys::{
    cl_build_status, CL_BUILD_ERROR, CL_BUILD_IN_PROGRESS, CL_BUILD_NONE, CL_BUILD_PROGRAM_FAILURE,
    CL_BUILD_SUCCESS, CL_INVALID_BUILD_OPTIONS, CL_INVALID_DEVICE, CL_INVALID_OPERATION,
    CL_INVALID_PROGRAM, CL_INVALID_PROGRAM_EXECUTABLE, CL_OUT_OF_RESOURCES,
};
use translator::BuildError;

use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::error::VkResultExt;
use crate::core::object::{ClObject, Object, ObjectKind};
use crate::core::CLResult;
use crate::vulkan::ComputePipeline;

/// The option that makes `clGetKernelArgInfo` available.
const KERNEL_ARG_INFO_OPTION: &str = "-cl-kernel-arg-info";

/// Pipelines by kernel index and work-group size.
/// Pipelines by kernel index, work-group size and `__local` argument
/// lengths: each combination is its own SPIR-V.
type PipelineCache = HashMap<(usize, [u32; 3], Vec<u32>), Arc<ComputePipeline>>;

/// A program built for one device.
pub struct Executable {
    device: Arc<Object<Device>>,
    translated: translator::Program,
    kernel_arg_info: bool,
    pipelines: Mutex<PipelineCache>,
}

impl Executable {
    pub fn device(&self) -> &Arc<Object<Device>> {
        &self.device
    }

    pub fn kernels(&self) -> &[translator::Kernel] {
        &self.translated.kernels
    }

    pub fn kernel_index(&self, name: &str) -> Option<usize> {
        self.kernels()
            .iter()
            .position(|k| k.reflection.name == name)
    }

    /// Whether the build options asked for `clGetKernelArgInfo` support.
    pub fn has_kernel_arg_info(&self) -> bool {
        self.kernel_arg_info
    }

    /// The pipeline for kernel `index` with work-group size `local_size`
    /// and `__local` argument array lengths `local_lengths`, created on
    /// first use. Creation happens under the cache lock so that concurrent
    /// first launches do not compile the same pipeline twice.
    pub fn pipeline(
        &self,
        index: usize,
        local_size: [u32; 3],
        local_lengths: &[u32],
    ) -> CLResult<Arc<ComputePipeline>> {
        let mut pipelines = self
            .pipelines
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let key = (index, local_size, local_lengths.to_vec());
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
            .spirv(local_size, local_lengths)
            .map_err(|_| CL_OUT_OF_RESOURCES)?;
        let reflection = &kernel.reflection;
        let pipeline = self
            .device
            .vk()?
            .create_compute_pipeline(
                &spirv,
                &reflection.name,
                reflection.storage_buffers,
                reflection.pipeline_push_constant_size(),
            )
            .or_out_of_resources()?;
        pipelines.insert(key, pipeline.clone());
        Ok(pipeline)
    }
}

/// The state of the build for one device.
pub struct DeviceBuild {
    pub status: cl_build_status,
    pub options: String,
    pub log: String,
    pub executable: Option<Arc<Executable>>,
}

impl DeviceBuild {
    fn none() -> Self {
        DeviceBuild {
            status: CL_BUILD_NONE,
            options: String::new(),
            log: String::new(),
            executable: None,
        }
    }
}

pub struct Program {
    context: Arc<Object<Context>>,
    devices: Vec<Arc<Object<Device>>>,
    source: String,
    /// Parallel to `devices`.
    builds: Mutex<Vec<DeviceBuild>>,
    /// Live kernel objects; a program with kernels cannot be rebuilt.
    attached_kernels: AtomicUsize,
}

impl ClObject for Program {
    const KIND: ObjectKind = ObjectKind::Program;
    const INVALID: opencl_sys::cl_int = CL_INVALID_PROGRAM;
}

/// Why one device's build failed, in `clBuildProgram`'s terms.
enum BuildFailure {
    Options,
    Compile,
}

impl Program {
    pub fn from_source(context: &Arc<Object<Context>>, source: String) -> Arc<Object<Program>> {
        let devices = context.devices().to_vec();
        let builds = devices.iter().map(|_| DeviceBuild::none()).collect();
        Object::new(Program {
            context: context.clone(),
            devices,
            source,
            builds: Mutex::new(builds),
            attached_kernels: AtomicUsize::new(0),
        })
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

    fn builds(&self) -> MutexGuard<'_, Vec<DeviceBuild>> {
        self.builds.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn device_index(&self, device: &Object<Device>) -> CLResult<usize> {
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

    /// `clBuildProgram` for `devices` (all of the program's when `None`).
    pub fn build(&self, devices: Option<&[Arc<Object<Device>>]>, options: &str) -> CLResult<()> {
        let targets: Vec<usize> = match devices {
            Some(list) => list
                .iter()
                .map(|d| self.device_index(d))
                .collect::<CLResult<_>>()?,
            None => (0..self.devices.len()).collect(),
        };
        {
            let mut builds = self.builds();
            if self.attached_kernels.load(Ordering::Acquire) > 0
                || builds.iter().any(|b| b.status == CL_BUILD_IN_PROGRESS)
            {
                return Err(CL_INVALID_OPERATION);
            }
            for &index in &targets {
                builds[index] = DeviceBuild {
                    status: CL_BUILD_IN_PROGRESS,
                    options: options.to_owned(),
                    log: String::new(),
                    executable: None,
                };
            }
        }
        // Compiling can take long; the lock is not held so that status
        // queries from other threads see CL_BUILD_IN_PROGRESS.
        let mut failure = None;
        for &index in &targets {
            let device = &self.devices[index];
            let (build, failed) = self.build_for(device, options);
            failure = failure.or(failed);
            self.builds()[index] = build;
        }
        match failure {
            None => Ok(()),
            Some(BuildFailure::Options) => Err(CL_INVALID_BUILD_OPTIONS),
            Some(BuildFailure::Compile) => Err(CL_BUILD_PROGRAM_FAILURE),
        }
    }

    fn build_for(
        &self,
        device: &Arc<Object<Device>>,
        options: &str,
    ) -> (DeviceBuild, Option<BuildFailure>) {
        let compiled = catch_unwind(AssertUnwindSafe(|| {
            translator::build(&self.source, options, device.caps())
        }));
        let failed = |log: String, failure| {
            let build = DeviceBuild {
                status: CL_BUILD_ERROR,
                options: options.to_owned(),
                log,
                executable: None,
            };
            (build, Some(failure))
        };
        match compiled {
            Ok(Ok(translated)) => {
                let log = translated.log.clone();
                let executable = Executable {
                    device: device.clone(),
                    translated,
                    kernel_arg_info: options
                        .split_whitespace()
                        .any(|option| option == KERNEL_ARG_INFO_OPTION),
                    pipelines: Mutex::new(HashMap::new()),
                };
                let build = DeviceBuild {
                    status: CL_BUILD_SUCCESS,
                    options: options.to_owned(),
                    log,
                    executable: Some(Arc::new(executable)),
                };
                (build, None)
            }
            Ok(Err(BuildError::InvalidOptions(error))) => failed(
                format!("invalid build options: {error}\n"),
                BuildFailure::Options,
            ),
            Ok(Err(BuildError::Compile { log })) => failed(log, BuildFailure::Compile),
            Err(_) => failed(
                "internal compiler error: the compiler crashed; please report this program\n"
                    .to_owned(),
                BuildFailure::Compile,
            ),
        }
    }
}
