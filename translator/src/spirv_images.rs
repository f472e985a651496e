//! The SPIR-V patch for image arguments, which naga's writer cannot
//! express: storage images and texel buffers of `Unknown` format (naga
//! needs a format; the lowering gives them `Rgba32*`, one per texel kind)
//! read and written through the `*WithoutFormat` capabilities, and the
//! `Buffer` dimension for `image1d_buffer_t` (naga has none; the lowering
//! declares a 1D storage image).
//!
//! And in a kernel with images, every fence over device memory orders
//! image memory too (`ImageMemory` semantics, which naga writes only for
//! its texture barriers), which is what `CLK_IMAGE_MEM_FENCE` lowers to.
//!
//! No two image types become one: storage images of a kernel differ in
//! texel kind, dimension or arrayness before the patch as after it, and a
//! texel buffer's type is its own unless a writable `image1d_t` of the same
//! texel kind shares it, which the patch reports as unsupported rather than
//! retype half the module.

use crate::image::{ImageDescriptor, IMAGE_DESCRIPTOR_SET};
use crate::spirv::SpirvError;
use std::collections::{HashMap, HashSet};

const HEADER_WORDS: usize = 5;
const OP_CAPABILITY: u32 = 17;
const OP_TYPE_IMAGE: u32 = 25;
const OP_TYPE_POINTER: u32 = 32;
const OP_VARIABLE: u32 = 59;
const OP_DECORATE: u32 = 71;
const DECORATION_BINDING: u32 = 33;
const DECORATION_DESCRIPTOR_SET: u32 = 34;
const DIM_1D: u32 = 0;
const DIM_BUFFER: u32 = 5;
const SAMPLED_STORAGE: u32 = 2;
const FORMAT_UNKNOWN: u32 = 0;
const CAPABILITY_IMAGE_1D: u32 = 44;
const CAPABILITY_IMAGE_BUFFER: u32 = 47;
const CAPABILITY_READ_WITHOUT_FORMAT: u32 = 55;
const CAPABILITY_WRITE_WITHOUT_FORMAT: u32 = 56;

/// Word offsets of `OpTypeImage`'s operands.
const IMAGE_DIM: usize = 3;
const IMAGE_SAMPLED: usize = 7;
const IMAGE_FORMAT: usize = 8;

/// Patches the image types of a kernel whose image bindings are
/// `descriptors`; a module without images is left as it is.
pub fn patch(
    words: &mut Vec<u32>,
    descriptors: &[ImageDescriptor],
    kernel: &str,
) -> Result<(), SpirvError> {
    if descriptors.is_empty() {
        return Ok(());
    }
    let mut instructions = Vec::new();
    let mut at = HEADER_WORDS;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if count == 0 || at + count > words.len() {
            return Err(SpirvError(format!("kernel '{kernel}': malformed SPIR-V")));
        }
        instructions.push(at);
        at += count;
    }
    // The image variables: descriptor set and binding of each.
    let (mut sets, mut bindings) = (HashMap::new(), HashMap::new());
    for &at in &instructions {
        if opcode(words, at) == OP_DECORATE && words[at] >> 16 == 4 {
            match words[at + 2] {
                DECORATION_DESCRIPTOR_SET => sets.insert(words[at + 1], words[at + 3]),
                DECORATION_BINDING => bindings.insert(words[at + 1], words[at + 3]),
                _ => None,
            };
        }
    }
    let pointees: HashMap<u32, u32> = (instructions.iter())
        .filter(|&&at| opcode(words, at) == OP_TYPE_POINTER)
        .map(|&at| (words[at + 1], words[at + 3]))
        .collect();
    let (mut buffer_types, mut other_types) = (HashSet::new(), HashSet::new());
    for &at in &instructions {
        if opcode(words, at) != OP_VARIABLE {
            continue;
        }
        let variable = words[at + 2];
        if sets.get(&variable) != Some(&IMAGE_DESCRIPTOR_SET) {
            continue;
        }
        let Some(&image_type) = pointees.get(&words[at + 1]) else {
            continue;
        };
        let binding = bindings.get(&variable).copied().unwrap_or(u32::MAX);
        match descriptors.get(binding as usize) {
            Some(ImageDescriptor::StorageTexelBuffer) => buffer_types.insert(image_type),
            _ => other_types.insert(image_type),
        };
    }
    if buffer_types.iter().any(|t| other_types.contains(t)) {
        return Err(SpirvError(format!(
            "kernel '{kernel}': an image1d_buffer_t and a writable image1d_t accessed as the same \
             texel type in one kernel are not supported"
        )));
    }
    let (mut storage, mut storage_1d) = (false, false);
    for &at in &instructions {
        if opcode(words, at) != OP_TYPE_IMAGE || words[at + IMAGE_SAMPLED] != SAMPLED_STORAGE {
            continue;
        }
        storage = true;
        words[at + IMAGE_FORMAT] = FORMAT_UNKNOWN;
        if buffer_types.contains(&words[at + 1]) {
            words[at + IMAGE_DIM] = DIM_BUFFER;
        } else if words[at + IMAGE_DIM] == DIM_1D {
            storage_1d = true;
        }
    }
    let mut image_types: Vec<&[u32]> = (instructions.iter())
        .filter(|&&at| opcode(words, at) == OP_TYPE_IMAGE)
        .map(|&at| &words[at + 2..at + (words[at] >> 16) as usize])
        .collect();
    let count = image_types.len();
    image_types.sort_unstable();
    image_types.dedup();
    if image_types.len() != count {
        return Err(SpirvError(format!(
            "internal compiler error: kernel '{kernel}': two image types became one"
        )));
    }
    // Capabilities: the ones the patch needs, without Image1D where no 1D
    // storage image is left.
    let declared: Vec<usize> = (instructions.iter().copied())
        .filter(|&at| opcode(words, at) == OP_CAPABILITY)
        .collect();
    let has = |c: u32| declared.iter().any(|&at| words[at + 1] == c);
    let mut wanted = Vec::new();
    if storage {
        wanted.extend([
            CAPABILITY_READ_WITHOUT_FORMAT,
            CAPABILITY_WRITE_WITHOUT_FORMAT,
        ]);
    }
    if !buffer_types.is_empty() {
        wanted.push(CAPABILITY_IMAGE_BUFFER);
    }
    wanted.retain(|&c| !has(c));
    let drop_image_1d = !storage_1d && has(CAPABILITY_IMAGE_1D) && !buffer_types.is_empty();
    let Some(&first) = declared.first() else {
        return Err(SpirvError(format!(
            "kernel '{kernel}': no capabilities in SPIR-V"
        )));
    };
    if drop_image_1d {
        if let Some(&at) = declared
            .iter()
            .find(|&&at| words[at + 1] == CAPABILITY_IMAGE_1D)
        {
            words.drain(at..at + 2);
        }
    }
    let declarations = wanted.iter().flat_map(|&c| [(2 << 16) | OP_CAPABILITY, c]);
    words.splice(first..first, declarations);
    fences_order_images(words);
    Ok(())
}

