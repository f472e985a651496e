//! A kernel's SPIR-V specialised on its images' formats and its samplers
//! (`Kernel::spirv_specialized`): every specialisation validates, each
//! image's format words reach the calls on that image's binding, each
//! sampler argument's word reaches the reads given that argument, only
//! the placeholders change between specialisations, and a launch that
//! leaves a value out is refused.

use std::collections::HashMap;
use std::process::Command;
use translator::image::{self, sampler, ImageInfo};
use translator::{DeviceCaps, Kernel, Program, Specialization};

fn build(source: &str) -> Program {
    let caps = DeviceCaps {
        image_support: true,
        ..DeviceCaps::full()
    };
    translator::build(source, "-cl-std=CL3.0", &caps)
        .unwrap_or_else(|e| panic!("build failed:\n{e}"))
}

/// Two images and two sampler arguments, each used where its
/// placeholder can be traced: `src` (binding 0) is read with `s` then
/// with `t`, `dst` (binding 1) is written, and both are queried.
const KERNEL: &str = r#"
    __kernel void spec(global int *q, read_only image2d_t src, sampler_t s,
                       write_only image2d_t dst, sampler_t t) {
        int2 p = (int2)(get_global_id(0), get_global_id(1));
        float2 c = convert_float2(p) + 0.5f;
        float4 a = read_imagef(src, s, c);
        float4 b = read_imagef(src, t, c);
        write_imagef(dst, p, a + b);
        q[0] = get_image_channel_order(src) + get_image_channel_data_type(dst);
    }
"#;

/// The format words of an image of `order` and `data_type`, as the
/// runtime computes them.
fn format(order: u32, data_type: u32) -> [u32; 4] {
    let layout = image::order_layout(order).expect("a supported order");
    let info = ImageInfo {
        channel_data_type: data_type,
        channel_order: order,
        swizzle: layout.swizzle_word(),
        flags: image::info_flags(&layout, data_type),
        ..ImageInfo::default()
    };
    translator::specialization::format_words(&info)
}

fn specializations() -> Vec<Specialization> {
    let clamp_nearest =
        sampler::NORMALIZED_COORDS_FALSE | sampler::ADDRESS_CLAMP_TO_EDGE | sampler::FILTER_NEAREST;
    let repeat_linear =
        sampler::NORMALIZED_COORDS_TRUE | sampler::ADDRESS_REPEAT | sampler::FILTER_LINEAR;
    let border_linear = sampler::ADDRESS_CLAMP | sampler::FILTER_LINEAR;
    vec![
        Specialization {
            image_formats: vec![
                format(image::CL_RGBA, image::CL_UNORM_INT8),
                format(image::CL_BGRA, image::CL_UNORM_INT8),
            ],
            samplers: vec![clamp_nearest, repeat_linear],
        },
        Specialization {
            image_formats: vec![
                format(image::CL_R, image::CL_FLOAT),
                format(image::CL_RGBA, image::CL_UNORM_INT8),
            ],
            samplers: vec![border_linear, clamp_nearest],
        },
        Specialization {
            image_formats: vec![
                format(image::CL_RGBA, image::CL_HALF_FLOAT),
                format(image::CL_RG, image::CL_SNORM_INT16),
            ],
            samplers: vec![repeat_linear, border_linear],
        },
    ]
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

const OP_CONSTANT: u32 = 43;
const OP_CONSTANT_COMPOSITE: u32 = 44;
const OP_FUNCTION_CALL: u32 = 57;
const OP_LOAD: u32 = 61;
const OP_STORE: u32 = 62;
const OP_DECORATE: u32 = 71;
const DECORATION_BINDING: u32 = 33;
const DECORATION_DESCRIPTOR_SET: u32 = 34;

/// What the checks follow through a module: constants' values, loads'
/// pointers, the constants stored to each variable, and the calls.
struct Flow<'a> {
    constants: HashMap<u32, u32>,
    composites: HashMap<u32, Vec<u32>>,
    loads: HashMap<u32, u32>,
    stores: HashMap<u32, Vec<u32>>,
    calls: Vec<&'a [u32]>,
    /// The image variables by binding of set 1.
    image_variables: HashMap<u32, u32>,
}

