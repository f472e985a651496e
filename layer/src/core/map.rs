//! Mapped buffer regions: `clEnqueueMapBuffer` and
//! `clEnqueueUnmapMemObject`.
//!
//! Where the host shares the buffer's memory ([`crate::core::host_direct`])
//! a map is zero copy: the address points into the buffer's own mapping,
//! the map command only waits for the commands before it (and brings the
//! newest contents to the queue's device), and unmap copies nothing.
//!
//! Otherwise a mapping is host memory the runtime fills from the buffer (a
//! read) and, when mapped for writing, copies back at unmap (a write). The
//! region is the application's own memory for a `CL_MEM_USE_HOST_PTR`
//! buffer (the spec returns `host_ptr + offset`), else an allocation
//! aligned for any OpenCL type. While the map's read is in flight the
//! memory belongs to that command; the command hands it back to the
//! mapping when it is done with it, so no memory is shared between threads
//! by pointer.

use std::sync::{Arc, Mutex, PoisonError};

use bytemuck::{Pod, Zeroable};
use opencl_sys::{
    cl_map_flags, CL_COMMAND_MAP_BUFFER, CL_COMMAND_MAP_IMAGE, CL_COMMAND_UNMAP_MEM_OBJECT,
    CL_INVALID_VALUE, CL_MAP_FAILURE, CL_MAP_READ, CL_MAP_WRITE, CL_MAP_WRITE_INVALIDATE_REGION,
};

use crate::core::command::Recipe;
use crate::core::enqueue::{read_buffer_as, wait_if_blocking, write_buffer_as, Waits};
use crate::core::event::Event;
use crate::core::host::HostMemory;
use crate::core::host_direct;
use crate::core::image;
use crate::core::memory::Mem;
use crate::core::object::Object;
use crate::core::queue::Queue;
use crate::core::rect::RectSide;
use crate::core::residency::Access;
use crate::core::transfer_trace::{self, Command, Path};
use crate::core::CLResult;
use crate::vulkan::ImageRegion;

/// The unit of a mapping's own allocation: its alignment is the largest of
/// any OpenCL C type (`long16`, `double16`: 128 bytes).
#[derive(Clone, Copy, Pod, Zeroable)]
#[repr(C, align(128))]
struct Chunk([u8; 128]);

/// The host memory of one mapping.
pub struct MapMemory(Region);

enum Region {
    /// Allocated on first use, which a zero-copy map never makes.
    Owned { chunks: Vec<Chunk>, size: usize },
    /// `host_ptr + offset` of a `CL_MEM_USE_HOST_PTR` buffer.
    Host(Box<dyn HostMemory>),
}

impl MapMemory {
    /// An allocation of `size` bytes of the runtime's own.
    pub fn owned(size: usize) -> Self {
        MapMemory(Region::Owned {
            chunks: Vec::new(),
            size,
        })
    }

    /// Whether the region may be anywhere (it is not `host_ptr`'s).
    fn is_owned(&self) -> bool {
        matches!(self.0, Region::Owned { .. })
    }

    /// The application's own memory.
    pub fn host(memory: Box<dyn HostMemory>) -> Self {
        MapMemory(Region::Host(memory))
    }

    fn bytes(&self) -> &[u8] {
        match &self.0 {
            // Not allocated yet: nothing was written into it either.
            Region::Owned { chunks, .. } if chunks.is_empty() => &[],
            Region::Owned { chunks, size } => &bytemuck::cast_slice(chunks)[..*size],
            Region::Host(host) => host.bytes(),
        }
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        match &mut self.0 {
            Region::Owned { chunks, size } => {
                if chunks.is_empty() {
                    *chunks = vec![Chunk::zeroed(); size.div_ceil(128)];
                }
                &mut bytemuck::cast_slice_mut(chunks)[..*size]
            }
            Region::Host(host) => host.bytes_mut(),
        }
    }
}

/// Where a mapping's memory is when the runtime does not hold it.
type Home = Arc<Mutex<Option<MapMemory>>>;

/// One active mapping of a buffer.
pub struct Mapping {
    /// The address handed to the application.
    pub address: usize,
    offset: usize,
    size: usize,
    writes: bool,
    /// The address is in the buffer's own mapping: nothing to copy back.
    zero_copy: bool,
    /// The map command, which owns the memory until it completes.
    mapped: Arc<Object<Event>>,
    home: Home,
    /// For a mapped image region: where it is in the image and how the
    /// mapping lays it out.
    image: Option<ImageMap>,
}

