//! Images: a `VkImage` in optimal tiling on device-local memory from the
//! device's gpu-allocator, the views kernels bind it through, and texel
//! buffer views of buffers (`image1d_buffer_t`).
//!
//! An image lives in `VK_IMAGE_LAYOUT_GENERAL` from its first command to
//! its end ([`crate::vulkan::Stream::initialize_image`] puts it there), so
//! no command tracks layouts and the stream's global memory barriers order
//! image accesses as they order buffer accesses.

use std::sync::Arc;

use ash::vk;
use gpu_allocator::vulkan::{Allocation, AllocationCreateDesc, AllocationScheme};
use gpu_allocator::MemoryLocation;

use super::device::Device;
use super::error::VkError;
use super::memory::Buffer;

/// The dimensionality of a `VkImage`; arrays are 1D or 2D images with
/// layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageShape {
    D1,
    D2,
    D3,
}

/// What an image is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageDescription {
    pub shape: ImageShape,
    pub format: vk::Format,
    /// Width, height, depth in texels (1 for the dimensions the shape lacks).
    pub extent: [u32; 3],
    /// Array layers; 1 for an image that is not an array.
    pub layers: u32,
    /// Usable as a storage image (the format supports it).
    pub storage: bool,
    /// A format other than `format` that views may have (the UNORM format
    /// kernels write an sRGB image through); the image is then created with
    /// `VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT`.
    pub storage_view_format: Option<vk::Format>,
}

/// How a view presents an image to a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ViewShape {
    D1,
    D1Array,
    D2,
    D2Array,
    D3,
}

/// A region of an image for copies: texel offset and extent (1 for the
/// dimensions the shape lacks), and the layers it covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageRegion {
    pub offset: [u32; 3],
    pub extent: [u32; 3],
    pub first_layer: u32,
    pub layers: u32,
}

impl ImageRegion {
    pub(crate) fn subresource(&self) -> vk::ImageSubresourceLayers {
        vk::ImageSubresourceLayers::default()
            .aspect_mask(vk::ImageAspectFlags::COLOR)
            .mip_level(0)
            .base_array_layer(self.first_layer)
            .layer_count(self.layers)
    }

    pub(crate) fn vk_offset(&self) -> vk::Offset3D {
        // Offsets within maxImageDimension* (checked) fit an i32.
        let [x, y, z] = self.offset.map(|o| i32::try_from(o).unwrap_or(i32::MAX));
        vk::Offset3D { x, y, z }
    }

    pub(crate) fn vk_extent(&self) -> vk::Extent3D {
        let [width, height, depth] = self.extent;
        vk::Extent3D {
            width,
            height,
            depth,
        }
    }
}

/// A device image. Holds its device alive; freed when the last Arc goes.
pub struct Image {
    device: Arc<Device>,
    raw: vk::Image,
    /// Always Some after creation; an Option so Drop can hand it back.
    allocation: Option<Allocation>,
    description: ImageDescription,
}

impl std::fmt::Debug for Image {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Image")
            .field("description", &self.description)
            .finish_non_exhaustive()
    }
}

impl Image {
    pub(crate) fn create(
        device: &Arc<Device>,
        description: ImageDescription,
    ) -> Result<Image, VkError> {
        let limits = &device.info().limits;
        let [width, height, depth] = description.extent;
        let max_side = match description.shape {
            ImageShape::D1 => limits.max_image_dimension1_d,
            ImageShape::D2 => limits.max_image_dimension2_d,
            ImageShape::D3 => limits.max_image_dimension3_d,
        };
        let flat = match description.shape {
            ImageShape::D1 => height == 1 && depth == 1,
            ImageShape::D2 => depth == 1,
            ImageShape::D3 => description.layers == 1,
        };
        if !flat
            || description.extent.contains(&0)
            || description.layers == 0
            || width.max(height).max(depth) > max_side
            || description.layers > limits.max_image_array_layers
        {
            return Err(VkError::InvalidArgument(format!(
                "image {description:?} is empty or beyond the device's limits"
            )));
        }
        if !fits(device, &description) {
            return Err(VkError::InvalidArgument(format!(
                "image {description:?} exceeds what the device supports for its format"
            )));
        }
        let mut image = Image {
            device: Arc::clone(device),
            raw: vk::Image::null(),
            allocation: None,
            description,
        };
        let create_info = create_info(&description);
        let raw_device = device.raw();
        // SAFETY: the extent, layers and type agree and are within the
        // device's limits and what it reports for this format, type, usage
        // and flags (`fits`, checked above); exclusive sharing needs no
        // family list.
        image.raw = unsafe { raw_device.create_image(&create_info, None) }
            .map_err(VkError::call("vkCreateImage"))?;
        // SAFETY: `image.raw` is a live image of this device.
        let requirements = unsafe { raw_device.get_image_memory_requirements(image.raw) };
        let allocation = device.allocator().allocate(&AllocationCreateDesc {
            name: "clvulkan image",
            requirements,
            location: MemoryLocation::GpuOnly,
            linear: false,
            allocation_scheme: AllocationScheme::GpuAllocatorManaged,
        })?;
        // SAFETY: the allocation was made for this image's requirements and
        // is bound once; Drop destroys the image before freeing the memory.
        let bound = unsafe {
            raw_device.bind_image_memory(image.raw, allocation.memory(), allocation.offset())
        };
        image.allocation = Some(allocation);
        bound.map_err(VkError::call("vkBindImageMemory"))?;
        Ok(image)
    }

