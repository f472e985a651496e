//! Memory order on atomic instructions, patched into the SPIR-V naga writes.
//!
//! naga writes every atomic with empty (relaxed) memory semantics. The
//! lowering marks an OpenCL 2.0 atomic that acquires or releases with
//! marker barriers just before it (`MemoryBarrier` flagged [`MARKER`]: one
//! for release, two for acquire, three for both, each carrying the memory
//! the atomic lives in); this pass removes the markers and gives the next
//! atomic instruction those semantics instead.

use std::collections::HashMap;

/// The naga barrier flag that marks an order marker. `TEXTURE` (SPIR-V
/// `ImageMemory`) alone is one no OpenCL fence of ours produces: an image
/// fence carries [`IMAGE_FENCE`] with it.
pub const MARKER: naga::Barrier = naga::Barrier::TEXTURE;

/// The flags of a real fence over image memory (`CLK_IMAGE_MEM_FENCE`):
/// `TEXTURE` with `SUB_GROUP` (SPIR-V `SubgroupMemory`, which no marker
/// has, and which orders nothing more at device scope), and `STORAGE`,
/// which gives it device scope as images are device memory.
pub const IMAGE_FENCE: naga::Barrier = naga::Barrier::TEXTURE
    .union(naga::Barrier::SUB_GROUP)
    .union(naga::Barrier::STORAGE);

const HEADER_WORDS: usize = 5;
const OP_CONSTANT: u32 = 43;
const OP_MEMORY_BARRIER: u32 = 225;
const OP_ATOMIC_LOAD: u32 = 227;
const OP_ATOMIC_STORE: u32 = 228;
const OP_ATOMIC_COMPARE_EXCHANGE: u32 = 230;
const OP_ATOMIC_COMPARE_EXCHANGE_WEAK: u32 = 231;
/// OpAtomicLoad .. OpAtomicXor.
const ATOMICS: std::ops::RangeInclusive<u32> = 227..=242;

const ACQUIRE: u32 = 0x2;
const RELEASE: u32 = 0x4;
const ACQUIRE_RELEASE: u32 = 0x8;
const UNIFORM_MEMORY: u32 = 0x40;
const WORKGROUP_MEMORY: u32 = 0x100;
const IMAGE_MEMORY: u32 = 0x800;
const SUBGROUP_MEMORY: u32 = 0x80;

/// Where the memory-semantics operands of an atomic instruction are (word
/// offsets in the instruction), and whether each may release and acquire:
/// Vulkan lets loads only acquire and stores only release.
fn semantics_operands(opcode: u32) -> &'static [(usize, bool, bool)] {
    match opcode {
        OP_ATOMIC_LOAD => &[(5, false, true)],
        OP_ATOMIC_STORE => &[(3, true, false)],
        // Equal and Unequal; a failed exchange only loads.
        OP_ATOMIC_COMPARE_EXCHANGE | OP_ATOMIC_COMPARE_EXCHANGE_WEAK => {
            &[(5, true, true), (6, false, true)]
        }
        _ => &[(5, true, true)],
    }
}

/// Whether the module has an `OpMemoryBarrier` at all: most have none,
/// and need no further look.
fn has_memory_barrier(words: &[u32]) -> bool {
    let mut at = HEADER_WORDS;
    while let Some(&first) = words.get(at) {
        if first & 0xffff == OP_MEMORY_BARRIER {
            return true;
        }
        at += ((first >> 16) as usize).max(1);
    }
    false
}

/// Replaces order markers by semantics on the atomics they precede. A
/// module without markers is left as it is.
pub fn apply(words: &mut Vec<u32>) {
    if words.len() <= HEADER_WORDS || !has_memory_barrier(words) {
        return;
    }
    // The 32-bit constants, for the markers' semantics and to find the type
    // of semantics operands.
    let mut constants: HashMap<u32, (u32, u32)> = HashMap::new();
    let mut instructions = Vec::new();
    let mut at = HEADER_WORDS;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if count == 0 || at + count > words.len() {
            return; // Malformed: leave the module alone.
        }
        if words[at] & 0xffff == OP_CONSTANT && count == 4 {
            constants.insert(words[at + 2], (words[at + 1], words[at + 3]));
        }
        instructions.push(at..at + count);
        at += count;
    }
    let is_marker = |range: &std::ops::Range<usize>| {
        words[range.start] & 0xffff == OP_MEMORY_BARRIER
            && range.len() == 3
            && constants
                .get(&words[range.start + 2])
                .is_some_and(|&(_, v)| v & IMAGE_MEMORY != 0 && v & SUBGROUP_MEMORY == 0)
    };
    if !instructions.iter().any(is_marker) {
        return;
    }

    let mut bound = words[3];
    let mut new_constants: Vec<(u32, u32)> = Vec::new(); // (value, id)
    let mut semantics_type = None;
    let mut out = Vec::with_capacity(words.len());
    out.extend_from_slice(&words[..HEADER_WORDS]);
    let (mut markers, mut memory) = (0, 0);
    let mut constant_section_end = None;
    for range in &instructions {
        let opcode = words[range.start] & 0xffff;
        if is_marker(range) {
            markers += 1;
            memory |= constants[&words[range.start + 2]].1 & (UNIFORM_MEMORY | WORKGROUP_MEMORY);
            continue;
        }
        let mut instruction = words[range.clone()].to_vec();
        if ATOMICS.contains(&opcode) && markers > 0 {
            let (release, acquire) = (markers & 1 != 0, markers & 2 != 0);
            for &(operand, may_release, may_acquire) in semantics_operands(opcode) {
                let direction = match (release && may_release, acquire && may_acquire) {
                    (true, true) => ACQUIRE_RELEASE,
                    (true, false) => RELEASE,
                    (false, true) => ACQUIRE,
                    (false, false) => continue,
                };
                let Some(&(ty, old)) = constants.get(&instruction[operand]) else {
                    continue;
                };
                semantics_type.get_or_insert(ty);
                let value = old | direction | memory;
                let id = match new_constants.iter().find(|c| c.0 == value) {
                    Some(&(_, id)) => id,
                    None => {
                        new_constants.push((value, bound));
                        bound += 1;
                        bound - 1
                    }
                };
                instruction[operand] = id;
            }
            (markers, memory) = (0, 0);
        }
        if opcode == OP_CONSTANT {
            constant_section_end = Some(out.len() + instruction.len());
        }
        out.extend_from_slice(&instruction);
    }
    // The new constants go after the module's last 32-bit constant, which
    // is in the types-and-constants section, after their type.
    if let (Some(ty), Some(end)) = (semantics_type, constant_section_end) {
        let declarations = new_constants
            .iter()
            .flat_map(|&(value, id)| [(4 << 16) | OP_CONSTANT, ty, id, value]);
        out.splice(end..end, declarations);
    }
    out[3] = bound;
    *words = out;
}

