//! Kernel entry points: creation (by name or all of a program),
//! `clSetKernelArg`, the kernel, work-group and argument info queries,
//! retain/release.

use std::ffi::{c_char, c_void};

use opencl_sys::{
    cl_bitfield, cl_device_id, cl_int, cl_kernel, cl_kernel_arg_access_qualifier,
    cl_kernel_arg_address_qualifier, cl_kernel_arg_info, cl_kernel_info, cl_kernel_work_group_info,
    cl_mem, cl_program, cl_sampler, cl_uint, cl_ulong, CL_INVALID_ARG_SIZE, CL_INVALID_ARG_VALUE,
    CL_INVALID_DEVICE, CL_INVALID_MEM_OBJECT, CL_INVALID_SAMPLER, CL_INVALID_VALUE,
    CL_KERNEL_ARG_ACCESS_NONE, CL_KERNEL_ARG_ACCESS_QUALIFIER, CL_KERNEL_ARG_ACCESS_READ_ONLY,
    CL_KERNEL_ARG_ACCESS_READ_WRITE, CL_KERNEL_ARG_ACCESS_WRITE_ONLY,
    CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_ADDRESS_LOCAL,
    CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
    CL_KERNEL_ARG_INFO_NOT_AVAILABLE, CL_KERNEL_ARG_NAME, CL_KERNEL_ARG_TYPE_CONST,
    CL_KERNEL_ARG_TYPE_NAME, CL_KERNEL_ARG_TYPE_QUALIFIER, CL_KERNEL_ARG_TYPE_RESTRICT,
    CL_KERNEL_ARG_TYPE_VOLATILE, CL_KERNEL_ATTRIBUTES, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
    CL_KERNEL_CONTEXT, CL_KERNEL_FUNCTION_NAME, CL_KERNEL_GLOBAL_WORK_SIZE,
    CL_KERNEL_LOCAL_MEM_SIZE, CL_KERNEL_NUM_ARGS, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
    CL_KERNEL_PRIVATE_MEM_SIZE, CL_KERNEL_PROGRAM, CL_KERNEL_REFERENCE_COUNT,
    CL_KERNEL_WORK_GROUP_SIZE,
};
use translator::image::ImageAccess;
use translator::reflect::AddressQualifier;
use translator::{ArgKind, KernelArg};

use crate::api::call::{self, write_if_not_null};
use crate::api::handle;
use crate::api::info::{write_info, InfoValue};
use crate::api::trace::entry;
use crate::core::device::Device;
use crate::core::kernel::{ArgValue, Kernel};
use crate::core::memory::Mem;
use crate::core::object::Object;
use crate::core::program::Program;
use crate::core::sampler::Sampler;
use crate::core::CLResult;

pub(crate) unsafe extern "C" fn create_kernel(
    program: cl_program,
    kernel_name: *const c_char,
    errcode_ret: *mut cl_int,
) -> cl_kernel {
    let entry = entry!(
        "clCreateKernel" -> Kernel,
        program: program,
        kernel_name: text,
        errcode_ret: pointer,
    );
    let created = call::create(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let program = unsafe { handle::arc::<Program>(program)? };
        // SAFETY: NULL or a NUL-terminated string, per the spec.
        let name = unsafe { call::c_string(kernel_name) }.ok_or(CL_INVALID_VALUE)?;
        Ok(handle::into_handle(Kernel::new(&program, &name)?))
    });
    // SAFETY: errcode_ret is the application's, NULL or a cl_int.
    unsafe { created.report(errcode_ret) }
}

/// `clCloneKernel`.
pub(crate) unsafe extern "C" fn clone_kernel(
    source_kernel: cl_kernel,
    errcode_ret: *mut cl_int,
) -> cl_kernel {
    let entry = entry!("clCloneKernel" -> Kernel, source_kernel: kernel, errcode_ret: pointer);
    let created = call::create(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let kernel = unsafe { handle::arc::<Kernel>(source_kernel)? };
        Ok(handle::into_handle(kernel.duplicate()))
    });
    // SAFETY: errcode_ret is the application's, NULL or a cl_int.
    unsafe { created.report(errcode_ret) }
}

