//! `vloadn`/`vstoren` of `char`s and `short`s that fill whole words move
//! runs of words: a `vstore16` of `char`s touches five words, with atomics
//! only on the two it may share with neighbours (the end-to-end check of
//! the values is `tests/vector_runs.rs`).

use translator::DeviceCaps;

const OP_LOAD: u32 = 61;
const OP_ATOMIC_AND: u32 = 240;
const OP_ATOMIC_OR: u32 = 241;

fn opcode_counts(source: &str) -> (usize, usize) {
    let program = translator::build(source, "", &DeviceCaps::full())
        .unwrap_or_else(|e| panic!("build failed:\n{e}"));
    let words = program.kernels[0].spirv([1, 1, 1], &[]).expect("spirv");
    let (mut atomics, mut loads, mut at) = (0, 0, 5);
    while at < words.len() {
        let (count, op) = ((words[at] >> 16) as usize, words[at] & 0xffff);
        assert!(count > 0, "malformed SPIR-V");
        match op {
            OP_ATOMIC_AND | OP_ATOMIC_OR => atomics += 1,
            OP_LOAD => loads += 1,
            _ => {}
        }
        at += count;
    }
    (atomics, loads)
}

#[test]
fn a_char16_store_uses_atomics_only_at_its_ends() {
    let (atomics, _) =
        opcode_counts("kernel void k(global char *p, char16 v, uint i) { vstore16(v, i, p + 3); }");
    // Clear and set on the first word, and on the word after when the run
    // straddles; the three words between are plain stores.
    assert_eq!(atomics, 4);
}

#[test]
fn a_short8_load_reads_five_words() {
    let (_, with_load) = opcode_counts(
        "kernel void k(global short *p, global short8 *out, uint i) { out[0] = vload8(i, p + 1); }",
    );
    let (_, without) = opcode_counts(
        "kernel void k(global short *p, global short8 *out, uint i) { out[0] = (short8)(p != 0); }",
    );
    // Four words of the run and the one after; the launch's own loads
    // (arguments, work-item ids) are the same in both.
    assert_eq!(with_load - without, 5);
}
