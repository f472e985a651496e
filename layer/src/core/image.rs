//! Image memory objects: what `clCreateImage` accepts, what an image is
//! made of, and the commands that move texels between images, buffers and
//! the host (`clEnqueue{Read,Write,Copy,Fill}Image`,
//! `clEnqueueCopy{ImageToBuffer,BufferToImage}`).
//!
//! An image other than a 1D buffer image is one `VkImage` (see
//! [`crate::vulkan::Image`]), allocated at creation on the one device of
//! its context: images in contexts of several devices are refused with
//! `CL_INVALID_OPERATION` for now. A 1D buffer image is a range of the
//! buffer it was made from, which it shares (kernels see it through a
//! texel buffer view).
//!
//! Every transfer goes through packed texels: the host's rows are gathered
//! into (or scattered from) a packed staging buffer, and the device copies
//! packed texels to and from the image. 2D images made from buffers
//! (`cl_khr_image2d_from_buffer`) are not supported: an optimal-tiled
//! image cannot alias a buffer.

use std::sync::{Arc, OnceLock};

use opencl_sys::{
    cl_command_type, cl_mem_flags, cl_mem_object_type, CL_COMMAND_COPY_BUFFER_TO_IMAGE,
    CL_COMMAND_COPY_IMAGE, CL_COMMAND_COPY_IMAGE_TO_BUFFER, CL_COMMAND_FILL_IMAGE,
    CL_IMAGE_FORMAT_MISMATCH, CL_IMAGE_FORMAT_NOT_SUPPORTED, CL_INVALID_HOST_PTR,
    CL_INVALID_IMAGE_DESCRIPTOR, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, CL_INVALID_IMAGE_SIZE,
    CL_INVALID_MEM_OBJECT, CL_INVALID_OPERATION, CL_INVALID_VALUE, CL_MEM_COPY_HOST_PTR,
    CL_MEM_COPY_OVERLAP, CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY,
    CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE1D_BUFFER,
    CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D, CL_MEM_READ_ONLY,
    CL_MEM_READ_WRITE, CL_MEM_USE_HOST_PTR, CL_MEM_WRITE_ONLY,
};

use crate::core::command::{Recipe, Step};
use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::enqueue::{wait_if_blocking, Waits};
use crate::core::error::VkResultExt;
use crate::core::event::{Event, HostCompletion};
use crate::core::host::{self, HostMemory};
use crate::core::image_format::{self, ImageFormat, KernelAccess};
use crate::core::memory::{self, Mem};
use crate::core::object::Object;
use crate::core::queue::Queue;
use crate::core::rect::RectSide;
use crate::core::residency::Access;
use crate::core::texel::{self, Color};
use crate::core::CLResult;
use translator::image::{info_flags, order_layout, ImageInfo};

use crate::vulkan::{self, ImageRegion, ImageShape, Placement, ViewShape};

/// The size and format of an image (`cl_image_desc` and `cl_image_format`
/// as validated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageDescription {
    pub image_type: cl_mem_object_type,
    pub format: ImageFormat,
    /// 1 for the dimensions the type lacks.
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    /// 1 for an image that is not an array.
    pub array_size: usize,
}

impl ImageDescription {
    /// Bytes of the whole image, packed.
    pub fn size(&self) -> usize {
        self.width * self.height * self.depth * self.array_size * self.format.element_size
    }

    /// Packed bytes of one row.
    pub fn row_pitch(&self) -> usize {
        self.width * self.format.element_size
    }

    /// `CL_IMAGE_SLICE_PITCH`: bytes of one slice of a 3D image or one
    /// image of an array; 0 for other types.
    pub fn slice_pitch(&self) -> usize {
        match self.image_type {
            CL_MEM_OBJECT_IMAGE1D_ARRAY => self.row_pitch(),
            CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D => self.row_pitch() * self.height,
            _ => 0,
        }
    }

    /// The Vulkan image of this description (not for 1D buffer images).
    fn vulkan(&self, storage: bool) -> vulkan::ImageDescription {
        let (shape, extent, layers) = match self.image_type {
            CL_MEM_OBJECT_IMAGE1D | CL_MEM_OBJECT_IMAGE1D_ARRAY => {
                (ImageShape::D1, [self.width, 1, 1], self.array_size)
            }
            CL_MEM_OBJECT_IMAGE3D => (ImageShape::D3, [self.width, self.height, self.depth], 1),
            _ => (
                ImageShape::D2,
                [self.width, self.height, 1],
                self.array_size,
            ),
        };
        vulkan::ImageDescription {
            shape,
            format: self.format.vk_format,
            extent: extent.map(|e| e as u32),
            layers: layers as u32,
            storage,
            storage_view_format: self.format.storage_view_format.filter(|_| storage),
        }
    }

    /// The image region of an API `origin` and `region`: `CL_INVALID_VALUE`
    /// for a region with a zero, an unused dimension other than (0, 1), or
    /// a box outside the image.
    pub fn region(&self, origin: [usize; 3], region: [usize; 3]) -> CLResult<ImageRegion> {
        if region.contains(&0) {
            return Err(CL_INVALID_VALUE);
        }
        // The axes in use: x, y, z as texels, then the layer axis.
        let (used, layer_axis) = match self.image_type {
            CL_MEM_OBJECT_IMAGE1D | CL_MEM_OBJECT_IMAGE1D_BUFFER => (1, None),
            CL_MEM_OBJECT_IMAGE1D_ARRAY => (1, Some(1)),
            CL_MEM_OBJECT_IMAGE2D => (2, None),
            CL_MEM_OBJECT_IMAGE2D_ARRAY => (2, Some(2)),
            _ => (3, None),
        };
        let limits = [self.width, self.height, self.depth];
        let mut offset = [0u32; 3];
        let mut extent = [1u32; 3];
        let (mut first_layer, mut layers) = (0u32, 1u32);
        for axis in 0..3 {
            let end = origin[axis]
                .checked_add(region[axis])
                .ok_or(CL_INVALID_VALUE)?;
            if axis < used {
                if end > limits[axis] {
                    return Err(CL_INVALID_VALUE);
                }
                offset[axis] = origin[axis] as u32;
                extent[axis] = region[axis] as u32;
            } else if Some(axis) == layer_axis {
                if end > self.array_size {
                    return Err(CL_INVALID_VALUE);
                }
                first_layer = origin[axis] as u32;
                layers = region[axis] as u32;
            } else if origin[axis] != 0 || region[axis] != 1 {
                return Err(CL_INVALID_VALUE);
            }
        }
        Ok(ImageRegion {
            offset,
            extent,
            first_layer,
            layers,
        })
    }

