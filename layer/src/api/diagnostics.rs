//! `clGetLiveObjectCountsVK`: how many OpenCL objects of each kind exist,
//! for tests that check nothing leaks (`layer/include/clvulkan_ext.h`).
//!
//! Reached through `clGetExtensionFunctionAddressForPlatform` (or, through
//! the loaders, `clGetExtensionFunctionAddress`, which route names by the
//! platform's `VK` suffix). It is a diagnostic, not an OpenCL extension:
//! no extension string names it. The counts include objects only the
//! runtime still holds (the event of a command still running, a released
//! queue with commands in flight); the completion threads are first given
//! a moment to let go of the events of finished commands.

use std::time::Duration;

use opencl_sys::{cl_int, cl_platform_id, cl_uint, cl_ulong, CL_INVALID_VALUE};

use crate::api::call;
use crate::api::handle;
use crate::api::trace::entry;
use crate::core::object::{live_objects, ObjectKind};
use crate::core::platform::Platform;

/// The entry point's name.
pub(crate) const NAME: &std::ffi::CStr = c"clGetLiveObjectCountsVK";

/// The kinds counted, in the order of the counts array.
const COUNTED: [ObjectKind; 6] = [
    ObjectKind::Context,
    ObjectKind::Queue,
    ObjectKind::Mem,
    ObjectKind::Program,
    ObjectKind::Kernel,
    ObjectKind::Event,
];

/// How long the completion threads are given to let go of finished
/// commands' events before counting.
const SETTLE: Duration = Duration::from_secs(2);

/// `cl_int clGetLiveObjectCountsVK(cl_platform_id platform, cl_uint
/// num_counts, cl_ulong *counts, cl_uint *num_counts_ret)`: the first
/// `num_counts` of the live contexts, command queues, memory objects,
/// programs, kernels and events, in that order; `num_counts_ret` receives
/// how many kinds there are (6).
pub(crate) unsafe extern "C" fn get_live_object_counts(
    platform: cl_platform_id,
    num_counts: cl_uint,
    counts: *mut cl_ulong,
    num_counts_ret: *mut cl_uint,
) -> cl_int {
    let entry = entry!(
        "clGetLiveObjectCountsVK",
        platform: platform,
        num_counts: unsigned,
        counts: pointer,
        num_counts_ret: out_count,
    );
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let platform = unsafe { handle::object::<Platform>(platform.cast())? };
        if (counts.is_null() && num_counts_ret.is_null()) || (num_counts == 0) != counts.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        for device in platform.devices() {
            if let Some(thread) = device.started_completion() {
                thread.wait_idle(SETTLE);
            }
        }
        let wanted = COUNTED.len().min(num_counts as usize);
        for (index, &kind) in COUNTED[..wanted].iter().enumerate() {
            // SAFETY: the application's array of num_counts entries.
            unsafe {
                counts
                    .add(index)
                    .write_unaligned(live_objects(kind) as cl_ulong)
            };
        }
        // SAFETY: NULL or a cl_uint.
        unsafe { call::write_if_not_null(num_counts_ret, COUNTED.len() as cl_uint) };
        Ok(())
    })
}
