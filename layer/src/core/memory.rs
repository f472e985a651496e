//! Memory objects (buffers only, for now) and where their storage lives.
//!
//! A buffer has a device-local Vulkan buffer on each device of its context
//! that uses it ([`crate::core::residency`] keeps track of which ones hold
//! the newest contents and moves them between devices). In a one-device
//! context it is allocated, and filled with any initial contents, at
//! creation. In a multi-device context each device's copy is allocated when
//! a command for that device is enqueued; initial contents wait in host
//! memory until a device needs them. A sub-buffer is a region of its
//! parent's copies.
//!
//! `CL_MEM_USE_HOST_PTR` is accepted and the host memory is copied in at
//! creation, which the spec allows (implementations may cache the host
//! memory on the device); a map of such a buffer reads into and writes back
//! from `host_ptr` (see [`crate::core::map`]). `CL_MEM_ALLOC_HOST_PTR` is a
//! hint and storage stays device-local.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use opencl_sys::{
    cl_mem_flags, cl_mem_properties, CL_INVALID_BUFFER_SIZE, CL_INVALID_DEVICE,
    CL_INVALID_MEM_OBJECT, CL_INVALID_OPERATION, CL_INVALID_VALUE, CL_MEM_ALLOC_HOST_PTR,
    CL_MEM_COPY_HOST_PTR, CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY,
    CL_MEM_READ_ONLY, CL_MEM_READ_WRITE, CL_MEM_USE_HOST_PTR, CL_MEM_WRITE_ONLY,
    CL_MISALIGNED_SUB_BUFFER_OFFSET,
};

use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::error::VkResultExt;
use crate::core::host::{DestructorCallback, DestructorCallbacks};
use crate::core::image::ImageParts;
use crate::core::map::Mapping;
use crate::core::object::{ClObject, Object, ObjectKind};
use crate::core::residency::{Access, Refresh, Residency};
use crate::core::CLResult;
use crate::vulkan::{self, Placement};

const DEVICE_ACCESS_FLAGS: cl_mem_flags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
const HOST_ACCESS_FLAGS: cl_mem_flags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
const HOST_POINTER_FLAGS: cl_mem_flags =
    CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
const BUFFER_FLAGS: cl_mem_flags = DEVICE_ACCESS_FLAGS | HOST_ACCESS_FLAGS | HOST_POINTER_FLAGS;

/// The `CL_INVALID_VALUE` rules of `clCreateBuffer` for `flags`.
pub fn validate_buffer_flags(flags: cl_mem_flags) -> CLResult<()> {
    let at_most_one = |group: cl_mem_flags| (flags & group).count_ones() <= 1;
    let valid = flags & !BUFFER_FLAGS == 0
        && at_most_one(DEVICE_ACCESS_FLAGS)
        && at_most_one(HOST_ACCESS_FLAGS)
        && at_most_one(CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR)
        && at_most_one(CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    if valid {
        Ok(())
    } else {
        Err(CL_INVALID_VALUE)
    }
}

/// `CL_INVALID_BUFFER_SIZE` for 0 or more than every device of `context`
/// can allocate.
pub fn validate_buffer_size(context: &Context, size: usize) -> CLResult<()> {
    let fits_a_device = context
        .devices()
        .iter()
        .any(|d| size as u64 <= d.max_mem_alloc_size());
    if size == 0 || !fits_a_device {
        return Err(CL_INVALID_BUFFER_SIZE);
    }
    Ok(())
}

/// Whether `flags` asks for the contents at `host_ptr` (copy or use).
pub fn takes_host_contents(flags: cl_mem_flags) -> bool {
    flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0
}

pub struct Mem {
    context: Arc<Object<Context>>,
    flags: cl_mem_flags,
    size: usize,
    /// The `CL_MEM_USE_HOST_PTR` address, reported by `CL_MEM_HOST_PTR`.
    host_ptr: usize,
    properties: Vec<cl_mem_properties>,
    /// For a sub-buffer: the buffer it is a region of, and where.
    parent: Option<(Arc<Object<Mem>>, usize)>,
    /// The copies on the context's devices; `None` for a sub-buffer, which
    /// uses its parent's. The lock also serialises allocation.
    residency: Option<Mutex<Residency>>,
    /// Regions mapped with clEnqueueMapBuffer and not yet unmapped.
    mappings: Mutex<Vec<Mapping>>,
    /// What makes this memory object an image (see [`crate::core::image`]).
    image: Option<ImageParts>,
    /// Last, so the callbacks run after everything else is released.
    destructor_callbacks: DestructorCallbacks,
}

impl ClObject for Mem {
    const KIND: ObjectKind = ObjectKind::Mem;
    const INVALID: opencl_sys::cl_int = CL_INVALID_MEM_OBJECT;
}

/// What a new buffer is made from.
pub struct BufferDescription<'a> {
    pub flags: cl_mem_flags,
    pub size: usize,
    /// The bytes at `host_ptr` when the flags ask for them.
    pub contents: Option<&'a [u8]>,
    pub host_ptr: usize,
    pub properties: Vec<cl_mem_properties>,
}

