//! Loop unrolling as the SPIR-V shows it: counted loops whose counter
//! indexes a private array, and loops under `#pragma unroll`, leave no
//! loop behind and index their private arrays with constants only (what
//! lets a driver keep them in registers); loops that must stay loops
//! (the body writes the counter or leaves early, `#pragma nounroll`, a
//! body too large, `-cl-opt-disable`) do. `tests/unrolled_loops.rs` at
//! the workspace root runs such kernels and checks their results.

use translator::DeviceCaps;

const OP_TYPE_ARRAY: u32 = 28;
const OP_TYPE_POINTER: u32 = 32;
const OP_CONSTANT: u32 = 43;
const OP_VARIABLE: u32 = 59;
const OP_ACCESS_CHAIN: u32 = 65;
const OP_LOOP_MERGE: u32 = 246;
const STORAGE_FUNCTION: u32 = 7;

/// What the SPIR-V of a kernel says about its loops and private arrays.
#[derive(Debug)]
struct Facts {
    loops: usize,
    /// `Function` variables of array type.
    private_arrays: usize,
    /// Those of them that an access chain indexes with a value that is no
    /// constant.
    dynamically_indexed: usize,
}

fn facts(words: &[u32]) -> Facts {
    use std::collections::{HashMap, HashSet};
    let mut arrays = HashSet::new();
    let mut pointers_to_arrays = HashSet::new();
    let mut constants = HashSet::new();
    let mut private_arrays = HashSet::new();
    let mut dynamic = HashSet::new();
    let mut loops = 0;
    // Access chains into access chains keep their variable.
    let mut roots: HashMap<u32, u32> = HashMap::new();
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        assert!(count > 0 && at + count <= words.len(), "malformed SPIR-V");
        let op = &words[at..at + count];
        match op[0] & 0xffff {
            OP_TYPE_ARRAY => {
                arrays.insert(op[1]);
            }
            OP_TYPE_POINTER if arrays.contains(&op[3]) => {
                pointers_to_arrays.insert(op[1]);
            }
            OP_CONSTANT => {
                constants.insert(op[2]);
            }
            OP_VARIABLE if op[3] == STORAGE_FUNCTION && pointers_to_arrays.contains(&op[1]) => {
                private_arrays.insert(op[2]);
                roots.insert(op[2], op[2]);
            }
            OP_ACCESS_CHAIN => {
                if let Some(&root) = roots.get(&op[3]) {
                    if op[4..].iter().all(|i| constants.contains(i)) {
                        roots.insert(op[2], root);
                    } else {
                        dynamic.insert(root);
                    }
                }
            }
            OP_LOOP_MERGE => loops += 1,
            _ => {}
        }
        at += count;
    }
    Facts {
        loops,
        private_arrays: private_arrays.len(),
        dynamically_indexed: dynamic.len(),
    }
}

fn kernel_facts(source: &str, options: &str, kernel: &str, local: [u32; 3]) -> Facts {
    let program = translator::build(source, options, &DeviceCaps::full())
        .unwrap_or_else(|e| panic!("build failed:\n{e}"));
    let words = program
        .kernel(kernel)
        .expect("kernel")
        .spirv(local, &[])
        .expect("spirv");
    facts(&words)
}

const SGEMM_REGS: &str = include_str!("../../compare/kernels/sgemm_regs.cl");

#[test]
fn register_blocked_sgemm_keeps_its_private_arrays_constant_indexed() {
    let unrolled = kernel_facts(SGEMM_REGS, "", "sgemm_regs", [16, 16, 1]);
    assert_eq!(unrolled.private_arrays, 2, "{unrolled:?}");
    assert_eq!(unrolled.dynamically_indexed, 0, "{unrolled:?}");
    // Only the loop over the k tiles, whose trip count is an argument.
    assert_eq!(unrolled.loops, 1, "{unrolled:?}");
    // The same kernel as it was lowered before unrolling.
    let kept = kernel_facts(SGEMM_REGS, "-cl-opt-disable", "sgemm_regs", [16, 16, 1]);
    assert_eq!(kept.dynamically_indexed, 2, "{kept:?}");
    assert_eq!(kept.loops, 11, "{kept:?}");
}

#[test]
fn register_blocked_sgemm_needs_no_pragma_for_its_private_arrays() {
    let source = SGEMM_REGS.replace("#pragma unroll", "");
    let f = kernel_facts(&source, "", "sgemm_regs", [16, 16, 1]);
    assert_eq!(f.dynamically_indexed, 0, "{f:?}");
    // The k tiles, the two loads into __local memory and the k loop
    // within a tile index no private array with their counters.
    assert_eq!(f.loops, 4, "{f:?}");
}

