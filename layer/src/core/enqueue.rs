//! The buffer, marker and barrier commands: argument checks that need the
//! objects, and the recipe each one records. Kernel launches are prepared
//! by [`crate::core::kernel`].
//!
//! Every `clEnqueue*` entry point first runs [`check_context`], the one
//! place that checks that the objects of a command all belong to the
//! queue's context.
//!
//! Reads copy into a readback staging buffer and reach the application's
//! memory when the command completes; writes copy the application's data
//! into an upload staging buffer at enqueue time, so the application may
//! reuse its memory as soon as the call returns. A non-blocking write from
//! memory that an earlier non-blocking read will still fill takes its data
//! once that read is done instead ([`write_when_filled`]), which the spec
//! allows (the application may not reuse that memory until the write
//! completes); the call does not wait. Staging comes from the
//! device's [`crate::core::buffer_pool`] and returns there when the command
//! is done with it. Where the buffer's memory is the host's too
//! ([`crate::core::host_direct`]), the host copies between application
//! memory and the buffer itself once the command's predecessors are done.

use std::sync::Arc;

use opencl_sys::{
    cl_command_type, cl_int, cl_mem_migration_flags, CL_COMMAND_BARRIER, CL_COMMAND_COPY_BUFFER,
    CL_COMMAND_FILL_BUFFER, CL_COMMAND_MAP_BUFFER, CL_COMMAND_MIGRATE_MEM_OBJECTS,
    CL_COMMAND_READ_BUFFER, CL_COMMAND_UNMAP_MEM_OBJECT, CL_COMMAND_WRITE_BUFFER, CL_COMPLETE,
    CL_INVALID_CONTEXT, CL_INVALID_VALUE, CL_MEM_COPY_OVERLAP,
    CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, CL_MIGRATE_MEM_OBJECT_HOST,
};

use crate::core::command::{Recipe, Step};
use crate::core::context::Context;
use crate::core::error::VkResultExt;
use crate::core::event::{Event, HostCompletion};
use crate::core::host::{self, HostMemory};
use crate::core::host_direct;
use crate::core::memory::Mem;
use crate::core::object::Object;
use crate::core::queue::Queue;
use crate::core::residency::Access;
use crate::core::transfer;
use crate::core::transfer_trace::{self, Command as TracedCommand, Path};
use crate::core::CLResult;
use crate::vulkan::Placement;

/// Fill patterns larger than a word, or not word-aligned, are expanded on
/// the host into a staging tile of at most this many bytes, then doubled on
/// the device by buffer-to-buffer copies.
const FILL_TILE_BYTES: usize = 1 << 20;

pub type Waits<'a> = &'a [Arc<Object<Event>>];

/// `CL_INVALID_CONTEXT` unless every context in `contexts` (of the memory
/// objects and kernel a command names) and every event of `waits` belongs
/// to `queue`'s context. Every `clEnqueue*` entry point calls this before
/// anything else happens, so nothing downstream checks again.
pub fn check_context(queue: &Queue, contexts: &[&Object<Context>], waits: Waits) -> CLResult<()> {
    let own = queue.context();
    let same = contexts.iter().all(|context| context.is(own))
        && waits.iter().all(|event| event.context().is(own));
    if same {
        Ok(())
    } else {
        Err(CL_INVALID_CONTEXT)
    }
}

/// For blocking commands: waits, and turns a failed command into the error
/// the call returns.
pub fn wait_if_blocking(event: &Arc<Object<Event>>, blocking: bool) -> CLResult<()> {
    if blocking {
        let status: cl_int = event.wait()?;
        if status != CL_COMPLETE {
            return Err(status);
        }
        if let Some(queue) = event.queue() {
            queue.let_go_of_finished();
        }
    }
    Ok(())
}

pub fn read_buffer(
    queue: &Arc<Object<Queue>>,
    mem: &Arc<Object<Mem>>,
    blocking: bool,
    offset: usize,
    destination: Box<dyn HostMemory>,
    waits: Waits,
) -> CLResult<Arc<Object<Event>>> {
    read_buffer_as(
        CL_COMMAND_READ_BUFFER,
        queue,
        mem,
        blocking,
        offset,
        destination,
        waits,
    )
}

