//! Every image function of every key and access a kernel can have, in a
//! compute entry point: naga validates the module, and the SPIR-V it
//! writes, patched as the translator patches it (storage formats
//! `Unknown`, texel buffers of the `Buffer` dimension), passes
//! `spirv-val --target-env vulkan1.2`. `semantics.rs` runs them against
//! the host model.

#[path = "../../../../../../tests/common/fp16.rs"]
mod fp16;
#[path = "../../../../../../tests/common/image_model.rs"]
mod image_model;
mod interpreter;
mod semantics;

use super::{ImageFunctionKey, TexelKind};
use crate::caps::DeviceCaps;
use crate::diagnostic::Diagnostics;
use crate::front::FrontEnd;
use crate::image::{ImageAccess, ImageDescriptor, ImageDim, IMAGE_DESCRIPTOR_SET};
use crate::lower::builder::ModuleBuilder;
use crate::lower::emit::Emitter;
use crate::lower::interface::program_globals::GlobalsBlock;
use crate::options::BuildOptions;
use crate::preprocess::PreludeCache;
use naga::{Expression as E, Literal as L, Span};
use std::process::Command;

/// The (key, access) pairs kernels have: `read_only` images are sampled,
/// `write_only` and `read_write` ones storage images, `image1d_buffer_t`
/// storage texel buffers of any access; depth images are 2D, float.
fn every_key() -> Vec<(ImageFunctionKey, ImageAccess)> {
    use ImageAccess::*;
    let mut out = Vec::new();
    for kind in [TexelKind::Float, TexelKind::Int, TexelKind::Uint] {
        for dim in [
            ImageDim::D1,
            ImageDim::D1Buffer,
            ImageDim::D1Array,
            ImageDim::D2,
            ImageDim::D2Array,
            ImageDim::D3,
        ] {
            let depths: &[bool] = match (dim, kind) {
                (ImageDim::D2 | ImageDim::D2Array, TexelKind::Float) => &[false, true],
                _ => &[false],
            };
            for &depth in depths {
                let pairs: &[(ImageDescriptor, ImageAccess)] = if dim == ImageDim::D1Buffer {
                    &[
                        (ImageDescriptor::StorageTexelBuffer, ReadOnly),
                        (ImageDescriptor::StorageTexelBuffer, WriteOnly),
                        (ImageDescriptor::StorageTexelBuffer, ReadWrite),
                    ]
                } else {
                    &[
                        (ImageDescriptor::Sampled, ReadOnly),
                        (ImageDescriptor::Storage, WriteOnly),
                        (ImageDescriptor::Storage, ReadWrite),
                    ]
                };
                for &(descriptor, access) in pairs {
                    let key = ImageFunctionKey {
                        dim,
                        depth,
                        descriptor,
                        kind,
                    };
                    out.push((key, access));
                }
            }
        }
    }
    out
}

/// `f` on a module builder of an empty program.
pub(super) fn with_builder<R>(f: impl FnOnce(&mut ModuleBuilder) -> R) -> R {
    let options = BuildOptions::parse("").expect("options");
    let caps = DeviceCaps::full();
    let front = FrontEnd::run(&PreludeCache::default(), "image.cl", "", &options, &caps);
    let analysis = crate::analysis::analyse(&front.program);
    let block = GlobalsBlock::layout(&front.program);
    let mut diags = Diagnostics::default();
    let mut b = ModuleBuilder::new(
        &front.program,
        &analysis,
        &options,
        &caps,
        &mut diags,
        &block,
    );
    f(&mut b)
}

/// An image global of `key` in `b`'s module.
pub(super) fn image_global(
    b: &mut ModuleBuilder,
    key: ImageFunctionKey,
    access: ImageAccess,
) -> naga::Handle<naga::GlobalVariable> {
    let image_ty = b.image_handle_type(key, access);
    b.module.global_variables.append(
        naga::GlobalVariable {
            name: Some("image".into()),
            space: naga::AddressSpace::Handle,
            binding: Some(naga::ResourceBinding {
                group: IMAGE_DESCRIPTOR_SET,
                binding: 0,
            }),
            ty: image_ty,
            init: None,
            memory_decorations: naga::MemoryDecorations::empty(),
        },
        Span::UNDEFINED,
    )
}

/// A module whose entry point calls every function `access` allows on an
/// image global of `key`.
fn module_using(key: ImageFunctionKey, access: ImageAccess) -> naga::Module {
    with_builder(|b| module_with_calls(b, key, access))
}

