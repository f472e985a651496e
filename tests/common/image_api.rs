//! The image and sampler entry points of the C API, called through the
//! loader, for the tests that run image kernels: creating images of each
//! type, moving their texels, samplers, and setting kernel arguments with
//! the status the runtime returns (so a test can check error codes).

#![allow(dead_code)]

use std::ffi::c_void;
use std::ptr;

use opencl3::types::{cl_command_queue, cl_context, cl_int, cl_kernel, cl_mem, cl_uint};

use super::image_model::{Dim, Format};

pub type Sampler = *mut c_void;

/// `cl_image_format`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageFormat {
    pub order: u32,
    pub data_type: u32,
}

/// `cl_image_desc`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ImageDesc {
    pub image_type: u32,
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub array_size: usize,
    pub row_pitch: usize,
    pub slice_pitch: usize,
    pub num_mip_levels: u32,
    pub num_samples: u32,
    pub buffer: cl_mem,
}

#[link(name = "OpenCL")]
extern "C" {
    pub fn clCreateImage(
        context: cl_context,
        flags: u64,
        format: *const ImageFormat,
        desc: *const ImageDesc,
        host_ptr: *mut c_void,
        errcode_ret: *mut cl_int,
    ) -> cl_mem;
    pub fn clCreateBuffer(
        context: cl_context,
        flags: u64,
        size: usize,
        host_ptr: *mut c_void,
        errcode_ret: *mut cl_int,
    ) -> cl_mem;
    pub fn clReleaseMemObject(mem: cl_mem) -> cl_int;
    pub fn clGetSupportedImageFormats(
        context: cl_context,
        flags: u64,
        image_type: u32,
        num_entries: cl_uint,
        formats: *mut ImageFormat,
        num_formats: *mut cl_uint,
    ) -> cl_int;
    pub fn clEnqueueReadImage(
        queue: cl_command_queue,
        image: cl_mem,
        blocking: cl_uint,
        origin: *const usize,
        region: *const usize,
        row_pitch: usize,
        slice_pitch: usize,
        ptr: *mut c_void,
        num_events: cl_uint,
        events: *const c_void,
        event: *mut c_void,
    ) -> cl_int;
    pub fn clEnqueueWriteImage(
        queue: cl_command_queue,
        image: cl_mem,
        blocking: cl_uint,
        origin: *const usize,
        region: *const usize,
        row_pitch: usize,
        slice_pitch: usize,
        ptr: *const c_void,
        num_events: cl_uint,
        events: *const c_void,
        event: *mut c_void,
    ) -> cl_int;
    pub fn clEnqueueReadBuffer(
        queue: cl_command_queue,
        buffer: cl_mem,
        blocking: cl_uint,
        offset: usize,
        size: usize,
        ptr: *mut c_void,
        num_events: cl_uint,
        events: *const c_void,
        event: *mut c_void,
    ) -> cl_int;
    pub fn clEnqueueWriteBuffer(
        queue: cl_command_queue,
        buffer: cl_mem,
        blocking: cl_uint,
        offset: usize,
        size: usize,
        ptr: *const c_void,
        num_events: cl_uint,
        events: *const c_void,
        event: *mut c_void,
    ) -> cl_int;
    pub fn clCreateSampler(
        context: cl_context,
        normalized: cl_uint,
        addressing: u32,
        filter: u32,
        errcode_ret: *mut cl_int,
    ) -> Sampler;
    pub fn clCreateSamplerWithProperties(
        context: cl_context,
        properties: *const u64,
        errcode_ret: *mut cl_int,
    ) -> Sampler;
    pub fn clReleaseSampler(sampler: Sampler) -> cl_int;
    pub fn clSetKernelArg(
        kernel: cl_kernel,
        index: cl_uint,
        size: usize,
        value: *const c_void,
    ) -> cl_int;
    pub fn clGetImageInfo(
        image: cl_mem,
        name: u32,
        size: usize,
        value: *mut c_void,
        size_ret: *mut usize,
    ) -> cl_int;
    pub fn clCreateImage2D(
        context: cl_context,
        flags: u64,
        format: *const ImageFormat,
        width: usize,
        height: usize,
        row_pitch: usize,
        host_ptr: *mut c_void,
        errcode_ret: *mut cl_int,
    ) -> cl_mem;
    pub fn clGetMemObjectInfo(
        mem: cl_mem,
        name: u32,
        size: usize,
        value: *mut c_void,
        size_ret: *mut usize,
    ) -> cl_int;
    pub fn clEnqueueCopyImage(
        queue: cl_command_queue,
        src: cl_mem,
        dst: cl_mem,
        src_origin: *const usize,
        dst_origin: *const usize,
        region: *const usize,
        num_events: cl_uint,
        events: *const c_void,
        event: *mut c_void,
    ) -> cl_int;
    pub fn clEnqueueFillImage(
        queue: cl_command_queue,
        image: cl_mem,
        color: *const c_void,
        origin: *const usize,
        region: *const usize,
        num_events: cl_uint,
        events: *const c_void,
        event: *mut c_void,
    ) -> cl_int;
    pub fn clEnqueueCopyImageToBuffer(
        queue: cl_command_queue,
        image: cl_mem,
        buffer: cl_mem,
        origin: *const usize,
        region: *const usize,
        offset: usize,
        num_events: cl_uint,
        events: *const c_void,
        event: *mut c_void,
    ) -> cl_int;
    pub fn clEnqueueCopyBufferToImage(
        queue: cl_command_queue,
        buffer: cl_mem,
        image: cl_mem,
        offset: usize,
        origin: *const usize,
        region: *const usize,
        num_events: cl_uint,
        events: *const c_void,
        event: *mut c_void,
    ) -> cl_int;
    pub fn clEnqueueMapImage(
        queue: cl_command_queue,
        image: cl_mem,
        blocking: cl_uint,
        flags: u64,
        origin: *const usize,
        region: *const usize,
        row_pitch: *mut usize,
        slice_pitch: *mut usize,
        num_events: cl_uint,
        events: *const c_void,
        event: *mut c_void,
        errcode_ret: *mut cl_int,
    ) -> *mut c_void;
    pub fn clEnqueueUnmapMemObject(
        queue: cl_command_queue,
        mem: cl_mem,
        ptr: *mut c_void,
        num_events: cl_uint,
        events: *const c_void,
        event: *mut c_void,
    ) -> cl_int;
    pub fn clFinish(queue: cl_command_queue) -> cl_int;
    pub fn clCreateUserEvent(context: cl_context, errcode_ret: *mut cl_int) -> *mut c_void;
    pub fn clSetUserEventStatus(event: *mut c_void, status: cl_int) -> cl_int;
    pub fn clReleaseEvent(event: *mut c_void) -> cl_int;
    pub fn clEnqueueMigrateMemObjects(
        queue: cl_command_queue,
        count: cl_uint,
        mems: *const cl_mem,
        flags: u64,
        num_events: cl_uint,
        events: *const c_void,
        event: *mut c_void,
    ) -> cl_int;
    pub fn clGetSamplerInfo(
        sampler: Sampler,
        name: u32,
        size: usize,
        value: *mut c_void,
        size_ret: *mut usize,
    ) -> cl_int;
    pub fn clRetainSampler(sampler: Sampler) -> cl_int;
}

