//! Images and samplers through the whole translator: kernels using every
//! image type and built-in compile to SPIR-V that `spirv-val` accepts for
//! Vulkan 1.2, with the reflection the runtime binds them by.

use std::process::Command;
use translator::image::{ImageAccess, ImageDescriptor, ImageDim, ImageInfo};
use translator::reflect::AddressQualifier;
use translator::{ArgKind, DeviceCaps, Program};

fn caps() -> DeviceCaps {
    DeviceCaps {
        image_support: true,
        ..DeviceCaps::full()
    }
}

fn build(source: &str, options: &str) -> Program {
    translator::build(source, options, &caps()).unwrap_or_else(|e| panic!("build failed:\n{e}"))
}

/// The error of a build that must fail.
fn build_error(source: &str, options: &str, caps: &DeviceCaps) -> String {
    match translator::build(source, options, caps) {
        Ok(_) => panic!("expected a build failure for:\n{source}"),
        Err(e) => e.to_string(),
    }
}

/// Runs `spirv-val` on every kernel of `program`.
fn validate(program: &Program) {
    let dir = std::env::temp_dir().join(format!("clvulkan-images-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for kernel in &program.kernels {
        let words = kernel.spirv([8, 1, 1], &[16, 16, 16]).expect("spirv");
        let file = dir.join(format!("{}.spv", kernel.reflection.name));
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(&file, bytes).expect("write spv");
        let out = Command::new("spirv-val")
            .args(["--target-env", "vulkan1.2", "--scalar-block-layout"])
            .arg(&file)
            .output()
            .expect("spirv-val must be installed (see README)");
        assert!(
            out.status.success(),
            "{}: spirv-val failed:\n{}",
            kernel.reflection.name,
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn copy_through_a_2d_image() {
    let program = build(
        r#"
        __kernel void copy(read_only image2d_t src, write_only image2d_t dst, sampler_t s) {
            int2 p = (int2)(get_global_id(0), get_global_id(1));
            float4 v = read_imagef(src, s, p);
            write_imagef(dst, p, v + read_imagef(src, p));
        }
        "#,
        "",
    );
    validate(&program);
    let k = program.kernel("copy").expect("kernel");
    let args = &k.reflection.args;
    assert_eq!(
        args[0].kind,
        ArgKind::Image {
            binding: 0,
            info_offset: 48,
            dim: ImageDim::D2,
            depth: false,
            access: ImageAccess::ReadOnly
        }
    );
    assert_eq!(
        args[1].kind,
        ArgKind::Image {
            binding: 1,
            info_offset: 48 + ImageInfo::SIZE,
            dim: ImageDim::D2,
            depth: false,
            access: ImageAccess::WriteOnly
        }
    );
    assert_eq!(
        args[2].kind,
        ArgKind::Sampler {
            offset: 48 + 2 * ImageInfo::SIZE
        }
    );
    assert_eq!(args[0].type_name, "image2d_t");
    assert_eq!(args[0].address, AddressQualifier::Global);
    assert_eq!(args[2].type_name, "sampler_t");
    assert_eq!(
        k.reflection.images,
        vec![ImageDescriptor::Sampled, ImageDescriptor::Storage]
    );
}

/// The instructions of a module, each as its words.
fn instructions(words: &[u32]) -> Vec<&[u32]> {
    let mut out = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        assert!(count > 0 && at + count <= words.len(), "malformed SPIR-V");
        out.push(&words[at..at + count]);
        at += count;
    }
    out
}

const OP_CAPABILITY: u32 = 17;
const OP_TYPE_IMAGE: u32 = 25;

/// The `OpTypeImage`s of a kernel as (dim, sampled, format), and its
/// capabilities.
fn image_types(program: &Program, kernel: &str) -> (Vec<(u32, u32, u32)>, Vec<u32>) {
    let words = program
        .kernel(kernel)
        .expect("kernel")
        .spirv([1, 1, 1], &[])
        .expect("spirv");
    let code = instructions(&words);
    let types = (code.iter())
        .filter(|i| i[0] & 0xffff == OP_TYPE_IMAGE)
        .map(|i| (i[3], i[7], i[8]))
        .collect();
    let caps = (code.iter())
        .filter(|i| i[0] & 0xffff == OP_CAPABILITY)
        .map(|i| i[1])
        .collect();
    (types, caps)
}

const EVERY_READ: &str = r#"
    const sampler_t program_sampler = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
    constant sampler_t constant_sampler = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

    __kernel void reads(__read_only image1d_t i1, read_only image1d_array_t i1a,
                        image1d_buffer_t i1b, image2d_t i2, image2d_array_t i2a,
                        image2d_depth_t d2, image2d_array_depth_t d2a, image3d_t i3,
                        sampler_t s, global float4 *f, global int4 *i, global uint4 *u,
                        global float *d, global half *h) {
        const sampler_t local_sampler = CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;
        int x = get_global_id(0);
        float fx = x * 0.5f;
        f[0] = read_imagef(i1, s, fx) + read_imagef(i1, s, x) + read_imagef(i1, x);
        i[0] = read_imagei(i1a, program_sampler, (float2)(fx, 1)) + read_imagei(i1a, (int2)(x, 1));
        u[0] = read_imageui(i1b, x) + read_imageui(i2, constant_sampler, (int2)(x, 2));
        f[1] = read_imagef(i2, local_sampler, (float2)(fx, fx)) + read_imagef(i2a, (int4)(x, 1, 2, 0))
             + read_imagef(i3, s, (float4)(fx, fx, fx, 0)) + read_imagef(i3, (int4)(x, x, x, 0));
        d[0] = read_imagef(d2, s, (float2)(fx, fx)) + read_imagef(d2, (int2)(x, 0))
             + read_imagef(d2a, s, (int4)(x, 0, 1, 0)) + read_imagef(d2a, (int4)(x, 0, 1, 0));
        u[1] = read_imageui(i2a, 0x10, (float4)(fx, 0, 1, 0));
        i[1] = read_imagei(i3, CLK_FILTER_NEAREST | CLK_ADDRESS_CLAMP, (int4)(x, 0, 1, 0));
        half4 hv = read_imageh(i2, s, (int2)(x, 0)) + read_imageh(i2, (int2)(x, 1));
        h[0] = hv.x + hv.w;
    }
"#;

#[test]
fn every_read_validates_with_one_binding_per_image() {
    let program = build(EVERY_READ, "-cl-std=CL3.0");
    validate(&program);
    let k = program.kernel("reads").expect("kernel");
    let r = &k.reflection;
    let dims = [
        ImageDim::D1,
        ImageDim::D1Array,
        ImageDim::D1Buffer,
        ImageDim::D2,
        ImageDim::D2Array,
        ImageDim::D2,
        ImageDim::D2Array,
        ImageDim::D3,
    ];
    let mut offset = 40u32;
    for (b, &dim) in dims.iter().enumerate() {
        offset = offset.next_multiple_of(16);
        assert_eq!(
            r.args[b].kind,
            ArgKind::Image {
                binding: b as u32,
                info_offset: offset,
                dim,
                depth: b == 5 || b == 6,
                access: ImageAccess::ReadOnly,
            },
            "argument {b}"
        );
        offset += ImageInfo::SIZE;
    }
    assert_eq!(r.args[8].kind, ArgKind::Sampler { offset });
    let mut expected = vec![ImageDescriptor::Sampled; 8];
    expected[2] = ImageDescriptor::StorageTexelBuffer;
    assert_eq!(r.images, expected);
    // Past 128 bytes the launch block is a buffer.
    assert!(r.launch_block_binding.is_some());
    assert_eq!(r.args[2].type_name, "image1d_buffer_t");
    assert_eq!(r.args[5].type_name, "image2d_depth_t");
    // The texel buffer is a storage texel buffer of unknown format.
    let (types, caps) = image_types(&program, "reads");
    assert!(types.contains(&(5, 2, 0)), "{types:?}");
    assert!(types
        .iter()
        .all(|&(_, sampled, format)| sampled != 2 || format == 0));
    assert!(caps.contains(&47), "ImageBuffer: {caps:?}");
}

const EVERY_WRITE: &str = r#"
    __kernel void writes(write_only image1d_t i1, __write_only image1d_array_t i1a,
                         write_only image1d_buffer_t i1b, write_only image2d_t i2,
                         write_only image2d_array_t i2a, write_only image2d_depth_t d2,
                         write_only image2d_array_depth_t d2a, write_only image3d_t i3) {
        int x = get_global_id(0);
        write_imagef(i1, x, (float4)(1, 2, 3, 4));
        write_imagei(i1a, (int2)(x, 1), (int4)(-1));
        write_imageui(i1b, x, (uint4)(7));
        write_imagef(i2, (int2)(x, 0), (float4)(0.5f));
        write_imageh(i2, (int2)(x, 1), (half4)(0.25h));
        write_imageui(i2a, (int4)(x, 0, 1, 0), (uint4)(3));
        write_imagef(d2, (int2)(x, 0), 0.75f);
        write_imagef(d2a, (int4)(x, 0, 2, 0), 0.125f);
        write_imagei(i3, (int4)(x, 1, 2, 0), (int4)(5));
    }
"#;

#[test]
fn every_write_validates_as_storage_images_of_unknown_format() {
    let program = build(EVERY_WRITE, "");
    validate(&program);
    let r = &program.kernel("writes").expect("kernel").reflection;
    let mut expected = vec![ImageDescriptor::Storage; 8];
    expected[2] = ImageDescriptor::StorageTexelBuffer;
    assert_eq!(r.images, expected);
    for (b, arg) in r.args.iter().enumerate() {
        let ArgKind::Image {
            binding, access, ..
        } = arg.kind
        else {
            panic!("argument {b} is not an image");
        };
        assert_eq!((binding, access), (b as u32, ImageAccess::WriteOnly));
    }
    let (types, caps) = image_types(&program, "writes");
    assert!(types
        .iter()
        .all(|&(_, sampled, format)| sampled == 2 && format == 0));
    assert!(caps.contains(&55) && caps.contains(&56), "{caps:?}");
    // image1d_t keeps Image1D; the texel buffer needs ImageBuffer.
    assert!(caps.contains(&44) && caps.contains(&47), "{caps:?}");
}

const HELPERS_AND_QUERIES: &str = r#"
    constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

    float4 fetch(read_only image2d_t img, sampler_t s, int2 p) {
        return read_imagef(img, s, p);
    }

    uint4 fetch_u(read_only image2d_t img, int2 p) {
        return read_imageui(img, p);
    }

    void store(write_only image3d_t img, int4 p, float4 v) {
        write_imagef(img, p, v);
    }

    void store_both(write_only image3d_t img, int4 p, float4 v) {
        store(img, p, v);
        write_imagei(img, p, convert_int4(v));
    }

    __kernel void helpers(read_only image2d_t a, read_only image2d_t b, write_only image3d_t c,
                          sampler_t s, global float4 *out, global uint4 *out_u) {
        int2 p = (int2)(get_global_id(0), 0);
        sampler_t copy = s;
        out[0] = fetch(a, copy, p) + fetch(b, nearest, p) + fetch(a, CLK_FILTER_LINEAR, p);
        out_u[0] = fetch_u(b, p);
        store_both(c, (int4)(p, 1, 0), out[0]);
        atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_group);
    }

    __kernel void queries(read_only image1d_t i1, image1d_array_t i1a, image1d_buffer_t i1b,
                          write_only image2d_t i2, image2d_array_t i2a, image2d_depth_t d2,
                          image2d_array_depth_t d2a, read_only image3d_t i3,
                          global int *out, global int2 *dims2, global int4 *dims4,
                          global size_t *arrays) {
        out[0] = get_image_width(i1) + get_image_width(i1a) + get_image_width(i1b)
               + get_image_width(i2) + get_image_width(i2a) + get_image_width(d2)
               + get_image_width(d2a) + get_image_width(i3);
        out[1] = get_image_height(i2) + get_image_height(i2a) + get_image_height(d2)
               + get_image_height(d2a) + get_image_height(i3);
        out[2] = get_image_depth(i3);
        out[3] = get_image_channel_data_type(i1) + get_image_channel_order(i1b)
               + get_image_channel_order(d2) + get_image_channel_data_type(i3);
        dims2[0] = get_image_dim(i2);
        dims2[1] = get_image_dim(i2a);
        dims2[2] = get_image_dim(d2);
        dims2[3] = get_image_dim(d2a);
        dims4[0] = get_image_dim(i3);
        arrays[0] = get_image_array_size(i1a);
        arrays[1] = get_image_array_size(i2a) + get_image_array_size(d2a);
    }
"#;

#[test]
fn helpers_take_images_and_samplers() {
    let program = build(HELPERS_AND_QUERIES, "-cl-std=CL2.0");
    validate(&program);
    let r = &program.kernel("helpers").expect("kernel").reflection;
    assert_eq!(
        r.images,
        vec![
            ImageDescriptor::Sampled,
            ImageDescriptor::Sampled,
            ImageDescriptor::Storage
        ]
    );
    // Buffers keep set 0's bindings from 0, whatever the images take.
    assert_eq!(r.args[4].kind, ArgKind::Buffer { binding: 0 });
    assert_eq!(r.args[5].kind, ArgKind::Buffer { binding: 1 });
    // `b` is read as float and as uint, `c` written as float and as int:
    // one variable per kind, both at the argument's binding.
    let words = program
        .kernel("helpers")
        .expect("kernel")
        .spirv([1, 1, 1], &[])
        .expect("spirv");
    let code = instructions(&words);
    let set1: Vec<u32> = (code.iter())
        .filter(|i| i[0] & 0xffff == 71 && i.len() == 4 && i[2] == 34 && i[3] == 1)
        .map(|i| i[1])
        .collect();
    let mut bindings: Vec<u32> = (code.iter())
        .filter(|i| i[0] & 0xffff == 71 && i.len() == 4 && i[2] == 33 && set1.contains(&i[1]))
        .map(|i| i[3])
        .collect();
    bindings.sort_unstable();
    assert_eq!(bindings, vec![0, 1, 1, 2, 2]);
    // The image fence: a memory barrier with ImageMemory semantics.
    let constants: std::collections::HashMap<u32, u32> = (code.iter())
        .filter(|i| i[0] & 0xffff == 43 && i.len() == 4)
        .map(|i| (i[2], i[3]))
        .collect();
    let fences = (code.iter())
        .filter(|i| i[0] & 0xffff == 225)
        .filter(|i| constants.get(&i[2]).is_some_and(|s| s & 0x800 != 0))
        .count();
    assert_eq!(fences, 1);
}

#[test]
fn queries_read_the_info_block() {
    let program = build(HELPERS_AND_QUERIES, "-cl-std=CL2.0");
    let r = &program.kernel("queries").expect("kernel").reflection;
    let access: Vec<ImageAccess> = (r.args.iter().take(8))
        .map(|a| match a.kind {
            ArgKind::Image { access, .. } => access,
            _ => panic!("not an image"),
        })
        .collect();
    assert_eq!(access[3], ImageAccess::WriteOnly);
    assert!(access
        .iter()
        .enumerate()
        .all(|(i, &a)| i == 3 || a == ImageAccess::ReadOnly));
    // No texel is read: no image variables at all, but every binding is
    // reflected for the runtime to fill.
    assert_eq!(r.images.len(), 8);
    let (types, _) = image_types(&program, "queries");
    assert!(types.is_empty(), "{types:?}");
}

#[test]
fn read_write_images_need_opencl_c_2_or_the_3_0_feature() {
    let source = r#"
        __kernel void rw(read_write image2d_t img, __read_write image1d_buffer_t buf) {
            int2 p = (int2)(get_global_id(0), 0);
            write_imagef(img, p, read_imagef(img, p) * 2.0f);
            write_imageui(buf, p.x, read_imageui(buf, p.x) + 1);
            atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);
        }
    "#;
    for std in ["-cl-std=CL2.0", "-cl-std=CL3.0"] {
        let program = build(source, std);
        validate(&program);
        let r = &program.kernel("rw").expect("kernel").reflection;
        assert_eq!(
            r.images,
            vec![
                ImageDescriptor::Storage,
                ImageDescriptor::StorageTexelBuffer
            ]
        );
        assert!(matches!(
            r.args[0].kind,
            ArgKind::Image {
                access: ImageAccess::ReadWrite,
                ..
            }
        ));
    }
    let err = build_error(source, "-cl-std=CL1.2", &caps());
    assert!(
        err.contains("access qualifier 'read_write' can not be used for '__read_write image2d_t'"),
        "{err}"
    );
    let feature = "#ifndef __opencl_c_read_write_images\n#error no\n#endif\n\
                   #ifndef __opencl_c_3d_image_writes\n#error no\n#endif\n\
                   #if CLK_ADDRESS_CLAMP != 4 || CLK_FILTER_LINEAR != 0x20 || CLK_RGBA != 0x10B5\n\
                   #error wrong values\n#endif\n\
                   kernel void k() {}";
    translator::build(feature, "-cl-std=CL3.0", &caps()).expect("the image feature macros");
    // Without image support, none of it exists.
    let none = build_error(
        "#ifdef CLK_ADDRESS_CLAMP\n#error defined\n#endif\nkernel void k(image2d_t i) {}",
        "-cl-std=CL3.0",
        &DeviceCaps::full(),
    );
    assert!(
        none.contains("requires __opencl_c_images support"),
        "{none}"
    );
}

/// The build log of a source that must fail.
fn log_of(source: &str, options: &str) -> String {
    match translator::build(source, options, &caps()) {
        Err(translator::BuildError::Compile { log }) => log,
        Err(e) => panic!("unexpected error: {e}"),
        Ok(_) => panic!("expected a build failure for:\n{source}"),
    }
}

#[test]
fn misused_images_and_samplers_are_errors() {
    let cases: &[(&str, &str)] = &[
        (
            "kernel void k(image2d_t a, image2d_t b) { a = b; }",
            "1:45: error: '__read_only image2d_t' is not assignable",
        ),
        (
            "kernel void k(image2d_t a, image2d_t b, global int *o) { o[0] = a == b; }",
            "error: invalid operands to binary expression",
        ),
        (
            "kernel void k(image2d_t a, global int *o) { o[0] = a + 1; }",
            "error: invalid operands to binary expression",
        ),
        (
            "kernel void k(image2d_t a) { image2d_t b = a; }",
            "1:40: error: type '__read_only image2d_t' can only be used as a function parameter in OpenCL",
        ),
        (
            "image2d_t g; kernel void k() {}",
            "1:11: error: type '__read_only image2d_t' can only be used as a function parameter in OpenCL",
        ),
        (
            "kernel void k(image2d_t *a) {}",
            "error: pointer to type '__read_only image2d_t' is invalid in OpenCL",
        ),
        (
            "kernel void k(sampler_t s, global int *o) { o[0] = s + 1; }",
            "error: invalid operands to binary expression",
        ),
        (
            "kernel void k(sampler_t s) { s = 0; }",
            "1:32: error: 'sampler_t' is not assignable",
        ),
        (
            "kernel void k(global int *o) { sampler_t s = o[0]; }",
            "error: sampler_t initialization requires a 32-bit integer constant",
        ),
        (
            "kernel void k(sampler_t a, sampler_t b, int c) { sampler_t s = c ? a : b; }",
            "error: operands of types 'sampler_t' and 'sampler_t' cannot be used with '?:' in OpenCL",
        ),
        (
            "kernel void k(int c) { sampler_t s = c; }",
            "1:38: error: sampler_t initialization requires a 32-bit integer constant",
        ),
        (
            "typedef struct { int x; sampler_t s; } S; kernel void k() {}",
            "1:35: error: the 'sampler_t' type cannot be used to declare a structure or union field",
        ),
        (
            "struct S { write_only image2d_t i; }; kernel void k() {}",
            "1:33: error: the '__write_only image2d_t' type cannot be used to declare a structure or union field",
        ),
        (
            "kernel void k() { sampler_t s; }",
            "1:29: error: variable of type 'sampler_t' must be initialized",
        ),
        (
            "kernel void k(write_only image2d_t i, global float4 *o) { o[0] = read_imagef(i, (int2)(0)); }",
            "error: 'read_imagef' reads from an image declared '__write_only'",
        ),
        (
            "kernel void k(image2d_t i) { write_imagef(i, (int2)(0), (float4)(0)); }",
            "error: 'write_imagef' writes to an image declared '__read_only'",
        ),
        (
            "kernel void k(image2d_t i, global float4 *o) { o[0] = read_imagef(i, (float2)(0)); }",
            "error: no matching function for call to 'read_imagef'",
        ),
        (
            "kernel void k(image1d_buffer_t i, sampler_t s, global float4 *o) { o[0] = read_imagef(i, s, 0); }",
            "error: no matching function for call to 'read_imagef'",
        ),
        (
            "kernel void k(image2d_depth_t i, global int4 *o) { o[0] = read_imagei(i, (int2)(0)); }",
            "error: no matching function for call to 'read_imagei'",
        ),
        (
            "kernel void k(image2d_t i, global int *o) { o[0] = get_image_depth(i); }",
            "error: no matching function for call to 'get_image_depth'",
        ),
        (
            "kernel void k(image2d_t i, global int *o) { o[0] = get_image_num_samples(i); }",
            "error: built-in function 'get_image_num_samples' is not supported yet by this translator",
        ),
        (
            "kernel void k(write_only int *p) {}",
            "error: access qualifier can only be used for pipe and image type",
        ),
        (
            "kernel void k(read_write image2d_t i) {}",
            "error: access qualifier 'read_write' can not be used for '__read_write image2d_t' prior to OpenCL C version 2.0",
        ),
        (
            "void f(write_only image2d_t i) {} kernel void k(read_only image2d_t i) { f(i); }",
            "1:76: error: passing '__read_only image2d_t' to parameter of incompatible type '__write_only image2d_t'",
        ),
        (
            "kernel void k(image2d_t a, image2d_t b, int c) { (void)(c ? a : b); }",
            "1:59: error: operands of types '__read_only image2d_t' and '__read_only image2d_t' cannot be used with '?:' in OpenCL",
        ),
        (
            "kernel void k(sampler_t a) { (void)&a; }",
            "1:36: error: pointer to type 'sampler_t' is invalid in OpenCL",
        ),
        (
            "kernel void k(image2d_t a) { (void)a; }",
            "1:30: error: an image can only be passed to a built-in or a function",
        ),
        (
            "image2d_t f(image2d_t a) { return a; } kernel void k(image2d_t a) { f(a); }",
            "1:11: error: declaring function return value of type '__read_only image2d_t' is not allowed",
        ),
    ];
    for (source, expected) in cases {
        let log = log_of(source, "");
        assert!(
            log.contains(expected),
            "{source}\nwanted: {expected}\ngot:\n{log}"
        );
    }
}

#[test]
fn a_texel_buffer_beside_a_writable_1d_image_of_its_kind() {
    // Different texel kinds: two types, one patched to the Buffer
    // dimension.
    let program = build(
        "kernel void k(write_only image1d_t a, image1d_buffer_t b) {
             write_imagef(a, 0, (float4)(read_imageui(b, 0).x));
         }",
        "",
    );
    validate(&program);
    let (types, capabilities) = image_types(&program, "k");
    assert!(
        types.contains(&(0, 2, 0)) && types.contains(&(5, 2, 0)),
        "{types:?}"
    );
    assert!(
        capabilities.contains(&44) && capabilities.contains(&47),
        "{capabilities:?}"
    );
    // The same kind would share one naga type: refused, not miscompiled.
    let err = build_error(
        "kernel void k(write_only image1d_t a, image1d_buffer_t b) {
             write_imagef(a, 0, read_imagef(b, 0));
         }",
        "",
        &caps(),
    );
    assert!(err.contains("not supported"), "{err}");
}

