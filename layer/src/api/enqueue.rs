//! The `clEnqueue*` entry points for buffers, kernels, markers and
//! barriers: the C-side argument checks, wait lists and returned events.

use std::ffi::c_void;
use std::sync::Arc;

use opencl_sys::{
    cl_bool, cl_command_queue, cl_event, cl_int, cl_kernel, cl_map_flags, cl_mem,
    cl_mem_migration_flags, cl_uint, CL_COMMAND_BARRIER, CL_COMMAND_MARKER,
    CL_COMMAND_NDRANGE_KERNEL, CL_COMMAND_TASK, CL_FALSE, CL_INVALID_EVENT,
    CL_INVALID_EVENT_WAIT_LIST, CL_INVALID_MEM_OBJECT, CL_INVALID_VALUE, CL_INVALID_WORK_DIMENSION,
    CL_MEM_USE_HOST_PTR, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, CL_MIGRATE_MEM_OBJECT_HOST,
};

use crate::api::call;
use crate::api::handle;
use crate::api::host::HostSlice;
use crate::api::trace::entry;
use crate::core::enqueue::{self, CopyRegion};
use crate::core::event::Event;
use crate::core::kernel::Kernel;
use crate::core::map::{self, MapMemory};
use crate::core::memory::Mem;
use crate::core::ndrange::NdRange;
use crate::core::object::Object;
use crate::core::queue::Queue;
use crate::core::rect::{self, RectSide};
use crate::core::CLResult;

type Events = Vec<Arc<Object<Event>>>;

/// The wait list: "CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and
/// num_events_in_wait_list > 0, or event_wait_list is not NULL and
/// num_events_in_wait_list is 0, or if event objects in event_wait_list are
/// not valid events."
///
/// # Safety
/// `list` is NULL or holds `count` handles.
pub(crate) unsafe fn wait_list(count: cl_uint, list: *const cl_event) -> CLResult<Events> {
    if (count == 0) != list.is_null() {
        return Err(CL_INVALID_EVENT_WAIT_LIST);
    }
    // SAFETY: the caller's contract.
    unsafe { handle::arcs::<Event>(list.cast(), count as usize, CL_INVALID_EVENT_WAIT_LIST) }
}

/// Gives the command's event to the application if it asked for one;
/// otherwise `event` is dropped here, and the references the queue holds
/// while the command runs are all that remain.
///
/// # Safety
/// `out` is NULL or valid for writing a `cl_event`.
pub(crate) unsafe fn hand_out(out: *mut cl_event, event: Arc<Object<Event>>) {
    if !out.is_null() {
        // SAFETY: the caller's contract.
        unsafe { out.write_unaligned(handle::into_handle(event)) };
    }
}

/// # Safety
/// A handle from the application.
pub(crate) unsafe fn queue(queue: cl_command_queue) -> CLResult<Arc<Object<Queue>>> {
    // SAFETY: the caller's contract; checked before use.
    unsafe { handle::arc::<Queue>(queue) }
}

/// # Safety
/// A handle from the application.
pub(crate) unsafe fn mem(mem: cl_mem) -> CLResult<Arc<Object<Mem>>> {
    // SAFETY: the caller's contract; checked before use.
    unsafe { handle::arc::<Mem>(mem) }
}

