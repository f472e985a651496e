//! The loop guard (`DeviceCaps::loop_guard`, for drivers that cut long
//! loops short): asked for, every loop of the kernel, its helpers' and the
//! library's, gets a check that reports to a status binding of its own;
//! not asked for, or in a kernel without loops, the SPIR-V is exactly what
//! it was.

use translator::{DeviceCaps, Program};

const OP_LOOP_MERGE: u32 = 246;
const OP_ATOMIC_OR: u32 = 241;

/// The opcodes of a module's instructions.
fn opcodes(words: &[u32]) -> Vec<u32> {
    let mut out = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        assert!(count > 0 && at + count <= words.len(), "malformed SPIR-V");
        out.push(words[at] & 0xffff);
        at += count;
    }
    out
}

fn build(source: &str, caps: &DeviceCaps) -> Program {
    translator::build(source, "", caps).unwrap_or_else(|e| panic!("build failed:\n{e}"))
}

fn spirv(program: &Program, kernel: &str) -> Vec<u32> {
    program
        .kernel(kernel)
        .expect("kernel")
        .spirv([8, 2, 1], &[])
        .expect("spirv")
}

fn guarded() -> DeviceCaps {
    DeviceCaps {
        loop_guard: true,
        ..DeviceCaps::full()
    }
}

const LOOPS: &str = r#"
    uint count_to(uint n) {
        uint c = 0;
        while (1) {
            if (c == n) return c;
            c++;
        }
    }
    kernel void loops(global uint *out, uint n) {
        uint c = 0;
        for (uint i = 0; i < n; i++) {
            switch (i & 3) {
            case 0: c += 2; break;
            default:
                for (uint j = 0; j < i; j++) {
                    if (j == 7) break;
                    c++;
                }
            }
        }
        do { c ^= 1; } while (c < 3);
        out[0] = c + count_to(n);
    }
    kernel void straight(global uint *out, uint n) {
        out[get_global_id(0)] = n * 3 + (n > 4 ? 1 : 2);
    }
"#;

#[test]
fn every_loop_is_checked_when_asked() {
    let program = build(LOOPS, &guarded());
    let kernel = program.kernel("loops").expect("kernel");
    // One buffer argument, then the status buffer.
    assert_eq!(kernel.reflection.loop_status, Some(1));
    assert_eq!(kernel.reflection.storage_buffers, 2);
    let ops = opcodes(&spirv(&program, "loops"));
    let loops = ops.iter().filter(|&&op| op == OP_LOOP_MERGE).count();
    let checks = ops.iter().filter(|&&op| op == OP_ATOMIC_OR).count();
    assert_eq!(loops, 4, "the kernel's four loops");
    assert_eq!(checks, loops, "one check after each loop");
}

#[test]
fn nothing_changes_where_not_asked_or_without_loops() {
    let plain = build(LOOPS, &DeviceCaps::full());
    let kernel = plain.kernel("loops").expect("kernel");
    assert_eq!(kernel.reflection.loop_status, None);
    assert_eq!(kernel.reflection.storage_buffers, 1);
    let ops = opcodes(&spirv(&plain, "loops"));
    assert!(!ops.contains(&OP_ATOMIC_OR));

    // A kernel without loops is the same, word for word, either way.
    let guarded = build(LOOPS, &guarded());
    assert_eq!(
        guarded.kernel("straight").unwrap().reflection.loop_status,
        None
    );
    assert_eq!(spirv(&plain, "straight"), spirv(&guarded, "straight"));
}