/// An image region and its layout in a mapping's memory.
#[derive(Clone, Copy, Debug)]
pub struct ImageMap {
    pub region: ImageRegion,
    pub layout: [usize; 3],
    pub side: RectSide,
}

/// The map's read target: the mapping's memory, returned to its home when
/// the command is done with it (completed, or dropped unrun).
struct ReadTarget {
    memory: Option<MapMemory>,
    home: Home,
}

impl HostMemory for MapMemory {
    fn bytes(&self) -> &[u8] {
        MapMemory::bytes(self)
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        MapMemory::bytes_mut(self)
    }
}

impl HostMemory for ReadTarget {
    fn bytes(&self) -> &[u8] {
        self.memory.as_ref().map_or(&[], MapMemory::bytes)
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        match &mut self.memory {
            Some(memory) => memory.bytes_mut(),
            None => &mut [],
        }
    }
}

impl Drop for ReadTarget {
    fn drop(&mut self) {
        *self.home.lock().unwrap_or_else(PoisonError::into_inner) = self.memory.take();
    }
}

/// `clEnqueueMapBuffer`: the address of the mapped region and the map
/// command's event. `memory` is where the region lives (see [`MapMemory`]).
#[allow(clippy::too_many_arguments)]
pub fn map_buffer(
    queue: &Arc<Object<Queue>>,
    mem: &Arc<Object<Mem>>,
    blocking: bool,
    flags: cl_map_flags,
    offset: usize,
    size: usize,
    mut memory: MapMemory,
    waits: Waits,
) -> CLResult<(usize, Arc<Object<Event>>)> {
    let known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    let invalidate = flags & CL_MAP_WRITE_INVALIDATE_REGION != 0;
    if flags & !known != 0 || (invalidate && flags & (CL_MAP_READ | CL_MAP_WRITE) != 0) {
        return Err(CL_INVALID_VALUE);
    }
    if size == 0 {
        return Err(CL_INVALID_VALUE);
    }
    mem.check_range(offset, size)?;
    if flags & CL_MAP_READ != 0 {
        mem.check_host_can_read()?;
    }
    if flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0 {
        mem.check_host_can_write()?;
    }
    let writes = flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0;
    let buffer = mem.buffer_on(queue.device())?;
    if memory.is_owned() && host_direct::map_is_zero_copy(queue.device().host_access(), &buffer) {
        transfer_trace::note(Command::Map, Path::ZeroCopy, size);
        let base = buffer.mapped().ok_or(CL_MAP_FAILURE)? as usize;
        let address = base + mem.origin() + offset;
        // Even a map that invalidates the region reads: in a context of
        // several devices the region must hold the newest contents, or a
        // later move of them would overwrite what the host writes.
        let mut recipe = Recipe::default();
        recipe.uses(mem.clone(), Access::Read);
        let event = queue.enqueue(CL_COMMAND_MAP_BUFFER, waits, recipe, None)?;
        wait_if_blocking(&event, blocking)?;
        mem.add_mapping(Mapping {
            address,
            offset,
            size,
            writes,
            zero_copy: true,
            mapped: event.clone(),
            home: Arc::new(Mutex::new(None)),
            image: None,
        });
        return Ok((address, event));
    }
    let address = memory.bytes_mut().as_mut_ptr() as usize;
    let home: Home = Arc::new(Mutex::new(None));
    // Mapping to write keeps what the region holds, unless invalidated.
    let event = if invalidate {
        *home.lock().unwrap_or_else(PoisonError::into_inner) = Some(memory);
        let event = queue.enqueue(CL_COMMAND_MAP_BUFFER, waits, Recipe::default(), None)?;
        wait_if_blocking(&event, blocking)?;
        event
    } else {
        let target = Box::new(ReadTarget {
            memory: Some(memory),
            home: home.clone(),
        });
        read_buffer_as(
            CL_COMMAND_MAP_BUFFER,
            queue,
            mem,
            blocking,
            offset,
            target,
            waits,
        )?
    };
    mem.add_mapping(Mapping {
        address,
        offset,
        size,
        writes,
        zero_copy: false,
        mapped: event.clone(),
        home,
        image: None,
    });
    Ok((address, event))
}

