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
    assert_eq!(args[2].kind, ArgKind::Sampler { offset: 48 + 2 * ImageInfo::SIZE });
    assert_eq!(args[0].type_name, "image2d_t");
    assert_eq!(args[0].address, AddressQualifier::Global);
    assert_eq!(args[2].type_name, "sampler_t");
    assert_eq!(
        k.reflection.images,
        vec![ImageDescriptor::Sampled, ImageDescriptor::Storage]
    );
}
