//! Memory-object entry points: buffer creation (with and without a
//! property list), retain/release, `clGetMemObjectInfo`, destructor
//! and destructor callbacks (images: [`crate::api::image`]).

use std::ffi::c_void;

use opencl_sys::{
    cl_buffer_create_type, cl_buffer_region, cl_context, cl_int, cl_mem, cl_mem_flags, cl_mem_info,
    cl_mem_object_type, cl_mem_properties, cl_uint, CL_BUFFER_CREATE_TYPE_REGION,
    CL_INVALID_HOST_PTR, CL_INVALID_PROPERTY, CL_INVALID_VALUE, CL_MEM_ASSOCIATED_MEMOBJECT,
    CL_MEM_CONTEXT, CL_MEM_FLAGS, CL_MEM_HOST_PTR, CL_MEM_MAP_COUNT, CL_MEM_OBJECT_BUFFER,
    CL_MEM_OFFSET, CL_MEM_PROPERTIES, CL_MEM_REFERENCE_COUNT, CL_MEM_SIZE, CL_MEM_TYPE,
    CL_MEM_USES_SVM_POINTER, CL_MEM_USE_HOST_PTR,
};

use crate::api::call;
use crate::api::context::read_property_list;
use crate::api::handle;
use crate::api::host::{self, MemDestructorNotify};
use crate::api::info::{write_info, InfoValue};
use crate::api::trace::entry;
use crate::core::context::Context;
use crate::core::memory::{self, BufferDescription, Mem};
use crate::core::object::Object;
use crate::core::CLResult;

/// # Safety
/// `context` is a handle and `properties` NULL or a zero-terminated list
/// from the application; `host_ptr` is NULL or valid for reading `size`
/// bytes when the flags ask for its contents.
unsafe fn buffer(
    context: cl_context,
    properties: *const cl_mem_properties,
    flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
) -> CLResult<cl_mem> {
    // SAFETY: the caller's contract; the handle is checked before use.
    let context = unsafe { handle::arc::<Context>(context)? };
    // SAFETY: the caller's contract for the property list.
    let properties = unsafe { read_property_list(properties) };
    // OpenCL 3.0 defines no buffer properties; extensions add them.
    if properties.len() > 1 {
        return Err(CL_INVALID_PROPERTY);
    }
    memory::validate_buffer_flags(flags)?;
    memory::validate_buffer_size(&context, size)?;
    // "CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or
    // CL_MEM_COPY_HOST_PTR are set in flags or if host_ptr is not NULL but
    // CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set in flags."
    let wants_contents = memory::takes_host_contents(flags);
    if wants_contents == host_ptr.is_null() {
        return Err(CL_INVALID_HOST_PTR);
    }
    let contents = if wants_contents {
        // SAFETY: the caller's contract: size readable bytes at host_ptr.
        Some(unsafe { std::slice::from_raw_parts(host_ptr.cast::<u8>().cast_const(), size) })
    } else {
        None
    };
    let use_host_ptr = flags & CL_MEM_USE_HOST_PTR != 0;
    let mem = Mem::new_buffer(
        &context,
        BufferDescription {
            flags,
            size,
            contents,
            host_ptr: if use_host_ptr { host_ptr as usize } else { 0 },
            properties,
        },
    )?;
    Ok(handle::into_handle(mem))
}

pub(crate) unsafe extern "C" fn create_buffer(
    context: cl_context,
    flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    let entry = entry!(
        "clCreateBuffer" -> Mem,
        context: context,
        flags: mem_flags,
        size: size,
        host_ptr: pointer,
        errcode_ret: pointer,
    );
    // SAFETY: the application's arguments, per the clCreateBuffer contract.
    let created = call::create(entry, || unsafe {
        buffer(context, std::ptr::null(), flags, size, host_ptr)
    });
    // SAFETY: errcode_ret is the application's, NULL or a cl_int.
    unsafe { created.report(errcode_ret) }
}

pub(crate) unsafe extern "C" fn create_buffer_with_properties(
    context: cl_context,
    properties: *const cl_mem_properties,
    flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    let entry = entry!(
        "clCreateBufferWithProperties" -> Mem,
        context: context,
        properties: pointer,
        flags: mem_flags,
        size: size,
        host_ptr: pointer,
        errcode_ret: pointer,
    );
    // SAFETY: the application's arguments, per the
    // clCreateBufferWithProperties contract.
    let created = call::create(entry, || unsafe {
        buffer(context, properties, flags, size, host_ptr)
    });
    // SAFETY: errcode_ret is the application's, NULL or a cl_int.
    unsafe { created.report(errcode_ret) }
}