    /// The host layout of a region (`[row bytes, rows, slices]`) and its
    /// rows and slices placed by `row_pitch` and `slice_pitch` (0: packed);
    /// `CL_INVALID_VALUE` for pitches too small or, for types without
    /// slices, a non-zero slice pitch.
    pub fn host_side(
        &self,
        region: &ImageRegion,
        row_pitch: usize,
        slice_pitch: usize,
    ) -> CLResult<([usize; 3], RectSide)> {
        let row_bytes = region.extent[0] as usize * self.format.element_size;
        let rows = region.extent[1] as usize;
        let slices = (region.extent[2] * region.layers) as usize;
        let has_slices = matches!(
            self.image_type,
            CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D
        );
        if !has_slices && slice_pitch != 0 {
            return Err(CL_INVALID_VALUE);
        }
        let (row_pitch, slice_pitch) = if self.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY {
            // One row per image of the array: the slice pitch places them.
            let row = if row_pitch == 0 { row_bytes } else { row_pitch };
            if row < row_bytes {
                return Err(CL_INVALID_VALUE);
            }
            let slice = if slice_pitch == 0 { row } else { slice_pitch };
            if slice < row {
                return Err(CL_INVALID_VALUE);
            }
            (slice, slice)
        } else {
            (row_pitch, slice_pitch)
        };
        let layout = [row_bytes, rows, slices];
        let side = RectSide {
            origin: [0; 3],
            row_pitch,
            slice_pitch,
        }
        .resolve(layout)?;
        Ok((layout, side))
    }
}

/// What makes a memory object an image.
pub struct ImageParts {
    pub description: ImageDescription,
    /// The pitches of the memory at `host_ptr` (packed when not given).
    pub host_row_pitch: usize,
    pub host_slice_pitch: usize,
    /// The memory object a 1D buffer image was made from
    /// (`CL_MEM_ASSOCIATED_MEMOBJECT`, `CL_IMAGE_BUFFER`).
    pub buffer: Option<Arc<Object<Mem>>>,
    /// The Vulkan image; `None` for a 1D buffer image.
    pub storage: Option<Arc<vulkan::Image>>,
    /// The views kernels bind, made on first use: sampled, storage, and a
    /// 1D buffer image's texel buffer view.
    pub views: ImageViews,
}

/// See [`ImageParts::views`].
#[derive(Default)]
pub struct ImageViews {
    sampled: OnceLock<Arc<vulkan::ImageView>>,
    storage: OnceLock<Arc<vulkan::ImageView>>,
    texel_buffer: OnceLock<Arc<vulkan::TexelBufferView>>,
}

impl ImageParts {
    /// The image-info block of [`translator::image::ImageInfo`] that a
    /// kernel receives with this image.
    pub fn info(&self) -> CLResult<ImageInfo> {
        let d = &self.description;
        let layout = order_layout(d.format.order).ok_or(CL_IMAGE_FORMAT_NOT_SUPPORTED)?;
        let count = |n: usize| u32::try_from(n).map_err(|_| CL_INVALID_IMAGE_SIZE);
        Ok(ImageInfo {
            width: count(d.width)?,
            height: count(d.height)?,
            depth: count(d.depth)?,
            array_size: count(d.array_size)?,
            channel_data_type: d.format.data_type,
            channel_order: d.format.order,
            swizzle: layout.swizzle_word(),
            flags: info_flags(&layout, d.format.data_type),
        })
    }

    /// How a kernel views the image; `None` for a 1D buffer image, which
    /// is bound through [`texel_buffer_view`].
    pub fn view_shape(&self) -> Option<ViewShape> {
        Some(match self.description.image_type {
            CL_MEM_OBJECT_IMAGE1D => ViewShape::D1,
            CL_MEM_OBJECT_IMAGE1D_ARRAY => ViewShape::D1Array,
            CL_MEM_OBJECT_IMAGE2D => ViewShape::D2,
            CL_MEM_OBJECT_IMAGE2D_ARRAY => ViewShape::D2Array,
            CL_MEM_OBJECT_IMAGE3D => ViewShape::D3,
            _ => return None,
        })
    }

    /// The view a kernel binds the image through: for sampled reads
    /// (`read_only` images, [`translator::image::ImageDescriptor::Sampled`])
    /// or, with `storage`, for writes and read-write access (an sRGB image's
    /// UNORM view). Made on first use and kept. `CL_INVALID_MEM_OBJECT` for
    /// a 1D buffer image, and for storage where the format has none.
    pub fn view(&self, storage: bool) -> CLResult<Arc<vulkan::ImageView>> {
        let image = self.storage.as_ref().ok_or(CL_INVALID_MEM_OBJECT)?;
        let shape = self.view_shape().ok_or(CL_INVALID_MEM_OBJECT)?;
        if storage && !image.description().storage {
            return Err(CL_INVALID_MEM_OBJECT);
        }
        let cell = if storage {
            &self.views.storage
        } else {
            &self.views.sampled
        };
        if let Some(view) = cell.get() {
            return Ok(view.clone());
        }
        let view = image
            .create_view(shape, storage)
            .map(Arc::new)
            .or_out_of_resources()?;
        // Two threads may both make one; either serves.
        Ok(cell.get_or_init(|| view).clone())
    }
}

