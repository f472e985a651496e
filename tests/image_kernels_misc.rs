//! Image kernels beyond plain reads and writes, through the loader and the
//! C ABI (validation fatal): the `get_image_*` queries of every image type
//! against what the image was created with; `read_write` images with an
//! image fence between a write and a read of the same texel; 1D buffer
//! images sharing their buffer's memory both ways; sampled depth images;
//! and the argument checks: an image of the wrong type or access, a
//! `cl_mem` for a sampler, and the access qualifiers reported with
//! `-cl-kernel-arg-info`.

mod common;

use common::image_api::*;
use common::image_model::{self as model, Dim, Format, Texel};
use opencl3::kernel::Kernel;

/// The extents each type is created with: (width, height, depth), layers.
fn shape(dim: Dim) -> ([usize; 3], usize) {
    match dim {
        Dim::D1 => ([17, 1, 1], 1),
        Dim::D1Buffer => ([29, 1, 1], 1),
        Dim::D1Array => ([13, 1, 1], 5),
        Dim::D2 => ([11, 6, 1], 1),
        Dim::D2Array => ([9, 4, 1], 7),
        Dim::D3 => ([5, 8, 3], 1),
    }
}

fn le_words(bytes: &[u8]) -> Vec<i32> {
    bytes
        .chunks_exact(4)
        .map(|w| i32::from_le_bytes(w.try_into().unwrap()))
        .collect()
}

fn floats(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|w| f32::from_le_bytes(w.try_into().unwrap()))
        .collect()
}

const QUERY_SOURCE: &str = r#"
kernel void q_1d(read_only image1d_t img, global int *o) {
    o[0] = get_image_width(img);
    o[1] = get_image_channel_data_type(img); o[2] = get_image_channel_order(img); }
kernel void q_1db(read_only image1d_buffer_t img, global int *o) {
    o[0] = get_image_width(img);
    o[1] = get_image_channel_data_type(img); o[2] = get_image_channel_order(img); }
kernel void q_1da(read_only image1d_array_t img, global int *o) {
    o[0] = get_image_width(img); o[3] = (int)get_image_array_size(img);
    o[1] = get_image_channel_data_type(img); o[2] = get_image_channel_order(img); }
kernel void q_2d(read_only image2d_t img, global int *o) {
    o[0] = get_image_width(img); o[4] = get_image_height(img);
    int2 d = get_image_dim(img); o[5] = d.x; o[6] = d.y;
    o[1] = get_image_channel_data_type(img); o[2] = get_image_channel_order(img); }
kernel void q_2da(read_only image2d_array_t img, global int *o) {
    o[0] = get_image_width(img); o[4] = get_image_height(img);
    o[3] = (int)get_image_array_size(img);
    int2 d = get_image_dim(img); o[5] = d.x; o[6] = d.y;
    o[1] = get_image_channel_data_type(img); o[2] = get_image_channel_order(img); }
kernel void q_3d(read_only image3d_t img, global int *o) {
    o[0] = get_image_width(img); o[4] = get_image_height(img); o[7] = get_image_depth(img);
    int4 d = get_image_dim(img); o[5] = d.x; o[6] = d.y; o[8] = d.z; o[9] = d.w;
    o[1] = get_image_channel_data_type(img); o[2] = get_image_channel_order(img); }
kernel void q_2d_w(write_only image2d_t img, global int *o) {
    o[0] = get_image_width(img); o[4] = get_image_height(img);
    int2 d = get_image_dim(img); o[5] = d.x; o[6] = d.y;
    o[1] = get_image_channel_data_type(img); o[2] = get_image_channel_order(img); }
kernel void q_2d_depth(read_only image2d_depth_t img, global int *o) {
    o[0] = get_image_width(img); o[4] = get_image_height(img);
    int2 d = get_image_dim(img); o[5] = d.x; o[6] = d.y;
    o[1] = get_image_channel_data_type(img); o[2] = get_image_channel_order(img); }
kernel void q_2da_depth(read_only image2d_array_depth_t img, global int *o) {
    o[0] = get_image_width(img); o[4] = get_image_height(img);
    o[3] = (int)get_image_array_size(img);
    int2 d = get_image_dim(img); o[5] = d.x; o[6] = d.y;
    o[1] = get_image_channel_data_type(img); o[2] = get_image_channel_order(img); }
"#;

/// The words a query kernel writes for an image created as given (-1 where
/// the type has no such query): width, data type, order, array size,
/// height, dim.x, dim.y, depth, dim.z, dim.w.
fn expected_queries(dim: Dim, format: Format, size: [usize; 3], layers: usize) -> [i32; 10] {
    let mut o = [-1i32; 10];
    o[0] = size[0] as i32;
    o[1] = format.data_type as i32;
    o[2] = format.order as i32;
    if dim.arrayed() {
        o[3] = layers as i32;
    }
    if matches!(dim, Dim::D2 | Dim::D2Array | Dim::D3) {
        o[4] = size[1] as i32;
        o[5] = size[0] as i32;
        o[6] = size[1] as i32;
    }
    if dim == Dim::D3 {
        o[7] = size[2] as i32;
        o[8] = size[2] as i32;
        o[9] = 0;
    }
    o
}

