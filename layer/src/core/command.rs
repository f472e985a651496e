//! What one OpenCL command records into a Vulkan stream, prepared at
//! enqueue time so that a command held back behind a user event can be
//! recorded later from any thread without touching the application's
//! memory again; or, for a direct host transfer
//! ([`crate::core::host_direct`]), the work the host does in its place once
//! everything the command follows is done.

use std::any::Any;
use std::ops::Range;
use std::sync::Arc;

use crate::core::buffer_pool::Lease;
use crate::core::device::Device;
use crate::core::error::VkResultExt;
use crate::core::event::HostCompletion;
use crate::core::memory::Mem;
use crate::core::object::Object;
use crate::core::residency::{Access, Refresh};
use crate::core::CLResult;
use crate::vulkan::{
    Buffer, BufferBinding, ComputePipeline, Image, ImageBinding, ImageRegion, Stream,
};

pub enum Step {
    /// Orders every later command after every earlier one.
    Barrier,
    Copy {
        src: Arc<Buffer>,
        src_offset: u64,
        dst: Arc<Buffer>,
        dst_offset: u64,
        size: u64,
    },
    Fill {
        dst: Arc<Buffer>,
        offset: u64,
        size: u64,
        word: u32,
    },
    /// Packed texels from `src_offset` into `region` of `dst`.
    BufferToImage {
        src: Arc<Buffer>,
        src_offset: u64,
        dst: Arc<Image>,
        region: ImageRegion,
    },
    /// `region` of `src` packed into `dst` from `dst_offset`.
    ImageToBuffer {
        src: Arc<Image>,
        region: ImageRegion,
        dst: Arc<Buffer>,
        dst_offset: u64,
    },
    /// `region` of `src` to `dst_offset` and `dst_first_layer` of `dst`.
    ImageToImage {
        src: Arc<Image>,
        region: ImageRegion,
        dst: Arc<Image>,
        dst_offset: [u32; 3],
        dst_first_layer: u32,
    },
    Dispatch {
        pipeline: Arc<ComputePipeline>,
        /// `(buffer, offset, range)` per binding, in binding order.
        buffers: Vec<(Arc<Buffer>, u64, u64)>,
        /// The image arguments, by binding of set 1.
        images: Vec<ImageBinding>,
        push_constants: Vec<u8>,
        group_count: [u32; 3],
    },
}

/// The steps of one command, the memory objects it uses, and the objects
/// they must keep alive until the GPU is done with them (memory objects,
/// staging buffers).
#[derive(Default)]
pub struct Recipe {
    steps: Vec<Step>,
    uses: Vec<(Arc<Object<Mem>>, Access)>,
    keep_alive: Vec<Arc<dyn Any + Send + Sync>>,
    /// The size of the pooled buffers it holds (see [`Recipe::hold`]).
    leased_bytes: u64,
    /// Set for a command the host carries out instead of the GPU: copies
    /// between application memory and a buffer's mapping.
    host_work: Option<HostCompletion>,
    /// The application memory the command writes after the enqueue call
    /// has returned (a non-blocking read's destination): a later write
    /// from that memory must take its data after this command is done.
    writes_host: Option<Range<usize>>,
}

impl Recipe {
    /// A command the host carries out by running `run`, once every command
    /// it follows is done (see [`crate::core::queue`]); its memory objects
    /// are named with [`Recipe::uses`] as for recorded commands.
    pub fn on_host(run: HostCompletion) -> Recipe {
        Recipe {
            host_work: Some(run),
            ..Recipe::default()
        }
    }

    /// Whether the host carries the command out ([`Recipe::on_host`]).
    pub fn runs_on_host(&self) -> bool {
        self.host_work.is_some()
    }

    /// The command writes the application memory at `range` when it runs
    /// or completes (see [`crate::core::host::span`]).
    pub fn writes_host(&mut self, range: Range<usize>) {
        self.writes_host = Some(range);
    }

    /// See [`Recipe::writes_host`].
    pub fn host_range_written(&self) -> Option<Range<usize>> {
        self.writes_host.clone()
    }

    /// Carries out a command on the host, now that everything it follows
    /// is done: brings the memory objects' newest contents to `device`
    /// (copying on the host, as the buffers are mapped), then runs the
    /// host work, then `more` (work that borrows the caller's memory).
    pub fn run_on_host(
        self,
        device: &Arc<Object<Device>>,
        more: impl FnOnce() -> CLResult<()>,
    ) -> CLResult<()> {
        for (mem, access) in &self.uses {
            if let Some(refresh) = mem.prepare_on(device, *access)? {
                refresh.apply_on_host()?;
            }
        }
        if let Some(work) = self.host_work {
            work()?;
        }
        more()
    }
    /// The command uses `mem` as `access`: its contents are brought to the
    /// queue's device when the command is recorded, and it is kept alive.
    pub fn uses(&mut self, mem: Arc<Object<Mem>>, access: Access) {
        self.uses.push((mem, access));
    }