/// `CL_INVALID_VALUE` for unknown or contradictory map flags; else whether
/// the map writes.
fn check_map_flags(mem: &Mem, flags: cl_map_flags) -> CLResult<bool> {
    let known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    let invalidate = flags & CL_MAP_WRITE_INVALIDATE_REGION != 0;
    if flags & !known != 0 || (invalidate && flags & (CL_MAP_READ | CL_MAP_WRITE) != 0) {
        return Err(CL_INVALID_VALUE);
    }
    if flags & CL_MAP_READ != 0 {
        mem.check_host_can_read()?;
    }
    let writes = flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0;
    if writes {
        mem.check_host_can_write()?;
    }
    Ok(writes)
}

/// `clEnqueueMapImage`: the address of the mapped region (laid out in
/// `memory` as `map` says) and the map command's event. Images are never
/// host-visible, so the region is always read into `memory`.
#[allow(clippy::too_many_arguments)]
pub fn map_image(
    queue: &Arc<Object<Queue>>,
    mem: &Arc<Object<Mem>>,
    blocking: bool,
    flags: cl_map_flags,
    map: ImageMap,
    mut memory: MapMemory,
    waits: Waits,
) -> CLResult<(usize, Arc<Object<Event>>)> {
    let writes = check_map_flags(mem, flags)?;
    let size = map.side.end(map.layout).ok_or(CL_INVALID_VALUE)?;
    transfer_trace::note(Command::Map, Path::Staged, size);
    let address = memory.bytes_mut().as_mut_ptr() as usize;
    let home: Home = Arc::new(Mutex::new(None));
    let event = if flags & CL_MAP_WRITE_INVALIDATE_REGION != 0 {
        *home.lock().unwrap_or_else(PoisonError::into_inner) = Some(memory);
        let event = queue.enqueue(CL_COMMAND_MAP_IMAGE, waits, Recipe::default(), None)?;
        wait_if_blocking(&event, blocking)?;
        event
    } else {
        let target = Box::new(ReadTarget {
            memory: Some(memory),
            home: home.clone(),
        });
        image::read_image_as(
            CL_COMMAND_MAP_IMAGE,
            queue,
            mem,
            blocking,
            map.region,
            (map.layout, map.side),
            target,
            waits,
        )?
    };
    mem.add_mapping(Mapping {
        address,
        offset: 0,
        size,
        writes,
        zero_copy: false,
        mapped: event.clone(),
        home,
        image: Some(map),
    });
    Ok((address, event))
}

/// `clEnqueueUnmapMemObject`: writes a region mapped for writing back.
pub fn unmap(
    queue: &Arc<Object<Queue>>,
    mem: &Arc<Object<Mem>>,
    address: usize,
    waits: Waits,
) -> CLResult<Arc<Object<Event>>> {
    let mapping = mem.take_mapping(address).ok_or(CL_INVALID_VALUE)?;
    if mapping.zero_copy {
        transfer_trace::note(Command::Unmap, Path::ZeroCopy, mapping.size);
        // The host wrote the buffer itself; commands enqueued after this
        // are submitted after it, which makes those writes visible to them.
        let mut recipe = Recipe::default();
        if mapping.writes {
            recipe.uses(mem.clone(), Access::Write);
        }
        return queue.enqueue(CL_COMMAND_UNMAP_MEM_OBJECT, waits, recipe, None);
    }
    if !mapping.writes {
        return queue.enqueue(CL_COMMAND_UNMAP_MEM_OBJECT, waits, Recipe::default(), None);
    }
    // The application has been handed the memory only once the map
    // completed; an unmap enqueued before that waits for it.
    mapping.mapped.wait()?;
    let taken = mapping
        .home
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    let Some(memory) = taken else {
        return Err(CL_INVALID_VALUE);
    };
    if let Some(map) = mapping.image {
        return image::write_image_as(
            CL_COMMAND_UNMAP_MEM_OBJECT,
            queue,
            mem,
            false,
            map.region,
            (map.layout, map.side),
            Box::new(memory),
            waits,
        );
    }
    // The write owns the memory until it has taken the data.
    write_buffer_as(
        CL_COMMAND_UNMAP_MEM_OBJECT,
        queue,
        mem,
        false,
        mapping.offset,
        Box::new(memory),
        waits,
    )
}
