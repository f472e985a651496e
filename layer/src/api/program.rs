//! Program entry points: creation from OpenCL C source, `clBuildProgram`,
//! the program and build info queries, retain/release.

use std::ffi::{c_char, c_void};

use opencl_sys::{
    cl_build_status, cl_context, cl_device_id, cl_int, cl_program, cl_program_binary_type,
    cl_program_build_info, cl_program_info, cl_uint, CL_BUILD_SUCCESS, CL_INVALID_DEVICE,
    CL_INVALID_VALUE, CL_PROGRAM_BINARIES, CL_PROGRAM_BINARY_SIZES, CL_PROGRAM_BINARY_TYPE,
    CL_PROGRAM_BINARY_TYPE_EXECUTABLE, CL_PROGRAM_BINARY_TYPE_NONE,
    CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE, CL_PROGRAM_BUILD_LOG, CL_PROGRAM_BUILD_OPTIONS,
    CL_PROGRAM_BUILD_STATUS, CL_PROGRAM_CONTEXT, CL_PROGRAM_DEVICES, CL_PROGRAM_IL,
    CL_PROGRAM_KERNEL_NAMES, CL_PROGRAM_NUM_DEVICES, CL_PROGRAM_NUM_KERNELS,
    CL_PROGRAM_REFERENCE_COUNT, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT,
    CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT, CL_PROGRAM_SOURCE,
};

use crate::api::call::{self, write_if_not_null};
use crate::api::handle;
use crate::api::info::{write_info, InfoValue};
use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::object::Object;
use crate::core::program::Program;
use crate::core::CLResult;

type BuildNotify = unsafe extern "C" fn(cl_program, *mut c_void);

pub(crate) unsafe extern "C" fn create_program_with_source(
    context: cl_context,
    count: cl_uint,
    strings: *mut *const c_char,
    lengths: *const usize,
    errcode_ret: *mut cl_int,
) -> cl_program {
    let created = call::create(|| {
        // SAFETY: a handle from the application, checked before use.
        let context = unsafe { handle::arc::<Context>(context)? };
        // "CL_INVALID_VALUE if count is zero or if strings or any entry
        // in strings is NULL."
        if count == 0 || strings.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: count entries, per the spec; lengths likewise when
        // not NULL.
        let (pointers, lengths) = unsafe {
            (
                call::slice(strings.cast_const(), count as usize),
                call::slice(lengths, if lengths.is_null() { 0 } else { count as usize }),
            )
        };
        let mut source = Vec::new();
        for (index, &pointer) in pointers.iter().enumerate() {
            if pointer.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            // A length of 0 (or no lengths) means NUL-terminated.
            match lengths.get(index).copied().filter(|&length| length > 0) {
                // SAFETY: the application says `length` bytes are there.
                Some(length) => source.extend_from_slice(unsafe {
                    std::slice::from_raw_parts(pointer.cast::<u8>(), length)
                }),
                // SAFETY: a NUL-terminated string, per the spec.
                None => source
                    .extend_from_slice(unsafe { std::ffi::CStr::from_ptr(pointer) }.to_bytes()),
            }
        }
        let source = String::from_utf8_lossy(&source).into_owned();
        Ok(handle::into_handle(Program::from_source(&context, source)))
    });
    // SAFETY: errcode_ret is the application's, NULL or a cl_int.
    unsafe { created.report(errcode_ret) }
}

pub(crate) unsafe extern "C" fn build_program(
    program: cl_program,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    pfn_notify: Option<BuildNotify>,
    user_data: *mut c_void,
) -> cl_int {
    call::status(|| {
        // SAFETY: a handle from the application, checked before use.
        let object = unsafe { handle::object::<Program>(program)? };
        if device_list.is_null() != (num_devices == 0)
            || (pfn_notify.is_none() && !user_data.is_null())
        {
            return Err(CL_INVALID_VALUE);
        }
        let devices = if device_list.is_null() {
            None
        } else {
            // SAFETY: num_devices handles, per the spec.
            Some(unsafe {
                handle::arcs::<Device>(device_list.cast(), num_devices as usize, CL_INVALID_DEVICE)?
            })
        };
        // SAFETY: NULL or a NUL-terminated string, per the spec.
        let options = unsafe { call::c_string(options) }.unwrap_or_default();
        let result = object.build(devices.as_deref(), &options);
        if let Some(notify) = pfn_notify {
            // SAFETY: the application's callback with this signature; the
            // program is alive (the application holds it for this call).
            unsafe { notify(program, user_data) };
        }
        result
    })
}

