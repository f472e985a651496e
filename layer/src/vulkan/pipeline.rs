//! Compute pipelines with the one layout every translated kernel uses:
//! descriptor set 0 holding storage buffers at bindings 0..n, descriptor
//! set 1 holding the image arguments (when there are any), and one
//! push-constant block for the launch header and by-value arguments.

use std::ffi::CString;
use std::sync::Arc;

use ash::vk;

use super::device::Device;
use super::error::VkError;

const SPIRV_MAGIC: u32 = 0x0723_0203;

/// The descriptor type of one binding of set 1, the image arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageDescriptorKind {
    SampledImage,
    StorageImage,
    StorageTexelBuffer,
}

impl ImageDescriptorKind {
    pub(crate) const ALL: [ImageDescriptorKind; 3] = [
        ImageDescriptorKind::SampledImage,
        ImageDescriptorKind::StorageImage,
        ImageDescriptorKind::StorageTexelBuffer,
    ];

    pub(crate) fn vk(self) -> vk::DescriptorType {
        match self {
            ImageDescriptorKind::SampledImage => vk::DescriptorType::SAMPLED_IMAGE,
            ImageDescriptorKind::StorageImage => vk::DescriptorType::STORAGE_IMAGE,
            ImageDescriptorKind::StorageTexelBuffer => vk::DescriptorType::STORAGE_TEXEL_BUFFER,
        }
    }
}

/// A compute pipeline and its layouts. Holds its device alive.
pub struct ComputePipeline {
    device: Arc<Device>,
    raw: vk::Pipeline,
    layout: vk::PipelineLayout,
    /// Null when the kernel has neither buffer nor image arguments (no set
    /// is declared then); without buffers but with images, an empty set.
    set_layout: vk::DescriptorSetLayout,
    /// Set 1; null when the kernel has no image arguments.
    image_set_layout: vk::DescriptorSetLayout,
    storage_buffers: u32,
    images: Vec<ImageDescriptorKind>,
    push_constant_size: u32,
    uses_push_descriptors: bool,
}

impl std::fmt::Debug for ComputePipeline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ComputePipeline")
            .field("storage_buffers", &self.storage_buffers)
            .field("images", &self.images)
            .field("push_constant_size", &self.push_constant_size)
            .field("uses_push_descriptors", &self.uses_push_descriptors)
            .finish_non_exhaustive()
    }
}

/// Destroys the shader module once the pipeline no longer needs it,
/// whichever way creation ends.
struct ShaderModule<'a> {
    device: &'a ash::Device,
    raw: vk::ShaderModule,
}

impl Drop for ShaderModule<'_> {
    fn drop(&mut self) {
        // SAFETY: the module is only referenced by vkCreateComputePipelines,
        // which has returned; pipelines do not keep their modules.
        unsafe { self.device.destroy_shader_module(self.raw, None) };
    }
}

