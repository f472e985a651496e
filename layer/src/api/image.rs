//! Image entry points: creation (`clCreateImage`, with properties, and the
//! 1.1 `clCreateImage2D`/`3D`), `clGetSupportedImageFormats` and
//! `clGetImageInfo`. The commands on images are in
//! [`crate::api::image_enqueue`].

use std::ffi::c_void;

use opencl_sys::{
    cl_context, cl_image_format, cl_image_info, cl_int, cl_mem, cl_mem_flags, cl_mem_object_type,
    cl_mem_properties, cl_uint, CL_IMAGE_ARRAY_SIZE, CL_IMAGE_BUFFER, CL_IMAGE_DEPTH,
    CL_IMAGE_ELEMENT_SIZE, CL_IMAGE_FORMAT, CL_IMAGE_HEIGHT, CL_IMAGE_NUM_MIP_LEVELS,
    CL_IMAGE_NUM_SAMPLES, CL_IMAGE_ROW_PITCH, CL_IMAGE_SLICE_PITCH, CL_IMAGE_WIDTH,
    CL_INVALID_IMAGE_DESCRIPTOR, CL_INVALID_IMAGE_SIZE, CL_INVALID_PROPERTY, CL_INVALID_VALUE,
    CL_MEM_ALLOC_HOST_PTR, CL_MEM_COPY_HOST_PTR, CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_READ_ONLY,
    CL_MEM_HOST_WRITE_ONLY, CL_MEM_KERNEL_READ_AND_WRITE, CL_MEM_OBJECT_IMAGE1D,
    CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE2D,
    CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D, CL_MEM_READ_ONLY, CL_MEM_READ_WRITE,
    CL_MEM_USE_HOST_PTR, CL_MEM_WRITE_ONLY,
};

use crate::api::call::{self, write_if_not_null};
use crate::api::context::read_property_list;
use crate::api::handle;
use crate::api::info::{write_info, InfoValue};
use crate::api::trace::entry;
use crate::core::context::Context;
use crate::core::image::{self, ImageRequest};
use crate::core::image_format;
use crate::core::memory::Mem;
use crate::core::object::Object;
use crate::core::CLResult;

/// `cl_image_desc` as the C headers lay it out (the `buffer` and
/// `mem_object` union is one pointer).
#[repr(C)]
#[derive(Clone, Copy)]
struct ImageDesc {
    image_type: cl_mem_object_type,
    image_width: usize,
    image_height: usize,
    image_depth: usize,
    image_array_size: usize,
    image_row_pitch: usize,
    image_slice_pitch: usize,
    num_mip_levels: cl_uint,
    num_samples: cl_uint,
    mem_object: cl_mem,
}

/// # Safety
/// `format` is NULL or points to a `cl_image_format`.
unsafe fn read_format(format: *const cl_image_format) -> Option<(u32, u32)> {
    // SAFETY: the caller's contract.
    let format = unsafe { format.as_ref() }?;
    Some((format.image_channel_order, format.image_channel_data_type))
}

