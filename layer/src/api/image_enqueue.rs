//! The `clEnqueue*` entry points for images: read, write, copy, fill,
//! copies to and from buffers, and map (unmap is
//! `clEnqueueUnmapMemObject`, shared with buffers).

use std::ffi::c_void;

use opencl_sys::{
    cl_bool, cl_command_queue, cl_event, cl_int, cl_map_flags, cl_mem, cl_uint,
    CL_COMMAND_READ_IMAGE, CL_COMMAND_WRITE_IMAGE, CL_FALSE, CL_INVALID_VALUE,
    CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D,
    CL_MEM_USE_HOST_PTR,
};

use crate::api::call;
use crate::api::enqueue::{hand_out, mem, queue, wait_list};
use crate::api::host::HostSlice;
use crate::api::trace::entry;
use crate::core::enqueue;
use crate::core::image::{self, ImageParts};
use crate::core::map::{self, ImageMap, MapMemory};
use crate::core::CLResult;

/// # Safety
/// `values` is NULL or holds three values.
unsafe fn triple(values: *const usize) -> CLResult<[usize; 3]> {
    if values.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    // SAFETY: the caller's contract.
    Ok(unsafe { [0, 1, 2].map(|i| values.add(i).read_unaligned()) })
}

pub(crate) unsafe extern "C" fn enqueue_read_image(
    command_queue: cl_command_queue,
    image: cl_mem,
    blocking_read: cl_bool,
    origin: *const usize,
    region: *const usize,
    row_pitch: usize,
    slice_pitch: usize,
    ptr: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    let entry = entry!(
        "clEnqueueReadImage",
        command_queue: queue,
        image: mem,
        blocking_read: boolean,
        origin: sizes(3),
        region: sizes(3),
        row_pitch: size,
        slice_pitch: size,
        ptr: pointer,
        num_events_in_wait_list: unsigned,
        event_wait_list: events(num_events_in_wait_list),
        event: new_event,
    );
    call::status(entry, || {
        // SAFETY: the application's arguments, per the clEnqueueReadImage
        // contract: handles are checked, origin and region hold three
        // values, ptr is writable as far as the pitches reach until the
        // read completes, event pointers as specified.
        unsafe {
            let (queue, image) = (queue(command_queue)?, mem(image)?);
            let waits = wait_list(num_events_in_wait_list, event_wait_list)?;
            enqueue::check_context(&queue, &[image.context()], &waits)?;
            let description = image::parts(&image)?.description;
            let region = description.region(triple(origin)?, triple(region)?)?;
            let (layout, side) = description.host_side(&region, row_pitch, slice_pitch)?;
            if ptr.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            image.check_host_can_read()?;
            let length = image::host_extent(&side, layout)?;
            let destination = Box::new(HostSlice::new(ptr, length)?);
            let done = image::read_image_as(
                CL_COMMAND_READ_IMAGE,
                &queue,
                &image,
                blocking_read != CL_FALSE,
                region,
                (layout, side),
                destination,
                &waits,
            )?;
            hand_out(event, done);
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn enqueue_write_image(
    command_queue: cl_command_queue,
    image: cl_mem,
    blocking_write: cl_bool,
    origin: *const usize,
    region: *const usize,
    input_row_pitch: usize,
    input_slice_pitch: usize,
    ptr: *const c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    let entry = entry!(
        "clEnqueueWriteImage",
        command_queue: queue,
        image: mem,
        blocking_write: boolean,
        origin: sizes(3),
        region: sizes(3),
        input_row_pitch: size,
        input_slice_pitch: size,
        ptr: pointer,
        num_events_in_wait_list: unsigned,
        event_wait_list: events(num_events_in_wait_list),
        event: new_event,
    );
    call::status(entry, || {
        // SAFETY: the application's arguments, per the clEnqueueWriteImage
        // contract: handles are checked, origin and region hold three
        // values, ptr is readable as far as the pitches reach (taken
        // before this returns), event pointers as specified.
        unsafe {
            let (queue, image) = (queue(command_queue)?, mem(image)?);
            let waits = wait_list(num_events_in_wait_list, event_wait_list)?;
            enqueue::check_context(&queue, &[image.context()], &waits)?;
            let description = image::parts(&image)?.description;
            let region = description.region(triple(origin)?, triple(region)?)?;
            let (layout, side) =
                description.host_side(&region, input_row_pitch, input_slice_pitch)?;
            if ptr.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            image.check_host_can_write()?;
            let length = image::host_extent(&side, layout)?;
            let source = Box::new(HostSlice::source(ptr, length)?);
            let done = image::write_image_as(
                CL_COMMAND_WRITE_IMAGE,
                &queue,
                &image,
                blocking_write != CL_FALSE,
                region,
                (layout, side),
                source,
                &waits,
            )?;
            hand_out(event, done);
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn enqueue_copy_image(
    command_queue: cl_command_queue,
    src_image: cl_mem,
    dst_image: cl_mem,
    src_origin: *const usize,
    dst_origin: *const usize,
    region: *const usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    let entry = entry!(
        "clEnqueueCopyImage",
        command_queue: queue,
        src_image: mem,
        dst_image: mem,
        src_origin: sizes(3),
        dst_origin: sizes(3),
        region: sizes(3),
        num_events_in_wait_list: unsigned,
        event_wait_list: events(num_events_in_wait_list),
        event: new_event,
    );
    call::status(entry, || {
        // SAFETY: the application's arguments, per the clEnqueueCopyImage
        // contract: handles are checked, the arrays hold three values,
        // event pointers as specified.
        unsafe {
            let queue = queue(command_queue)?;
            let (src, dst) = (mem(src_image)?, mem(dst_image)?);
            let waits = wait_list(num_events_in_wait_list, event_wait_list)?;
            enqueue::check_context(&queue, &[src.context(), dst.context()], &waits)?;
            let done = image::copy_image(
                &queue,
                (&src, triple(src_origin)?),
                (&dst, triple(dst_origin)?),
                triple(region)?,
                &waits,
            )?;
            hand_out(event, done);
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn enqueue_fill_image(
    command_queue: cl_command_queue,
    image: cl_mem,
    fill_color: *const c_void,
    origin: *const usize,
    region: *const usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    let entry = entry!(
        "clEnqueueFillImage",
        command_queue: queue,
        image: mem,
        fill_color: pointer,
        origin: sizes(3),
        region: sizes(3),
        num_events_in_wait_list: unsigned,
        event_wait_list: events(num_events_in_wait_list),
        event: new_event,
    );
    call::status(entry, || {
        // SAFETY: the application's arguments, per the clEnqueueFillImage
        // contract: handles are checked, fill_color points to a four
        // component colour (16 bytes), the arrays hold three values,
        // event pointers as specified.
        unsafe {
            let (queue, image) = (queue(command_queue)?, mem(image)?);
            let waits = wait_list(num_events_in_wait_list, event_wait_list)?;
            enqueue::check_context(&queue, &[image.context()], &waits)?;
            image::parts(&image)?;
            if fill_color.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            let color = fill_color.cast::<[u8; 16]>().read_unaligned();
            let done = image::fill_image(
                &queue,
                &image,
                color,
                triple(origin)?,
                triple(region)?,
                &waits,
            )?;
            hand_out(event, done);
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn enqueue_copy_image_to_buffer(
    command_queue: cl_command_queue,
    src_image: cl_mem,
    dst_buffer: cl_mem,
    src_origin: *const usize,
    region: *const usize,
    dst_offset: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    let entry = entry!(
        "clEnqueueCopyImageToBuffer",
        command_queue: queue,
        src_image: mem,
        dst_buffer: mem,
        src_origin: sizes(3),
        region: sizes(3),
        dst_offset: size,
        num_events_in_wait_list: unsigned,
        event_wait_list: events(num_events_in_wait_list),
        event: new_event,
    );
    call::status(entry, || {
        // SAFETY: the application's arguments, per the
        // clEnqueueCopyImageToBuffer contract: handles are checked, the
        // arrays hold three values, event pointers as specified.
        unsafe {
            let queue = queue(command_queue)?;
            let (src, dst) = (mem(src_image)?, mem(dst_buffer)?);
            let waits = wait_list(num_events_in_wait_list, event_wait_list)?;
            enqueue::check_context(&queue, &[src.context(), dst.context()], &waits)?;
            if dst.image().is_some() {
                return Err(opencl_sys::CL_INVALID_MEM_OBJECT);
            }
            let done = image::copy_image_to_buffer(
                &queue,
                (&src, triple(src_origin)?, triple(region)?),
                (&dst, dst_offset),
                &waits,
            )?;
            hand_out(event, done);
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn enqueue_copy_buffer_to_image(
    command_queue: cl_command_queue,
    src_buffer: cl_mem,
    dst_image: cl_mem,
    src_offset: usize,
    dst_origin: *const usize,
    region: *const usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    let entry = entry!(
        "clEnqueueCopyBufferToImage",
        command_queue: queue,
        src_buffer: mem,
        dst_image: mem,
        src_offset: size,
        dst_origin: sizes(3),
        region: sizes(3),
        num_events_in_wait_list: unsigned,
        event_wait_list: events(num_events_in_wait_list),
        event: new_event,
    );
    call::status(entry, || {
        // SAFETY: the application's arguments, per the
        // clEnqueueCopyBufferToImage contract: handles are checked, the
        // arrays hold three values, event pointers as specified.
        unsafe {
            let queue = queue(command_queue)?;
            let (src, dst) = (mem(src_buffer)?, mem(dst_image)?);
            let waits = wait_list(num_events_in_wait_list, event_wait_list)?;
            enqueue::check_context(&queue, &[src.context(), dst.context()], &waits)?;
            if src.image().is_some() {
                return Err(opencl_sys::CL_INVALID_MEM_OBJECT);
            }
            let done = image::copy_buffer_to_image(
                &queue,
                (&src, src_offset),
                (&dst, triple(dst_origin)?, triple(region)?),
                &waits,
            )?;
            hand_out(event, done);
        }
        Ok(())
    })
}

/// Whether the image type has slices (and so a slice pitch).
fn has_slices(parts: &ImageParts) -> bool {
    matches!(
        parts.description.image_type,
        CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D
    )
}

pub(crate) unsafe extern "C" fn enqueue_map_image(
    command_queue: cl_command_queue,
    image: cl_mem,
    blocking_map: cl_bool,
    map_flags: cl_map_flags,
    origin: *const usize,
    region: *const usize,
    image_row_pitch: *mut usize,
    image_slice_pitch: *mut usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    let entry = entry!(
        "clEnqueueMapImage",
        command_queue: queue,
        image: mem,
        blocking_map: boolean,
        map_flags: map_flags,
        origin: sizes(3),
        region: sizes(3),
        image_row_pitch: pointer,
        image_slice_pitch: pointer,
        num_events_in_wait_list: unsigned,
        event_wait_list: events(num_events_in_wait_list),
        event: new_event,
        errcode_ret: pointer,
    );
    let mapped = call::create(entry, || {
        // SAFETY: the application's arguments, per the clEnqueueMapImage
        // contract: handles are checked, the arrays hold three values, the
        // pitch pointers are NULL or writable, a USE_HOST_PTR image's
        // host_ptr stays valid as far as its pitches reach while the image
        // lives, event pointers as specified.
        unsafe {
            let (queue, image) = (queue(command_queue)?, mem(image)?);
            let waits = wait_list(num_events_in_wait_list, event_wait_list)?;
            enqueue::check_context(&queue, &[image.context()], &waits)?;
            let parts = image::parts(&image)?;
            let description = parts.description;
            let region = description.region(triple(origin)?, triple(region)?)?;
            if image_row_pitch.is_null() || (has_slices(parts) && image_slice_pitch.is_null()) {
                return Err(CL_INVALID_VALUE);
            }
            let (memory, layout, side) = if image.flags() & CL_MEM_USE_HOST_PTR != 0 {
                // The region where it lies in host_ptr, at the creation pitches.
                let (layout, side) =
                    description.host_side(&region, parts.host_row_pitch, parts.host_slice_pitch)?;
                let start = region.offset[0] as usize * description.format.element_size
                    + region.offset[1] as usize * side.row_pitch
                    + (region.offset[2] + region.first_layer) as usize * side.slice_pitch;
                let at = (image.host_ptr() as *mut u8).wrapping_add(start);
                let length = image::host_extent(&side, layout)?;
                let memory = MapMemory::host(Box::new(HostSlice::new(at.cast(), length)?));
                (memory, layout, side)
            } else {
                let (layout, side) = description.host_side(&region, 0, 0)?;
                let length = image::host_extent(&side, layout)?;
                (MapMemory::owned(length), layout, side)
            };
            let map = ImageMap {
                region,
                layout,
                side,
            };
            let blocking = blocking_map != CL_FALSE;
            let (address, done) =
                map::map_image(&queue, &image, blocking, map_flags, map, memory, &waits)?;
            call::write_if_not_null(image_row_pitch, side.row_pitch);
            let slice_pitch = if has_slices(parts) {
                side.slice_pitch
            } else {
                0
            };
            call::write_if_not_null(image_slice_pitch, slice_pitch);
            hand_out(event, done);
            Ok(address as *mut c_void)
        }
    });
    // SAFETY: errcode_ret is the application's, NULL or a cl_int.
    unsafe { mapped.report(errcode_ret) }
}
