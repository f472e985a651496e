//! Command-queue entry points: creation (both forms), retain/release,
//! `clGetCommandQueueInfo`, `clFlush` and `clFinish`. Queues are in-order;
//! profiling may be enabled.

use std::ffi::c_void;
use std::sync::Arc;

use opencl_sys::{
    cl_command_queue, cl_command_queue_info, cl_command_queue_properties, cl_context, cl_device_id,
    cl_int, cl_queue_properties, cl_uint, CL_INVALID_COMMAND_QUEUE, CL_INVALID_DEVICE,
    CL_INVALID_QUEUE_PROPERTIES, CL_INVALID_VALUE, CL_QUEUE_CONTEXT, CL_QUEUE_DEVICE,
    CL_QUEUE_DEVICE_DEFAULT, CL_QUEUE_ON_DEVICE, CL_QUEUE_ON_DEVICE_DEFAULT,
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, CL_QUEUE_PROFILING_ENABLE, CL_QUEUE_PROPERTIES,
    CL_QUEUE_PROPERTIES_ARRAY, CL_QUEUE_REFERENCE_COUNT, CL_QUEUE_SIZE,
};

use crate::api::call;
use crate::api::context::{property_pairs, read_property_list};
use crate::api::handle;
use crate::api::info::{write_info, InfoValue};
use crate::api::trace::entry;
use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::object::Object;
use crate::core::queue::Queue;
use crate::core::CLResult;

/// The properties this implementation supports: profiling, and
/// out-of-order execution. Out-of-order queues are accepted and run their commands in submission
/// order, which an out-of-order queue is allowed to do (commands without
/// dependencies may run in any order, this one included); overlapping
/// independent commands is the open part (README).
const SUPPORTED_PROPERTIES: cl_command_queue_properties =
    CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;

/// Checks `properties` bits: unknown or inconsistent ones are
/// `CL_INVALID_VALUE`, valid but unsupported ones (on-device)
/// `CL_INVALID_QUEUE_PROPERTIES`.
fn check_properties(
    properties: cl_command_queue_properties,
    known: cl_command_queue_properties,
) -> CLResult<()> {
    if properties & !known != 0 {
        return Err(CL_INVALID_VALUE);
    }
    let on_device = properties & CL_QUEUE_ON_DEVICE != 0;
    // "CL_QUEUE_ON_DEVICE_DEFAULT ... can only be used with
    // CL_QUEUE_ON_DEVICE"; on-device queues must be out-of-order.
    if (properties & CL_QUEUE_ON_DEVICE_DEFAULT != 0 && !on_device)
        || (on_device && properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE == 0)
    {
        return Err(CL_INVALID_VALUE);
    }
    if properties & !SUPPORTED_PROPERTIES != 0 {
        return Err(CL_INVALID_QUEUE_PROPERTIES);
    }
    Ok(())
}

/// Where a new queue goes.
type QueueTarget = (Arc<Object<Context>>, Arc<Object<Device>>);

/// The context and device of a new queue, checked.
///
/// # Safety
/// Both are handles from the application.
unsafe fn queue_target(context: cl_context, device: cl_device_id) -> CLResult<QueueTarget> {
    // SAFETY: the caller's contract; each handle is checked before use.
    let (context, device) = unsafe {
        (
            handle::arc::<Context>(context)?,
            handle::arc::<Device>(device)?,
        )
    };
    if !context.has_device(&device) {
        return Err(CL_INVALID_DEVICE);
    }
    Ok((context, device))
}

pub(crate) unsafe extern "C" fn create_command_queue(
    context: cl_context,
    device: cl_device_id,
    properties: cl_command_queue_properties,
    errcode_ret: *mut cl_int,
) -> cl_command_queue {
    let entry = entry!(
        "clCreateCommandQueue" -> Queue,
        context: context,
        device: device,
        properties: queue_properties,
        errcode_ret: pointer,
    );
    let created = call::create(entry, || {
        // SAFETY: handles from the application.
        let (context, device) = unsafe { queue_target(context, device)? };
        let known = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
        check_properties(properties, known)?;
        let queue = Queue::new(&context, &device, properties, Vec::new())?;
        Ok(handle::into_handle(queue))
    });
    // SAFETY: errcode_ret is the application's, NULL or a cl_int.
    unsafe { created.report(errcode_ret) }
}