impl ComputePipeline {
    /// `allow_push_descriptors` is false only in tests, to exercise the
    /// descriptor-pool path on devices that have push descriptors.
    /// `subgroup_size` is the subgroup size the shader asks for, on a
    /// device with `VK_EXT_subgroup_size_control` for compute.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn create(
        device: &Arc<Device>,
        spirv: &[u32],
        entry_point: &str,
        storage_buffers: u32,
        images: &[ImageDescriptorKind],
        push_constant_size: u32,
        allow_push_descriptors: bool,
        subgroup_size: Option<u32>,
    ) -> Result<ComputePipeline, VkError> {
        let limits = &device.info().limits;
        if spirv.first() != Some(&SPIRV_MAGIC) {
            return Err(VkError::InvalidArgument(
                "the shader is not SPIR-V (wrong magic number)".to_owned(),
            ));
        }
        let entry_name = CString::new(entry_point).map_err(|_| {
            VkError::InvalidArgument(format!("entry point {entry_point:?} contains a NUL"))
        })?;
        let max_buffers = limits
            .max_per_stage_descriptor_storage_buffers
            .min(limits.max_descriptor_set_storage_buffers);
        if storage_buffers > max_buffers {
            return Err(VkError::InvalidArgument(format!(
                "{storage_buffers} storage buffers; the device allows {max_buffers}"
            )));
        }
        if !push_constant_size.is_multiple_of(4)
            || push_constant_size > limits.max_push_constants_size
        {
            return Err(VkError::InvalidArgument(format!(
                "push-constant size {push_constant_size} is not a multiple of 4 up to {}",
                limits.max_push_constants_size
            )));
        }
        let uses_push_descriptors = allow_push_descriptors
            && device.push_descriptor().is_some()
            && storage_buffers > 0
            && storage_buffers <= device.info().max_push_descriptors;

        // Filled in step by step; Drop destroys whatever exists on an early return.
        let mut pipeline = ComputePipeline {
            device: Arc::clone(device),
            raw: vk::Pipeline::null(),
            layout: vk::PipelineLayout::null(),
            set_layout: vk::DescriptorSetLayout::null(),
            image_set_layout: vk::DescriptorSetLayout::null(),
            storage_buffers,
            images: images.to_vec(),
            push_constant_size,
            uses_push_descriptors,
        };
        let raw_device = device.raw();

        check_image_limits(limits, images)?;
        if storage_buffers > 0 || !images.is_empty() {
            let bindings: Vec<_> = (0..storage_buffers)
                .map(|binding| {
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(binding)
                        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                        .descriptor_count(1)
                        .stage_flags(vk::ShaderStageFlags::COMPUTE)
                })
                .collect();
            let flags = if uses_push_descriptors {
                vk::DescriptorSetLayoutCreateFlags::PUSH_DESCRIPTOR_KHR
            } else {
                vk::DescriptorSetLayoutCreateFlags::empty()
            };
            let set_layout_info = vk::DescriptorSetLayoutCreateInfo::default()
                .flags(flags)
                .bindings(&bindings);
            // SAFETY: bindings are distinct, within the device's limits (checked
            // above, including maxPushDescriptors for the push flag, whose
            // extension is enabled on the device).
            pipeline.set_layout =
                unsafe { raw_device.create_descriptor_set_layout(&set_layout_info, None) }
                    .map_err(VkError::call("vkCreateDescriptorSetLayout"))?;
        }
        if !images.is_empty() {
            let bindings: Vec<_> = images
                .iter()
                .zip(0u32..)
                .map(|(kind, binding)| {
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(binding)
                        .descriptor_type(kind.vk())
                        .descriptor_count(1)
                        .stage_flags(vk::ShaderStageFlags::COMPUTE)
                })
                .collect();
            let set_layout_info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
            // SAFETY: bindings are distinct and within the device's
            // per-stage limits for their types (checked above).
            pipeline.image_set_layout =
                unsafe { raw_device.create_descriptor_set_layout(&set_layout_info, None) }
                    .map_err(VkError::call("vkCreateDescriptorSetLayout"))?;
        }

        let set_layouts = [pipeline.set_layout, pipeline.image_set_layout];
        let push_ranges = [vk::PushConstantRange::default()
            .stage_flags(vk::ShaderStageFlags::COMPUTE)
            .offset(0)
            .size(push_constant_size)];
        let set_layouts: &[vk::DescriptorSetLayout] = if !images.is_empty() {
            &set_layouts
        } else if storage_buffers > 0 {
            &set_layouts[..1]
        } else {
            &[]
        };
        let push_ranges: &[vk::PushConstantRange] = if push_constant_size > 0 {
            &push_ranges
        } else {
            &[]
        };
        let layout_info = vk::PipelineLayoutCreateInfo::default()
            .set_layouts(set_layouts)
            .push_constant_ranges(push_ranges);
        // SAFETY: the set layout is live; the push range is non-empty, a
        // multiple of 4 and within maxPushConstantsSize (checked above).
        pipeline.layout = unsafe { raw_device.create_pipeline_layout(&layout_info, None) }
            .map_err(VkError::call("vkCreatePipelineLayout"))?;

        let module_info = vk::ShaderModuleCreateInfo::default().code(spirv);
        // SAFETY: the code is non-empty, word-aligned (a &[u32]) and starts
        // with the SPIR-V magic number; its validity beyond that is the
        // translator's promise (the validation layer checks it when enabled).
        let raw_module = unsafe { raw_device.create_shader_module(&module_info, None) }
            .map_err(VkError::call("vkCreateShaderModule"))?;
        let module = ShaderModule {
            device: raw_device,
            raw: raw_module,
        };

        let control = device.info().subgroup_size_control;
        let asked = subgroup_size.filter(|size| {
            control
                .is_some_and(|c| size.is_power_of_two() && (c.min_size..=c.max_size).contains(size))
        });
        if asked.is_none() && subgroup_size.is_some_and(|size| size != device.info().subgroup_size)
        {
            return Err(VkError::InvalidArgument(format!(
                "subgroup size {subgroup_size:?}: the device runs compute shaders with {}",
                device.info().subgroup_size
            )));
        }
        let mut required = vk::PipelineShaderStageRequiredSubgroupSizeCreateInfo::default()
            .required_subgroup_size(asked.unwrap_or(0));
        let mut stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module.raw)
            .name(&entry_name);
        if asked.is_some() {
            stage = stage.push_next(&mut required);
        }
        let pipeline_info = [vk::ComputePipelineCreateInfo::default()
            .stage(stage)
            .layout(pipeline.layout)];
        let serialised = device.pipeline_creation();
        // SAFETY: the module, entry-point name and layout are live for the
        // call; the cache is internally synchronised (created without the
        // externally-synchronised flag), so concurrent creation is allowed.
        let created = unsafe {
            raw_device.create_compute_pipelines(device.pipeline_cache(), &pipeline_info, None)
        };
        drop(serialised);
        match created {
            Ok(pipelines) => {
                pipeline.raw = pipelines.first().copied().unwrap_or_default();
                Ok(pipeline)
            }
            Err((pipelines, result)) => {
                for partial in pipelines {
                    // SAFETY: a handle returned by a failed call is null or a
                    // pipeline nobody else has seen.
                    unsafe { raw_device.destroy_pipeline(partial, None) };
                }
                Err(VkError::Call {
                    call: "vkCreateComputePipelines",
                    result,
                })
            }
        }
    }

    pub fn storage_buffers(&self) -> u32 {
        self.storage_buffers
    }

    /// The descriptor types of set 1, by binding.
    pub fn images(&self) -> &[ImageDescriptorKind] {
        &self.images
    }

    pub(crate) fn image_set_layout(&self) -> vk::DescriptorSetLayout {
        self.image_set_layout
    }

    pub fn push_constant_size(&self) -> u32 {
        self.push_constant_size
    }

    pub fn device(&self) -> &Arc<Device> {
        &self.device
    }

    pub(crate) fn raw(&self) -> vk::Pipeline {
        self.raw
    }

    pub(crate) fn layout(&self) -> vk::PipelineLayout {
        self.layout
    }

    pub(crate) fn set_layout(&self) -> vk::DescriptorSetLayout {
        self.set_layout
    }

    pub(crate) fn uses_push_descriptors(&self) -> bool {
        self.uses_push_descriptors
    }
}