/// The storage texel buffer view of a 1D buffer image `mem` on `device`
/// (its context's one device), made on first use and kept.
/// `CL_INVALID_MEM_OBJECT` for other images and buffers.
pub fn texel_buffer_view(
    mem: &Mem,
    device: &Arc<Object<Device>>,
) -> CLResult<Arc<vulkan::TexelBufferView>> {
    let parts = parts(mem)?;
    if let Some(view) = parts.views.texel_buffer.get() {
        return Ok(view.clone());
    }
    let buffer = mem.image_buffer_on(device)?;
    let format = parts.description.format;
    let view = vulkan::TexelBufferView::create(
        &buffer,
        format.vk_format,
        format.element_size as u64,
        mem.origin() as u64,
        parts.description.width as u64,
    )
    .map(Arc::new)
    .or_out_of_resources()?;
    Ok(parts.views.texel_buffer.get_or_init(|| view).clone())
}

/// A `cl_image_desc` and `cl_image_format` as the application gave them.
#[derive(Clone)]
pub struct ImageRequest {
    pub flags: cl_mem_flags,
    /// `None` for a NULL `image_format`.
    pub format: Option<(u32, u32)>,
    pub image_type: cl_mem_object_type,
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub array_size: usize,
    pub row_pitch: usize,
    pub slice_pitch: usize,
    pub num_mip_levels: u32,
    pub num_samples: u32,
    pub buffer: Option<Arc<Object<Mem>>>,
    /// Whether `host_ptr` is non-NULL.
    pub has_host_ptr: bool,
}

/// The image limits of a device (`CL_DEVICE_IMAGE*`).
#[derive(Clone, Copy, Debug)]
pub struct ImageLimits {
    pub max_1d: usize,
    pub max_2d: usize,
    pub max_3d: usize,
    pub max_array_size: usize,
    pub max_buffer_texels: usize,
}

impl ImageLimits {
    pub fn of(device: &Device) -> ImageLimits {
        let limits = &device.info().limits;
        ImageLimits {
            max_1d: limits.max_image_dimension1_d as usize,
            max_2d: limits.max_image_dimension2_d as usize,
            max_3d: limits.max_image_dimension3_d as usize,
            max_array_size: limits.max_image_array_layers as usize,
            max_buffer_texels: limits.max_texel_buffer_elements as usize,
        }
    }
}

/// Whether an image of `format`, `image_type` and `flags` may be made on
/// `device`.
pub fn device_supports(
    device: &Device,
    format: &ImageFormat,
    image_type: cl_mem_object_type,
    flags: cl_mem_flags,
) -> bool {
    device.vk().is_ok_and(|vk| {
        image_format::supports(vk.physical(), format, image_type, KernelAccess::of(flags))
    })
}

const IMAGE_DEVICE_FLAGS: cl_mem_flags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
const IMAGE_HOST_FLAGS: cl_mem_flags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;