pub(crate) unsafe extern "C" fn enqueue_read_buffer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_read: cl_bool,
    offset: usize,
    size: usize,
    ptr: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    let entry = entry!(
        "clEnqueueReadBuffer",
        command_queue: queue,
        buffer: mem,
        blocking_read: boolean,
        offset: size,
        size: size,
        ptr: pointer,
        num_events_in_wait_list: unsigned,
        event_wait_list: events(num_events_in_wait_list),
        event: new_event,
    );
    call::status(entry, || {
        // SAFETY: the application's arguments, per the clEnqueueReadBuffer
        // contract: handles are checked, ptr holds size writable bytes until
        // the read completes, and the event pointers are as the spec says.
        unsafe {
            let (queue, buffer) = (queue(command_queue)?, mem(buffer)?);
            let waits = wait_list(num_events_in_wait_list, event_wait_list)?;
            enqueue::check_context(&queue, &[buffer.context()], &waits)?;
            if ptr.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            buffer.check_range(offset, size)?;
            let destination = Box::new(HostSlice::new(ptr, size)?);
            let blocking = blocking_read != CL_FALSE;
            let done =
                enqueue::read_buffer(&queue, &buffer, blocking, offset, destination, &waits)?;
            hand_out(event, done);
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn enqueue_map_buffer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_map: cl_bool,
    map_flags: cl_map_flags,
    offset: usize,
    size: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    let entry = entry!(
        "clEnqueueMapBuffer",
        command_queue: queue,
        buffer: mem,
        blocking_map: boolean,
        map_flags: map_flags,
        offset: size,
        size: size,
        num_events_in_wait_list: unsigned,
        event_wait_list: events(num_events_in_wait_list),
        event: new_event,
        errcode_ret: pointer,
    );
    let mapped = call::create(entry, || {
        // SAFETY: the application's arguments, per the clEnqueueMapBuffer
        // contract: handles are checked, the event pointers are as the spec
        // says, and a USE_HOST_PTR buffer's host_ptr stays valid for its
        // size while the buffer lives.
        unsafe {
            let (queue, buffer) = (queue(command_queue)?, mem(buffer)?);
            let waits = wait_list(num_events_in_wait_list, event_wait_list)?;
            enqueue::check_context(&queue, &[buffer.context()], &waits)?;
            let memory = if buffer.flags() & CL_MEM_USE_HOST_PTR != 0 {
                buffer.check_range(offset, size)?;
                let region = (buffer.host_ptr() as *mut u8).wrapping_add(offset);
                MapMemory::host(Box::new(HostSlice::new(region.cast(), size)?))
            } else {
                buffer.check_range(offset, size)?;
                MapMemory::owned(size)
            };
            let blocking = blocking_map != CL_FALSE;
            let (address, done) = map::map_buffer(
                &queue, &buffer, blocking, map_flags, offset, size, memory, &waits,
            )?;
            hand_out(event, done);
            Ok(address as *mut c_void)
        }
    });
    // SAFETY: errcode_ret is the application's, NULL or a cl_int.
    unsafe { mapped.report(errcode_ret) }
}

pub(crate) unsafe extern "C" fn enqueue_unmap_mem_object(
    command_queue: cl_command_queue,
    memobj: cl_mem,
    mapped_ptr: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    let entry = entry!(
        "clEnqueueUnmapMemObject",
        command_queue: queue,
        memobj: mem,
        mapped_ptr: pointer,
        num_events_in_wait_list: unsigned,
        event_wait_list: events(num_events_in_wait_list),
        event: new_event,
    );
    call::status(entry, || {
        // SAFETY: the application's arguments, per the
        // clEnqueueUnmapMemObject contract: handles are checked; mapped_ptr
        // is only compared with the addresses of the buffer's mappings.
        unsafe {
            let (queue, buffer) = (queue(command_queue)?, mem(memobj)?);
            let waits = wait_list(num_events_in_wait_list, event_wait_list)?;
            enqueue::check_context(&queue, &[buffer.context()], &waits)?;
            let done = map::unmap(&queue, &buffer, mapped_ptr as usize, &waits)?;
            hand_out(event, done);
        }
        Ok(())
    })
}

/// The three `usize`s at `p` (an origin or region of a rect transfer).
///
/// # Safety
/// `p` is NULL or points to three `usize`s.
unsafe fn triple(p: *const usize) -> CLResult<[usize; 3]> {
    if p.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    // SAFETY: the caller's contract.
    Ok(unsafe { p.cast::<[usize; 3]>().read_unaligned() })
}

/// The region and both sides of a rect transfer, pitches defaulted and
/// checked.
///
/// # Safety
/// Each pointer is NULL or points to three `usize`s.
unsafe fn rect_sides(
    (first_origin, first_row_pitch, first_slice_pitch): (*const usize, usize, usize),
    (second_origin, second_row_pitch, second_slice_pitch): (*const usize, usize, usize),
    region: *const usize,
) -> CLResult<(RectSide, RectSide, [usize; 3])> {
    // SAFETY: the caller's contract.
    let (region, first_origin, second_origin) = unsafe {
        (
            triple(region)?,
            triple(first_origin)?,
            triple(second_origin)?,
        )
    };
    let first = RectSide {
        origin: first_origin,
        row_pitch: first_row_pitch,
        slice_pitch: first_slice_pitch,
    }
    .resolve(region)?;
    let second = RectSide {
        origin: second_origin,
        row_pitch: second_row_pitch,
        slice_pitch: second_slice_pitch,
    }
    .resolve(region)?;
    Ok((first, second, region))
}

/// The host bytes a rect transfer touches: from the host side's first
/// byte to its last.
fn host_span(host: &RectSide, region: [usize; 3]) -> CLResult<(usize, usize)> {
    let end = host.end(region).ok_or(CL_INVALID_VALUE)?;
    Ok((host.start(), end - host.start()))
}

pub(crate) unsafe extern "C" fn enqueue_read_buffer_rect(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_read: cl_bool,
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    buffer_row_pitch: usize,
    buffer_slice_pitch: usize,
    host_row_pitch: usize,
    host_slice_pitch: usize,
    ptr: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    let entry = entry!(
        "clEnqueueReadBufferRect",
        command_queue: queue,
        buffer: mem,
        blocking_read: boolean,
        buffer_origin: sizes(3),
        host_origin: sizes(3),
        region: sizes(3),
        buffer_row_pitch: size,
        buffer_slice_pitch: size,
        host_row_pitch: size,
        host_slice_pitch: size,
        ptr: pointer,
        num_events_in_wait_list: unsigned,
        event_wait_list: events(num_events_in_wait_list),
        event: new_event,
    );
    call::status(entry, || {
        // SAFETY: the application's arguments, per the
        // clEnqueueReadBufferRect contract: handles are checked, the three
        // arrays hold three values, ptr is writable over the host
        // rectangle until the read completes, event pointers as specified.
        unsafe {
            let (queue, buffer) = (queue(command_queue)?, mem(buffer)?);
            let waits = wait_list(num_events_in_wait_list, event_wait_list)?;
            enqueue::check_context(&queue, &[buffer.context()], &waits)?;
            let (on_buffer, on_host, region) = rect_sides(
                (buffer_origin, buffer_row_pitch, buffer_slice_pitch),
                (host_origin, host_row_pitch, host_slice_pitch),
                region,
            )?;
            if ptr.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            let (start, length) = host_span(&on_host, region)?;
            let at = ptr.cast::<u8>().wrapping_add(start);
            let destination = Box::new(HostSlice::new(at.cast(), length)?);
            let done = rect::read_buffer_rect(
                &queue,
                &buffer,
                blocking_read != CL_FALSE,
                on_buffer,
                on_host,
                region,
                destination,
                &waits,
            )?;
            hand_out(event, done);
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn enqueue_write_buffer_rect(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_write: cl_bool,
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    buffer_row_pitch: usize,
    buffer_slice_pitch: usize,
    host_row_pitch: usize,
    host_slice_pitch: usize,
    ptr: *const c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    let entry = entry!(
        "clEnqueueWriteBufferRect",
        command_queue: queue,
        buffer: mem,
        blocking_write: boolean,
        buffer_origin: sizes(3),
        host_origin: sizes(3),
        region: sizes(3),
        buffer_row_pitch: size,
        buffer_slice_pitch: size,
        host_row_pitch: size,
        host_slice_pitch: size,
        ptr: pointer,
        num_events_in_wait_list: unsigned,
        event_wait_list: events(num_events_in_wait_list),
        event: new_event,
    );
    call::status(entry, || {
        // SAFETY: the application's arguments, per the
        // clEnqueueWriteBufferRect contract: handles are checked, the three
        // arrays hold three values, ptr is readable over the host rectangle
        // (copied before this returns), event pointers as specified.
        unsafe {
            let (queue, buffer) = (queue(command_queue)?, mem(buffer)?);
            let waits = wait_list(num_events_in_wait_list, event_wait_list)?;
            enqueue::check_context(&queue, &[buffer.context()], &waits)?;
            let (on_buffer, on_host, region) = rect_sides(
                (buffer_origin, buffer_row_pitch, buffer_slice_pitch),
                (host_origin, host_row_pitch, host_slice_pitch),
                region,
            )?;
            if ptr.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            let (start, length) = host_span(&on_host, region)?;
            let at = ptr.cast::<u8>().wrapping_add(start);
            let source = Box::new(HostSlice::source(at.cast(), length)?);
            let done = rect::write_buffer_rect(
                &queue,
                &buffer,
                blocking_write != CL_FALSE,
                on_buffer,
                on_host,
                region,
                source,
                &waits,
            )?;
            hand_out(event, done);
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn enqueue_copy_buffer_rect(
    command_queue: cl_command_queue,
    src_buffer: cl_mem,
    dst_buffer: cl_mem,
    src_origin: *const usize,
    dst_origin: *const usize,
    region: *const usize,
    src_row_pitch: usize,
    src_slice_pitch: usize,
    dst_row_pitch: usize,
    dst_slice_pitch: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    let entry = entry!(
        "clEnqueueCopyBufferRect",
        command_queue: queue,
        src_buffer: mem,
        dst_buffer: mem,
        src_origin: sizes(3),
        dst_origin: sizes(3),
        region: sizes(3),
        src_row_pitch: size,
        src_slice_pitch: size,
        dst_row_pitch: size,
        dst_slice_pitch: size,
        num_events_in_wait_list: unsigned,
        event_wait_list: events(num_events_in_wait_list),
        event: new_event,
    );
    call::status(entry, || {
        // SAFETY: the application's arguments, per the
        // clEnqueueCopyBufferRect contract: handles are checked, the three
        // arrays hold three values, event pointers as specified.
        unsafe {
            let queue = queue(command_queue)?;
            let (src, dst) = (mem(src_buffer)?, mem(dst_buffer)?);
            let waits = wait_list(num_events_in_wait_list, event_wait_list)?;
            enqueue::check_context(&queue, &[src.context(), dst.context()], &waits)?;
            let (src_side, dst_side, region) = rect_sides(
                (src_origin, src_row_pitch, src_slice_pitch),
                (dst_origin, dst_row_pitch, dst_slice_pitch),
                region,
            )?;
            let done =
                rect::copy_buffer_rect(&queue, (&src, src_side), (&dst, dst_side), region, &waits)?;
            hand_out(event, done);
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn enqueue_write_buffer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_write: cl_bool,
    offset: usize,
    size: usize,
    ptr: *const c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    let entry = entry!(
        "clEnqueueWriteBuffer",
        command_queue: queue,
        buffer: mem,
        blocking_write: boolean,
        offset: size,
        size: size,
        ptr: pointer,
        num_events_in_wait_list: unsigned,
        event_wait_list: events(num_events_in_wait_list),
        event: new_event,
    );
    call::status(entry, || {
        // SAFETY: the application's arguments, per the clEnqueueWriteBuffer
        // contract: handles are checked, ptr holds size readable bytes (it
        // is copied before this call returns), event pointers as specified.
        unsafe {
            let (queue, buffer) = (queue(command_queue)?, mem(buffer)?);
            let waits = wait_list(num_events_in_wait_list, event_wait_list)?;
            enqueue::check_context(&queue, &[buffer.context()], &waits)?;
            if ptr.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            buffer.check_range(offset, size)?;
            let source = Box::new(HostSlice::source(ptr, size)?);
            let blocking = blocking_write != CL_FALSE;
            let done = enqueue::write_buffer(&queue, &buffer, blocking, offset, source, &waits)?;
            hand_out(event, done);
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn enqueue_copy_buffer(
    command_queue: cl_command_queue,
    src_buffer: cl_mem,
    dst_buffer: cl_mem,
    src_offset: usize,
    dst_offset: usize,
    size: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    let entry = entry!(
        "clEnqueueCopyBuffer",
        command_queue: queue,
        src_buffer: mem,
        dst_buffer: mem,
        src_offset: size,
        dst_offset: size,
        size: size,
        num_events_in_wait_list: unsigned,
        event_wait_list: events(num_events_in_wait_list),
        event: new_event,
    );
    call::status(entry, || {
        // SAFETY: handles checked before use; wait list and event pointers
        // as the spec says.
        unsafe {
            let queue = queue(command_queue)?;
            let (src, dst) = (mem(src_buffer)?, mem(dst_buffer)?);
            let waits = wait_list(num_events_in_wait_list, event_wait_list)?;
            enqueue::check_context(&queue, &[src.context(), dst.context()], &waits)?;
            let region = CopyRegion {
                src_offset,
                dst_offset,
                size,
            };
            hand_out(
                event,
                enqueue::copy_buffer(&queue, &src, &dst, region, &waits)?,
            );
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn enqueue_fill_buffer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    pattern: *const c_void,
    pattern_size: usize,
    offset: usize,
    size: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    let entry = entry!(
        "clEnqueueFillBuffer",
        command_queue: queue,
        buffer: mem,
        pattern: pointer,
        pattern_size: size,
        offset: size,
        size: size,
        num_events_in_wait_list: unsigned,
        event_wait_list: events(num_events_in_wait_list),
        event: new_event,
    );
    call::status(entry, || {
        // SAFETY: handles checked before use; pattern holds pattern_size
        // bytes (copied before returning); wait list and event as specified.
        unsafe {
            let (queue, buffer) = (queue(command_queue)?, mem(buffer)?);
            let waits = wait_list(num_events_in_wait_list, event_wait_list)?;
            enqueue::check_context(&queue, &[buffer.context()], &waits)?;
            if pattern.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            let pattern = call::slice(pattern.cast::<u8>(), pattern_size)?;
            hand_out(
                event,
                enqueue::fill_buffer(&queue, &buffer, pattern, offset, size, &waits)?,
            );
        }
        Ok(())
    })
}

/// Enqueues a kernel over `range`.
fn launch(
    queue: &Arc<Object<Queue>>,
    kernel: &Object<Kernel>,
    range: &NdRange,
    waits: &[Arc<Object<Event>>],
    command_type: opencl_sys::cl_command_type,
) -> CLResult<Arc<Object<Event>>> {
    let (recipe, print) = kernel.launch_recipe(queue.device(), range)?;
    queue.enqueue(command_type, waits, recipe, print)
}

/// # Safety
/// `values` is NULL or holds `work_dim` elements.
unsafe fn dimensions(values: *const usize, work_dim: usize, unused: usize) -> Option<[usize; 3]> {
    if values.is_null() {
        return None;
    }
    let mut out = [unused; 3];
    // SAFETY: the caller's contract.
    out[..work_dim].copy_from_slice(unsafe { call::slice(values, work_dim) }.ok()?);
    Some(out)
}

pub(crate) unsafe extern "C" fn enqueue_nd_range_kernel(
    command_queue: cl_command_queue,
    kernel: cl_kernel,
    work_dim: cl_uint,
    global_work_offset: *const usize,
    global_work_size: *const usize,
    local_work_size: *const usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    let entry = entry!(
        "clEnqueueNDRangeKernel",
        command_queue: queue,
        kernel: kernel,
        work_dim: unsigned,
        global_work_offset: sizes(work_dim),
        global_work_size: sizes(work_dim),
        local_work_size: sizes(work_dim),
        num_events_in_wait_list: unsigned,
        event_wait_list: events(num_events_in_wait_list),
        event: new_event,
    );
    call::status(entry, || {
        // SAFETY: handles checked before use; the size arrays hold work_dim
        // elements; wait list and event as specified.
        unsafe {
            let queue = queue(command_queue)?;
            let kernel = handle::object::<Kernel>(kernel)?;
            let waits = wait_list(num_events_in_wait_list, event_wait_list)?;
            enqueue::check_context(&queue, &[kernel.program().context()], &waits)?;
            if !(1..=3).contains(&work_dim) {
                return Err(CL_INVALID_WORK_DIMENSION);
            }
            let work_dim = work_dim as usize;
            // OpenCL 2.1 and later: a NULL global size, like a zero in any
            // dimension, is a launch of nothing that still completes after
            // its wait list (CL_INVALID_GLOBAL_WORK_SIZE was 2.0's answer).
            let global_size = dimensions(global_work_size, work_dim, 1).unwrap_or([0; 3]);
            let range = NdRange {
                work_dim,
                global_offset: dimensions(global_work_offset, work_dim, 0).unwrap_or([0; 3]),
                global_size,
                local_size: dimensions(local_work_size, work_dim, 1),
            };
            hand_out(
                event,
                launch(&queue, &kernel, &range, &waits, CL_COMMAND_NDRANGE_KERNEL)?,
            );
        }
        Ok(())
    })
}

/// One work-item in one work-group.
pub(crate) unsafe extern "C" fn enqueue_task(
    command_queue: cl_command_queue,
    kernel: cl_kernel,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    let entry = entry!(
        "clEnqueueTask",
        command_queue: queue,
        kernel: kernel,
        num_events_in_wait_list: unsigned,
        event_wait_list: events(num_events_in_wait_list),
        event: new_event,
    );
    call::status(entry, || {
        // SAFETY: handles checked before use; wait list and event as
        // specified.
        unsafe {
            let queue = queue(command_queue)?;
            let kernel = handle::object::<Kernel>(kernel)?;
            let waits = wait_list(num_events_in_wait_list, event_wait_list)?;
            enqueue::check_context(&queue, &[kernel.program().context()], &waits)?;
            let range = NdRange {
                work_dim: 1,
                global_offset: [0; 3],
                global_size: [1; 3],
                local_size: Some([1; 3]),
            };
            hand_out(
                event,
                launch(&queue, &kernel, &range, &waits, CL_COMMAND_TASK)?,
            );
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn enqueue_marker_with_wait_list(
    command_queue: cl_command_queue,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    let entry = entry!(
        "clEnqueueMarkerWithWaitList",
        command_queue: queue,
        num_events_in_wait_list: unsigned,
        event_wait_list: events(num_events_in_wait_list),
        event: new_event,
    );
    call::status(entry, || {
        // SAFETY: the handle is checked; wait list and event as specified.
        unsafe {
            let queue = queue(command_queue)?;
            let waits = wait_list(num_events_in_wait_list, event_wait_list)?;
            enqueue::check_context(&queue, &[], &waits)?;
            hand_out(event, enqueue::marker(&queue, CL_COMMAND_MARKER, &waits)?);
        }
        Ok(())
    })
}

/// On an in-order queue a barrier is a marker.
pub(crate) unsafe extern "C" fn enqueue_barrier_with_wait_list(
    command_queue: cl_command_queue,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    let entry = entry!(
        "clEnqueueBarrierWithWaitList",
        command_queue: queue,
        num_events_in_wait_list: unsigned,
        event_wait_list: events(num_events_in_wait_list),
        event: new_event,
    );
    call::status(entry, || {
        // SAFETY: the handle is checked; wait list and event as specified.
        unsafe {
            let queue = queue(command_queue)?;
            let waits = wait_list(num_events_in_wait_list, event_wait_list)?;
            enqueue::check_context(&queue, &[], &waits)?;
            hand_out(event, enqueue::marker(&queue, CL_COMMAND_BARRIER, &waits)?);
        }
        Ok(())
    })
}

/// OpenCL 1.1: a marker after all previous commands, whose event is required.
pub(crate) unsafe extern "C" fn enqueue_marker(
    command_queue: cl_command_queue,
    event: *mut cl_event,
) -> cl_int {
    let entry = entry!("clEnqueueMarker", command_queue: queue, event: new_event);
    call::status(entry, || {
        // SAFETY: the handle is checked; event as specified.
        unsafe {
            let queue = queue(command_queue)?;
            if event.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            hand_out(event, enqueue::marker(&queue, CL_COMMAND_MARKER, &[])?);
        }
        Ok(())
    })
}

/// OpenCL 1.1: a barrier with no event.
pub(crate) unsafe extern "C" fn enqueue_barrier(command_queue: cl_command_queue) -> cl_int {
    let entry = entry!("clEnqueueBarrier", command_queue: queue);
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let queue = unsafe { queue(command_queue)? };
        enqueue::marker(&queue, CL_COMMAND_BARRIER, &[]).map(drop)
    })
}

/// OpenCL 1.1: later commands wait for `event_list`.
pub(crate) unsafe extern "C" fn enqueue_wait_for_events(
    command_queue: cl_command_queue,
    num_events: cl_uint,
    event_list: *const cl_event,
) -> cl_int {
    let entry = entry!(
        "clEnqueueWaitForEvents",
        command_queue: queue,
        num_events: unsigned,
        event_list: events(num_events),
    );
    call::status(entry, || {
        // SAFETY: the handle is checked; event_list holds num_events handles.
        unsafe {
            let queue = queue(command_queue)?;
            if num_events == 0 || event_list.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            let waits =
                handle::arcs::<Event>(event_list.cast(), num_events as usize, CL_INVALID_EVENT)?;
            enqueue::check_context(&queue, &[], &waits)?;
            enqueue::marker(&queue, CL_COMMAND_BARRIER, &waits).map(drop)
        }
    })
}

/// Migrating to the queue's device brings the contents there (see
/// [`crate::core::residency`]); migrating to the host does nothing, since
/// host access goes through reads and maps anyway.
pub(crate) unsafe extern "C" fn enqueue_migrate_mem_objects(
    command_queue: cl_command_queue,
    num_mem_objects: cl_uint,
    mem_objects: *const cl_mem,
    flags: cl_mem_migration_flags,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    let entry = entry!(
        "clEnqueueMigrateMemObjects",
        command_queue: queue,
        num_mem_objects: unsigned,
        mem_objects: mems(num_mem_objects),
        flags: migration_flags,
        num_events_in_wait_list: unsigned,
        event_wait_list: events(num_events_in_wait_list),
        event: new_event,
    );
    call::status(entry, || {
        // SAFETY: handles checked before use; mem_objects holds
        // num_mem_objects handles; wait list and event as specified.
        unsafe {
            let queue = queue(command_queue)?;
            if num_mem_objects == 0 || mem_objects.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            let mems = handle::arcs::<Mem>(
                mem_objects.cast(),
                num_mem_objects as usize,
                CL_INVALID_MEM_OBJECT,
            )?;
            let waits = wait_list(num_events_in_wait_list, event_wait_list)?;
            let contexts: Vec<_> = mems.iter().map(|mem| &**mem.context()).collect();
            enqueue::check_context(&queue, &contexts, &waits)?;
            if flags & !(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED) != 0
            {
                return Err(CL_INVALID_VALUE);
            }
            hand_out(event, enqueue::migrate(&queue, &mems, flags, &waits)?);
        }
        Ok(())
    })
}