/// Refuses more image descriptors of a type than one stage may use.
fn check_image_limits(
    limits: &vk::PhysicalDeviceLimits,
    images: &[ImageDescriptorKind],
) -> Result<(), VkError> {
    let count = |kind| images.iter().filter(|k| **k == kind).count() as u32;
    let sampled = count(ImageDescriptorKind::SampledImage);
    let storage =
        count(ImageDescriptorKind::StorageImage) + count(ImageDescriptorKind::StorageTexelBuffer);
    if sampled > limits.max_per_stage_descriptor_sampled_images
        || storage > limits.max_per_stage_descriptor_storage_images
    {
        return Err(VkError::InvalidArgument(format!(
            "{sampled} sampled and {storage} storage images; the device allows {} and {}",
            limits.max_per_stage_descriptor_sampled_images,
            limits.max_per_stage_descriptor_storage_images
        )));
    }
    Ok(())
}

impl Drop for ComputePipeline {
    fn drop(&mut self) {
        let raw_device = self.device.raw();
        // SAFETY: streams keep an Arc<ComputePipeline> for each dispatch until
        // it completes, so the device is done with these objects; null
        // handles (failed creation) are ignored by the destroy calls.
        unsafe {
            raw_device.destroy_pipeline(self.raw, None);
            raw_device.destroy_pipeline_layout(self.layout, None);
            raw_device.destroy_descriptor_set_layout(self.set_layout, None);
            raw_device.destroy_descriptor_set_layout(self.image_set_layout, None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vulkan::device::tests::lavapipe;
    use crate::vulkan::test_shaders::MULTIPLY_ADD;

    #[test]
    fn pipelines_are_created_and_checked() {
        let device = lavapipe();
        let pipeline = device
            .create_compute_pipeline(MULTIPLY_ADD, "main", 2, &[], 8, None)
            .expect("pipeline");
        assert_eq!(pipeline.storage_buffers(), 2);
        assert_eq!(pipeline.push_constant_size(), 8);
        assert_eq!(
            pipeline.uses_push_descriptors(),
            device.info().features.push_descriptor
        );
        let pool_path =
            ComputePipeline::create(&device, MULTIPLY_ADD, "main", 2, &[], 8, false, None)
                .expect("pipeline without push descriptors");
        assert!(!pool_path.uses_push_descriptors());

        assert!(matches!(
            device.create_compute_pipeline(&[0, 1, 2], "main", 2, &[], 8, None),
            Err(VkError::InvalidArgument(_))
        ));
        assert!(matches!(
            device.create_compute_pipeline(MULTIPLY_ADD, "ma\0in", 2, &[], 8, None),
            Err(VkError::InvalidArgument(_))
        ));
        assert!(matches!(
            device.create_compute_pipeline(MULTIPLY_ADD, "main", 2, &[], 6, None),
            Err(VkError::InvalidArgument(_))
        ));
    }
}
