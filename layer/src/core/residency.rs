//! Where a buffer's contents are, in a context with several devices.
//!
//! Each device of the context that uses a buffer gets its own allocation,
//! made when a command for that device is enqueued. A record says which
//! copies hold the newest contents (and whether the host holds them: the
//! initial contents of a buffer no device has used yet). When a command is
//! recorded on a device whose copy is stale, the contents are moved there
//! from a device that has them, through host memory and waited for (see
//! [`crate::core::migration`]), and the command is recorded after a
//! barrier; or, from the host, they are staged and copied into this
//! device's copy by a step recorded just before the command, in the
//! command's own stream. A command that may write the buffer leaves its
//! device's copy the only current one.
//!
//! This happens when the command is recorded, not enqueued: a command that
//! waits for an event of another device's queue is held back until that
//! event completes (see [`crate::core::queue`]), so the writes the
//! application ordered before it are done and in the other device's copy
//! by then. A buffer used on two devices without such ordering gives
//! undefined contents, as the specification says.

use std::sync::Arc;

use crate::core::buffer_pool::Lease;
use crate::core::context::Context;
use crate::core::migration::{self, End};
use crate::core::transfer::{copy_between_mappings, write_mapped};
use crate::core::CLResult;
use crate::vulkan::{self, Placement};

/// How a command uses a buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Needs the newest contents and leaves them.
    Read,
    /// Needs the newest contents (it may change only part of them) and
    /// leaves its device's copy the only current one.
    Write,
    /// Will overwrite everything: no contents need to move
    /// (`CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED`).
    Discard,
}

/// What a command whose device's copy was stale must do first.
pub enum Refresh {
    /// Copy the initial contents, staged in `staging`, to the start of
    /// `destination`.
    Upload {
        staging: Arc<Lease>,
        destination: Arc<vulkan::Buffer>,
        size: u64,
    },
    /// Nothing to copy: the contents were moved from another device (by
    /// both devices' transfer streams, or by the host), and that is done.
    /// The command must not overlap earlier work of its queue, so that a
    /// barrier orders it after those copies.
    Moved,
}

impl Refresh {
    /// Brings the contents in on the host, for a command the host carries
    /// out: the staging and the buffer are both mapped there.
    pub fn apply_on_host(&self) -> CLResult<()> {
        match self {
            Refresh::Upload {
                staging,
                destination,
                size,
            } => copy_between_mappings(staging.buffer(), destination, *size as usize),
            Refresh::Moved => Ok(()),
        }
    }
}

/// The copies of one buffer, indexed like the context's devices.
pub struct Residency {
    size: u64,
    copies: Vec<Option<Arc<vulkan::Buffer>>>,
    /// Which copies hold the newest contents.
    current: Vec<bool>,
    /// The newest contents when they are in host memory.
    host: Option<Vec<u8>>,
}

impl Residency {
    /// A buffer of `size` bytes for `devices` devices, with its initial
    /// contents if it has any. Without them the contents are undefined, so
    /// every copy counts as current.
    pub fn new(size: u64, devices: usize, initial: Option<Vec<u8>>) -> Residency {
        Residency {
            size,
            copies: vec![None; devices],
            current: vec![initial.is_none(); devices],
            host: initial,
        }
    }

    /// The copy on device `index`, if it was made.
    pub fn copy(&self, index: usize) -> Option<&Arc<vulkan::Buffer>> {
        self.copies.get(index)?.as_ref()
    }

    /// Records `buffer` as device `index`'s copy. `holds_contents`: it was
    /// given the newest contents already (the host's are then dropped).
    pub fn set_copy(&mut self, index: usize, buffer: Arc<vulkan::Buffer>, holds_contents: bool) {
        if let Some(slot) = self.copies.get_mut(index) {
            *slot = Some(buffer);
        }
        if holds_contents {
            for (i, current) in self.current.iter_mut().enumerate() {
                *current = i == index;
            }
            self.host = None;
        }
    }

    /// The initial contents still waiting in host memory.
    pub fn host_contents(&self) -> Option<&[u8]> {
        self.host.as_deref()
    }

    /// Prepares device `index` of `context` for a command that uses the
    /// buffer as `access`: brings the newest contents to its copy when that
    /// is stale, moving them from another device now, or returning the
    /// copy from the host to record first. Its copy must have been made
    /// ([`Residency::set_copy`]).
    pub fn prepare(
        &mut self,
        context: &Context,
        index: usize,
        access: Access,
    ) -> CLResult<Option<Refresh>> {
        let destination = self
            .copy(index)
            .cloned()
            .ok_or(opencl_sys::CL_INVALID_OPERATION)?;
        let stale = !self.current.get(index).copied().unwrap_or(false);
        let refresh = if stale && access != Access::Discard {
            self.bring_contents(context, index, destination)?
        } else {
            None
        };
        for (i, current) in self.current.iter_mut().enumerate() {
            // A read adds this copy to the current ones; a write leaves it alone.
            *current = i == index || (access == Access::Read && *current);
        }
        if access != Access::Read {
            self.host = None;
        }
        Ok(refresh)
    }

    /// Gives `destination`, device `index`'s stale copy, the newest
    /// contents: moved from a device whose copy is current, or staged from
    /// the host.
    fn bring_contents(
        &self,
        context: &Context,
        index: usize,
        destination: Arc<vulkan::Buffer>,
    ) -> CLResult<Option<Refresh>> {
        let devices = context.devices();
        let device = devices.get(index).ok_or(opencl_sys::CL_INVALID_DEVICE)?;
        if let Some(host) = &self.host {
            let staging = device.lease(Placement::Upload, self.size)?;
            write_mapped(staging.buffer(), 0, host)?;
            return Ok(Some(Refresh::Upload {
                staging,
                destination,
                size: self.size,
            }));
        }
        let holder = self
            .current
            .iter()
            .zip(&self.copies)
            .zip(devices)
            .enumerate()
            .find_map(|(i, ((&current, copy), device))| {
                current.then_some((i, copy.as_ref()?, device))
            });
        // No copy current: nothing was ever defined, so nothing moves.
        let Some((from, source, from_device)) = holder else {
            return Ok(None);
        };
        migration::move_contents(
            context.bridges(),
            End {
                index: from,
                device: from_device,
                buffer: source,
            },
            End {
                index,
                device,
                buffer: &destination,
            },
            self.size,
        )?;
        Ok(Some(Refresh::Moved))
    }
}
