//! Drivers that cut loops short, and the launches they cut.
//!
//! Mesa 22.3's lavapipe (Debian 12's) stops an invocation's loops after
//! 65,535 iterations in all, shared between every loop the invocation
//! runs, and carries on after the loop as if it had ended: `for (i = 0;
//! i < n; i++) c++;` leaves 65535 in `c` for any larger `n`. Mesa 25.0
//! (bookworm-backports) runs them to the end. A wrong answer must never be
//! silent, so where the driver cuts loops ([`driver_cuts_loops`], a probe
//! run once per device) kernels are built with the translator's loop
//! guard (`DeviceCaps::loop_guard`), and a launch whose loop was cut fails
//! ([`status_check`]): its event ends with `CL_OUT_OF_RESOURCES`, and the
//! kernel's name and the reason are logged as an error (standard error
//! unless `CLVULKAN_LOG_FILE` names a file).
//!
//! The probe, not the driver's version, decides: which Mesa versions cut
//! is known only for the two measured, and a probe answers for any driver
//! (it runs on lavapipe only, the one driver known to have done it).

use std::sync::Arc;
use std::time::Duration;

use opencl_sys::CL_OUT_OF_RESOURCES;
use translator::reflect::{ArgKind, PushConstantHeader};

use crate::core::buffer_pool::Lease;
use crate::core::builtin_kernels::BuiltinKernel;
use crate::core::device::Device;
use crate::core::error::VkResultExt;
use crate::core::event::HostCompletion;
use crate::core::CLResult;
use crate::vulkan::{BufferBinding, Placement};

const PROBE_SOURCE: &str = include_str!("../../../shaders/loop_cap_probe.cl");

/// Iterations the probe's loop runs: past lavapipe's 65,535.
const PROBE_ITERATIONS: u32 = 70_000;

/// The driver name of lavapipe (`VkPhysicalDeviceDriverProperties`).
const LAVAPIPE: &str = "llvmpipe";

/// How long the probe may take on the device before it counts as failed.
const PROBE_WAIT: Duration = Duration::from_secs(30);

/// Whether `device`'s driver ends long loops early: only lavapipe is
/// asked, by running the probe kernel once. A probe that cannot run
/// answers yes, so that kernels are guarded rather than trusted.
pub fn driver_cuts_loops(device: &Device) -> bool {
    if device.info().driver_name != LAVAPIPE {
        return false;
    }
    match probe(device) {
        Ok(count) => count != PROBE_ITERATIONS,
        Err(error) => {
            log::warn!(
                "{}: the loop probe failed (error {error}); kernels check their loops",
                device.name()
            );
            true
        }
    }
}

/// What the probe kernel counted to.
fn probe(device: &Device) -> CLResult<u32> {
    // Built with the plain caps, without the guard: the probe asks what
    // unguarded loops do.
    let program = device
        .translator()
        .build(PROBE_SOURCE, "", device.caps())
        .map_err(|_| CL_OUT_OF_RESOURCES)?;
    let BuiltinKernel {
        pipeline,
        reflection,
    } = BuiltinKernel::new(device, &program, "count_to", [1, 1, 1])?;
    let vk = device.vk()?;
    let header = PushConstantHeader {
        global_offset: [0; 3],
        work_dim: 1,
        global_size: [1, 1, 1],
        group_offset: [0; 3],
    };
    let mut push_constants = vec![0u8; reflection.push_constant_size as usize];
    push_constants[..PushConstantHeader::SIZE as usize].copy_from_slice(&header.to_bytes());
    let n_at = reflection
        .args
        .iter()
        .find_map(|a| match a.kind {
            ArgKind::Pod { offset, .. } => Some(offset as usize),
            _ => None,
        })
        .ok_or(CL_OUT_OF_RESOURCES)?;
    push_constants[n_at..n_at + 4].copy_from_slice(&PROBE_ITERATIONS.to_ne_bytes());
    let out = vk
        .create_buffer(4, Placement::Readback)
        .or_out_of_resources()?;
    // The kernel's one buffer argument, and the stand-in for the NULL
    // flags' launch block binding if it has one (it has none: its block
    // fits the push constants).
    let bindings = [BufferBinding {
        buffer: &out,
        offset: 0,
        range: 0,
    }];
    let mut stream = vk.create_stream().or_out_of_resources()?;
    stream
        .dispatch(&pipeline, &bindings, &[], &push_constants, [1, 1, 1])
        .or_out_of_resources()?;
    let done = stream.submit(&[]).or_out_of_resources()?;
    if !stream
        .timeline()
        .wait(done, PROBE_WAIT)
        .or_out_of_resources()?
    {
        return Err(CL_OUT_OF_RESOURCES);
    }
    let mut count = [0u8; 4];
    out.read(0, &mut count).or_out_of_resources()?;
    Ok(u32::from_le_bytes(count))
}

/// The status word for one launch of a guarded kernel, zeroed, and the
/// completion that fails the launch if a loop of `kernel` was cut.
pub fn status_check(device: &Device, kernel: &str) -> CLResult<(Arc<Lease>, HostCompletion)> {
    let status = device.lease(Placement::Readback, 4)?;
    status.buffer().write(0, &[0; 4]).or_out_of_resources()?;
    let word = status.clone();
    let kernel = kernel.to_owned();
    let device_name = device.name().to_owned();
    let check: HostCompletion = Box::new(move || {
        let mut bytes = [0u8; 4];
        word.buffer().read(0, &mut bytes).or_out_of_resources()?;
        if u32::from_le_bytes(bytes) == 0 {
            return Ok(());
        }
        log::error!(
            "kernel '{kernel}' failed on {device_name}: the driver ended one of its \
             loops early (this lavapipe stops an invocation's loops after 65,535 iterations in \
             all), so its results would be wrong; the command ends with CL_OUT_OF_RESOURCES. \
             Mesa 25.0's lavapipe runs loops to the end."
        );
        Err(CL_OUT_OF_RESOURCES)
    });
    Ok((status, check))
}