/// A read from the buffer into host memory, as the command `command` (a
/// read, or a map).
pub fn read_buffer_as(
    command: cl_command_type,
    queue: &Arc<Object<Queue>>,
    mem: &Arc<Object<Mem>>,
    blocking: bool,
    offset: usize,
    mut destination: Box<dyn HostMemory>,
    waits: Waits,
) -> CLResult<Arc<Object<Event>>> {
    let written = host::span(destination.bytes_mut());
    let size = written.len();
    mem.check_range(offset, size)?;
    mem.check_host_can_read()?;
    let buffer = mem.buffer_on(queue.device())?;
    let traced = trace_command(command);
    if host_direct::read_is_direct(queue.device().host_access(), &buffer) {
        transfer_trace::note(traced, Path::Direct, size);
        if blocking {
            queue.wait_for_earlier(waits);
        }
        let at = (mem.origin() + offset) as u64;
        let copy_out: HostCompletion =
            Box::new(move || transfer::read_mapped(&buffer, at, destination.bytes_mut()));
        let mut recipe = Recipe::on_host(copy_out);
        recipe.uses(mem.clone(), Access::Read);
        recipe.writes_host(written);
        let event = queue.enqueue(command, waits, recipe, None)?;
        wait_if_blocking(&event, blocking)?;
        return Ok(event);
    }
    if blocking && size >= transfer::STREAM_THRESHOLD {
        let buffer_offset = (mem.origin() + offset) as u64;
        let bytes = destination.bytes_mut();
        if let Some(event) =
            transfer::read_streamed(command, queue, mem, buffer_offset, bytes, waits)?
        {
            transfer_trace::note(traced, Path::Streamed, size);
            return Ok(event);
        }
    }
    transfer_trace::note(traced, Path::Staged, size);
    let mut recipe = Recipe::default();
    let mut host_completion = None;
    if size > 0 {
        let staging = queue.device().lease(Placement::Readback, size as u64)?;
        recipe.push(Step::Copy {
            src: buffer,
            src_offset: (mem.origin() + offset) as u64,
            dst: staging.buffer().clone(),
            dst_offset: 0,
            size: size as u64,
        });
        recipe.uses(mem.clone(), Access::Read);
        recipe.hold(staging.clone());
        recipe.writes_host(written);
        let copy_out: HostCompletion = Box::new(move || {
            staging
                .buffer()
                .read(0, destination.bytes_mut())
                .or_out_of_resources()
        });
        host_completion = Some(copy_out);
    }
    let event = queue.enqueue(command, waits, recipe, host_completion)?;
    wait_if_blocking(&event, blocking)?;
    Ok(event)
}

pub fn write_buffer(
    queue: &Arc<Object<Queue>>,
    mem: &Arc<Object<Mem>>,
    blocking: bool,
    offset: usize,
    source: Box<dyn HostMemory>,
    waits: Waits,
) -> CLResult<Arc<Object<Event>>> {
    write_buffer_as(
        CL_COMMAND_WRITE_BUFFER,
        queue,
        mem,
        blocking,
        offset,
        source,
        waits,
    )
}

