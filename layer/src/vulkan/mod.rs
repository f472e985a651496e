//! The Vulkan layer under the OpenCL objects: a small safe wrapper over ash
//! and gpu-allocator (see docs/layer-design.md, "vulkan/ API"). All of the
//! crate's Vulkan `unsafe` lives in this module, each block with its
//! safety argument.

// The rest of the crate may deny `unsafe_code`; this module is where it lives.
#![allow(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod device;
mod error;
pub(crate) mod exit_guard;
mod host_access;
mod host_import;
mod image;
mod instance;
mod memory;
mod pipeline;
mod pipeline_cache;
mod stream;
mod timeline;
mod timestamps;

#[cfg(test)]
mod test_shaders;

pub use ash::vk;

pub use device::Device;
pub use error::VkError;
pub use host_access::DeviceLocalHostAccess;
pub use host_import::HostAllocation;
pub use image::{
    fits as image_fits, Image, ImageDescription, ImageRegion, ImageShape, ImageView,
    TexelBufferView, ViewShape,
};
pub use instance::{
    instance, DeviceFeatures, Instance, PhysicalDevice, PhysicalDeviceInfo, ValidationMode,
};
pub use memory::{Buffer, Placement};
pub use pipeline::{ComputePipeline, ImageDescriptorKind};
pub use stream::{texel_size, BufferBinding, ImageBinding, Stream};
pub use timeline::{Timeline, Waiter};
pub use timestamps::{ClockSample, TimestampQuery};

/// The lavapipe device, for unit tests of the layer's other modules.
#[cfg(test)]
pub(crate) use device::tests::lavapipe;