const OP_TYPE_INT: u32 = 21;
const OP_CONSTANT: u32 = 43;
const OP_CONTROL_BARRIER: u32 = 224;
const OP_MEMORY_BARRIER: u32 = 225;
const UNIFORM_MEMORY: u32 = 0x40;
const IMAGE_MEMORY: u32 = 0x800;

/// Gives every barrier whose semantics include `UniformMemory` the
/// `ImageMemory` semantics too, through new constants (the old ones may
/// have other uses). Runs after `atomic_order`, so no marker is left.
fn fences_order_images(words: &mut Vec<u32>) {
    let mut constants: HashMap<u32, (usize, u32)> = HashMap::new();
    let mut uint = None;
    let mut barriers = Vec::new();
    let mut at = HEADER_WORDS;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if count == 0 || at + count > words.len() {
            return;
        }
        match opcode(words, at) {
            OP_TYPE_INT if count == 4 && words[at + 2] == 32 && words[at + 3] == 0 => {
                uint = Some(words[at + 1]);
            }
            OP_CONSTANT if count == 4 => {
                constants.insert(words[at + 2], (at, words[at + 3]));
            }
            OP_MEMORY_BARRIER if count == 3 => barriers.push(at + 2),
            OP_CONTROL_BARRIER if count == 4 => barriers.push(at + 3),
            _ => {}
        }
        at += count;
    }
    let Some(uint) = uint else {
        return;
    };
    // Old semantics id to the new constant's (id, value), made once each.
    let mut made: HashMap<u32, (u32, u32)> = HashMap::new();
    for &operand in &barriers {
        let old = words[operand];
        let Some(&(_, value)) = constants.get(&old) else {
            continue;
        };
        if value & UNIFORM_MEMORY == 0 || value & IMAGE_MEMORY != 0 {
            continue;
        }
        let id = match made.get(&old) {
            Some(&(id, _)) => id,
            None => {
                let id = words[3];
                words[3] += 1;
                made.insert(old, (id, value | IMAGE_MEMORY));
                id
            }
        };
        words[operand] = id;
    }
    // Each new constant right after the old one, in the types section.
    let mut inserts: Vec<(usize, [u32; 4])> = made
        .iter()
        .map(|(old, &(id, value))| {
            let at = constants[old].0 + 4;
            (at, [(4 << 16) | OP_CONSTANT, uint, id, value])
        })
        .collect();
    inserts.sort_unstable_by_key(|&(at, _)| std::cmp::Reverse(at));
    for (at, instruction) in inserts {
        words.splice(at..at, instruction);
    }
}

fn opcode(words: &[u32], at: usize) -> u32 {
    words[at] & 0xffff
}