/// A write of host memory into the buffer, as the command `command` (a
/// write, or an unmap).
pub fn write_buffer_as(
    command: cl_command_type,
    queue: &Arc<Object<Queue>>,
    mem: &Arc<Object<Mem>>,
    blocking: bool,
    offset: usize,
    source: Box<dyn HostMemory>,
    waits: Waits,
) -> CLResult<Arc<Object<Event>>> {
    let size = source.bytes().len();
    mem.check_range(offset, size)?;
    mem.check_host_can_write()?;
    let buffer = mem.buffer_on(queue.device())?;
    let pending = queue.pending_host_writes(waits, &host::span(source.bytes()));
    if !pending.is_empty() {
        if !blocking {
            let at = (mem.origin() + offset) as u64;
            return write_when_filled(
                command,
                queue,
                (mem, mem.write_access(offset, size)),
                source,
                <[u8]>::to_vec,
                vec![(0, at, size as u64)],
                waits,
            );
        }
        // A blocking write waits for the commands before it anyway.
        for earlier in pending {
            earlier.wait()?;
        }
    }
    let source = source.bytes();
    let traced = trace_command(command);
    let access = queue.device().host_access();
    if host_direct::write_is_direct(access, &buffer, source.len(), blocking) {
        transfer_trace::note(traced, Path::Direct, source.len());
        let event = write_direct(
            command,
            queue,
            mem,
            (buffer, offset),
            source,
            blocking,
            waits,
        )?;
        wait_if_blocking(&event, blocking)?;
        return Ok(event);
    }
    if blocking && source.len() >= transfer::STREAM_THRESHOLD {
        let buffer_offset = (mem.origin() + offset) as u64;
        if let Some(event) =
            transfer::write_streamed(command, queue, mem, buffer_offset, source, waits)?
        {
            transfer_trace::note(traced, Path::Streamed, source.len());
            return Ok(event);
        }
    }
    transfer_trace::note(traced, Path::Staged, source.len());
    let mut recipe = Recipe::default();
    if !source.is_empty() {
        let staging = queue
            .device()
            .lease(Placement::Upload, source.len() as u64)?;
        staging.buffer().write(0, source).or_out_of_resources()?;
        recipe.push(Step::Copy {
            src: staging.buffer().clone(),
            src_offset: 0,
            dst: buffer,
            dst_offset: (mem.origin() + offset) as u64,
            size: source.len() as u64,
        });
        recipe.uses(mem.clone(), mem.write_access(offset, source.len()));
        recipe.hold(staging);
    }
    let event = queue.enqueue(command, waits, recipe, None)?;
    wait_if_blocking(&event, blocking)?;
    Ok(event)
}

/// A write straight into `buffer`'s mapping at `offset` in `mem`: on the
/// calling thread from `source` when nothing it follows is unfinished (a
/// blocking write waits for that first), else from a copy of `source`
/// once they are.
fn write_direct(
    command: cl_command_type,
    queue: &Arc<Object<Queue>>,
    mem: &Arc<Object<Mem>>,
    (buffer, offset): (Arc<crate::vulkan::Buffer>, usize),
    source: &[u8],
    blocking: bool,
    waits: Waits,
) -> CLResult<Arc<Object<Event>>> {
    let at = (mem.origin() + offset) as u64;
    let access = mem.write_access(offset, source.len());
    if blocking {
        queue.wait_for_earlier(waits);
    }
    let mut uses = Recipe::default();
    uses.uses(mem.clone(), access);
    let now = queue.run_on_host_now(command, waits, uses, || {
        transfer::write_mapped(&buffer, at, source)
    })?;
    if let Some(event) = now {
        return Ok(event);
    }
    let data = source.to_vec();
    let copy_in: HostCompletion = Box::new(move || transfer::write_mapped(&buffer, at, &data));
    let mut recipe = Recipe::on_host(copy_in);
    recipe.uses(mem.clone(), access);
    queue.enqueue(command, waits, recipe, None)
}

/// A non-blocking write whose source an earlier command will still fill
/// (see the module documentation). A host command, run once every command
/// before it and `waits` are done, packs what the write takes from
/// `source` (`gather`) into upload staging; the write's own command, after
/// that one, copies each `(staging offset, buffer offset, size)` of
/// `copies` into `mem`, which it uses as `access`.
pub fn write_when_filled(
    command: cl_command_type,
    queue: &Arc<Object<Queue>>,
    (mem, access): (&Arc<Object<Mem>>, Access),
    source: Box<dyn HostMemory>,
    gather: impl FnOnce(&[u8]) -> Vec<u8> + Send + 'static,
    copies: Vec<(u64, u64, u64)>,
    waits: Waits,
) -> CLResult<Arc<Object<Event>>> {
    let size: u64 = copies.iter().map(|&(_, _, size)| size).sum();
    if size == 0 {
        return queue.enqueue(command, waits, Recipe::default(), None);
    }
    let buffer = mem.buffer_on(queue.device())?;
    let staging = queue.device().lease(Placement::Upload, size)?;
    let filled = staging.clone();
    let fill: HostCompletion = Box::new(move || {
        let packed = gather(source.bytes());
        filled.buffer().write(0, &packed).or_out_of_resources()
    });
    let filling = queue.enqueue(command, waits, Recipe::on_host(fill), None)?;
    let mut recipe = Recipe::default();
    for (from, to, size) in copies {
        recipe.push(Step::Copy {
            src: staging.buffer().clone(),
            src_offset: from,
            dst: buffer.clone(),
            dst_offset: to,
            size,
        });
    }
    recipe.uses(mem.clone(), access);
    recipe.hold(staging);
    let after: Vec<_> = waits.iter().cloned().chain([filling]).collect();
    queue.enqueue(command, &after, recipe, None)
}

