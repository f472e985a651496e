//! The OpenCL C ABI: every entry point, the ICD dispatch table and exports,
//! and the conversions from the application's raw pointers to the safe
//! types of [`crate::core`].
//!
//! Each entry point is an `unsafe extern "C" fn` named after its C function
//! in snake case (only the four ICD exports carry the C names as symbols),
//! checks its arguments in the order the spec lists the errors, catches
//! panics, and returns the spec's error code; it describes its arguments
//! once, with [`trace::entry!`], for the frame in [`call`] to trace. Entry
//! points not built yet are listed in [`not_implemented`].

#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]

pub mod call;
pub mod context;
pub mod device;
pub mod diagnostics;
pub mod enqueue;
pub mod event;
pub mod handle;
pub mod host;
pub mod icd;
pub mod image;
pub mod image_enqueue;
pub mod info;
pub mod kernel;
pub mod memory;
pub mod not_implemented;
pub mod platform;
pub mod program;
pub mod queue;
pub mod sampler;
pub mod sub_group_info;
pub mod timer;
pub mod trace;
pub mod trace_names;
