//! Large blocking reads and writes, streamed through reusable staging
//! buffers.
//!
//! A transfer between application memory and a device-local buffer goes
//! through host-visible staging memory. Done whole, a 1 GiB write first
//! allocates (and page-faults) 1 GiB of staging, copies all of it on the
//! host, and only then lets the GPU start; a read makes the host wait for
//! the whole GPU copy before its own copy begins. Streamed, the transfer
//! moves in parts of [`PART_BYTES`] through [`PARTS_IN_FLIGHT`] staging
//! buffers kept per device, and the host copies one part while the GPU
//! copies another. The parts are submitted as they are ready, with the
//! queue held by a [`Sequence`] so that they stay one command in queue
//! order.
//!
//! Only blocking calls stream: the calling thread does the host copies, and
//! it would wait for the command anyway.

use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use opencl_sys::cl_command_type;

use crate::core::command::{Recipe, Step};
use crate::core::enqueue::{wait_if_blocking, Waits};
use crate::core::error::VkResultExt;
use crate::core::event::Event;
use crate::core::fence::Fence;
use crate::core::memory::Mem;
use crate::core::object::Object;
use crate::core::queue::{Queue, Sequence};
use crate::core::residency::Access;
use crate::core::CLResult;
use crate::vulkan::{self, Placement};

/// Large enough that the per-part submission cost (tens of microseconds)
/// is small against its copy, small enough that the first part starts
/// soon and the staging kept per device stays modest.
pub const PART_BYTES: usize = 16 << 20;

/// Parts the host and the GPU work on at once.
pub const PARTS_IN_FLIGHT: usize = 4;

/// Host copies of one part are split among at most this many threads: a
/// single thread copies pageable memory at about 10 GB/s, under what the
/// bus moves.
const COPY_THREADS: usize = 4;

/// Transfers at least this large are streamed; a smaller one gains less
/// from overlap than a part's extra submission costs.
pub const STREAM_THRESHOLD: usize = 2 * PART_BYTES;

/// Staging buffers of [`PART_BYTES`] each, reused across transfers of
/// every queue of one device (and moves to and from other devices,
/// [`crate::core::migration`]). A transfer takes the buffers it uses and
/// gives them back once the GPU is done with them.
#[derive(Default)]
pub struct StagingPool {
    upload: Mutex<Vec<Arc<vulkan::Buffer>>>,
    readback: Mutex<Vec<Arc<vulkan::Buffer>>>,
}

impl StagingPool {
    fn free_list(&self, placement: Placement) -> &Mutex<Vec<Arc<vulkan::Buffer>>> {
        match placement {
            Placement::Readback => &self.readback,
            _ => &self.upload,
        }
    }

    /// `count` buffers of `placement`, idle ones first.
    pub fn take(
        &self,
        device: &Arc<vulkan::Device>,
        placement: Placement,
        count: usize,
    ) -> CLResult<Vec<Arc<vulkan::Buffer>>> {
        let mut taken: Vec<_> = {
            let mut free = self
                .free_list(placement)
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            let keep = free.len().saturating_sub(count);
            free.drain(keep..).collect()
        };
        while taken.len() < count {
            taken.push(
                device
                    .create_buffer(PART_BYTES as u64, placement)
                    .or_out_of_resources()?,
            );
        }
        Ok(taken)
    }

    /// Buffers the GPU no longer uses. Beyond what two concurrent
    /// transfers need, they are freed rather than kept.
    pub fn give_back(&self, placement: Placement, buffers: Vec<Arc<vulkan::Buffer>>) {
        let mut free = self
            .free_list(placement)
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        free.extend(buffers);
        free.truncate(2 * PARTS_IN_FLIGHT);
    }
}

/// Where one part of a transfer lies: its index, and its offset and length
/// in the application's memory.
fn parts(size: usize) -> impl Iterator<Item = (usize, usize, usize)> {
    (0..size.div_ceil(PART_BYTES)).map(move |i| {
        let offset = i * PART_BYTES;
        (i, offset, PART_BYTES.min(size - offset))
    })
}

/// What a streamed transfer works with: `mem`'s buffer, the queue held for
/// its parts, and its staging buffers.
type Streaming<'q> = (Arc<vulkan::Buffer>, Sequence<'q>, Vec<Arc<vulkan::Buffer>>);