/// Validates `request` against `context` by the `clCreateImage` rules; the
/// description, the host pitches, and the flags the image gets.
pub fn validate(
    context: &Context,
    request: &ImageRequest,
) -> CLResult<(ImageDescription, [usize; 2], cl_mem_flags)> {
    memory::validate_buffer_flags(request.flags)?;
    let (order, data_type) = request.format.ok_or(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)?;
    if !image_format::is_defined(order, data_type) {
        return Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    }
    let known_type = matches!(
        request.image_type,
        CL_MEM_OBJECT_IMAGE1D
            | CL_MEM_OBJECT_IMAGE1D_ARRAY
            | CL_MEM_OBJECT_IMAGE1D_BUFFER
            | CL_MEM_OBJECT_IMAGE2D
            | CL_MEM_OBJECT_IMAGE2D_ARRAY
            | CL_MEM_OBJECT_IMAGE3D
    );
    if !known_type || request.num_mip_levels != 0 || request.num_samples != 0 {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    // Images need their one device: contents are not moved between devices.
    let [device] = context.devices() else {
        return Err(CL_INVALID_OPERATION);
    };
    let from_buffer = request.image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER;
    let flags = match (&request.buffer, from_buffer) {
        (None, true) => return Err(CL_INVALID_IMAGE_DESCRIPTOR),
        (Some(_), false) if request.image_type == CL_MEM_OBJECT_IMAGE2D => {
            // cl_khr_image2d_from_buffer is not supported.
            return Err(CL_INVALID_OPERATION);
        }
        (Some(_), false) => return Err(CL_INVALID_IMAGE_DESCRIPTOR),
        (Some(buffer), true) => inherit_buffer_flags(buffer, request.flags)?,
        (None, false) => request.flags,
    };
    let Some(format) = image_format::lookup(order, data_type) else {
        return Err(CL_IMAGE_FORMAT_NOT_SUPPORTED);
    };
    if !device_supports(device, &format, request.image_type, flags) {
        return Err(CL_IMAGE_FORMAT_NOT_SUPPORTED);
    }

    let limits = ImageLimits::of(device);
    let one = |used: bool, value: usize| if used { value } else { 1 };
    let t = request.image_type;
    let description = ImageDescription {
        image_type: t,
        format,
        width: request.width,
        height: one(
            matches!(
                t,
                CL_MEM_OBJECT_IMAGE2D | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D
            ),
            request.height,
        ),
        depth: one(t == CL_MEM_OBJECT_IMAGE3D, request.depth),
        array_size: one(
            matches!(t, CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY),
            request.array_size,
        ),
    };
    let sides = [
        description.width,
        description.height,
        description.depth,
        description.array_size,
    ];
    if sides.contains(&0) {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    let max_side = match t {
        CL_MEM_OBJECT_IMAGE1D | CL_MEM_OBJECT_IMAGE1D_ARRAY => limits.max_1d,
        CL_MEM_OBJECT_IMAGE1D_BUFFER => limits.max_buffer_texels,
        CL_MEM_OBJECT_IMAGE3D => limits.max_3d,
        _ => limits.max_2d,
    };
    let too_large = description.width > max_side
        || description.height > max_side
        || description.depth > max_side
        || description.array_size > limits.max_array_size
        || description.size() as u64 > device.max_mem_alloc_size();
    if too_large {
        return Err(CL_INVALID_IMAGE_SIZE);
    }
    if !from_buffer {
        let vk = device.vk()?;
        let vulkan = description.vulkan(image_format::has_storage(vk.physical(), &format));
        if !vulkan::image_fits(vk, &vulkan) {
            return Err(CL_INVALID_IMAGE_SIZE);
        }
    }
    if let Some(buffer) = &request.buffer {
        if buffer.image().is_some() {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
        if description.size() > buffer.size() {
            return Err(CL_INVALID_IMAGE_SIZE);
        }
    }

    // Pitches describe host_ptr's memory, or the buffer's for an image made
    // from one (the CTS passes a 1D buffer image its packed row pitch):
    // 0 without either.
    let has_slices = matches!(
        t,
        CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D
    );
    let describes_memory = request.has_host_ptr || from_buffer;
    if !describes_memory && (request.row_pitch != 0 || request.slice_pitch != 0) {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    let element = format.element_size;
    let row_pitch = match request.row_pitch {
        0 => description.row_pitch(),
        given if given < description.row_pitch() || !given.is_multiple_of(element) => {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR)
        }
        // A 1D buffer image is one row of the buffer's packed texels
        // whatever pitch is given.
        _ if from_buffer => description.row_pitch(),
        given => given,
    };
    let rows_per_slice = if t == CL_MEM_OBJECT_IMAGE1D_ARRAY {
        1
    } else {
        description.height
    };
    let packed_slice = row_pitch * rows_per_slice;
    let slice_pitch = match request.slice_pitch {
        0 if has_slices => packed_slice,
        0 => 0,
        _ if !has_slices => 0,
        given if given < packed_slice || !given.is_multiple_of(row_pitch) => {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR)
        }
        given => given,
    };

    // An image made from a buffer takes the buffer's memory, never
    // host_ptr (its host pointer flags are the buffer's).
    let wrong_host_ptr = if from_buffer {
        request.has_host_ptr
    } else {
        request.has_host_ptr != memory::takes_host_contents(flags)
    };
    if wrong_host_ptr {
        return Err(CL_INVALID_HOST_PTR);
    }
    Ok((description, [row_pitch, slice_pitch], flags))
}

/// The flags of an image made from `buffer`: those not given are the
/// buffer's; given ones may not widen its access (`CL_INVALID_VALUE`), and
/// host pointer flags are not allowed.
fn inherit_buffer_flags(buffer: &Mem, flags: cl_mem_flags) -> CLResult<cl_mem_flags> {
    let host_pointer =
        CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR | opencl_sys::CL_MEM_ALLOC_HOST_PTR;
    if flags & host_pointer != 0 {
        return Err(CL_INVALID_VALUE);
    }
    let parent = buffer.flags();
    let device_conflict = match parent & IMAGE_DEVICE_FLAGS {
        CL_MEM_WRITE_ONLY => flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY) != 0,
        CL_MEM_READ_ONLY => flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY) != 0,
        _ => false,
    };
    let host_conflict = match parent & IMAGE_HOST_FLAGS {
        CL_MEM_HOST_WRITE_ONLY => flags & CL_MEM_HOST_READ_ONLY != 0,
        CL_MEM_HOST_READ_ONLY => flags & CL_MEM_HOST_WRITE_ONLY != 0,
        CL_MEM_HOST_NO_ACCESS => flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY) != 0,
        _ => false,
    };
    if device_conflict || host_conflict {
        return Err(CL_INVALID_VALUE);
    }
    let inherit = |group: cl_mem_flags| {
        if flags & group == 0 {
            parent & group
        } else {
            flags & group
        }
    };
    Ok(inherit(IMAGE_DEVICE_FLAGS) | inherit(IMAGE_HOST_FLAGS) | parent & host_pointer)
}

/// `clCreateImage` after [`validate`]: `contents` is the memory at
/// `host_ptr` (from its start to the last byte the pitches reach) when the
/// flags ask for it.
pub fn create(
    context: &Arc<Object<Context>>,
    request: &ImageRequest,
    contents: Option<&[u8]>,
    host_ptr: usize,
    properties: Vec<opencl_sys::cl_mem_properties>,
) -> CLResult<Arc<Object<Mem>>> {
    let (description, [row_pitch, slice_pitch], flags) = validate(context, request)?;
    let [device] = context.devices() else {
        return Err(CL_INVALID_OPERATION);
    };
    let host_ptr = if flags & CL_MEM_USE_HOST_PTR != 0 {
        host_ptr
    } else {
        0
    };
    if let Some(buffer) = &request.buffer {
        let root = match buffer.parent() {
            Some(root) => (root.clone(), buffer.origin()),
            None => (buffer.clone(), 0),
        };
        let parts = ImageParts {
            description,
            host_row_pitch: row_pitch,
            host_slice_pitch: slice_pitch,
            buffer: Some(buffer.clone()),
            storage: None,
            views: ImageViews::default(),
        };
        // A USE_HOST_PTR buffer's memory is the image's (CL_MEM_HOST_PTR,
        // and where a map of the image lies).
        let host_ptr = if flags & CL_MEM_USE_HOST_PTR != 0 {
            buffer.host_ptr()
        } else {
            0
        };
        return Ok(Mem::new_image(
            context,
            flags,
            host_ptr,
            properties,
            parts,
            Some(root),
        ));
    }
    let vk = device.vk()?;
    let storage = image_format::has_storage(vk.physical(), &description.format);
    let image = vk
        .create_image(description.vulkan(storage))
        .or_allocation_failure()?;
    let packed = match contents {
        Some(bytes) => {
            let whole = description.region([0; 3], whole_region(&description))?;
            let (layout, side) = description.host_side(&whole, row_pitch, slice_pitch)?;
            Some(gather(bytes, &side, layout)?)
        }
        None => None,
    };
    device.initialize_image(&image, packed.as_deref())?;
    let parts = ImageParts {
        description,
        host_row_pitch: row_pitch,
        host_slice_pitch: slice_pitch,
        buffer: None,
        storage: Some(image),
        views: ImageViews::default(),
    };
    Ok(Mem::new_image(
        context, flags, host_ptr, properties, parts, None,
    ))
}