    pub fn description(&self) -> &ImageDescription {
        &self.description
    }

    pub fn device(&self) -> &Arc<Device> {
        &self.device
    }

    pub(crate) fn raw(&self) -> vk::Image {
        self.raw
    }

    /// A view of every layer in `shape`, of the image's own format (for
    /// sampled reads) or, with `storage` on an sRGB image, of its storage
    /// view format (for writes, which kernels encode themselves).
    pub fn create_view(
        self: &Arc<Self>,
        shape: ViewShape,
        storage: bool,
    ) -> Result<ImageView, VkError> {
        ImageView::create(self, shape, storage)
    }

    /// Whether `shape` views an image of this description.
    fn accepts_view(&self, shape: ViewShape) -> bool {
        let layers = self.description.layers;
        match (self.description.shape, shape) {
            (ImageShape::D1, ViewShape::D1) | (ImageShape::D2, ViewShape::D2) => layers == 1,
            (ImageShape::D1, ViewShape::D1Array) | (ImageShape::D2, ViewShape::D2Array) => true,
            (ImageShape::D3, ViewShape::D3) => true,
            _ => false,
        }
    }
}

/// How an image of `description` is created: what [`fits`] asks the
/// device about is what [`Image::create`] creates.
fn create_info(description: &ImageDescription) -> vk::ImageCreateInfo<'static> {
    let [width, height, depth] = description.extent;
    let mut usage = vk::ImageUsageFlags::TRANSFER_SRC
        | vk::ImageUsageFlags::TRANSFER_DST
        | vk::ImageUsageFlags::SAMPLED;
    if description.storage {
        usage |= vk::ImageUsageFlags::STORAGE;
    }
    // Storage usage on an sRGB image is for its UNORM views only, which
    // EXTENDED_USAGE allows where the sRGB format cannot be stored to.
    let flags = if description.storage_view_format.is_some() {
        vk::ImageCreateFlags::MUTABLE_FORMAT | vk::ImageCreateFlags::EXTENDED_USAGE
    } else {
        vk::ImageCreateFlags::empty()
    };
    let image_type = match description.shape {
        ImageShape::D1 => vk::ImageType::TYPE_1D,
        ImageShape::D2 => vk::ImageType::TYPE_2D,
        ImageShape::D3 => vk::ImageType::TYPE_3D,
    };
    vk::ImageCreateInfo::default()
        .flags(flags)
        .image_type(image_type)
        .format(description.format)
        .extent(vk::Extent3D {
            width,
            height,
            depth,
        })
        .mip_levels(1)
        .array_layers(description.layers)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(usage)
        .sharing_mode(vk::SharingMode::EXCLUSIVE)
        .initial_layout(vk::ImageLayout::UNDEFINED)
}

