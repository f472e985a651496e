//! The runtime's own kernels (`shaders/*.cl`): OpenCL C compiled by our
//! translator and made into pipelines once per device, on first use. For
//! now that is `clEnqueueCopyBuffer` as a compute dispatch, which discrete
//! GPUs run several times faster than `vkCmdCopyBuffer` on a compute queue.

use std::sync::Arc;

use opencl_sys::CL_OUT_OF_RESOURCES;
use translator::reflect::{ArgKind, KernelReflection, PushConstantHeader};

use crate::core::command::Step;
use crate::core::device::Device;
use crate::core::CLResult;
use crate::vulkan::{Buffer, ComputePipeline};

const COPY_SOURCE: &str = include_str!("../../../shaders/copy.cl");

/// Work-items per group of every built-in dispatch.
const LOCAL_SIZE: u32 = 256;

/// One kernel of the runtime's own source, made into a pipeline.
pub(crate) struct BuiltinKernel {
    pub pipeline: Arc<ComputePipeline>,
    pub reflection: KernelReflection,
}

impl BuiltinKernel {
    /// Kernel `name` of `program` (built from the runtime's own source)
    /// as a pipeline for `device`, `local_size` work-items per group. Our
    /// own source failing is a translator bug; the device then cannot run
    /// the command, which OpenCL calls a lack of resources.
    pub fn new(
        device: &Device,
        program: &translator::Program,
        name: &str,
        local_size: [u32; 3],
    ) -> CLResult<Self> {
        let kernel = program.kernel(name).ok_or(CL_OUT_OF_RESOURCES)?;
        let spirv = kernel
            .spirv(local_size, &[])
            .map_err(|_| CL_OUT_OF_RESOURCES)?;
        let reflection = kernel.reflection.clone();
        let pipeline = device.kernel_pipeline(&spirv, &reflection)?;
        Ok(BuiltinKernel {
            pipeline,
            reflection,
        })
    }
}

pub struct BuiltinKernels {
    /// Copies of 16-byte and 4-byte elements.
    copy_uint4: BuiltinKernel,
    copy_uint: BuiltinKernel,
}

impl BuiltinKernels {
    pub fn new(device: &Device) -> CLResult<Self> {
        // Built without the loop guard (`Device::build_caps`): a work-item's
        // loop strides over the copy by the whole NDRange, so no driver's
        // cut (lavapipe's 65,535 iterations) is within reach of any buffer.
        let program = device
            .translator()
            .build(COPY_SOURCE, "", device.caps())
            .map_err(|_| CL_OUT_OF_RESOURCES)?;
        let kernel = |name| BuiltinKernel::new(device, &program, name, [LOCAL_SIZE, 1, 1]);
        Ok(BuiltinKernels {
            copy_uint4: kernel("copy_uint4")?,
            copy_uint: kernel("copy_uint")?,
        })
    }

    /// The dispatch that copies `size` bytes from `src` to `dst`, or `None`
    /// when the ranges are not whole 4-byte words inside what one storage
    /// binding can reach (then the caller uses a transfer command).
    pub fn copy(
        &self,
        device: &Device,
        (src, src_offset): (&Arc<Buffer>, u64),
        (dst, dst_offset): (&Arc<Buffer>, u64),
        size: u64,
    ) -> Option<Step> {
        let reach = u64::from(device.info().limits.max_storage_buffer_range);
        if src_offset.max(dst_offset) + size > reach {
            return None;
        }
        let (kernel, element) = [(&self.copy_uint4, 16), (&self.copy_uint, 4)]
            .into_iter()
            .find(|(_, e)| [src_offset, dst_offset, size].iter().all(|v| v % e == 0))?;
        let count = u32::try_from(size / element).ok()?;
        // One element per work-item where the device allows that many
        // groups (a grid-stride loop measured 3% slower on an H100); the
        // kernels stride over what is left beyond the limit.
        let groups = count.div_ceil(LOCAL_SIZE).clamp(
            1,
            device.max_work_group_count()[0].min(u32::MAX / LOCAL_SIZE),
        );
        let header = PushConstantHeader {
            global_offset: [0; 3],
            work_dim: 1,
            global_size: [groups * LOCAL_SIZE, 1, 1],
            group_offset: [0; 3],
        };
        let mut push_constants = vec![0u8; kernel.reflection.push_constant_size as usize];
        push_constants[..PushConstantHeader::SIZE as usize].copy_from_slice(&header.to_bytes());
        let values = [
            (dst_offset / element) as u32,
            (src_offset / element) as u32,
            count,
        ];
        // Arguments 2..4 are the three `uint`s, in this order.
        let pods = kernel.reflection.args.iter().filter_map(|a| match a.kind {
            ArgKind::Pod { offset, .. } => Some(offset as usize),
            _ => None,
        });
        for (offset, value) in pods.zip(values) {
            push_constants[offset..offset + 4].copy_from_slice(&value.to_ne_bytes());
        }
        Some(Step::Dispatch {
            pipeline: kernel.pipeline.clone(),
            // Range 0: each buffer bound whole.
            buffers: vec![(dst.clone(), 0, 0), (src.clone(), 0, 0)],
            images: Vec::new(),
            push_constants,
            group_count: [groups, 1, 1],
        })
    }
}
