//! The storage of a program's program-scope `__global` variables (OpenCL
//! C 3.0 s6.8): one device buffer per built program and device, which
//! every launch of every kernel of that build that uses the variables
//! binds (at the binding its reflection names), so what one launch leaves
//! there the next one sees. It is made and filled with the variables'
//! initial bytes on the first launch that needs it; a rebuild makes a new
//! executable, so it starts over from the initializers. In a context with
//! several devices each device's build has its own copy (the variables are
//! per program *and device* in OpenCL too).

use std::sync::{Arc, Mutex, PoisonError};

use translator::ProgramGlobals;

use crate::core::device::Device;
use crate::core::error::VkResultExt;
use crate::core::object::Object;
use crate::core::CLResult;
use crate::vulkan::{self, Placement};

/// One executable's block of program-scope variables: its initial
/// contents, and the device buffer once a launch has needed it.
pub struct GlobalsStorage {
    initial: ProgramGlobals,
    buffer: Mutex<Option<Arc<vulkan::Buffer>>>,
}

impl GlobalsStorage {
    pub fn new(initial: ProgramGlobals) -> Self {
        GlobalsStorage {
            initial,
            buffer: Mutex::new(None),
        }
    }

    /// `CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE`: the bytes of the
    /// block the variables lie in.
    pub fn size(&self) -> u64 {
        self.initial.size
    }

    /// The buffer on `device`, made and initialised on first use. The lock
    /// is held while it is filled, so concurrent first launches wait for
    /// the one that fills it rather than bind it half-filled.
    pub fn buffer(&self, device: &Object<Device>) -> CLResult<Arc<vulkan::Buffer>> {
        let mut buffer = self.buffer.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(buffer) = buffer.as_ref() {
            return Ok(buffer.clone());
        }
        let made = device
            .vk()?
            .create_buffer(
                self.initial.initial.len().max(4) as u64,
                Placement::DeviceLocal,
            )
            .or_allocation_failure()?;
        device.upload_and_wait(&made, &self.initial.initial)?;
        Ok(buffer.insert(made).clone())
    }
}
