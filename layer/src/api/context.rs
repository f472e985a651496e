//! Context entry points: creation (from a device list or a device type),
//! retain/release, `clGetContextInfo` and destructor callbacks.

use std::ffi::c_void;

use opencl_sys::{
    cl_bool, cl_context, cl_context_info, cl_context_properties, cl_device_id, cl_device_type,
    cl_int, cl_uint, CL_CONTEXT_DEVICES, CL_CONTEXT_INTEROP_USER_SYNC, CL_CONTEXT_NUM_DEVICES,
    CL_CONTEXT_PLATFORM, CL_CONTEXT_PROPERTIES, CL_CONTEXT_REFERENCE_COUNT, CL_FALSE,
    CL_INVALID_DEVICE, CL_INVALID_PLATFORM, CL_INVALID_PROPERTY, CL_INVALID_VALUE, CL_TRUE,
};

use crate::api::call;
use crate::api::device::devices_of_type;
use crate::api::handle;
use crate::api::host::{self, ContextDestructorNotify, ContextErrorNotify};
use crate::api::info::{write_info, InfoValue};
use crate::api::trace::entry;
use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::host::ContextNotify;
use crate::core::object::Object;
use crate::core::platform::Platform;
use crate::core::CLResult;

/// The zero-terminated property list, terminator included; empty for NULL.
///
/// # Safety
/// `properties` is NULL or a zero-terminated list of name/value pairs.
pub(crate) unsafe fn read_property_list<T: Copy + PartialEq + Default>(
    properties: *const T,
) -> Vec<T> {
    let mut list = Vec::new();
    if properties.is_null() {
        return list;
    }
    let terminator = T::default();
    let mut index = 0;
    loop {
        // SAFETY: the list is terminated by a zero name, which is read
        // before anything past it; a non-zero name is followed by its value.
        let name = unsafe { properties.add(index).read_unaligned() };
        list.push(name);
        if name == terminator {
            return list;
        }
        // SAFETY: as above, the value that follows a non-zero name.
        list.push(unsafe { properties.add(index + 1).read_unaligned() });
        index += 2;
    }
}

/// The name/value pairs of a property list, or `CL_INVALID_PROPERTY` when a
/// name repeats.
pub(crate) fn property_pairs<T: Copy + PartialEq>(list: &[T]) -> CLResult<Vec<(T, T)>> {
    let pairs: Vec<(T, T)> = list
        .chunks_exact(2)
        .map(|pair| (pair[0], pair[1]))
        .collect();
    for (index, (name, _)) in pairs.iter().enumerate() {
        if pairs[..index].iter().any(|(earlier, _)| earlier == name) {
            return Err(CL_INVALID_PROPERTY);
        }
    }
    Ok(pairs)
}

fn check_context_properties(list: &[cl_context_properties]) -> CLResult<()> {
    for (name, value) in property_pairs(list)? {
        match name {
            CL_CONTEXT_PLATFORM => {
                if value != Platform::get().handle() as cl_context_properties {
                    return Err(CL_INVALID_PLATFORM);
                }
            }
            CL_CONTEXT_INTEROP_USER_SYNC => {
                let valid = [CL_TRUE, CL_FALSE].map(|b: cl_bool| b as cl_context_properties);
                if !valid.contains(&value) {
                    return Err(CL_INVALID_PROPERTY);
                }
            }
            _ => return Err(CL_INVALID_PROPERTY),
        }
    }
    Ok(())
}

type NotifyFn = Option<ContextErrorNotify>;

fn context_notify(pfn_notify: NotifyFn, user_data: *mut c_void) -> CLResult<Option<ContextNotify>> {
    // "CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL."
    match pfn_notify {
        Some(notify) => Ok(Some(host::context_notify(notify, user_data))),
        None if user_data.is_null() => Ok(None),
        None => Err(CL_INVALID_VALUE),
    }
}

