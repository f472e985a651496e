//! Program entry points: creation from OpenCL C source, SPIR-V or
//! binaries, specialization constants, `clBuildProgram`,
//! `clCompileProgram`, `clLinkProgram`, the program and build info
//! queries, retain/release.

use std::ffi::{c_char, c_uchar, c_void};
use std::sync::Arc;

use opencl_sys::{
    cl_build_status, cl_context, cl_device_id, cl_int, cl_program, cl_program_binary_type,
    cl_program_build_info, cl_program_info, cl_uint, CL_INVALID_DEVICE, CL_INVALID_OPERATION,
    CL_INVALID_PROGRAM, CL_INVALID_VALUE, CL_PROGRAM_BINARIES, CL_PROGRAM_BINARY_SIZES,
    CL_PROGRAM_BINARY_TYPE, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE, CL_PROGRAM_BUILD_LOG,
    CL_PROGRAM_BUILD_OPTIONS, CL_PROGRAM_BUILD_STATUS, CL_PROGRAM_CONTEXT, CL_PROGRAM_DEVICES,
    CL_PROGRAM_IL, CL_PROGRAM_KERNEL_NAMES, CL_PROGRAM_NUM_DEVICES, CL_PROGRAM_NUM_KERNELS,
    CL_PROGRAM_REFERENCE_COUNT, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT,
    CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT, CL_PROGRAM_SOURCE, CL_SUCCESS,
};

use crate::api::call::{self, write_if_not_null};
use crate::api::handle;
use crate::api::info::{write_info, InfoValue};
use crate::api::trace::entry;
use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::object::Object;
use crate::core::program::{Origin, Program};
use crate::core::CLResult;

type BuildNotify = unsafe extern "C" fn(cl_program, *mut c_void);

