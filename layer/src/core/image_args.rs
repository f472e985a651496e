//! Image and sampler kernel arguments: which images an image parameter
//! accepts, the view a launch binds for it (a sampled or storage view of
//! the image, or a storage texel buffer view of a 1D buffer image's
//! buffer), and the [`ImageInfo`] words the kernel reads its size, format
//! and channel order from.

use std::sync::Arc;

use opencl_sys::{
    CL_INVALID_ARG_VALUE, CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_ARRAY,
    CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY,
    CL_MEM_OBJECT_IMAGE3D, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY,
};
use translator::image::{ImageAccess, ImageDescriptor, ImageDim, ImageInfo, CL_DEPTH};

use crate::core::device::Device;
use crate::core::image;
use crate::core::memory::Mem;
use crate::core::object::Object;
use crate::core::residency::Access;
use crate::core::CLResult;
use crate::vulkan::ImageBinding;

/// An image argument as set: the view to bind and the info words.
#[derive(Clone)]
pub struct BoundImage {
    pub binding: ImageBinding,
    pub info: ImageInfo,
    pub access: Access,
}

/// The image type an image parameter of `dim` takes.
fn image_type_of(dim: ImageDim) -> u32 {
    match dim {
        ImageDim::D1 => CL_MEM_OBJECT_IMAGE1D,
        ImageDim::D1Buffer => CL_MEM_OBJECT_IMAGE1D_BUFFER,
        ImageDim::D1Array => CL_MEM_OBJECT_IMAGE1D_ARRAY,
        ImageDim::D2 => CL_MEM_OBJECT_IMAGE2D,
        ImageDim::D2Array => CL_MEM_OBJECT_IMAGE2D_ARRAY,
        ImageDim::D3 => CL_MEM_OBJECT_IMAGE3D,
    }
}

/// `clSetKernelArg` of image `mem` for a parameter of type `dim` (a depth
/// type when `depth`) bound as `descriptor`: the view is found now, on the
/// image's device, so that launches only bind it. `CL_INVALID_ARG_VALUE`
/// for an image of another type; `CL_INVALID_MEM_OBJECT` for one the
/// access cannot use (a format without storage for a `write_only`
/// parameter); `CL_INVALID_ARG_VALUE` too for a `CL_MEM_WRITE_ONLY` image
/// given to a `read_only` parameter or a `CL_MEM_READ_ONLY` one to a
/// `write_only` parameter.
pub fn bind(
    mem: &Object<Mem>,
    device: &Arc<Object<Device>>,
    (dim, depth): (ImageDim, bool),
    access: ImageAccess,
    descriptor: ImageDescriptor,
) -> CLResult<BoundImage> {
    let parts = mem.image().ok_or(CL_INVALID_ARG_VALUE)?;
    let description = &parts.description;
    let is_depth = description.format.order == CL_DEPTH;
    if description.image_type != image_type_of(dim) || is_depth != depth {
        return Err(CL_INVALID_ARG_VALUE);
    }
    // The spec's clSetKernelArg errors: a kernel may not read an image the
    // host declared write-only, nor write one it declared read-only.
    let refused = match access {
        ImageAccess::ReadOnly => CL_MEM_WRITE_ONLY,
        ImageAccess::WriteOnly => CL_MEM_READ_ONLY,
        ImageAccess::ReadWrite => 0,
    };
    if mem.flags() & refused != 0 {
        return Err(CL_INVALID_ARG_VALUE);
    }
    // Views are made on first use and kept with the image (see
    // `ImageParts::view`); a format without storage refuses a write view.
    let binding = match descriptor {
        ImageDescriptor::StorageTexelBuffer => {
            ImageBinding::TexelBuffer(image::texel_buffer_view(mem, device)?)
        }
        ImageDescriptor::Sampled => ImageBinding::Sampled(parts.view(false)?),
        ImageDescriptor::Storage => ImageBinding::Storage(parts.view(true)?),
    };
    Ok(BoundImage {
        binding,
        info: parts.info()?,
        access: match access {
            ImageAccess::ReadOnly => Access::Read,
            ImageAccess::WriteOnly | ImageAccess::ReadWrite => Access::Write,
        },
    })
}
