//! One side of a comparison: a platform chosen by name, its first device
//! (clvulkan lists GPUs first), a context and an in-order queue, plus the
//! buffer and program helpers every workload uses, so that their `unsafe`
//! OpenCL calls live in one place. With `--devices 2`, each device of a
//! shared two-device context is a `Side` of its own ([`crate::pair`]).

use crate::harness::{During, Failure, Step};
use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL, CL_DEVICE_TYPE_CPU};
use opencl3::event::Event;
use opencl3::kernel::Kernel;
use opencl3::memory::{Buffer, Image, CL_MEM_OBJECT_IMAGE2D, CL_MEM_READ_WRITE};
use opencl3::platform::{get_platforms, Platform};
use opencl3::program::Program;
use opencl3::types::{
    cl_channel_order, cl_channel_type, cl_event, cl_image_desc, cl_image_format, cl_mem_flags,
    CL_BLOCKING,
};
use std::ptr;
use std::sync::atomic::{AtomicU64, Ordering};

/// A platform's device with a context and queue.
pub struct Side {
    pub platform_name: String,
    pub platform_version: String,
    pub device: Device,
    pub context: Context,
    pub queue: CommandQueue,
}

/// What the report prints about a side.
#[derive(Debug, Clone)]
pub struct Identity {
    pub platform: String,
    pub platform_version: String,
    pub device: String,
    pub driver: String,
    pub device_version: String,
}

/// The names of every platform the loader sees.
pub fn platform_names() -> Vec<String> {
    get_platforms()
        .unwrap_or_default()
        .iter()
        .map(|p| p.name().unwrap_or_default())
        .collect()
}

/// The first platform whose name contains `substring` (any case).
pub(crate) fn find_platform(substring: &str) -> Result<Platform, String> {
    let platforms = get_platforms().map_err(|e| format!("clGetPlatformIDs: {e}"))?;
    let needle = substring.to_lowercase();
    platforms
        .into_iter()
        .find(|p| {
            p.name()
                .map(|n| n.to_lowercase().contains(&needle))
                .unwrap_or(false)
        })
        .ok_or_else(|| {
            format!(
                "no platform whose name contains '{substring}' (platforms: {})",
                platform_names().join(", ")
            )
        })
}

impl Side {
    /// The first platform whose name contains `substring` (any case).
    pub fn open(substring: &str) -> Result<Side, String> {
        let platform = find_platform(substring)?;
        let ids = platform
            .get_devices(CL_DEVICE_TYPE_ALL)
            .map_err(|e| format!("clGetDeviceIDs: {e}"))?;
        let id = *ids.first().ok_or("platform has no devices")?;
        let device = Device::new(id);
        let context = Context::from_device(&device).map_err(|e| format!("clCreateContext: {e}"))?;
        // The 1.x entry point: every implementation has it, and in-order
        // without profiling is what the workloads need.
        #[allow(deprecated)]
        let queue = CommandQueue::create_default(&context, 0)
            .map_err(|e| format!("clCreateCommandQueue: {e}"))?;
        Ok(Side {
            platform_name: platform.name().unwrap_or_default(),
            platform_version: platform.version().unwrap_or_default(),
            device,
            context,
            queue,
        })
    }

    pub fn identity(&self) -> Identity {
        Identity {
            platform: self.platform_name.clone(),
            platform_version: self.platform_version.clone(),
            device: self.device.name().unwrap_or_default(),
            driver: self.device.driver_version().unwrap_or_default(),
            device_version: self.device.version().unwrap_or_default(),
        }
    }

    pub fn is_cpu(&self) -> bool {
        self.device
            .dev_type()
            .is_ok_and(|t| t & CL_DEVICE_TYPE_CPU != 0)
    }

    /// The largest single buffer the workloads may allocate: the device's
    /// allocation limit, and a quarter of its memory so that the two or
    /// three buffers of a workload fit.
    pub fn buffer_limit(&self) -> u64 {
        let alloc = self.device.max_mem_alloc_size().unwrap_or(64 << 20);
        let global = self.device.global_mem_size().unwrap_or(256 << 20);
        alloc.min(global / 4)
    }

    /// A device buffer of `n` elements with no host pointer.
    pub fn buffer<T>(&self, n: usize) -> Step<Buffer<T>> {
        self.buffer_with(CL_MEM_READ_WRITE, n)
    }

    pub fn buffer_with<T>(&self, flags: cl_mem_flags, n: usize) -> Step<Buffer<T>> {
        // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
        unsafe { Buffer::<T>::create(&self.context, flags, n, ptr::null_mut()) }
            .during("clCreateBuffer")
    }

