//! The OpenCL objects as Rust types: platform, devices, contexts, command
//! queues, memory objects, programs, kernels and events, plus the machinery
//! that moves commands onto Vulkan streams and completes their events.
//!
//! Everything here is safe Rust. Raw pointers from the application are turned
//! into slices, closures or validated objects by [`crate::api`] before they
//! reach this module; Vulkan is reached only through [`crate::vulkan`].

#![forbid(unsafe_code)]

pub mod bridge;
pub mod buffer_pool;
pub mod builtin_kernels;
pub mod caps;
pub mod clock_rate;
pub mod command;
pub mod completion;
pub mod context;
pub mod device;
pub mod device_selection;
pub mod enqueue;
pub mod error;
pub mod event;
pub mod fence;
pub mod handle_slot;
pub mod host;
pub mod host_direct;
pub mod image;
pub mod image_args;
pub mod image_format;
pub mod kernel;
pub mod loop_cap;
pub mod map;
pub mod memory;
pub mod migration;
pub mod ndrange;
pub mod object;
pub mod platform;
pub mod printf;
pub mod private_memory;
pub mod profiling;
pub mod program;
pub mod program_binary;
pub mod program_globals;
pub mod program_il;
pub mod program_link;
pub mod queue;
pub mod rect;
pub mod residency;
pub mod sampler;
pub mod sub_groups;
pub mod texel;
pub mod transfer;
pub mod transfer_trace;

/// The result of every fallible OpenCL operation: the error is the `CL_*`
/// code the entry point returns.
pub type CLResult<T> = Result<T, opencl_sys::cl_int>;
