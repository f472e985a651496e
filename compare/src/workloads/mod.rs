//! The workload registry: every workload's name, group and one-line
//! description, and the function that prepares it on a side. The order is
//! the order of the report, time-to-first-result first so that it sees each
//! implementation before anything else has warmed it up.

use crate::config::Config;
use crate::harness::{Prepared, Step};
use crate::side::Side;

pub mod build;
pub mod copy_buffer;
pub mod copy_kernel;
pub mod first_result;
pub mod histogram;
pub mod image_blur;
pub mod image_resize;
pub mod launches;
pub mod nbody;
pub mod read_buffer;
pub mod reduce;
pub mod roundtrip;
pub mod set_arg;
pub mod sgemm;
pub mod sgemm_regs;
pub mod two_devices;
pub mod write_buffer;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    Build,
    Api,
    Memory,
    Compute,
}

/// Makes a workload ready to run on a side.
pub type PrepareFn = for<'a> fn(&'a Side, &Config) -> Step<Box<dyn Prepared + 'a>>;

pub struct Workload {
    pub name: &'static str,
    pub group: Group,
    pub what: &'static str,
    pub prepare: PrepareFn,
}

pub fn all() -> Vec<Workload> {
    let w = |name, group, what, prepare| Workload {
        name,
        group,
        what,
        prepare,
    };
    vec![
        w(
            "first-result",
            Group::Build,
            "program + build + kernel + first launch + finish, once, in this process",
            first_result::prepare as PrepareFn,
        ),
        w(
            "build",
            Group::Build,
            "clBuildProgram of the 150-line build150.cl",
            build::prepare,
        ),
        w(
            "roundtrip",
            Group::Api,
            "one tiny kernel enqueue + clFinish",
            roundtrip::prepare,
        ),
        w(
            "launches",
            Group::Api,
            "10,000 back-to-back launches, one clFinish (per launch)",
            launches::prepare,
        ),
        w(
            "set-arg",
            Group::Api,
            "clSetKernelArg + enqueue, 10,000 times, one clFinish (per launch)",
            set_arg::prepare,
        ),
        w(
            "copy-kernel",
            Group::Memory,
            "float4 copy kernel, bytes read + written",
            copy_kernel::prepare,
        ),
        w(
            "copy-buffer",
            Group::Memory,
            "clEnqueueCopyBuffer, bytes read + written",
            copy_buffer::prepare,
        ),
        w(
            "write-buffer",
            Group::Memory,
            "blocking clEnqueueWriteBuffer from pageable memory",
            write_buffer::prepare,
        ),
        w(
            "read-buffer",
            Group::Memory,
            "blocking clEnqueueReadBuffer to pageable memory",
            read_buffer::prepare,
        ),
        w(
            "sgemm",
            Group::Compute,
            "tiled SGEMM, 64x64 tiles, 16 outputs per work-item",
            sgemm::prepare,
        ),
        w(
            "sgemm-regs",
            Group::Compute,
            "register-blocked SGEMM, 128x128 tiles, float acc[8][8] per work-item",
            sgemm_regs::prepare,
        ),
        w(
            "reduce",
            Group::Compute,
            "two-stage float sum with __local memory, bytes read",
            reduce::prepare,
        ),
        w(
            "reduce-subgroup",
            Group::Compute,
            "the same sum through sub_group_reduce_add, bytes read",
            reduce::prepare_sub_groups,
        ),
        w(
            "nbody",
            Group::Compute,
            "all-pairs N-body step, float4, rsqrt, softening",
            nbody::prepare,
        ),
        w(
            "histogram",
            Group::Compute,
            "256-bin byte histogram, __local atomics + global merge",
            histogram::prepare,
        ),
        w(
            "image-blur",
            Group::Compute,
            "separable 9-tap blur, RGBA8 images, CLAMP_TO_EDGE literal sampler",
            image_blur::prepare,
        ),
        w(
            "image-resize",
            Group::Compute,
            "bilinear 3/2 resize, RGBA8 images, normalized LINEAR sampler",
            image_resize::prepare,
        ),
    ]
}

/// The workload called `name`.
pub fn by_name(name: &str) -> Option<Workload> {
    all().into_iter().find(|w| w.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_first_result_comes_first() {
        let names: Vec<_> = all().iter().map(|w| w.name).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
        assert_eq!(names[0], "first-result");
        assert!(by_name("sgemm").is_some());
        assert!(by_name("sgemm-regs").is_some());
    }
}
