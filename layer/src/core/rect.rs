//! Rectangular transfers: `clEnqueueReadBufferRect`,
//! `clEnqueueWriteBufferRect` and `clEnqueueCopyBufferRect`.
//!
//! A rectangle is `region[1] * region[2]` rows of `region[0]` bytes, placed
//! on each side by an origin and row and slice pitches. Device rows are
//! copied one by one (a `vkCmdCopyBuffer` region each); host rows go
//! through one packed staging buffer, gathered at enqueue for a write and
//! scattered at completion for a read, as the plain transfers do. Where
//! the host shares the buffer's memory ([`crate::core::host_direct`]) the
//! host copies the rows between application memory and the buffer itself.

use std::sync::Arc;

use opencl_sys::{
    CL_COMMAND_COPY_BUFFER_RECT, CL_COMMAND_READ_BUFFER_RECT, CL_COMMAND_WRITE_BUFFER_RECT,
    CL_INVALID_VALUE, CL_MEM_COPY_OVERLAP,
};

use crate::core::command::{Recipe, Step};
use crate::core::enqueue::{wait_if_blocking, write_when_filled, Waits};
use crate::core::error::VkResultExt;
use crate::core::event::{Event, HostCompletion};
use crate::core::host::{self, HostMemory};
use crate::core::host_direct;
use crate::core::memory::Mem;
use crate::core::object::Object;
use crate::core::queue::Queue;
use crate::core::residency::Access;
use crate::core::transfer_trace::{self, Command, Path};
use crate::core::CLResult;
use crate::vulkan::Placement;

/// Where a rectangle lies on one side: the origin in bytes, rows and
/// slices, and the pitches (0: packed, as the spec defaults them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RectSide {
    pub origin: [usize; 3],
    pub row_pitch: usize,
    pub slice_pitch: usize,
}

impl RectSide {
    /// The side with its default pitches filled in, or `CL_INVALID_VALUE`
    /// for pitches too small for the region or a slice pitch that is not a
    /// whole number of rows.
    pub fn resolve(self, region: [usize; 3]) -> CLResult<RectSide> {
        if region.contains(&0) {
            return Err(CL_INVALID_VALUE);
        }
        let row_pitch = if self.row_pitch == 0 {
            region[0]
        } else {
            self.row_pitch
        };
        let rows = region[1].checked_mul(row_pitch).ok_or(CL_INVALID_VALUE)?;
        let slice_pitch = if self.slice_pitch == 0 {
            rows
        } else {
            self.slice_pitch
        };
        if row_pitch < region[0] || slice_pitch < rows || !slice_pitch.is_multiple_of(row_pitch) {
            return Err(CL_INVALID_VALUE);
        }
        let side = RectSide {
            origin: self.origin,
            row_pitch,
            slice_pitch,
        };
        side.end(region).ok_or(CL_INVALID_VALUE)?;
        Ok(side)
    }

    /// The byte offset of row `y` of slice `z`.
    fn row(&self, y: usize, z: usize) -> usize {
        (self.origin[2] + z) * self.slice_pitch
            + (self.origin[1] + y) * self.row_pitch
            + self.origin[0]
    }

    /// The first byte the rectangle touches.
    pub fn start(&self) -> usize {
        self.row(0, 0)
    }

    /// One past the last byte the rectangle touches (`None` on overflow).
    pub fn end(&self, region: [usize; 3]) -> Option<usize> {
        let z = self.origin[2].checked_add(region[2] - 1)?;
        let y = self.origin[1].checked_add(region[1] - 1)?;
        z.checked_mul(self.slice_pitch)?
            .checked_add(y.checked_mul(self.row_pitch)?)?
            .checked_add(self.origin[0])?
            .checked_add(region[0])
    }

    /// The start of every row, in order.
    pub fn rows(self, region: [usize; 3]) -> impl Iterator<Item = usize> {
        (0..region[2]).flat_map(move |z| (0..region[1]).map(move |y| self.row(y, z)))
    }
}

/// The bytes of a rectangle packed row after row (`CL_INVALID_VALUE` past
/// `usize`).
fn packed_size(region: [usize; 3]) -> CLResult<usize> {
    region[0]
        .checked_mul(region[1])
        .and_then(|n| n.checked_mul(region[2]))
        .ok_or(CL_INVALID_VALUE)
}

