//! How Vulkan failures become OpenCL error codes.
//!
//! OpenCL has few codes for device-side failure: running out of device
//! memory for a memory object is `CL_MEM_OBJECT_ALLOCATION_FAILURE`, and
//! everything else the device could not do is `CL_OUT_OF_RESOURCES`.

use opencl_sys::{cl_int, CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_OUT_OF_RESOURCES};

use crate::core::CLResult;
use crate::vulkan::VkError;

pub trait VkResultExt<T> {
    /// Any Vulkan failure as `CL_OUT_OF_RESOURCES`.
    fn or_out_of_resources(self) -> CLResult<T>;
    /// For allocating a memory object's storage: out of memory is
    /// `CL_MEM_OBJECT_ALLOCATION_FAILURE`, anything else
    /// `CL_OUT_OF_RESOURCES`.
    fn or_allocation_failure(self) -> CLResult<T>;
}

impl<T> VkResultExt<T> for Result<T, VkError> {
    fn or_out_of_resources(self) -> CLResult<T> {
        self.map_err(|_| CL_OUT_OF_RESOURCES)
    }

    fn or_allocation_failure(self) -> CLResult<T> {
        self.map_err(|e| allocation_error(&e))
    }
}

fn allocation_error(error: &VkError) -> cl_int {
    if error.is_out_of_memory() {
        CL_MEM_OBJECT_ALLOCATION_FAILURE
    } else {
        CL_OUT_OF_RESOURCES
    }
}
