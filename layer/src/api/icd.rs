//! What the ICD loader sees: the dispatch table every object points to,
//! and the four exported symbols (`clIcdGetPlatformIDsKHR`,
//! `clGetPlatformInfo`, `clGetExtensionFunctionAddress` and
//! `clGetExtensionFunctionAddressForPlatform`).
//!
//! The loader calls everything else through the table. The table points at
//! the internal functions, never at the exported symbols: those could be
//! interposed by the loader's own functions of the same names, which would
//! send the loader's call straight back to itself.

use std::ffi::{c_char, c_void, CStr};

use opencl_sys::cl_icd::cl_icd_dispatch;
use opencl_sys::{cl_int, cl_platform_id, cl_platform_info, cl_uint};

use crate::api::trace::entry;
use crate::api::{
    call, context, device, diagnostics, enqueue, event, handle, image, image_enqueue, kernel,
    memory, not_implemented, platform, program, queue, sampler, sub_group_info, timer,
};
use crate::core::platform::Platform;

/// The ICD extension's entry point name.
const ICD_GET_PLATFORM_IDS: &CStr = c"clIcdGetPlatformIDsKHR";

/// The dispatch table; every object's first field points here.
pub(crate) static DISPATCH: cl_icd_dispatch = cl_icd_dispatch {
    clGetPlatformIDs: Some(platform::get_platform_ids),
    clGetPlatformInfo: Some(platform::get_platform_info),
    clGetDeviceIDs: Some(device::get_device_ids),
    clGetDeviceInfo: Some(device::get_device_info),
    clCreateContext: Some(context::create_context),
    clCreateContextFromType: Some(context::create_context_from_type),
    clRetainContext: Some(context::retain_context),
    clReleaseContext: Some(context::release_context),
    clGetContextInfo: Some(context::get_context_info),
    clCreateCommandQueue: Some(queue::create_command_queue),
    clRetainCommandQueue: Some(queue::retain_command_queue),
    clReleaseCommandQueue: Some(queue::release_command_queue),
    clGetCommandQueueInfo: Some(queue::get_command_queue_info),
    clSetCommandQueueProperty: Some(not_implemented::set_command_queue_property),
    clCreateBuffer: Some(memory::create_buffer),
    clCreateImage2D: Some(image::create_image_2d),
    clCreateImage3D: Some(image::create_image_3d),
    clRetainMemObject: Some(memory::retain_mem_object),
    clReleaseMemObject: Some(memory::release_mem_object),
    clGetSupportedImageFormats: Some(image::get_supported_image_formats),
    clGetMemObjectInfo: Some(memory::get_mem_object_info),
    clGetImageInfo: Some(image::get_image_info),
    clCreateSampler: Some(sampler::create_sampler),
    clRetainSampler: Some(sampler::retain_sampler),
    clReleaseSampler: Some(sampler::release_sampler),
    clGetSamplerInfo: Some(sampler::get_sampler_info),
    clCreateProgramWithSource: Some(program::create_program_with_source),
    clCreateProgramWithBinary: Some(program::create_program_with_binary),
    clRetainProgram: Some(program::retain_program),
    clReleaseProgram: Some(program::release_program),
    clBuildProgram: Some(program::build_program),
    clUnloadCompiler: Some(platform::unload_compiler),
    clGetProgramInfo: Some(program::get_program_info),
    clGetProgramBuildInfo: Some(program::get_program_build_info),
    clCreateKernel: Some(kernel::create_kernel),
    clCreateKernelsInProgram: Some(kernel::create_kernels_in_program),
    clRetainKernel: Some(kernel::retain_kernel),
    clReleaseKernel: Some(kernel::release_kernel),
    clSetKernelArg: Some(kernel::set_kernel_arg),
    clGetKernelInfo: Some(kernel::get_kernel_info),
    clGetKernelWorkGroupInfo: Some(kernel::get_kernel_work_group_info),
    clWaitForEvents: Some(event::wait_for_events),
    clGetEventInfo: Some(event::get_event_info),
    clRetainEvent: Some(event::retain_event),
    clReleaseEvent: Some(event::release_event),
    clGetEventProfilingInfo: Some(event::get_event_profiling_info),
    clFlush: Some(queue::flush),
    clFinish: Some(queue::finish),
    clEnqueueReadBuffer: Some(enqueue::enqueue_read_buffer),
    clEnqueueWriteBuffer: Some(enqueue::enqueue_write_buffer),
    clEnqueueCopyBuffer: Some(enqueue::enqueue_copy_buffer),
    clEnqueueReadImage: Some(image_enqueue::enqueue_read_image),
    clEnqueueWriteImage: Some(image_enqueue::enqueue_write_image),
    clEnqueueCopyImage: Some(image_enqueue::enqueue_copy_image),
    clEnqueueCopyImageToBuffer: Some(image_enqueue::enqueue_copy_image_to_buffer),
    clEnqueueCopyBufferToImage: Some(image_enqueue::enqueue_copy_buffer_to_image),
    clEnqueueMapBuffer: Some(enqueue::enqueue_map_buffer),
    clEnqueueMapImage: Some(image_enqueue::enqueue_map_image),
    clEnqueueUnmapMemObject: Some(enqueue::enqueue_unmap_mem_object),
    clEnqueueNDRangeKernel: Some(enqueue::enqueue_nd_range_kernel),
    clEnqueueTask: Some(enqueue::enqueue_task),
    clEnqueueNativeKernel: Some(not_implemented::enqueue_native_kernel),
    clEnqueueMarker: Some(enqueue::enqueue_marker),
    clEnqueueWaitForEvents: Some(enqueue::enqueue_wait_for_events),
    clEnqueueBarrier: Some(enqueue::enqueue_barrier),
    clGetExtensionFunctionAddress: Some(get_extension_function_address),
    clCreateFromGLBuffer: Some(not_implemented::create_from_gl_buffer),
    clCreateFromGLTexture2D: Some(not_implemented::create_from_gl_texture_2d),
    clCreateFromGLTexture3D: Some(not_implemented::create_from_gl_texture_3d),
    clCreateFromGLRenderbuffer: Some(not_implemented::create_from_gl_renderbuffer),
    clGetGLObjectInfo: Some(not_implemented::get_gl_object_info),
    clGetGLTextureInfo: Some(not_implemented::get_gl_texture_info),
    clEnqueueAcquireGLObjects: Some(not_implemented::enqueue_acquire_gl_objects),
    clEnqueueReleaseGLObjects: Some(not_implemented::enqueue_release_gl_objects),
    clGetGLContextInfoKHR: Some(not_implemented::get_gl_context_info_khr),
    clGetDeviceIDsFromD3D10KHR: Some(not_implemented::get_device_ids_from_d3d10_khr),
    clCreateFromD3D10BufferKHR: Some(not_implemented::create_from_d3d10_buffer_khr),
    clCreateFromD3D10Texture2DKHR: Some(not_implemented::create_from_d3d10_texture_2d_khr),
    clCreateFromD3D10Texture3DKHR: Some(not_implemented::create_from_d3d10_texture_3d_khr),
    clEnqueueAcquireD3D10ObjectsKHR: Some(not_implemented::enqueue_acquire_d3d10_objects_khr),
    clEnqueueReleaseD3D10ObjectsKHR: Some(not_implemented::enqueue_release_d3d10_objects_khr),
    clSetEventCallback: Some(event::set_event_callback),
    clCreateSubBuffer: Some(memory::create_sub_buffer),
    clSetMemObjectDestructorCallback: Some(memory::set_mem_object_destructor_callback),
    clCreateUserEvent: Some(event::create_user_event),
    clSetUserEventStatus: Some(event::set_user_event_status),
    clEnqueueReadBufferRect: Some(enqueue::enqueue_read_buffer_rect),
    clEnqueueWriteBufferRect: Some(enqueue::enqueue_write_buffer_rect),
    clEnqueueCopyBufferRect: Some(enqueue::enqueue_copy_buffer_rect),
    clCreateSubDevicesEXT: Some(not_implemented::create_sub_devices_ext),
    clRetainDeviceEXT: Some(not_implemented::retain_device_ext),
    clReleaseDeviceEXT: Some(not_implemented::release_device_ext),
    clCreateEventFromGLsyncKHR: Some(not_implemented::create_event_from_gl_sync_khr),
    clCreateSubDevices: Some(device::create_sub_devices),
    clRetainDevice: Some(device::retain_device),
    clReleaseDevice: Some(device::release_device),
    clCreateImage: Some(image::create_image),
    clCreateProgramWithBuiltInKernels: Some(not_implemented::create_program_with_built_in_kernels),
    clCompileProgram: Some(program::compile_program),
    clLinkProgram: Some(program::link_program),
    clUnloadPlatformCompiler: Some(platform::unload_platform_compiler),
    clGetKernelArgInfo: Some(kernel::get_kernel_arg_info),
    clEnqueueFillBuffer: Some(enqueue::enqueue_fill_buffer),
    clEnqueueFillImage: Some(image_enqueue::enqueue_fill_image),
    clEnqueueMigrateMemObjects: Some(enqueue::enqueue_migrate_mem_objects),
    clEnqueueMarkerWithWaitList: Some(enqueue::enqueue_marker_with_wait_list),
    clEnqueueBarrierWithWaitList: Some(enqueue::enqueue_barrier_with_wait_list),
    clGetExtensionFunctionAddressForPlatform: Some(get_extension_function_address_for_platform),
    clCreateFromGLTexture: Some(not_implemented::create_from_gl_texture),
    clGetDeviceIDsFromD3D11KHR: Some(not_implemented::get_device_ids_from_d3d11_khr),
    clCreateFromD3D11BufferKHR: Some(not_implemented::create_from_d3d11_buffer_khr),
    clCreateFromD3D11Texture2DKHR: Some(not_implemented::create_from_d3d11_texture_2d_khr),
    clCreateFromD3D11Texture3DKHR: Some(not_implemented::create_from_d3d11_texture_3d_khr),
    clCreateFromDX9MediaSurfaceKHR: Some(not_implemented::create_from_dx9_media_surface_khr),
    clEnqueueAcquireD3D11ObjectsKHR: Some(not_implemented::enqueue_acquire_d3d11_objects_khr),
    clEnqueueReleaseD3D11ObjectsKHR: Some(not_implemented::enqueue_release_d3d11_objects_khr),
    clGetDeviceIDsFromDX9MediaAdapterKHR: Some(
        not_implemented::get_device_ids_from_dx9_media_adapter_khr,
    ),
    clEnqueueAcquireDX9MediaSurfacesKHR: Some(
        not_implemented::enqueue_acquire_dx9_media_surfaces_khr,
    ),
    clEnqueueReleaseDX9MediaSurfacesKHR: Some(
        not_implemented::enqueue_release_dx9_media_surfaces_khr,
    ),
    clCreateFromEGLImageKHR: Some(not_implemented::create_from_egl_image_khr),
    clEnqueueAcquireEGLObjectsKHR: Some(not_implemented::enqueue_acquire_egl_objects_khr),
    clEnqueueReleaseEGLObjectsKHR: Some(not_implemented::enqueue_release_egl_objects_khr),
    clCreateEventFromEGLSyncKHR: Some(not_implemented::create_event_from_egl_sync_khr),
    clCreateCommandQueueWithProperties: Some(queue::create_command_queue_with_properties),
    clCreatePipe: Some(not_implemented::create_pipe),
    clGetPipeInfo: Some(not_implemented::get_pipe_info),
    clSVMAlloc: Some(not_implemented::svm_alloc),
    clSVMFree: Some(not_implemented::svm_free),
    clEnqueueSVMFree: Some(not_implemented::enqueue_svm_free),
    clEnqueueSVMMemcpy: Some(not_implemented::enqueue_svm_memcpy),
    clEnqueueSVMMemFill: Some(not_implemented::enqueue_svm_mem_fill),
    clEnqueueSVMMap: Some(not_implemented::enqueue_svm_map),
    clEnqueueSVMUnmap: Some(not_implemented::enqueue_svm_unmap),
    clCreateSamplerWithProperties: Some(sampler::create_sampler_with_properties),
    clSetKernelArgSVMPointer: Some(not_implemented::set_kernel_arg_svm_pointer),
    clSetKernelExecInfo: Some(not_implemented::set_kernel_exec_info),
    clGetKernelSubGroupInfoKHR: Some(sub_group_info::get_kernel_sub_group_info),
    clCloneKernel: Some(kernel::clone_kernel),
    clCreateProgramWithIL: Some(program::create_program_with_il),
    clEnqueueSVMMigrateMem: Some(not_implemented::enqueue_svm_migrate_mem),
    clGetDeviceAndHostTimer: Some(timer::get_device_and_host_timer),
    clGetHostTimer: Some(timer::get_host_timer),
    clGetKernelSubGroupInfo: Some(sub_group_info::get_kernel_sub_group_info),
    clSetDefaultDeviceCommandQueue: Some(not_implemented::set_default_device_command_queue),
    clSetProgramReleaseCallback: Some(not_implemented::set_program_release_callback),
    clSetProgramSpecializationConstant: Some(program::set_program_specialization_constant),
    clCreateBufferWithProperties: Some(memory::create_buffer_with_properties),
    clCreateImageWithProperties: Some(image::create_image_with_properties),
    clSetContextDestructorCallback: Some(context::set_context_destructor_callback),
    // Typed as an integer unless opencl-sys's CL_VERSION_3_1 feature is
    // on; 0 is the loader's NULL for this OpenCL 3.1 function.
    clGetKernelSuggestedLocalWorkSize: 0,
};