/// Checks that the rectangle lies inside `mem`.
fn check_inside(mem: &Mem, side: &RectSide, region: [usize; 3]) -> CLResult<()> {
    let end = side.end(region).ok_or(CL_INVALID_VALUE)?;
    mem.check_range(side.start(), end - side.start())
}

/// `clEnqueueReadBufferRect`; `destination` is the host memory from the
/// host side's first byte to its last.
#[allow(clippy::too_many_arguments)]
pub fn read_buffer_rect(
    queue: &Arc<Object<Queue>>,
    mem: &Arc<Object<Mem>>,
    blocking: bool,
    buffer: RectSide,
    host: RectSide,
    region: [usize; 3],
    mut destination: Box<dyn HostMemory>,
    waits: Waits,
) -> CLResult<Arc<Object<Event>>> {
    check_inside(mem, &buffer, region)?;
    mem.check_host_can_read()?;
    let device_buffer = mem.buffer_on(queue.device())?;
    let packed = packed_size(region)?;
    let written = host::span(destination.bytes_mut());
    if host_direct::read_is_direct(queue.device().host_access(), &device_buffer) {
        transfer_trace::note(Command::ReadRect, Path::Direct, packed);
        if blocking {
            queue.wait_for_earlier(waits);
        }
        let (origin, host_start) = (mem.origin(), host.start());
        let copy_rows: HostCompletion = Box::new(move || {
            let bytes = destination.bytes_mut();
            for (from, to) in buffer.rows(region).zip(host.rows(region)) {
                let at = to - host_start;
                device_buffer
                    .read((origin + from) as u64, &mut bytes[at..at + region[0]])
                    .or_out_of_resources()?;
            }
            Ok(())
        });
        let mut recipe = Recipe::on_host(copy_rows);
        recipe.uses(mem.clone(), Access::Read);
        recipe.writes_host(written);
        let event = queue.enqueue(CL_COMMAND_READ_BUFFER_RECT, waits, recipe, None)?;
        wait_if_blocking(&event, blocking)?;
        return Ok(event);
    }
    transfer_trace::note(Command::ReadRect, Path::Staged, packed);
    let staging = queue.device().lease(Placement::Readback, packed as u64)?;
    let mut recipe = Recipe::default();
    for (i, row) in buffer.rows(region).enumerate() {
        recipe.push(Step::Copy {
            src: device_buffer.clone(),
            src_offset: (mem.origin() + row) as u64,
            dst: staging.buffer().clone(),
            dst_offset: (i * region[0]) as u64,
            size: region[0] as u64,
        });
    }
    recipe.uses(mem.clone(), Access::Read);
    recipe.hold(staging.clone());
    recipe.writes_host(written);
    let host_start = host.start();
    let scatter: HostCompletion = Box::new(move || {
        let bytes = destination.bytes_mut();
        for (i, row) in host.rows(region).enumerate() {
            let at = row - host_start;
            staging
                .buffer()
                .read((i * region[0]) as u64, &mut bytes[at..at + region[0]])
                .or_out_of_resources()?;
        }
        Ok(())
    });
    let event = queue.enqueue(CL_COMMAND_READ_BUFFER_RECT, waits, recipe, Some(scatter))?;
    wait_if_blocking(&event, blocking)?;
    Ok(event)
}

