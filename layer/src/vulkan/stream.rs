//! Streams: the Vulkan side of one OpenCL command queue. Records commands
//! into an open command buffer, submits it on demand with a timeline signal,
//! and recycles command buffers, descriptor pools, timestamp query pools and
//! the objects the commands use once the timeline says they are finished.

use std::any::Any;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use ash::vk;

use super::device::Device;
use super::error::VkError;
use super::image::{Image, ImageRegion};
use super::image::{ImageView, TexelBufferView};
use super::memory::Buffer;
use super::pipeline::{ComputePipeline, ImageDescriptorKind};
use super::timeline::Timeline;
use super::timestamps::{QueryChunk, TimestampQuery, QUERIES_PER_CHUNK};

/// Descriptor sets per pool on the non-push-descriptor path; a pool is
/// reused as a whole once its recording has completed.
const SETS_PER_POOL: u32 = 256;
const STORAGE_BUFFERS_PER_POOL: u32 = SETS_PER_POOL * 8;
/// Of each image descriptor type.
const IMAGES_PER_POOL: u32 = SETS_PER_POOL * 4;

/// Where the writes of earlier commands become visible to later ones:
/// every command in a stream is ordered after everything before it.
const COMMAND_STAGES: vk::PipelineStageFlags = vk::PipelineStageFlags::from_raw(
    vk::PipelineStageFlags::COMPUTE_SHADER.as_raw() | vk::PipelineStageFlags::TRANSFER.as_raw(),
);
const WRITE_ACCESS: vk::AccessFlags = vk::AccessFlags::from_raw(
    vk::AccessFlags::SHADER_WRITE.as_raw() | vk::AccessFlags::TRANSFER_WRITE.as_raw(),
);
const ANY_ACCESS: vk::AccessFlags = vk::AccessFlags::from_raw(
    vk::AccessFlags::SHADER_READ.as_raw()
        | vk::AccessFlags::SHADER_WRITE.as_raw()
        | vk::AccessFlags::TRANSFER_READ.as_raw()
        | vk::AccessFlags::TRANSFER_WRITE.as_raw(),
);

/// One storage-buffer argument of a dispatch. `range` 0 binds the rest of
/// the buffer from `offset` (clamped to maxStorageBufferRange).
#[derive(Clone, Copy, Debug)]
pub struct BufferBinding<'a> {
    pub buffer: &'a Arc<Buffer>,
    pub offset: u64,
    pub range: u64,
}

/// One image argument of a dispatch: binding `b` of set 1 is the `b`-th,
/// of the type the pipeline's [`ComputePipeline::images`] says.
#[derive(Clone, Debug)]
pub enum ImageBinding {
    Sampled(Arc<ImageView>),
    Storage(Arc<ImageView>),
    TexelBuffer(Arc<TexelBufferView>),
}

impl ImageBinding {
    fn kind(&self) -> ImageDescriptorKind {
        match self {
            ImageBinding::Sampled(_) => ImageDescriptorKind::SampledImage,
            ImageBinding::Storage(_) => ImageDescriptorKind::StorageImage,
            ImageBinding::TexelBuffer(_) => ImageDescriptorKind::StorageTexelBuffer,
        }
    }

    fn retain(&self) -> Arc<dyn Any + Send + Sync> {
        match self {
            ImageBinding::Sampled(view) | ImageBinding::Storage(view) => view.clone(),
            ImageBinding::TexelBuffer(view) => view.clone(),
        }
    }
}

/// How many descriptors of each image type `images` needs, in the order of
/// [`ImageDescriptorKind::ALL`].
fn image_counts(images: &[ImageDescriptorKind]) -> [u32; 3] {
    ImageDescriptorKind::ALL.map(|kind| images.iter().filter(|k| **k == kind).count() as u32)
}

/// Objects the device may still use; dropped when their recording completes.
#[derive(Default)]
struct Retained {
    buffers: Vec<Arc<Buffer>>,
    pipelines: Vec<Arc<ComputePipeline>>,
    waited_timelines: Vec<Arc<Timeline>>,
    objects: Vec<Arc<dyn Any + Send + Sync>>,
}

impl Retained {
    fn append(&mut self, other: &mut Retained) {
        self.buffers.append(&mut other.buffers);
        self.pipelines.append(&mut other.pipelines);
        self.waited_timelines.append(&mut other.waited_timelines);
        self.objects.append(&mut other.objects);
    }

    fn keep_pipeline(&mut self, pipeline: &Arc<ComputePipeline>) {
        // Thousands of dispatches of one kernel need one reference, not thousands.
        if !self
            .pipelines
            .last()
            .is_some_and(|last| Arc::ptr_eq(last, pipeline))
        {
            self.pipelines.push(Arc::clone(pipeline));
        }
    }
}

struct DescriptorPool {
    raw: vk::DescriptorPool,
    set_capacity: u32,
    buffer_capacity: u32,
    /// Of each image descriptor type ([`ImageDescriptorKind::ALL`]).
    image_capacity: [u32; 3],
    sets_left: u32,
    buffers_left: u32,
    images_left: [u32; 3],
}

impl DescriptorPool {
    fn fits(&self, buffers: u32, images: [u32; 3]) -> bool {
        self.sets_left > 0
            && self.buffers_left >= buffers
            && self
                .images_left
                .iter()
                .zip(images)
                .all(|(left, n)| *left >= n)
    }
}

/// What one submission (or the one being recorded) owns.
#[derive(Default)]
struct Recording {
    /// Begun lazily by the first command.
    command_buffer: Option<vk::CommandBuffer>,
    /// The pipeline bound last in this command buffer, to skip rebinding.
    bound_pipeline: vk::Pipeline,
    /// Pools this recording allocated sets from; the last one is current.
    descriptor_pools: Vec<DescriptorPool>,
    /// Timestamp pools reset in this recording; the last one is current.
    query_chunks: Vec<Arc<QueryChunk>>,
    /// The next free query of the current chunk.
    next_query: u32,
    /// A command may write memory the host can see (see [`Stream::submit`]).
    writes_host_visible: bool,
    retained: Retained,
}

/// Records and submits the commands of one OpenCL queue.
pub struct Stream {
    device: Arc<Device>,
    command_pool: vk::CommandPool,
    timeline: Arc<Timeline>,
    open: Recording,
    /// Submitted recordings with the timeline value that marks them complete,
    /// oldest first (values increase).
    in_flight: VecDeque<(u64, Recording)>,
    spare_command_buffers: Vec<vk::CommandBuffer>,
    spare_descriptor_pools: Vec<DescriptorPool>,
    /// Chunks of completed recordings; reused once no query refers to them.
    spare_query_chunks: Vec<Arc<QueryChunk>>,
    /// The value the newest submission signals; 0 before the first.
    last_submitted: u64,
    /// Reused per dispatch to avoid allocating.
    buffer_infos: Vec<vk::DescriptorBufferInfo>,
    push_constant_bytes: Vec<u8>,
    /// The next command needs no barrier before it (see
    /// [`Stream::let_next_command_overlap`]).
    next_may_overlap: bool,
}

impl std::fmt::Debug for Stream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stream")
            .field("last_submitted", &self.last_submitted)
            .field("in_flight", &self.in_flight.len())
            .field("has_pending_commands", &self.has_pending_commands())
            .finish_non_exhaustive()
    }
}