impl Mem {
    /// Allocates now when the context has one device, else on first use.
    pub fn new_buffer(
        context: &Arc<Object<Context>>,
        description: BufferDescription,
    ) -> CLResult<Arc<Object<Mem>>> {
        validate_buffer_flags(description.flags)?;
        validate_buffer_size(context, description.size)?;
        let mem = Object::new(Mem {
            context: context.clone(),
            flags: description.flags,
            size: description.size,
            host_ptr: description.host_ptr,
            properties: description.properties,
            parent: None,
            residency: Some(Mutex::new(Residency::new(
                description.size as u64,
                context.devices().len(),
                description.contents.map(<[u8]>::to_vec),
            ))),
            mappings: Mutex::new(Vec::new()),
            image: None,
            destructor_callbacks: DestructorCallbacks::default(),
        });
        if let [device] = context.devices() {
            mem.buffer_on(device)?;
        }
        Ok(mem)
    }

    /// An image: with its own Vulkan image (`image.storage`), or a 1D
    /// buffer image over bytes `origin..origin + size` of `root`, the
    /// buffer (not a sub-buffer) it was made from. The caller has checked
    /// the flags, the description and the host pointer.
    pub fn new_image(
        context: &Arc<Object<Context>>,
        flags: cl_mem_flags,
        host_ptr: usize,
        properties: Vec<cl_mem_properties>,
        image: ImageParts,
        root: Option<(Arc<Object<Mem>>, usize)>,
    ) -> Arc<Object<Mem>> {
        let size = image.description.size();
        Object::new(Mem {
            context: context.clone(),
            flags,
            size,
            host_ptr,
            properties,
            parent: root,
            residency: None,
            mappings: Mutex::new(Vec::new()),
            image: Some(image),
            destructor_callbacks: DestructorCallbacks::default(),
        })
    }

    /// The image parts of an image; `None` for a buffer.
    pub fn image(&self) -> Option<&ImageParts> {
        self.image.as_ref()
    }