/// The API region of the whole image.
pub fn whole_region(description: &ImageDescription) -> [usize; 3] {
    match description.image_type {
        CL_MEM_OBJECT_IMAGE1D_ARRAY => [description.width, description.array_size, 1],
        CL_MEM_OBJECT_IMAGE2D_ARRAY => [
            description.width,
            description.height,
            description.array_size,
        ],
        _ => [description.width, description.height, description.depth],
    }
}

/// The bytes one past the last the host layout reaches.
pub fn host_extent(side: &RectSide, layout: [usize; 3]) -> CLResult<usize> {
    side.end(layout).ok_or(CL_INVALID_VALUE)
}

/// The rows of `layout` at `side` in `bytes`, packed.
fn gather(bytes: &[u8], side: &RectSide, layout: [usize; 3]) -> CLResult<Vec<u8>> {
    let mut packed = Vec::with_capacity(layout[0] * layout[1] * layout[2]);
    for row in side.rows(layout) {
        let source = bytes.get(row..row + layout[0]).ok_or(CL_INVALID_VALUE)?;
        packed.extend_from_slice(source);
    }
    Ok(packed)
}

/// Where an image's texels are on a device.
enum Store {
    Image(Arc<vulkan::Image>),
    /// A 1D buffer image: texel `x` is at byte `offset + x * element`.
    Buffer(Arc<vulkan::Buffer>, u64),
}

/// The parts of `mem` as an image; `CL_INVALID_MEM_OBJECT` for a buffer.
pub fn parts(mem: &Mem) -> CLResult<&ImageParts> {
    mem.image().ok_or(CL_INVALID_MEM_OBJECT)
}

fn store(mem: &Mem, device: &Arc<Object<Device>>) -> CLResult<Store> {
    let parts = parts(mem)?;
    match &parts.storage {
        Some(image) => Ok(Store::Image(image.clone())),
        None => Ok(Store::Buffer(
            mem.image_buffer_on(device)?,
            mem.origin() as u64,
        )),
    }
}

/// Whether a buffer offset suits vkCmdCopy{Buffer,Image}To{Image,Buffer}.
fn aligned_for_image(offset: u64, element: usize) -> bool {
    offset.is_multiple_of(element as u64) && offset.is_multiple_of(4)
}

/// Pushes the steps that copy `region` of `from` (an image of `element`
/// bytes per texel) packed into `buffer` at `offset`.
fn push_to_packed(
    recipe: &mut Recipe,
    device: &Device,
    (from, element): (&Store, usize),
    region: ImageRegion,
    (buffer, offset): (&Arc<vulkan::Buffer>, u64),
) -> CLResult<()> {
    let bytes = packed_bytes(&region, element);
    match from {
        Store::Buffer(source, base) => recipe.push(Step::Copy {
            src: source.clone(),
            src_offset: base + u64::from(region.offset[0]) * element as u64,
            dst: buffer.clone(),
            dst_offset: offset,
            size: bytes,
        }),
        Store::Image(image) if aligned_for_image(offset, element) => {
            recipe.push(Step::ImageToBuffer {
                src: image.clone(),
                region,
                dst: buffer.clone(),
                dst_offset: offset,
            })
        }
        Store::Image(image) => {
            let bounce = device.lease(Placement::DeviceLocal, bytes)?;
            recipe.push(Step::ImageToBuffer {
                src: image.clone(),
                region,
                dst: bounce.buffer().clone(),
                dst_offset: 0,
            });
            recipe.push(Step::Copy {
                src: bounce.buffer().clone(),
                src_offset: 0,
                dst: buffer.clone(),
                dst_offset: offset,
                size: bytes,
            });
            recipe.hold(bounce);
        }
    }
    Ok(())
}

/// Pushes the steps that copy packed texels from `buffer` at `offset` into
/// `region` of `to`.
fn push_from_packed(
    recipe: &mut Recipe,
    device: &Device,
    (buffer, offset): (&Arc<vulkan::Buffer>, u64),
    (to, element): (&Store, usize),
    region: ImageRegion,
) -> CLResult<()> {
    let bytes = packed_bytes(&region, element);
    match to {
        Store::Buffer(target, base) => recipe.push(Step::Copy {
            src: buffer.clone(),
            src_offset: offset,
            dst: target.clone(),
            dst_offset: base + u64::from(region.offset[0]) * element as u64,
            size: bytes,
        }),
        Store::Image(image) if aligned_for_image(offset, element) => {
            recipe.push(Step::BufferToImage {
                src: buffer.clone(),
                src_offset: offset,
                dst: image.clone(),
                region,
            })
        }
        Store::Image(image) => {
            let bounce = device.lease(Placement::DeviceLocal, bytes)?;
            recipe.push(Step::Copy {
                src: buffer.clone(),
                src_offset: offset,
                dst: bounce.buffer().clone(),
                dst_offset: 0,
                size: bytes,
            });
            recipe.push(Step::BufferToImage {
                src: bounce.buffer().clone(),
                src_offset: 0,
                dst: image.clone(),
                region,
            });
            recipe.hold(bounce);
        }
    }
    Ok(())
}

