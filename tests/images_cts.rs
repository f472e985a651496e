//! Regressions the OpenCL-CTS image suites found, through the loader and
//! the C ABI with validation fatal: each test is the smallest form of what
//! a CTS sub-test does that clvulkan once got wrong.

mod common;

use std::ptr;

use common::image_api::{
    clCreateBuffer, clCreateImage, clGetImageInfo, clReleaseMemObject, ImageDesc, ImageFormat,
    CL_IMAGE_ROW_PITCH, CL_INVALID_IMAGE_DESCRIPTOR, CL_MEM_COPY_HOST_PTR, CL_MEM_READ_WRITE,
    CL_SUCCESS, IMAGE1D, IMAGE1D_BUFFER, IMAGE2D,
};
use common::image_model::{Format, CL_RGBA, CL_SBGRA, CL_SRGBA, CL_UNORM_INT8};
use opencl3::memory::{Buffer, CL_MEM_WRITE_ONLY};
use opencl3::program::Program;
use opencl3::types::{cl_context, cl_float, cl_int, CL_BLOCKING};

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

/// kernel_read_write 2D read_write float: `read_imagef` of a `read_write`
/// sRGBA or sBGRA image returns the colour channels decoded to linear, as
/// from a `read_only` one (the stored bytes were returned). Every byte
/// value is read in every channel, against the host model's decoding.
#[test]
fn read_write_srgb_images_read_linear_values() {
    let (context, queue) = common::context_and_queue();
    let source = "__kernel void k(read_write image2d_t image, __global float4 *out) {
        int x = get_global_id(0);
        out[x] = read_imagef(image, (int2)(x, 0));
    }";
    let program = Program::create_and_build_from_source(&context, source, "-cl-std=CL3.0")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"));
    let width = 256;
    // Texel x: each channel a different permutation of the bytes.
    let mut bytes: Vec<u8> = (0..width)
        .flat_map(|x| {
            let x = x as u8;
            [x, 255 - x, x ^ 0x5a, x.wrapping_mul(7)]
        })
        .collect();
    for order in [CL_SRGBA, CL_SBGRA] {
        let format = ImageFormat {
            order,
            data_type: CL_UNORM_INT8,
        };
        let desc = ImageDesc {
            image_type: IMAGE2D,
            width,
            height: 1,
            depth: 1,
            array_size: 0,
            row_pitch: 0,
            slice_pitch: 0,
            num_mip_levels: 0,
            num_samples: 0,
            buffer: ptr::null_mut(),
        };
        let mut status = 0;
        // SAFETY: a live context; format, desc and the host bytes (one
        // packed row of `width` texels) are valid for the call.
        let image = unsafe {
            clCreateImage(
                context.get(),
                CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                &format,
                &desc,
                bytes.as_mut_ptr().cast(),
                &mut status,
            )
        };
        assert_eq!(status, CL_SUCCESS, "create {order:#x}");
        // SAFETY: no host pointer; the size is that of `width` float4s.
        let out = unsafe {
            Buffer::<[cl_float; 4]>::create(&context, CL_MEM_WRITE_ONLY, width, ptr::null_mut())
        }
        .expect("output buffer");
        common::launch::launch(&queue, &program, "k", width, |execute| {
            // SAFETY: the kernel's parameters are an image and a buffer.
            unsafe {
                execute.set_arg(&image).set_arg(&out);
            }
        });
        let mut got = vec![[0.0f32; 4]; width];
        // SAFETY: a blocking read of the whole buffer into `got`.
        unsafe { queue.enqueue_read_buffer(&out, CL_BLOCKING, 0, &mut got, &[]) }
            .expect("read back");
        let model = Format::new(order, CL_UNORM_INT8);
        for (x, got) in got.iter().enumerate() {
            let expected = model.decode(&bytes[4 * x..4 * x + 4]).float();
            for c in 0..4 {
                // The decode's powr is the device's pow, not correctly
                // rounded (lavapipe is off by ~10 ulps); a missing decode
                // is off by up to 0.3.
                let tolerance = 1e-5 * expected[c].abs() + 1e-7;
                assert!(
                    (got[c] - expected[c]).abs() <= tolerance,
                    "{order:#x} texel {x} channel {c}: got {}, expected {}",
                    got[c],
                    expected[c]
                );
            }
        }
        // SAFETY: the image made above, released once.
        assert_eq!(unsafe { clReleaseMemObject(image) }, CL_SUCCESS);
    }
}