fn query_kernel_name(dim: Dim) -> &'static str {
    match dim {
        Dim::D1 => "q_1d",
        Dim::D1Buffer => "q_1db",
        Dim::D1Array => "q_1da",
        Dim::D2 => "q_2d",
        Dim::D2Array => "q_2da",
        Dim::D3 => "q_3d",
    }
}

fn run_query(f: &Fixture, kernel: &Kernel, image: &Image) -> Vec<i32> {
    let out = f.buffer(40);
    f.write_buffer(out, &[0xff; 40]);
    arg(kernel, 0, &image.mem);
    arg(kernel, 1, &out);
    run(&f.queue, kernel, 1);
    let words = le_words(&f.read_buffer(out, 40));
    f.release(out);
    words
}

#[test]
fn image_queries_report_how_each_image_was_created() {
    let f = Fixture::new();
    let program = build(&f.context, QUERY_SOURCE, "");
    for dim in DIMS {
        let kernel = Kernel::create(&program, query_kernel_name(dim)).expect("kernel");
        let listed = f.formats(CL_MEM_READ_ONLY, dim);
        // A few formats of different orders and types, each listed one.
        let picks: Vec<Format> = listed
            .iter()
            .filter(|f| f.order != model::CL_DEPTH)
            .step_by(5)
            .copied()
            .collect();
        assert!(!picks.is_empty(), "{dim:?}: no formats listed");
        for format in picks {
            let (size, layers) = shape(dim);
            let image = f.image(CL_MEM_READ_ONLY, format, dim, size, layers);
            let want = expected_queries(dim, format, size, layers);
            assert_eq!(run_query(&f, &kernel, &image), want, "{dim:?} {format:x?}");
        }
    }
    // A write-only image answers the same queries.
    let format = Format::new(model::CL_RGBA, model::CL_UNSIGNED_INT8);
    let (size, layers) = shape(Dim::D2);
    let image = f.image(CL_MEM_WRITE_ONLY, format, Dim::D2, size, layers);
    let kernel = Kernel::create(&program, "q_2d_w").expect("kernel");
    assert_eq!(
        run_query(&f, &kernel, &image),
        expected_queries(Dim::D2, format, size, layers)
    );
    // Depth images, where listed.
    for (dim, name) in [(Dim::D2, "q_2d_depth"), (Dim::D2Array, "q_2da_depth")] {
        let depth: Vec<Format> = f
            .formats(CL_MEM_READ_ONLY, dim)
            .into_iter()
            .filter(|f| f.order == model::CL_DEPTH)
            .collect();
        if depth.is_empty() {
            eprintln!("{dim:?}: no CL_DEPTH format listed; depth queries not tested");
        }
        let kernel = Kernel::create(&program, name).expect("kernel");
        for format in depth {
            let (size, layers) = shape(dim);
            let image = f.image(CL_MEM_READ_ONLY, format, dim, size, layers);
            assert_eq!(
                run_query(&f, &kernel, &image),
                expected_queries(dim, format, size, layers),
                "{dim:?} {format:x?}"
            );
        }
    }
}

const READ_WRITE_SOURCE: &str = r#"
kernel void rw_f(read_write image2d_t img, global float4 *seen) {
    int2 c = (int2)(get_global_id(0), get_global_id(1));
    int i = c.y * get_image_width(img) + c.x;
    float4 v = read_imagef(img, c);
    write_imagef(img, c, v * 2.0f + 1.0f);
    atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);
    float4 w = read_imagef(img, c);
    seen[i] = w;
    write_imagef(img, c, w - 0.5f);
}
kernel void rw_ui(read_write image2d_t img, global uint4 *seen) {
    int2 c = (int2)(get_global_id(0), get_global_id(1));
    int i = c.y * get_image_width(img) + c.x;
    uint4 v = read_imageui(img, c);
    write_imageui(img, c, v + (uint4)(1, 2, 3, 300));
    atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);
    seen[i] = read_imageui(img, c);
}
"#;

/// Launches `kernel` over the whole 2D `image` with `seen` as its buffer.
fn run_2d(f: &Fixture, kernel: &Kernel, image: &Image, seen: opencl3::types::cl_mem) {
    arg(kernel, 0, &image.mem);
    arg(kernel, 1, &seen);
    let global = [image.size[0], image.size[1]];
    // SAFETY: both arguments are set; the sizes outlive the call.
    unsafe {
        f.queue.enqueue_nd_range_kernel(
            kernel.get(),
            2,
            std::ptr::null(),
            global.as_ptr(),
            std::ptr::null(),
            &[],
        )
    }
    .expect("launch");
    f.queue.finish().expect("finish");
}