fn packed_bytes(region: &ImageRegion, element: usize) -> u64 {
    region.extent.iter().map(|&e| u64::from(e)).product::<u64>()
        * u64::from(region.layers)
        * element as u64
}

/// `clEnqueueReadImage` (and the read of `clEnqueueMapImage`): `region`
/// of `mem` into `destination`, laid out by `side` over `layout`.
#[allow(clippy::too_many_arguments)]
pub fn read_image_as(
    command: cl_command_type,
    queue: &Arc<Object<Queue>>,
    mem: &Arc<Object<Mem>>,
    blocking: bool,
    region: ImageRegion,
    (layout, side): ([usize; 3], RectSide),
    mut destination: Box<dyn HostMemory>,
    waits: Waits,
) -> CLResult<Arc<Object<Event>>> {
    let element = parts(mem)?.description.format.element_size;
    let from = store(mem, queue.device())?;
    let bytes = packed_bytes(&region, element);
    let staging = queue.device().lease(Placement::Readback, bytes)?;
    let mut recipe = Recipe::default();
    push_to_packed(
        &mut recipe,
        queue.device(),
        (&from, element),
        region,
        (staging.buffer(), 0),
    )?;
    recipe.uses(mem.clone(), Access::Read);
    recipe.hold(staging.clone());
    recipe.writes_host(host::span(destination.bytes_mut()));
    let scatter: HostCompletion = Box::new(move || {
        let bytes = destination.bytes_mut();
        for (i, row) in side.rows(layout).enumerate() {
            let target = bytes
                .get_mut(row..row + layout[0])
                .ok_or(CL_INVALID_VALUE)?;
            staging
                .buffer()
                .read((i * layout[0]) as u64, target)
                .or_out_of_resources()?;
        }
        Ok(())
    });
    let event = queue.enqueue(command, waits, recipe, Some(scatter))?;
    wait_if_blocking(&event, blocking)?;
    Ok(event)
}

/// `clEnqueueWriteImage` (and the write-back of an unmap): `source`, laid
/// out by `side` over `layout`, into `region` of `mem`.
#[allow(clippy::too_many_arguments)]
pub fn write_image_as(
    command: cl_command_type,
    queue: &Arc<Object<Queue>>,
    mem: &Arc<Object<Mem>>,
    blocking: bool,
    region: ImageRegion,
    (layout, side): ([usize; 3], RectSide),
    source: Box<dyn HostMemory>,
    waits: Waits,
) -> CLResult<Arc<Object<Event>>> {
    let element = parts(mem)?.description.format.element_size;
    let to = store(mem, queue.device())?;
    let pending = queue.pending_host_writes(waits, &host::span(source.bytes()));
    let bytes = packed_bytes(&region, element);
    let staging = queue.device().lease(Placement::Upload, bytes)?;
    let mut after = waits.to_vec();
    if !pending.is_empty() && !blocking {
        // An earlier command still fills the source (a non-blocking read):
        // a host command takes the data once everything before it is
        // done, and the write follows it (as `enqueue::write_when_filled`).
        let filled = staging.clone();
        let fill: HostCompletion = Box::new(move || {
            let packed = gather(source.bytes(), &side, layout)?;
            filled.buffer().write(0, &packed).or_out_of_resources()
        });
        after.push(queue.enqueue(command, waits, Recipe::on_host(fill), None)?);
    } else {
        // A blocking write waits for the commands before it anyway.
        for earlier in pending {
            earlier.wait()?;
        }
        let packed = gather(source.bytes(), &side, layout)?;
        staging.buffer().write(0, &packed).or_out_of_resources()?;
    }
    let waits = &after[..];
    let mut recipe = Recipe::default();
    push_from_packed(
        &mut recipe,
        queue.device(),
        (staging.buffer(), 0),
        (&to, element),
        region,
    )?;
    recipe.hold(staging);
    recipe.uses(mem.clone(), Access::Write);
    let event = queue.enqueue(command, waits, recipe, None)?;
    wait_if_blocking(&event, blocking)?;
    Ok(event)
}

/// `CL_INVALID_OPERATION` when the host may not read `mem`.
pub fn check_host_can_read(mem: &Mem) -> CLResult<()> {
    mem.check_host_can_read()
}

/// `clEnqueueCopyImage`.
pub fn copy_image(
    queue: &Arc<Object<Queue>>,
    (src, src_origin): (&Arc<Object<Mem>>, [usize; 3]),
    (dst, dst_origin): (&Arc<Object<Mem>>, [usize; 3]),
    region: [usize; 3],
    waits: Waits,
) -> CLResult<Arc<Object<Event>>> {
    let (from, to) = (parts(src)?, parts(dst)?);
    let (src_format, dst_format) = (from.description.format, to.description.format);
    if (src_format.order, src_format.data_type) != (dst_format.order, dst_format.data_type) {
        return Err(CL_IMAGE_FORMAT_MISMATCH);
    }
    let src_region = from.description.region(src_origin, region)?;
    let dst_region = to.description.region(dst_origin, region)?;
    if packed_bytes(&src_region, 1) != packed_bytes(&dst_region, 1) {
        // Images of different types whose regions differ in shape.
        return Err(CL_INVALID_VALUE);
    }
    if Arc::ptr_eq(src, dst) && overlaps(&src_region, &dst_region) {
        return Err(CL_MEM_COPY_OVERLAP);
    }
    let element = src_format.element_size;
    let device = queue.device();
    let (src_store, dst_store) = (store(src, device)?, store(dst, device)?);
    let mut recipe = Recipe::default();
    match (&src_store, &dst_store) {
        (Store::Image(a), Store::Image(b)) if same_shape(&src_region, &dst_region) => {
            recipe.push(Step::ImageToImage {
                src: a.clone(),
                region: src_region,
                dst: b.clone(),
                dst_offset: dst_region.offset,
                dst_first_layer: dst_region.first_layer,
            })
        }
        _ => {
            // Through packed texels: between image types, or to and from
            // 1D buffer images.
            let bytes = packed_bytes(&src_region, element);
            let bounce = device.lease(Placement::DeviceLocal, bytes)?;
            push_to_packed(
                &mut recipe,
                device,
                (&src_store, element),
                src_region,
                (bounce.buffer(), 0),
            )?;
            push_from_packed(
                &mut recipe,
                device,
                (bounce.buffer(), 0),
                (&dst_store, element),
                dst_region,
            )?;
            recipe.hold(bounce);
        }
    }
    recipe.uses(src.clone(), Access::Read);
    recipe.uses(dst.clone(), Access::Write);
    queue.enqueue(CL_COMMAND_COPY_IMAGE, waits, recipe, None)
}