pub const CL_SUCCESS: cl_int = 0;
pub const CL_INVALID_ARG_VALUE: cl_int = -50;
pub const CL_INVALID_SAMPLER: cl_int = -41;
pub const CL_INVALID_MEM_OBJECT: cl_int = -38;
pub const CL_INVALID_ARG_SIZE: cl_int = -51;

pub const CL_MEM_READ_WRITE: u64 = 1;
pub const CL_MEM_WRITE_ONLY: u64 = 2;
pub const CL_MEM_READ_ONLY: u64 = 4;
pub const CL_MEM_KERNEL_READ_AND_WRITE: u64 = 1 << 12;
pub const CL_MEM_COPY_HOST_PTR: u64 = 1 << 5;
pub const CL_INVALID_IMAGE_DESCRIPTOR: cl_int = -65;
pub const CL_IMAGE_ROW_PITCH: u32 = 0x1112;

pub const IMAGE2D: u32 = 0x10F1;
pub const IMAGE3D: u32 = 0x10F2;
pub const IMAGE2D_ARRAY: u32 = 0x10F3;
pub const IMAGE1D: u32 = 0x10F4;
pub const IMAGE1D_ARRAY: u32 = 0x10F5;
pub const IMAGE1D_BUFFER: u32 = 0x10F6;

