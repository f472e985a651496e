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
    let mut offset = 40;
    for (b, &dim) in dims.iter().enumerate() {
        offset = (offset + 15) / 16 * 16;
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