/// [`Streaming`] with [`PARTS_IN_FLIGHT`] staging buffers of `placement`;
/// `None` when the queue cannot take the transfer in parts now.
fn begin<'q>(
    queue: &'q Arc<Object<Queue>>,
    mem: &Arc<Object<Mem>>,
    waits: Waits,
    placement: Placement,
) -> CLResult<Option<Streaming<'q>>> {
    let device = queue.device();
    let buffer = mem.buffer_on(device)?;
    let Some(sequence) = queue.sequence(waits)? else {
        return Ok(None);
    };
    let slots = device
        .staging()
        .take(device.vk()?, placement, PARTS_IN_FLIGHT)?;
    Ok(Some((buffer, sequence, slots)))
}

/// A blocking write of `source` to `buffer_offset` in `mem`, streamed; `None`
/// when the queue cannot take it in parts now (see [`Queue::sequence`]),
/// and the caller writes it whole.
pub fn write_streamed(
    command: cl_command_type,
    queue: &Arc<Object<Queue>>,
    mem: &Arc<Object<Mem>>,
    buffer_offset: u64,
    source: &[u8],
    waits: Waits,
) -> CLResult<Option<Arc<Object<Event>>>> {
    let Some((buffer, mut sequence, slots)) = begin(queue, mem, waits, Placement::Upload)? else {
        return Ok(None);
    };
    let mut in_flight: Vec<Option<Fence>> = vec![None; PARTS_IN_FLIGHT];
    let event = Event::new_command(queue, command, None, None);
    let last = source.len().div_ceil(PART_BYTES) - 1;
    for (i, offset, len) in parts(source.len()) {
        let slot = i % PARTS_IN_FLIGHT;
        if let Some(fence) = in_flight[slot].take() {
            fence.wait()?;
        }
        let staging = &slots[slot];
        let step = piece_len(len);
        let pieces = source[offset..offset + len].chunks(step).enumerate();
        in_parallel(pieces.map(|(k, piece)| (k * step, piece)), |at, piece| {
            staging.write(at as u64, piece)
        })?;
        let mut recipe = Recipe::default();
        recipe.push(Step::Copy {
            src: staging.clone(),
            src_offset: 0,
            dst: buffer.clone(),
            dst_offset: buffer_offset + offset as u64,
            size: len as u64,
        });
        // The first part brings the contents to this device, unless the
        // transfer overwrites them all.
        let access = if i == 0 {
            mem.write_access((buffer_offset - mem.origin() as u64) as usize, source.len())
        } else {
            Access::Write
        };
        recipe.uses(mem.clone(), access);
        // The last part is the command the application sees.
        let part_event = if i == last {
            event.clone()
        } else {
            Event::new_command(queue, command, None, None)
        };
        in_flight[slot] = Some(sequence.submit(&part_event, recipe)?);
    }
    drop(sequence);
    wait_if_blocking(&event, true)?;
    queue.device().staging().give_back(Placement::Upload, slots);
    Ok(Some(event))
}

/// A blocking read of `destination.len()` bytes at `buffer_offset` in
/// `mem`, streamed; `None` as for [`write_streamed`].
pub fn read_streamed(
    command: cl_command_type,
    queue: &Arc<Object<Queue>>,
    mem: &Arc<Object<Mem>>,
    buffer_offset: u64,
    destination: &mut [u8],
    waits: Waits,
) -> CLResult<Option<Arc<Object<Event>>>> {
    let Some((buffer, mut sequence, slots)) = begin(queue, mem, waits, Placement::Readback)? else {
        return Ok(None);
    };
    let event = Event::new_command(queue, command, None, None);
    let all: Vec<_> = parts(destination.len()).collect();
    let mut in_flight: Vec<Option<Fence>> = vec![None; PARTS_IN_FLIGHT];
    let submit_part = |sequence: &mut Sequence, (i, offset, len): (usize, usize, usize)| {
        let mut recipe = Recipe::default();
        recipe.push(Step::Copy {
            src: buffer.clone(),
            src_offset: buffer_offset + offset as u64,
            dst: slots[i % PARTS_IN_FLIGHT].clone(),
            dst_offset: 0,
            size: len as u64,
        });
        // The first part brings the contents to this device.
        recipe.uses(mem.clone(), Access::Read);
        sequence.submit(&Event::new_command(queue, command, None, None), recipe)
    };
    for &part in all.iter().take(PARTS_IN_FLIGHT) {
        in_flight[part.0 % PARTS_IN_FLIGHT] = Some(submit_part(&mut sequence, part)?);
    }
    for &(i, offset, len) in &all {
        let slot = i % PARTS_IN_FLIGHT;
        if let Some(fence) = in_flight[slot].take() {
            fence.wait()?;
        }
        let step = piece_len(len);
        let pieces = destination[offset..offset + len]
            .chunks_mut(step)
            .enumerate();
        let staging = &slots[slot];
        in_parallel(pieces.map(|(k, piece)| (k * step, piece)), |at, piece| {
            staging.read(at as u64, piece)
        })?;
        if let Some(&next) = all.get(i + PARTS_IN_FLIGHT) {
            in_flight[slot] = Some(submit_part(&mut sequence, next)?);
        }
    }
    // The command the application sees completes after the host copies
    // above, so whoever waits on its event finds the data in place.
    let mut recipe = Recipe::default();
    recipe.uses(mem.clone(), Access::Read);
    sequence.submit(&event, recipe)?;
    drop(sequence);
    wait_if_blocking(&event, true)?;
    queue
        .device()
        .staging()
        .give_back(Placement::Readback, slots);
    Ok(Some(event))
}