/// `clEnqueueWriteBufferRect`; `source` is the host memory from the host
/// side's first byte to its last, taken before this returns unless an
/// earlier command will still write it (see [`crate::core::enqueue`]).
#[allow(clippy::too_many_arguments)]
pub fn write_buffer_rect(
    queue: &Arc<Object<Queue>>,
    mem: &Arc<Object<Mem>>,
    blocking: bool,
    buffer: RectSide,
    host: RectSide,
    region: [usize; 3],
    source: Box<dyn HostMemory>,
    waits: Waits,
) -> CLResult<Arc<Object<Event>>> {
    check_inside(mem, &buffer, region)?;
    mem.check_host_can_write()?;
    let device_buffer = mem.buffer_on(queue.device())?;
    let host_start = host.start();
    let gather = move |bytes: &[u8]| {
        let mut packed = Vec::with_capacity(region[0] * region[1] * region[2]);
        for row in host.rows(region) {
            let at = row - host_start;
            packed.extend_from_slice(&bytes[at..at + region[0]]);
        }
        packed
    };
    let pending = queue.pending_host_writes(waits, &host::span(source.bytes()));
    if !pending.is_empty() {
        if !blocking {
            let origin = mem.origin();
            let width = region[0] as u64;
            let copies = buffer
                .rows(region)
                .enumerate()
                .map(|(i, row)| (i as u64 * width, (origin + row) as u64, width))
                .collect();
            return write_when_filled(
                CL_COMMAND_WRITE_BUFFER_RECT,
                queue,
                (mem, Access::Write),
                source,
                gather,
                copies,
                waits,
            );
        }
        // A blocking write waits for the commands before it anyway.
        for earlier in pending {
            earlier.wait()?;
        }
    }
    let packed = gather(source.bytes());
    let access = queue.device().host_access();
    if host_direct::write_is_direct(access, &device_buffer, packed.len(), blocking) {
        transfer_trace::note(Command::WriteRect, Path::Direct, packed.len());
        if blocking {
            queue.wait_for_earlier(waits);
        }
        let origin = mem.origin();
        let copy_rows: HostCompletion = Box::new(move || {
            let rows = packed.chunks_exact(region[0]);
            for (row, to) in rows.zip(buffer.rows(region)) {
                device_buffer
                    .write((origin + to) as u64, row)
                    .or_out_of_resources()?;
            }
            Ok(())
        });
        let mut recipe = Recipe::on_host(copy_rows);
        recipe.uses(mem.clone(), Access::Write);
        let event = queue.enqueue(CL_COMMAND_WRITE_BUFFER_RECT, waits, recipe, None)?;
        wait_if_blocking(&event, blocking)?;
        return Ok(event);
    }
    transfer_trace::note(Command::WriteRect, Path::Staged, packed.len());
    let staging = queue
        .device()
        .lease(Placement::Upload, packed.len() as u64)?;
    staging.buffer().write(0, &packed).or_out_of_resources()?;
    let mut recipe = Recipe::default();
    recipe.hold(staging.clone());
    for (i, row) in buffer.rows(region).enumerate() {
        recipe.push(Step::Copy {
            src: staging.buffer().clone(),
            src_offset: (i * region[0]) as u64,
            dst: device_buffer.clone(),
            dst_offset: (mem.origin() + row) as u64,
            size: region[0] as u64,
        });
    }
    recipe.uses(mem.clone(), Access::Write);
    let event = queue.enqueue(CL_COMMAND_WRITE_BUFFER_RECT, waits, recipe, None)?;
    wait_if_blocking(&event, blocking)?;
    Ok(event)
}

/// `clEnqueueCopyBufferRect`.
pub fn copy_buffer_rect(
    queue: &Arc<Object<Queue>>,
    (src, src_side): (&Arc<Object<Mem>>, RectSide),
    (dst, dst_side): (&Arc<Object<Mem>>, RectSide),
    region: [usize; 3],
    waits: Waits,
) -> CLResult<Arc<Object<Event>>> {
    check_inside(src, &src_side, region)?;
    check_inside(dst, &dst_side, region)?;
    if src.same_storage(dst) {
        let (src_origin, dst_origin) = (src.origin(), dst.origin());
        let src_rows = src_side.rows(region).map(|row| src_origin + row);
        let dst_rows = dst_side.rows(region).map(|row| dst_origin + row);
        if rows_overlap(src_rows, dst_rows, region[0]) {
            return Err(CL_MEM_COPY_OVERLAP);
        }
    }
    let (from, to) = (
        src.buffer_on(queue.device())?,
        dst.buffer_on(queue.device())?,
    );
    let mut recipe = Recipe::default();
    for (s, d) in src_side.rows(region).zip(dst_side.rows(region)) {
        recipe.push(Step::Copy {
            src: from.clone(),
            src_offset: (src.origin() + s) as u64,
            dst: to.clone(),
            dst_offset: (dst.origin() + d) as u64,
            size: region[0] as u64,
        });
    }
    recipe.uses(src.clone(), Access::Read);
    recipe.uses(dst.clone(), Access::Write);
    queue.enqueue(CL_COMMAND_COPY_BUFFER_RECT, waits, recipe, None)
}