/// Whether the device can create an image of `description`: its format,
/// type, usage and flags are supported and the extent, layers and size
/// are within what `vkGetPhysicalDeviceImageFormatProperties` allows.
pub fn fits(device: &Device, description: &ImageDescription) -> bool {
    let info = create_info(description);
    // SAFETY: the physical device was enumerated from this live instance;
    // the arguments are valid enum values and flags.
    let properties = unsafe {
        device
            .instance()
            .raw()
            .get_physical_device_image_format_properties(
                device.info().handle,
                info.format,
                info.image_type,
                info.tiling,
                info.usage,
                info.flags,
            )
    };
    let Ok(properties) = properties else {
        return false;
    };
    let [width, height, depth] = description.extent;
    let max = properties.max_extent;
    let bytes = super::stream::texel_size(description.format).map(|texel| {
        texel
            * u64::from(width)
            * u64::from(height)
            * u64::from(depth)
            * u64::from(description.layers)
    });
    width <= max.width
        && height <= max.height
        && depth <= max.depth
        && description.layers <= properties.max_array_layers
        && bytes.is_ok_and(|bytes| bytes <= properties.max_resource_size)
}

impl Drop for Image {
    fn drop(&mut self) {
        // SAFETY: views and streams hold an Arc<Image> until the device no
        // longer uses the image; destroying a null handle is a no-op.
        unsafe { self.device.raw().destroy_image(self.raw, None) };
        if let Some(allocation) = self.allocation.take() {
            // Nothing useful can be done about a failed free in Drop.
            let _ = self.device.allocator().free(allocation);
        }
    }
}

/// A view of a whole image, as a kernel binds it. Holds the image alive.
pub struct ImageView {
    image: Arc<Image>,
    raw: vk::ImageView,
}

impl std::fmt::Debug for ImageView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ImageView")
            .field("image", &self.image)
            .finish_non_exhaustive()
    }
}

impl ImageView {
    fn create(image: &Arc<Image>, shape: ViewShape, storage: bool) -> Result<ImageView, VkError> {
        if !image.accepts_view(shape) {
            return Err(VkError::InvalidArgument(format!(
                "a {shape:?} view of image {:?}",
                image.description
            )));
        }
        if storage && !image.description.storage {
            return Err(VkError::InvalidArgument(
                "a storage view of an image without storage usage".to_owned(),
            ));
        }
        let format = match (storage, image.description.storage_view_format) {
            (true, Some(format)) => format,
            _ => image.description.format,
        };
        let view_type = match shape {
            ViewShape::D1 => vk::ImageViewType::TYPE_1D,
            ViewShape::D1Array => vk::ImageViewType::TYPE_1D_ARRAY,
            ViewShape::D2 => vk::ImageViewType::TYPE_2D,
            ViewShape::D2Array => vk::ImageViewType::TYPE_2D_ARRAY,
            ViewShape::D3 => vk::ImageViewType::TYPE_3D,
        };
        // A storage view of a mutable-format image only gets storage usage:
        // the UNORM view of an sRGB image need not support sampling.
        let mut usage_info = vk::ImageViewUsageCreateInfo::default().usage(if storage {
            vk::ImageUsageFlags::STORAGE
        } else {
            vk::ImageUsageFlags::SAMPLED
        });
        let create_info = vk::ImageViewCreateInfo::default()
            .image(image.raw)
            .view_type(view_type)
            .format(format)
            .components(vk::ComponentMapping::default())
            .subresource_range(
                vk::ImageSubresourceRange::default()
                    .aspect_mask(vk::ImageAspectFlags::COLOR)
                    .base_mip_level(0)
                    .level_count(1)
                    .base_array_layer(0)
                    .layer_count(image.description.layers),
            )
            .push_next(&mut usage_info);
        // SAFETY: the image is live; the view type fits its type and layer
        // count (`accepts_view`); the format is the image's own or the
        // mutable format it was created to allow; the usage is one the
        // image has (storage checked above).
        let raw = unsafe { image.device.raw().create_image_view(&create_info, None) }
            .map_err(VkError::call("vkCreateImageView"))?;
        Ok(ImageView {
            image: Arc::clone(image),
            raw,
        })
    }

    pub fn image(&self) -> &Arc<Image> {
        &self.image
    }

    // Bound by the kernel-argument code (descriptor set 1).
    #[allow(dead_code)]
    pub(crate) fn raw(&self) -> vk::ImageView {
        self.raw
    }
}

impl Drop for ImageView {
    fn drop(&mut self) {
        // SAFETY: whoever binds the view keeps it alive until the device is
        // done with it (streams retain what they record).
        unsafe { self.image.device.raw().destroy_image_view(self.raw, None) };
    }
}

/// A formatted view of a range of a buffer, bound as a storage texel
/// buffer (`image1d_buffer_t`). Holds the buffer alive.
pub struct TexelBufferView {
    buffer: Arc<Buffer>,
    raw: vk::BufferView,
}