pub(crate) unsafe extern "C" fn create_command_queue_with_properties(
    context: cl_context,
    device: cl_device_id,
    properties: *const cl_queue_properties,
    errcode_ret: *mut cl_int,
) -> cl_command_queue {
    let entry = entry!(
        "clCreateCommandQueueWithProperties" -> Queue,
        context: context,
        device: device,
        properties: pointer,
        errcode_ret: pointer,
    );
    let created = call::create(entry, || {
        // SAFETY: handles from the application.
        let (context, device) = unsafe { queue_target(context, device)? };
        // SAFETY: the application's zero-terminated property list.
        let list = unsafe { read_property_list(properties) };
        let mut bits = 0;
        let mut size_given = false;
        for (name, value) in property_pairs(&list).map_err(|_| CL_INVALID_VALUE)? {
            match u32::try_from(name).map_err(|_| CL_INVALID_VALUE)? {
                CL_QUEUE_PROPERTIES => bits = value,
                CL_QUEUE_SIZE => size_given = true,
                _ => return Err(CL_INVALID_VALUE),
            }
        }
        let known = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE
            | CL_QUEUE_PROFILING_ENABLE
            | CL_QUEUE_ON_DEVICE
            | CL_QUEUE_ON_DEVICE_DEFAULT;
        check_properties(bits, known)?;
        // CL_QUEUE_SIZE only applies to on-device queues, which were
        // refused above.
        if size_given {
            return Err(CL_INVALID_VALUE);
        }
        let queue = Queue::new(&context, &device, bits, list)?;
        Ok(handle::into_handle(queue))
    });
    // SAFETY: errcode_ret is the application's, NULL or a cl_int.
    unsafe { created.report(errcode_ret) }
}

pub(crate) unsafe extern "C" fn retain_command_queue(queue: cl_command_queue) -> cl_int {
    let entry = entry!("clRetainCommandQueue", queue: queue);
    // SAFETY: a handle from the application, checked before use.
    call::status(entry, || unsafe { handle::retain::<Queue>(queue) })
}

/// The last release flushes the queue; its commands still complete.
pub(crate) unsafe extern "C" fn release_command_queue(queue: cl_command_queue) -> cl_int {
    let entry = entry!("clReleaseCommandQueue", queue: queue);
    // SAFETY: a handle from the application, checked before use.
    call::status(entry, || unsafe { handle::release::<Queue>(queue) })
}

fn queue_info(queue: &Object<Queue>, param_name: cl_command_queue_info) -> CLResult<InfoValue> {
    Ok(match param_name {
        CL_QUEUE_CONTEXT => InfoValue::handle(Some(&**queue.context())),
        CL_QUEUE_DEVICE => InfoValue::handle(Some(&**queue.device())),
        CL_QUEUE_REFERENCE_COUNT => InfoValue::scalar::<cl_uint>(queue.api_reference_count()),
        CL_QUEUE_PROPERTIES => InfoValue::scalar(queue.properties()),
        CL_QUEUE_PROPERTIES_ARRAY => InfoValue::array(queue.properties_array()),
        // Only meaningful for on-device queues.
        CL_QUEUE_SIZE => return Err(CL_INVALID_COMMAND_QUEUE),
        CL_QUEUE_DEVICE_DEFAULT => InfoValue::handle::<Queue>(None),
        _ => return Err(CL_INVALID_VALUE),
    })
}

pub(crate) unsafe extern "C" fn get_command_queue_info(
    queue: cl_command_queue,
    param_name: cl_command_queue_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    let entry = entry!(
        "clGetCommandQueueInfo",
        queue: queue,
        param_name: info,
        param_value_size: size,
        param_value: pointer,
        param_value_size_ret: pointer,
    );
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let queue = unsafe { handle::object::<Queue>(queue)? };
        let value = queue_info(&queue, param_name)?;
        // SAFETY: the application's buffers, per the clGetCommandQueueInfo
        // contract.
        unsafe { write_info(&value, param_value_size, param_value, param_value_size_ret) }
    })
}

pub(crate) unsafe extern "C" fn flush(queue: cl_command_queue) -> cl_int {
    let entry = entry!("clFlush", queue: queue);
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        unsafe { handle::object::<Queue>(queue)? }.flush()
    })
}

pub(crate) unsafe extern "C" fn finish(queue: cl_command_queue) -> cl_int {
    let entry = entry!("clFinish", queue: queue);
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        unsafe { handle::object::<Queue>(queue)? }.finish()
    })
}