impl<'a> Flow<'a> {
    fn of(words: &'a [u32]) -> Self {
        let code = instructions(words);
        let mut flow = Flow {
            constants: HashMap::new(),
            composites: HashMap::new(),
            loads: HashMap::new(),
            stores: HashMap::new(),
            calls: Vec::new(),
            image_variables: HashMap::new(),
        };
        let (mut sets, mut bindings) = (HashMap::new(), HashMap::new());
        for i in code {
            match i[0] & 0xffff {
                OP_CONSTANT if i.len() == 4 => {
                    flow.constants.insert(i[2], i[3]);
                }
                OP_CONSTANT_COMPOSITE => {
                    flow.composites.insert(i[2], i[3..].to_vec());
                }
                OP_LOAD => {
                    flow.loads.insert(i[2], i[3]);
                }
                OP_STORE => flow.stores.entry(i[1]).or_default().push(i[2]),
                OP_FUNCTION_CALL => flow.calls.push(i),
                OP_DECORATE if i.len() == 4 && i[2] == DECORATION_DESCRIPTOR_SET => {
                    sets.insert(i[1], i[3]);
                }
                OP_DECORATE if i.len() == 4 && i[2] == DECORATION_BINDING => {
                    bindings.insert(i[1], i[3]);
                }
                _ => {}
            }
        }
        for (variable, binding) in bindings {
            if sets.get(&variable) == Some(&image::IMAGE_DESCRIPTOR_SET) {
                flow.image_variables.insert(binding, variable);
            }
        }
        flow
    }

    /// The values of a `uvec4` constant.
    fn composite(&self, id: u32) -> Option<Vec<u32>> {
        let parts = self.composites.get(&id)?;
        parts
            .iter()
            .map(|p| self.constants.get(p).copied())
            .collect()
    }

    /// The constant value a loaded `u32` holds: the constant stored to
    /// the variable it was loaded from.
    fn stored_constant(&self, id: u32) -> Option<u32> {
        let variable = self.loads.get(&id)?;
        let stored = self.stores.get(variable)?;
        let values: Vec<u32> = stored
            .iter()
            .filter_map(|v| self.constants.get(v).copied())
            .collect();
        match values[..] {
            [value] => Some(value),
            _ => None,
        }
    }

    /// The reads of image binding `binding`: calls whose first argument is
    /// its variable (or the image loaded from it), as (info1, sampler) ids.
    fn sampled_reads(&self, binding: u32) -> Vec<(u32, u32)> {
        let variable = self.image_variables[&binding];
        self.calls
            .iter()
            .filter(|c| {
                c.len() == 9 && (c[4] == variable || self.loads.get(&c[4]) == Some(&variable))
            })
            .map(|c| (c[6], c[7]))
            .collect()
    }

    /// The info1 arguments of the writes: calls of four arguments whose
    /// second is a `uvec4` constant (the write functions take the image
    /// from their global, not as an argument).
    fn write_formats(&self) -> Vec<Vec<u32>> {
        self.calls
            .iter()
            .filter(|c| c.len() == 8)
            .filter_map(|c| self.composite(c[5]))
            .collect()
    }
}