/// How the trace names `command` (a read or write, or the map or unmap
/// that reads or writes through one).
fn trace_command(command: cl_command_type) -> TracedCommand {
    match command {
        CL_COMMAND_MAP_BUFFER => TracedCommand::Map,
        CL_COMMAND_UNMAP_MEM_OBJECT => TracedCommand::Unmap,
        CL_COMMAND_READ_BUFFER => TracedCommand::Read,
        _ => TracedCommand::Write,
    }
}

pub struct CopyRegion {
    pub src_offset: usize,
    pub dst_offset: usize,
    pub size: usize,
}

pub fn copy_buffer(
    queue: &Arc<Object<Queue>>,
    src: &Arc<Object<Mem>>,
    dst: &Arc<Object<Mem>>,
    region: CopyRegion,
    waits: Waits,
) -> CLResult<Arc<Object<Event>>> {
    src.check_range(region.src_offset, region.size)?;
    dst.check_range(region.dst_offset, region.size)?;
    // In the storage both share when one is a sub-buffer of the other or
    // both are of one buffer.
    let (src_start, dst_start) = (
        src.origin() + region.src_offset,
        dst.origin() + region.dst_offset,
    );
    let overlaps = src_start < dst_start + region.size && dst_start < src_start + region.size;
    if src.same_storage(dst) && overlaps {
        return Err(CL_MEM_COPY_OVERLAP);
    }
    let mut recipe = Recipe::default();
    if region.size > 0 {
        let device = queue.device();
        let (src_buffer, dst_buffer) = (src.buffer_on(device)?, dst.buffer_on(device)?);
        let (src_offset, dst_offset, size) = (
            (src.origin() + region.src_offset) as u64,
            (dst.origin() + region.dst_offset) as u64,
            region.size as u64,
        );
        let dispatch = if device.prefers_compute_copies() {
            device.builtin_kernels()?.copy(
                device,
                (&src_buffer, src_offset),
                (&dst_buffer, dst_offset),
                size,
            )
        } else {
            None
        };
        recipe.push(dispatch.unwrap_or(Step::Copy {
            src: src_buffer,
            src_offset,
            dst: dst_buffer,
            dst_offset,
            size,
        }));
        recipe.uses(src.clone(), Access::Read);
        recipe.uses(dst.clone(), Access::Write);
    }
    queue.enqueue(CL_COMMAND_COPY_BUFFER, waits, recipe, None)
}

pub fn fill_buffer(
    queue: &Arc<Object<Queue>>,
    mem: &Arc<Object<Mem>>,
    pattern: &[u8],
    offset: usize,
    size: usize,
    waits: Waits,
) -> CLResult<Arc<Object<Event>>> {
    let pattern_size = pattern.len();
    // The spec allows the sizes of the OpenCL C scalar and vector types.
    if !pattern_size.is_power_of_two() || pattern_size > 128 {
        return Err(CL_INVALID_VALUE);
    }
    if !offset.is_multiple_of(pattern_size) || !size.is_multiple_of(pattern_size) {
        return Err(CL_INVALID_VALUE);
    }
    mem.check_range(offset, size)?;
    let buffer = mem.buffer_on(queue.device())?;
    // Where the range starts in the storage (a sub-buffer's origin is
    // aligned, so word alignment is unchanged).
    let offset = mem.origin() + offset;
    let mut recipe = Recipe::default();
    if size > 0 {
        if pattern_size <= 4 && offset.is_multiple_of(4) && size.is_multiple_of(4) {
            let word = pattern.iter().cycle().take(4).copied().collect::<Vec<u8>>();
            recipe.push(Step::Fill {
                dst: buffer,
                offset: offset as u64,
                size: size as u64,
                word: u32::from_le_bytes([word[0], word[1], word[2], word[3]]),
            });
        } else {
            tiled_fill(queue, &mut recipe, buffer, pattern, offset, size)?;
        }
        // `offset` includes a sub-buffer's origin, so only a whole buffer
        // discards.
        recipe.uses(mem.clone(), mem.write_access(offset, size));
    }
    queue.enqueue(CL_COMMAND_FILL_BUFFER, waits, recipe, None)
}