pub const CL_ADDRESS_NONE: u32 = 0x1130;
pub const CL_ADDRESS_CLAMP_TO_EDGE: u32 = 0x1131;
pub const CL_ADDRESS_CLAMP: u32 = 0x1132;
pub const CL_ADDRESS_REPEAT: u32 = 0x1133;
pub const CL_ADDRESS_MIRRORED_REPEAT: u32 = 0x1134;
pub const CL_FILTER_NEAREST: u32 = 0x1140;
pub const CL_FILTER_LINEAR: u32 = 0x1141;
pub const CL_SAMPLER_NORMALIZED_COORDS: u64 = 0x1152;
pub const CL_SAMPLER_ADDRESSING_MODE: u64 = 0x1153;
pub const CL_SAMPLER_FILTER_MODE: u64 = 0x1154;

/// The `cl_mem_object_type` of each image type.
pub fn image_type(dim: Dim) -> u32 {
    match dim {
        Dim::D1 => IMAGE1D,
        Dim::D1Buffer => IMAGE1D_BUFFER,
        Dim::D1Array => IMAGE1D_ARRAY,
        Dim::D2 => IMAGE2D,
        Dim::D2Array => IMAGE2D_ARRAY,
        Dim::D3 => IMAGE3D,
    }
}

pub const DIMS: [Dim; 6] = [
    Dim::D1,
    Dim::D1Buffer,
    Dim::D1Array,
    Dim::D2,
    Dim::D2Array,
    Dim::D3,
];

/// An image and, for a 1D buffer image, the buffer under it; both released
/// on drop.
pub struct Image {
    pub mem: cl_mem,
    pub buffer: Option<cl_mem>,
    /// The model's extents: width, height, depth, layers.
    pub size: [usize; 3],
    pub array_size: usize,
    pub dim: Dim,
}

impl Image {
    /// The API region of the whole image.
    pub fn region(&self) -> [usize; 3] {
        match self.dim {
            Dim::D1 | Dim::D1Buffer => [self.size[0], 1, 1],
            Dim::D1Array => [self.size[0], self.array_size, 1],
            Dim::D2 => [self.size[0], self.size[1], 1],
            Dim::D2Array => [self.size[0], self.size[1], self.array_size],
            Dim::D3 => self.size,
        }
    }

    pub fn texels(&self) -> usize {
        self.region().iter().product()
    }
}

impl Drop for Image {
    fn drop(&mut self) {
        // SAFETY: this object owns one reference to each.
        unsafe {
            clReleaseMemObject(self.mem);
            if let Some(b) = self.buffer {
                clReleaseMemObject(b);
            }
        }
    }
}

/// A sampler released on drop.
pub struct OwnedSampler(pub Sampler);

impl Drop for OwnedSampler {
    fn drop(&mut self) {
        // SAFETY: this object owns one reference.
        unsafe { clReleaseSampler(self.0) };
    }
}

pub struct Fixture {
    pub context: opencl3::context::Context,
    pub queue: opencl3::command_queue::CommandQueue,
}

impl Fixture {
    pub fn new() -> Fixture {
        let (context, queue) = super::context_and_queue();
        Fixture { context, queue }
    }

    pub fn ctx(&self) -> cl_context {
        self.context.get()
    }

    pub fn q(&self) -> cl_command_queue {
        self.queue.get()
    }

    /// The device's extensions string.
    pub fn extensions(&self) -> String {
        let id = self.context.devices()[0];
        opencl3::device::Device::new(id)
            .extensions()
            .expect("extensions")
    }

    pub fn formats(&self, flags: u64, dim: Dim) -> Vec<Format> {
        supported_formats(self.ctx(), flags, image_type(dim))
            .into_iter()
            .map(|f| Format::new(f.order, f.data_type))
            .collect()
    }

    pub fn buffer(&self, size: usize) -> cl_mem {
        let mut status = 0;
        // SAFETY: a live context, no host pointer.
        let buffer = unsafe {
            clCreateBuffer(
                self.ctx(),
                CL_MEM_READ_WRITE,
                size,
                ptr::null_mut(),
                &mut status,
            )
        };
        assert_eq!(status, CL_SUCCESS);
        buffer
    }

    pub fn release(&self, mem: cl_mem) {
        // SAFETY: the caller owns a reference to `mem`.
        unsafe { clReleaseMemObject(mem) };
    }