impl std::fmt::Debug for TexelBufferView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TexelBufferView")
            .field("buffer", &self.buffer)
            .finish_non_exhaustive()
    }
}

impl TexelBufferView {
    /// `texels` texels of `format` (`texel_size` bytes each) from byte
    /// `offset` of `buffer`.
    pub fn create(
        buffer: &Arc<Buffer>,
        format: vk::Format,
        texel_size: u64,
        offset: u64,
        texels: u64,
    ) -> Result<TexelBufferView, VkError> {
        let device = buffer.device();
        let limits = &device.info().limits;
        let alignment = limits.min_texel_buffer_offset_alignment.max(1);
        let range = texels.checked_mul(texel_size);
        let fits = range
            .and_then(|range| range.checked_add(offset))
            .is_some_and(|end| end <= buffer.vulkan_size());
        if texels == 0
            || !fits
            || texels > u64::from(limits.max_texel_buffer_elements)
            || !offset.is_multiple_of(alignment)
        {
            return Err(VkError::InvalidArgument(format!(
                "{texels} texels of {texel_size} bytes at offset {offset} do not fit the buffer \
                 ({} bytes), maxTexelBufferElements or minTexelBufferOffsetAlignment",
                buffer.vulkan_size()
            )));
        }
        let create_info = vk::BufferViewCreateInfo::default()
            .buffer(buffer.raw())
            .format(format)
            .offset(offset)
            .range(range.unwrap_or(0));
        // SAFETY: the buffer is live with storage texel buffer usage; the
        // range is in bounds, aligned and within maxTexelBufferElements
        // (checked above); the caller chose a format with
        // STORAGE_TEXEL_BUFFER buffer features.
        let raw = unsafe { device.raw().create_buffer_view(&create_info, None) }
            .map_err(VkError::call("vkCreateBufferView"))?;
        Ok(TexelBufferView {
            buffer: Arc::clone(buffer),
            raw,
        })
    }

    pub fn buffer(&self) -> &Arc<Buffer> {
        &self.buffer
    }

    // Bound by the kernel-argument code (descriptor set 1).
    #[allow(dead_code)]
    pub(crate) fn raw(&self) -> vk::BufferView {
        self.raw
    }
}

