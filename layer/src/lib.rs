//! clvulkan's OpenCL ICD (`libclvulkan.so`): OpenCL 3.0 on Vulkan, loaded by
//! applications through the OpenCL ICD loader.
//!
//! Calls go one way: [`api`] is the C ABI (argument checks, handles, the ICD
//! dispatch table), [`core`] holds the OpenCL objects as safe Rust types, and
//! [`vulkan`] is the small wrapper that owns every Vulkan call.
//! `docs/layer-design.md` describes how OpenCL maps onto Vulkan.

/// See [`allocator`].
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: allocator::Heap = allocator::Heap;

#[cfg(feature = "mimalloc")]
mod allocator;
pub mod api;
pub mod core;
pub mod logging;
pub mod vulkan;