/// Regions of one extent and layer count (a copy between images of one
/// type, or a 2D image and one layer of a 2D array).
fn same_shape(a: &ImageRegion, b: &ImageRegion) -> bool {
    a.extent == b.extent && a.layers == b.layers
}

/// Whether two regions of one image share a texel.
fn overlaps(a: &ImageRegion, b: &ImageRegion) -> bool {
    let apart = |start_a: u32, len_a: u32, start_b: u32, len_b: u32| {
        start_a + len_a <= start_b || start_b + len_b <= start_a
    };
    !(0..3).any(|axis| {
        apart(
            a.offset[axis],
            a.extent[axis],
            b.offset[axis],
            b.extent[axis],
        )
    }) && !apart(a.first_layer, a.layers, b.first_layer, b.layers)
}

/// `clEnqueueFillImage`: `color` is the 16 bytes at `fill_color`.
pub fn fill_image(
    queue: &Arc<Object<Queue>>,
    mem: &Arc<Object<Mem>>,
    color: [u8; 16],
    origin: [usize; 3],
    region: [usize; 3],
    waits: Waits,
) -> CLResult<Arc<Object<Event>>> {
    let description = parts(mem)?.description;
    let region = description.region(origin, region)?;
    let format = description.format;
    let texel = texel::pack(&format, Color::from_bytes(format.data_type, color));
    let bytes = packed_bytes(&region, format.element_size);
    let pattern: Vec<u8> = texel.iter().copied().cycle().take(bytes as usize).collect();
    let staging = queue.device().lease(Placement::Upload, bytes)?;
    staging.buffer().write(0, &pattern).or_out_of_resources()?;
    let to = store(mem, queue.device())?;
    let mut recipe = Recipe::default();
    push_from_packed(
        &mut recipe,
        queue.device(),
        (staging.buffer(), 0),
        (&to, format.element_size),
        region,
    )?;
    recipe.hold(staging);
    recipe.uses(mem.clone(), Access::Write);
    queue.enqueue(CL_COMMAND_FILL_IMAGE, waits, recipe, None)
}

/// `clEnqueueCopyImageToBuffer`.
pub fn copy_image_to_buffer(
    queue: &Arc<Object<Queue>>,
    (image, origin, region): (&Arc<Object<Mem>>, [usize; 3], [usize; 3]),
    (buffer, offset): (&Arc<Object<Mem>>, usize),
    waits: Waits,
) -> CLResult<Arc<Object<Event>>> {
    let description = parts(image)?.description;
    let region = description.region(origin, region)?;
    let element = description.format.element_size;
    let bytes = packed_bytes(&region, element) as usize;
    buffer.check_range(offset, bytes)?;
    let target = buffer.buffer_on(queue.device())?;
    let from = store(image, queue.device())?;
    let mut recipe = Recipe::default();
    push_to_packed(
        &mut recipe,
        queue.device(),
        (&from, element),
        region,
        (&target, (buffer.origin() + offset) as u64),
    )?;
    recipe.uses(image.clone(), Access::Read);
    recipe.uses(buffer.clone(), buffer.write_access(offset, bytes));
    queue.enqueue(CL_COMMAND_COPY_IMAGE_TO_BUFFER, waits, recipe, None)
}