#[test]
fn read_write_images_see_their_own_writes_after_an_image_fence() {
    let f = Fixture::new();
    let program = build(&f.context, READ_WRITE_SOURCE, "-cl-std=CL3.0");
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let (size, _) = shape(Dim::D2);
    let n = size[0] * size[1];

    // Floats: texels k/4, so that 2v + 1 and the -0.5 are exact.
    let format = Format::new(model::CL_RGBA, model::CL_FLOAT);
    let mut image_model = model::Image::new(format, Dim::D2, size, 1);
    for i in 0..n {
        let v = Texel::Float(std::array::from_fn(|_| (rng.below(64) as f32 - 32.0) / 4.0));
        image_model.write([(i % size[0]) as i32, (i / size[0]) as i32, 0, 0], v);
    }
    let image = f.image(CL_MEM_READ_WRITE, format, Dim::D2, size, 1);
    f.write_image(&image, &image_model.data);
    let seen = f.buffer(n * 16);
    let kernel = Kernel::create(&program, "rw_f").expect("kernel");
    run_2d(&f, &kernel, &image, seen);
    let seen_values = floats(&f.read_buffer(seen, n * 16));
    f.release(seen);
    let mut final_model = image_model.clone();
    for i in 0..n {
        let c = [(i % size[0]) as i32, (i / size[0]) as i32, 0, 0];
        let v = image_model.read(c).float();
        let written = v.map(|x| x * 2.0 + 1.0);
        assert_eq!(
            &seen_values[4 * i..4 * i + 4],
            &written,
            "texel {i}: the read after the fence"
        );
        final_model.write(c, Texel::Float(written.map(|x| x - 0.5)));
    }
    assert_eq!(
        f.read_image(&image, n * 16),
        final_model.data,
        "final texels"
    );

    // Unsigned integers saturate on the write, and the read sees that.
    let format = Format::new(model::CL_RGBA, model::CL_UNSIGNED_INT8);
    let mut image_model = model::Image::new(format, Dim::D2, size, 1);
    image_model.data = rng.bytes(n * 4);
    let image = f.image(CL_MEM_READ_WRITE, format, Dim::D2, size, 1);
    f.write_image(&image, &image_model.data);
    let seen = f.buffer(n * 16);
    let kernel = Kernel::create(&program, "rw_ui").expect("kernel");
    run_2d(&f, &kernel, &image, seen);
    let seen_values = le_words(&f.read_buffer(seen, n * 16));
    f.release(seen);
    let mut final_model = image_model.clone();
    for i in 0..n {
        let c = [(i % size[0]) as i32, (i / size[0]) as i32, 0, 0];
        let v = image_model.read(c).uint();
        let written = [v[0] + 1, v[1] + 2, v[2] + 3, v[3] + 300];
        final_model.write(c, Texel::Uint(written));
        let want = final_model.read(c).uint().map(|x| x as i32);
        assert_eq!(
            &seen_values[4 * i..4 * i + 4],
            &want,
            "texel {i}: the read after the fence"
        );
    }
    assert_eq!(
        f.read_image(&image, n * 4),
        final_model.data,
        "final texels"
    );
}

const BUFFER_IMAGE_SOURCE: &str = r#"
kernel void to_image(write_only image1d_buffer_t img, global const float4 *v) {
    int i = get_global_id(0); write_imagef(img, i, v[i]); }
kernel void from_image(read_only image1d_buffer_t img, global uint4 *out) {
    int i = get_global_id(0); out[i] = read_imageui(img, i); }
"#;

#[test]
fn buffer_images_share_their_buffers_memory() {
    let f = Fixture::new();
    let program = build(&f.context, BUFFER_IMAGE_SOURCE, "");
    let mut rng = Rng(0x0000_ddb1_a5e5);
    let width = 29;

    // A kernel writes through the image; the buffer holds the texels.
    let format = Format::new(model::CL_RGBA, model::CL_UNORM_INT8);
    let image = f.image(CL_MEM_WRITE_ONLY, format, Dim::D1Buffer, [width, 1, 1], 1);
    let values: Vec<[f32; 4]> = (0..width)
        .map(|_| std::array::from_fn(|_| rng.below(300) as f32 / 255.0 - 0.05))
        .collect();
    let payload: Vec<u8> = values
        .iter()
        .flatten()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let input = f.buffer(payload.len());
    f.write_buffer(input, &payload);
    let kernel = Kernel::create(&program, "to_image").expect("kernel");
    arg(&kernel, 0, &image.mem);
    arg(&kernel, 1, &input);
    run(&f.queue, &kernel, width);
    f.release(input);
    let buffer = image.buffer.expect("the image's buffer");
    let stored = f.read_buffer(buffer, width * 4);
    let want: Vec<u8> = values
        .iter()
        .flat_map(|v| format.encode(Texel::Float(*v)))
        .collect();
    assert_eq!(
        stored, want,
        "the buffer after write_imagef through the image"
    );

    // Bytes written to the buffer are what a kernel reads through the image.
    let format = Format::new(model::CL_RGBA, model::CL_UNSIGNED_INT16);
    let image = f.image(CL_MEM_READ_ONLY, format, Dim::D1Buffer, [width, 1, 1], 1);
    let bytes = rng.bytes(width * 8);
    f.write_buffer(image.buffer.expect("the image's buffer"), &bytes);
    let out = f.buffer(width * 16);
    let kernel = Kernel::create(&program, "from_image").expect("kernel");
    arg(&kernel, 0, &image.mem);
    arg(&kernel, 1, &out);
    run(&f.queue, &kernel, width);
    let got = le_words(&f.read_buffer(out, width * 16));
    f.release(out);
    for i in 0..width {
        let want = format.decode(&bytes[i * 8..]).uint().map(|x| x as i32);
        assert_eq!(
            &got[4 * i..4 * i + 4],
            &want,
            "texel {i} read through the image"
        );
    }
}