pub(crate) unsafe extern "C" fn retain_program(program: cl_program) -> cl_int {
    // SAFETY: a handle from the application, checked before use.
    call::status(|| unsafe { handle::retain::<Program>(program) })
}

pub(crate) unsafe extern "C" fn release_program(program: cl_program) -> cl_int {
    // SAFETY: a handle from the application, checked before use.
    call::status(|| unsafe { handle::release::<Program>(program) })
}

fn program_info(program: &Object<Program>, param_name: cl_program_info) -> CLResult<InfoValue> {
    let device_count = program.devices().len();
    Ok(match param_name {
        CL_PROGRAM_REFERENCE_COUNT => InfoValue::scalar::<cl_uint>(program.api_reference_count()),
        CL_PROGRAM_CONTEXT => InfoValue::handle(Some(&**program.context())),
        CL_PROGRAM_NUM_DEVICES => InfoValue::scalar::<cl_uint>(device_count as cl_uint),
        CL_PROGRAM_DEVICES => InfoValue::handles(program.devices()),
        CL_PROGRAM_SOURCE => InfoValue::string(program.source()),
        // Not created from IL.
        CL_PROGRAM_IL => InfoValue::empty(),
        // Programs have no binary form yet.
        CL_PROGRAM_BINARY_SIZES => InfoValue::array(&vec![0usize; device_count]),
        CL_PROGRAM_NUM_KERNELS => {
            InfoValue::scalar::<usize>(program.any_executable()?.kernels().len())
        }
        CL_PROGRAM_KERNEL_NAMES => {
            let executable = program.any_executable()?;
            let names: Vec<&str> = executable
                .kernels()
                .iter()
                .map(|k| k.reflection.name.as_str())
                .collect();
            InfoValue::string(&names.join(";"))
        }
        CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT | CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT => {
            InfoValue::bool(false)
        }
        _ => return Err(CL_INVALID_VALUE),
    })
}

pub(crate) unsafe extern "C" fn get_program_info(
    program: cl_program,
    param_name: cl_program_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    call::status(|| {
        // SAFETY: a handle from the application, checked before use.
        let program = unsafe { handle::object::<Program>(program)? };
        if param_name == CL_PROGRAM_BINARIES {
            // The value is the application's array of one pointer per
            // device, each to be filled with that device's binary. All
            // binaries are empty, so the array is checked and left alone.
            let size = program.devices().len() * size_of::<*mut u8>();
            if !param_value.is_null() && param_value_size < size {
                return Err(CL_INVALID_VALUE);
            }
            // SAFETY: NULL or a size_t, per the spec.
            unsafe { write_if_not_null(param_value_size_ret, size) };
            return Ok(());
        }
        let value = program_info(program, param_name)?;
        // SAFETY: the application's buffers, per the clGetProgramInfo contract.
        unsafe { write_info(&value, param_value_size, param_value, param_value_size_ret) }
    })
}

pub(crate) unsafe extern "C" fn get_program_build_info(
    program: cl_program,
    device: cl_device_id,
    param_name: cl_program_build_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    call::status(|| {
        // SAFETY: handles from the application, checked before use.
        let (program, device) = unsafe {
            (
                handle::object::<Program>(program)?,
                handle::object::<Device>(device)?,
            )
        };
        let value = program.with_build(device, |build| match param_name {
            CL_PROGRAM_BUILD_STATUS => Ok(InfoValue::scalar::<cl_build_status>(build.status)),
            CL_PROGRAM_BUILD_OPTIONS => Ok(InfoValue::string(&build.options)),
            CL_PROGRAM_BUILD_LOG => Ok(InfoValue::string(&build.log)),
            CL_PROGRAM_BINARY_TYPE => Ok(InfoValue::scalar::<cl_program_binary_type>(
                if build.status == CL_BUILD_SUCCESS {
                    CL_PROGRAM_BINARY_TYPE_EXECUTABLE
                } else {
                    CL_PROGRAM_BINARY_TYPE_NONE
                },
            )),
            // No program-scope global variables.
            CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE => Ok(InfoValue::scalar::<usize>(0)),
            _ => Err(CL_INVALID_VALUE),
        })??;
        // SAFETY: the application's buffers, per the clGetProgramBuildInfo
        // contract.
        unsafe { write_info(&value, param_value_size, param_value, param_value_size_ret) }
    })
}