/// Creates an image from an application request.
///
/// # Safety
/// `context` is a handle, `properties` NULL or a zero-terminated list, and
/// `host_ptr` NULL or valid for reading as far as the description's
/// pitches reach when the flags ask for its contents.
unsafe fn create(
    context: cl_context,
    properties: *const cl_mem_properties,
    mut request: ImageRequest,
    host_ptr: *mut c_void,
) -> CLResult<cl_mem> {
    // SAFETY: the caller's contract; the handle is checked before use.
    let context = unsafe { handle::arc::<Context>(context)? };
    // SAFETY: the caller's contract for the property list.
    let properties = unsafe { read_property_list(properties) };
    // OpenCL 3.0 defines no image properties; extensions add them.
    if properties.len() > 1 {
        return Err(CL_INVALID_PROPERTY);
    }
    request.has_host_ptr = !host_ptr.is_null();
    let (description, [row_pitch, slice_pitch], flags) = image::validate(&context, &request)?;
    // An image made from a buffer inherits its host pointer flags, and
    // takes its contents from the buffer.
    let from_host = request.buffer.is_none();
    let contents = if from_host && flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0 {
        let whole = description.region([0; 3], image::whole_region(&description))?;
        let (layout, side) = description.host_side(&whole, row_pitch, slice_pitch)?;
        let length = image::host_extent(&side, layout)?;
        if !call::fits_in_memory::<u8>(length) {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: the caller's contract: the image's bytes at host_ptr.
        Some(unsafe { std::slice::from_raw_parts(host_ptr.cast::<u8>().cast_const(), length) })
    } else {
        None
    };
    let mem = image::create(&context, &request, contents, host_ptr as usize, properties)?;
    Ok(handle::into_handle(mem))
}

/// The request of a `cl_image_desc`.
///
/// # Safety
/// `format` and `desc` are NULL or point to their structures; the
/// description's memory object is NULL or a handle.
unsafe fn request(
    flags: cl_mem_flags,
    format: *const cl_image_format,
    desc: *const c_void,
) -> CLResult<ImageRequest> {
    // SAFETY: the caller's contract.
    let desc = unsafe { desc.cast::<ImageDesc>().as_ref() }.ok_or(CL_INVALID_IMAGE_DESCRIPTOR)?;
    let buffer = if desc.mem_object.is_null() {
        None
    } else {
        // SAFETY: a handle from the application, checked before use.
        Some(
            unsafe { handle::arc::<Mem>(desc.mem_object) }
                .map_err(|_| CL_INVALID_IMAGE_DESCRIPTOR)?,
        )
    };
    Ok(ImageRequest {
        flags,
        // SAFETY: the caller's contract.
        format: unsafe { read_format(format) },
        image_type: desc.image_type,
        width: desc.image_width,
        height: desc.image_height,
        depth: desc.image_depth,
        array_size: desc.image_array_size,
        row_pitch: desc.image_row_pitch,
        slice_pitch: desc.image_slice_pitch,
        num_mip_levels: desc.num_mip_levels,
        num_samples: desc.num_samples,
        buffer,
        has_host_ptr: false,
    })
}

pub(crate) unsafe extern "C" fn create_image(
    context: cl_context,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_desc: *const opencl_sys::cl_image_desc,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    let entry = entry!(
        "clCreateImage" -> Mem,
        context: context,
        flags: mem_flags,
        image_format: pointer,
        image_desc: pointer,
        host_ptr: pointer,
        errcode_ret: pointer,
    );
    // SAFETY: the application's arguments, per the clCreateImage contract.
    let created = call::create(entry, || unsafe {
        let request = request(flags, image_format, image_desc.cast())?;
        create(context, std::ptr::null(), request, host_ptr)
    });
    // SAFETY: errcode_ret is the application's, NULL or a cl_int.
    unsafe { created.report(errcode_ret) }
}

pub(crate) unsafe extern "C" fn create_image_with_properties(
    context: cl_context,
    properties: *const cl_mem_properties,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_desc: *const opencl_sys::cl_image_desc,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    let entry = entry!(
        "clCreateImageWithProperties" -> Mem,
        context: context,
        properties: pointer,
        flags: mem_flags,
        image_format: pointer,
        image_desc: pointer,
        host_ptr: pointer,
        errcode_ret: pointer,
    );
    // SAFETY: the application's arguments, per the
    // clCreateImageWithProperties contract.
    let created = call::create(entry, || unsafe {
        let request = request(flags, image_format, image_desc.cast())?;
        create(context, properties, request, host_ptr)
    });
    // SAFETY: errcode_ret is the application's, NULL or a cl_int.
    unsafe { created.report(errcode_ret) }
}

/// The request of the 1.1 entry points, which know no arrays or buffers
/// and call a zero size `CL_INVALID_IMAGE_SIZE`.
fn legacy_request(
    flags: cl_mem_flags,
    format: Option<(u32, u32)>,
    image_type: cl_mem_object_type,
    [width, height, depth]: [usize; 3],
    [row_pitch, slice_pitch]: [usize; 2],
) -> CLResult<ImageRequest> {
    let flat = image_type == CL_MEM_OBJECT_IMAGE2D;
    if width == 0 || height == 0 || (!flat && depth <= 1) {
        return Err(CL_INVALID_IMAGE_SIZE);
    }
    Ok(ImageRequest {
        flags,
        format,
        image_type,
        width,
        height,
        depth,
        array_size: 0,
        row_pitch,
        slice_pitch,
        num_mip_levels: 0,
        num_samples: 0,
        buffer: None,
        has_host_ptr: false,
    })
}

pub(crate) unsafe extern "C" fn create_image_2d(
    context: cl_context,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_width: usize,
    image_height: usize,
    image_row_pitch: usize,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    let entry = entry!(
        "clCreateImage2D" -> Mem,
        context: context,
        flags: mem_flags,
        image_format: pointer,
        image_width: size,
        image_height: size,
        image_row_pitch: size,
        host_ptr: pointer,
        errcode_ret: pointer,
    );
    // SAFETY: the application's arguments, per the clCreateImage2D contract.
    let created = call::create(entry, || unsafe {
        // The context is checked before the sizes.
        handle::object::<Context>(context)?;
        let request = legacy_request(
            flags,
            read_format(image_format),
            CL_MEM_OBJECT_IMAGE2D,
            [image_width, image_height, 1],
            [image_row_pitch, 0],
        )?;
        create(context, std::ptr::null(), request, host_ptr)
    });
    // SAFETY: errcode_ret is the application's, NULL or a cl_int.
    unsafe { created.report(errcode_ret) }
}

pub(crate) unsafe extern "C" fn create_image_3d(
    context: cl_context,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_width: usize,
    image_height: usize,
    image_depth: usize,
    image_row_pitch: usize,
    image_slice_pitch: usize,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    let entry = entry!(
        "clCreateImage3D" -> Mem,
        context: context,
        flags: mem_flags,
        image_format: pointer,
        image_width: size,
        image_height: size,
        image_depth: size,
        image_row_pitch: size,
        image_slice_pitch: size,
        host_ptr: pointer,
        errcode_ret: pointer,
    );
    // SAFETY: the application's arguments, per the clCreateImage3D contract.
    let created = call::create(entry, || unsafe {
        handle::object::<Context>(context)?;
        let request = legacy_request(
            flags,
            read_format(image_format),
            CL_MEM_OBJECT_IMAGE3D,
            [image_width, image_height, image_depth],
            [image_row_pitch, image_slice_pitch],
        )?;
        create(context, std::ptr::null(), request, host_ptr)
    });
    // SAFETY: errcode_ret is the application's, NULL or a cl_int.
    unsafe { created.report(errcode_ret) }
}

/// The formats every device of `context` supports for `flags` and
/// `image_type`; none in a context of several devices, where images are
/// not supported yet.
fn supported_formats(
    context: &Context,
    flags: cl_mem_flags,
    image_type: cl_mem_object_type,
) -> Vec<cl_image_format> {
    let [device] = context.devices() else {
        return Vec::new();
    };
    image_format::all()
        .filter(|format| image::device_supports(device, format, image_type, flags))
        .map(|format| cl_image_format {
            image_channel_order: format.order,
            image_channel_data_type: format.data_type,
        })
        .collect()
}

pub(crate) unsafe extern "C" fn get_supported_image_formats(
    context: cl_context,
    flags: cl_mem_flags,
    image_type: cl_mem_object_type,
    num_entries: cl_uint,
    image_formats: *mut cl_image_format,
    num_image_formats: *mut cl_uint,
) -> cl_int {
    let entry = entry!(
        "clGetSupportedImageFormats",
        context: context,
        flags: mem_flags,
        image_type: unsigned,
        num_entries: unsigned,
        image_formats: pointer,
        num_image_formats: out_count,
    );
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let context = unsafe { handle::object::<Context>(context)? };
        let known_flags = CL_MEM_READ_WRITE
            | CL_MEM_WRITE_ONLY
            | CL_MEM_READ_ONLY
            | CL_MEM_KERNEL_READ_AND_WRITE
            | CL_MEM_USE_HOST_PTR
            | CL_MEM_ALLOC_HOST_PTR
            | CL_MEM_COPY_HOST_PTR
            | CL_MEM_HOST_WRITE_ONLY
            | CL_MEM_HOST_READ_ONLY
            | CL_MEM_HOST_NO_ACCESS;
        let image_types = [
            CL_MEM_OBJECT_IMAGE1D,
            CL_MEM_OBJECT_IMAGE1D_ARRAY,
            CL_MEM_OBJECT_IMAGE1D_BUFFER,
            CL_MEM_OBJECT_IMAGE2D,
            CL_MEM_OBJECT_IMAGE2D_ARRAY,
            CL_MEM_OBJECT_IMAGE3D,
        ];
        if flags & !known_flags != 0
            || !image_types.contains(&image_type)
            || (num_entries == 0 && !image_formats.is_null())
        {
            return Err(CL_INVALID_VALUE);
        }
        let formats = supported_formats(&context, flags, image_type);
        if !image_formats.is_null() {
            for (index, format) in formats.iter().take(num_entries as usize).enumerate() {
                // SAFETY: the application's array of num_entries formats.
                unsafe { image_formats.add(index).write_unaligned(*format) };
            }
        }
        // SAFETY: NULL or a cl_uint, per the spec.
        unsafe { write_if_not_null(num_image_formats, formats.len() as cl_uint) };
        Ok(())
    })
}

