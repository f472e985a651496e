//! `clGetKernelSubGroupInfo` (and its `cl_khr_subgroups` name): how a
//! kernel's work-groups divide into sub-groups on a device
//! ([`crate::core::sub_groups`]).

use std::ffi::c_void;

use opencl_sys::{
    cl_device_id, cl_int, cl_kernel, cl_kernel_sub_group_info, CL_INVALID_OPERATION,
    CL_INVALID_VALUE, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
    CL_KERNEL_MAX_NUM_SUB_GROUPS, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
    CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
};

use opencl_sys::CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL;

use crate::api::call;
use crate::api::info::{write_info, InfoValue};
use crate::api::kernel::kernel_and_device;
use crate::api::trace::entry;
use crate::core::device::Device;
use crate::core::kernel::Kernel;
use crate::core::object::Object;
use crate::core::CLResult;

pub(crate) unsafe extern "C" fn get_kernel_sub_group_info(
    kernel: cl_kernel,
    device: cl_device_id,
    param_name: cl_kernel_sub_group_info,
    input_value_size: usize,
    input_value: *const c_void,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    let entry = entry!(
        "clGetKernelSubGroupInfo",
        kernel: kernel,
        device: device,
        param_name: info,
        input_value_size: size,
        input_value: pointer,
        param_value_size: size,
        param_value: pointer,
        param_value_size_ret: pointer,
    );
    call::status(entry, || {
        // SAFETY: handles from the application, checked before use.
        let (kernel, device) = unsafe { kernel_and_device(kernel, device)? };
        if !device.caps().subgroups.khr_subgroups() {
            return Err(CL_INVALID_OPERATION);
        }
        let input: &[usize] = if input_value.is_null() || input_value_size == 0 {
            &[]
        } else if !input_value_size.is_multiple_of(size_of::<usize>()) {
            return Err(CL_INVALID_VALUE);
        } else {
            // SAFETY: the application's `input_value_size` bytes, per the
            // clGetKernelSubGroupInfo contract; `size_t`s, checked above to
            // be whole.
            unsafe {
                std::slice::from_raw_parts(
                    input_value.cast::<usize>(),
                    input_value_size / size_of::<usize>(),
                )
            }
        };
        let value = sub_group_info(&kernel, &device, param_name, input, param_value_size)?;
        // SAFETY: the application's buffers, per the contract.
        unsafe { write_info(&value, param_value_size, param_value, param_value_size_ret) }
    })
}

/// The answer to `param_name` about `kernel` on `device`, given `input`.
fn sub_group_info(
    kernel: &Kernel,
    device: &Object<Device>,
    param_name: cl_kernel_sub_group_info,
    input: &[usize],
    param_value_size: usize,
) -> CLResult<InfoValue> {
    // The kernel's own size, where it asks for one.
    let size = kernel.reflection().required_sub_group_size;
    let groups = crate::core::sub_groups::SubGroups {
        size: size.unwrap_or(device.subgroup_size()) as usize,
    };
    let max_work_items = kernel.max_work_group_size(device);
    // A local work size of one to three dimensions.
    let work_items = || -> CLResult<usize> {
        if !(1..=3).contains(&input.len()) {
            return Err(CL_INVALID_VALUE);
        }
        Ok(input.iter().product())
    };
    Ok(match param_name {
        CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE => {
            InfoValue::scalar::<usize>(groups.max_size(work_items()?))
        }
        CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE => {
            InfoValue::scalar::<usize>(groups.count(work_items()?))
        }
        CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT => {
            let [count] = input else {
                return Err(CL_INVALID_VALUE);
            };
            // As many dimensions as the application asked for; the size
            // in the first, all zero where no size has that many.
            let dimensions = (param_value_size / size_of::<usize>()).clamp(1, 3);
            let mut size = [0usize; 3];
            if let Some(work_items) = groups.work_items_for(*count, max_work_items) {
                size = [work_items, 1, 1];
            }
            InfoValue::array(&size[..dimensions])
        }
        CL_KERNEL_MAX_NUM_SUB_GROUPS => InfoValue::scalar::<usize>(groups.count(max_work_items)),
        // No attribute asks for a number of sub-groups.
        CL_KERNEL_COMPILE_NUM_SUB_GROUPS => InfoValue::scalar::<usize>(0),
        CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL => InfoValue::scalar::<usize>(
            kernel.reflection().required_sub_group_size.unwrap_or(0) as usize,
        ),
        _ => return Err(CL_INVALID_VALUE),
    })
}
