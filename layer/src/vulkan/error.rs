//! The one error type of the Vulkan wrapper, so the core can map every
//! failure to an OpenCL error code without knowing Vulkan.

use std::fmt;

use ash::vk;
use gpu_allocator::AllocationError;

/// Everything that can go wrong below the OpenCL objects.
#[derive(Debug)]
pub enum VkError {
    /// The Vulkan loader could not be loaded or is too old.
    Loader(String),
    /// A Vulkan call returned an error code.
    Call {
        call: &'static str,
        result: vk::Result,
    },
    /// gpu-allocator could not provide memory for a buffer.
    Allocation(AllocationError),
    /// `CLVULKAN_VALIDATION` asks for validation but `VK_LAYER_KHRONOS_validation`
    /// (or the `VK_EXT_debug_utils` extension it provides) is not installed.
    ValidationUnavailable,
    /// `Device::new` was given an index past the end of `physical_devices()`.
    NoSuchDevice { index: usize, count: usize },
    /// The physical device lacks something clvulkan needs (see `unusable_reason`).
    DeviceUnusable { name: String, reason: String },
    /// A buffer larger than the device can allocate in one piece.
    BufferTooLarge { requested: u64, max: u64 },
    /// The caller broke a rule of this API (bounds, alignment, objects of
    /// another device, malformed SPIR-V). The core is expected to check the
    /// OpenCL rules first, so this points at a bug rather than a user error.
    InvalidArgument(String),
}

impl VkError {
    /// True when the failure is a lack of host or device memory, which OpenCL
    /// reports as `CL_OUT_OF_RESOURCES` / `CL_MEM_OBJECT_ALLOCATION_FAILURE`
    /// rather than as an invalid request.
    pub fn is_out_of_memory(&self) -> bool {
        match self {
            VkError::Call { result, .. } => matches!(
                *result,
                vk::Result::ERROR_OUT_OF_HOST_MEMORY
                    | vk::Result::ERROR_OUT_OF_DEVICE_MEMORY
                    | vk::Result::ERROR_OUT_OF_POOL_MEMORY
                    | vk::Result::ERROR_FRAGMENTED_POOL
                    | vk::Result::ERROR_FRAGMENTATION
                    | vk::Result::ERROR_TOO_MANY_OBJECTS
            ),
            VkError::Allocation(AllocationError::OutOfMemory) => true,
            // gpu-allocator folds a failed vkAllocateMemory other than
            // OUT_OF_DEVICE_MEMORY into `Internal` with the result's name.
            VkError::Allocation(AllocationError::Internal(message)) => {
                message.contains("OUT_OF_HOST_MEMORY") || message.contains("OUT_OF_DEVICE_MEMORY")
            }
            VkError::BufferTooLarge { .. } => true,
            _ => false,
        }
    }

    /// True when the device is gone for good and every later call will fail.
    pub fn is_device_lost(&self) -> bool {
        matches!(
            self,
            VkError::Call {
                result: vk::Result::ERROR_DEVICE_LOST,
                ..
            }
        )
    }

    pub(crate) fn call(call: &'static str) -> impl FnOnce(vk::Result) -> VkError {
        move |result| VkError::Call { call, result }
    }
}

impl fmt::Display for VkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VkError::Loader(message) => write!(f, "Vulkan loader: {message}"),
            VkError::Call { call, result } => write!(f, "{call} failed: {result:?}"),
            VkError::Allocation(error) => write!(f, "device memory allocation failed: {error}"),
            VkError::ValidationUnavailable => f.write_str(
                "CLVULKAN_VALIDATION is set but VK_LAYER_KHRONOS_validation with \
                 VK_EXT_debug_utils is not installed",
            ),
            VkError::NoSuchDevice { index, count } => {
                write!(f, "no Vulkan physical device {index} (there are {count})")
            }
            VkError::DeviceUnusable { name, reason } => {
                write!(f, "Vulkan device {name} is unusable: {reason}")
            }
            VkError::BufferTooLarge { requested, max } => write!(
                f,
                "buffer of {requested} bytes exceeds the device's largest allocation of {max} bytes"
            ),
            VkError::InvalidArgument(message) => write!(f, "invalid argument: {message}"),
        }
    }
}

impl std::error::Error for VkError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            VkError::Allocation(error) => Some(error),
            _ => None,
        }
    }
}

impl From<AllocationError> for VkError {
    fn from(error: AllocationError) -> Self {
        VkError::Allocation(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_memory_is_recognised() {
        let device_oom = VkError::Call {
            call: "vkAllocateMemory",
            result: vk::Result::ERROR_OUT_OF_DEVICE_MEMORY,
        };
        assert!(device_oom.is_out_of_memory());
        assert!(VkError::Allocation(AllocationError::OutOfMemory).is_out_of_memory());
        assert!(VkError::BufferTooLarge {
            requested: 2,
            max: 1
        }
        .is_out_of_memory());
        let lost = VkError::Call {
            call: "vkQueueSubmit",
            result: vk::Result::ERROR_DEVICE_LOST,
        };
        assert!(!lost.is_out_of_memory());
        assert!(lost.is_device_lost());
        assert!(!VkError::ValidationUnavailable.is_out_of_memory());
        assert_eq!(
            device_oom.to_string(),
            "vkAllocateMemory failed: ERROR_OUT_OF_DEVICE_MEMORY"
        );
    }
}