/// Looks up an extension function: `clIcdGetPlatformIDsKHR`,
/// `clGetKernelSubGroupInfoKHR`, `clCreateProgramWithILKHR` and the
/// diagnostic [`diagnostics::NAME`].
unsafe extern "C" fn get_extension_function_address(func_name: *const c_char) -> *mut c_void {
    let entry = entry!("clGetExtensionFunctionAddress", func_name: text);
    call::pointer(entry, || {
        // SAFETY: the caller's contract is the callee's.
        unsafe { extension_function(func_name) }
    })
}

/// The lookup behind both `clGetExtensionFunctionAddress*`.
///
/// # Safety
/// `func_name` is NULL or a NUL-terminated string.
unsafe fn extension_function(func_name: *const c_char) -> *mut c_void {
    if func_name.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: a NUL-terminated name, per the spec.
    let name = unsafe { CStr::from_ptr(func_name) };
    if name == ICD_GET_PLATFORM_IDS {
        let function: unsafe extern "C" fn(cl_uint, *mut cl_platform_id, *mut cl_uint) -> cl_int =
            platform::get_platform_ids;
        function as *mut c_void
    } else if name == c"clGetKernelSubGroupInfoKHR" {
        let function: unsafe extern "C" fn(
            opencl_sys::cl_kernel,
            opencl_sys::cl_device_id,
            opencl_sys::cl_kernel_sub_group_info,
            usize,
            *const c_void,
            usize,
            *mut c_void,
            *mut usize,
        ) -> cl_int = sub_group_info::get_kernel_sub_group_info;
        function as *mut c_void
    } else if name == c"clCreateProgramWithILKHR" {
        let function: unsafe extern "C" fn(
            opencl_sys::cl_context,
            *const c_void,
            usize,
            *mut cl_int,
        ) -> opencl_sys::cl_program = program::create_program_with_il;
        function as *mut c_void
    } else if name == diagnostics::NAME {
        let function: unsafe extern "C" fn(
            cl_platform_id,
            cl_uint,
            *mut opencl_sys::cl_ulong,
            *mut cl_uint,
        ) -> cl_int = diagnostics::get_live_object_counts;
        function as *mut c_void
    } else {
        std::ptr::null_mut()
    }
}