impl Stream {
    pub(crate) fn create(device: &Arc<Device>) -> Result<Stream, VkError> {
        let timeline = Arc::new(Timeline::create(device)?);
        let pool_info = vk::CommandPoolCreateInfo::default()
            .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER)
            .queue_family_index(device.queue_family());
        // SAFETY: the queue family is the one the device's queue comes from;
        // resetting individual buffers (implicitly, by begin) needs the flag set here.
        let command_pool = unsafe { device.raw().create_command_pool(&pool_info, None) }
            .map_err(VkError::call("vkCreateCommandPool"))?;
        Ok(Stream {
            device: Arc::clone(device),
            command_pool,
            timeline,
            open: Recording::default(),
            in_flight: VecDeque::new(),
            spare_command_buffers: Vec::new(),
            spare_descriptor_pools: Vec::new(),
            spare_query_chunks: Vec::new(),
            last_submitted: 0,
            buffer_infos: Vec::new(),
            push_constant_bytes: Vec::new(),
            next_may_overlap: false,
        })
    }

    /// Records the next command without the barrier that orders it after
    /// everything before it, so the GPU may run it alongside them (an
    /// out-of-order queue's command that waits for nothing of its queue).
    /// Commands after it are ordered as usual.
    pub fn let_next_command_overlap(&mut self) {
        self.next_may_overlap = true;
    }

    /// A barrier alone: every command recorded after it runs after every
    /// command before it (`clEnqueueBarrierWithWaitList` on an
    /// out-of-order queue).
    pub fn order_all(&mut self) -> Result<(), VkError> {
        self.next_may_overlap = false;
        self.begin_command().map(drop)
    }

    pub fn device(&self) -> &Arc<Device> {
        &self.device
    }

    /// Records a dispatch of `pipeline` with `buffers` bound to bindings
    /// 0..n of set 0 and `push_constants` (zero-padded to the pipeline's size).
    pub fn dispatch(
        &mut self,
        pipeline: &Arc<ComputePipeline>,
        buffers: &[BufferBinding<'_>],
        images: &[ImageBinding],
        push_constants: &[u8],
        group_count: [u32; 3],
    ) -> Result<(), VkError> {
        self.check_same_device(pipeline.device(), "the pipeline")?;
        if images.len() != pipeline.images().len()
            || images
                .iter()
                .zip(pipeline.images())
                .any(|(image, kind)| image.kind() != *kind)
        {
            return Err(VkError::InvalidArgument(format!(
                "dispatch got images {:?} for a pipeline with {:?}",
                images.iter().map(ImageBinding::kind).collect::<Vec<_>>(),
                pipeline.images()
            )));
        }
        if usize::try_from(pipeline.storage_buffers()).ok() != Some(buffers.len()) {
            return Err(VkError::InvalidArgument(format!(
                "dispatch got {} buffers for a pipeline with {}",
                buffers.len(),
                pipeline.storage_buffers()
            )));
        }
        // Any bound memory the host can see may be written; storage images
        // and texel buffers are counted whatever their memory.
        self.open.writes_host_visible |=
            buffers.iter().any(|binding| binding.buffer.host_visible())
                || images
                    .iter()
                    .any(|image| !matches!(image, ImageBinding::Sampled(_)));
        let push_constant_size = pipeline.push_constant_size() as usize;
        if push_constants.len() > push_constant_size {
            return Err(VkError::InvalidArgument(format!(
                "{} bytes of push constants for a pipeline with {push_constant_size}",
                push_constants.len()
            )));
        }
        let limits = self.device.info().limits;
        if group_count
            .iter()
            .zip(limits.max_compute_work_group_count)
            .any(|(&count, max)| count > max)
        {
            return Err(VkError::InvalidArgument(format!(
                "group count {group_count:?} exceeds the device's {:?}",
                limits.max_compute_work_group_count
            )));
        }
        self.buffer_infos.clear();
        for (binding, argument) in buffers.iter().enumerate() {
            let info = self.buffer_info(binding, argument)?;
            self.buffer_infos.push(info);
        }
        self.push_constant_bytes.clear();
        self.push_constant_bytes.extend_from_slice(push_constants);
        self.push_constant_bytes.resize(push_constant_size, 0);

        let descriptor_set = if pipeline.storage_buffers() > 0 && !pipeline.uses_push_descriptors()
        {
            Some(self.allocate_descriptor_set(
                pipeline.set_layout(),
                pipeline.storage_buffers(),
                [0; 3],
            )?)
        } else {
            None
        };
        let image_set = if images.is_empty() {
            None
        } else {
            let set = self.allocate_descriptor_set(
                pipeline.image_set_layout(),
                0,
                image_counts(pipeline.images()),
            )?;
            self.write_image_set(set, images)?;
            Some(set)
        };
        let command_buffer = self.begin_command()?;
        let raw_device = self.device.raw();

        if self.open.bound_pipeline != pipeline.raw() {
            // SAFETY: the command buffer is recording; the pipeline is a live
            // compute pipeline of this device, retained below until completion.
            unsafe {
                raw_device.cmd_bind_pipeline(
                    command_buffer,
                    vk::PipelineBindPoint::COMPUTE,
                    pipeline.raw(),
                )
            };
            self.open.bound_pipeline = pipeline.raw();
        }
        if pipeline.storage_buffers() > 0 {
            let write = vk::WriteDescriptorSet::default()
                .dst_binding(0)
                .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                .buffer_info(&self.buffer_infos);
            match (descriptor_set, self.device.push_descriptor()) {
                (Some(set), _) => {
                    let writes = [write.dst_set(set)];
                    // SAFETY: the set was allocated from a pool of this stream
                    // for the pipeline's set layout and no submitted command
                    // uses it yet; one write covers bindings 0..n, which all
                    // share type and stages; the buffers are live and in range.
                    unsafe {
                        raw_device.update_descriptor_sets(&writes, &[]);
                        raw_device.cmd_bind_descriptor_sets(
                            command_buffer,
                            vk::PipelineBindPoint::COMPUTE,
                            pipeline.layout(),
                            0,
                            &[set],
                            &[],
                        );
                    }
                }
                (None, Some(push_descriptor)) => {
                    // SAFETY: the pipeline's set 0 was created with the push
                    // descriptor flag (`uses_push_descriptors`), the extension
                    // is enabled, and the buffers are live and in range.
                    unsafe {
                        push_descriptor.cmd_push_descriptor_set(
                            command_buffer,
                            vk::PipelineBindPoint::COMPUTE,
                            pipeline.layout(),
                            0,
                            &[write],
                        )
                    };
                }
                (None, None) => {
                    return Err(VkError::InvalidArgument(
                        "pipeline uses push descriptors on a device without them".to_owned(),
                    ))
                }
            }
        }
        if let Some(set) = image_set {
            // SAFETY: the set was allocated for the pipeline's set-1 layout
            // and written with a view of the right type per binding.
            unsafe {
                raw_device.cmd_bind_descriptor_sets(
                    command_buffer,
                    vk::PipelineBindPoint::COMPUTE,
                    pipeline.layout(),
                    1,
                    &[set],
                    &[],
                )
            };
        }
        if push_constant_size > 0 {
            // SAFETY: the bytes cover exactly the pipeline's one push-constant
            // range [0, size), a non-zero multiple of 4.
            unsafe {
                raw_device.cmd_push_constants(
                    command_buffer,
                    pipeline.layout(),
                    vk::ShaderStageFlags::COMPUTE,
                    0,
                    &self.push_constant_bytes,
                )
            };
        }
        let [x, y, z] = group_count;
        // SAFETY: pipeline, descriptors and push constants are bound above and
        // the counts are within maxComputeWorkGroupCount.
        unsafe { raw_device.cmd_dispatch(command_buffer, x, y, z) };

        self.open.retained.keep_pipeline(pipeline);
        self.open
            .retained
            .buffers
            .extend(buffers.iter().map(|binding| Arc::clone(binding.buffer)));
        self.open
            .retained
            .objects
            .extend(images.iter().map(ImageBinding::retain));
        Ok(())
    }

    /// Writes the image views of a dispatch into `set`, binding by binding.
    fn write_image_set(
        &mut self,
        set: vk::DescriptorSet,
        images: &[ImageBinding],
    ) -> Result<(), VkError> {
        let image_infos: Vec<[vk::DescriptorImageInfo; 1]> = images
            .iter()
            .map(|image| {
                let view = match image {
                    ImageBinding::Sampled(view) | ImageBinding::Storage(view) => view.raw(),
                    ImageBinding::TexelBuffer(_) => vk::ImageView::null(),
                };
                [vk::DescriptorImageInfo::default()
                    .image_view(view)
                    .image_layout(vk::ImageLayout::GENERAL)]
            })
            .collect();
        let texel_views: Vec<[vk::BufferView; 1]> = images
            .iter()
            .map(|image| match image {
                ImageBinding::TexelBuffer(view) => [view.raw()],
                _ => [vk::BufferView::null()],
            })
            .collect();
        let writes: Vec<vk::WriteDescriptorSet> = images
            .iter()
            .zip(0u32..)
            .map(|(image, binding)| {
                let write = vk::WriteDescriptorSet::default()
                    .dst_set(set)
                    .dst_binding(binding)
                    .descriptor_type(image.kind().vk());
                match image {
                    ImageBinding::TexelBuffer(_) => {
                        write.texel_buffer_view(&texel_views[binding as usize])
                    }
                    _ => write.image_info(&image_infos[binding as usize]),
                }
            })
            .collect();
        // SAFETY: the set is fresh from a pool of this stream and unused by
        // any submitted command; each write matches its binding's type in
        // the layout (checked against the pipeline by `dispatch`); the
        // views are live, and images stay in GENERAL layout for life.
        unsafe { self.device.raw().update_descriptor_sets(&writes, &[]) };
        Ok(())
    }

    /// Records a copy of `size` bytes; a zero size records nothing.
    pub fn copy_buffer(
        &mut self,
        src: &Arc<Buffer>,
        src_offset: u64,
        dst: &Arc<Buffer>,
        dst_offset: u64,
        size: u64,
    ) -> Result<(), VkError> {
        self.check_same_device(src.device(), "the source buffer")?;
        self.check_same_device(dst.device(), "the destination buffer")?;
        check_range("copy source", src, src_offset, size)?;
        check_range("copy destination", dst, dst_offset, size)?;
        self.open.writes_host_visible |= dst.host_visible();
        if Arc::ptr_eq(src, dst) && src_offset < dst_offset + size && dst_offset < src_offset + size
        {
            return Err(VkError::InvalidArgument(
                "copy source and destination overlap".to_owned(),
            ));
        }
        if size == 0 {
            return Ok(());
        }
        let command_buffer = self.begin_command()?;
        let region = [vk::BufferCopy::default()
            .src_offset(src_offset)
            .dst_offset(dst_offset)
            .size(size)];
        // SAFETY: both buffers are live, have TRANSFER usage, the regions are
        // in bounds and do not overlap (checked above); both are retained.
        unsafe {
            self.device
                .raw()
                .cmd_copy_buffer(command_buffer, src.raw(), dst.raw(), &region)
        };
        self.open.retained.buffers.push(Arc::clone(src));
        self.open.retained.buffers.push(Arc::clone(dst));
        Ok(())
    }

    /// Records the one layout transition of a new image, from `UNDEFINED`
    /// to `GENERAL`, where it stays; it must come before any other command
    /// on the image. The contents are undefined afterwards.
    pub fn initialize_image(&mut self, image: &Arc<Image>) -> Result<(), VkError> {
        self.check_same_device(image.device(), "the image")?;
        self.open.writes_host_visible = true;
        let command_buffer = self.begin_command()?;
        let layers = image.description().layers;
        let barrier = [vk::ImageMemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::empty())
            .dst_access_mask(ANY_ACCESS)
            .old_layout(vk::ImageLayout::UNDEFINED)
            .new_layout(vk::ImageLayout::GENERAL)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(image.raw())
            .subresource_range(
                vk::ImageSubresourceRange::default()
                    .aspect_mask(vk::ImageAspectFlags::COLOR)
                    .base_mip_level(0)
                    .level_count(1)
                    .base_array_layer(0)
                    .layer_count(layers),
            )];
        // SAFETY: the command buffer is recording; the barrier covers the
        // image's one level and all its layers, which nothing has used yet
        // (the caller's contract), so discarding the contents is harmless.
        unsafe {
            self.device.raw().cmd_pipeline_barrier(
                command_buffer,
                vk::PipelineStageFlags::TOP_OF_PIPE,
                COMMAND_STAGES,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &barrier,
            )
        };
        self.keep_alive(Arc::clone(image) as Arc<dyn Any + Send + Sync>);
        Ok(())
    }

    /// Records a copy from `src`, packed texel after texel, row after row
    /// and slice (or layer) after slice from byte `src_offset`, into
    /// `region` of `dst`. `src_offset` must be a multiple of the texel size
    /// and of 4.
    pub fn copy_buffer_to_image(
        &mut self,
        src: &Arc<Buffer>,
        src_offset: u64,
        dst: &Arc<Image>,
        region: ImageRegion,
    ) -> Result<(), VkError> {
        self.check_same_device(src.device(), "the source buffer")?;
        self.check_same_device(dst.device(), "the destination image")?;
        let size = check_image_region(dst, &region)?;
        check_range("copy source", src, src_offset, size)?;
        check_texel_offset(dst, src_offset)?;
        // Images are read back through copies; marked all the same.
        self.open.writes_host_visible = true;
        let command_buffer = self.begin_command()?;
        let regions = [buffer_image_copy(src_offset, &region)];
        // SAFETY: buffer and image are live with transfer usage; the image
        // is in GENERAL (initialised first, the caller's contract); the
        // region lies inside the image and the packed bytes inside the
        // buffer at a texel-aligned offset (checked above); both retained.
        unsafe {
            self.device.raw().cmd_copy_buffer_to_image(
                command_buffer,
                src.raw(),
                dst.raw(),
                vk::ImageLayout::GENERAL,
                &regions,
            )
        };
        self.open.retained.buffers.push(Arc::clone(src));
        self.keep_alive(Arc::clone(dst) as Arc<dyn Any + Send + Sync>);
        Ok(())
    }

    /// Records a copy of `region` of `src` into `dst` from byte
    /// `dst_offset`, packed as [`Stream::copy_buffer_to_image`] reads it.
    pub fn copy_image_to_buffer(
        &mut self,
        src: &Arc<Image>,
        region: ImageRegion,
        dst: &Arc<Buffer>,
        dst_offset: u64,
    ) -> Result<(), VkError> {
        self.check_same_device(src.device(), "the source image")?;
        self.check_same_device(dst.device(), "the destination buffer")?;
        let size = check_image_region(src, &region)?;
        check_range("copy destination", dst, dst_offset, size)?;
        self.open.writes_host_visible |= dst.host_visible();
        check_texel_offset(src, dst_offset)?;
        let command_buffer = self.begin_command()?;
        let regions = [buffer_image_copy(dst_offset, &region)];
        // SAFETY: as in copy_buffer_to_image, in the other direction.
        unsafe {
            self.device.raw().cmd_copy_image_to_buffer(
                command_buffer,
                src.raw(),
                vk::ImageLayout::GENERAL,
                dst.raw(),
                &regions,
            )
        };
        self.keep_alive(Arc::clone(src) as Arc<dyn Any + Send + Sync>);
        self.open.retained.buffers.push(Arc::clone(dst));
        Ok(())
    }

    /// Records a copy of `src_region` of `src` to `dst_origin` (texels,
    /// first layer) of `dst`, both of one format; the regions may not
    /// overlap when the images are the same.
    pub fn copy_image(
        &mut self,
        src: &Arc<Image>,
        src_region: ImageRegion,
        dst: &Arc<Image>,
        dst_offset: [u32; 3],
        dst_first_layer: u32,
    ) -> Result<(), VkError> {
        self.check_same_device(src.device(), "the source image")?;
        self.check_same_device(dst.device(), "the destination image")?;
        self.open.writes_host_visible = true;
        let dst_region = ImageRegion {
            offset: dst_offset,
            first_layer: dst_first_layer,
            ..src_region
        };
        check_image_region(src, &src_region)?;
        check_image_region(dst, &dst_region)?;
        if src.description().format != dst.description().format {
            return Err(VkError::InvalidArgument(
                "image copy between different formats".to_owned(),
            ));
        }
        if Arc::ptr_eq(src, dst) && regions_overlap(&src_region, &dst_region) {
            return Err(VkError::InvalidArgument(
                "image copy source and destination overlap".to_owned(),
            ));
        }
        let command_buffer = self.begin_command()?;
        let regions = [vk::ImageCopy::default()
            .src_subresource(src_region.subresource())
            .src_offset(src_region.vk_offset())
            .dst_subresource(dst_region.subresource())
            .dst_offset(dst_region.vk_offset())
            .extent(src_region.vk_extent())];
        // SAFETY: both images are live with transfer usage, in GENERAL, of
        // one format, and the regions lie inside them without overlapping
        // (checked above); both are retained.
        unsafe {
            self.device.raw().cmd_copy_image(
                command_buffer,
                src.raw(),
                vk::ImageLayout::GENERAL,
                dst.raw(),
                vk::ImageLayout::GENERAL,
                &regions,
            )
        };
        self.keep_alive(Arc::clone(src) as Arc<dyn Any + Send + Sync>);
        self.keep_alive(Arc::clone(dst) as Arc<dyn Any + Send + Sync>);
        Ok(())
    }

    /// Records filling `size` bytes at `offset` with the 32-bit `word`;
    /// both must be multiples of 4. A zero size records nothing.
    pub fn fill_buffer(
        &mut self,
        dst: &Arc<Buffer>,
        offset: u64,
        size: u64,
        word: u32,
    ) -> Result<(), VkError> {
        self.check_same_device(dst.device(), "the buffer")?;
        check_range("fill", dst, offset, size)?;
        self.open.writes_host_visible |= dst.host_visible();
        if !offset.is_multiple_of(4) || !size.is_multiple_of(4) {
            return Err(VkError::InvalidArgument(format!(
                "fill of {size} bytes at offset {offset} is not in whole words"
            )));
        }
        if size == 0 {
            return Ok(());
        }
        let command_buffer = self.begin_command()?;
        // SAFETY: the buffer is live with TRANSFER_DST usage, the word-aligned
        // range is in bounds (checked above), and the buffer is retained.
        unsafe {
            self.device
                .raw()
                .cmd_fill_buffer(command_buffer, dst.raw(), offset, size, word)
        };
        self.open.retained.buffers.push(Arc::clone(dst));
        Ok(())
    }

    /// Records a timestamp written once every command recorded before it
    /// has completed (profiling brackets a command with two). Read it after
    /// this recording's submission has completed.
    pub fn write_timestamp(&mut self) -> Result<TimestampQuery, VkError> {
        if !self.device.has_timestamps() {
            return Err(VkError::InvalidArgument(
                "the compute queue family writes no timestamps".to_owned(),
            ));
        }
        let command_buffer = self.begin_command_buffer()?;
        if self.open.query_chunks.is_empty() || self.open.next_query >= QUERIES_PER_CHUNK {
            let spare = self
                .spare_query_chunks
                .iter()
                .position(|chunk| Arc::strong_count(chunk) == 1);
            let chunk = match spare {
                Some(index) => self.spare_query_chunks.swap_remove(index),
                None => QueryChunk::create(&self.device)?,
            };
            // SAFETY: the command buffer is recording; no pending work uses
            // the pool (its last recording completed, or it is new) and no
            // query handle refers to it (strong count 1).
            unsafe {
                self.device.raw().cmd_reset_query_pool(
                    command_buffer,
                    chunk.raw(),
                    0,
                    QUERIES_PER_CHUNK,
                )
            };
            self.open.query_chunks.push(chunk);
            self.open.next_query = 0;
        }
        let (Some(chunk), index) = (self.open.query_chunks.last(), self.open.next_query) else {
            return Err(VkError::InvalidArgument("no query pool".to_owned()));
        };
        // SAFETY: the command buffer is recording; the query was reset
        // earlier in it and is written once; the queue family has
        // timestampValidBits > 0 (checked above).
        unsafe {
            self.device.raw().cmd_write_timestamp(
                command_buffer,
                vk::PipelineStageFlags::BOTTOM_OF_PIPE,
                chunk.raw(),
                index,
            )
        };
        self.open.next_query += 1;
        Ok(TimestampQuery {
            chunk: Arc::clone(chunk),
            index,
        })
    }

    /// Holds `object` until the work recorded so far has completed.
    pub fn keep_alive(&mut self, object: Arc<dyn Any + Send + Sync>) {
        self.open.retained.objects.push(object);
    }

    /// True when commands were recorded since the last submission.
    pub fn has_pending_commands(&self) -> bool {
        self.open.command_buffer.is_some()
    }

    /// Submits what is recorded (if anything) after waiting on `waits`;
    /// returns the timeline value that will signal when all work so far on
    /// this stream is done. With nothing recorded and nothing to wait for it
    /// submits nothing and returns the last value.
    pub fn submit(&mut self, waits: &[(Arc<Timeline>, u64)]) -> Result<u64, VkError> {
        self.retire_completed();
        let mut wait_semaphores = Vec::new();
        let mut wait_values = Vec::new();
        for (timeline, value) in waits {
            self.check_same_device(timeline.device(), "a waited timeline")?;
            // Our own earlier submissions are already ordered by the queue
            // and the barrier before every command; finished ones need no wait.
            let own = Arc::ptr_eq(timeline, &self.timeline);
            let finished = timeline
                .completed_value()
                .is_ok_and(|completed| completed >= *value);
            if !own && !finished {
                wait_semaphores.push(timeline.raw());
                wait_values.push(*value);
                self.open
                    .retained
                    .waited_timelines
                    .push(Arc::clone(timeline));
            }
        }

        if self.open.command_buffer.is_none() && wait_semaphores.is_empty() {
            let mut leftover = std::mem::take(&mut self.open);
            if let Some((_, newest)) = self.in_flight.back_mut() {
                // Objects kept with no new command live as long as the work before them.
                newest.retained.append(&mut leftover.retained);
            }
            self.recycle(leftover);
            return Ok(self.last_submitted);
        }

        // The barrier to the host makes the submission's writes visible to
        // host reads once the timeline signals. It costs the GPU about 2 us a
        // submission on the H200 (an empty kernel's round trip 19 us with
        // it, 17 without), so it is recorded only where the host may read
        // what the commands wrote: memory it can see (staging, unified
        // memory, a BAR window). Memory it cannot map is read only through
        // a GPU copy into such memory, whose submission has the barrier.
        // A submission that only waits gets a command buffer and the
        // barrier too, so that its signal is ordered after the wait.
        let only_waits = self.open.command_buffer.is_none();
        let command_buffer = self.begin_command_buffer()?;
        let raw_device = self.device.raw();
        if only_waits || self.open.writes_host_visible {
            let to_host = [vk::MemoryBarrier::default()
                .src_access_mask(WRITE_ACCESS)
                .dst_access_mask(vk::AccessFlags::HOST_READ)];
            // SAFETY: the command buffer is recording; the barrier makes every
            // earlier write visible to host reads after the timeline signals.
            unsafe {
                raw_device.cmd_pipeline_barrier(
                    command_buffer,
                    COMMAND_STAGES,
                    vk::PipelineStageFlags::HOST,
                    vk::DependencyFlags::empty(),
                    &to_host,
                    &[],
                    &[],
                )
            };
        }
        let recording = std::mem::take(&mut self.open);
        // SAFETY: the command buffer is recording and nothing else records into it.
        if let Err(result) = unsafe { raw_device.end_command_buffer(command_buffer) } {
            self.recycle(recording);
            return Err(VkError::Call {
                call: "vkEndCommandBuffer",
                result,
            });
        }

        let signal_value = self.last_submitted + 1;
        let signal_values = [signal_value];
        let signal_semaphores = [self.timeline.raw()];
        // The waits need to hold back only what the barriers in this
        // command buffer start from: compute and transfer work.
        let wait_stages = vec![COMMAND_STAGES; wait_semaphores.len()];
        let command_buffers = [command_buffer];
        let mut timeline_info = vk::TimelineSemaphoreSubmitInfo::default()
            .wait_semaphore_values(&wait_values)
            .signal_semaphore_values(&signal_values);
        let mut submit_info = vk::SubmitInfo::default()
            .command_buffers(&command_buffers)
            .signal_semaphores(&signal_semaphores);
        if !wait_semaphores.is_empty() {
            // Left null when empty: a dangling pointer with count 0 is legal
            // but draws a best-practices warning.
            submit_info = submit_info
                .wait_semaphores(&wait_semaphores)
                .wait_dst_stage_mask(&wait_stages);
        }
        let submit_info = [submit_info.push_next(&mut timeline_info)];
        let submitted = {
            let queue = self.device.queue();
            // SAFETY: the queue is locked; the command buffer is executable and
            // was allocated from a pool of the queue's family; the semaphores
            // are live timeline semaphores of this device (checked above) and
            // are retained until completion; the signal value is greater than
            // every value signalled or pending on this stream's timeline.
            unsafe { raw_device.queue_submit(*queue, &submit_info, vk::Fence::null()) }
        };
        if let Err(result) = submitted {
            self.recycle(recording);
            return Err(VkError::Call {
                call: "vkQueueSubmit",
                result,
            });
        }
        self.in_flight.push_back((signal_value, recording));
        self.last_submitted = signal_value;
        Ok(signal_value)
    }

    /// The timeline this stream's submissions signal.
    pub fn timeline(&self) -> &Arc<Timeline> {
        &self.timeline
    }

    /// The value the newest submission signals (0 before any).
    pub fn last_submitted(&self) -> u64 {
        self.last_submitted
    }

    /// Recycles command buffers and descriptor pools of finished submissions
    /// and drops the objects they kept alive.
    pub fn retire_completed(&mut self) {
        if self.in_flight.is_empty() {
            return;
        }
        // An error here (device lost) surfaces from the next submit or wait.
        let Ok(completed) = self.timeline.completed_value() else {
            return;
        };
        while self
            .in_flight
            .front()
            .is_some_and(|(value, _)| *value <= completed)
        {
            if let Some((_, recording)) = self.in_flight.pop_front() {
                self.recycle(recording);
            }
        }
    }

    /// Returns a finished (or never submitted) recording's resources for reuse.
    fn recycle(&mut self, recording: Recording) {
        let Recording {
            command_buffer,
            descriptor_pools,
            query_chunks,
            retained,
            ..
        } = recording;
        self.spare_query_chunks.extend(query_chunks);
        // The next vkBeginCommandBuffer resets it (the pool allows that).
        self.spare_command_buffers.extend(command_buffer);
        for mut pool in descriptor_pools {
            // SAFETY: the pool's sets were only used by this recording, which
            // has completed or was never submitted.
            let reset = unsafe {
                self.device
                    .raw()
                    .reset_descriptor_pool(pool.raw, vk::DescriptorPoolResetFlags::empty())
            };
            if reset.is_ok() {
                pool.sets_left = pool.set_capacity;
                pool.buffers_left = pool.buffer_capacity;
                pool.images_left = pool.image_capacity;
                self.spare_descriptor_pools.push(pool);
            } else {
                // SAFETY: as above, no pending work uses the pool's sets.
                unsafe { self.device.raw().destroy_descriptor_pool(pool.raw, None) };
            }
        }
        drop(retained);
    }

    fn check_same_device(&self, device: &Arc<Device>, what: &str) -> Result<(), VkError> {
        if Arc::ptr_eq(device, &self.device) {
            Ok(())
        } else {
            Err(VkError::InvalidArgument(format!(
                "{what} belongs to another device than the stream"
            )))
        }
    }

    fn buffer_info(
        &self,
        binding: usize,
        argument: &BufferBinding<'_>,
    ) -> Result<vk::DescriptorBufferInfo, VkError> {
        let buffer = argument.buffer;
        self.check_same_device(buffer.device(), "a bound buffer")?;
        let limits = &self.device.info().limits;
        let alignment = limits.min_storage_buffer_offset_alignment.max(1);
        let max_range = u64::from(limits.max_storage_buffer_range);
        let available = buffer.vulkan_size().saturating_sub(argument.offset);
        let range = if argument.range == 0 {
            available.min(max_range)
        } else {
            argument.range
        };
        if !argument.offset.is_multiple_of(alignment) {
            return Err(VkError::InvalidArgument(format!(
                "binding {binding}: offset {} is not a multiple of minStorageBufferOffsetAlignment {alignment}",
                argument.offset
            )));
        }
        if range == 0 || range > available || range > max_range {
            return Err(VkError::InvalidArgument(format!(
                "binding {binding}: {} bytes at offset {} do not fit the buffer's {} bytes \
                 or maxStorageBufferRange {max_range}",
                argument.range,
                argument.offset,
                buffer.vulkan_size()
            )));
        }
        Ok(vk::DescriptorBufferInfo::default()
            .buffer(buffer.raw())
            .offset(argument.offset)
            .range(range))
    }

    /// A set of `layout`, which holds `needed` storage buffers and
    /// `images` image descriptors of each type.
    fn allocate_descriptor_set(
        &mut self,
        layout: vk::DescriptorSetLayout,
        needed: u32,
        images: [u32; 3],
    ) -> Result<vk::DescriptorSet, VkError> {
        let fits = |pool: &DescriptorPool| pool.fits(needed, images);
        if !self.open.descriptor_pools.last().is_some_and(fits) {
            let pool = match self.spare_descriptor_pools.iter().position(fits) {
                Some(index) => self.spare_descriptor_pools.swap_remove(index),
                None => self.create_descriptor_pool(needed, images)?,
            };
            self.open.descriptor_pools.push(pool);
        }
        let Some(pool) = self.open.descriptor_pools.last_mut() else {
            return Err(VkError::InvalidArgument("no descriptor pool".to_owned()));
        };
        let set_layouts = [layout];
        let allocate_info = vk::DescriptorSetAllocateInfo::default()
            .descriptor_pool(pool.raw)
            .set_layouts(&set_layouts);
        // SAFETY: the pool belongs to this stream and has room for one more set
        // of `needed` storage buffers and `images` images (tracked in
        // sets_left/buffers_left/images_left); the set layout is a live
        // non-push layout with those descriptors.
        let sets = unsafe { self.device.raw().allocate_descriptor_sets(&allocate_info) }
            .map_err(VkError::call("vkAllocateDescriptorSets"))?;
        pool.sets_left -= 1;
        pool.buffers_left -= needed;
        for (left, n) in pool.images_left.iter_mut().zip(images) {
            *left -= n;
        }
        sets.first().copied().ok_or(VkError::Call {
            call: "vkAllocateDescriptorSets",
            result: vk::Result::ERROR_UNKNOWN,
        })
    }

    fn create_descriptor_pool(
        &self,
        needed_buffers: u32,
        needed_images: [u32; 3],
    ) -> Result<DescriptorPool, VkError> {
        let buffer_capacity = STORAGE_BUFFERS_PER_POOL.max(needed_buffers);
        let image_capacity = needed_images.map(|n| IMAGES_PER_POOL.max(n));
        let mut sizes = vec![vk::DescriptorPoolSize::default()
            .ty(vk::DescriptorType::STORAGE_BUFFER)
            .descriptor_count(buffer_capacity)];
        sizes.extend(
            ImageDescriptorKind::ALL
                .iter()
                .zip(image_capacity)
                .map(|(kind, count)| {
                    vk::DescriptorPoolSize::default()
                        .ty(kind.vk())
                        .descriptor_count(count)
                }),
        );
        let pool_info = vk::DescriptorPoolCreateInfo::default()
            .max_sets(SETS_PER_POOL)
            .pool_sizes(&sizes);
        // SAFETY: non-zero set count and pool size on a live device.
        let raw = unsafe { self.device.raw().create_descriptor_pool(&pool_info, None) }
            .map_err(VkError::call("vkCreateDescriptorPool"))?;
        Ok(DescriptorPool {
            raw,
            set_capacity: SETS_PER_POOL,
            buffer_capacity,
            image_capacity,
            sets_left: SETS_PER_POOL,
            buffers_left: buffer_capacity,
            images_left: image_capacity,
        })
    }

    /// The open command buffer with the barrier that orders the next
    /// command after everything recorded or submitted before it.
    fn begin_command(&mut self) -> Result<vk::CommandBuffer, VkError> {
        let command_buffer = self.begin_command_buffer()?;
        if std::mem::take(&mut self.next_may_overlap) {
            return Ok(command_buffer);
        }
        let barrier = [vk::MemoryBarrier::default()
            .src_access_mask(WRITE_ACCESS)
            .dst_access_mask(ANY_ACCESS)];
        // SAFETY: the command buffer is recording; a global memory barrier
        // between compute and transfer stages is valid on a compute queue.
        unsafe {
            self.device.raw().cmd_pipeline_barrier(
                command_buffer,
                COMMAND_STAGES,
                COMMAND_STAGES,
                vk::DependencyFlags::empty(),
                &barrier,
                &[],
                &[],
            )
        };
        Ok(command_buffer)
    }

    /// The open command buffer, begun now if this is the first command.
    fn begin_command_buffer(&mut self) -> Result<vk::CommandBuffer, VkError> {
        if let Some(command_buffer) = self.open.command_buffer {
            return Ok(command_buffer);
        }
        let command_buffer = match self.spare_command_buffers.pop() {
            Some(command_buffer) => command_buffer,
            None => {
                let allocate_info = vk::CommandBufferAllocateInfo::default()
                    .command_pool(self.command_pool)
                    .level(vk::CommandBufferLevel::PRIMARY)
                    .command_buffer_count(1);
                // SAFETY: the pool is this stream's, used only through &mut self.
                let buffers = unsafe { self.device.raw().allocate_command_buffers(&allocate_info) }
                    .map_err(VkError::call("vkAllocateCommandBuffers"))?;
                buffers.first().copied().ok_or(VkError::Call {
                    call: "vkAllocateCommandBuffers",
                    result: vk::Result::ERROR_UNKNOWN,
                })?
            }
        };
        let begin_info = vk::CommandBufferBeginInfo::default()
            .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
        // SAFETY: the command buffer is new or recycled from a completed
        // submission (so not pending), and its pool allows the implicit reset.
        if let Err(result) = unsafe {
            self.device
                .raw()
                .begin_command_buffer(command_buffer, &begin_info)
        } {
            self.spare_command_buffers.push(command_buffer);
            return Err(VkError::Call {
                call: "vkBeginCommandBuffer",
                result,
            });
        }
        self.open.command_buffer = Some(command_buffer);
        self.open.bound_pipeline = vk::Pipeline::null();
        Ok(command_buffer)
    }
}

