//! clvulkan's OpenCL ICD (`libclvulkan.so`): OpenCL 3.0 on Vulkan, loaded by
//! applications through the OpenCL ICD loader.
//!
//! Calls go one way: [`api`] is the C ABI (argument checks, handles, the ICD
//! dispatch table), [`core`] holds the OpenCL objects as safe Rust types, and
//! [`vulkan`] is the small wrapper that owns every Vulkan call.
//! `docs/layer-design.md` describes how OpenCL maps onto Vulkan.

/// The ICD's Rust heap. Building a program allocates and frees tens of
/// thousands of small AST, HIR and token nodes; mimalloc's per-thread free
/// lists make that about a quarter cheaper than glibc malloc, whose heap
/// trimming also page-faults the same memory back in on every build. The
/// host application's own `malloc` is untouched. The mature v2 line is
/// used, with local-dynamic TLS because the loader `dlopen`s the ICD (the
/// initial-exec model can run out of static TLS there; v3 crashed in the
/// test suite).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod api;
pub mod core;
pub mod vulkan;