pub(crate) unsafe extern "C" fn create_program_with_source(
    context: cl_context,
    count: cl_uint,
    strings: *mut *const c_char,
    lengths: *const usize,
    errcode_ret: *mut cl_int,
) -> cl_program {
    let entry = entry!(
        "clCreateProgramWithSource" -> Program,
        context: context,
        count: unsigned,
        strings: pointer,
        lengths: pointer,
        errcode_ret: pointer,
    );
    let created = call::create(entry, || {
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
                call::slice(strings.cast_const(), count as usize)?,
                call::slice(lengths, if lengths.is_null() { 0 } else { count as usize })?,
            )
        };
        let mut source = Vec::new();
        for (index, &pointer) in pointers.iter().enumerate() {
            if pointer.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            // A length of 0 (or no lengths) means NUL-terminated.
            match lengths.get(index).copied().filter(|&length| length > 0) {
                Some(length) => {
                    // SAFETY: the application says `length` bytes are there.
                    let text = unsafe { call::slice(pointer.cast::<u8>(), length)? };
                    source.extend_from_slice(text);
                }
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

/// `clCreateProgramWithIL`, and `clCreateProgramWithILKHR` of
/// `cl_khr_il_program` (the same function).
pub(crate) unsafe extern "C" fn create_program_with_il(
    context: cl_context,
    il: *const c_void,
    length: usize,
    errcode_ret: *mut cl_int,
) -> cl_program {
    let entry = entry!(
        "clCreateProgramWithIL" -> Program,
        context: context,
        il: pointer,
        length: size,
        errcode_ret: pointer,
    );
    let created = call::create(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let context = unsafe { handle::arc::<Context>(context)? };
        // "CL_INVALID_VALUE if il is NULL or if length is zero."
        if il.is_null() || length == 0 {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: `length` bytes at `il`, per the spec.
        let bytes = unsafe { call::slice(il.cast::<u8>(), length)? };
        Ok(handle::into_handle(Program::from_il(&context, bytes)?))
    });
    // SAFETY: errcode_ret is the application's, NULL or a cl_int.
    unsafe { created.report(errcode_ret) }
}

pub(crate) unsafe extern "C" fn set_program_specialization_constant(
    program: cl_program,
    spec_id: cl_uint,
    spec_size: usize,
    spec_value: *const c_void,
) -> cl_int {
    let entry = entry!(
        "clSetProgramSpecializationConstant",
        program: program,
        spec_id: unsigned,
        spec_size: size,
        spec_value: pointer,
    );
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let object = unsafe { handle::object::<Program>(program)? };
        // "CL_INVALID_PROGRAM if program is not a valid program object
        // created from an intermediate language (e.g. SPIR-V)."
        let il = object.il().ok_or(CL_INVALID_PROGRAM)?;
        if spec_value.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: `spec_size` bytes at `spec_value`, per the spec.
        let value = unsafe { call::slice(spec_value.cast::<u8>(), spec_size)? };
        il.set_spec_constant(spec_id, value)
    })
}

/// `device_list` as device objects of `context`: `None` for NULL (all of
/// them). `CL_INVALID_VALUE` when the pointer and the count disagree.
///
/// # Safety
/// `device_list` is NULL or valid for `num_devices` handles.
unsafe fn device_list_of(
    devices_of: &[Arc<Object<Device>>],
    num_devices: cl_uint,
    device_list: *const cl_device_id,
) -> CLResult<Option<Vec<Arc<Object<Device>>>>> {
    if device_list.is_null() != (num_devices == 0) {
        return Err(CL_INVALID_VALUE);
    }
    if device_list.is_null() {
        return Ok(None);
    }
    // SAFETY: num_devices handles, per the caller's contract.
    let devices = unsafe {
        handle::arcs::<Device>(device_list.cast(), num_devices as usize, CL_INVALID_DEVICE)?
    };
    if devices.iter().any(|d| !devices_of.iter().any(|o| o.is(d))) {
        return Err(CL_INVALID_DEVICE);
    }
    Ok(Some(devices))
}

/// Calls the application's completion callback, once.
///
/// # Safety
/// `program` is a live program handle.
unsafe fn notify(pfn_notify: Option<BuildNotify>, program: cl_program, user_data: *mut c_void) {
    if let Some(notify) = pfn_notify {
        // SAFETY: the application's callback with this signature; the
        // program is alive (the application holds it, or it was just made).
        unsafe { notify(program, user_data) };
    }
}

pub(crate) unsafe extern "C" fn create_program_with_binary(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    lengths: *const usize,
    binaries: *mut *const c_uchar,
    binary_status: *mut cl_int,
    errcode_ret: *mut cl_int,
) -> cl_program {
    let entry = entry!(
        "clCreateProgramWithBinary" -> Program,
        context: context,
        num_devices: unsigned,
        device_list: devices(num_devices),
        lengths: pointer,
        binaries: pointer,
        binary_status: pointer,
        errcode_ret: pointer,
    );
    let created = call::create(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let context = unsafe { handle::arc::<Context>(context)? };
        if num_devices == 0 || device_list.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: num_devices handles, per the spec.
        let devices = unsafe { device_list_of(context.devices(), num_devices, device_list)? }
            .unwrap_or_default();
        let count = num_devices as usize;
        if lengths.is_null() || binaries.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: num_devices entries each, per the spec.
        let (lengths, pointers) = unsafe {
            (
                call::slice(lengths, count)?,
                call::slice(binaries.cast_const(), count)?,
            )
        };
        // "CL_INVALID_VALUE if ... any entry in lengths[i] is zero or
        // binaries[i] is NULL", reported per device in binary_status too.
        let mut missing = vec![CL_SUCCESS; count];
        let mut slices: Vec<&[u8]> = Vec::with_capacity(count);
        for (index, (&length, &pointer)) in lengths.iter().zip(pointers).enumerate() {
            if length == 0 || pointer.is_null() {
                missing[index] = CL_INVALID_VALUE;
                slices.push(&[]);
            } else {
                // SAFETY: the application says `length` bytes are there.
                slices.push(unsafe { call::slice(pointer, length)? });
            }
        }
        let write_statuses = |statuses: &[cl_int]| {
            if !binary_status.is_null() {
                for (index, &status) in statuses.iter().enumerate() {
                    // SAFETY: the application's array of num_devices
                    // cl_int, per the spec.
                    unsafe { binary_status.add(index).write_unaligned(status) };
                }
            }
        };
        if missing.iter().any(|&s| s != CL_SUCCESS) {
            write_statuses(&missing);
            return Err(CL_INVALID_VALUE);
        }
        let (statuses, program) = Program::from_binaries(&context, devices, &slices);
        write_statuses(&statuses);
        Ok(handle::into_handle(program?))
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
    let entry = entry!(
        "clBuildProgram",
        program: program,
        num_devices: unsigned,
        device_list: devices(num_devices),
        options: text,
        pfn_notify: callback,
        user_data: pointer,
    );
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let object = unsafe { handle::object::<Program>(program)? };
        if pfn_notify.is_none() && !user_data.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: num_devices handles or NULL, per the spec.
        let devices = unsafe { device_list_of(object.devices(), num_devices, device_list)? };
        // SAFETY: NULL or a NUL-terminated string, per the spec.
        let options = unsafe { call::c_string(options) }.unwrap_or_default();
        let result = object.build(devices.as_deref(), &options);
        // SAFETY: the application's live program.
        unsafe { notify(pfn_notify, program, user_data) };
        result
    })
}

