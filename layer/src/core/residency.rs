//! Where a buffer's contents are, in a context with several devices.
//!
//! Each device of the context that uses a buffer gets its own allocation,
//! made when a command for that device is enqueued. A record says which
//! copies hold the newest contents (and whether the host holds them: the
//! initial contents of a buffer no device has used yet). When a command is
//! recorded on a device whose copy is stale, the contents are fetched from
//! a device that has them (a copy into staging there, waited for), or taken
//! from the host, and copied into this device's copy by a step recorded
//! just before the command, in the command's own stream, so commands of
//! that queue enqueued earlier still see the old contents. A command that
//! may write the buffer leaves its device's copy the only current one.
//!
//! This happens when the command is recorded, not enqueued: a command that
//! waits for an event of another device's queue is held back until that
//! event completes (see [`crate::core::queue`]), so the writes the
//! application ordered before it are done and in the other device's copy
//! by then. A buffer used on two devices without such ordering gives
//! undefined contents, as the specification says.

use std::sync::Arc;

use crate::core::buffer_pool::Lease;
use crate::core::device::Device;
use crate::core::error::VkResultExt;
use crate::core::object::Object;
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

/// The copy to record before a command: `staging` holds the newest
/// contents, to be copied to the start of `destination`.
pub struct Refresh {
    pub staging: Arc<Lease>,
    pub destination: Arc<vulkan::Buffer>,
    pub size: u64,
}

impl Refresh {
    /// Makes the copy on the host, for a command the host carries out:
    /// both buffers are mapped there.
    pub fn apply_on_host(&self) -> CLResult<()> {
        let mut contents = vec![0u8; self.size as usize];
        self.staging
            .buffer()
            .read(0, &mut contents)
            .or_out_of_resources()?;
        self.destination.write(0, &contents).or_out_of_resources()
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

    /// Prepares device `index` (of `devices`, the context's) for a command
    /// that uses the buffer as `access`: the copy to record first when its
    /// copy is stale, fetching the contents from another device if needed.
    /// Its copy must have been made ([`Residency::set_copy`]).
    pub fn prepare(
        &mut self,
        devices: &[Arc<Object<Device>>],
        index: usize,
        access: Access,
    ) -> CLResult<Option<Refresh>> {
        let destination = self
            .copy(index)
            .cloned()
            .ok_or(opencl_sys::CL_INVALID_OPERATION)?;
        let stale = !self.current.get(index).copied().unwrap_or(false);
        let refresh = if stale && access != Access::Discard {
            let contents = self.newest_contents(devices)?;
            let device = devices.get(index).ok_or(opencl_sys::CL_INVALID_DEVICE)?;
            let staging = device.lease(Placement::Upload, self.size)?;
            staging.buffer().write(0, &contents).or_out_of_resources()?;
            Some(Refresh {
                staging,
                destination,
                size: self.size,
            })
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

    /// The newest contents: the host's, or fetched from a device whose
    /// copy is current.
    fn newest_contents(&self, devices: &[Arc<Object<Device>>]) -> CLResult<Vec<u8>> {
        if let Some(host) = &self.host {
            return Ok(host.clone());
        }
        let mut contents = vec![0u8; self.size as usize];
        let holder = self
            .current
            .iter()
            .zip(&self.copies)
            .zip(devices)
            .find_map(|((&current, copy), device)| current.then_some((copy.as_ref()?, device)));
        // No copy current: nothing was ever defined, any bytes will do.
        if let Some((copy, device)) = holder {
            device.download_and_wait(copy, &mut contents)?;
        }
        Ok(contents)
    }
}