    pub fn push(&mut self, step: Step) {
        self.steps.push(step);
    }

    pub fn keep_alive(&mut self, object: Arc<dyn Any + Send + Sync>) {
        self.keep_alive.push(object);
    }

    /// Keeps a pooled buffer until the command completes, counting its
    /// bytes against the queue's budget of memory in flight.
    pub fn hold(&mut self, lease: Arc<Lease>) {
        self.leased_bytes += lease.buffer().size();
        self.keep_alive.push(lease);
    }

    /// The bytes of pooled buffers the command holds.
    pub fn leased_bytes(&self) -> u64 {
        self.leased_bytes
    }

    /// Records the steps on `device`'s `stream`, after the copies that
    /// bring the memory objects' contents there. Everything they reference
    /// is handed to the stream's keep-alive list as it is recorded, so a
    /// failure half-way leaves nothing recorded that could outlive its
    /// buffers. `overlap`: the command's first step may run alongside
    /// earlier commands (its later steps are ordered after its earlier
    /// ones); not when contents had to move, whose copy must not overtake
    /// earlier commands that use the old ones.
    pub fn record(
        self,
        stream: &mut Stream,
        device: &Arc<Object<Device>>,
        overlap: bool,
    ) -> CLResult<()> {
        if self.host_work.is_some() {
            // The queue runs host commands itself; recording one would
            // drop its work silently.
            return Err(opencl_sys::CL_INVALID_OPERATION);
        }
        let mut refreshes = Vec::new();
        for (mem, access) in &self.uses {
            refreshes.extend(mem.prepare_on(device, *access)?);
        }
        if overlap && refreshes.is_empty() && !self.steps.is_empty() {
            stream.let_next_command_overlap();
        }
        for (mem, _) in self.uses {
            stream.keep_alive(mem);
        }
        for object in self.keep_alive {
            stream.keep_alive(object);
        }
        for refresh in refreshes {
            if let Refresh::Upload {
                staging,
                destination,
                size,
            } = refresh
            {
                stream
                    .copy_buffer(staging.buffer(), 0, &destination, 0, size)
                    .or_out_of_resources()?;
                stream.keep_alive(staging);
                stream.keep_alive(destination);
            }
        }
        for step in self.steps {
            match &step {
                Step::Barrier => stream.order_all(),
                Step::Copy {
                    src,
                    src_offset,
                    dst,
                    dst_offset,
                    size,
                } => stream.copy_buffer(src, *src_offset, dst, *dst_offset, *size),
                Step::Fill {
                    dst,
                    offset,
                    size,
                    word,
                } => stream.fill_buffer(dst, *offset, *size, *word),
                Step::BufferToImage {
                    src,
                    src_offset,
                    dst,
                    region,
                } => stream.copy_buffer_to_image(src, *src_offset, dst, *region),
                Step::ImageToBuffer {
                    src,
                    region,
                    dst,
                    dst_offset,
                } => stream.copy_image_to_buffer(src, *region, dst, *dst_offset),
                Step::ImageToImage {
                    src,
                    region,
                    dst,
                    dst_offset,
                    dst_first_layer,
                } => stream.copy_image(src, *region, dst, *dst_offset, *dst_first_layer),
                Step::Dispatch {
                    pipeline,
                    buffers,
                    images,
                    push_constants,
                    group_count,
                } => {
                    let bindings: Vec<BufferBinding> = buffers
                        .iter()
                        .map(|(buffer, offset, range)| BufferBinding {
                            buffer,
                            offset: *offset,
                            range: *range,
                        })
                        .collect();
                    stream.dispatch(pipeline, &bindings, images, push_constants, *group_count)
                }
            }
            .or_out_of_resources()?;
            match step {
                Step::Barrier => {}
                Step::Copy { src, dst, .. } => {
                    stream.keep_alive(src);
                    stream.keep_alive(dst);
                }
                Step::Fill { dst, .. } => stream.keep_alive(dst),
                Step::BufferToImage { src, dst, .. } => {
                    stream.keep_alive(src);
                    stream.keep_alive(dst);
                }
                Step::ImageToBuffer { src, dst, .. } => {
                    stream.keep_alive(src);
                    stream.keep_alive(dst);
                }
                Step::ImageToImage { src, dst, .. } => {
                    stream.keep_alive(src);
                    stream.keep_alive(dst);
                }
                Step::Dispatch {
                    pipeline, buffers, ..
                } => {
                    stream.keep_alive(pipeline);
                    for (buffer, _, _) in buffers {
                        stream.keep_alive(buffer);
                    }
                }
            }
        }
        Ok(())
    }
}