/// `clEnqueueCopyBufferToImage`.
pub fn copy_buffer_to_image(
    queue: &Arc<Object<Queue>>,
    (buffer, offset): (&Arc<Object<Mem>>, usize),
    (image, origin, region): (&Arc<Object<Mem>>, [usize; 3], [usize; 3]),
    waits: Waits,
) -> CLResult<Arc<Object<Event>>> {
    let description = parts(image)?.description;
    let region = description.region(origin, region)?;
    let element = description.format.element_size;
    let bytes = packed_bytes(&region, element) as usize;
    buffer.check_range(offset, bytes)?;
    let source = buffer.buffer_on(queue.device())?;
    let to = store(image, queue.device())?;
    let mut recipe = Recipe::default();
    push_from_packed(
        &mut recipe,
        queue.device(),
        (&source, (buffer.origin() + offset) as u64),
        (&to, element),
        region,
    )?;
    recipe.uses(buffer.clone(), Access::Read);
    recipe.uses(image.clone(), Access::Write);
    queue.enqueue(CL_COMMAND_COPY_BUFFER_TO_IMAGE, waits, recipe, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::platform::Platform;
    use translator::image::{CL_BGRA, CL_RGBA, CL_UNORM_INT8, CL_UNSIGNED_INT8};

    /// A context of the lavapipe device alone.
    fn lavapipe_context() -> Arc<Object<Context>> {
        let device = Platform::get()
            .devices()
            .iter()
            .find(|device| device.name().starts_with("llvmpipe"))
            .expect("lavapipe is installed on the test machine")
            .clone();
        Context::new(vec![device], Vec::new(), None).expect("context")
    }

    fn request(image_type: cl_mem_object_type, order: u32, data_type: u32) -> ImageRequest {
        ImageRequest {
            flags: CL_MEM_READ_WRITE,
            format: Some((order, data_type)),
            image_type,
            width: 8,
            height: 4,
            depth: 2,
            array_size: 3,
            row_pitch: 0,
            slice_pitch: 0,
            num_mip_levels: 0,
            num_samples: 0,
            buffer: None,
            has_host_ptr: false,
        }
    }

    /// What the kernel-argument code binds: the info block and the views
    /// of each descriptor kind, for every image type.
    #[test]
    fn images_give_kernels_their_info_and_views() {
        let context = lavapipe_context();
        let device = context.devices()[0].clone();
        let types = [
            CL_MEM_OBJECT_IMAGE1D,
            CL_MEM_OBJECT_IMAGE1D_ARRAY,
            CL_MEM_OBJECT_IMAGE2D,
            CL_MEM_OBJECT_IMAGE2D_ARRAY,
            CL_MEM_OBJECT_IMAGE3D,
        ];
        for image_type in types {
            let mem = create(
                &context,
                &request(image_type, CL_BGRA, CL_UNORM_INT8),
                None,
                0,
                Vec::new(),
            )
            .expect("image");
            let parts = parts(&mem).expect("parts");
            let info = parts.info().expect("info");
            assert_eq!(info.width, 8);
            assert_eq!(info.channel_order, CL_BGRA);
            let layout = order_layout(CL_BGRA).expect("layout");
            assert_eq!(info.swizzle, layout.swizzle_word());
            assert_eq!(info.flags & ImageInfo::HAS_ALPHA, ImageInfo::HAS_ALPHA);
            let sampled = parts.view(false).expect("sampled view");
            assert!(Arc::ptr_eq(&sampled, &parts.view(false).expect("again")));
            parts.view(true).expect("storage view");
            assert_eq!(
                texel_buffer_view(&mem, &device).err(),
                Some(CL_INVALID_MEM_OBJECT)
            );
        }
        let buffer = Mem::new_buffer(
            &context,
            memory::BufferDescription {
                flags: CL_MEM_READ_WRITE,
                size: 1024,
                contents: None,
                host_ptr: 0,
                properties: Vec::new(),
            },
        )
        .expect("buffer");
        let mut buffer_request = request(CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_RGBA, CL_UNSIGNED_INT8);
        buffer_request.buffer = Some(buffer);
        buffer_request.flags = 0;
        let mem = create(&context, &buffer_request, None, 0, Vec::new()).expect("1D buffer image");
        let view = texel_buffer_view(&mem, &device).expect("texel buffer view");
        assert!(Arc::ptr_eq(
            &view,
            &texel_buffer_view(&mem, &device).expect("again")
        ));
        assert_eq!(
            parts(&mem).and_then(|p| p.view(false)).err(),
            Some(CL_INVALID_MEM_OBJECT)
        );
    }

    fn description(image_type: cl_mem_object_type, sides: [usize; 4]) -> ImageDescription {
        ImageDescription {
            image_type,
            format: image_format::lookup(CL_RGBA, CL_UNSIGNED_INT8).expect("format"),
            width: sides[0],
            height: sides[1],
            depth: sides[2],
            array_size: sides[3],
        }
    }

    #[test]
    fn regions_use_the_axes_of_their_type() {
        let d2 = description(CL_MEM_OBJECT_IMAGE2D, [8, 4, 1, 1]);
        assert!(d2.region([0, 0, 0], [8, 4, 1]).is_ok());
        assert_eq!(d2.region([1, 0, 0], [8, 4, 1]), Err(CL_INVALID_VALUE));
        assert_eq!(d2.region([0, 0, 0], [8, 4, 2]), Err(CL_INVALID_VALUE));
        assert_eq!(d2.region([0, 0, 1], [8, 4, 1]), Err(CL_INVALID_VALUE));
        assert_eq!(d2.region([0, 0, 0], [0, 4, 1]), Err(CL_INVALID_VALUE));
        let array = description(CL_MEM_OBJECT_IMAGE1D_ARRAY, [8, 1, 1, 5]);
        let region = array.region([2, 1, 0], [3, 4, 1]).expect("1D array region");
        assert_eq!((region.first_layer, region.layers), (1, 4));
        assert_eq!(region.extent, [3, 1, 1]);
        assert_eq!(array.region([2, 2, 0], [3, 4, 1]), Err(CL_INVALID_VALUE));
    }

    #[test]
    fn host_pitches_default_and_are_checked() {
        let d3 = description(CL_MEM_OBJECT_IMAGE3D, [8, 4, 2, 1]);
        let region = d3.region([0; 3], [2, 3, 2]).expect("region");
        let (layout, side) = d3.host_side(&region, 0, 0).expect("packed");
        assert_eq!(layout, [8, 3, 2]);
        assert_eq!((side.row_pitch, side.slice_pitch), (8, 24));
        assert_eq!(d3.host_side(&region, 7, 0).err(), Some(CL_INVALID_VALUE));
        let d2 = description(CL_MEM_OBJECT_IMAGE2D, [8, 4, 1, 1]);
        let region = d2.region([0; 3], [2, 3, 1]).expect("region");
        assert_eq!(d2.host_side(&region, 0, 64).err(), Some(CL_INVALID_VALUE));
        let array = description(CL_MEM_OBJECT_IMAGE1D_ARRAY, [8, 1, 1, 3]);
        let region = array.region([0; 3], [2, 3, 1]).expect("region");
        let (layout, side) = array.host_side(&region, 0, 20).expect("1D array");
        assert_eq!(layout, [8, 1, 3]);
        assert_eq!(side.slice_pitch, 20);
    }
}
