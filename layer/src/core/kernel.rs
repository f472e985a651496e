//! Kernel objects: one kernel of a built program, its argument values, and
//! the recipe for launching it (pipeline, buffer bindings, push constants).
//!
//! A buffer argument is kept by a weak reference: the spec lets the
//! application release a buffer it has set as an argument, and the buffer
//! is destroyed then (its destructor callbacks run) although the kernel
//! lives on. A launch holds its buffers until it is done.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

use opencl_sys::{
    CL_INVALID_ARG_INDEX, CL_INVALID_ARG_SIZE, CL_INVALID_ARG_VALUE, CL_INVALID_KERNEL,
    CL_INVALID_KERNEL_ARGS, CL_INVALID_KERNEL_DEFINITION, CL_INVALID_KERNEL_NAME,
    CL_INVALID_MEM_OBJECT, CL_INVALID_PROGRAM_EXECUTABLE, CL_MEM_READ_ONLY, CL_OUT_OF_RESOURCES,
};
use translator::reflect::AddressQualifier;
use translator::specialization::format_words;
use translator::{ArgKind, KernelArg, KernelReflection, PushConstantHeader, Specialization};

use crate::core::command::{Recipe, Step};
use crate::core::device::Device;
use crate::core::error::VkResultExt;
use crate::core::event::HostCompletion;
use crate::core::image_args::{self, BoundImage};
use crate::core::loop_cap;
use crate::core::memory::Mem;
use crate::core::ndrange::{self, LaunchLimits, NdRange};
use crate::core::object::{ClObject, Object, ObjectKind};
use crate::core::printf::{printf_buffer, PRINTF_BUFFER_BYTES};
use crate::core::program::{Executable, Program};
use crate::core::residency::Access;
use crate::core::CLResult;
use crate::vulkan::Placement;

/// A value given to `clSetKernelArg`.
#[derive(Clone)]
pub enum ArgValue {
    /// A buffer argument; `None` for a NULL `cl_mem`.
    Buffer(Option<Arc<Object<Mem>>>),
    /// The bytes of a by-value argument.
    Bytes(Vec<u8>),
    /// The size in bytes of a `__local` pointer argument's memory.
    Local(usize),
    /// An image argument.
    Image(Arc<Object<Mem>>),
    /// A sampler argument: its [`translator::image::sampler`] word.
    Sampler(u32),
}

/// An argument as the kernel keeps it.
#[derive(Clone)]
enum SetArg {
    /// A buffer (see the module documentation); `None` for NULL.
    Buffer(Option<Weak<Object<Mem>>>),
    Bytes(Vec<u8>),
    Local(usize),
    /// An image, with its view made when it was set. Like a buffer, the
    /// memory object may be released meanwhile; the view keeps the Vulkan
    /// image alive.
    Image(Weak<Object<Mem>>, BoundImage),
    Sampler(u32),
}

pub struct Kernel {
    program: Arc<Object<Program>>,
    name: String,
    /// For each device the program was built for: its executable and this
    /// kernel's index in it.
    variants: Vec<(Arc<Executable>, usize)>,
    args: Mutex<Vec<Option<SetArg>>>,
}

impl ClObject for Kernel {
    const KIND: ObjectKind = ObjectKind::Kernel;
    const INVALID: opencl_sys::cl_int = CL_INVALID_KERNEL;
}

/// Kernels built for several devices must take the same arguments.
fn same_signature(a: &[KernelArg], b: &[KernelArg]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.type_name == y.type_name
                && x.address == y.address
                && std::mem::discriminant(&x.kind) == std::mem::discriminant(&y.kind)
        })
}