const DEPTH_SOURCE: &str = r#"
kernel void sample_depth(read_only image2d_depth_t img, sampler_t s, global const float2 *c, global float *out) {
    int i = get_global_id(0); out[i] = read_imagef(img, s, c[i]); }
"#;

#[test]
fn depth_images_sample_one_float() {
    let f = Fixture::new();
    let format = Format::new(model::CL_DEPTH, model::CL_FLOAT);
    if !f.formats(CL_MEM_READ_ONLY, Dim::D2).contains(&format) {
        eprintln!("CL_DEPTH CL_FLOAT is not listed for 2D images; not tested");
        return;
    }
    let program = build(&f.context, DEPTH_SOURCE, "");
    let mut rng = Rng(0xdee9_0000_1111);
    let size = [6, 5, 1];
    let mut image_model = model::Image::new(format, Dim::D2, size, 1);
    for y in 0..5 {
        for x in 0..6 {
            let v = rng.below(65) as f32 / 64.0;
            image_model.write([x, y, 0, 0], Texel::Float([v, 0.0, 0.0, 0.0]));
        }
    }
    let image = f.image(CL_MEM_READ_ONLY, format, Dim::D2, size, 1);
    f.write_image(&image, &image_model.data);
    let kernel = Kernel::create(&program, "sample_depth").expect("kernel");
    for (filter, filter_model) in [
        (CL_FILTER_NEAREST, model::Filter::Nearest),
        (CL_FILTER_LINEAR, model::Filter::Linear),
    ] {
        let sampler = f.sampler(true, CL_ADDRESS_CLAMP_TO_EDGE, filter);
        let sampler_model = model::Sampler {
            normalized: true,
            addressing: model::Addressing::ClampToEdge,
            filter: filter_model,
        };
        let coords: Vec<[f32; 2]> = (0..64)
            .map(|_| std::array::from_fn(|_| rng.below(80) as f32 / 64.0 - 0.125))
            .collect();
        let payload: Vec<u8> = coords
            .iter()
            .flatten()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let input = f.buffer(payload.len());
        f.write_buffer(input, &payload);
        let out = f.buffer(64 * 4);
        arg(&kernel, 0, &image.mem);
        arg(&kernel, 1, &sampler.0);
        arg(&kernel, 2, &input);
        arg(&kernel, 3, &out);
        run(&f.queue, &kernel, 64);
        let got = floats(&f.read_buffer(out, 64 * 4));
        f.release(input);
        f.release(out);
        for (c, got) in coords.iter().zip(got) {
            let want = image_model
                .sample(&sampler_model, [c[0], c[1], 0.0, 0.0])
                .float()[0];
            assert_eq!(
                got.to_bits(),
                want.to_bits(),
                "{sampler_model:?} at {c:?}: got {got}, the model samples {want}"
            );
        }
    }
}

const ARGS_SOURCE: &str = r#"
kernel void takes(read_only image2d_t r, write_only image2d_t w, read_write image2d_t rw,
                  sampler_t s, read_only image3d_t r3, global int *o) {
    int2 c = (int2)(0, 0);
    float4 v = read_imagef(r, s, c) + read_imagef(r3, s, (int4)(0));
    write_imagef(w, c, v);
    write_imagef(rw, c, read_imagef(rw, c) + v);
    o[0] = 1;
}
"#;

const CL_KERNEL_ARG_ACCESS_READ_ONLY: u32 = 0x11A0;
const CL_KERNEL_ARG_ACCESS_WRITE_ONLY: u32 = 0x11A1;
const CL_KERNEL_ARG_ACCESS_READ_WRITE: u32 = 0x11A2;
const CL_KERNEL_ARG_ACCESS_NONE: u32 = 0x11A3;