fn module_with_calls(
    b: &mut ModuleBuilder,
    key: ImageFunctionKey,
    access: ImageAccess,
) -> naga::Module {
    let global = image_global(b, key, access);
    let reads = access != ImageAccess::WriteOnly;
    let writes = access != ImageAccess::ReadOnly;
    let sample = reads.then(|| b.image_sample_function(key, access));
    let fetch = reads.then(|| b.image_fetch_function(key, access));
    let write = writes.then(|| b.image_write_function(global, key, access));
    // Made once per module.
    assert_eq!(sample, reads.then(|| b.image_sample_function(key, access)));
    assert_eq!(
        write,
        writes.then(|| b.image_write_function(global, key, access))
    );

    let uvec4 = b.vec4_type(naga::Scalar::U32);
    let ivec4 = b.vec4_type(naga::Scalar::I32);
    let vec4 = b.vec4_type(naga::Scalar::F32);
    let value_ty = b.vec4_type(key.kind.scalar());
    let mut fb = Emitter::default();
    let image = fb.add(E::GlobalVariable(global));
    let words = |fb: &mut Emitter, ws: [u32; 4]| {
        let lanes = ws.map(|w| fb.add(E::Literal(L::U32(w)))).to_vec();
        fb.add(E::Compose {
            ty: uvec4,
            components: lanes,
        })
    };
    let info0 = words(&mut fb, [4, 3, 2, 2]);
    let info1 = words(
        &mut fb,
        [
            crate::image::CL_UNORM_INT8,
            crate::image::CL_RGBA,
            0x3210_3210,
            1,
        ],
    );
    let sampler = fb.add(E::Literal(L::U32(0x21)));
    let coord_f = fb.add(E::ZeroValue(vec4));
    let coord_i = fb.add(E::ZeroValue(ivec4));
    let value = fb.add(E::ZeroValue(value_ty));
    let call = |fb: &mut Emitter, function, arguments: Vec<_>, returns: bool| {
        let result = returns.then(|| fb.add(E::CallResult(function)));
        fb.push(naga::Statement::Call {
            function,
            arguments,
            result,
        });
    };
    if let Some(f) = sample {
        call(
            &mut fb,
            f,
            vec![image, info0, info1, sampler, coord_f],
            true,
        );
    }
    if let Some(f) = fetch {
        call(&mut fb, f, vec![image, info0, info1, coord_i], true);
    }
    if let Some(f) = write {
        call(&mut fb, f, vec![info0, info1, coord_i, value], false);
    }
    let mut function = fb.finish();
    function.name = Some("main".into());
    b.module.entry_points.push(naga::EntryPoint {
        name: "main".into(),
        stage: naga::ShaderStage::Compute,
        early_depth_test: None,
        workgroup_size: [1, 1, 1],
        workgroup_size_overrides: None,
        function,
        mesh_info: None,
        task_payload: None,
        incoming_ray_payload: None,
    });
    std::mem::take(&mut b.module)
}

const OP_CAPABILITY: u32 = 17;
const OP_TYPE_IMAGE: u32 = 25;
const DIM_1D: u32 = 0;
const DIM_BUFFER: u32 = 5;
const STORAGE_SAMPLED: u32 = 2;
const FORMAT_UNKNOWN: u32 = 0;
const CAPABILITY_IMAGE_BUFFER: u32 = 47;
const CAPABILITY_READ_WITHOUT_FORMAT: u32 = 55;
const CAPABILITY_WRITE_WITHOUT_FORMAT: u32 = 56;

/// What the translator does to the SPIR-V of storage images: `Unknown`
/// formats (with the `*WithoutFormat` capabilities) and, for texel
/// buffers, the `Buffer` dimension.
fn patch_storage_images(words: &mut Vec<u32>, texel_buffer: bool) {
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        assert!(count > 0, "malformed SPIR-V");
        if words[at] & 0xffff == OP_TYPE_IMAGE && words[at + 7] == STORAGE_SAMPLED {
            words[at + 8] = FORMAT_UNKNOWN;
            if texel_buffer && words[at + 3] == DIM_1D {
                words[at + 3] = DIM_BUFFER;
            }
        }
        at += count;
    }
    let capabilities = [
        CAPABILITY_IMAGE_BUFFER,
        CAPABILITY_READ_WITHOUT_FORMAT,
        CAPABILITY_WRITE_WITHOUT_FORMAT,
    ];
    for (i, c) in capabilities.into_iter().enumerate() {
        words.splice(5 + 2 * i..5 + 2 * i, [(2 << 16) | OP_CAPABILITY, c]);
    }
}

#[test]
fn every_image_function_validates_and_passes_spirv_val() {
    let dir = std::env::temp_dir().join(format!("clvulkan-image-fns-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let keys = every_key();
    assert_eq!(keys.len(), 3 * 18 + 6);
    for (n, &(key, access)) in keys.iter().enumerate() {
        let module = module_using(key, access);
        let info = naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::all(),
        )
        .validate(&module)
        .unwrap_or_else(|e| panic!("{key:?} {access:?}: {e:?}"));
        let options = naga::back::spv::Options {
            lang_version: (1, 5),
            flags: naga::back::spv::WriterFlags::empty(),
            ..Default::default()
        };
        let mut words = Vec::new();
        naga::back::spv::Writer::new(&options)
            .and_then(|mut w| w.write(&module, &info, None, &None, &mut words))
            .unwrap_or_else(|e| panic!("{key:?} {access:?}: {e}"));
        patch_storage_images(
            &mut words,
            key.descriptor == ImageDescriptor::StorageTexelBuffer,
        );
        let file = dir.join(format!("{n}.spv"));
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(&file, bytes).expect("write spv");
        let out = Command::new("spirv-val")
            .args(["--target-env", "vulkan1.2"])
            .arg(&file)
            .output()
            .expect("spirv-val must be installed (see README)");
        assert!(
            out.status.success(),
            "{key:?} {access:?}: spirv-val failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
