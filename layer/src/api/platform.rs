//! Platform entry points: `clGetPlatformIDs` (which the loader reaches as
//! `clIcdGetPlatformIDsKHR`), `clGetPlatformInfo` and
//! `clUnloadPlatformCompiler`.

use std::ffi::c_void;

use opencl_sys::{
    cl_int, cl_platform_id, cl_platform_info, cl_uint, cl_ulong, CL_INVALID_VALUE,
    CL_PLATFORM_EXTENSIONS, CL_PLATFORM_EXTENSIONS_WITH_VERSION, CL_PLATFORM_HOST_TIMER_RESOLUTION,
    CL_PLATFORM_ICD_SUFFIX_KHR, CL_PLATFORM_NAME, CL_PLATFORM_NUMERIC_VERSION, CL_PLATFORM_PROFILE,
    CL_PLATFORM_VENDOR, CL_PLATFORM_VERSION,
};

use crate::api::call::{self, write_if_not_null};
use crate::api::info::{write_info, InfoValue};
use crate::api::trace::entry;
use crate::api::{handle, timer};
use crate::core::platform::{self, Platform};
use crate::core::CLResult;

/// `clGetPlatformIDs` and `clIcdGetPlatformIDsKHR`: there is always exactly
/// one platform, with or without devices.
pub(crate) unsafe extern "C" fn get_platform_ids(
    num_entries: cl_uint,
    platforms: *mut cl_platform_id,
    num_platforms: *mut cl_uint,
) -> cl_int {
    let entry = entry!(
        "clGetPlatformIDs",
        num_entries: unsigned,
        platforms: out_platforms(num_entries),
        num_platforms: out_count,
    );
    call::status(entry, || {
        // "CL_INVALID_VALUE if num_entries is equal to zero and platforms is
        // not NULL or if both num_platforms and platforms are NULL."
        if (num_entries == 0 && !platforms.is_null())
            || (num_platforms.is_null() && platforms.is_null())
        {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: the spec's contract: platforms holds num_entries (> 0 if
        // non-NULL) entries, num_platforms is NULL or a cl_uint.
        unsafe {
            write_if_not_null(platforms, Platform::get().handle());
            write_if_not_null(num_platforms, 1);
        }
        Ok(())
    })
}

/// The answers of `clGetPlatformInfo`, a table in the spec.
fn platform_info(param_name: cl_platform_info) -> CLResult<InfoValue> {
    let extension_names: Vec<&str> = platform::EXTENSIONS.iter().map(|(name, _)| *name).collect();
    Ok(match param_name {
        CL_PLATFORM_PROFILE => InfoValue::string(platform::PROFILE),
        CL_PLATFORM_VERSION => InfoValue::string(platform::VERSION),
        CL_PLATFORM_NUMERIC_VERSION => InfoValue::scalar(platform::NUMERIC_VERSION),
        CL_PLATFORM_NAME => InfoValue::string(platform::NAME),
        CL_PLATFORM_VENDOR => InfoValue::string(platform::VENDOR),
        CL_PLATFORM_EXTENSIONS => InfoValue::string(&extension_names.join(" ")),
        CL_PLATFORM_EXTENSIONS_WITH_VERSION => {
            InfoValue::name_versions(platform::EXTENSIONS.iter().copied())
        }
        CL_PLATFORM_HOST_TIMER_RESOLUTION => InfoValue::scalar::<cl_ulong>(timer::RESOLUTION_NS),
        CL_PLATFORM_ICD_SUFFIX_KHR => InfoValue::string(platform::ICD_SUFFIX),
        _ => return Err(CL_INVALID_VALUE),
    })
}

pub(crate) unsafe extern "C" fn get_platform_info(
    platform: cl_platform_id,
    param_name: cl_platform_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    let entry = entry!(
        "clGetPlatformInfo",
        platform: platform,
        param_name: info,
        param_value_size: size,
        param_value: pointer,
        param_value_size_ret: pointer,
    );
    call::status(entry, || {
        // The spec leaves a NULL platform implementation-defined; with one
        // platform, it is that one.
        if !platform.is_null() {
            // SAFETY: a handle from the application, checked before use.
            unsafe { handle::object::<Platform>(platform)? };
        }
        let value = platform_info(param_name)?;
        // SAFETY: the application's buffers, per the clGetPlatformInfo contract.
        unsafe { write_info(&value, param_value_size, param_value, param_value_size_ret) }
    })
}

/// A hint: the compiler is a library with nothing to unload.
pub(crate) unsafe extern "C" fn unload_platform_compiler(platform: cl_platform_id) -> cl_int {
    let entry = entry!("clUnloadPlatformCompiler", platform: platform);
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        unsafe { handle::object::<Platform>(platform)? };
        Ok(())
    })
}

/// The OpenCL 1.1 form of [`unload_platform_compiler`].
pub(crate) unsafe extern "C" fn unload_compiler() -> cl_int {
    let entry = entry!("clUnloadCompiler");
    call::status(entry, || Ok(()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string(param: cl_platform_info) -> String {
        let mut buffer = [0u8; 256];
        let mut size = 0usize;
        // SAFETY: a live buffer of the size passed.
        let status = unsafe {
            get_platform_info(
                std::ptr::null_mut(),
                param,
                buffer.len(),
                buffer.as_mut_ptr().cast(),
                &mut size,
            )
        };
        assert_eq!(status, opencl_sys::CL_SUCCESS);
        String::from_utf8(buffer[..size - 1].to_vec()).unwrap()
    }

    #[test]
    fn platform_strings() {
        assert_eq!(string(CL_PLATFORM_PROFILE), "FULL_PROFILE");
        assert_eq!(string(CL_PLATFORM_NAME), "clvulkan");
        assert_eq!(string(CL_PLATFORM_ICD_SUFFIX_KHR), "VK");
        assert!(string(CL_PLATFORM_EXTENSIONS)
            .split(' ')
            .any(|e| e == "cl_khr_icd"));
        assert!(string(CL_PLATFORM_VERSION).starts_with("OpenCL 3.0 clvulkan "));
    }

    #[test]
    fn get_platform_ids_checks_its_arguments() {
        let mut platform: cl_platform_id = std::ptr::null_mut();
        let mut count = 0;
        // SAFETY: live locals.
        unsafe {
            assert_eq!(
                get_platform_ids(0, &mut platform, std::ptr::null_mut()),
                CL_INVALID_VALUE
            );
            assert_eq!(
                get_platform_ids(0, std::ptr::null_mut(), std::ptr::null_mut()),
                CL_INVALID_VALUE
            );
            assert_eq!(
                get_platform_ids(0, std::ptr::null_mut(), &mut count),
                opencl_sys::CL_SUCCESS
            );
            assert_eq!(
                get_platform_ids(1, &mut platform, &mut count),
                opencl_sys::CL_SUCCESS
            );
        }
        assert_eq!(count, 1);
        assert_eq!(platform, Platform::get().handle());
    }

    #[test]
    fn unknown_parameter_is_invalid_value() {
        let mut size = 0usize;
        // SAFETY: a live local.
        let status = unsafe {
            get_platform_info(
                std::ptr::null_mut(),
                0x1234,
                0,
                std::ptr::null_mut(),
                &mut size,
            )
        };
        assert_eq!(status, CL_INVALID_VALUE);
    }
}