#[test]
fn image_and_sampler_arguments_are_checked_and_described() {
    let f = Fixture::new();
    let program = build(&f.context, ARGS_SOURCE, "-cl-std=CL3.0 -cl-kernel-arg-info");
    let kernel = Kernel::create(&program, "takes").expect("kernel");

    let access: Vec<u32> = (0..6)
        .map(|i| {
            kernel
                .get_arg_access_qualifier(i)
                .expect("access qualifier")
        })
        .collect();
    assert_eq!(
        access,
        [
            CL_KERNEL_ARG_ACCESS_READ_ONLY,
            CL_KERNEL_ARG_ACCESS_WRITE_ONLY,
            CL_KERNEL_ARG_ACCESS_READ_WRITE,
            CL_KERNEL_ARG_ACCESS_NONE,
            CL_KERNEL_ARG_ACCESS_READ_ONLY,
            CL_KERNEL_ARG_ACCESS_NONE,
        ]
    );
    let types: Vec<String> = (0..5)
        .map(|i| kernel.get_arg_type_name(i).expect("type name"))
        .collect();
    assert_eq!(
        types,
        [
            "image2d_t",
            "image2d_t",
            "image2d_t",
            "sampler_t",
            "image3d_t"
        ]
    );

    let format = Format::new(model::CL_RGBA, model::CL_FLOAT);
    let d2 = f.image(CL_MEM_READ_WRITE, format, Dim::D2, [4, 4, 1], 1);
    let d2_read_only = f.image(CL_MEM_READ_ONLY, format, Dim::D2, [4, 4, 1], 1);
    let d2_write_only = f.image(CL_MEM_WRITE_ONLY, format, Dim::D2, [4, 4, 1], 1);
    let d3 = f.image(CL_MEM_READ_WRITE, format, Dim::D3, [4, 4, 2], 1);
    let d2_array = f.image(CL_MEM_READ_WRITE, format, Dim::D2Array, [4, 4, 1], 2);
    let d1_buffer = f.image(CL_MEM_READ_WRITE, format, Dim::D1Buffer, [8, 1, 1], 1);
    let sampler = f.sampler(false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST);
    let buffer = f.buffer(64);

    // An image of another type than the parameter's.
    for (index, wrong) in [
        (0, &d3),
        (0, &d2_array),
        (1, &d1_buffer),
        (2, &d3),
        (4, &d2),
    ] {
        assert_eq!(
            set_arg(&kernel, index, &wrong.mem),
            CL_INVALID_ARG_VALUE,
            "argument {index} given a {:?} image",
            wrong.dim
        );
    }
    // The spec: a read_only parameter given a CL_MEM_WRITE_ONLY image, or
    // a write_only one given a CL_MEM_READ_ONLY image.
    assert_eq!(
        set_arg(&kernel, 0, &d2_write_only.mem),
        CL_INVALID_ARG_VALUE
    );
    assert_eq!(set_arg(&kernel, 1, &d2_read_only.mem), CL_INVALID_ARG_VALUE);
    // A sampler parameter given a memory object, an image one a sampler.
    assert_eq!(set_arg(&kernel, 3, &d2.mem), CL_INVALID_SAMPLER);
    assert_eq!(set_arg(&kernel, 3, &buffer), CL_INVALID_SAMPLER);
    assert_ne!(set_arg(&kernel, 0, &sampler.0), CL_SUCCESS);
    // A null image or sampler, a value of the wrong size, no value.
    let null: opencl3::types::cl_mem = std::ptr::null_mut();
    assert_eq!(set_arg(&kernel, 0, &null), CL_INVALID_MEM_OBJECT);
    assert_eq!(set_arg(&kernel, 3, &null), CL_INVALID_SAMPLER);
    assert_eq!(set_arg(&kernel, 0, &0u32), CL_INVALID_ARG_SIZE);
    assert_eq!(set_arg(&kernel, 3, &0u32), CL_INVALID_ARG_SIZE);
    assert_eq!(set_arg_null(&kernel, 0), CL_INVALID_ARG_VALUE);
    // No value for a sampler is no valid sampler: CL_INVALID_SAMPLER, as
    // the conformance suite's api test of sampler arguments expects.
    assert_eq!(set_arg_null(&kernel, 3), CL_INVALID_SAMPLER);
    // The right objects are accepted after the wrong ones.
    assert_eq!(set_arg(&kernel, 0, &d2_read_only.mem), CL_SUCCESS);
    assert_eq!(set_arg(&kernel, 1, &d2_write_only.mem), CL_SUCCESS);
    assert_eq!(set_arg(&kernel, 2, &d2.mem), CL_SUCCESS);
    assert_eq!(set_arg(&kernel, 3, &sampler.0), CL_SUCCESS);
    assert_eq!(set_arg(&kernel, 4, &d3.mem), CL_SUCCESS);
    assert_eq!(set_arg(&kernel, 5, &buffer), CL_SUCCESS);
    run(&f.queue, &kernel, 1);
    f.release(buffer);
}

const OUT_OF_RANGE_SOURCE: &str = r#"
kernel void scatter_1db(write_only image1d_buffer_t img, global const int *xs) {
    int i = get_global_id(0); write_imageui(img, xs[i], (uint4)(0xab, 0xcd, 0xef, 0x12)); }
kernel void scatter_2d(write_only image2d_t img, global const int2 *cs) {
    int i = get_global_id(0); write_imagef(img, cs[i], (float4)(0.25f, 0.5f, 0.75f, 1.0f)); }
kernel void gather_2d(read_only image2d_t img, global const int2 *cs, global uint4 *out) {
    int i = get_global_id(0); out[i] = read_imageui(img, cs[i]); }
"#;

