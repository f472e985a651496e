//! Moving a buffer's contents from one device of a context to another.
//!
//! A command recorded on a device whose copy of a buffer is stale needs
//! the newest contents from a device that has them (see
//! [`crate::core::residency`]). Where the host reaches both copies as its
//! own reads and writes would ([`crate::core::host_direct`]: unified
//! memory, such as lavapipe's), it copies them across in one go, split
//! among threads. Otherwise they move in parts of [`PART_BYTES`], each
//! through a slot: a buffer on the source device that it copies the part
//! into, and a buffer on the destination device that it copies the part
//! out of. Where both devices can import host memory, the two are one
//! [`Bridge`] seen from either device: the part crosses host memory with
//! no copy on the host at all, one DMA out of one device and one into the
//! other. Elsewhere they are the source's readback staging and the
//! destination's upload staging, and the host copies between them, split
//! among threads as large transfers do ([`crate::core::transfer`]).
//! [`PARTS_IN_FLIGHT`] slots are used at once, so while the destination
//! copies one part out, the source copies the following ones in (and,
//! through staging, the host copies in between).
//!
//! Both devices' copies run on their transfer streams, and the move is
//! waited for before the command that needs it is recorded. Separate
//! `VkDevice`s share no semaphore, so the host orders the destination's
//! copy of a part after the source's: it waits for the one before it
//! submits the other, and waits for the destination's copy before the
//! source may reuse the slot.
//!
//! The destination's copy of the buffer is written outside the queue of
//! the command. That copy was stale, so any command of that device that
//! used the buffer before the other device wrote it had to be ordered
//! before that write by the application (two devices using one buffer at
//! once, one of them writing it, leave its contents undefined), and has
//! completed. The command itself is recorded after the move with a barrier
//! before it ([`Refresh::Moved`]), which orders it after the copies: each
//! device has one queue, and they were submitted to it first.
//!
//! [`Refresh::Moved`]: crate::core::residency::Refresh::Moved

use std::sync::{Arc, OnceLock};

use crate::core::bridge::{Bridge, Bridges};
use crate::core::device::{Device, TransferCopy};
use crate::core::fence::Fence;
use crate::core::host_direct;
use crate::core::object::Object;
use crate::core::transfer::{copy_between_mappings, PARTS_IN_FLIGHT, PART_BYTES};
use crate::core::transfer_trace::{self, Command, Path};
use crate::core::CLResult;
use crate::vulkan::{self, Placement, VkError};

/// The environment variable that sends every move through staging
/// (`staging`), so that tests can cover that path on devices that could
/// take a better one. `CLVULKAN_HOST_DIRECT=0` leaves the host's direct
/// copy out as well, and bridges then carry the moves.
pub const MOVE_PATH_VARIABLE: &str = "CLVULKAN_MOVE_PATH";

/// Whether [`MOVE_PATH_VARIABLE`] asks for staging (read once).
fn staging_forced() -> bool {
    static FORCED: OnceLock<bool> = OnceLock::new();
    *FORCED.get_or_init(|| std::env::var(MOVE_PATH_VARIABLE).is_ok_and(|v| v.trim() == "staging"))
}

/// One end of a move: device `index` of the context, and its copy of the
/// buffer.
pub struct End<'a> {
    pub index: usize,
    pub device: &'a Object<Device>,
    pub buffer: &'a Arc<vulkan::Buffer>,
}

/// Copies the first `size` bytes of `from`'s copy of a buffer into `to`'s,
/// and waits until they are there. The caller has made sure that nothing
/// writes `from`'s copy meanwhile, and that nothing uses `to`'s.
pub fn move_contents(bridges: &Bridges, from: End, to: End, size: u64) -> CLResult<()> {
    let direct = !staging_forced()
        && host_direct::read_is_direct(from.device.host_access(), from.buffer)
        && host_direct::write_is_direct(to.device.host_access(), to.buffer, size as usize, true);
    if direct {
        // The source's writes were made visible to the host when the
        // command that wrote them completed; the host's writes are visible
        // to the destination's later submissions.
        copy_between_mappings(from.buffer, to.buffer, size as usize)?;
        transfer_trace::note(Command::Move, Path::Direct, size as usize);
        return Ok(());
    }
    move_in_parts(bridges, from, to, size)
}