    /// A device buffer holding a copy of `data`.
    pub fn buffer_from<T>(&self, data: &[T]) -> Step<Buffer<T>> {
        let mut buffer = self.buffer(data.len())?;
        self.write(&mut buffer, data)?;
        Ok(buffer)
    }

    /// A blocking write of all of `data` at the start of `buffer`.
    pub fn write<T>(&self, buffer: &mut Buffer<T>, data: &[T]) -> Step<()> {
        // SAFETY: blocking, so `data` outlives the transfer, and the buffer
        // holds at least `data.len()` elements (callers size it so).
        unsafe {
            self.queue
                .enqueue_write_buffer(buffer, CL_BLOCKING, 0, data, &[])
        }
        .during("clEnqueueWriteBuffer")?;
        Ok(())
    }

    /// A blocking read filling `out` from the start of `buffer`.
    pub fn read<T>(&self, buffer: &Buffer<T>, out: &mut [T]) -> Step<()> {
        // SAFETY: blocking, so `out` outlives the transfer.
        unsafe {
            self.queue
                .enqueue_read_buffer(buffer, CL_BLOCKING, 0, out, &[])
        }
        .during("clEnqueueReadBuffer")?;
        Ok(())
    }

    /// A new vector with the first `n` elements of `buffer`.
    pub fn read_vec<T: Default + Clone>(&self, buffer: &Buffer<T>, n: usize) -> Step<Vec<T>> {
        let mut out = vec![T::default(); n];
        self.read(buffer, &mut out)?;
        Ok(out)
    }

    /// Creates and builds `source`; a failed build is unsupported, with the
    /// log's first error line.
    pub fn build(&self, source: &str, options: &str) -> Step<Program> {
        let mut program = Program::create_from_source(&self.context, source)
            .during("clCreateProgramWithSource")?;
        match program.build(self.context.devices(), options) {
            Ok(()) => Ok(program),
            Err(e) if e.0 == opencl3::error_codes::CL_BUILD_PROGRAM_FAILURE => {
                let log = program.get_build_log(self.device.id()).unwrap_or_default();
                Err(Failure::Unsupported(first_error_line(&log)))
            }
            Err(e) => Err(Failure::cl("clBuildProgram", e)),
        }
    }

    pub fn kernel(&self, program: &Program, name: &str) -> Step<Kernel> {
        Kernel::create(program, name).during("clCreateKernel")
    }

    /// Enqueues `kernel` over `global` work-items, in work-groups of
    /// `local` or of the implementation's choosing. The event opencl3
    /// returns is released at once, as an application that keeps none would.
    ///
    /// # Safety
    ///
    /// Every argument of `kernel` must be set to what its signature expects,
    /// and buffers must be large enough for the range.
    pub unsafe fn launch(
        &self,
        kernel: &Kernel,
        global: &[usize],
        local: Option<&[usize]>,
    ) -> Step<()> {
        // SAFETY: the caller vouches for the arguments.
        unsafe { self.launch_after(kernel, global, local, &[]) }?;
        Ok(())
    }

    /// [`Side::launch`] once every event in `waits` is complete (events of
    /// another queue of the same context included), returning the launch's
    /// event.
    ///
    /// # Safety
    ///
    /// As for [`Side::launch`]; `waits` must be valid events of this
    /// side's context.
    pub unsafe fn launch_after(
        &self,
        kernel: &Kernel,
        global: &[usize],
        local: Option<&[usize]>,
        waits: &[cl_event],
    ) -> Step<Event> {
        debug_assert!(local.is_none_or(|l| l.len() == global.len()));
        // SAFETY: the caller vouches for the arguments and events; the size
        // arrays outlive the call and have `global.len()` entries.
        unsafe {
            self.queue.enqueue_nd_range_kernel(
                kernel.get(),
                global.len() as u32,
                ptr::null(),
                global.as_ptr(),
                local.map_or(ptr::null(), <[usize]>::as_ptr),
                waits,
            )
        }
        .during("clEnqueueNDRangeKernel")
    }

    /// A `width` x `height` 2D image of `order` and `data_type` with no host
    /// pointer; an image the device cannot make is unsupported.
    pub fn image2d(
        &self,
        flags: cl_mem_flags,
        order: cl_channel_order,
        data_type: cl_channel_type,
        width: usize,
        height: usize,
    ) -> Step<Image> {
        let format = cl_image_format {
            image_channel_order: order,
            image_channel_data_type: data_type,
        };
        let desc = cl_image_desc {
            image_type: CL_MEM_OBJECT_IMAGE2D,
            image_width: width,
            image_height: height,
            image_depth: 1,
            image_array_size: 1,
            image_row_pitch: 0,
            image_slice_pitch: 0,
            num_mip_levels: 0,
            num_samples: 0,
            buffer: ptr::null_mut(),
        };
        // SAFETY: the format and descriptor outlive the call; no host
        // pointer and no host-pointer flag.
        unsafe { Image::create(&self.context, flags, &format, &desc, ptr::null_mut()) }.map_err(
            |e| match e.0 {
                opencl3::error_codes::CL_IMAGE_FORMAT_NOT_SUPPORTED
                | opencl3::error_codes::CL_INVALID_OPERATION => {
                    Failure::Unsupported(format!("clCreateImage: {e}"))
                }
                _ => Failure::cl("clCreateImage", e),
            },
        )
    }

