//! Every entry point of the dispatch table that is not built yet, in one
//! place. Each returns `CL_INVALID_OPERATION` (through `errcode_ret` for
//! those that create objects), which for many is also what the spec
//! prescribes when no device supports the feature. When one is implemented,
//! it moves to its family's module and its slot in [`crate::api::icd`]
//! points there.
//!
//! The dispatch table's slots are typed, so each stub has its function's
//! exact signature; the macros only supply the bodies.

#![allow(clippy::too_many_arguments)]

use std::ffi::{c_char, c_void};

use opencl_sys::cl_icd::*;
use opencl_sys::{cl_int, cl_uint, CL_INVALID_OPERATION};

use crate::api::call;
use crate::api::trace::{entry, Arg, Entry};

/// Stubs that return their status.
macro_rules! returns_status {
    ($($(#[$meta:meta])* fn $name:ident as $cl:ident($($arg:ident: $type:ty),* $(,)?);)*) => {$(
        $(#[$meta])*
        pub(crate) unsafe extern "C" fn $name($($arg: $type),*) -> cl_int {
            let entry = Entry::new(stringify!($cl), None, move || vec![$((stringify!($arg), Arg::raw($arg)),)*]);
            call::status(entry, || Err(CL_INVALID_OPERATION))
        }
    )*};
}

/// Stubs that create an object (or map memory): NULL, with the status in
/// `errcode_ret`.
macro_rules! returns_object {
    ($($(#[$meta:meta])* fn $name:ident as $cl:ident($($arg:ident: $type:ty),* $(,)?) -> $returned:ty;)*) => {$(
        $(#[$meta])*
        pub(crate) unsafe extern "C" fn $name($($arg: $type,)* errcode_ret: *mut cl_int) -> $returned {
            let entry = Entry::new(
                stringify!($cl),
                None,
                move || vec![$((stringify!($arg), Arg::raw($arg)),)* ("errcode_ret", Arg::raw(errcode_ret))],
            );
            let created = call::create(entry, || Err::<*mut c_void, _>(CL_INVALID_OPERATION));
            // SAFETY: errcode_ret is NULL or points to a cl_int, per the spec.
            unsafe { created.report(errcode_ret) }.cast()
        }
    )*};
}

/// `clSVMAlloc`: not implemented; no device supports SVM, so there is no
/// allocation to return.
pub(crate) unsafe extern "C" fn svm_alloc(
    context: cl_context,
    flags: cl_svm_mem_flags,
    size: usize,
    alignment: cl_uint,
) -> *mut c_void {
    let entry =
        entry!("clSVMAlloc", context: context, flags: mem_flags, size: size, alignment: unsigned);
    call::pointer(entry, std::ptr::null_mut)
}

/// `clSVMFree`: not implemented; nothing was allocated, so nothing to free.
pub(crate) unsafe extern "C" fn svm_free(context: cl_context, svm_pointer: *mut c_void) {
    let entry = entry!("clSVMFree", context: context, svm_pointer: pointer);
    call::nothing(entry, || {});
}

// Buffer operations not built yet.

// Program creation from built-in kernels: not built yet (no device
// reports built-in kernels).

returns_object! {
    /// `clCreateProgramWithBuiltInKernels`: not implemented.
    fn create_program_with_built_in_kernels as clCreateProgramWithBuiltInKernels(
        context: cl_context,
        num_devices: cl_uint,
        device_list: *const cl_device_id,
        kernel_names: *const c_char,
    ) -> cl_program;
}

// Program release callbacks are deprecated; the spec's answer when no device
// supports them is `CL_INVALID_OPERATION`.

returns_status! {
    /// `clSetProgramReleaseCallback`: not implemented.
    fn set_program_release_callback as clSetProgramReleaseCallback(
        program: cl_program,
        pfn_notify: Option<unsafe extern "C" fn(program: cl_program, user_data: *mut c_void)>,
        user_data: *mut c_void,
    );
}

// Queue features not supported: changing properties after creation (deprecated
// since 1.1), native kernels (`CL_EXEC_NATIVE_KERNEL` is not reported), on-
// device queues.

returns_status! {
    /// `clSetCommandQueueProperty`: not implemented.
    fn set_command_queue_property as clSetCommandQueueProperty(
        command_queue: cl_command_queue,
        properties: cl_command_queue_properties,
        enable: cl_bool,
        old_properties: *mut cl_command_queue_properties,
    );
    /// `clEnqueueNativeKernel`: not implemented.
    fn enqueue_native_kernel as clEnqueueNativeKernel(
        command_queue: cl_command_queue,
        user_func: Option<unsafe extern "C" fn(arg1: *mut c_void)>,
        args: *mut c_void,
        cb_args: usize,
        num_mem_objects: cl_uint,
        mem_list: *const cl_mem,
        args_mem_loc: *mut *const c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    );
    /// `clSetDefaultDeviceCommandQueue`: not implemented.
    fn set_default_device_command_queue as clSetDefaultDeviceCommandQueue(
        context: cl_context,
        device: cl_device_id,
        command_queue: cl_command_queue,
    );
}

// Shared virtual memory and pipes: no device reports them, for which the
// spec's answer is `CL_INVALID_OPERATION` (`clSVMAlloc` returns NULL,
// `clSVMFree` does nothing).

returns_status! {
    /// `clEnqueueSVMFree`: not implemented.
    fn enqueue_svm_free as clEnqueueSVMFree(
        command_queue: cl_command_queue,
        num_svm_pointers: cl_uint,
        svm_pointers: *mut *mut c_void,
        pfn_free_func: Option< unsafe extern "C" fn( queue: cl_command_queue, num_svm_pointers: cl_uint, svm_pointers: *mut *mut c_void, user_data: *mut c_void, ), >,
        user_data: *mut c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    );
    /// `clEnqueueSVMMemcpy`: not implemented.
    fn enqueue_svm_memcpy as clEnqueueSVMMemcpy(
        command_queue: cl_command_queue,
        blocking_copy: cl_bool,
        dst_ptr: *mut c_void,
        src_ptr: *const c_void,
        size: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    );
    /// `clEnqueueSVMMemFill`: not implemented.
    fn enqueue_svm_mem_fill as clEnqueueSVMMemFill(
        command_queue: cl_command_queue,
        svm_ptr: *mut c_void,
        pattern: *const c_void,
        pattern_size: usize,
        size: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    );
    /// `clEnqueueSVMMap`: not implemented.
    fn enqueue_svm_map as clEnqueueSVMMap(
        command_queue: cl_command_queue,
        blocking_map: cl_bool,
        flags: cl_map_flags,
        svm_ptr: *mut c_void,
        size: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    );
    /// `clEnqueueSVMUnmap`: not implemented.
    fn enqueue_svm_unmap as clEnqueueSVMUnmap(
        command_queue: cl_command_queue,
        svm_ptr: *mut c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    );
    /// `clEnqueueSVMMigrateMem`: not implemented.
    fn enqueue_svm_migrate_mem as clEnqueueSVMMigrateMem(
        command_queue: cl_command_queue,
        num_svm_pointers: cl_uint,
        svm_pointers: *mut *const c_void,
        sizes: *const usize,
        flags: cl_mem_migration_flags,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    );
    /// `clSetKernelArgSVMPointer`: not implemented.
    fn set_kernel_arg_svm_pointer as clSetKernelArgSVMPointer(
        kernel: cl_kernel,
        arg_index: cl_uint,
        arg_value: *const c_void,
    );
    /// `clSetKernelExecInfo`: not implemented.
    fn set_kernel_exec_info as clSetKernelExecInfo(
        kernel: cl_kernel,
        param_name: cl_kernel_exec_info,
        param_value_size: usize,
        param_value: *const c_void,
    );
}

/// `clGetPipeInfo`: no device supports pipes (`clCreatePipe` refuses), so
/// no memory object is a pipe, which is `CL_INVALID_MEM_OBJECT` (the
/// OpenCL-CTS `consistency_pipes` expects it, not `CL_INVALID_OPERATION`).
pub(crate) unsafe extern "C" fn get_pipe_info(
    _pipe: cl_mem,
    _param_name: cl_pipe_info,
    _param_value_size: usize,
    _param_value: *mut c_void,
    _param_value_size_ret: *mut usize,
) -> cl_int {
    opencl_sys::CL_INVALID_MEM_OBJECT
}

returns_object! {
    /// `clCreatePipe`: not implemented.
    fn create_pipe as clCreatePipe(
        context: cl_context,
        flags: cl_mem_flags,
        pipe_packet_size: cl_uint,
        pipe_max_packets: cl_uint,
        properties: *const cl_pipe_properties,
    ) -> cl_mem;
}

// Extensions this ICD does not report (`cl_ext_device_fission`, OpenGL,
// Direct3D, DX9 media and EGL sharing): applications should not call these.

returns_status! {
    /// `clCreateSubDevicesEXT`: not implemented.
    fn create_sub_devices_ext as clCreateSubDevicesEXT(
        in_device: cl_device_id,
        properties: *const cl_device_partition_property_ext,
        num_entries: cl_uint,
        out_devices: *mut cl_device_id,
        num_devices: *mut cl_uint,
    );
    /// `clRetainDeviceEXT`: not implemented.
    fn retain_device_ext as clRetainDeviceEXT(
        device: cl_device_id,
    );
    /// `clReleaseDeviceEXT`: not implemented.
    fn release_device_ext as clReleaseDeviceEXT(
        device: cl_device_id,
    );
    /// `clGetGLObjectInfo`: not implemented.
    fn get_gl_object_info as clGetGLObjectInfo(
        memobj: cl_mem,
        gl_object_type: *mut cl_gl_object_type,
        gl_object_name: *mut cl_GLuint,
    );
    /// `clGetGLTextureInfo`: not implemented.
    fn get_gl_texture_info as clGetGLTextureInfo(
        memobj: cl_mem,
        param_name: cl_gl_texture_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    );
    /// `clEnqueueAcquireGLObjects`: not implemented.
    fn enqueue_acquire_gl_objects as clEnqueueAcquireGLObjects(
        command_queue: cl_command_queue,
        num_objects: cl_uint,
        mem_objects: *const cl_mem,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    );
    /// `clEnqueueReleaseGLObjects`: not implemented.
    fn enqueue_release_gl_objects as clEnqueueReleaseGLObjects(
        command_queue: cl_command_queue,
        num_objects: cl_uint,
        mem_objects: *const cl_mem,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    );
    /// `clGetGLContextInfoKHR`: not implemented.
    fn get_gl_context_info_khr as clGetGLContextInfoKHR(
        properties: *const cl_context_properties,
        param_name: cl_gl_context_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    );
    /// `clGetDeviceIDsFromD3D10KHR`: not implemented.
    fn get_device_ids_from_d3d10_khr as clGetDeviceIDsFromD3D10KHR(
        platform: cl_platform_id,
        d3d_device_source: cl_d3d10_device_source_khr,
        d3d_object: *mut c_void,
        d3d_device_set: cl_d3d10_device_set_khr,
        num_entries: cl_uint,
        devices: *mut cl_device_id,
        num_devices: *mut cl_uint,
    );
    /// `clEnqueueAcquireD3D10ObjectsKHR`: not implemented.
    fn enqueue_acquire_d3d10_objects_khr as clEnqueueAcquireD3D10ObjectsKHR(
        command_queue: cl_command_queue,
        num_objects: cl_uint,
        mem_objects: *const cl_mem,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    );
    /// `clEnqueueReleaseD3D10ObjectsKHR`: not implemented.
    fn enqueue_release_d3d10_objects_khr as clEnqueueReleaseD3D10ObjectsKHR(
        command_queue: cl_command_queue,
        num_objects: cl_uint,
        mem_objects: *const cl_mem,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    );
    /// `clGetDeviceIDsFromD3D11KHR`: not implemented.
    fn get_device_ids_from_d3d11_khr as clGetDeviceIDsFromD3D11KHR(
        platform: cl_platform_id,
        d3d_device_source: cl_d3d11_device_source_khr,
        d3d_object: *mut c_void,
        d3d_device_set: cl_d3d11_device_set_khr,
        num_entries: cl_uint,
        devices: *mut cl_device_id,
        num_devices: *mut cl_uint,
    );
    /// `clEnqueueAcquireD3D11ObjectsKHR`: not implemented.
    fn enqueue_acquire_d3d11_objects_khr as clEnqueueAcquireD3D11ObjectsKHR(
        command_queue: cl_command_queue,
        num_objects: cl_uint,
        mem_objects: *const cl_mem,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    );
    /// `clEnqueueReleaseD3D11ObjectsKHR`: not implemented.
    fn enqueue_release_d3d11_objects_khr as clEnqueueReleaseD3D11ObjectsKHR(
        command_queue: cl_command_queue,
        num_objects: cl_uint,
        mem_objects: *const cl_mem,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    );
    /// `clGetDeviceIDsFromDX9MediaAdapterKHR`: not implemented.
    fn get_device_ids_from_dx9_media_adapter_khr as clGetDeviceIDsFromDX9MediaAdapterKHR(
        platform: cl_platform_id,
        num_media_adapters: cl_uint,
        media_adapter_type: *mut cl_dx9_media_adapter_type_khr,
        media_adapters: *mut c_void,
        media_adapter_set: cl_dx9_media_adapter_set_khr,
        num_entries: cl_uint,
        devices: *mut cl_device_id,
        num_devices: *mut cl_uint,
    );
    /// `clEnqueueAcquireDX9MediaSurfacesKHR`: not implemented.
    fn enqueue_acquire_dx9_media_surfaces_khr as clEnqueueAcquireDX9MediaSurfacesKHR(
        command_queue: cl_command_queue,
        num_objects: cl_uint,
        mem_objects: *const cl_mem,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    );
    /// `clEnqueueReleaseDX9MediaSurfacesKHR`: not implemented.
    fn enqueue_release_dx9_media_surfaces_khr as clEnqueueReleaseDX9MediaSurfacesKHR(
        command_queue: cl_command_queue,
        num_objects: cl_uint,
        mem_objects: *const cl_mem,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    );
    /// `clEnqueueAcquireEGLObjectsKHR`: not implemented.
    fn enqueue_acquire_egl_objects_khr as clEnqueueAcquireEGLObjectsKHR(
        command_queue: cl_command_queue,
        num_objects: cl_uint,
        mem_objects: *const cl_mem,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    );
    /// `clEnqueueReleaseEGLObjectsKHR`: not implemented.
    fn enqueue_release_egl_objects_khr as clEnqueueReleaseEGLObjectsKHR(
        command_queue: cl_command_queue,
        num_objects: cl_uint,
        mem_objects: *const cl_mem,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    );
}

returns_object! {
    /// `clCreateFromGLBuffer`: not implemented.
    fn create_from_gl_buffer as clCreateFromGLBuffer(
        context: cl_context,
        flags: cl_mem_flags,
        bufobj: cl_GLuint,
    ) -> cl_mem;
    /// `clCreateFromGLTexture`: not implemented.
    fn create_from_gl_texture as clCreateFromGLTexture(
        context: cl_context,
        flags: cl_mem_flags,
        target: cl_GLenum,
        miplevel: cl_GLint,
        texture: cl_GLuint,
    ) -> cl_mem;
    /// `clCreateFromGLTexture2D`: not implemented.
    fn create_from_gl_texture_2d as clCreateFromGLTexture2D(
        context: cl_context,
        flags: cl_mem_flags,
        target: cl_GLenum,
        miplevel: cl_GLint,
        texture: cl_GLuint,
    ) -> cl_mem;
    /// `clCreateFromGLTexture3D`: not implemented.
    fn create_from_gl_texture_3d as clCreateFromGLTexture3D(
        context: cl_context,
        flags: cl_mem_flags,
        target: cl_GLenum,
        miplevel: cl_GLint,
        texture: cl_GLuint,
    ) -> cl_mem;
    /// `clCreateFromGLRenderbuffer`: not implemented.
    fn create_from_gl_renderbuffer as clCreateFromGLRenderbuffer(
        context: cl_context,
        flags: cl_mem_flags,
        renderbuffer: cl_GLuint,
    ) -> cl_mem;
    /// `clCreateEventFromGLsyncKHR`: not implemented.
    fn create_event_from_gl_sync_khr as clCreateEventFromGLsyncKHR(
        context: cl_context,
        sync: cl_GLsync,
    ) -> cl_event;
    /// `clCreateFromD3D10BufferKHR`: not implemented.
    fn create_from_d3d10_buffer_khr as clCreateFromD3D10BufferKHR(
        context: cl_context,
        flags: cl_mem_flags,
        resource: ID3D10Buffer_ptr,
    ) -> cl_mem;
    /// `clCreateFromD3D10Texture2DKHR`: not implemented.
    fn create_from_d3d10_texture_2d_khr as clCreateFromD3D10Texture2DKHR(
        context: cl_context,
        flags: cl_mem_flags,
        resource: ID3D10Texture2D_ptr,
        subresource: cl_uint,
    ) -> cl_mem;
    /// `clCreateFromD3D10Texture3DKHR`: not implemented.
    fn create_from_d3d10_texture_3d_khr as clCreateFromD3D10Texture3DKHR(
        context: cl_context,
        flags: cl_mem_flags,
        resource: ID3D10Texture3D_ptr,
        subresource: cl_uint,
    ) -> cl_mem;
    /// `clCreateFromD3D11BufferKHR`: not implemented.
    fn create_from_d3d11_buffer_khr as clCreateFromD3D11BufferKHR(
        context: cl_context,
        flags: cl_mem_flags,
        resource: ID3D11Buffer_ptr,
    ) -> cl_mem;
    /// `clCreateFromD3D11Texture2DKHR`: not implemented.
    fn create_from_d3d11_texture_2d_khr as clCreateFromD3D11Texture2DKHR(
        context: cl_context,
        flags: cl_mem_flags,
        resource: ID3D11Texture2D_ptr,
        subresource: cl_uint,
    ) -> cl_mem;
    /// `clCreateFromD3D11Texture3DKHR`: not implemented.
    fn create_from_d3d11_texture_3d_khr as clCreateFromD3D11Texture3DKHR(
        context: cl_context,
        flags: cl_mem_flags,
        resource: ID3D11Texture3D_ptr,
        subresource: cl_uint,
    ) -> cl_mem;
    /// `clCreateFromDX9MediaSurfaceKHR`: not implemented.
    fn create_from_dx9_media_surface_khr as clCreateFromDX9MediaSurfaceKHR(
        context: cl_context,
        flags: cl_mem_flags,
        adapter_type: cl_dx9_media_adapter_type_khr,
        surface_info: *mut c_void,
        plane: cl_uint,
    ) -> cl_mem;
    /// `clCreateFromEGLImageKHR`: not implemented.
    fn create_from_egl_image_khr as clCreateFromEGLImageKHR(
        context: cl_context,
        egldisplay: CLeglDisplayKHR,
        eglimage: CLeglImageKHR,
        flags: cl_mem_flags,
        properties: *const cl_egl_image_properties_khr,
    ) -> cl_mem;
    /// `clCreateEventFromEGLSyncKHR`: not implemented.
    fn create_event_from_egl_sync_khr as clCreateEventFromEGLSyncKHR(
        context: cl_context,
        sync: CLeglSyncKHR,
        display: CLeglDisplayKHR,
    ) -> cl_event;
}