#[allow(clippy::too_many_arguments)] // the C signature
pub(crate) unsafe extern "C" fn compile_program(
    program: cl_program,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    num_input_headers: cl_uint,
    input_headers: *const cl_program,
    header_include_names: *mut *const c_char,
    pfn_notify: Option<BuildNotify>,
    user_data: *mut c_void,
) -> cl_int {
    let entry = entry!(
        "clCompileProgram",
        program: program,
        num_devices: unsigned,
        device_list: devices(num_devices),
        options: text,
        num_input_headers: unsigned,
        input_headers: programs(num_input_headers),
        header_include_names: pointer,
        pfn_notify: callback,
        user_data: pointer,
    );
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let object = unsafe { handle::object::<Program>(program)? };
        if pfn_notify.is_none() && !user_data.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_VALUE if num_input_headers is zero and
        // header_include_names or input_headers are not NULL or if
        // num_input_headers is not zero and header_include_names or
        // input_headers are NULL."
        let count = num_input_headers as usize;
        if (count == 0) != input_headers.is_null() || (count == 0) != header_include_names.is_null()
        {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: num_devices handles or NULL, per the spec.
        let devices = unsafe { device_list_of(object.devices(), num_devices, device_list)? };
        // SAFETY: count program handles, per the spec.
        let header_programs =
            unsafe { handle::arcs::<Program>(input_headers.cast(), count, CL_INVALID_PROGRAM)? };
        // SAFETY: count string pointers, per the spec.
        let names = unsafe { call::slice(header_include_names.cast_const(), count)? };
        let mut headers = Vec::with_capacity(count);
        for (header, &name) in header_programs.iter().zip(names) {
            // SAFETY: NULL or a NUL-terminated string, per the spec.
            let name = unsafe { call::c_string(name) }.ok_or(CL_INVALID_VALUE)?;
            if header.origin() != Origin::Source {
                return Err(CL_INVALID_OPERATION);
            }
            headers.push((name, header.source().to_owned()));
        }
        // SAFETY: NULL or a NUL-terminated string, per the spec.
        let options = unsafe { call::c_string(options) }.unwrap_or_default();
        let result = object.compile(devices.as_deref(), &options, &headers);
        // SAFETY: the application's live program.
        unsafe { notify(pfn_notify, program, user_data) };
        result
    })
}