/// Writes outside an image are undefined in the spec; clvulkan drops them,
/// and in particular never touches the rest of a 1D buffer image's buffer.
/// Samplerless reads outside are undefined too; clvulkan clamps the
/// coordinates into the image (the model does the same).
#[test]
fn accesses_outside_an_image_stay_inside_it() {
    let f = Fixture::new();
    let program = build(&f.context, OUT_OF_RANGE_SOURCE, "");

    // A 1D buffer image of 10 texels on a buffer of 16.
    let format = Format::new(model::CL_RGBA, model::CL_UNSIGNED_INT8);
    let buffer = f.buffer(16 * 4);
    f.write_buffer(buffer, &[0x5a; 64]);
    let image = f.image_on_buffer(CL_MEM_WRITE_ONLY, format, 10, buffer);
    let xs: Vec<i32> = vec![-1, -5, 10, 11, 15, 16, i32::MIN, i32::MAX, 3, 9];
    let payload: Vec<u8> = xs.iter().flat_map(|x| x.to_le_bytes()).collect();
    let input = f.buffer(payload.len());
    f.write_buffer(input, &payload);
    let kernel = Kernel::create(&program, "scatter_1db").expect("kernel");
    arg(&kernel, 0, &image.mem);
    arg(&kernel, 1, &input);
    run(&f.queue, &kernel, xs.len());
    f.release(input);
    let mut want = vec![0x5a; 64];
    for x in [3usize, 9] {
        want[4 * x..4 * x + 4].copy_from_slice(&[0xab, 0xcd, 0xef, 0x12]);
    }
    assert_eq!(
        f.read_buffer(buffer, 64),
        want,
        "the buffer under a 1D buffer image"
    );
    drop(image);
    f.release(buffer);

    // A 2D image: only the in-range writes land.
    let format = Format::new(model::CL_RGBA, model::CL_UNORM_INT8);
    let (w, h) = (7i32, 5i32);
    let mut rng = Rng(0x3c6e_f372_fe94_f82b);
    let mut image_model = model::Image::new(format, Dim::D2, [7, 5, 1], 1);
    image_model.data = rng.bytes(image_model.data.len());
    let image = f.image(CL_MEM_READ_WRITE, format, Dim::D2, [7, 5, 1], 1);
    f.write_image(&image, &image_model.data);
    let cs: Vec<[i32; 2]> = vec![
        [-1, 0],
        [w, 0],
        [0, h],
        [w + 3, h + 3],
        [-1, -1],
        [i32::MIN, 2],
        [2, i32::MAX],
        [2, 2],
        [w - 1, h - 1],
    ];
    let payload: Vec<u8> = cs.iter().flatten().flat_map(|x| x.to_le_bytes()).collect();
    let input = f.buffer(payload.len());
    f.write_buffer(input, &payload);
    let kernel = Kernel::create(&program, "scatter_2d").expect("kernel");
    arg(&kernel, 0, &image.mem);
    arg(&kernel, 1, &input);
    run(&f.queue, &kernel, cs.len());
    f.release(input);
    for c in &cs {
        image_model.write([c[0], c[1], 0, 0], Texel::Float([0.25, 0.5, 0.75, 1.0]));
    }
    assert_eq!(
        f.read_image(&image, 7 * 5 * 4),
        image_model.data,
        "2D image after scattered writes"
    );

    // Reads at and beyond each edge.
    let format = Format::new(model::CL_RGBA, model::CL_UNSIGNED_INT32);
    let mut image_model = model::Image::new(format, Dim::D2, [7, 5, 1], 1);
    image_model.data = rng.bytes(image_model.data.len());
    let image = f.image(CL_MEM_READ_ONLY, format, Dim::D2, [7, 5, 1], 1);
    f.write_image(&image, &image_model.data);
    let cs: Vec<[i32; 2]> = (0..64)
        .map(|_| [rng.below(15) as i32 - 4, rng.below(13) as i32 - 4])
        .chain([[i32::MIN, 0], [0, i32::MAX], [i32::MAX, i32::MIN]])
        .collect();
    let payload: Vec<u8> = cs.iter().flatten().flat_map(|x| x.to_le_bytes()).collect();
    let input = f.buffer(payload.len());
    f.write_buffer(input, &payload);
    let out = f.buffer(cs.len() * 16);
    let kernel = Kernel::create(&program, "gather_2d").expect("kernel");
    arg(&kernel, 0, &image.mem);
    arg(&kernel, 1, &input);
    arg(&kernel, 2, &out);
    run(&f.queue, &kernel, cs.len());
    let got = le_words(&f.read_buffer(out, cs.len() * 16));
    f.release(input);
    f.release(out);
    for (i, c) in cs.iter().enumerate() {
        let want = image_model
            .read([c[0], c[1], 0, 0])
            .uint()
            .map(|x| x as i32);
        assert_eq!(&got[4 * i..4 * i + 4], &want, "read at {c:?}");
    }
}

const REBIND_SOURCE: &str = r#"
kernel void copy_sampled(read_only image2d_t src, sampler_t s, global const float2 *c, global float4 *out) {
    int i = get_global_id(0); out[i] = read_imagef(src, s, c[i]); }
"#;

