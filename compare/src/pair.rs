//! One side of a `clcompare --devices 2` comparison: ONE context holding
//! the first two devices of a platform, with an in-order queue on each.
//! Each device is seen through a [`Side`] of its own (its device and queue,
//! and its own reference to the shared context), so the multi-device
//! workloads use the same buffer, build and launch helpers as the others;
//! buffers made through either side belong to the one context.

use crate::harness::Step;
use crate::side::{find_platform, Identity, Side};
use opencl3::command_queue::CommandQueue;
use opencl3::context::{context::retain_context, Context};
use opencl3::device::{
    Device, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_ALL, CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU,
};
use opencl3::types::{cl_device_id, cl_device_type};
use std::ptr;

/// Two devices of one platform in one context.
pub struct Pair {
    sides: [Side; 2],
}

/// Why a platform gives no pair.
#[derive(Debug, Clone, PartialEq)]
pub enum PairError {
    /// It has fewer than two devices of one kind: the mode cannot run on
    /// it, which is reported for that side rather than ending the run.
    NeedsTwoDevices(String),
    /// No such platform, or an OpenCL call failed.
    Failed(String),
}

impl std::fmt::Display for PairError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PairError::NeedsTwoDevices(why) => write!(f, "needs two devices: {why}"),
            PairError::Failed(why) => f.write_str(why),
        }
    }
}

/// Kinds of device in the order a pair is looked for: two GPUs when the
/// platform has them, never a GPU beside a CPU (clvulkan may list lavapipe
/// after the GPUs), whose figures would not add up to anything.
const KINDS: [cl_device_type; 3] = [
    CL_DEVICE_TYPE_GPU,
    CL_DEVICE_TYPE_ACCELERATOR,
    CL_DEVICE_TYPE_CPU,
];

/// The first two devices of the first kind in [`KINDS`] the platform has
/// two of, in the platform's order; `None` when it has no such two.
fn pick_two(devices: &[(cl_device_id, cl_device_type)]) -> Option<[cl_device_id; 2]> {
    KINDS.iter().find_map(|&kind| {
        let mut of_kind = devices.iter().filter(|(_, t)| t & kind != 0);
        Some([of_kind.next()?.0, of_kind.next()?.0])
    })
}

impl Pair {
    /// The first platform whose name contains `substring` (any case), with
    /// a context of its first two devices of one kind.
    pub fn open(substring: &str) -> Result<Pair, PairError> {
        let platform = find_platform(substring).map_err(PairError::Failed)?;
        let platform_name = platform.name().unwrap_or_default();
        let platform_version = platform.version().unwrap_or_default();
        let ids = platform
            .get_devices(CL_DEVICE_TYPE_ALL)
            .map_err(|e| PairError::Failed(format!("clGetDeviceIDs: {e}")))?;
        let typed: Vec<_> = ids
            .iter()
            .map(|&id| (id, Device::new(id).dev_type().unwrap_or(0)))
            .collect();
        let Some(ids) = pick_two(&typed) else {
            let names: Vec<String> = typed
                .iter()
                .map(|&(id, _)| Device::new(id).name().unwrap_or_default())
                .collect();
            let has = match names.len() {
                0 => "no devices".to_string(),
                1 => "one device".to_string(),
                n => format!("{n} devices, no two of one kind,"),
            };
            return Err(PairError::NeedsTwoDevices(format!(
                "'{platform_name}' has {has} ({})",
                names.join(", ")
            )));
        };
        let context = Context::from_devices(&ids, &[], None, ptr::null_mut())
            .map_err(|e| PairError::Failed(format!("clCreateContext: {e}")))?;
        // The second side's own reference to the same context: each
        // `Context` releases one when dropped.
        // SAFETY: `context` is a valid context this process holds.
        unsafe { retain_context(context.get()) }
            .map_err(|e| PairError::Failed(format!("clRetainContext: {e}")))?;
        let shared = Context::new(context.get(), &ids);
        let side = |context: Context, id: cl_device_id| -> Result<Side, PairError> {
            // The 1.x entry point, as `Side::open` uses: in-order, no
            // profiling.
            // SAFETY: `id` is one of the context's devices.
            #[allow(deprecated)]
            let queue = unsafe { CommandQueue::create(&context, id, 0) }
                .map_err(|e| PairError::Failed(format!("clCreateCommandQueue: {e}")))?;
            Ok(Side {
                platform_name: platform_name.clone(),
                platform_version: platform_version.clone(),
                device: Device::new(id),
                context,
                queue,
            })
        };
        Ok(Pair {
            sides: [side(context, ids[0])?, side(shared, ids[1])?],
        })
    }

    /// Device `index` (0 or 1) with its queue.
    pub fn side(&self, index: usize) -> &Side {
        &self.sides[index]
    }

    pub fn sides(&self) -> &[Side; 2] {
        &self.sides
    }

    /// Submits both queues, then waits for both: neither device waits for
    /// the other to be handed its work.
    pub fn finish(&self) -> Step<()> {
        for side in &self.sides {
            side.flush()?;
        }
        for side in &self.sides {
            side.finish()?;
        }
        Ok(())
    }

    /// What the report prints: the platform and both devices.
    pub fn identity(&self) -> Identity {
        let [first, second] = self.sides.each_ref().map(Side::identity);
        let device = if first.device == second.device {
            format!("2 x {}", first.device)
        } else {
            format!("{} + {}", first.device, second.device)
        };
        Identity { device, ..first }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: usize) -> cl_device_id {
        n as cl_device_id
    }

    #[test]
    fn pairs_are_two_devices_of_one_kind_gpus_first() {
        let gpu = CL_DEVICE_TYPE_GPU;
        let cpu = CL_DEVICE_TYPE_CPU;
        // Two GPUs with lavapipe listed after them: the GPUs.
        let devices = [(id(1), gpu), (id(2), gpu), (id(3), cpu)];
        assert_eq!(pick_two(&devices), Some([id(1), id(2)]));
        // A GPU and two CPU devices: the CPUs, never the GPU with a CPU.
        let devices = [(id(1), gpu), (id(2), cpu), (id(3), cpu)];
        assert_eq!(pick_two(&devices), Some([id(2), id(3)]));
        // A GPU beside a CPU, or a single device: none.
        assert_eq!(pick_two(&[(id(1), gpu), (id(2), cpu)]), None);
        assert_eq!(pick_two(&[(id(1), cpu)]), None);
    }
}