pub(crate) unsafe extern "C" fn create_kernels_in_program(
    program: cl_program,
    num_kernels: cl_uint,
    kernels: *mut cl_kernel,
    num_kernels_ret: *mut cl_uint,
) -> cl_int {
    let entry = entry!(
        "clCreateKernelsInProgram",
        program: program,
        num_kernels: unsigned,
        kernels: out_kernels(num_kernels),
        num_kernels_ret: out_count,
    );
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let program = unsafe { handle::arc::<Program>(program)? };
        let executable = program.any_executable()?;
        let names: Vec<&str> = executable
            .kernels()
            .iter()
            .map(|k| k.reflection.name.as_str())
            .collect();
        if !kernels.is_null() && (num_kernels as usize) < names.len() {
            return Err(CL_INVALID_VALUE);
        }
        if !kernels.is_null() {
            // Create all before handing any out, so a failure leaks nothing.
            let created = names
                .iter()
                .map(|name| Kernel::new(&program, name))
                .collect::<CLResult<Vec<_>>>()?;
            for (index, kernel) in created.into_iter().enumerate() {
                // SAFETY: the application's array of num_kernels entries,
                // which was checked to be large enough.
                unsafe { kernels.add(index).write(handle::into_handle(kernel)) };
            }
        }
        // SAFETY: NULL or a cl_uint, per the spec.
        unsafe { write_if_not_null(num_kernels_ret, names.len() as cl_uint) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn retain_kernel(kernel: cl_kernel) -> cl_int {
    let entry = entry!("clRetainKernel", kernel: kernel);
    // SAFETY: a handle from the application, checked before use.
    call::status(entry, || unsafe { handle::retain::<Kernel>(kernel) })
}

pub(crate) unsafe extern "C" fn release_kernel(kernel: cl_kernel) -> cl_int {
    let entry = entry!("clReleaseKernel", kernel: kernel);
    // SAFETY: a handle from the application, checked before use.
    call::status(entry, || unsafe { handle::release::<Kernel>(kernel) })
}

pub(crate) unsafe extern "C" fn set_kernel_arg(
    kernel: cl_kernel,
    arg_index: cl_uint,
    arg_size: usize,
    arg_value: *const c_void,
) -> cl_int {
    let entry = entry!(
        "clSetKernelArg",
        kernel: kernel,
        arg_index: unsigned,
        arg_size: size,
        arg_value: pointer,
    );
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let kernel = unsafe { handle::object::<Kernel>(kernel)? };
        let index = arg_index as usize;
        let value = match kernel.arg(index)?.kind {
            ArgKind::Buffer { .. } => {
                if arg_size != size_of::<cl_mem>() {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                // "If the argument is a buffer object, the arg_value pointer
                // can be NULL or point to a NULL value."
                let mem: cl_mem = if arg_value.is_null() {
                    std::ptr::null_mut()
                } else {
                    // SAFETY: arg_size (checked) bytes holding a cl_mem.
                    unsafe { arg_value.cast::<cl_mem>().read_unaligned() }
                };
                if mem.is_null() {
                    ArgValue::Buffer(None)
                } else {
                    // SAFETY: a handle from the application, checked before use.
                    let mem =
                        unsafe { handle::arc::<Mem>(mem) }.map_err(|_| CL_INVALID_MEM_OBJECT)?;
                    ArgValue::Buffer(Some(mem))
                }
            }
            ArgKind::Local { .. } => {
                // "For arguments declared with the local qualifier, the size
                // specified will be the size in bytes of the buffer ... and
                // arg_value must be NULL."
                if !arg_value.is_null() {
                    return Err(CL_INVALID_ARG_VALUE);
                }
                if arg_size == 0 {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                ArgValue::Local(arg_size)
            }
            ArgKind::Image { .. } => {
                if arg_size != size_of::<cl_mem>() {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                // Unlike a buffer, an image argument has no NULL value.
                if arg_value.is_null() {
                    return Err(CL_INVALID_ARG_VALUE);
                }
                // SAFETY: arg_size (checked) bytes holding a cl_mem.
                let mem = unsafe { arg_value.cast::<cl_mem>().read_unaligned() };
                // SAFETY: a handle from the application, checked before use.
                let mem = unsafe { handle::arc::<Mem>(mem) }.map_err(|_| CL_INVALID_MEM_OBJECT)?;
                ArgValue::Image(mem)
            }
            ArgKind::Sampler { .. } => {
                if arg_size != size_of::<cl_sampler>() {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                if arg_value.is_null() {
                    return Err(CL_INVALID_SAMPLER);
                }
                // SAFETY: arg_size (checked) bytes holding a cl_sampler.
                let sampler = unsafe { arg_value.cast::<cl_sampler>().read_unaligned() };
                // SAFETY: a handle from the application, checked before use.
                let sampler = unsafe { handle::arc::<Sampler>(sampler) }?;
                if !sampler.context().is(kernel.program().context()) {
                    return Err(CL_INVALID_SAMPLER);
                }
                ArgValue::Sampler(sampler.word())
            }
            ArgKind::Pod { size, .. } => {
                if arg_value.is_null() {
                    return Err(CL_INVALID_ARG_VALUE);
                }
                if arg_size != size as usize {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                // SAFETY: arg_size readable bytes at arg_value, per the spec.
                ArgValue::Bytes(unsafe { call::slice(arg_value.cast::<u8>(), arg_size)? }.to_vec())
            }
        };
        kernel.set_arg(index, value)
    })
}

fn kernel_info(kernel: &Object<Kernel>, param_name: cl_kernel_info) -> CLResult<InfoValue> {
    let reflection = kernel.reflection();
    Ok(match param_name {
        CL_KERNEL_FUNCTION_NAME => InfoValue::string(kernel.name()),
        CL_KERNEL_NUM_ARGS => InfoValue::scalar::<cl_uint>(reflection.args.len() as cl_uint),
        CL_KERNEL_REFERENCE_COUNT => InfoValue::scalar::<cl_uint>(kernel.api_reference_count()),
        CL_KERNEL_CONTEXT => InfoValue::handle(Some(&**kernel.program().context())),
        CL_KERNEL_PROGRAM => InfoValue::handle(Some(&**kernel.program())),
        CL_KERNEL_ATTRIBUTES => InfoValue::string(&reflection.attributes),
        _ => return Err(CL_INVALID_VALUE),
    })
}

pub(crate) unsafe extern "C" fn get_kernel_info(
    kernel: cl_kernel,
    param_name: cl_kernel_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    let entry = entry!(
        "clGetKernelInfo",
        kernel: kernel,
        param_name: info,
        param_value_size: size,
        param_value: pointer,
        param_value_size_ret: pointer,
    );
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let kernel = unsafe { handle::object::<Kernel>(kernel)? };
        let value = kernel_info(&kernel, param_name)?;
        // SAFETY: the application's buffers, per the clGetKernelInfo contract.
        unsafe { write_info(&value, param_value_size, param_value, param_value_size_ret) }
    })
}

fn work_group_info(
    kernel: &Kernel,
    device: &Object<Device>,
    param_name: cl_kernel_work_group_info,
) -> CLResult<InfoValue> {
    let reflection = kernel.reflection();
    Ok(match param_name {
        CL_KERNEL_WORK_GROUP_SIZE => InfoValue::scalar::<usize>(kernel.max_work_group_size(device)),
        CL_KERNEL_COMPILE_WORK_GROUP_SIZE => InfoValue::array(
            &reflection
                .required_work_group_size
                .map_or([0; 3], |size| size.map(|n| n as usize)),
        ),
        CL_KERNEL_LOCAL_MEM_SIZE => InfoValue::scalar::<cl_ulong>(kernel.local_mem_size(device)?),
        CL_KERNEL_PRIVATE_MEM_SIZE => {
            InfoValue::scalar::<cl_ulong>(kernel.private_mem_size(device)?)
        }
        CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE => {
            InfoValue::scalar::<usize>(device.subgroup_size() as usize)
        }
        // Only for custom devices and built-in kernels.
        CL_KERNEL_GLOBAL_WORK_SIZE => return Err(CL_INVALID_VALUE),
        _ => return Err(CL_INVALID_VALUE),
    })
}

pub(crate) unsafe extern "C" fn get_kernel_work_group_info(
    kernel: cl_kernel,
    device: cl_device_id,
    param_name: cl_kernel_work_group_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    let entry = entry!(
        "clGetKernelWorkGroupInfo",
        kernel: kernel,
        device: device,
        param_name: info,
        param_value_size: size,
        param_value: pointer,
        param_value_size_ret: pointer,
    );
    call::status(entry, || {
        // SAFETY: handles from the application, checked before use.
        let (kernel, device) = unsafe { kernel_and_device(kernel, device)? };
        let value = work_group_info(&kernel, &device, param_name)?;
        // SAFETY: the application's buffers, per the clGetKernelWorkGroupInfo
        // contract.
        unsafe { write_info(&value, param_value_size, param_value, param_value_size_ret) }
    })
}

/// A kernel and one of its program's devices.
pub(crate) type KernelOnDevice = (
    std::sync::Arc<Object<Kernel>>,
    std::sync::Arc<Object<Device>>,
);

/// The kernel a per-device kernel query names, and its device: `device`,
/// one of its program's, or for NULL the program's only one.
///
/// # Safety
/// `kernel` and `device` are handles from the application (or NULL).
pub(crate) unsafe fn kernel_and_device(
    kernel: cl_kernel,
    device: cl_device_id,
) -> CLResult<KernelOnDevice> {
    // SAFETY: the caller's contract: a handle, checked before use.
    let kernel = unsafe { handle::object::<Kernel>(kernel)? };
    let program_devices = kernel.program().devices();
    // "device ... can be NULL if there is a single device associated with
    // kernel."
    let device = if device.is_null() {
        match program_devices {
            [only] => only.clone(),
            _ => return Err(CL_INVALID_DEVICE),
        }
    } else {
        // SAFETY: the caller's contract: a handle, checked before use.
        let device = unsafe { handle::object::<Device>(device)? };
        if !program_devices.iter().any(|d| d.is(&device)) {
            return Err(CL_INVALID_DEVICE);
        }
        device
    };
    Ok((kernel, device))
}

fn arg_info(arg: &KernelArg, param_name: cl_kernel_arg_info) -> CLResult<InfoValue> {
    Ok(match param_name {
        CL_KERNEL_ARG_ADDRESS_QUALIFIER => {
            InfoValue::scalar::<cl_kernel_arg_address_qualifier>(match arg.address {
                AddressQualifier::Global => CL_KERNEL_ARG_ADDRESS_GLOBAL,
                AddressQualifier::Constant => CL_KERNEL_ARG_ADDRESS_CONSTANT,
                AddressQualifier::Local => CL_KERNEL_ARG_ADDRESS_LOCAL,
                AddressQualifier::Private => CL_KERNEL_ARG_ADDRESS_PRIVATE,
            })
        }
        // Only image arguments have access qualifiers.
        CL_KERNEL_ARG_ACCESS_QUALIFIER => {
            let qualifier = match arg.kind {
                ArgKind::Image { access, .. } => match access {
                    ImageAccess::ReadOnly => CL_KERNEL_ARG_ACCESS_READ_ONLY,
                    ImageAccess::WriteOnly => CL_KERNEL_ARG_ACCESS_WRITE_ONLY,
                    ImageAccess::ReadWrite => CL_KERNEL_ARG_ACCESS_READ_WRITE,
                },
                _ => CL_KERNEL_ARG_ACCESS_NONE,
            };
            InfoValue::scalar::<cl_kernel_arg_access_qualifier>(qualifier)
        }
        CL_KERNEL_ARG_TYPE_NAME => InfoValue::string(&arg.type_name),
        // A `cl_bitfield` (8 bytes) in the Khronos headers; opencl-sys
        // declares `cl_kernel_arg_type_qualifier` as a `cl_uint`, and
        // answering in 4 bytes left an application's upper half unset.
        CL_KERNEL_ARG_TYPE_QUALIFIER => {
            let mut qualifiers: cl_bitfield = 0;
            for (present, bit) in [
                (arg.is_const, CL_KERNEL_ARG_TYPE_CONST),
                (arg.is_restrict, CL_KERNEL_ARG_TYPE_RESTRICT),
                (arg.is_volatile, CL_KERNEL_ARG_TYPE_VOLATILE),
            ] {
                if present {
                    qualifiers |= cl_bitfield::from(bit);
                }
            }
            InfoValue::scalar(qualifiers)
        }
        CL_KERNEL_ARG_NAME => InfoValue::string(&arg.name),
        _ => return Err(CL_INVALID_VALUE),
    })
}

/// Available only for programs built with `-cl-kernel-arg-info`.
pub(crate) unsafe extern "C" fn get_kernel_arg_info(
    kernel: cl_kernel,
    arg_index: cl_uint,
    param_name: cl_kernel_arg_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    let entry = entry!(
        "clGetKernelArgInfo",
        kernel: kernel,
        arg_index: unsigned,
        param_name: info,
        param_value_size: size,
        param_value: pointer,
        param_value_size_ret: pointer,
    );
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let kernel = unsafe { handle::object::<Kernel>(kernel)? };
        let arg = kernel.arg(arg_index as usize)?;
        if !kernel.has_arg_info() {
            return Err(CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
        }
        let value = arg_info(arg, param_name)?;
        // SAFETY: the application's buffers, per the clGetKernelArgInfo
        // contract.
        unsafe { write_info(&value, param_value_size, param_value, param_value_size_ret) }
    })
}