/// The bytes of `region` packed, or an error when it leaves the image or
/// is empty.
fn check_image_region(image: &Image, region: &ImageRegion) -> Result<u64, VkError> {
    let description = image.description();
    let inside = (0..3).all(|axis| {
        region.offset[axis]
            .checked_add(region.extent[axis])
            .is_some_and(|end| end <= description.extent[axis])
    }) && region
        .first_layer
        .checked_add(region.layers)
        .is_some_and(|end| end <= description.layers);
    if !inside || region.extent.contains(&0) || region.layers == 0 {
        return Err(VkError::InvalidArgument(format!(
            "image region {region:?} is empty or leaves the image {description:?}"
        )));
    }
    let texels =
        region.extent.iter().map(|&e| u64::from(e)).product::<u64>() * u64::from(region.layers);
    Ok(texels * texel_size(description.format)?)
}

/// The bytes of one texel of the formats images are made of.
pub fn texel_size(format: vk::Format) -> Result<u64, VkError> {
    Ok(match format {
        vk::Format::R8_UNORM
        | vk::Format::R8_SNORM
        | vk::Format::R8_UINT
        | vk::Format::R8_SINT
        | vk::Format::R8_SRGB => 1,
        vk::Format::R8G8_UNORM
        | vk::Format::R8G8_SNORM
        | vk::Format::R8G8_UINT
        | vk::Format::R8G8_SINT
        | vk::Format::R16_UNORM
        | vk::Format::R16_SNORM
        | vk::Format::R16_UINT
        | vk::Format::R16_SINT
        | vk::Format::R16_SFLOAT
        | vk::Format::R5G6B5_UNORM_PACK16
        | vk::Format::A1R5G5B5_UNORM_PACK16 => 2,
        vk::Format::R8G8B8A8_UNORM
        | vk::Format::R8G8B8A8_SNORM
        | vk::Format::R8G8B8A8_UINT
        | vk::Format::R8G8B8A8_SINT
        | vk::Format::R8G8B8A8_SRGB
        | vk::Format::R16G16_UNORM
        | vk::Format::R16G16_SNORM
        | vk::Format::R16G16_UINT
        | vk::Format::R16G16_SINT
        | vk::Format::R16G16_SFLOAT
        | vk::Format::R32_UINT
        | vk::Format::R32_SINT
        | vk::Format::R32_SFLOAT
        | vk::Format::A2R10G10B10_UNORM_PACK32
        | vk::Format::A2B10G10R10_UNORM_PACK32 => 4,
        vk::Format::R16G16B16A16_UNORM
        | vk::Format::R16G16B16A16_SNORM
        | vk::Format::R16G16B16A16_UINT
        | vk::Format::R16G16B16A16_SINT
        | vk::Format::R16G16B16A16_SFLOAT
        | vk::Format::R32G32_UINT
        | vk::Format::R32G32_SINT
        | vk::Format::R32G32_SFLOAT => 8,
        vk::Format::R32G32B32A32_UINT
        | vk::Format::R32G32B32A32_SINT
        | vk::Format::R32G32B32A32_SFLOAT => 16,
        other => {
            return Err(VkError::InvalidArgument(format!(
                "{other:?} is not an image format of this layer"
            )))
        }
    })
}

