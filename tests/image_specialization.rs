//! One kernel object launched in turn with images of different formats and
//! sizes and with different samplers, through the loader and the C ABI,
//! each result checked against the host model of images: a kernel's
//! pipeline is specialised on its images' formats and its samplers, so a
//! launch that reused a pipeline made for another format or sampler would
//! read or write wrong values here. Validation is fatal.

mod common;

use std::ffi::c_void;
use std::ptr;

use common::image_api::{
    clCreateImage, clCreateSampler, clEnqueueReadImage, clReleaseMemObject, clReleaseSampler,
    ImageDesc, ImageFormat, Sampler as ClSampler, CL_ADDRESS_CLAMP, CL_ADDRESS_CLAMP_TO_EDGE,
    CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, CL_FILTER_NEAREST, CL_MEM_COPY_HOST_PTR, CL_MEM_READ_ONLY,
    CL_MEM_WRITE_ONLY, CL_SUCCESS, IMAGE2D,
};
use common::image_model::{
    Addressing, Dim, Filter, Format, Image, Sampler, Texel, CL_BGRA, CL_FLOAT, CL_HALF_FLOAT, CL_R,
    CL_RGBA, CL_UNORM_INT8,
};
use opencl3::kernel::Kernel;
use opencl3::memory::{Buffer, ClMem};
use opencl3::program::Program;
use opencl3::types::{cl_context, cl_mem, cl_uint};

/// Each work-item reads `src` with sampler `s` at its coordinates (given,
/// so that the host computes them alike), stores the value and writes it
/// to `dst`; work-item 0 also reports the formats the kernel sees.
const SOURCE: &str = r#"
    __kernel void resample(read_only image2d_t src, sampler_t s, write_only image2d_t dst,
                           global const float2 *coords, global float4 *values,
                           global int *formats) {
        int x = get_global_id(0), y = get_global_id(1);
        int i = y * get_image_width(dst) + x;
        float4 v = read_imagef(src, s, coords[i]);
        values[i] = v;
        write_imagef(dst, (int2)(x, y), v);
        if (i == 0) {
            formats[0] = get_image_channel_order(src);
            formats[1] = get_image_channel_data_type(src);
            formats[2] = get_image_channel_order(dst);
            formats[3] = get_image_channel_data_type(dst);
        }
    }
"#;

/// One launch: the source image's format and size, the destination's
/// format and size (the NDRange), and the sampler.
struct Case {
    src: Format,
    src_size: [usize; 2],
    dst: Format,
    dst_size: [usize; 2],
    sampler: Sampler,
}

/// A small deterministic generator (xorshift32).
struct Noise(u32);

impl Noise {
    fn unit(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        (self.0 >> 8) as f32 / (1u32 << 24) as f32
    }
}

/// An image of `format` and `size` with values in [0, 1) in every
/// channel, stored as the format stores them.
fn source_image(format: Format, size: [usize; 2], noise: &mut Noise) -> Image {
    let mut image = Image::new(format, Dim::D2, [size[0], size[1], 1], 1);
    for y in 0..size[1] as i32 {
        for x in 0..size[0] as i32 {
            let value = [noise.unit(), noise.unit(), noise.unit(), noise.unit()];
            image.write([x, y, 0, 0], Texel::Float(value));
        }
    }
    image
}

fn cl_sampler_of(context: cl_context, sampler: &Sampler) -> ClSampler {
    let addressing = match sampler.addressing {
        Addressing::ClampToEdge => CL_ADDRESS_CLAMP_TO_EDGE,
        Addressing::Clamp => CL_ADDRESS_CLAMP,
        Addressing::Repeat => CL_ADDRESS_REPEAT,
        other => panic!("{other:?} is not used here"),
    };
    let filter = match sampler.filter {
        Filter::Nearest => CL_FILTER_NEAREST,
        Filter::Linear => CL_FILTER_LINEAR,
    };
    let mut status = 0;
    // SAFETY: a live context and a status out-pointer.
    let s = unsafe {
        clCreateSampler(
            context,
            cl_uint::from(sampler.normalized),
            addressing,
            filter,
            &mut status,
        )
    };
    assert_eq!(status, CL_SUCCESS, "clCreateSampler");
    s
}