/// [`move_contents`] by device copies, in parts through slots.
fn move_in_parts(bridges: &Bridges, from: End, to: End, size: u64) -> CLResult<()> {
    let parts = parts(size);
    let slot_count = parts.len().clamp(1, PARTS_IN_FLIGHT);
    let route = Route::open(bridges, &from, &to, slot_count)?;
    let crossing = Crossing {
        from: &from,
        to: &to,
        parts,
        slots: route.slots(),
        host_copies: matches!(route, Route::Staged { .. }),
        dropped_off: vec![None; slot_count],
        picked_up: vec![None; slot_count],
    };
    // After a failure the devices may still be copying through the slots:
    // they are then dropped (the streams keep them until done), not
    // lent again.
    crossing.run()?;
    transfer_trace::note(Command::Move, route.path(), size as usize);
    route.close(bridges, &from, &to);
    from.device.retire_transfers();
    to.device.retire_transfers();
    Ok(())
}

/// Where one part of a move lies in the buffer.
#[derive(Clone, Copy)]
struct Part {
    offset: u64,
    size: u64,
}

fn parts(size: u64) -> Vec<Part> {
    let part = PART_BYTES as u64;
    (0..size.div_ceil(part))
        .map(|i| Part {
            offset: i * part,
            size: part.min(size - i * part),
        })
        .collect()
}

/// The buffers one part goes through.
struct Slot {
    /// On the source device, which copies the part in here.
    drop_off: Arc<vulkan::Buffer>,
    /// On the destination device, which copies the part out of here.
    pick_up: Arc<vulkan::Buffer>,
}

/// How the parts of a move cross host memory, with the slots they use.
enum Route {
    /// One host allocation per slot, imported into both devices.
    Bridged {
        bridges: Vec<Bridge>,
        slots: Vec<Slot>,
    },
    /// Readback staging on the source, upload staging on the destination,
    /// and a host copy between them.
    Staged { slots: Vec<Slot> },
}

impl Route {
    /// `count` slots over bridges where both devices can use them,
    /// otherwise over staging.
    fn open(bridges: &Bridges, from: &End, to: &End, count: usize) -> CLResult<Route> {
        if !staging_forced() && bridges.connect(from.index, to.index) {
            match Route::bridged(bridges, from, to, count) {
                Ok(route) => return Ok(route),
                Err(error) => log::warn!(
                    "moving buffers from {} to {} through staging: host memory could not be \
                     imported ({error})",
                    from.device.name(),
                    to.device.name()
                ),
            }
        }
        let take = |end: &End, placement| {
            end.device
                .staging()
                .take(end.device.vk()?, placement, count)
        };
        let readback = take(from, Placement::Readback)?;
        let upload = take(to, Placement::Upload)?;
        let slots = readback
            .into_iter()
            .zip(upload)
            .map(|(drop_off, pick_up)| Slot { drop_off, pick_up })
            .collect();
        Ok(Route::Staged { slots })
    }

    /// `count` bridges with their buffers on both devices. A device whose
    /// import fails is offered no bridges again.
    fn bridged(bridges: &Bridges, from: &End, to: &End, count: usize) -> Result<Route, VkError> {
        let opened = |end: &End| {
            end.device
                .vk()
                .cloned()
                .map_err(|_| VkError::InvalidArgument(format!("{} is closed", end.device.name())))
        };
        let (from_vk, to_vk) = (opened(from)?, opened(to)?);
        let mut taken = bridges.take(count)?;
        let mut slots = Vec::with_capacity(count);
        let mut failure = None;
        for bridge in &mut taken {
            let slot = bridge
                .view(from.index, &from_vk)
                .map_err(|error| (from.index, error))
                .and_then(|drop_off| {
                    let pick_up = bridge
                        .view(to.index, &to_vk)
                        .map_err(|error| (to.index, error))?;
                    Ok(Slot { drop_off, pick_up })
                });
            match slot {
                Ok(slot) => slots.push(slot),
                Err(failed) => {
                    failure = Some(failed);
                    break;
                }
            }
        }
        if let Some((index, error)) = failure {
            bridges.exclude(index);
            // No device has copied through them yet.
            bridges.give_back(taken);
            return Err(error);
        }
        Ok(Route::Bridged {
            bridges: taken,
            slots,
        })
    }