/// vkCmdCopyBufferToImage wants buffer offsets in whole texels and words.
fn check_texel_offset(image: &Image, offset: u64) -> Result<(), VkError> {
    let texel = texel_size(image.description().format)?;
    if offset.is_multiple_of(texel) && offset.is_multiple_of(4) {
        Ok(())
    } else {
        Err(VkError::InvalidArgument(format!(
            "buffer offset {offset} is not a multiple of the texel size {texel} and of 4"
        )))
    }
}

fn buffer_image_copy(buffer_offset: u64, region: &ImageRegion) -> vk::BufferImageCopy {
    vk::BufferImageCopy::default()
        .buffer_offset(buffer_offset)
        // Zero: packed as tightly as the extent.
        .buffer_row_length(0)
        .buffer_image_height(0)
        .image_subresource(region.subresource())
        .image_offset(region.vk_offset())
        .image_extent(region.vk_extent())
}

/// Whether two regions of one image share a texel.
fn regions_overlap(a: &ImageRegion, b: &ImageRegion) -> bool {
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

fn check_range(what: &str, buffer: &Buffer, offset: u64, size: u64) -> Result<(), VkError> {
    if offset
        .checked_add(size)
        .is_some_and(|end| end <= buffer.vulkan_size())
    {
        Ok(())
    } else {
        Err(VkError::InvalidArgument(format!(
            "{what}: {size} bytes at offset {offset} exceed the buffer's {} bytes",
            buffer.vulkan_size()
        )))
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        let waited = self.last_submitted == 0
            || matches!(
                self.timeline.wait(self.last_submitted, Duration::MAX),
                Ok(true)
            );
        if !waited {
            // The timeline could not be waited on (device lost): the queue
            // wait is the only other way to know nothing is pending. Its
            // failure leaves nothing else to try.
            let queue = self.device.queue();
            // SAFETY: the queue is locked for the call.
            let _ = unsafe { self.device.raw().queue_wait_idle(*queue) };
        }
        let open = std::mem::take(&mut self.open);
        self.recycle(open);
        while let Some((_, recording)) = self.in_flight.pop_front() {
            self.recycle(recording);
        }
        let raw_device = self.device.raw();
        for pool in self.spare_descriptor_pools.drain(..) {
            // SAFETY: every submission of this stream has completed (or the
            // device is lost, when destroying is allowed), so no set is in use.
            unsafe { raw_device.destroy_descriptor_pool(pool.raw, None) };
        }
        // SAFETY: as above, none of the pool's command buffers is pending;
        // destroying the pool frees them.
        unsafe { raw_device.destroy_command_pool(self.command_pool, None) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vulkan::device::tests::lavapipe;
    use crate::vulkan::memory::Placement;
    use crate::vulkan::test_shaders::MULTIPLY_ADD;

    const WAIT: Duration = Duration::from_secs(30);

    fn words_to_bytes(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|word| word.to_le_bytes()).collect()
    }

    fn bytes_to_words(bytes: &[u8]) -> Vec<u32> {
        bytes
            .chunks_exact(4)
            .map(|chunk| u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]))
            .collect()
    }

    fn read_all(buffer: &Buffer) -> Vec<u8> {
        let mut bytes = vec![0; buffer.size() as usize];
        buffer.read(0, &mut bytes).expect("read");
        bytes
    }

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn objects_can_cross_threads() {
        assert_send_sync::<Stream>();
        assert_send_sync::<Buffer>();
        assert_send_sync::<ComputePipeline>();
        assert_send_sync::<Device>();
        assert_send_sync::<crate::vulkan::Instance>();
    }

    #[test]
    fn copies_and_fills_round_trip() {
        let device = lavapipe();
        let mut stream = device.create_stream().expect("stream");
        let upload = device
            .create_buffer(256, Placement::Upload)
            .expect("upload");
        let on_device = device
            .create_buffer(256, Placement::DeviceLocal)
            .expect("device buffer");
        let readback = device
            .create_buffer(256, Placement::Readback)
            .expect("readback");
        let data: Vec<u8> = (0..=255).collect();
        upload.write(0, &data).expect("write");

        assert!(!stream.has_pending_commands());
        stream
            .copy_buffer(&upload, 0, &on_device, 0, 256)
            .expect("copy up");
        assert!(stream.has_pending_commands());
        stream
            .fill_buffer(&on_device, 64, 32, 0xdead_beef)
            .expect("fill");
        stream
            .copy_buffer(&on_device, 0, &readback, 0, 256)
            .expect("copy down");
        let value = stream.submit(&[]).expect("submit");
        assert_eq!(value, 1);
        assert!(!stream.has_pending_commands());
        assert!(stream.timeline().wait(value, WAIT).expect("wait"));

        let mut expected = data.clone();
        for chunk in expected[64..96].chunks_exact_mut(4) {
            chunk.copy_from_slice(&0xdead_beef_u32.to_le_bytes());
        }
        assert_eq!(read_all(&readback), expected);

        // Nothing recorded: no new submission, same value.
        assert_eq!(stream.submit(&[]).expect("empty submit"), value);
        stream.retire_completed();
        assert!(stream.in_flight.is_empty());
        assert_eq!(stream.spare_command_buffers.len(), 1);

        // The recycled command buffer serves the next recording.
        stream.fill_buffer(&readback, 0, 8, 7).expect("fill");
        let second = stream.submit(&[]).expect("submit");
        assert_eq!(second, 2);
        assert!(stream.timeline().wait(second, WAIT).expect("wait"));
        assert_eq!(bytes_to_words(&read_all(&readback)[..8]), [7, 7]);
    }

    #[test]
    fn bad_ranges_are_rejected() {
        let device = lavapipe();
        let mut stream = device.create_stream().expect("stream");
        let buffer = device
            .create_buffer(64, Placement::DeviceLocal)
            .expect("buffer");
        let other = device
            .create_buffer(64, Placement::DeviceLocal)
            .expect("buffer");
        let invalid =
            |result: Result<(), VkError>| matches!(result, Err(VkError::InvalidArgument(_)));
        assert!(invalid(stream.copy_buffer(&buffer, 0, &buffer, 16, 32)));
        assert!(invalid(stream.copy_buffer(&buffer, 60, &other, 0, 8)));
        assert!(invalid(stream.copy_buffer(&buffer, u64::MAX, &other, 0, 8)));
        assert!(invalid(stream.fill_buffer(&buffer, 2, 8, 0)));
        assert!(invalid(stream.fill_buffer(&buffer, 0, 6, 0)));
        assert!(invalid(stream.fill_buffer(&buffer, 0, 68, 0)));
        assert!(!stream.has_pending_commands());
        // Zero sizes and disjoint ranges of one buffer are fine.
        stream
            .copy_buffer(&buffer, 0, &other, 0, 0)
            .expect("empty copy");
        assert!(!stream.has_pending_commands());
        stream
            .copy_buffer(&buffer, 0, &buffer, 32, 32)
            .expect("disjoint copy");
        let value = stream.submit(&[]).expect("submit");
        assert!(stream.timeline().wait(value, WAIT).expect("wait"));
    }

    /// Runs `dispatches` dispatches of MULTIPLY_ADD over 64 words, each
    /// reading the previous result, and checks the outcome.
    fn run_multiply_add(pipeline: &Arc<ComputePipeline>, dispatches: u32) {
        let device = pipeline.device();
        let mut stream = device.create_stream().expect("stream");
        let alignment = device
            .info()
            .limits
            .min_storage_buffer_offset_alignment
            .max(4);
        let words: Vec<u32> = (0..64).collect();
        let input = device
            .create_buffer(alignment + 256, Placement::Upload)
            .expect("input");
        input
            .write(alignment, &words_to_bytes(&words))
            .expect("write");
        let ping = device
            .create_buffer(256, Placement::DeviceLocal)
            .expect("ping");
        let pong = device
            .create_buffer(256, Placement::DeviceLocal)
            .expect("pong");
        let readback = device
            .create_buffer(256, Placement::Readback)
            .expect("readback");

        let input_at_offset = BufferBinding {
            buffer: &input,
            offset: alignment,
            range: 256,
        };
        let whole = |buffer| BufferBinding {
            buffer,
            offset: 0,
            range: 0,
        };
        // First pass: ping = input * 3 + 1 (the addend given explicitly).
        let params = words_to_bytes(&[3, 1]);
        stream
            .dispatch(
                pipeline,
                &[input_at_offset, whole(&ping)],
                &[],
                &params,
                [16, 1, 1],
            )
            .expect("dispatch");
        // Later passes alternate ping/pong with only the factor given: the
        // missing addend is padded with zero.
        let mut expected: Vec<u32> = words.iter().map(|word| word * 3 + 1).collect();
        let mut current = &ping;
        for pass in 1..dispatches {
            let next = if pass % 2 == 1 { &pong } else { &ping };
            stream
                .dispatch(
                    pipeline,
                    &[whole(current), whole(next)],
                    &[],
                    &2u32.to_le_bytes(),
                    [16, 1, 1],
                )
                .expect("dispatch");
            expected
                .iter_mut()
                .for_each(|word| *word = word.wrapping_mul(2));
            current = next;
            // Submitting midway exercises recycling of pools and buffers.
            if pass % 100 == 0 {
                stream.submit(&[]).expect("submit");
            }
        }
        stream
            .copy_buffer(current, 0, &readback, 0, 256)
            .expect("copy");
        let value = stream.submit(&[]).expect("submit");
        assert!(stream.timeline().wait(value, WAIT).expect("wait"));
        assert_eq!(bytes_to_words(&read_all(&readback)), expected);

        stream.retire_completed();
        assert!(stream.in_flight.is_empty());
        if !pipeline.uses_push_descriptors() && dispatches > SETS_PER_POOL {
            assert!(stream.spare_descriptor_pools.len() > 1);
        }
    }

    #[test]
    fn dispatch_with_push_descriptors() {
        let device = lavapipe();
        let pipeline = device
            .create_compute_pipeline(MULTIPLY_ADD, "main", 2, &[], 8, None)
            .expect("pipeline");
        run_multiply_add(&pipeline, 3);
    }

    #[test]
    fn dispatch_with_descriptor_pools() {
        let device = lavapipe();
        let pipeline = Arc::new(
            ComputePipeline::create(&device, MULTIPLY_ADD, "main", 2, &[], 8, false, None)
                .expect("pipeline"),
        );
        // More sets than one pool holds, across several submissions.
        run_multiply_add(&pipeline, 2 * SETS_PER_POOL + 10);
    }

    #[test]
    fn dispatch_arguments_are_checked() {
        let device = lavapipe();
        let pipeline = device
            .create_compute_pipeline(MULTIPLY_ADD, "main", 2, &[], 8, None)
            .expect("pipeline");
        let mut stream = device.create_stream().expect("stream");
        let buffer = device
            .create_buffer(64, Placement::DeviceLocal)
            .expect("buffer");
        let bind = |offset, range| BufferBinding {
            buffer: &buffer,
            offset,
            range,
        };
        let invalid =
            |result: Result<(), VkError>| matches!(result, Err(VkError::InvalidArgument(_)));
        assert!(invalid(stream.dispatch(
            &pipeline,
            &[bind(0, 0)],
            &[],
            &[],
            [1, 1, 1]
        )));
        assert!(invalid(stream.dispatch(
            &pipeline,
            &[bind(0, 0), bind(0, 128)],
            &[],
            &[],
            [1, 1, 1]
        )));
        assert!(invalid(stream.dispatch(
            &pipeline,
            &[bind(0, 0), bind(64, 0)],
            &[],
            &[],
            [1, 1, 1]
        )));
        assert!(invalid(stream.dispatch(
            &pipeline,
            &[bind(0, 0), bind(0, 0)],
            &[],
            &[0; 12],
            [1, 1, 1]
        )));
        assert!(invalid(stream.dispatch(
            &pipeline,
            &[bind(0, 0), bind(0, 0)],
            &[],
            &[],
            [u32::MAX, 1, 1]
        )));
        assert!(!stream.has_pending_commands());
    }

    #[test]
    fn streams_wait_on_each_other() {
        let device = lavapipe();
        let mut producer = device.create_stream().expect("stream");
        let mut consumer = device.create_stream().expect("stream");
        let shared = device
            .create_buffer(64, Placement::DeviceLocal)
            .expect("buffer");
        let readback = device
            .create_buffer(64, Placement::Readback)
            .expect("readback");

        producer.fill_buffer(&shared, 0, 64, 42).expect("fill");
        let produced = producer.submit(&[]).expect("submit");
        consumer
            .copy_buffer(&shared, 0, &readback, 0, 64)
            .expect("copy");
        let consumed = consumer
            .submit(&[(Arc::clone(producer.timeline()), produced)])
            .expect("submit");
        assert!(consumer.timeline().wait(consumed, WAIT).expect("wait"));
        assert!(producer.timeline().completed_value().expect("value") >= produced);
        assert_eq!(bytes_to_words(&read_all(&readback)), [42; 16]);

        // A wait alone (nothing recorded) still produces a submission.
        producer.fill_buffer(&shared, 0, 4, 1).expect("fill");
        let produced = producer.submit(&[]).expect("submit");
        let waited = consumer
            .submit(&[(Arc::clone(producer.timeline()), produced)])
            .expect("submit");
        assert!(consumer.timeline().wait(waited, WAIT).expect("wait"));
        assert!(producer.timeline().completed_value().expect("value") >= produced);
    }

    #[test]
    fn kept_objects_live_until_completion() {
        let device = lavapipe();
        let mut stream = device.create_stream().expect("stream");
        let buffer = device
            .create_buffer(64, Placement::DeviceLocal)
            .expect("buffer");
        let token: Arc<dyn Any + Send + Sync> = Arc::new(5_u32);
        stream.fill_buffer(&buffer, 0, 64, 0).expect("fill");
        stream.keep_alive(Arc::clone(&token));
        assert_eq!(Arc::strong_count(&token), 2);
        let value = stream.submit(&[]).expect("submit");
        assert!(stream.timeline().wait(value, WAIT).expect("wait"));
        stream.retire_completed();
        assert_eq!(Arc::strong_count(&token), 1);
        assert_eq!(Arc::strong_count(&buffer), 1);

        // Kept with nothing recorded: released once earlier work is done.
        stream.keep_alive(Arc::clone(&token));
        assert_eq!(stream.submit(&[]).expect("submit"), value);
        assert_eq!(Arc::strong_count(&token), 1);
    }

    #[test]
    fn dropping_a_stream_waits_for_its_work() {
        let device = lavapipe();
        let buffer = device
            .create_buffer(1 << 20, Placement::DeviceLocal)
            .expect("buffer");
        let timeline = {
            let mut stream = device.create_stream().expect("stream");
            for _ in 0..16 {
                stream.fill_buffer(&buffer, 0, 1 << 20, 9).expect("fill");
            }
            let value = stream.submit(&[]).expect("submit");
            (Arc::clone(stream.timeline()), value)
        };
        assert!(timeline.0.completed_value().expect("value") >= timeline.1);
        assert_eq!(Arc::strong_count(&buffer), 1);
    }

    #[test]
    fn timestamps_are_written_in_order_and_pools_recycled() {
        let device = lavapipe();
        assert!(device.has_timestamps());
        let mut stream = device.create_stream().expect("stream");
        let buffer = device
            .create_buffer(1 << 16, Placement::DeviceLocal)
            .expect("buffer");
        // More queries than one chunk holds, around real commands.
        let mut queries = Vec::new();
        for _ in 0..QUERIES_PER_CHUNK + 10 {
            queries.push(stream.write_timestamp().expect("timestamp"));
            stream.fill_buffer(&buffer, 0, 1 << 16, 3).expect("fill");
        }
        queries.push(stream.write_timestamp().expect("timestamp"));
        let value = stream.submit(&[]).expect("submit");
        assert!(stream.timeline().wait(value, WAIT).expect("wait"));
        let ticks: Vec<u64> = queries
            .iter()
            .map(|q| q.ticks().expect("read").expect("written"))
            .collect();
        assert!(ticks.windows(2).all(|w| w[0] <= w[1]), "{ticks:?}");
        assert!(ticks.last() > ticks.first());

        stream.retire_completed();
        assert_eq!(stream.spare_query_chunks.len(), 2);
        // Chunks that queries still refer to are not reset for new work.
        let held = stream.write_timestamp().expect("timestamp");
        assert!(queries.iter().all(|q| !Arc::ptr_eq(&q.chunk, &held.chunk)));
        let value = stream.submit(&[]).expect("submit");
        assert!(stream.timeline().wait(value, WAIT).expect("wait"));
        stream.retire_completed();
        let spare_before = stream.spare_query_chunks.len();
        drop(queries);
        drop(held);
        // Released: the next recording reuses a spare instead of a new pool.
        stream.write_timestamp().expect("timestamp");
        assert_eq!(stream.spare_query_chunks.len(), spare_before - 1);
        let value = stream.submit(&[]).expect("submit");
        assert!(stream.timeline().wait(value, WAIT).expect("wait"));
    }

    #[test]
    fn calibrated_samples_match_host_time() {
        let device = lavapipe();
        let epoch = std::time::Instant::now();
        let host = || epoch.elapsed().as_nanos() as u64;
        // lavapipe has VK_EXT_calibrated_timestamps.
        let sample = device
            .sample_clocks(&host)
            .expect("sample")
            .expect("calibrated timestamps");
        std::thread::sleep(Duration::from_millis(5));
        let mut stream = device.create_stream().expect("stream");
        let query = stream.write_timestamp().expect("timestamp");
        let before = host();
        let value = stream.submit(&[]).expect("submit");
        assert!(stream.timeline().wait(value, WAIT).expect("wait"));
        let after = host();
        let ticks = query.ticks().expect("read").expect("written");
        let period = f64::from(device.info().limits.timestamp_period);
        let converted = sample.host_ns as f64 + (ticks as f64 - sample.ticks as f64) * period;
        // Written between submission and completion, give or take the
        // sample's own uncertainty.
        let slack = 1e6;
        assert!(
            converted >= before as f64 - slack && converted <= after as f64 + slack,
            "{converted} not in [{before}, {after}]"
        );
    }
}