impl Kernel {
    pub fn new(program: &Arc<Object<Program>>, name: &str) -> CLResult<Arc<Object<Kernel>>> {
        let executables = program.executables();
        if executables.is_empty() {
            return Err(CL_INVALID_PROGRAM_EXECUTABLE);
        }
        let found: Vec<Option<usize>> = executables.iter().map(|e| e.kernel_index(name)).collect();
        if found.iter().all(Option::is_none) {
            return Err(CL_INVALID_KERNEL_NAME);
        }
        let mut variants = Vec::with_capacity(executables.len());
        for (executable, index) in executables.into_iter().zip(found) {
            variants.push((executable, index.ok_or(CL_INVALID_KERNEL_DEFINITION)?));
        }
        let first = &variants[0].0.kernels()[variants[0].1].reflection.args;
        if !variants
            .iter()
            .all(|(e, i)| same_signature(first, &e.kernels()[*i].reflection.args))
        {
            return Err(CL_INVALID_KERNEL_DEFINITION);
        }
        let arg_count = first.len();
        program.attach_kernel();
        Ok(Object::new(Kernel {
            program: program.clone(),
            name: name.to_owned(),
            variants,
            args: Mutex::new(vec![None; arg_count]),
        }))
    }

    /// `clCloneKernel`: the same kernel with a copy of the arguments set so
    /// far; later changes to either do not reach the other.
    pub fn duplicate(&self) -> Arc<Object<Kernel>> {
        self.program.attach_kernel();
        Object::new(Kernel {
            program: self.program.clone(),
            name: self.name.clone(),
            variants: self.variants.clone(),
            args: Mutex::new(self.args().clone()),
        })
    }