    fn slots(&self) -> &[Slot] {
        match self {
            Route::Bridged { slots, .. } | Route::Staged { slots } => slots,
        }
    }

    /// How the trace names the route.
    fn path(&self) -> Path {
        match self {
            Route::Bridged { .. } => Path::Bridged,
            Route::Staged { .. } => Path::Streamed,
        }
    }

    /// Lends the slots again, now that no device copies through them.
    fn close(self, bridges: &Bridges, from: &End, to: &End) {
        match self {
            Route::Bridged { bridges: taken, .. } => bridges.give_back(taken),
            Route::Staged { slots } => {
                let (readback, upload) = slots
                    .into_iter()
                    .map(|slot| (slot.drop_off, slot.pick_up))
                    .unzip();
                from.device
                    .staging()
                    .give_back(Placement::Readback, readback);
                to.device.staging().give_back(Placement::Upload, upload);
            }
        }
    }
}

/// A move under way: which copies of which part each slot is waiting for.
struct Crossing<'a> {
    from: &'a End<'a>,
    to: &'a End<'a>,
    parts: Vec<Part>,
    slots: &'a [Slot],
    /// Whether the host copies each part from the drop-off to the pick-up
    /// buffer (they are separate memory).
    host_copies: bool,
    /// By slot: the source's copy of a part into it, if not waited for.
    dropped_off: Vec<Option<Fence>>,
    /// By slot: the destination's copy of a part out of it, likewise.
    picked_up: Vec<Option<Fence>>,
}