fn cl_image(
    context: cl_context,
    flags: u64,
    format: Format,
    size: [usize; 2],
    data: Option<&[u8]>,
) -> cl_mem {
    let desc = ImageDesc {
        image_type: IMAGE2D,
        width: size[0],
        height: size[1],
        depth: 1,
        array_size: 1,
        row_pitch: 0,
        slice_pitch: 0,
        num_mip_levels: 0,
        num_samples: 0,
        buffer: ptr::null_mut(),
    };
    let cl_format = ImageFormat {
        order: format.order,
        data_type: format.data_type,
    };
    let (flags, host) = match data {
        Some(bytes) => (flags | CL_MEM_COPY_HOST_PTR, bytes.as_ptr() as *mut c_void),
        None => (flags, ptr::null_mut()),
    };
    let mut status = 0;
    // SAFETY: the descriptors outlive the call, and `host`, when given,
    // holds a tightly packed image of this format and size, copied now.
    let image = unsafe { clCreateImage(context, flags, &cl_format, &desc, host, &mut status) };
    assert_eq!(status, CL_SUCCESS, "clCreateImage of {format:?}");
    image
}

/// The texels of a 2D image, tightly packed.
fn read_image(queue: *mut c_void, image: cl_mem, format: Format, size: [usize; 2]) -> Vec<u8> {
    let mut bytes = vec![0u8; size[0] * size[1] * format.element_size()];
    let origin = [0usize; 3];
    let region = [size[0], size[1], 1];
    // SAFETY: blocking, into a buffer the size of the whole image.
    let status = unsafe {
        clEnqueueReadImage(
            queue,
            image,
            1,
            origin.as_ptr(),
            region.as_ptr(),
            0,
            0,
            bytes.as_mut_ptr().cast(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    assert_eq!(status, CL_SUCCESS, "clEnqueueReadImage");
    bytes
}

/// The coordinates work-item (x, y) of a `dst_size` launch reads `src`
/// at: texel centres scaled onto the source (normalized when the sampler
/// is), pushed past the edges so that addressing matters.
fn coordinates(case: &Case) -> Vec<[f32; 2]> {
    let [w, h] = case.dst_size;
    let mut out = Vec::with_capacity(w * h);
    for y in 0..h {
        for x in 0..w {
            // From -0.25 to 1.25 of the source across the launch.
            let fx = (x as f32 + 0.5) / w as f32 * 1.5 - 0.25;
            let fy = (y as f32 + 0.5) / h as f32 * 1.5 - 0.25;
            out.push(if case.sampler.normalized {
                [fx, fy]
            } else {
                [fx * case.src_size[0] as f32, fy * case.src_size[1] as f32]
            });
        }
    }
    out
}

#[test]
fn one_kernel_follows_its_images_formats_and_samplers() {
    let (context, queue) = common::context_and_queue();
    let program = Program::create_and_build_from_source(&context, SOURCE, "")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"));
    let kernel = Kernel::create(&program, "resample").expect("kernel");
    let nearest_edge = Sampler {
        normalized: false,
        addressing: Addressing::ClampToEdge,
        filter: Filter::Nearest,
    };
    let linear_repeat = Sampler {
        normalized: true,
        addressing: Addressing::Repeat,
        filter: Filter::Linear,
    };
    let linear_border = Sampler {
        normalized: false,
        addressing: Addressing::Clamp,
        filter: Filter::Linear,
    };
    let rgba8 = Format::new(CL_RGBA, CL_UNORM_INT8);
    let bgra8 = Format::new(CL_BGRA, CL_UNORM_INT8);
    let r32f = Format::new(CL_R, CL_FLOAT);
    let rgba16f = Format::new(CL_RGBA, CL_HALF_FLOAT);
    // Formats and samplers change one at a time and together, and the
    // first combination comes back at the end (its cached pipeline).
    let cases = [
        (rgba8, [13, 7], bgra8, [11, 9], nearest_edge),
        (bgra8, [13, 7], rgba8, [11, 9], nearest_edge),
        (r32f, [9, 10], rgba8, [11, 9], nearest_edge),
        (r32f, [9, 10], rgba8, [11, 9], linear_repeat),
        (rgba8, [16, 5], r32f, [7, 12], linear_border),
        (rgba16f, [6, 6], bgra8, [11, 9], linear_repeat),
        (rgba8, [13, 7], bgra8, [11, 9], nearest_edge),
    ]
    .map(|(src, src_size, dst, dst_size, sampler)| Case {
        src,
        src_size,
        dst,
        dst_size,
        sampler,
    });
    let mut noise = Noise(0x2545_f491);
    for (n, case) in cases.iter().enumerate() {
        let source = source_image(case.src, case.src_size, &mut noise);
        let src = cl_image(
            context.get(),
            CL_MEM_READ_ONLY,
            case.src,
            case.src_size,
            Some(&source.data),
        );
        let dst = cl_image(
            context.get(),
            CL_MEM_WRITE_ONLY,
            case.dst,
            case.dst_size,
            None,
        );
        let sampler = cl_sampler_of(context.get(), &case.sampler);
        let coords = coordinates(case);
        let items = coords.len();
        let coords_buffer: Buffer<[f32; 2]> = common::buffer_with(&context, &queue, &coords);
        let values: Buffer<[f32; 4]> =
            common::buffer_with(&context, &queue, &vec![[0.0; 4]; items]);
        let formats: Buffer<i32> = common::buffer_with(&context, &queue, &[0; 4]);
        common::launch::set_arg(&kernel, 0, &src);
        common::launch::set_arg(&kernel, 1, &sampler);
        common::launch::set_arg(&kernel, 2, &dst);
        common::launch::set_arg(&kernel, 3, &coords_buffer.get());
        common::launch::set_arg(&kernel, 4, &values.get());
        common::launch::set_arg(&kernel, 5, &formats.get());
        let global = case.dst_size;
        // SAFETY: every argument is set to an object of its type, the
        // buffers hold one element per work-item, and `global` outlives
        // the call.
        unsafe {
            queue.enqueue_nd_range_kernel(
                kernel.get(),
                2,
                ptr::null(),
                global.as_ptr(),
                ptr::null(),
                &[],
            )
        }
        .expect("launch");
        queue.finish().expect("finish");

        let what = format!(
            "case {n}: {:?} {:?} -> {:?} {:?}, {:?}",
            case.src, case.src_size, case.dst, case.dst_size, case.sampler
        );
        let reported = common::read_buffer(&queue, &formats, 4);
        let expected_formats = [
            case.src.order,
            case.src.data_type,
            case.dst.order,
            case.dst.data_type,
        ]
        .map(|w| w as i32);
        assert_eq!(
            reported, expected_formats,
            "{what}: the formats the kernel sees"
        );

        let read = common::read_buffer(&queue, &values, items);
        let mut expected_dst = Image::new(
            case.dst,
            Dim::D2,
            [case.dst_size[0], case.dst_size[1], 1],
            1,
        );
        for (i, (got, coord)) in read.iter().zip(&coords).enumerate() {
            let expected = source
                .sample(&case.sampler, [coord[0], coord[1], 0.0, 0.0])
                .float();
            // Vulkan lets a driver's normalized-to-float conversion miss
            // the nearest float (lavapipe multiplies by 1/255), and linear
            // filtering's sums may round differently in the last bits; a
            // wrong format or sampler is off by far more.
            let close = got
                .iter()
                .zip(&expected)
                .all(|(a, b)| (a - b).abs() <= 1e-6);
            assert!(
                close,
                "{what}: work-item {i} at {coord:?} read {got:?}, the model {expected:?}"
            );
            let (x, y) = (i % case.dst_size[0], i / case.dst_size[0]);
            expected_dst.write([x as i32, y as i32, 0, 0], Texel::Float(*got));
        }
        let written = read_image(queue.get(), dst, case.dst, case.dst_size);
        assert!(
            written == expected_dst.data,
            "{what}: the destination's texels differ from the model's encoding of the values read"
        );

        // SAFETY: objects made above, no longer used by any command.
        unsafe {
            clReleaseSampler(sampler);
            clReleaseMemObject(src);
            clReleaseMemObject(dst);
        }
    }
}
