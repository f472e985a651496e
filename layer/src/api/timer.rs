//! `clGetHostTimer` and `clGetDeviceAndHostTimer`: the clock that profiling
//! reports in. Profiling converts the GPU's timestamps to this host clock
//! (see `core/profiling.rs`), so the device timer and the host timer are
//! the same clock and one reading answers both.

use opencl_sys::{cl_device_id, cl_int, cl_ulong, CL_INVALID_VALUE};

use crate::api::trace::entry;
use crate::api::{call, handle};
use crate::core::device::Device;
use crate::core::event::host_timestamp;

/// Nanoseconds per tick of the clock (`CL_PLATFORM_HOST_TIMER_RESOLUTION`).
pub(crate) const RESOLUTION_NS: cl_ulong = 1;

pub(crate) unsafe extern "C" fn get_device_and_host_timer(
    device: cl_device_id,
    device_timestamp: *mut cl_ulong,
    host_timestamp_out: *mut cl_ulong,
) -> cl_int {
    let entry = entry!(
        "clGetDeviceAndHostTimer",
        device: device,
        device_timestamp: pointer,
        host_timestamp_out: pointer,
    );
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        unsafe { handle::object::<Device>(device.cast())? };
        if device_timestamp.is_null() || host_timestamp_out.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let now = host_timestamp();
        // SAFETY: both are the application's non-NULL cl_ulong pointers.
        unsafe {
            call::write_if_not_null(device_timestamp, now);
            call::write_if_not_null(host_timestamp_out, now);
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn get_host_timer(
    device: cl_device_id,
    host_timestamp_out: *mut cl_ulong,
) -> cl_int {
    let entry = entry!("clGetHostTimer", device: device, host_timestamp_out: pointer);
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        unsafe { handle::object::<Device>(device.cast())? };
        if host_timestamp_out.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: the application's non-NULL cl_ulong pointer.
        unsafe { call::write_if_not_null(host_timestamp_out, host_timestamp()) };
        Ok(())
    })
}