impl Crossing<'_> {
    fn run(mut self) -> CLResult<()> {
        let slots = self.slots.len();
        for k in 0..slots.min(self.parts.len()) {
            self.drop_off(k)?;
        }
        for k in 0..self.parts.len() {
            self.pick_up(k)?;
            // Refill the slot the part before went through: the destination
            // has been copying it out while the host waited for part k, and
            // still has part k to copy while the source fills the slot.
            let next = k + slots - 1;
            if k > 0 && next < self.parts.len() {
                self.drop_off(next)?;
            }
        }
        for fence in self.picked_up.iter().flatten() {
            fence.wait()?;
        }
        Ok(())
    }

    /// Has the source copy part `k` into its slot, once the destination
    /// has copied the slot's previous part out.
    fn drop_off(&mut self, k: usize) -> CLResult<()> {
        let index = k % self.slots.len();
        if let Some(fence) = self.picked_up[index].take() {
            fence.wait()?;
        }
        let part = self.parts[k];
        let copy = TransferCopy {
            source: self.from.buffer,
            source_offset: part.offset,
            destination: &self.slots[index].drop_off,
            destination_offset: 0,
            size: part.size,
        };
        self.dropped_off[index] = Some(self.from.device.start_transfer(copy)?);
        Ok(())
    }

    /// Has the destination copy part `k` out of its slot, once the source
    /// has copied it in (and the host across, through staging).
    fn pick_up(&mut self, k: usize) -> CLResult<()> {
        let index = k % self.slots.len();
        if let Some(fence) = self.dropped_off[index].take() {
            fence.wait()?;
        }
        let part = self.parts[k];
        let slot = &self.slots[index];
        if self.host_copies {
            copy_between_mappings(&slot.drop_off, &slot.pick_up, part.size as usize)?;
        }
        let copy = TransferCopy {
            source: &slot.pick_up,
            source_offset: 0,
            destination: self.to.buffer,
            destination_offset: part.offset,
            size: part.size,
        };
        self.picked_up[index] = Some(self.to.device.start_transfer(copy)?);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::context::Context;
    use crate::vulkan::instance;

    #[test]
    fn parts_cover_the_buffer_once() {
        let part = PART_BYTES as u64;
        let size = 3 * part + 5;
        let all = parts(size);
        assert_eq!(all.len(), 4);
        assert_eq!(all[3].offset, 3 * part);
        assert_eq!(all[3].size, 5);
        assert_eq!(all.iter().map(|p| p.size).sum::<u64>(), size);
        assert_eq!(parts(1).len(), 1);
        assert_eq!(parts(part).len(), 1);
    }

    /// Two logical devices of lavapipe of their own (copies 6 and 7), in
    /// one context.
    fn two_devices() -> Arc<Object<Context>> {
        let instance = instance().expect("Vulkan instance");
        let index = instance
            .physical_devices()
            .iter()
            .position(|device| device.name.starts_with("llvmpipe"))
            .expect("lavapipe is installed on the test machine");
        let devices = [6, 7].map(|copy| Object::new(Device::new(instance, index, copy)));
        Context::new(devices.to_vec(), Vec::new(), None).expect("context")
    }

    /// Moves `data` from device `from` of `context` to device `to` by
    /// `how`, into a buffer holding other bytes, and returns what arrived.
    fn moved(
        context: &Context,
        how: fn(&Bridges, End, End, u64) -> CLResult<()>,
        (from, to): (usize, usize),
        data: &[u8],
    ) -> Vec<u8> {
        let size = data.len() as u64;
        let device = |index: usize| &context.devices()[index];
        let buffer = |index: usize| {
            device(index)
                .vk()
                .expect("device")
                .create_buffer(size, Placement::DeviceLocal)
                .expect("buffer")
        };
        let (source, destination) = (buffer(from), buffer(to));
        // lavapipe maps device-local memory.
        source.write(0, data).expect("write");
        destination
            .write(0, &vec![0xee; data.len()])
            .expect("write");
        let end = |index, buffer| End {
            index,
            device: device(index),
            buffer,
        };
        how(
            context.bridges(),
            end(from, &source),
            end(to, &destination),
            size,
        )
        .expect("move");
        let mut arrived = vec![0; data.len()];
        destination.read(0, &mut arrived).expect("read");
        arrived
    }

    #[test]
    fn moves_carry_every_byte_over_bridges_and_through_staging() {
        let context = two_devices();
        let bridges = context.bridges();
        assert!(bridges.connect(0, 1), "lavapipe imports host memory");
        // Five parts, the last odd-sized: more than the slots at once.
        let size = 4 * PART_BYTES + 4099;
        let data: Vec<u8> = (0..size)
            .map(|i| (i % 253) as u8 ^ (i >> 20) as u8)
            .collect();
        let parts = move_in_parts;
        assert!(
            moved(&context, parts, (0, 1), &data) == data,
            "bridged 0 -> 1"
        );
        assert_eq!(bridges.idle(), PARTS_IN_FLIGHT, "bridges kept");
        assert!(
            moved(&context, parts, (1, 0), &data[..77]) == data[..77],
            "bridged 1 -> 0"
        );
        assert_eq!(bridges.idle(), PARTS_IN_FLIGHT, "the same bridges reused");

        // A device that cannot bridge sends its moves through staging.
        bridges.exclude(1);
        assert!(!bridges.connect(0, 1));
        let staged: Vec<u8> = data.iter().map(|b| b.wrapping_mul(3)).collect();
        assert!(
            moved(&context, parts, (0, 1), &staged) == staged,
            "staged 0 -> 1"
        );
        assert!(
            moved(&context, parts, (1, 0), &staged[..5]) == staged[..5],
            "staged 1 -> 0"
        );

        // lavapipe's memory is the host's: the host copies straight across.
        let direct: Vec<u8> = data.iter().map(|b| b ^ 0x5a).collect();
        assert!(
            moved(&context, move_contents, (0, 1), &direct) == direct,
            "direct"
        );
    }
}