    /// A blocking write of the whole `width` x `height` image from tightly
    /// packed `texels`.
    pub fn write_image2d<T>(
        &self,
        image: &mut Image,
        width: usize,
        height: usize,
        texels: &[T],
    ) -> Step<()> {
        let origin = [0usize; 3];
        let region = [width, height, 1];
        // SAFETY: blocking, so `texels` outlives the transfer; callers size
        // it to the region in the image's texel size.
        unsafe {
            self.queue.enqueue_write_image(
                image,
                CL_BLOCKING,
                origin.as_ptr(),
                region.as_ptr(),
                0,
                0,
                texels.as_ptr().cast_mut().cast(),
                &[],
            )
        }
        .during("clEnqueueWriteImage")?;
        Ok(())
    }

    /// A blocking read of the whole `width` x `height` image into tightly
    /// packed `out`.
    pub fn read_image2d<T>(
        &self,
        image: &Image,
        width: usize,
        height: usize,
        out: &mut [T],
    ) -> Step<()> {
        let origin = [0usize; 3];
        let region = [width, height, 1];
        // SAFETY: blocking, so `out` outlives the transfer; callers size it
        // to the region in the image's texel size.
        unsafe {
            self.queue.enqueue_read_image(
                image,
                CL_BLOCKING,
                origin.as_ptr(),
                region.as_ptr(),
                0,
                0,
                out.as_mut_ptr().cast(),
                &[],
            )
        }
        .during("clEnqueueReadImage")?;
        Ok(())
    }

    pub fn finish(&self) -> Step<()> {
        self.queue.finish().during("clFinish")
    }

    /// Submits what is enqueued without waiting: needed before waiting on
    /// another queue, since an implementation may hold a queue's commands
    /// until it is flushed or finished.
    pub fn flush(&self) -> Step<()> {
        self.queue.flush().during("clFlush")
    }

    /// Whether `kernel` can run work-groups of `size` work-items here.
    pub fn check_group_size(&self, kernel: &Kernel, size: usize) -> Step<()> {
        let max = kernel
            .get_work_group_size(self.device.id())
            .during("clGetKernelWorkGroupInfo")?;
        if max < size {
            return Err(Failure::Unsupported(format!(
                "needs work-groups of {size}, kernel allows {max}"
            )));
        }
        Ok(())
    }
}

/// The line of a build log worth showing: the first that says "error",
/// else the first non-empty one.
pub fn first_error_line(log: &str) -> String {
    let lines = || log.lines().map(str::trim).filter(|l| !l.is_empty());
    lines()
        .find(|l| l.to_lowercase().contains("error"))
        .or_else(|| lines().next())
        .unwrap_or("build failed with an empty log")
        .to_string()
}

/// `source` with `CLCOMPARE_NONCE` defined to a value unique to this call.
/// Sources use it in a branch that never runs (the value is above 2^31,
/// beyond any index they see) so that the generated code, not only the
/// text, differs: no compiler cache (PoCL's kernel cache, a driver's
/// shader or compute cache keyed on SPIR-V or PTX) can answer the build.
pub fn uncached(source: &str) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mixed = (nanos ^ (u64::from(std::process::id()) << 32))
        .wrapping_add(n)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let nonce = 0x8000_0000 | (mixed >> 33) as u32;
    format!("#define CLCOMPARE_NONCE 0x{nonce:08x}u\n{source}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_error_line_prefers_errors() {
        let log = "\nk.cl:3:5: warning: unused\nk.cl:9:1: error: 'rsqrt' is not supported\n";
        assert_eq!(
            first_error_line(log),
            "k.cl:9:1: error: 'rsqrt' is not supported"
        );
        assert_eq!(first_error_line("  \nsomething odd\n"), "something odd");
        assert_eq!(first_error_line(""), "build failed with an empty log");
    }

    #[test]
    fn uncached_sources_differ() {
        let a = uncached("kernel void k() {}");
        let b = uncached("kernel void k() {}");
        assert_ne!(a, b);
        assert!(a.starts_with("#define CLCOMPARE_NONCE 0x"));
        assert!(a.ends_with("u\nkernel void k() {}"));
    }
}