/// Whether any row of `a` overlaps any row of `b` (rows of `width` bytes,
/// each list in increasing order): one merge over both lists.
fn rows_overlap(
    a: impl Iterator<Item = usize>,
    b: impl Iterator<Item = usize>,
    width: usize,
) -> bool {
    let (mut a, mut b) = (a.peekable(), b.peekable());
    while let (Some(&x), Some(&y)) = (a.peek(), b.peek()) {
        if x < y + width && y < x + width {
            return true;
        }
        if x < y {
            a.next();
        } else {
            b.next();
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pitches_default_and_are_checked() {
        let side = |origin, row_pitch, slice_pitch| RectSide {
            origin,
            row_pitch,
            slice_pitch,
        };
        let packed = side([0; 3], 0, 0).resolve([4, 3, 2]).expect("packed");
        assert_eq!((packed.row_pitch, packed.slice_pitch), (4, 12));
        assert_eq!(packed.end([4, 3, 2]), Some(24));
        assert_eq!(side([0; 3], 3, 0).resolve([4, 1, 1]), Err(CL_INVALID_VALUE));
        assert_eq!(
            side([0; 3], 4, 10).resolve([4, 3, 1]),
            Err(CL_INVALID_VALUE)
        );
        assert_eq!(
            side([0; 3], 4, 14).resolve([4, 3, 1]),
            Err(CL_INVALID_VALUE)
        );
        assert_eq!(side([0; 3], 0, 0).resolve([0, 1, 1]), Err(CL_INVALID_VALUE));
        let placed = side([2, 1, 1], 10, 40).resolve([3, 2, 2]).expect("placed");
        let rows: Vec<usize> = placed.rows([3, 2, 2]).collect();
        assert_eq!(rows, [52, 62, 92, 102]);
        assert_eq!(placed.end([3, 2, 2]), Some(105));
    }

    #[test]
    fn overlap_is_found_between_rows_only() {
        // Interleaved columns of one buffer do not overlap...
        assert!(!rows_overlap(
            [0, 10, 20].into_iter(),
            [4, 14, 24].into_iter(),
            4
        ));
        // ...touching rows of different lists do.
        assert!(rows_overlap([0, 10, 20].into_iter(), [13].into_iter(), 4));
        assert!(rows_overlap([8].into_iter(), [0, 5].into_iter(), 4));
    }

    /// The row merge against the bytes themselves, over many rectangles
    /// of one buffer placed at different pitches, overlapping or not.
    #[test]
    fn overlap_agrees_with_the_bytes_at_any_pitches() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut below = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let (mut overlapping, mut apart) = (0, 0);
        for _ in 0..20_000 {
            let region = [1 + below(6), 1 + below(4), 1 + below(3)];
            // Pitches 0 (packed) or valid ones, so most pairs resolve.
            let mut side = || {
                let row_pitch = [0, region[0] + below(12)][below(2)];
                let rows = region[1] * row_pitch.max(region[0]);
                let slice_pitch = [0, rows + row_pitch.max(region[0]) * below(3)][below(2)];
                RectSide {
                    origin: [below(12), below(3), below(2)],
                    row_pitch,
                    slice_pitch,
                }
            };
            let (Ok(a), Ok(b)) = (side().resolve(region), side().resolve(region)) else {
                continue;
            };
            let bytes = |s: RectSide| -> std::collections::HashSet<usize> {
                s.rows(region)
                    .flat_map(|row| row..row + region[0])
                    .collect()
            };
            let expected = !bytes(a).is_disjoint(&bytes(b));
            assert_eq!(
                rows_overlap(a.rows(region), b.rows(region), region[0]),
                expected,
                "{a:?} and {b:?} over {region:?}"
            );
            if expected {
                overlapping += 1;
            } else {
                apart += 1;
            }
        }
        // Both outcomes were exercised, at many pitches.
        assert!(overlapping > 1000 && apart > 1000, "{overlapping} {apart}");
    }
}