/// [`get_extension_function_address`] for a platform: NULL for anything
/// but this ICD's platform.
unsafe extern "C" fn get_extension_function_address_for_platform(
    platform: cl_platform_id,
    func_name: *const c_char,
) -> *mut c_void {
    let entry =
        entry!("clGetExtensionFunctionAddressForPlatform", platform: platform, func_name: text);
    call::pointer(entry, || {
        // SAFETY: a handle from the application, checked before use.
        if unsafe { handle::object::<Platform>(platform) }.is_err() {
            return std::ptr::null_mut();
        }
        // SAFETY: as for get_extension_function_address.
        unsafe { extension_function(func_name) }
    })
}

/// The loader's entry point to the platform list.
///
/// # Safety
/// As `clGetPlatformIDs`: `platforms` is NULL or holds `num_entries`
/// entries, `num_platforms` is NULL or points to a `cl_uint`.
#[no_mangle]
pub unsafe extern "C" fn clIcdGetPlatformIDsKHR(
    num_entries: cl_uint,
    platforms: *mut cl_platform_id,
    num_platforms: *mut cl_uint,
) -> cl_int {
    // SAFETY: the caller's contract is the callee's.
    unsafe { platform::get_platform_ids(num_entries, platforms, num_platforms) }
}

/// Exported for loaders that query the platform before using the table.
///
/// # Safety
/// As `clGetPlatformInfo`: the output pointers are NULL or valid for their
/// sizes.
#[no_mangle]
pub unsafe extern "C" fn clGetPlatformInfo(
    platform: cl_platform_id,
    param_name: cl_platform_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    // SAFETY: the caller's contract is the callee's.
    unsafe {
        platform::get_platform_info(
            platform,
            param_name,
            param_value_size,
            param_value,
            param_value_size_ret,
        )
    }
}