#[test]
fn loops_indexing_private_arrays_unroll_without_a_pragma() {
    let source = r#"
        kernel void k(global float *out, global const float *in) {
            float acc[4][4];
            float row[4];
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++)
                    acc[i][j] = 0.0f;
            for (int k = 0; k < 64; k++) {
                for (int j = 3; j >= 0; j--)
                    row[j] = in[k * 4 + j];
                for (int i = 0; i <= 3; i++)
                    for (int j = 0; j < 4; j += 1)
                        acc[i][j] += row[j] * (float)i;
            }
            for (unsigned i = 0; i != 4; ++i)
                for (int j = 0; j < 4; j++)
                    out[i * 4 + j] = acc[i][j];
        }
    "#;
    let f = kernel_facts(source, "", "k", [1, 1, 1]);
    assert_eq!(f.private_arrays, 2, "{f:?}");
    assert_eq!(f.dynamically_indexed, 0, "{f:?}");
    // The k loop indexes no private array with its counter.
    assert_eq!(f.loops, 1, "{f:?}");
}

#[test]
fn loops_that_must_stay_loops_do() {
    let cases = [
        // The body writes the counter.
        "for (int i = 0; i < 8; i++) { a[i] = x; if (x > 3) i++; }",
        // The body leaves the loop, or starts the next iteration early.
        "for (int i = 0; i < 8; i++) { if (a[i] > x) break; a[i] = x; }",
        "for (int i = 0; i < 8; i++) { if (a[i] > x) continue; a[i] = x; }",
        "for (int i = 0; i < 8; i++) { switch (x) { case 1: continue; } a[i] = x; }",
        // A pointer to the counter exists.
        "for (int i = 0; i < 8; i++) { int *p = &i; a[*p] = x; }",
        // The condition reads another variable.
        "for (int i = 0; i < x; i++) a[i & 7] = x;",
        // Asked not to.
        "#pragma nounroll\n for (int i = 0; i < 8; i++) a[i] = x;",
        "#pragma unroll 1\n for (int i = 0; i < 8; i++) a[i] = x;",
        // Copies too large to make without being asked.
        "for (int i = 0; i < 8; i++) a[i] = x; for (int i = 0; i < 2000; i++) b[i] = x * i;",
    ];
    for case in cases {
        let source = format!(
            "kernel void k(global int *out, int x) {{
                int a[8] = {{0}}; int b[2000];
                {case}
                out[0] = a[x & 7] + b[x];
            }}"
        );
        let f = kernel_facts(&source, "", "k", [1, 1, 1]);
        assert!(f.loops >= 1, "{case}: {f:?}");
    }
}

#[test]
fn pragmas_unroll_what_they_ask_for() {
    let loops = |pragma: &str, trips: u32| {
        let source = format!(
            "kernel void k(global int *out, int x) {{
                int s = 0;
                {pragma}
                for (int i = 0; i < {trips}; i++) s = s * 3 + out[i + x];
                out[0] = s;
            }}"
        );
        kernel_facts(&source, "", "k", [1, 1, 1]).loops
    };
    // No private array: a loop unless asked.
    assert_eq!(loops("", 8), 1);
    assert_eq!(loops("#pragma unroll", 8), 0);
    assert_eq!(loops("__attribute__((opencl_unroll_hint))", 8), 0);
    assert_eq!(loops("#pragma unroll 16", 8), 0);
    // Partly: still one loop, with four bodies per iteration.
    assert_eq!(loops("#pragma unroll 4", 12), 1);
    assert_eq!(loops("#pragma unroll 4", 10), 1);
    assert_eq!(loops("#pragma unroll", 0), 0);
}

#[test]
fn partly_unrolled_loops_hold_that_many_bodies() {
    let calls = |pragma: &str| {
        let source = format!(
            "int f(int v) {{ return v * v + 1; }}
            kernel void k(global int *out) {{
                int s = 0;
                {pragma}
                for (int i = 0; i < 12; i++) s += f(out[i]);
                out[0] = s;
            }}"
        );
        let program = translator::build(&source, "", &DeviceCaps::full()).expect("build");
        let words = program.kernel("k").unwrap().spirv([1, 1, 1], &[]).unwrap();
        const OP_FUNCTION_CALL: u32 = 57;
        let mut calls = 0;
        let mut at = 5;
        while at < words.len() {
            calls += usize::from(words[at] & 0xffff == OP_FUNCTION_CALL);
            at += (words[at] >> 16) as usize;
        }
        calls
    };
    let once = calls("");
    assert_eq!(calls("#pragma unroll 4") - once, 3);
    // 5 does not divide 12: the loop is left as it was.
    assert_eq!(calls("#pragma unroll 5"), once);
}

#[test]
fn an_index_past_the_end_in_an_unreached_copy_still_builds() {
    // Copies for i >= 4 index `small` past its end under a test that is
    // false there: naga rejects a constant index out of bounds, so that
    // one stays a run-time value.
    let source = r#"
        kernel void k(global int *out, int x) {
            int small[4];
            int big[8];
            for (int i = 0; i < 8; i++) {
                if (i < 4) small[i] = x + i;
                big[i] = x * i;
            }
            out[0] = small[x & 3] + big[x & 7];
        }
    "#;
    let f = kernel_facts(source, "", "k", [1, 1, 1]);
    assert_eq!(f.loops, 0, "{f:?}");
}