fn validate(words: &[u32], name: &str) {
    let dir = std::env::temp_dir().join(format!("clvulkan-spec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(format!("{name}.spv"));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&file, bytes).expect("write spv");
    let out = Command::new("spirv-val")
        .args(["--target-env", "vulkan1.2", "--scalar-block-layout"])
        .arg(&file)
        .output()
        .expect("spirv-val must be installed (see README)");
    assert!(
        out.status.success(),
        "{name}: spirv-val failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn kernel(program: &Program) -> &Kernel {
    program.kernel("spec").expect("kernel")
}

#[test]
fn each_specialization_validates_and_reaches_its_image_and_sampler() {
    let program = build(KERNEL);
    let kernel = kernel(&program);
    for (n, spec) in specializations().iter().enumerate() {
        let words = kernel
            .spirv_specialized([8, 2, 1], [8, 2, 1], &[], spec)
            .expect("spirv");
        validate(&words, &format!("spec{n}"));
        let flow = Flow::of(&words);
        let reads = flow.sampled_reads(0);
        assert_eq!(reads.len(), 2, "specialization {n}: two reads of src");
        for (read, &(info1, sampler_word)) in reads.iter().enumerate() {
            assert_eq!(
                flow.composite(info1),
                Some(spec.image_formats[0].to_vec()),
                "specialization {n}: read {read}'s format"
            );
            assert_eq!(
                flow.stored_constant(sampler_word),
                Some(spec.samplers[read]),
                "specialization {n}: read {read}'s sampler"
            );
        }
        assert_eq!(
            flow.write_formats(),
            vec![spec.image_formats[1].to_vec()],
            "specialization {n}: the write's format"
        );
    }
}

/// Specialisations differ only in the placeholders' words: nothing else
/// of the module depends on them, and no other constant shares one.
#[test]
fn specializations_differ_only_in_their_words() {
    let program = build(KERNEL);
    let kernel = kernel(&program);
    let specs = specializations();
    let modules: Vec<Vec<u32>> = specs
        .iter()
        .map(|spec| {
            kernel
                .spirv_specialized([8, 2, 1], [8, 2, 1], &[], spec)
                .expect("spirv")
        })
        .collect();
    let first = &modules[0];
    for (n, other) in modules.iter().enumerate().skip(1) {
        assert_eq!(first.len(), other.len());
        let differing: Vec<(u32, u32)> = first
            .iter()
            .zip(other)
            .filter(|(a, b)| a != b)
            .map(|(&a, &b)| (a, b))
            .collect();
        let mut expected: Vec<(u32, u32)> = specs[0]
            .image_formats
            .iter()
            .flatten()
            .chain(&specs[0].samplers)
            .zip(
                specs[n]
                    .image_formats
                    .iter()
                    .flatten()
                    .chain(&specs[n].samplers),
            )
            .filter(|(a, b)| a != b)
            .map(|(&a, &b)| (a, b))
            .collect();
        let mut differing_sorted = differing.clone();
        differing_sorted.sort_unstable();
        expected.sort_unstable();
        assert_eq!(differing_sorted, expected, "specialization 0 against {n}");
    }
}

#[test]
fn a_launch_must_give_every_value() {
    let program = build(KERNEL);
    let kernel = kernel(&program);
    let full = &specializations()[0];
    let without_sampler = Specialization {
        samplers: full.samplers[..1].to_vec(),
        ..full.clone()
    };
    let without_image = Specialization {
        image_formats: full.image_formats[..1].to_vec(),
        ..full.clone()
    };
    for spec in [without_sampler, without_image, Specialization::default()] {
        assert!(
            kernel
                .spirv_specialized([1, 1, 1], [1, 1, 1], &[], &spec)
                .is_err(),
            "{spec:?} was accepted"
        );
    }
}

/// Without a launch, the module is one for `CL_RGBA`/`CL_FLOAT` images
/// and a nearest, clamp-to-edge sampler: valid, for tools and queries.
#[test]
fn the_unspecialized_module_is_rgba_float() {
    let program = build(KERNEL);
    let kernel = kernel(&program);
    let words = kernel.spirv([1, 1, 1], &[]).expect("spirv");
    validate(&words, "unspecialized");
    let flow = Flow::of(&words);
    let rgba_float = format(image::CL_RGBA, image::CL_FLOAT).to_vec();
    let nearest =
        sampler::NORMALIZED_COORDS_FALSE | sampler::ADDRESS_CLAMP_TO_EDGE | sampler::FILTER_NEAREST;
    for (info1, sampler_word) in flow.sampled_reads(0) {
        assert_eq!(flow.composite(info1), Some(rgba_float.clone()));
        assert_eq!(flow.stored_constant(sampler_word), Some(nearest));
    }
    assert_eq!(flow.write_formats(), vec![rgba_float]);
}

/// A kernel without images or samplers needs no specialisation.
#[test]
fn kernels_without_images_take_the_empty_specialization() {
    let program = build("kernel void k(global int *p) { p[get_global_id(0)] = 1; }");
    let kernel = &program.kernels[0];
    let specialized = kernel
        .spirv_specialized([4, 1, 1], [4, 1, 1], &[], &Specialization::default())
        .expect("spirv");
    assert_eq!(specialized, kernel.spirv([4, 1, 1], &[]).expect("spirv"));
}