#[cfg(test)]
mod tests {
    use crate::DeviceCaps;

    /// `(opcode, semantics operands' values)` of every atomic instruction,
    /// and how many memory barriers are left.
    fn atomics(source: &str) -> (Vec<(u32, Vec<u32>)>, usize) {
        let program = crate::build(source, "-cl-std=CL2.0", &DeviceCaps::full()).expect("build");
        let words = program.kernels[0].spirv([64, 1, 1], &[]).expect("spirv");
        let mut constants = std::collections::HashMap::new();
        let (mut found, mut barriers) = (Vec::new(), 0);
        let mut at = super::HEADER_WORDS;
        while at < words.len() {
            let count = (words[at] >> 16) as usize;
            let opcode = words[at] & 0xffff;
            if opcode == super::OP_CONSTANT && count == 4 {
                constants.insert(words[at + 2], words[at + 3]);
            }
            if opcode == super::OP_MEMORY_BARRIER {
                barriers += 1;
            }
            if super::ATOMICS.contains(&opcode) {
                let values = super::semantics_operands(opcode)
                    .iter()
                    .map(|&(i, ..)| constants[&words[at + i]])
                    .collect();
                found.push((opcode, values));
            }
            at += count;
        }
        (found, barriers)
    }

    #[test]
    fn orders_become_semantics_of_the_atomic() {
        let (found, barriers) = atomics(
            "kernel void k(global atomic_int *a, global int *out) {
                 atomic_store_explicit(a, 1, memory_order_release);
                 out[0] = atomic_load_explicit(a, memory_order_acquire);
                 out[1] = atomic_fetch_add(a, 2);
                 out[2] = atomic_fetch_add_explicit(a, 3, memory_order_relaxed);
                 int e = 0;
                 out[3] = atomic_compare_exchange_strong(a, &e, 4);
             }",
        );
        assert_eq!(barriers, 0, "markers left behind");
        const STORAGE: u32 = super::UNIFORM_MEMORY;
        assert_eq!(
            found,
            [
                (super::OP_ATOMIC_STORE, vec![super::RELEASE | STORAGE]),
                (super::OP_ATOMIC_LOAD, vec![super::ACQUIRE | STORAGE]),
                (234, vec![super::ACQUIRE_RELEASE | STORAGE]),
                (234, vec![0]),
                (
                    super::OP_ATOMIC_COMPARE_EXCHANGE,
                    vec![super::ACQUIRE_RELEASE | STORAGE, super::ACQUIRE | STORAGE]
                ),
            ]
        );
    }

    #[test]
    fn float_fetch_modify_orders_each_exchange() {
        let (found, barriers) = atomics(
            "kernel void k(global atomic_float *a, global float *out) {
                 out[0] = atomic_fetch_add_explicit(a, 1.0f, memory_order_acq_rel);
                 out[1] = atomic_fetch_min_explicit(a, 2.0f, memory_order_relaxed);
             }",
        );
        assert_eq!(barriers, 0, "markers left behind");
        const STORAGE: u32 = super::UNIFORM_MEMORY;
        // Each: an unordered first read, then the exchange in the loop.
        assert_eq!(
            found,
            [
                (super::OP_ATOMIC_LOAD, vec![0]),
                (
                    super::OP_ATOMIC_COMPARE_EXCHANGE,
                    vec![super::ACQUIRE_RELEASE | STORAGE, super::ACQUIRE | STORAGE]
                ),
                (super::OP_ATOMIC_LOAD, vec![0]),
                (super::OP_ATOMIC_COMPARE_EXCHANGE, vec![0, 0]),
            ]
        );
    }

    #[test]
    fn fences_stay_fences() {
        let (found, barriers) = atomics(
            "kernel void k(global int *a) {
                 a[0] = 1;
                 mem_fence(CLK_GLOBAL_MEM_FENCE);
                 atomic_inc(a + 1);
             }",
        );
        assert_eq!(barriers, 1);
        // The plain store is atomic too once its buffer holds atomics.
        assert_eq!(found, [(super::OP_ATOMIC_STORE, vec![0]), (234, vec![0])]);
    }
}