fn image_info(mem: &Object<Mem>, param_name: cl_image_info) -> CLResult<InfoValue> {
    let parts = image::parts(mem)?;
    let description = &parts.description;
    let uses_host = mem.flags() & CL_MEM_USE_HOST_PTR != 0;
    let t = description.image_type;
    let used = |used: bool, value: usize| if used { value } else { 0 };
    Ok(match param_name {
        CL_IMAGE_FORMAT => {
            InfoValue::array(&[description.format.order, description.format.data_type])
        }
        CL_IMAGE_ELEMENT_SIZE => InfoValue::scalar(description.format.element_size),
        CL_IMAGE_ROW_PITCH => InfoValue::scalar(if uses_host {
            parts.host_row_pitch
        } else {
            description.row_pitch()
        }),
        CL_IMAGE_SLICE_PITCH => InfoValue::scalar(match description.slice_pitch() {
            0 => 0,
            _ if uses_host => parts.host_slice_pitch,
            packed => packed,
        }),
        CL_IMAGE_WIDTH => InfoValue::scalar(description.width),
        CL_IMAGE_HEIGHT => InfoValue::scalar(used(
            matches!(
                t,
                CL_MEM_OBJECT_IMAGE2D | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D
            ),
            description.height,
        )),
        CL_IMAGE_DEPTH => InfoValue::scalar(used(t == CL_MEM_OBJECT_IMAGE3D, description.depth)),
        CL_IMAGE_ARRAY_SIZE => InfoValue::scalar(used(
            matches!(t, CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY),
            description.array_size,
        )),
        CL_IMAGE_BUFFER => InfoValue::handle(parts.buffer.as_deref()),
        CL_IMAGE_NUM_MIP_LEVELS | CL_IMAGE_NUM_SAMPLES => InfoValue::scalar::<cl_uint>(0),
        _ => return Err(CL_INVALID_VALUE),
    })
}

pub(crate) unsafe extern "C" fn get_image_info(
    image: cl_mem,
    param_name: cl_image_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    let entry = entry!(
        "clGetImageInfo",
        image: mem,
        param_name: info,
        param_value_size: size,
        param_value: pointer,
        param_value_size_ret: pointer,
    );
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let mem = unsafe { handle::object::<Mem>(image)? };
        let value = image_info(&mem, param_name)?;
        // SAFETY: the application's buffers, per the clGetImageInfo contract.
        unsafe { write_info(&value, param_value_size, param_value, param_value_size_ret) }
    })
}