#[allow(clippy::too_many_arguments)] // the C signature
pub(crate) unsafe extern "C" fn link_program(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    num_input_programs: cl_uint,
    input_programs: *const cl_program,
    pfn_notify: Option<BuildNotify>,
    user_data: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_program {
    // The link's own outcome; the program comes back also when the link
    // failed, so that the application can read the log.
    let mut link_status = CL_SUCCESS;
    let entry = entry!(
        "clLinkProgram" -> Program,
        context: context,
        num_devices: unsigned,
        device_list: devices(num_devices),
        options: text,
        num_input_programs: unsigned,
        input_programs: programs(num_input_programs),
        pfn_notify: callback,
        user_data: pointer,
        errcode_ret: pointer,
    );
    let created = call::create(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let context = unsafe { handle::arc::<Context>(context)? };
        if (pfn_notify.is_none() && !user_data.is_null())
            || num_input_programs == 0
            || input_programs.is_null()
        {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: num_devices handles or NULL, per the spec.
        let devices = unsafe { device_list_of(context.devices(), num_devices, device_list)? };
        // SAFETY: num_input_programs handles, per the spec.
        let inputs = unsafe {
            handle::arcs::<Program>(
                input_programs.cast(),
                num_input_programs as usize,
                CL_INVALID_PROGRAM,
            )?
        };
        if inputs.iter().any(|p| !p.context().is(&context)) {
            return Err(CL_INVALID_PROGRAM);
        }
        // SAFETY: NULL or a NUL-terminated string, per the spec.
        let options = unsafe { call::c_string(options) }.unwrap_or_default();
        let (program, result) = Program::link(&context, devices, &options, &inputs)?;
        if let Err(error) = result {
            link_status = error;
        }
        Ok(handle::into_handle(program))
    });
    // SAFETY: errcode_ret is the application's, NULL or a cl_int.
    let program: cl_program = unsafe { created.report(errcode_ret) };
    if !program.is_null() {
        // SAFETY: as above.
        unsafe { write_if_not_null(errcode_ret, link_status) };
        // SAFETY: the program just made, alive (the application owns it).
        unsafe { notify(pfn_notify, program, user_data) };
    }
    program
}

pub(crate) unsafe extern "C" fn retain_program(program: cl_program) -> cl_int {
    let entry = entry!("clRetainProgram", program: program);
    // SAFETY: a handle from the application, checked before use.
    call::status(entry, || unsafe { handle::retain::<Program>(program) })
}

pub(crate) unsafe extern "C" fn release_program(program: cl_program) -> cl_int {
    let entry = entry!("clReleaseProgram", program: program);
    // SAFETY: a handle from the application, checked before use.
    call::status(entry, || unsafe { handle::release::<Program>(program) })
}

fn program_info(program: &Object<Program>, param_name: cl_program_info) -> CLResult<InfoValue> {
    let device_count = program.devices().len();
    Ok(match param_name {
        CL_PROGRAM_REFERENCE_COUNT => InfoValue::scalar::<cl_uint>(program.api_reference_count()),
        CL_PROGRAM_CONTEXT => InfoValue::handle(Some(&**program.context())),
        CL_PROGRAM_NUM_DEVICES => InfoValue::scalar::<cl_uint>(device_count as cl_uint),
        CL_PROGRAM_DEVICES => InfoValue::handles(program.devices()),
        // Empty for a program not created from source.
        CL_PROGRAM_SOURCE => InfoValue::string(program.source()),
        // Nothing at all for a program not created from IL.
        CL_PROGRAM_IL => program
            .il()
            .map_or_else(InfoValue::empty, |il| InfoValue::array(il.bytes())),
        CL_PROGRAM_BINARY_SIZES => {
            let sizes: Vec<usize> = (0..device_count)
                .map(|index| program.binary(index).len())
                .collect();
            InfoValue::array(&sizes)
        }
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
    let entry = entry!(
        "clGetProgramInfo",
        program: program,
        param_name: info,
        param_value_size: size,
        param_value: pointer,
        param_value_size_ret: pointer,
    );
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let program = unsafe { handle::object::<Program>(program)? };
        if param_name == CL_PROGRAM_BINARIES {
            let size = program.devices().len() * size_of::<*mut u8>();
            if !param_value.is_null() {
                if param_value_size < size {
                    return Err(CL_INVALID_VALUE);
                }
                // SAFETY: the application's array of one pointer per device,
                // each NULL (skip that device) or to CL_PROGRAM_BINARY_SIZES
                // bytes, per the spec.
                let destinations = unsafe {
                    call::slice(
                        param_value.cast::<*mut u8>().cast_const(),
                        program.devices().len(),
                    )?
                };
                for (index, &destination) in destinations.iter().enumerate() {
                    if destination.is_null() {
                        continue;
                    }
                    let binary = program.binary(index);
                    // SAFETY: the application sized this buffer from
                    // CL_PROGRAM_BINARY_SIZES, per the spec.
                    unsafe {
                        std::ptr::copy_nonoverlapping(binary.as_ptr(), destination, binary.len())
                    };
                }
            }
            // SAFETY: NULL or a size_t, per the spec.
            unsafe { write_if_not_null(param_value_size_ret, size) };
            return Ok(());
        }
        let value = program_info(&program, param_name)?;
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
    let entry = entry!(
        "clGetProgramBuildInfo",
        program: program,
        device: device,
        param_name: info,
        param_value_size: size,
        param_value: pointer,
        param_value_size_ret: pointer,
    );
    call::status(entry, || {
        // SAFETY: handles from the application, checked before use.
        let (program, device) = unsafe {
            (
                handle::object::<Program>(program)?,
                handle::object::<Device>(device)?,
            )
        };
        let value = program.with_build(&device, |build| match param_name {
            CL_PROGRAM_BUILD_STATUS => Ok(InfoValue::scalar::<cl_build_status>(build.status)),
            CL_PROGRAM_BUILD_OPTIONS => Ok(InfoValue::string(&build.options)),
            CL_PROGRAM_BUILD_LOG => Ok(InfoValue::string(&build.log)),
            CL_PROGRAM_BINARY_TYPE => Ok(InfoValue::scalar::<cl_program_binary_type>(
                build.binary_type(),
            )),
            // What the program-scope `__global` variables take; 0 without
            // an executable (a compiled object, a failed build).
            CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE => Ok(InfoValue::scalar::<usize>(
                build
                    .executable
                    .as_ref()
                    .map_or(0, |e| e.globals().size() as usize),
            )),
            _ => Err(CL_INVALID_VALUE),
        })??;
        // SAFETY: the application's buffers, per the clGetProgramBuildInfo
        // contract.
        unsafe { write_info(&value, param_value_size, param_value, param_value_size_ret) }
    })
}
