//! Image and sampler kernel arguments: which images an image parameter
//! accepts, the view a launch binds for it (a sampled or storage view of
//! the image, or a storage texel buffer view of a 1D buffer image's
//! buffer), and the [`ImageInfo`] words the kernel reads its size, format
//! and channel order from.

use std::sync::Arc;

use opencl_sys::{
    CL_INVALID_ARG_VALUE, CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_ARRAY,
    CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY,
    CL_MEM_OBJECT_IMAGE3D,
};
use translator::image::{
    info_flags, order_layout, ImageAccess, ImageDescriptor, ImageDim, ImageInfo, CL_DEPTH,
};

use crate::core::device::Device;
use crate::core::image::ImageDescription;
use crate::core::memory::Mem;
use crate::core::object::Object;
use crate::core::residency::Access;
use crate::core::CLResult;
use crate::vulkan::{ImageBinding, TexelBufferView, ViewShape};

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
/// type when `depth`) bound as `descriptor`: the view is made now, on the
/// image's device, so that launches only bind it. `CL_INVALID_ARG_VALUE`
/// for an image of another type or one the access cannot use (a format
/// without storage for a `write_only` parameter).
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
    let binding = match (descriptor, &parts.storage) {
        (ImageDescriptor::StorageTexelBuffer, None) => {
            let buffer = mem.image_buffer_on(device)?;
            let element = description.format.element_size as u64;
            let view = TexelBufferView::create(
                &buffer,
                description.format.vk_format,
                element,
                mem.origin() as u64,
                description.width as u64,
            )
            .map_err(|_| CL_INVALID_ARG_VALUE)?;
            ImageBinding::TexelBuffer(Arc::new(view))
        }
        (ImageDescriptor::Sampled | ImageDescriptor::Storage, Some(image)) => {
            let storage = descriptor == ImageDescriptor::Storage;
            let view = image
                .create_view(view_shape(dim), storage)
                .map_err(|_| CL_INVALID_ARG_VALUE)?;
            let view = Arc::new(view);
            if storage {
                ImageBinding::Storage(view)
            } else {
                ImageBinding::Sampled(view)
            }
        }
        _ => return Err(CL_INVALID_ARG_VALUE),
    };
    Ok(BoundImage {
        binding,
        info: info_of(description).ok_or(CL_INVALID_ARG_VALUE)?,
        access: match access {
            ImageAccess::ReadOnly => Access::Read,
            ImageAccess::WriteOnly | ImageAccess::ReadWrite => Access::Write,
        },
    })
}

fn view_shape(dim: ImageDim) -> ViewShape {
    match dim {
        ImageDim::D1 | ImageDim::D1Buffer => ViewShape::D1,
        ImageDim::D1Array => ViewShape::D1Array,
        ImageDim::D2 => ViewShape::D2,
        ImageDim::D2Array => ViewShape::D2Array,
        ImageDim::D3 => ViewShape::D3,
    }
}

/// The info words of an image of `description`.
pub fn info_of(description: &ImageDescription) -> Option<ImageInfo> {
    let format = &description.format;
    let layout = order_layout(format.order)?;
    let word = |n: usize| u32::try_from(n).ok();
    Some(ImageInfo {
        width: word(description.width)?,
        height: word(description.height)?,
        depth: word(description.depth)?,
        array_size: word(description.array_size)?,
        channel_data_type: format.data_type,
        channel_order: format.order,
        swizzle: layout.swizzle_word(),
        flags: info_flags(&layout, format.data_type),
    })
}
