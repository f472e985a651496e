//! Samplers (`cl_sampler`): the three settings an application chose and
//! the one-word encoding a kernel receives for them
//! ([`translator::image::sampler`]). No Vulkan sampler stands behind one:
//! kernels address and filter with the spec's formulas.

use std::sync::Arc;

use opencl_sys::{
    cl_addressing_mode, cl_filter_mode, cl_sampler_properties, CL_ADDRESS_MIRRORED_REPEAT,
    CL_ADDRESS_REPEAT, CL_INVALID_SAMPLER, CL_INVALID_VALUE,
};

use crate::core::context::Context;
use crate::core::object::{ClObject, Object, ObjectKind};
use crate::core::CLResult;

pub struct Sampler {
    context: Arc<Object<Context>>,
    normalized_coords: bool,
    addressing_mode: cl_addressing_mode,
    filter_mode: cl_filter_mode,
    /// [`translator::image::sampler`]'s word for these settings.
    word: u32,
    /// The property list as given, terminator included; empty for NULL or
    /// for `clCreateSampler` (`CL_SAMPLER_PROPERTIES`).
    properties: Vec<cl_sampler_properties>,
}

impl ClObject for Sampler {
    const KIND: ObjectKind = ObjectKind::Sampler;
    const INVALID: opencl_sys::cl_int = CL_INVALID_SAMPLER;
}

impl Sampler {
    /// `CL_INVALID_VALUE` for a mode the API does not define, and for
    /// repeat addressing with unnormalized coordinates, which the spec
    /// leaves undefined.
    pub fn new(
        context: &Arc<Object<Context>>,
        normalized_coords: bool,
        addressing_mode: cl_addressing_mode,
        filter_mode: cl_filter_mode,
        properties: Vec<cl_sampler_properties>,
    ) -> CLResult<Arc<Object<Sampler>>> {
        let word =
            translator::image::sampler::from_api(normalized_coords, addressing_mode, filter_mode)
                .ok_or(CL_INVALID_VALUE)?;
        let repeats = matches!(
            addressing_mode,
            CL_ADDRESS_REPEAT | CL_ADDRESS_MIRRORED_REPEAT
        );
        if repeats && !normalized_coords {
            return Err(CL_INVALID_VALUE);
        }
        Ok(Object::new(Sampler {
            context: context.clone(),
            normalized_coords,
            addressing_mode,
            filter_mode,
            word,
            properties,
        }))
    }

    pub fn context(&self) -> &Arc<Object<Context>> {
        &self.context
    }

    pub fn normalized_coords(&self) -> bool {
        self.normalized_coords
    }

    pub fn addressing_mode(&self) -> cl_addressing_mode {
        self.addressing_mode
    }

    pub fn filter_mode(&self) -> cl_filter_mode {
        self.filter_mode
    }

    /// The word a kernel's `sampler_t` argument receives.
    pub fn word(&self) -> u32 {
        self.word
    }

    pub fn properties(&self) -> &[cl_sampler_properties] {
        &self.properties
    }
}
