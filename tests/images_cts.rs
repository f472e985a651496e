//! Regressions the OpenCL-CTS image suites found, through the loader and
//! the C ABI with validation fatal: each test is the smallest form of what
//! a CTS sub-test does that clvulkan once got wrong.

mod common;

use std::ffi::c_void;
use std::ptr;

use opencl3::types::{cl_context, cl_int, cl_mem};

#[repr(C)]
#[derive(Clone, Copy)]
struct ImageFormat {
    order: u32,
    data_type: u32,
}

/// `cl_image_desc`.
#[repr(C)]
#[derive(Clone, Copy)]
struct ImageDesc {
    image_type: u32,
    width: usize,
    height: usize,
    depth: usize,
    array_size: usize,
    row_pitch: usize,
    slice_pitch: usize,
    num_mip_levels: u32,
    num_samples: u32,
    buffer: cl_mem,
}

#[link(name = "OpenCL")]
extern "C" {
    fn clCreateImage(
        context: cl_context,
        flags: u64,
        format: *const ImageFormat,
        desc: *const ImageDesc,
        host_ptr: *mut c_void,
        errcode_ret: *mut cl_int,
    ) -> cl_mem;
    fn clCreateBuffer(
        context: cl_context,
        flags: u64,
        size: usize,
        host_ptr: *mut c_void,
        errcode_ret: *mut cl_int,
    ) -> cl_mem;
    fn clReleaseMemObject(mem: cl_mem) -> cl_int;
    fn clGetImageInfo(
        image: cl_mem,
        name: u32,
        size: usize,
        value: *mut c_void,
        size_ret: *mut usize,
    ) -> cl_int;
}

const CL_SUCCESS: cl_int = 0;
const CL_INVALID_IMAGE_DESCRIPTOR: cl_int = -65;
const CL_MEM_READ_WRITE: u64 = 1;
const IMAGE1D: u32 = 0x10F4;
const IMAGE1D_BUFFER: u32 = 0x10F6;
const CL_RGBA: u32 = 0x10B5;
const CL_UNORM_INT8: u32 = 0x10D2;
const CL_IMAGE_ROW_PITCH: u32 = 0x1112;

/// `clCreateImage`'s status, and the image's `CL_IMAGE_ROW_PITCH` when it
/// was made (the image is released).
fn create(context: cl_context, desc: ImageDesc) -> (cl_int, Option<usize>) {
    let format = ImageFormat {
        order: CL_RGBA,
        data_type: CL_UNORM_INT8,
    };
    let mut status = 0;
    // SAFETY: a live context; format and desc are valid for the call; no
    // host pointer.
    let image = unsafe {
        clCreateImage(
            context,
            CL_MEM_READ_WRITE,
            &format,
            &desc,
            ptr::null_mut(),
            &mut status,
        )
    };
    if image.is_null() {
        return (status, None);
    }
    let mut pitch = 0usize;
    // SAFETY: a live image; room for a size_t.
    let info = unsafe {
        clGetImageInfo(
            image,
            CL_IMAGE_ROW_PITCH,
            size_of::<usize>(),
            (&raw mut pitch).cast(),
            ptr::null_mut(),
        )
    };
    assert_eq!(info, CL_SUCCESS);
    // SAFETY: the image made above, released once.
    assert_eq!(unsafe { clReleaseMemObject(image) }, CL_SUCCESS);
    (status, Some(pitch))
}

/// kernel_image_methods 1Dbuffer and clReadWriteImage 1Dbuffer make their
/// image with `image_row_pitch` = width × element size and no host
/// pointer: the pitch describes the buffer's memory, so it is allowed (as
/// for a 2D image from a buffer), checked like a host pitch, and the image
/// stays one packed row of the buffer. A plain 1D image without a host
/// pointer still refuses a pitch.
#[test]
fn a_1d_buffer_image_accepts_the_pitch_of_its_buffer() {
    let (context, _queue) = common::context_and_queue();
    let width = 37;
    let packed = width * 4;
    let mut status = 0;
    // SAFETY: a live context; no host pointer.
    let buffer = unsafe {
        clCreateBuffer(
            context.get(),
            CL_MEM_READ_WRITE,
            2 * packed,
            ptr::null_mut(),
            &mut status,
        )
    };
    assert_eq!(status, CL_SUCCESS);
    let desc = |image_type, row_pitch| ImageDesc {
        image_type,
        width,
        height: 1,
        depth: 1,
        array_size: 0,
        row_pitch,
        slice_pitch: 0,
        num_mip_levels: 0,
        num_samples: 0,
        buffer: if image_type == IMAGE1D_BUFFER {
            buffer
        } else {
            ptr::null_mut()
        },
    };
    let cases = [
        (
            "1D buffer, packed pitch",
            IMAGE1D_BUFFER,
            packed,
            CL_SUCCESS,
        ),
        (
            "1D buffer, wider pitch",
            IMAGE1D_BUFFER,
            2 * packed,
            CL_SUCCESS,
        ),
        ("1D buffer, no pitch", IMAGE1D_BUFFER, 0, CL_SUCCESS),
        (
            "1D buffer, pitch below a row",
            IMAGE1D_BUFFER,
            packed - 4,
            CL_INVALID_IMAGE_DESCRIPTOR,
        ),
        (
            "1D buffer, pitch not of whole texels",
            IMAGE1D_BUFFER,
            packed + 2,
            CL_INVALID_IMAGE_DESCRIPTOR,
        ),
        (
            "1D image, pitch without host memory",
            IMAGE1D,
            packed,
            CL_INVALID_IMAGE_DESCRIPTOR,
        ),
    ];
    for (what, image_type, row_pitch, expected) in cases {
        let (status, pitch) = create(context.get(), desc(image_type, row_pitch));
        assert_eq!(status, expected, "{what}");
        if expected == CL_SUCCESS {
            assert_eq!(pitch, Some(packed), "{what}: CL_IMAGE_ROW_PITCH");
        }
    }
    // SAFETY: the buffer made above, released once.
    assert_eq!(unsafe { clReleaseMemObject(buffer) }, CL_SUCCESS);
}