pub(crate) unsafe extern "C" fn create_context(
    properties: *const cl_context_properties,
    num_devices: cl_uint,
    devices: *const cl_device_id,
    pfn_notify: NotifyFn,
    user_data: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_context {
    let entry = entry!(
        "clCreateContext" -> Context,
        properties: pointer,
        num_devices: unsigned,
        devices: devices(num_devices),
        pfn_notify: callback,
        user_data: pointer,
        errcode_ret: pointer,
    );
    let created = call::create(entry, || {
        // SAFETY: the application's zero-terminated property list.
        let properties = unsafe { read_property_list(properties) };
        check_context_properties(&properties)?;
        if devices.is_null() || num_devices == 0 {
            return Err(CL_INVALID_VALUE);
        }
        let notify = context_notify(pfn_notify, user_data)?;
        // SAFETY: the application's array of num_devices handles.
        let requested = unsafe {
            handle::arcs::<Device>(devices.cast(), num_devices as usize, CL_INVALID_DEVICE)?
        };
        // "Duplicate devices specified in devices are ignored."
        let mut unique: Vec<std::sync::Arc<Object<Device>>> = Vec::new();
        for device in requested {
            if !unique.iter().any(|d| d.is(&device)) {
                unique.push(device);
            }
        }
        let context = Context::new(unique, properties, notify)?;
        Ok(handle::into_handle(context))
    });
    // SAFETY: errcode_ret is the application's, NULL or a cl_int.
    unsafe { created.report(errcode_ret) }
}

pub(crate) unsafe extern "C" fn create_context_from_type(
    properties: *const cl_context_properties,
    device_type: cl_device_type,
    pfn_notify: NotifyFn,
    user_data: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_context {
    let entry = entry!(
        "clCreateContextFromType" -> Context,
        properties: pointer,
        device_type: device_type,
        pfn_notify: callback,
        user_data: pointer,
        errcode_ret: pointer,
    );
    let created = call::create(entry, || {
        // SAFETY: the application's zero-terminated property list.
        let properties = unsafe { read_property_list(properties) };
        check_context_properties(&properties)?;
        let notify = context_notify(pfn_notify, user_data)?;
        let devices = devices_of_type(device_type)?;
        let context = Context::new(devices, properties, notify)?;
        Ok(handle::into_handle(context))
    });
    // SAFETY: errcode_ret is the application's, NULL or a cl_int.
    unsafe { created.report(errcode_ret) }
}

pub(crate) unsafe extern "C" fn retain_context(context: cl_context) -> cl_int {
    let entry = entry!("clRetainContext", context: context);
    // SAFETY: a handle from the application, checked before use.
    call::status(entry, || unsafe { handle::retain::<Context>(context) })
}

pub(crate) unsafe extern "C" fn release_context(context: cl_context) -> cl_int {
    let entry = entry!("clReleaseContext", context: context);
    // SAFETY: a handle from the application, checked before use.
    call::status(entry, || unsafe { handle::release::<Context>(context) })
}

fn context_info(context: &Object<Context>, param_name: cl_context_info) -> CLResult<InfoValue> {
    Ok(match param_name {
        CL_CONTEXT_REFERENCE_COUNT => InfoValue::scalar::<cl_uint>(context.api_reference_count()),
        CL_CONTEXT_NUM_DEVICES => InfoValue::scalar::<cl_uint>(context.devices().len() as cl_uint),
        CL_CONTEXT_DEVICES => InfoValue::handles(context.devices()),
        CL_CONTEXT_PROPERTIES => InfoValue::array(context.properties()),
        _ => return Err(CL_INVALID_VALUE),
    })
}

pub(crate) unsafe extern "C" fn get_context_info(
    context: cl_context,
    param_name: cl_context_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    let entry = entry!(
        "clGetContextInfo",
        context: context,
        param_name: info,
        param_value_size: size,
        param_value: pointer,
        param_value_size_ret: pointer,
    );
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let context = unsafe { handle::object::<Context>(context)? };
        let value = context_info(&context, param_name)?;
        // SAFETY: the application's buffers, per the clGetContextInfo contract.
        unsafe { write_info(&value, param_value_size, param_value, param_value_size_ret) }
    })
}

pub(crate) unsafe extern "C" fn set_context_destructor_callback(
    context: cl_context,
    pfn_notify: Option<ContextDestructorNotify>,
    user_data: *mut c_void,
) -> cl_int {
    let entry = entry!(
        "clSetContextDestructorCallback",
        context: context,
        pfn_notify: callback,
        user_data: pointer,
    );
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let object = unsafe { handle::object::<Context>(context)? };
        let notify = pfn_notify.ok_or(CL_INVALID_VALUE)?;
        object.add_destructor_callback(host::context_destructor(notify, context, user_data));
        Ok(())
    })
}