    /// An image of `dim` with `size` (width, height, depth) and
    /// `array_size` layers; a 1D buffer image gets a buffer of its own.
    pub fn image(
        &self,
        flags: u64,
        format: Format,
        dim: Dim,
        size: [usize; 3],
        array_size: usize,
    ) -> Image {
        let element = format.element_size();
        let buffer = (dim == Dim::D1Buffer).then(|| self.buffer(size[0] * element));
        let desc = ImageDesc {
            image_type: image_type(dim),
            width: size[0],
            height: if matches!(dim, Dim::D2 | Dim::D2Array | Dim::D3) {
                size[1]
            } else {
                0
            },
            depth: if dim == Dim::D3 { size[2] } else { 0 },
            array_size: if dim.arrayed() { array_size } else { 0 },
            row_pitch: 0,
            slice_pitch: 0,
            num_mip_levels: 0,
            num_samples: 0,
            buffer: buffer.unwrap_or(ptr::null_mut()),
        };
        let cl_format = ImageFormat {
            order: format.order,
            data_type: format.data_type,
        };
        let mut status = 0;
        // SAFETY: live context; valid format and description; no host
        // pointer.
        let mem = unsafe {
            clCreateImage(
                self.ctx(),
                flags,
                &cl_format,
                &desc,
                ptr::null_mut(),
                &mut status,
            )
        };
        assert_eq!(status, CL_SUCCESS, "create {dim:?} {format:x?}");
        Image {
            mem,
            buffer,
            size: [
                size[0],
                if matches!(dim, Dim::D2 | Dim::D2Array | Dim::D3) {
                    size[1]
                } else {
                    1
                },
                if dim == Dim::D3 { size[2] } else { 1 },
            ],
            array_size: if dim.arrayed() { array_size } else { 1 },
            dim,
        }
    }

    /// A 1D buffer image of `width` texels on `buffer` (which may be
    /// larger); the caller keeps the buffer.
    pub fn image_on_buffer(
        &self,
        flags: u64,
        format: Format,
        width: usize,
        buffer: cl_mem,
    ) -> Image {
        let desc = ImageDesc {
            image_type: IMAGE1D_BUFFER,
            width,
            height: 0,
            depth: 0,
            array_size: 0,
            row_pitch: 0,
            slice_pitch: 0,
            num_mip_levels: 0,
            num_samples: 0,
            buffer,
        };
        let cl_format = ImageFormat {
            order: format.order,
            data_type: format.data_type,
        };
        let mut status = 0;
        // SAFETY: live context and buffer; valid format and description.
        let mem = unsafe {
            clCreateImage(
                self.ctx(),
                flags,
                &cl_format,
                &desc,
                ptr::null_mut(),
                &mut status,
            )
        };
        assert_eq!(status, CL_SUCCESS, "create a 1D buffer image {format:x?}");
        Image {
            mem,
            buffer: None,
            size: [width, 1, 1],
            array_size: 1,
            dim: Dim::D1Buffer,
        }
    }

