//! Event entry points: waiting, status and profiling queries, callbacks,
//! retain/release, and user events.

use std::ffi::c_void;
use std::sync::Arc;

use opencl_sys::{
    cl_command_type, cl_context, cl_event, cl_event_info, cl_int, cl_profiling_info, cl_uint,
    cl_ulong, CL_COMPLETE, CL_EVENT_COMMAND_EXECUTION_STATUS, CL_EVENT_COMMAND_QUEUE,
    CL_EVENT_COMMAND_TYPE, CL_EVENT_CONTEXT, CL_EVENT_REFERENCE_COUNT,
    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, CL_INVALID_CONTEXT, CL_INVALID_EVENT,
    CL_INVALID_VALUE, CL_RUNNING, CL_SUBMITTED,
};

use crate::api::call;
use crate::api::handle;
use crate::api::host::{self, EventNotify};
use crate::api::info::{write_info, InfoValue};
use crate::api::trace::entry;
use crate::core::context::Context;
use crate::core::event::Event;
use crate::core::object::Object;
use crate::core::queue::Queue;
use crate::core::CLResult;

pub(crate) unsafe extern "C" fn wait_for_events(
    num_events: cl_uint,
    event_list: *const cl_event,
) -> cl_int {
    let entry = entry!("clWaitForEvents", num_events: unsigned, event_list: events(num_events));
    call::status(entry, || {
        if num_events == 0 || event_list.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: num_events handles, per the spec.
        let events = unsafe {
            handle::arcs::<Event>(event_list.cast(), num_events as usize, CL_INVALID_EVENT)?
        };
        if events.iter().any(|e| !e.context().is(events[0].context())) {
            return Err(CL_INVALID_CONTEXT);
        }
        // Flush every queue involved before blocking on any of them.
        let mut queues: Vec<Arc<Object<Queue>>> = Vec::new();
        for queue in events.iter().filter_map(|e| e.queue()) {
            if !queues.iter().any(|q| q.is(&queue)) {
                queues.push(queue);
            }
        }
        for queue in queues {
            queue.flush()?;
        }
        let mut failed = false;
        for event in &events {
            failed |= event.wait()? < 0;
        }
        if failed {
            return Err(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        }
        Ok(())
    })
}

fn event_info(event: &Arc<Object<Event>>, param_name: cl_event_info) -> CLResult<InfoValue> {
    Ok(match param_name {
        CL_EVENT_COMMAND_QUEUE => InfoValue::scalar(event.queue_handle()),
        CL_EVENT_CONTEXT => InfoValue::handle(Some(&**event.context())),
        CL_EVENT_COMMAND_TYPE => InfoValue::scalar::<cl_command_type>(event.command_type()),
        CL_EVENT_COMMAND_EXECUTION_STATUS => InfoValue::scalar::<cl_int>(event.status()),
        CL_EVENT_REFERENCE_COUNT => InfoValue::scalar::<cl_uint>(event.api_reference_count()),
        _ => return Err(CL_INVALID_VALUE),
    })
}

pub(crate) unsafe extern "C" fn get_event_info(
    event: cl_event,
    param_name: cl_event_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    let entry = entry!(
        "clGetEventInfo",
        event: event,
        param_name: info,
        param_value_size: size,
        param_value: pointer,
        param_value_size_ret: pointer,
    );
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let event = unsafe { handle::arc::<Event>(event)? };
        let value = event_info(&event, param_name)?;
        // SAFETY: the application's buffers, per the clGetEventInfo contract.
        unsafe { write_info(&value, param_value_size, param_value, param_value_size_ret) }
    })
}

pub(crate) unsafe extern "C" fn retain_event(event: cl_event) -> cl_int {
    let entry = entry!("clRetainEvent", event: event);
    // SAFETY: a handle from the application, checked before use.
    call::status(entry, || unsafe { handle::retain::<Event>(event) })
}

pub(crate) unsafe extern "C" fn release_event(event: cl_event) -> cl_int {
    let entry = entry!("clReleaseEvent", event: event);
    // SAFETY: a handle from the application, checked before use.
    call::status(entry, || unsafe { handle::release::<Event>(event) })
}

pub(crate) unsafe extern "C" fn set_event_callback(
    event: cl_event,
    command_exec_callback_type: cl_int,
    pfn_notify: Option<EventNotify>,
    user_data: *mut c_void,
) -> cl_int {
    let entry = entry!(
        "clSetEventCallback",
        event: event,
        command_exec_callback_type: signed,
        pfn_notify: callback,
        user_data: pointer,
    );
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let object = unsafe { handle::object::<Event>(event)? };
        let notify = pfn_notify.ok_or(CL_INVALID_VALUE)?;
        if ![CL_SUBMITTED, CL_RUNNING, CL_COMPLETE].contains(&command_exec_callback_type) {
            return Err(CL_INVALID_VALUE);
        }
        object.add_callback(
            command_exec_callback_type,
            host::event_callback(notify, event, user_data),
        );
        Ok(())
    })
}

/// Host timestamps; see [`crate::core::event`].
pub(crate) unsafe extern "C" fn get_event_profiling_info(
    event: cl_event,
    param_name: cl_profiling_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    let entry = entry!(
        "clGetEventProfilingInfo",
        event: event,
        param_name: info,
        param_value_size: size,
        param_value: pointer,
        param_value_size_ret: pointer,
    );
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let event = unsafe { handle::object::<Event>(event)? };
        let value = InfoValue::scalar::<cl_ulong>(event.profiling_time(param_name)?);
        // SAFETY: the application's buffers, per the clGetEventProfilingInfo
        // contract.
        unsafe { write_info(&value, param_value_size, param_value, param_value_size_ret) }
    })
}

pub(crate) unsafe extern "C" fn create_user_event(
    context: cl_context,
    errcode_ret: *mut cl_int,
) -> cl_event {
    let entry = entry!("clCreateUserEvent" -> Event, context: context, errcode_ret: pointer);
    let created = call::create(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let context = unsafe { handle::arc::<Context>(context)? };
        Ok(handle::into_handle(Event::new_user(&context)))
    });
    // SAFETY: errcode_ret is the application's, NULL or a cl_int.
    unsafe { created.report(errcode_ret) }
}

/// Completing a user event releases the commands held back behind it, on
/// this thread.
pub(crate) unsafe extern "C" fn set_user_event_status(
    event: cl_event,
    execution_status: cl_int,
) -> cl_int {
    let entry = entry!("clSetUserEventStatus", event: event, execution_status: signed);
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let event = unsafe { handle::object::<Event>(event)? };
        if !event.is_user() {
            return Err(CL_INVALID_EVENT);
        }
        event.set_user_status(execution_status)?.run();
        Ok(())
    })
}