/// Arguments are captured when a launch is enqueued: one kernel object
/// launched three times without waiting, its image (of another format
/// each time), sampler and output changed in between, gives each launch
/// its own arguments.
#[test]
fn each_launch_keeps_the_image_and_sampler_it_was_enqueued_with() {
    let f = Fixture::new();
    let program = build(&f.context, REBIND_SOURCE, "");
    let kernel = Kernel::create(&program, "copy_sampled").expect("kernel");
    let mut rng = Rng(0xa54f_f53a_5f1d_36f1);
    let formats = [
        Format::new(model::CL_RGBA, model::CL_UNORM_INT8),
        Format::new(model::CL_R, model::CL_FLOAT),
        Format::new(model::CL_BGRA, model::CL_UNORM_INT8),
    ];
    let samplers = [
        (false, CL_ADDRESS_CLAMP, model::Addressing::Clamp),
        (true, CL_ADDRESS_REPEAT, model::Addressing::Repeat),
        (
            false,
            CL_ADDRESS_CLAMP_TO_EDGE,
            model::Addressing::ClampToEdge,
        ),
    ];
    let coords: Vec<[f32; 2]> = (0..40)
        .map(|i| {
            let x = rng.below(96) as f32 / 8.0 - 2.0;
            let y = rng.below(80) as f32 / 8.0 - 2.0;
            if i % 2 == 0 {
                [x, y]
            } else {
                [x / 8.0, y / 5.0]
            }
        })
        .collect();
    let payload: Vec<u8> = coords
        .iter()
        .flatten()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let input = f.buffer(payload.len());
    f.write_buffer(input, &payload);
    let mut launches = Vec::new();
    for (format, (normalized, addressing, addressing_model)) in formats.into_iter().zip(samplers) {
        let mut image_model = model::Image::new(format, Dim::D2, [8, 5, 1], 1);
        image_model.data = rng.bytes(image_model.data.len());
        let image = f.image(CL_MEM_READ_ONLY, format, Dim::D2, [8, 5, 1], 1);
        f.write_image(&image, &image_model.data);
        let sampler = f.sampler(normalized, addressing, CL_FILTER_NEAREST);
        let out = f.buffer(coords.len() * 16);
        arg(&kernel, 0, &image.mem);
        arg(&kernel, 1, &sampler.0);
        arg(&kernel, 2, &input);
        arg(&kernel, 3, &out);
        let global = [coords.len()];
        // SAFETY: every argument is set; the size outlives the call.
        unsafe {
            f.queue.enqueue_nd_range_kernel(
                kernel.get(),
                1,
                std::ptr::null(),
                global.as_ptr(),
                std::ptr::null(),
                &[],
            )
        }
        .expect("launch");
        let sampler_model = model::Sampler {
            normalized,
            addressing: addressing_model,
            filter: model::Filter::Nearest,
        };
        launches.push((image, sampler, out, image_model, sampler_model));
    }
    f.queue.finish().expect("finish");
    for (n, (_image, _sampler, out, image_model, sampler_model)) in launches.iter().enumerate() {
        let got = floats(&f.read_buffer(*out, coords.len() * 16));
        for (i, c) in coords.iter().enumerate() {
            let want = image_model
                .sample(sampler_model, [c[0], c[1], 0.0, 0.0])
                .float();
            let got = &got[4 * i..4 * i + 4];
            // Nearest reads of one texel; the normalized types' conversion
            // may be off by one ulp (see image_kernels_formats).
            let close = got
                .iter()
                .zip(&want)
                .all(|(g, w)| g.to_bits().abs_diff(w.to_bits()) <= 1);
            assert!(
                close,
                "launch {n} at {c:?}: got {got:?}, the model samples {want:?}"
            );
        }
        f.release(*out);
    }
    f.release(input);
}

/// The spec has no sampled read of a `read_write` image, no write to a
/// `read_only` one and no read of a `write_only` one: each is a build
/// error, not a kernel that does something else.
#[test]
fn image_built_ins_the_access_qualifier_forbids_do_not_build() {
    let f = Fixture::new();
    let sources = [
        "kernel void k(read_write image2d_t img, sampler_t s, global float4 *o) { o[0] = read_imagef(img, s, (int2)(0)); }",
        "kernel void k(read_only image2d_t img) { write_imagef(img, (int2)(0), (float4)(0.0f)); }",
        "kernel void k(write_only image2d_t img, global float4 *o) { o[0] = read_imagef(img, (int2)(0)); }",
    ];
    for source in sources {
        let built = opencl3::program::Program::create_and_build_from_source(
            &f.context,
            source,
            "-cl-std=CL3.0",
        );
        assert!(built.is_err(), "built: {source}");
    }
}