#[test]
fn opencl_c_1_2_literal_samplers_and_default_access() {
    let program = build(
        "const sampler_t a = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_LINEAR;
         __constant sampler_t b = CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
         kernel void k(image2d_t img, global float4 *out) {
             out[0] = read_imagef(img, a, (float2)(0.5f)) + read_imagef(img, b, (int2)(0));
         }",
        "-cl-std=CL1.2",
    );
    validate(&program);
    let r = &program.kernel("k").expect("kernel").reflection;
    assert!(matches!(
        r.args[0].kind,
        ArgKind::Image {
            access: ImageAccess::ReadOnly,
            ..
        }
    ));
    assert_eq!(r.images, vec![ImageDescriptor::Sampled]);
    assert_eq!(r.args[1].kind, ArgKind::Buffer { binding: 0 });
    assert_eq!(r.storage_buffers, 1);
    // The literal samplers' words reach the reads as constants.
    let words = program
        .kernel("k")
        .expect("kernel")
        .spirv([1, 1, 1], &[])
        .expect("spirv");
    let constants: Vec<u32> = (instructions(&words).iter())
        .filter(|i| i[0] & 0xffff == 43 && i.len() == 4)
        .map(|i| i[3])
        .collect();
    assert!(constants.contains(&(1 | 8 | 0x20)), "{constants:?}");
    assert!(constants.contains(&(4 | 0x10)), "{constants:?}");
}
