//! Sampler entry points: creation (with and without a property list),
//! retain/release and `clGetSamplerInfo`.

use std::ffi::c_void;

use opencl_sys::{
    cl_addressing_mode, cl_bool, cl_context, cl_filter_mode, cl_int, cl_sampler, cl_sampler_info,
    cl_sampler_properties, cl_uint, CL_ADDRESS_CLAMP, CL_FALSE, CL_FILTER_NEAREST,
    CL_INVALID_VALUE, CL_SAMPLER_ADDRESSING_MODE, CL_SAMPLER_CONTEXT, CL_SAMPLER_FILTER_MODE,
    CL_SAMPLER_NORMALIZED_COORDS, CL_SAMPLER_PROPERTIES, CL_SAMPLER_REFERENCE_COUNT, CL_TRUE,
};

use crate::api::call;
use crate::api::context::read_property_list;
use crate::api::handle;
use crate::api::info::{write_info, InfoValue};
use crate::api::trace::entry;
use crate::core::context::Context;
use crate::core::object::Object;
use crate::core::sampler::Sampler;
use crate::core::CLResult;

/// `CL_TRUE` or `CL_FALSE`, else `CL_INVALID_VALUE`.
fn normalized(value: u64) -> CLResult<bool> {
    match u32::try_from(value) {
        Ok(CL_TRUE) => Ok(true),
        Ok(CL_FALSE) => Ok(false),
        _ => Err(CL_INVALID_VALUE),
    }
}

pub(crate) unsafe extern "C" fn create_sampler(
    context: cl_context,
    normalized_coords: cl_bool,
    addressing_mode: cl_addressing_mode,
    filter_mode: cl_filter_mode,
    errcode_ret: *mut cl_int,
) -> cl_sampler {
    let entry = entry!(
        "clCreateSampler" -> Sampler,
        context: context,
        normalized_coords: boolean,
        addressing_mode: unsigned,
        filter_mode: unsigned,
        errcode_ret: pointer,
    );
    let created = call::create(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let context = unsafe { handle::arc::<Context>(context)? };
        let sampler = Sampler::new(
            &context,
            normalized(normalized_coords.into())?,
            addressing_mode,
            filter_mode,
            Vec::new(),
        )?;
        Ok(handle::into_handle(sampler))
    });
    // SAFETY: errcode_ret is the application's, NULL or a cl_int.
    unsafe { created.report(errcode_ret) }.cast()
}

pub(crate) unsafe extern "C" fn create_sampler_with_properties(
    context: cl_context,
    sampler_properties: *const cl_sampler_properties,
    errcode_ret: *mut cl_int,
) -> cl_sampler {
    let entry = entry!(
        "clCreateSamplerWithProperties" -> Sampler,
        context: context,
        sampler_properties: pointer,
        errcode_ret: pointer,
    );
    let created = call::create(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let context = unsafe { handle::arc::<Context>(context)? };
        // SAFETY: NULL or a zero-terminated list, per the contract.
        let properties = unsafe { read_property_list(sampler_properties) };
        let (mut normalized_coords, mut addressing, mut filter) =
            (None, None, None::<cl_filter_mode>);
        for pair in properties.chunks_exact(2) {
            let (name, value) = (pair[0], pair[1]);
            let slot_was_empty = match u32::try_from(name).unwrap_or(0) {
                CL_SAMPLER_NORMALIZED_COORDS => {
                    normalized_coords.replace(normalized(value)?).is_none()
                }
                CL_SAMPLER_ADDRESSING_MODE => addressing
                    .replace(u32::try_from(value).map_err(|_| CL_INVALID_VALUE)?)
                    .is_none(),
                CL_SAMPLER_FILTER_MODE => filter
                    .replace(u32::try_from(value).map_err(|_| CL_INVALID_VALUE)?)
                    .is_none(),
                _ => false,
            };
            if !slot_was_empty {
                return Err(CL_INVALID_VALUE);
            }
        }
        let sampler = Sampler::new(
            &context,
            normalized_coords.unwrap_or(true),
            addressing.unwrap_or(CL_ADDRESS_CLAMP),
            filter.unwrap_or(CL_FILTER_NEAREST),
            properties,
        )?;
        Ok(handle::into_handle(sampler))
    });
    // SAFETY: errcode_ret is the application's, NULL or a cl_int.
    unsafe { created.report(errcode_ret) }.cast()
}

pub(crate) unsafe extern "C" fn retain_sampler(sampler: cl_sampler) -> cl_int {
    let entry = entry!("clRetainSampler", sampler: sampler);
    // SAFETY: a handle from the application, checked before use.
    call::status(entry, || unsafe {
        handle::retain::<Sampler>(sampler.cast())
    })
}

pub(crate) unsafe extern "C" fn release_sampler(sampler: cl_sampler) -> cl_int {
    let entry = entry!("clReleaseSampler", sampler: sampler);
    // SAFETY: a handle from the application, checked before use.
    call::status(entry, || unsafe {
        handle::release::<Sampler>(sampler.cast())
    })
}

fn sampler_info(sampler: &Object<Sampler>, param_name: cl_sampler_info) -> CLResult<InfoValue> {
    Ok(match param_name {
        CL_SAMPLER_REFERENCE_COUNT => InfoValue::scalar::<cl_uint>(sampler.api_reference_count()),
        CL_SAMPLER_CONTEXT => InfoValue::handle(Some(&**sampler.context())),
        CL_SAMPLER_NORMALIZED_COORDS => InfoValue::bool(sampler.normalized_coords()),
        CL_SAMPLER_ADDRESSING_MODE => InfoValue::scalar(sampler.addressing_mode()),
        CL_SAMPLER_FILTER_MODE => InfoValue::scalar(sampler.filter_mode()),
        CL_SAMPLER_PROPERTIES => InfoValue::array(sampler.properties()),
        _ => return Err(CL_INVALID_VALUE),
    })
}

pub(crate) unsafe extern "C" fn get_sampler_info(
    sampler: cl_sampler,
    param_name: cl_sampler_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    let entry = entry!(
        "clGetSamplerInfo",
        sampler: sampler,
        param_name: info,
        param_value_size: size,
        param_value: pointer,
        param_value_size_ret: pointer,
    );
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let sampler = unsafe { handle::object::<Sampler>(sampler.cast())? };
        let value = sampler_info(&sampler, param_name)?;
        // SAFETY: the application's buffers, per the clGetSamplerInfo contract.
        unsafe { write_info(&value, param_value_size, param_value, param_value_size_ret) }
    })
}