    /// Writes the whole image from tightly packed texels.
    pub fn write_image(&self, image: &Image, data: &[u8]) {
        let region = image.region();
        // SAFETY: blocking; `data` covers the packed region.
        let status = unsafe {
            clEnqueueWriteImage(
                self.q(),
                image.mem,
                1,
                [0usize; 3].as_ptr(),
                region.as_ptr(),
                0,
                0,
                data.as_ptr().cast(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        };
        assert_eq!(status, CL_SUCCESS, "write image");
    }

    /// The whole image, tightly packed.
    pub fn read_image(&self, image: &Image, bytes: usize) -> Vec<u8> {
        let region = image.region();
        let mut out = vec![0u8; bytes];
        // SAFETY: blocking; `out` covers the packed region.
        let status = unsafe {
            clEnqueueReadImage(
                self.q(),
                image.mem,
                1,
                [0usize; 3].as_ptr(),
                region.as_ptr(),
                0,
                0,
                out.as_mut_ptr().cast(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        };
        assert_eq!(status, CL_SUCCESS, "read image");
        out
    }

    pub fn write_buffer(&self, buffer: cl_mem, data: &[u8]) {
        // SAFETY: blocking; `data` is `data.len()` bytes.
        let status = unsafe {
            clEnqueueWriteBuffer(
                self.q(),
                buffer,
                1,
                0,
                data.len(),
                data.as_ptr().cast(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        };
        assert_eq!(status, CL_SUCCESS, "write buffer");
    }

    pub fn read_buffer(&self, buffer: cl_mem, bytes: usize) -> Vec<u8> {
        let mut out = vec![0u8; bytes];
        // SAFETY: blocking; `out` has room for `bytes`.
        let status = unsafe {
            clEnqueueReadBuffer(
                self.q(),
                buffer,
                1,
                0,
                bytes,
                out.as_mut_ptr().cast(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        };
        assert_eq!(status, CL_SUCCESS, "read buffer");
        out
    }

    pub fn sampler(&self, normalized: bool, addressing: u32, filter: u32) -> OwnedSampler {
        let mut status = 0;
        // SAFETY: a live context.
        let s = unsafe {
            clCreateSampler(
                self.ctx(),
                u32::from(normalized),
                addressing,
                filter,
                &mut status,
            )
        };
        assert_eq!(status, CL_SUCCESS, "clCreateSampler");
        OwnedSampler(s)
    }

    pub fn sampler_with_properties(
        &self,
        normalized: bool,
        addressing: u32,
        filter: u32,
    ) -> OwnedSampler {
        let properties = [
            CL_SAMPLER_NORMALIZED_COORDS,
            u64::from(normalized),
            CL_SAMPLER_ADDRESSING_MODE,
            u64::from(addressing),
            CL_SAMPLER_FILTER_MODE,
            u64::from(filter),
            0,
        ];
        let mut status = 0;
        // SAFETY: a live context; a zero-terminated property list.
        let s =
            unsafe { clCreateSamplerWithProperties(self.ctx(), properties.as_ptr(), &mut status) };
        assert_eq!(status, CL_SUCCESS, "clCreateSamplerWithProperties");
        OwnedSampler(s)
    }
}

/// `clSetKernelArg` with the value of a handle (`cl_mem`, `cl_sampler`)
/// or any plain value, returning its status.
pub fn set_arg<T>(kernel: &opencl3::kernel::Kernel, index: u32, value: &T) -> cl_int {
    // SAFETY: `value` is a live `T` of `size_of::<T>()` bytes.
    unsafe {
        clSetKernelArg(
            kernel.get(),
            index,
            std::mem::size_of::<T>(),
            (value as *const T).cast(),
        )
    }
}

/// `clSetKernelArg` with a handle's size and no value.
pub fn set_arg_null(kernel: &opencl3::kernel::Kernel, index: u32) -> cl_int {
    // SAFETY: a null value pointer is what is being tested.
    unsafe {
        clSetKernelArg(
            kernel.get(),
            index,
            std::mem::size_of::<cl_mem>(),
            ptr::null(),
        )
    }
}

/// Sets an argument and asserts that it worked.
pub fn arg<T>(kernel: &opencl3::kernel::Kernel, index: u32, value: &T) {
    assert_eq!(
        set_arg(kernel, index, value),
        CL_SUCCESS,
        "argument {index}"
    );
}

/// Runs `kernel` over `global` work-items (one dimension) and waits.
pub fn run(
    queue: &opencl3::command_queue::CommandQueue,
    kernel: &opencl3::kernel::Kernel,
    global: usize,
) {
    let global = [global];
    // SAFETY: each caller set every argument of the kernel.
    unsafe {
        queue.enqueue_nd_range_kernel(
            kernel.get(),
            1,
            ptr::null(),
            global.as_ptr(),
            ptr::null(),
            &[],
        )
    }
    .expect("launch");
    queue.finish().expect("finish");
}

/// Builds `source` with `options`, panicking with the log on failure.
pub fn build(
    context: &opencl3::context::Context,
    source: &str,
    options: &str,
) -> opencl3::program::Program {
    opencl3::program::Program::create_and_build_from_source(context, source, options)
        .unwrap_or_else(|log| panic!("build failed:\n{log}\nsource:\n{source}"))
}

/// A deterministic random stream.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u32(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }

    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next_u32() as u8).collect()
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.next_u32() as usize % n
    }
}

/// What `clGetSupportedImageFormats` lists for `flags` and `image_type`
/// in `context`.
pub fn supported_formats(context: cl_context, flags: u64, image_type: u32) -> Vec<ImageFormat> {
    let mut count = 0;
    // SAFETY: a live context; the count pointer is valid.
    let status = unsafe {
        clGetSupportedImageFormats(context, flags, image_type, 0, ptr::null_mut(), &mut count)
    };
    assert_eq!(status, CL_SUCCESS);
    let empty = ImageFormat {
        order: 0,
        data_type: 0,
    };
    let mut formats = vec![empty; count as usize];
    // SAFETY: room for `count` formats.
    let status = unsafe {
        clGetSupportedImageFormats(
            context,
            flags,
            image_type,
            count,
            formats.as_mut_ptr(),
            ptr::null_mut(),
        )
    };
    assert_eq!(status, CL_SUCCESS);
    formats
}