/// How the loader finds `clIcdGetPlatformIDsKHR`.
///
/// # Safety
/// `func_name` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn clGetExtensionFunctionAddress(func_name: *const c_char) -> *mut c_void {
    // SAFETY: the caller's contract is the callee's.
    unsafe { get_extension_function_address(func_name) }
}

/// The per-platform form of [`clGetExtensionFunctionAddress`].
///
/// # Safety
/// `platform` is NULL or a platform handle; `func_name` is NULL or a
/// NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn clGetExtensionFunctionAddressForPlatform(
    platform: cl_platform_id,
    func_name: *const c_char,
) -> *mut c_void {
    // SAFETY: the caller's contract is the callee's.
    unsafe { get_extension_function_address_for_platform(platform, func_name) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_icd_entry_point_and_the_diagnostic_are_the_extension_functions() {
        // SAFETY: NUL-terminated literals and NULL.
        unsafe {
            let found = get_extension_function_address(ICD_GET_PLATFORM_IDS.as_ptr());
            assert_eq!(found, platform::get_platform_ids as *mut c_void);
            let found = get_extension_function_address(diagnostics::NAME.as_ptr());
            assert_eq!(found, diagnostics::get_live_object_counts as *mut c_void);
            let found = get_extension_function_address(c"clCreateProgramWithILKHR".as_ptr());
            assert_eq!(found, program::create_program_with_il as *mut c_void);
            assert!(get_extension_function_address(c"clGetDeviceIDs".as_ptr()).is_null());
            assert!(get_extension_function_address(std::ptr::null()).is_null());
        }
    }

    #[test]
    fn every_object_starts_with_the_dispatch_table() {
        let platform = Platform::get();
        // SAFETY: the handle of a live object; its first field is the table.
        let first = unsafe { platform.handle().cast::<*const cl_icd_dispatch>().read() };
        assert!(std::ptr::eq(first, &DISPATCH));
    }

    #[test]
    fn stubs_report_invalid_operation() {
        let mut status = 0;
        // SAFETY: the stubs touch nothing but errcode_ret.
        unsafe {
            let program = not_implemented::create_program_with_built_in_kernels(
                std::ptr::null_mut(),
                0,
                std::ptr::null(),
                std::ptr::null(),
                &mut status,
            );
            assert!(program.is_null());
        }
        assert_eq!(status, opencl_sys::CL_INVALID_OPERATION);
        let entry = entry!("clTest");
        // The call frame is shared by every entry point.
        assert_eq!(
            crate::api::call::status(entry, || Ok(())),
            opencl_sys::CL_SUCCESS
        );
    }
}