    pub fn program(&self) -> &Arc<Object<Program>> {
        &self.program
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The reflection of the first device's build; the argument list is
    /// the same on every device.
    pub fn reflection(&self) -> &KernelReflection {
        let (executable, index) = &self.variants[0];
        &executable.kernels()[*index].reflection
    }

    /// Whether the program was built with `-cl-kernel-arg-info`.
    pub fn has_arg_info(&self) -> bool {
        self.variants[0].0.has_kernel_arg_info()
    }

    pub fn arg(&self, index: usize) -> CLResult<&KernelArg> {
        self.reflection()
            .args
            .get(index)
            .ok_or(CL_INVALID_ARG_INDEX)
    }

    fn args(&self) -> MutexGuard<'_, Vec<Option<SetArg>>> {
        self.args.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `clSetKernelArg`, after the C layer has read the value according to
    /// [`Kernel::arg`]'s kind.
    pub fn set_arg(&self, index: usize, value: ArgValue) -> CLResult<()> {
        let arg = self.arg(index)?;
        match (&arg.kind, &value) {
            (ArgKind::Buffer { .. }, ArgValue::Buffer(Some(mem))) => {
                // The spec lists no CL_INVALID_CONTEXT here: a buffer of
                // another context is not a valid memory object for this
                // kernel.
                if !mem.context().is(self.program.context()) {
                    return Err(CL_INVALID_MEM_OBJECT);
                }
            }
            (ArgKind::Buffer { .. }, ArgValue::Buffer(None)) => {}
            (ArgKind::Pod { size, .. }, ArgValue::Bytes(bytes))
                if bytes.len() == *size as usize => {}
            (ArgKind::Local { .. }, ArgValue::Local(size)) if *size > 0 => {}
            (ArgKind::Sampler { .. }, ArgValue::Sampler(_)) => {}
            (
                &ArgKind::Image {
                    dim,
                    depth,
                    access,
                    binding,
                    ..
                },
                ArgValue::Image(mem),
            ) => {
                if !mem.context().is(self.program.context()) {
                    return Err(CL_INVALID_MEM_OBJECT);
                }
                let descriptor = *self
                    .reflection()
                    .images
                    .get(binding as usize)
                    .ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
                // Contexts with images have one device.
                let device = self
                    .program
                    .context()
                    .devices()
                    .first()
                    .cloned()
                    .ok_or(CL_INVALID_MEM_OBJECT)?;
                let bound = image_args::bind(mem, &device, (dim, depth), access, descriptor)?;
                self.args()[index] = Some(SetArg::Image(Arc::downgrade(mem), bound));
                return Ok(());
            }
            _ => return Err(CL_INVALID_ARG_SIZE),
        }
        self.args()[index] = Some(match value {
            ArgValue::Buffer(mem) => SetArg::Buffer(mem.as_ref().map(Arc::downgrade)),
            ArgValue::Bytes(bytes) => SetArg::Bytes(bytes),
            ArgValue::Local(size) => SetArg::Local(size),
            ArgValue::Sampler(word) => SetArg::Sampler(word),
            ArgValue::Image(_) => return Err(CL_INVALID_ARG_VALUE),
        });
        Ok(())
    }

    fn variant_for(&self, device: &Object<Device>) -> CLResult<&(Arc<Executable>, usize)> {
        self.variants
            .iter()
            .find(|(executable, _)| executable.device().is(device))
            .ok_or(CL_INVALID_PROGRAM_EXECUTABLE)
    }

    /// `CL_KERNEL_LOCAL_MEM_SIZE`: the kernel's own `__local` memory (at
    /// the largest work-group it may run with, for the collectives'
    /// scratch) and what the `__local` arguments set so far ask for.
    pub fn local_mem_size(&self, device: &Object<Device>) -> CLResult<u64> {
        let (executable, index) = self.variant_for(device)?;
        let work_items = u32::try_from(self.max_work_group_size(device)).unwrap_or(u32::MAX);
        let own = executable.kernels()[*index].static_local_bytes(work_items);
        // Sizes near SIZE_MAX are accepted by clSetKernelArg; the sum
        // saturates instead of wrapping (and fails the launch).
        let arguments = self
            .args()
            .iter()
            .map(|arg| match arg {
                Some(SetArg::Local(size)) => *size as u64,
                _ => 0,
            })
            .fold(0u64, u64::saturating_add);
        Ok(own.saturating_add(arguments))
    }

    /// `CL_KERNEL_PRIVATE_MEM_SIZE`: what one work-item's variables take
    /// (see [`crate::core::private_memory`]).
    pub fn private_mem_size(&self, device: &Object<Device>) -> CLResult<u64> {
        let (executable, index) = self.variant_for(device)?;
        Ok(executable.private_bytes(*index)?.total)
    }

    /// `CL_KERNEL_WORK_GROUP_SIZE`: the device's limit, or a required
    /// work-group size; a required sub-group size `n` allows at most `n`
    /// times `maxComputeWorkgroupSubgroups` work-items where the pipeline
    /// asks the device for it.
    pub fn max_work_group_size(&self, device: &Device) -> usize {
        let reflection = self.reflection();
        if let Some(required) = reflection.required_work_group_size {
            return required.iter().map(|&n| n as usize).product();
        }
        let limit = device.max_work_group_size();
        match (
            reflection.required_sub_group_size,
            device.info().subgroup_size_control,
        ) {
            (Some(size), Some(control)) => {
                limit.min((size * control.max_workgroup_subgroups) as usize)
            }
            _ => limit,
        }
    }

    /// Prepares a launch on `device`: checks the arguments and the range,
    /// finds or creates the pipeline for the work-group size, and lays out
    /// the bindings and push constants. The completion, when there is one,
    /// prints the kernel's `printf` output, and fails the launch if the
    /// driver cut one of its loops short ([`loop_cap`]).
    pub fn launch_recipe(
        &self,
        device: &Arc<Object<Device>>,
        range: &NdRange,
    ) -> CLResult<(Recipe, Option<HostCompletion>)> {
        let (executable, index) = self.variant_for(device)?;
        let reflection = &executable.kernels()[*index].reflection;
        let args = self.args().clone();
        if args.iter().any(Option::is_none) {
            return Err(CL_INVALID_KERNEL_ARGS);
        }
        let limits = LaunchLimits {
            max_work_group_size: self.max_work_group_size(device),
            max_work_item_sizes: device.max_work_item_sizes(),
            max_work_group_count: device.max_work_group_count(),
        };
        let plan = ndrange::plan(
            range,
            &limits,
            reflection.required_work_group_size,
            reflection.non_uniform_work_groups,
        )?;
        let mut recipe = Recipe::default();
        if plan.is_empty() {
            return Ok((recipe, None));
        }
        // Checked before the pipeline is made, which is where a driver
        // given too much would stall or fail: on the variables it must
        // keep in memory (the others become values).
        if executable.private_bytes(*index)?.addressed > device.max_private_bytes() {
            return Err(CL_OUT_OF_RESOURCES);
        }
        if reflection.launch_block_binding.is_none() {
            device.check_push_constants(reflection.push_constant_size)?;
        }
        // The kernel's own `__local` memory (its variables, the collectives'
        // scratch for this group size) leaves the rest to the arguments.
        let work_items = plan.local_size.iter().product();
        let own = executable.kernels()[*index].static_local_bytes(work_items);
        let room = device
            .local_mem_size()
            .checked_sub(own)
            .ok_or(CL_OUT_OF_RESOURCES)?;
        let local_lengths = local_lengths(reflection, &args, room)?;

        let header_size = PushConstantHeader::SIZE as usize;
        let mut push_constants =
            vec![0u8; (reflection.push_constant_size as usize).max(header_size)];
        push_constants[..header_size].copy_from_slice(&plan.header.to_bytes());
        // Range 0 binds each buffer whole (clamped to the device's storage
        // buffer range, which no allocation exceeds).
        let mut buffers =
            vec![(device.null_buffer()?.clone(), 0, 0); reflection.storage_buffers as usize];
        // The buffer arguments set, by binding, for their allocations below.
        let mut bound = Vec::new();
        let mut images = Vec::with_capacity(reflection.images.len());
        // The images' formats and the samplers are constants of the
        // pipeline (see `translator::specialization`).
        let mut formats = Vec::with_capacity(reflection.images.len());
        let mut samplers = Vec::new();
        for (arg, value) in reflection.args.iter().zip(args) {
            match (&arg.kind, value) {
                (ArgKind::Buffer { binding }, Some(SetArg::Buffer(mem))) => {
                    let slot = buffers
                        .get_mut(*binding as usize)
                        .ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
                    if let Some(mem) = mem {
                        // Released and destroyed since it was set: the
                        // argument has no value any more.
                        let mem = mem.upgrade().ok_or(CL_INVALID_KERNEL_ARGS)?;
                        // A sub-buffer binds its own region, in whole
                        // words: kernels hold `char` and `short` data in
                        // 32-bit words, so a region of an odd size must
                        // cover the word its last bytes share with the
                        // parent's next ones, or stores to them fall out
                        // of the binding (and are dropped). Regions start
                        // word-aligned and the parent's buffer is whole
                        // words, so the word is inside it.
                        let range = if mem.parent().is_some() {
                            (mem.size() as u64).next_multiple_of(4)
                        } else {
                            0
                        };
                        *slot = (mem.buffer_on(device)?, mem.origin() as u64, range);
                        bound.push((*binding, mem.clone()));
                        recipe.uses(mem.clone(), kernel_access(arg, &mem));
                    } else {
                        // A NULL `cl_mem`: the stand-in buffer stays bound,
                        // and the argument's null flag makes the kernel's
                        // pointer compare equal to 0.
                        let flags = reflection
                            .null_buffer_flags
                            .ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
                        let at = flags as usize + (*binding as usize / 32) * 4;
                        let word = push_constants
                            .get_mut(at..at + 4)
                            .ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
                        let bits = u32::from_le_bytes([word[0], word[1], word[2], word[3]])
                            | 1 << (binding % 32);
                        word.copy_from_slice(&bits.to_le_bytes());
                    }
                }
                (ArgKind::Pod { offset, size }, Some(SetArg::Bytes(bytes))) => {
                    let start = *offset as usize;
                    let destination = push_constants
                        .get_mut(start..start + *size as usize)
                        .ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
                    // Another device's build may lay out a size_t differently.
                    if destination.len() != bytes.len() {
                        return Err(CL_INVALID_KERNEL_ARGS);
                    }
                    destination.copy_from_slice(&bytes);
                }
                // Sized into the pipeline by `local_lengths`.
                (ArgKind::Local { .. }, Some(SetArg::Local(_))) => {}
                (
                    ArgKind::Image {
                        binding,
                        info_offset,
                        ..
                    },
                    Some(SetArg::Image(mem, image)),
                ) => {
                    let mem = mem.upgrade().ok_or(CL_INVALID_KERNEL_ARGS)?;
                    recipe.uses(mem, image.access);
                    write_words(&mut push_constants, *info_offset, &image.info.to_bytes())?;
                    images.push((*binding, image.binding));
                    formats.push((*binding, format_words(&image.info)));
                }
                (ArgKind::Sampler { offset }, Some(SetArg::Sampler(word))) => {
                    write_words(&mut push_constants, *offset, &word.to_le_bytes())?;
                    samplers.push(word);
                }
                _ => return Err(CL_INVALID_KERNEL_ARGS),
            }
        }
        images.sort_by_key(|(binding, _)| *binding);
        if images.len() != reflection.images.len()
            || images.iter().zip(0u32..).any(|((b, _), want)| *b != want)
        {
            return Err(CL_INVALID_PROGRAM_EXECUTABLE);
        }
        let images: Vec<_> = images.into_iter().map(|(_, view)| view).collect();
        // Bindings 0..n, each once, as checked for the views just above.
        formats.sort_by_key(|(binding, _)| *binding);
        let specialization = Specialization {
            image_formats: formats.into_iter().map(|(_, words)| words).collect(),
            samplers,
        };
        if let Some(at) = reflection.buffer_aliases {
            write_buffer_aliases(&mut push_constants, at as usize, &bound)?;
        }
        let mut print = None;
        if let Some(printf) = &reflection.printf {
            let (buffer, completion) = printf_buffer(device, printf.formats.clone())?;
            let slot = buffers
                .get_mut(printf.binding as usize)
                .ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
            *slot = (buffer.buffer().clone(), 0, PRINTF_BUFFER_BYTES as u64);
            recipe.hold(buffer);
            print = Some(completion);
        }
        if let Some(binding) = reflection.loop_status {
            let (status, check) = loop_cap::status_check(device, &reflection.name)?;
            let slot = buffers
                .get_mut(binding as usize)
                .ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
            *slot = (status.buffer().clone(), 0, 0);
            recipe.hold(status);
            print = Some(match print {
                // The output is printed, then the launch may still fail.
                Some(print) => Box::new(move || {
                    let printed = print();
                    check()?;
                    printed
                }),
                None => check,
            });
        }
        if let Some(binding) = reflection.program_globals {
            let slot = buffers
                .get_mut(binding as usize)
                .ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
            *slot = (executable.globals().buffer(device)?, 0, 0);
        }
        for dispatch in plan.dispatches() {
            let pipeline = executable.pipeline(
                *index,
                dispatch.local_size,
                plan.local_size,
                &local_lengths,
                &specialization,
            )?;
            let header = PushConstantHeader {
                group_offset: dispatch.first_group,
                ..plan.header
            };
            let mut block = push_constants.clone();
            block[..header_size].copy_from_slice(&header.to_bytes());
            let mut buffers = buffers.clone();
            let push_constants = match reflection.launch_block_binding {
                // Filled now: each launch gets its own copy of the block,
                // recycled once the launch is done with it.
                Some(binding) => {
                    let slot = buffers
                        .get_mut(binding as usize)
                        .ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
                    let storage = device.lease(Placement::Upload, block.len() as u64)?;
                    storage.buffer().write(0, &block).or_out_of_resources()?;
                    *slot = (storage.buffer().clone(), 0, 0);
                    recipe.hold(storage);
                    Vec::new()
                }
                None => block,
            };
            recipe.push(Step::Dispatch {
                pipeline,
                buffers,
                images: images.clone(),
                push_constants,
                group_count: dispatch.group_count,
            });
        }
        Ok((recipe, print))
    }
}

/// Copies `bytes` into the launch block at `offset`.
fn write_words(block: &mut [u8], offset: u32, bytes: &[u8]) -> CLResult<()> {
    let start = offset as usize;
    block
        .get_mut(start..start + bytes.len())
        .ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?
        .copy_from_slice(bytes);
    Ok(())
}

/// How a launch uses a buffer argument: only reads it when the buffer is
/// read-only to kernels or the argument points to constant data.
fn kernel_access(arg: &KernelArg, mem: &Mem) -> Access {
    let read_only = mem.flags() & CL_MEM_READ_ONLY != 0
        || arg.address == AddressQualifier::Constant
        || arg.is_const;
    if read_only {
        Access::Read
    } else {
        Access::Write
    }
}

/// The array length of each `__local` pointer argument, in order, from the
/// sizes given to `clSetKernelArg`; more than the device's local memory in
/// all is `CL_OUT_OF_RESOURCES` (`clEnqueueNDRangeKernel`'s error for it).
fn local_lengths(
    reflection: &translator::KernelReflection,
    args: &[Option<SetArg>],
    limit: u64,
) -> CLResult<Vec<u32>> {
    let mut lengths = Vec::new();
    let mut total = 0u64;
    for (arg, value) in reflection.args.iter().zip(args) {
        if let (
            ArgKind::Local {
                element_size,
                stride,
                ..
            },
            Some(SetArg::Local(size)),
        ) = (&arg.kind, value)
        {
            let length = (*size as u64).div_ceil(u64::from((*element_size).max(1)));
            total = length
                .checked_mul(u64::from(*stride))
                .and_then(|bytes| bytes.checked_add(total))
                .ok_or(CL_OUT_OF_RESOURCES)?;
            lengths.push(u32::try_from(length).map_err(|_| CL_OUT_OF_RESOURCES)?);
        }
    }
    if total > limit {
        return Err(CL_OUT_OF_RESOURCES);
    }
    Ok(lengths)
}

impl Drop for Kernel {
    fn drop(&mut self) {
        self.program.detach_kernel();
    }
}

/// Writes each buffer argument's allocation and origin into the launch
/// block at byte `at` (two `u32`s per binding, see
/// `KernelReflection::buffer_aliases`): the kernel compares and subtracts
/// pointers of different arguments by them, so that two arguments set to
/// one buffer, or to a buffer and a sub-buffer of it, point into one
/// object. An allocation is named by the lowest binding set to it; NULL
/// arguments are left to their null flags.
fn write_buffer_aliases(
    push_constants: &mut [u8],
    at: usize,
    bound: &[(u32, Arc<Object<Mem>>)],
) -> CLResult<()> {
    for (binding, mem) in bound {
        let allocation = bound
            .iter()
            .filter(|(_, other)| other.same_storage(mem))
            .map(|&(b, _)| b)
            .min()
            .unwrap_or(*binding);
        let origin = u32::try_from(mem.origin()).map_err(|_| CL_INVALID_KERNEL_ARGS)?;
        let start = at + *binding as usize * 8;
        let words = push_constants
            .get_mut(start..start + 8)
            .ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
        words[..4].copy_from_slice(&allocation.to_le_bytes());
        words[4..].copy_from_slice(&origin.to_le_bytes());
    }
    Ok(())
}