impl Drop for TexelBufferView {
    fn drop(&mut self) {
        // SAFETY: whoever binds the view keeps it alive until the device is
        // done with it.
        unsafe {
            self.buffer
                .device()
                .raw()
                .destroy_buffer_view(self.raw, None)
        };
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::vulkan::device::tests::lavapipe;
    use crate::vulkan::Placement;

    const WAIT: Duration = Duration::from_secs(30);

    fn description(shape: ImageShape, extent: [u32; 3], layers: u32) -> ImageDescription {
        ImageDescription {
            shape,
            format: vk::Format::R8G8B8A8_UINT,
            extent,
            layers,
            storage: true,
            storage_view_format: None,
        }
    }

    /// Texels through buffer -> image -> image -> buffer, against the same
    /// moves done on host arrays.
    #[test]
    fn copies_move_the_texels_they_name() {
        let device = lavapipe();
        let mut stream = device.create_stream().expect("stream");
        let (width, height, layers) = (5u32, 4u32, 3u32);
        let whole = ImageRegion {
            offset: [0; 3],
            extent: [width, height, 1],
            first_layer: 0,
            layers,
        };
        let texels = (width * height * layers) as usize;
        let a = device
            .create_image(description(ImageShape::D2, [width, height, 1], layers))
            .expect("image a");
        let b = device
            .create_image(description(ImageShape::D2, [width, height, 1], layers))
            .expect("image b");
        let upload = device
            .create_buffer(texels as u64 * 4, Placement::Upload)
            .expect("upload");
        let zeros = device
            .create_buffer(texels as u64 * 4, Placement::Upload)
            .expect("zeros");
        let readback = device
            .create_buffer(texels as u64 * 4, Placement::Readback)
            .expect("readback");
        let data: Vec<u8> = (0..texels * 4).map(|i| (i * 7 + 3) as u8).collect();
        upload.write(0, &data).expect("write");
        zeros.write(0, &vec![0; texels * 4]).expect("write zeros");

        stream.initialize_image(&a).expect("init a");
        stream.initialize_image(&b).expect("init b");
        stream
            .copy_buffer_to_image(&upload, 0, &a, whole)
            .expect("upload");
        stream
            .copy_buffer_to_image(&zeros, 0, &b, whole)
            .expect("clear b");
        // A 2x3 block of layer 1 of a to (3, 1) of layer 2 of b.
        let block = ImageRegion {
            offset: [1, 0, 0],
            extent: [2, 3, 1],
            first_layer: 1,
            layers: 1,
        };
        stream
            .copy_image(&a, block, &b, [3, 1, 0], 2)
            .expect("copy");
        stream
            .copy_image_to_buffer(&b, whole, &readback, 0)
            .expect("download");
        let value = stream.submit(&[]).expect("submit");
        assert!(stream.timeline().wait(value, WAIT).expect("wait"));

        let index = |x: u32, y: u32, layer: u32| ((layer * height + y) * width + x) as usize * 4;
        let mut expected = vec![0u8; texels * 4];
        for y in 0..3 {
            for x in 0..2 {
                let from = index(1 + x, y, 1);
                let to = index(3 + x, 1 + y, 2);
                expected[to..to + 4].copy_from_slice(&data[from..from + 4]);
            }
        }
        let mut back = vec![0u8; texels * 4];
        readback.read(0, &mut back).expect("read");
        assert_eq!(back, expected);
    }

    #[test]
    fn bad_regions_and_overlaps_are_rejected() {
        let device = lavapipe();
        let mut stream = device.create_stream().expect("stream");
        let image = device
            .create_image(description(ImageShape::D2, [4, 4, 1], 1))
            .expect("image");
        let buffer = device.create_buffer(64, Placement::Upload).expect("buffer");
        let region = |offset, extent| ImageRegion {
            offset,
            extent,
            first_layer: 0,
            layers: 1,
        };
        stream.initialize_image(&image).expect("init");
        assert!(stream
            .copy_buffer_to_image(&buffer, 0, &image, region([1, 0, 0], [4, 1, 1]))
            .is_err());
        assert!(stream
            .copy_buffer_to_image(&buffer, 2, &image, region([0, 0, 0], [1, 1, 1]))
            .is_err());
        assert!(stream
            .copy_buffer_to_image(&buffer, 0, &image, region([0, 0, 0], [0, 1, 1]))
            .is_err());
        assert!(stream
            .copy_image(&image, region([0, 0, 0], [2, 2, 1]), &image, [1, 1, 0], 0)
            .is_err());
        assert!(stream
            .copy_image(&image, region([0, 0, 0], [2, 2, 1]), &image, [2, 0, 0], 0)
            .is_ok());
        let value = stream.submit(&[]).expect("submit");
        assert!(stream.timeline().wait(value, WAIT).expect("wait"));
    }

    #[test]
    fn views_fit_their_images() {
        let device = lavapipe();
        let cases = [
            (ImageShape::D1, [8, 1, 1], 1, ViewShape::D1),
            (ImageShape::D1, [8, 1, 1], 3, ViewShape::D1Array),
            (ImageShape::D2, [8, 4, 1], 1, ViewShape::D2),
            (ImageShape::D2, [8, 4, 1], 2, ViewShape::D2Array),
            (ImageShape::D3, [8, 4, 2], 1, ViewShape::D3),
        ];
        for (shape, extent, layers, view) in cases {
            let image = device
                .create_image(description(shape, extent, layers))
                .expect("image");
            image.create_view(view, false).expect("sampled view");
            image.create_view(view, true).expect("storage view");
            assert!(image.create_view(ViewShape::D3, false).is_err() || view == ViewShape::D3);
        }
        let srgb = device
            .create_image(ImageDescription {
                format: vk::Format::R8G8B8A8_SRGB,
                storage: true,
                storage_view_format: Some(vk::Format::R8G8B8A8_UNORM),
                ..description(ImageShape::D2, [4, 4, 1], 1)
            })
            .expect("srgb image");
        srgb.create_view(ViewShape::D2, false).expect("srgb view");
        srgb.create_view(ViewShape::D2, true).expect("unorm view");

        let buffer = device
            .create_buffer(1024, Placement::DeviceLocal)
            .expect("buffer");
        let view = TexelBufferView::create(&buffer, vk::Format::R32_UINT, 4, 0, 256)
            .expect("texel buffer view");
        assert_ne!(view.raw(), vk::BufferView::null());
        assert!(TexelBufferView::create(&buffer, vk::Format::R32_UINT, 4, 0, 257).is_err());
    }
}