/// Direct copies (see [`crate::core::host_direct`]) at least this large
/// are split among threads, as a part's host copy is.
const PARALLEL_COPY_BYTES: usize = 4 << 20;

/// Copies `out.len()` bytes at `at` in `buffer`'s mapping into `out`.
pub fn read_mapped(buffer: &vulkan::Buffer, at: u64, out: &mut [u8]) -> CLResult<()> {
    if out.len() < PARALLEL_COPY_BYTES {
        return buffer.read(at, out).or_out_of_resources();
    }
    let step = piece_len(out.len());
    let pieces = out.chunks_mut(step).enumerate();
    in_parallel(
        pieces.map(|(k, piece)| (k * step, piece)),
        |offset, piece| buffer.read(at + offset as u64, piece),
    )
}

/// Copies `data` to `at` in `buffer`'s mapping.
pub fn write_mapped(buffer: &vulkan::Buffer, at: u64, data: &[u8]) -> CLResult<()> {
    if data.len() < PARALLEL_COPY_BYTES {
        return buffer.write(at, data).or_out_of_resources();
    }
    let step = piece_len(data.len());
    let pieces = data.chunks(step).enumerate();
    in_parallel(
        pieces.map(|(k, piece)| (k * step, piece)),
        |offset, piece| buffer.write(at + offset as u64, piece),
    )
}

/// Copies the first `size` bytes of `source`'s mapping into
/// `destination`'s (buffers of two devices, say), split among threads as a
/// part's host copy is.
pub fn copy_between_mappings(
    source: &vulkan::Buffer,
    destination: &vulkan::Buffer,
    size: usize,
) -> CLResult<()> {
    let step = if size < PARALLEL_COPY_BYTES {
        size.max(1)
    } else {
        piece_len(size)
    };
    let pieces = (0..size).step_by(step).map(|at| (at, step.min(size - at)));
    in_parallel(pieces, |at, len| {
        source.copy_mapped(at as u64, destination, at as u64, len)
    })
}

/// How many threads copy one part: [`COPY_THREADS`], or fewer on a
/// machine with fewer cores.
fn copy_threads() -> usize {
    static THREADS: OnceLock<usize> = OnceLock::new();
    *THREADS.get_or_init(|| {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(COPY_THREADS))
    })
}

/// Runs `copy(offset, piece)` for each piece of `pieces`, one thread each
/// (the calling thread takes the first).
fn in_parallel<T, F>(mut pieces: impl Iterator<Item = (usize, T)>, copy: F) -> CLResult<()>
where
    T: Send,
    F: Fn(usize, T) -> Result<(), vulkan::VkError> + Sync,
{
    let copy = &copy;
    std::thread::scope(|scope| {
        let first = pieces.next();
        let others: Vec<_> = pieces
            .map(|(offset, piece)| scope.spawn(move || copy(offset, piece)))
            .collect();
        let mut result = first.map_or(Ok(()), |(offset, piece)| copy(offset, piece));
        for other in others {
            let joined = other.join().unwrap_or_else(|_| {
                Err(vulkan::VkError::InvalidArgument(
                    "a staging copy thread panicked".to_owned(),
                ))
            });
            result = result.and(joined);
        }
        result
    })
    .or_out_of_resources()
}

/// The length of each thread's piece of an `len`-byte copy.
fn piece_len(len: usize) -> usize {
    len.div_ceil(copy_threads()).max(1)
}