    /// `clCreateSubBuffer` with `CL_BUFFER_CREATE_TYPE_REGION`: `size`
    /// bytes of `parent` from `origin`, sharing its storage. Flags not given
    /// are inherited; given ones may not widen the parent's access.
    pub fn new_sub_buffer(
        parent: &Arc<Object<Mem>>,
        flags: cl_mem_flags,
        origin: usize,
        size: usize,
    ) -> CLResult<Arc<Object<Mem>>> {
        if parent.parent.is_some() || parent.image.is_some() {
            return Err(CL_INVALID_MEM_OBJECT);
        }
        validate_buffer_flags(flags)?;
        // The clCreateSubBuffer rules: no widening of the parent's access.
        let device_conflict = match parent.flags & DEVICE_ACCESS_FLAGS {
            CL_MEM_WRITE_ONLY => flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY) != 0,
            CL_MEM_READ_ONLY => flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY) != 0,
            _ => false,
        };
        let host_conflict = match parent.flags & HOST_ACCESS_FLAGS {
            CL_MEM_HOST_WRITE_ONLY => flags & CL_MEM_HOST_READ_ONLY != 0,
            CL_MEM_HOST_READ_ONLY => flags & CL_MEM_HOST_WRITE_ONLY != 0,
            CL_MEM_HOST_NO_ACCESS => flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY) != 0,
            _ => false,
        };
        if flags & HOST_POINTER_FLAGS != 0 || device_conflict || host_conflict {
            return Err(CL_INVALID_VALUE);
        }
        if size == 0 {
            return Err(CL_INVALID_BUFFER_SIZE);
        }
        parent.check_range(origin, size)?;
        let aligned = parent
            .context
            .devices()
            .iter()
            .all(|d| origin.is_multiple_of(d.mem_base_addr_align_bits() as usize / 8));
        if !aligned {
            return Err(CL_MISALIGNED_SUB_BUFFER_OFFSET);
        }
        let inherit = |group: cl_mem_flags| {
            if flags & group == 0 {
                parent.flags & group
            } else {
                flags & group
            }
        };
        let flags = inherit(DEVICE_ACCESS_FLAGS)
            | inherit(HOST_ACCESS_FLAGS)
            | parent.flags & HOST_POINTER_FLAGS;
        let host_ptr = if parent.host_ptr == 0 {
            0
        } else {
            parent.host_ptr.wrapping_add(origin)
        };
        Ok(Object::new(Mem {
            context: parent.context.clone(),
            flags,
            size,
            host_ptr,
            properties: Vec::new(),
            parent: Some((parent.clone(), origin)),
            residency: None,
            mappings: Mutex::new(Vec::new()),
            image: None,
            destructor_callbacks: DestructorCallbacks::default(),
        }))
    }

    /// The buffer a sub-buffer is a region of (`CL_MEM_ASSOCIATED_MEMOBJECT`).
    pub fn parent(&self) -> Option<&Arc<Object<Mem>>> {
        self.parent.as_ref().map(|(parent, _)| parent)
    }

    /// Whether `self` and `other` are regions of one allocation (the same
    /// buffer, or sub-buffers of it).
    pub fn same_storage(&self, other: &Mem) -> bool {
        let root = |m: &Mem| -> *const Mem {
            match &m.parent {
                Some((parent, _)) => &***parent,
                None => m,
            }
        };
        std::ptr::eq(root(self), root(other))
    }

    /// Where this memory object starts in its storage: a sub-buffer's
    /// origin (`CL_MEM_OFFSET`), 0 for a buffer. Every command adds it.
    pub fn origin(&self) -> usize {
        self.parent.as_ref().map_or(0, |&(_, origin)| origin)
    }

    pub fn context(&self) -> &Arc<Object<Context>> {
        &self.context
    }

    pub fn add_mapping(&self, mapping: Mapping) {
        self.mappings
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(mapping);
    }

    /// Removes the most recent mapping at `address` (a region may be mapped
    /// more than once).
    pub fn take_mapping(&self, address: usize) -> Option<Mapping> {
        let mut mappings = self.mappings.lock().unwrap_or_else(PoisonError::into_inner);
        let at = mappings.iter().rposition(|m| m.address == address)?;
        Some(mappings.remove(at))
    }

    /// `CL_MEM_MAP_COUNT`.
    pub fn map_count(&self) -> usize {
        self.mappings
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    pub fn flags(&self) -> cl_mem_flags {
        self.flags
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn host_ptr(&self) -> usize {
        self.host_ptr
    }

    pub fn properties(&self) -> &[cl_mem_properties] {
        &self.properties
    }

    /// The Vulkan buffer on `device`, allocated on first use (and, in a
    /// one-device context, given the initial contents).
    pub fn buffer_on(&self, device: &Arc<Object<Device>>) -> CLResult<Arc<vulkan::Buffer>> {
        if self.image.is_some() {
            return Err(CL_INVALID_MEM_OBJECT);
        }
        self.storage_on(device)
    }

    /// The Vulkan buffer a 1D buffer image views (from byte
    /// [`Mem::origin`]), on `device`; `CL_INVALID_MEM_OBJECT` for any other
    /// image, whose storage is [`ImageParts::storage`].
    pub fn image_buffer_on(&self, device: &Arc<Object<Device>>) -> CLResult<Arc<vulkan::Buffer>> {
        match &self.parent {
            Some((parent, _)) if self.image.is_some() => parent.storage_on(device),
            _ => Err(CL_INVALID_MEM_OBJECT),
        }
    }

    /// [`Mem::buffer_on`] for buffers and the buffers images are made of.
    fn storage_on(&self, device: &Arc<Object<Device>>) -> CLResult<Arc<vulkan::Buffer>> {
        if let Some((parent, _)) = &self.parent {
            return parent.storage_on(device);
        }
        let (index, mut residency) = self.residency_for(device)?;
        if let Some(buffer) = residency.copy(index) {
            return Ok(buffer.clone());
        }
        let buffer = device
            .vk()?
            .create_buffer(self.size as u64, Placement::DeviceLocal)
            .or_allocation_failure()?;
        // With one device there is nowhere else for the contents to go, and
        // every queue then finds them in place without a recorded copy.
        let alone = self.context.devices().len() == 1;
        let upload = residency.host_contents().filter(|_| alone);
        if let Some(contents) = upload {
            device.upload_and_wait(&buffer, contents)?;
        }
        let uploaded = upload.is_some();
        residency.set_copy(index, buffer.clone(), uploaded);
        Ok(buffer)
    }

    /// Makes `device`'s copy current for a command recorded now that uses
    /// this memory object as `access`; returns the copy to record before
    /// the command when the contents must move (see
    /// [`crate::core::residency`]).
    pub fn prepare_on(
        &self,
        device: &Arc<Object<Device>>,
        access: Access,
    ) -> CLResult<Option<Refresh>> {
        if self.parent.is_none() && self.image.is_some() {
            // An image lives on the one device of its context.
            return Ok(None);
        }
        self.storage_on(device)?;
        let (index, mut residency) = self.residency_for(device)?;
        residency.prepare(&self.context, index, access)
    }

    /// How a command that writes `size` bytes at `offset` uses this memory
    /// object: overwriting a whole buffer needs none of its old contents
    /// moved to the device first.
    pub fn write_access(&self, offset: usize, size: usize) -> Access {
        if self.parent.is_none() && offset == 0 && size == self.size {
            Access::Discard
        } else {
            Access::Write
        }
    }

    /// The index of `device` in the context, and the residency record of
    /// the buffer this memory object is (a region of), locked.
    fn residency_for(
        &self,
        device: &Object<Device>,
    ) -> CLResult<(usize, MutexGuard<'_, Residency>)> {
        if let Some((parent, _)) = &self.parent {
            return parent.residency_for(device);
        }
        let index = self
            .context
            .devices()
            .iter()
            .position(|d| d.is(device))
            .ok_or(CL_INVALID_DEVICE)?;
        let residency = self.residency.as_ref().ok_or(CL_INVALID_MEM_OBJECT)?;
        Ok((
            index,
            residency.lock().unwrap_or_else(PoisonError::into_inner),
        ))
    }

    /// `clEnqueueReadBuffer` (and mapping for reading) is refused for
    /// buffers created with `CL_MEM_HOST_WRITE_ONLY` or `_NO_ACCESS`.
    pub fn check_host_can_read(&self) -> CLResult<()> {
        if self.flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS) != 0 {
            return Err(CL_INVALID_OPERATION);
        }
        Ok(())
    }

    /// `clEnqueueWriteBuffer` is refused for `CL_MEM_HOST_READ_ONLY` or
    /// `_NO_ACCESS` buffers.
    pub fn check_host_can_write(&self) -> CLResult<()> {
        if self.flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS) != 0 {
            return Err(CL_INVALID_OPERATION);
        }
        Ok(())
    }

    /// `CL_INVALID_VALUE` when `offset..offset + size` leaves the buffer.
    pub fn check_range(&self, offset: usize, size: usize) -> CLResult<()> {
        match offset.checked_add(size) {
            Some(end) if end <= self.size => Ok(()),
            _ => Err(CL_INVALID_VALUE),
        }
    }

    pub fn add_destructor_callback(&self, callback: DestructorCallback) {
        self.destructor_callbacks.add(callback);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffer_flags_follow_the_spec() {
        assert_eq!(validate_buffer_flags(0), Ok(()));
        assert_eq!(
            validate_buffer_flags(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR),
            Ok(())
        );
        assert_eq!(
            validate_buffer_flags(CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR),
            Ok(())
        );
        assert_eq!(
            validate_buffer_flags(CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY),
            Err(CL_INVALID_VALUE)
        );
        assert_eq!(
            validate_buffer_flags(CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR),
            Err(CL_INVALID_VALUE)
        );
        assert_eq!(
            validate_buffer_flags(CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR),
            Err(CL_INVALID_VALUE)
        );
        assert_eq!(
            validate_buffer_flags(CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS),
            Err(CL_INVALID_VALUE)
        );
        assert_eq!(validate_buffer_flags(1 << 40), Err(CL_INVALID_VALUE));
    }

    #[test]
    fn buffers_larger_than_every_device_are_refused() {
        let context = Context::new(Vec::new(), Vec::new(), None).unwrap();
        assert_eq!(
            validate_buffer_size(&context, 0),
            Err(CL_INVALID_BUFFER_SIZE)
        );
        // No device can allocate anything.
        assert_eq!(
            validate_buffer_size(&context, 16),
            Err(CL_INVALID_BUFFER_SIZE)
        );
    }
}