/// Copies one host-made tile of the pattern, then doubles the filled region
/// with device copies until it covers `size` bytes (each step is a separate
/// command, so the stream's barriers order them).
fn tiled_fill(
    queue: &Queue,
    recipe: &mut Recipe,
    buffer: Arc<crate::vulkan::Buffer>,
    pattern: &[u8],
    offset: usize,
    size: usize,
) -> CLResult<()> {
    let tile_len = size.min(FILL_TILE_BYTES / pattern.len() * pattern.len());
    let tile: Vec<u8> = pattern.iter().cycle().take(tile_len).copied().collect();
    let staging = queue.device().lease(Placement::Upload, tile_len as u64)?;
    staging.buffer().write(0, &tile).or_out_of_resources()?;
    recipe.hold(staging.clone());
    recipe.push(Step::Copy {
        src: staging.buffer().clone(),
        src_offset: 0,
        dst: buffer.clone(),
        dst_offset: offset as u64,
        size: tile_len as u64,
    });
    let mut filled = tile_len;
    while filled < size {
        let chunk = filled.min(size - filled);
        recipe.push(Step::Copy {
            src: buffer.clone(),
            src_offset: offset as u64,
            dst: buffer.clone(),
            dst_offset: (offset + filled) as u64,
            size: chunk as u64,
        });
        filled += chunk;
    }
    Ok(())
}

/// `clEnqueueMigrateMemObjects`: to the queue's device, the contents move
/// there when the command runs, as they would for a command using them
/// (not at all with `CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED`). To the host
/// (`CL_MIGRATE_MEM_OBJECT_HOST`) nothing moves: the host reaches a buffer
/// only through reads and maps, which fetch the newest contents anyway.
pub fn migrate(
    queue: &Arc<Object<Queue>>,
    mems: &[Arc<Object<Mem>>],
    flags: cl_mem_migration_flags,
    waits: Waits,
) -> CLResult<Arc<Object<Event>>> {
    let mut recipe = Recipe::default();
    if flags & CL_MIGRATE_MEM_OBJECT_HOST == 0 {
        let discard = flags & CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED != 0;
        for mem in mems {
            if mem.image().is_none() {
                mem.buffer_on(queue.device())?;
            }
            // A sub-buffer's undefined contents leave the rest of its
            // parent defined, so that moves whole.
            let access = if discard && mem.parent().is_none() {
                Access::Discard
            } else {
                Access::Read
            };
            recipe.uses(mem.clone(), access);
        }
    }
    queue.enqueue(CL_COMMAND_MIGRATE_MEM_OBJECTS, waits, recipe, None)
}

/// `clEnqueueMarkerWithWaitList` (`CL_COMMAND_MARKER`) and
/// `clEnqueueBarrierWithWaitList` (`CL_COMMAND_BARRIER`): a command that
/// completes after its wait list and everything enqueued before it. On an
/// out-of-order queue a barrier also orders every later command after
/// everything before it.
pub fn marker(
    queue: &Arc<Object<Queue>>,
    command_type: cl_command_type,
    waits: Waits,
) -> CLResult<Arc<Object<Event>>> {
    let mut recipe = Recipe::default();
    if command_type == CL_COMMAND_BARRIER && queue.out_of_order() {
        recipe.push(Step::Barrier);
    }
    queue.enqueue(command_type, waits, recipe, None)
}