pub(crate) unsafe extern "C" fn create_sub_buffer(
    buffer: cl_mem,
    flags: cl_mem_flags,
    buffer_create_type: cl_buffer_create_type,
    buffer_create_info: *const c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    let entry = entry!(
        "clCreateSubBuffer" -> Mem,
        buffer: mem,
        flags: mem_flags,
        buffer_create_type: unsigned,
        buffer_create_info: pointer,
        errcode_ret: pointer,
    );
    let created = call::create(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let parent = unsafe { handle::arc::<Mem>(buffer)? };
        if buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION || buffer_create_info.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: for CL_BUFFER_CREATE_TYPE_REGION, buffer_create_info
        // points to a cl_buffer_region (the clCreateSubBuffer contract).
        let region = unsafe {
            buffer_create_info
                .cast::<cl_buffer_region>()
                .read_unaligned()
        };
        let sub = Mem::new_sub_buffer(&parent, flags, region.origin, region.size)?;
        Ok(handle::into_handle(sub))
    });
    // SAFETY: errcode_ret is the application's, NULL or a cl_int.
    unsafe { created.report(errcode_ret) }
}

pub(crate) unsafe extern "C" fn retain_mem_object(mem: cl_mem) -> cl_int {
    let entry = entry!("clRetainMemObject", mem: mem);
    // SAFETY: a handle from the application, checked before use.
    call::status(entry, || unsafe { handle::retain::<Mem>(mem) })
}

pub(crate) unsafe extern "C" fn release_mem_object(mem: cl_mem) -> cl_int {
    let entry = entry!("clReleaseMemObject", mem: mem);
    // SAFETY: a handle from the application, checked before use.
    call::status(entry, || unsafe { handle::release::<Mem>(mem) })
}

fn mem_info(mem: &Object<Mem>, param_name: cl_mem_info) -> CLResult<InfoValue> {
    Ok(match param_name {
        CL_MEM_TYPE => InfoValue::scalar::<cl_mem_object_type>(
            mem.image()
                .map_or(CL_MEM_OBJECT_BUFFER, |image| image.description.image_type),
        ),
        CL_MEM_FLAGS => InfoValue::scalar(mem.flags()),
        CL_MEM_SIZE => InfoValue::scalar(mem.size()),
        CL_MEM_HOST_PTR => InfoValue::scalar(mem.host_ptr()),
        CL_MEM_MAP_COUNT => InfoValue::scalar::<cl_uint>(mem.map_count() as cl_uint),
        CL_MEM_REFERENCE_COUNT => InfoValue::scalar::<cl_uint>(mem.api_reference_count()),
        CL_MEM_CONTEXT => InfoValue::handle(Some(&**mem.context())),
        CL_MEM_ASSOCIATED_MEMOBJECT => match mem.image() {
            Some(image) => InfoValue::handle(image.buffer.as_deref()),
            None => InfoValue::handle(mem.parent().map(|p| &**p)),
        },
        CL_MEM_OFFSET => InfoValue::scalar::<usize>(if mem.image().is_some() {
            0
        } else {
            mem.origin()
        }),
        CL_MEM_USES_SVM_POINTER => InfoValue::bool(false),
        CL_MEM_PROPERTIES => InfoValue::array(mem.properties()),
        _ => return Err(CL_INVALID_VALUE),
    })
}

pub(crate) unsafe extern "C" fn get_mem_object_info(
    mem: cl_mem,
    param_name: cl_mem_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    let entry = entry!(
        "clGetMemObjectInfo",
        mem: mem,
        param_name: info,
        param_value_size: size,
        param_value: pointer,
        param_value_size_ret: pointer,
    );
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let mem = unsafe { handle::object::<Mem>(mem)? };
        let value = mem_info(&mem, param_name)?;
        // SAFETY: the application's buffers, per the clGetMemObjectInfo
        // contract.
        unsafe { write_info(&value, param_value_size, param_value, param_value_size_ret) }
    })
}

pub(crate) unsafe extern "C" fn set_mem_object_destructor_callback(
    mem: cl_mem,
    pfn_notify: Option<MemDestructorNotify>,
    user_data: *mut c_void,
) -> cl_int {
    let entry = entry!(
        "clSetMemObjectDestructorCallback",
        mem: mem,
        pfn_notify: callback,
        user_data: pointer,
    );
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let object = unsafe { handle::object::<Mem>(mem)? };
        let notify = pfn_notify.ok_or(CL_INVALID_VALUE)?;
        object.add_destructor_callback(host::mem_destructor(notify, mem, user_data));
        Ok(())
    })
}