/// A kernel with as many image arguments as the device reports
/// (`CL_DEVICE_MAX_READ_IMAGE_ARGS` read-only images and
/// `CL_DEVICE_MAX_SAMPLERS` samplers in one kernel,
/// `CL_DEVICE_MAX_WRITE_IMAGE_ARGS` write-only images in another), each
/// image telling its own texels and size apart.
#[test]
fn kernels_take_as_many_images_and_samplers_as_the_device_reports() {
    let f = Fixture::new();
    let device = opencl3::device::Device::new(f.context.devices()[0]);
    let reads = device.max_read_image_args().expect("max read images") as usize;
    let writes = device.max_write_image_args().expect("max write images") as usize;
    let samplers = device
        .max_device_samples() // opencl3 names CL_DEVICE_MAX_SAMPLERS so
        .expect("max samplers") as usize;
    assert!(
        reads >= 128 && writes >= 64 && samplers >= 16,
        "{reads} {writes} {samplers}"
    );

    // Reads: image i is (i % 3 + 1) x 1 of CL_R CL_UNSIGNED_INT32 holding
    // 1000 i + x; the kernel sums each image's last texel, once through a
    // sampler (the first `samplers` images) and once without.
    let mut params: Vec<String> = (0..reads)
        .map(|i| format!("read_only image2d_t i{i}"))
        .collect();
    params.extend((0..samplers).map(|i| format!("sampler_t s{i}")));
    params.push("global uint *out".into());
    let mut body = String::from("uint sum = 0;\n");
    for i in 0..reads {
        body.push_str(&format!(
            "sum += read_imageui(i{i}, (int2)(get_image_width(i{i}) - 1, 0)).x;\n"
        ));
    }
    body.push_str("out[0] = sum; sum = 0;\n");
    for i in 0..samplers {
        body.push_str(&format!(
            "sum += read_imageui(i{i}, s{i}, (float2)(get_image_width(i{i}) - 0.5f, 0.5f)).x;\n"
        ));
    }
    body.push_str("out[1] = sum;\n");
    let source = format!("kernel void many({}) {{\n{body}}}\n", params.join(", "));
    let program = build(&f.context, &source, "");
    let kernel = Kernel::create(&program, "many").expect("kernel");
    let format = Format::new(model::CL_R, model::CL_UNSIGNED_INT32);
    let mut images = Vec::new();
    for i in 0..reads {
        let width = i % 3 + 1;
        let image = f.image(CL_MEM_READ_ONLY, format, Dim::D2, [width, 1, 1], 1);
        let texels: Vec<u8> = (0..width)
            .flat_map(|x| (1000 * i as u32 + x as u32).to_le_bytes())
            .collect();
        f.write_image(&image, &texels);
        arg(&kernel, i as u32, &image.mem);
        images.push(image);
    }
    let sampler_objects: Vec<OwnedSampler> = (0..samplers)
        .map(|_| f.sampler(false, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST))
        .collect();
    for (i, s) in sampler_objects.iter().enumerate() {
        arg(&kernel, (reads + i) as u32, &s.0);
    }
    let out = f.buffer(8);
    arg(&kernel, (reads + samplers) as u32, &out);
    run(&f.queue, &kernel, 1);
    let got = le_words(&f.read_buffer(out, 8));
    f.release(out);
    let last = |i: usize| 1000 * i as i32 + (i % 3) as i32;
    let want = [
        (0..reads).map(last).sum::<i32>(),
        (0..samplers).map(last).sum(),
    ];
    assert_eq!(
        got, want,
        "sums over {reads} images, {samplers} through samplers"
    );

    // Writes: image i gets i + 1 at each of its texels.
    let params: Vec<String> = (0..writes)
        .map(|i| format!("write_only image2d_t o{i}"))
        .collect();
    let body: String = (0..writes)
        .map(|i| {
            format!(
                "write_imageui(o{i}, (int2)(get_global_id(0), 0), (uint4)({}));\n",
                i + 1
            )
        })
        .collect();
    let source = format!(
        "kernel void many_writes({}) {{\n{body}}}\n",
        params.join(", ")
    );
    let program = build(&f.context, &source, "");
    let kernel = Kernel::create(&program, "many_writes").expect("kernel");
    let images: Vec<Image> = (0..writes)
        .map(|i| {
            let image = f.image(CL_MEM_WRITE_ONLY, format, Dim::D2, [3, 1, 1], 1);
            arg(&kernel, i as u32, &image.mem);
            image
        })
        .collect();
    run(&f.queue, &kernel, 3);
    for (i, image) in images.iter().enumerate() {
        let want: Vec<u8> = (0..3).flat_map(|_| (i as u32 + 1).to_le_bytes()).collect();
        assert_eq!(f.read_image(image, 12), want, "write-only image {i}");
    }
}

/// `cl_khr_depth_images` and `cl_khr_srgb_image_writes` are reported
/// exactly where their formats are listed for 2D images and arrays.
#[test]
fn image_extensions_follow_the_listed_formats() {
    let f = Fixture::new();
    let extensions = f.extensions();
    let reported = |name: &str| extensions.split_whitespace().any(|e| e == name);
    let listed = |order, data_type, flags| {
        [Dim::D2, Dim::D2Array].iter().all(|&dim| {
            f.formats(flags, dim)
                .contains(&Format::new(order, data_type))
        })
    };
    let depth = [model::CL_FLOAT, model::CL_UNORM_INT16]
        .iter()
        .all(|&data_type| {
            listed(model::CL_DEPTH, data_type, CL_MEM_READ_ONLY)
                && listed(model::CL_DEPTH, data_type, CL_MEM_WRITE_ONLY)
        });
    assert_eq!(reported("cl_khr_depth_images"), depth);
    let srgb_writes = listed(model::CL_SRGBA, model::CL_UNORM_INT8, CL_MEM_WRITE_ONLY);
    assert_eq!(reported("cl_khr_srgb_image_writes"), srgb_writes);
}
