//! What the SPIR-V tells the driver about floating point, read back from
//! the words: `#pragma OPENCL FP_CONTRACT` (no `Fma` where it is OFF, and
//! every float multiply and add `NoContraction`, so that a driver which
//! fuses on its own, as NVIDIA's does, cannot either) and the denormal
//! execution modes chosen from the device's float controls.

use translator::{DeviceCaps, Program};

const OP_EXT_INST_IMPORT: u32 = 11;
const OP_EXECUTION_MODE: u32 = 16;
const OP_DECORATE: u32 = 71;
const OP_EXT_INST: u32 = 12;
const OP_F_ADD: u32 = 129;
const OP_F_SUB: u32 = 131;
const OP_F_MUL: u32 = 133;
const DECORATION_NO_CONTRACTION: u32 = 42;
const GLSL_FMA: u32 = 50;

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

fn build(source: &str, options: &str, caps: &DeviceCaps) -> Program {
    translator::build(source, options, caps).unwrap_or_else(|e| panic!("build failed:\n{e}"))
}

fn spirv(program: &Program, kernel: &str) -> Vec<u32> {
    program
        .kernel(kernel)
        .expect("kernel")
        .spirv([1, 1, 1], &[])
        .expect("spirv")
}

/// How many `Fma`s a kernel has, after checking that each of its float
/// multiplies, adds and subtracts is `NoContraction`.
fn fmas(program: &Program, kernel: &str) -> usize {
    let words = spirv(program, kernel);
    let code = instructions(&words);
    let glsl: Vec<u32> = code
        .iter()
        .filter(|i| i[0] & 0xffff == OP_EXT_INST_IMPORT)
        .map(|i| i[1])
        .collect();
    let no_contraction: Vec<u32> = code
        .iter()
        .filter(|i| {
            i[0] & 0xffff == OP_DECORATE && i.len() == 3 && i[2] == DECORATION_NO_CONTRACTION
        })
        .map(|i| i[1])
        .collect();
    let mut arithmetic = 0;
    for i in &code {
        if [OP_F_ADD, OP_F_SUB, OP_F_MUL].contains(&(i[0] & 0xffff)) {
            arithmetic += 1;
            assert!(
                no_contraction.contains(&i[2]),
                "kernel {kernel}: float arithmetic %{} without NoContraction",
                i[2]
            );
        }
    }
    assert!(arithmetic > 0 || !code.is_empty());
    code.iter()
        .filter(|i| i[0] & 0xffff == OP_EXT_INST && glsl.contains(&i[3]) && i[4] == GLSL_FMA)
        .count()
}

const TWO_KERNELS: &str = r#"
#pragma OPENCL FP_CONTRACT OFF
kernel void off(global float *out, float x, float y) {
    out[0] = x * y + x;
    float s = x;
    s += x * y;
    out[1] = s;
}
#pragma OPENCL FP_CONTRACT ON
kernel void on(global float *out, float x, float y) {
    out[0] = x * y + x;
}
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL FP_CONTRACT DEFAULT
kernel void by_default(global double *out, double x, double y) {
    out[0] = x - x * y;
}
"#;

#[test]
fn file_scope_pragma_holds_until_the_next() {
    let program = build(TWO_KERNELS, "", &DeviceCaps::full());
    assert_eq!(fmas(&program, "off"), 0);
    assert_eq!(fmas(&program, "on"), 1);
    assert_eq!(fmas(&program, "by_default"), 1);
}

#[test]
fn compound_statement_pragma_holds_until_the_block_ends() {
    let source = r#"
kernel void k(global float *out, float x, float y) {
    {
#pragma OPENCL FP_CONTRACT OFF
        out[0] = x * y + x;
        if (x > y) {
            out[1] = x * y - 1.0f;
        }
        out[2] = x * y + 2.0f;
    }
    out[3] = x * y + x;
}
float helper(float x, float y) {
#pragma OPENCL FP_CONTRACT OFF
    return x * y + 3.0f;
}
kernel void after(global float *out, float x, float y) {
    out[0] = helper(x, y) + x * y;
}
"#;
    let program = build(source, "", &DeviceCaps::full());
    // Only out[3], past the block.
    assert_eq!(fmas(&program, "k"), 1);
    // The kernel's own sum, not the helper's: its pragma ended with its body.
    assert_eq!(fmas(&program, "after"), 1);
}

#[test]
fn mad_enable_allows_contraction_whatever_the_pragma() {
    for options in ["-cl-mad-enable", "-cl-fast-relaxed-math"] {
        let program = build(TWO_KERNELS, options, &DeviceCaps::full());
        assert_eq!(fmas(&program, "off"), 2, "{options}");
    }
}

const CAPABILITY_DENORM_PRESERVE: u32 = 4464;
const CAPABILITY_DENORM_FLUSH_TO_ZERO: u32 = 4465;
const OP_CAPABILITY: u32 = 17;
const MODE_DENORM_PRESERVE: u32 = 4459;
const MODE_DENORM_FLUSH_TO_ZERO: u32 = 4460;

/// The denormal execution modes a kernel declares, as (mode, width), each
/// with its capability declared.
fn denormal_modes(caps: &DeviceCaps, options: &str) -> Vec<(DenormMode, u32)> {
    let program = build(
        "kernel void k(global float *f, global double *d) { f[0] *= f[1]; d[0] *= d[1]; }",
        options,
        caps,
    );
    let words = spirv(&program, "k");
    let code = instructions(&words);
    let capabilities: Vec<u32> = code
        .iter()
        .filter(|i| i[0] & 0xffff == OP_CAPABILITY)
        .map(|i| i[1])
        .collect();
    let mut modes = Vec::new();
    for i in &code {
        if i[0] & 0xffff != OP_EXECUTION_MODE {
            continue;
        }
        let (mode, capability) = match i[2] {
            MODE_DENORM_PRESERVE => (DenormMode::Preserve, CAPABILITY_DENORM_PRESERVE),
            MODE_DENORM_FLUSH_TO_ZERO => (DenormMode::FlushToZero, CAPABILITY_DENORM_FLUSH_TO_ZERO),
            _ => continue,
        };
        assert!(
            capabilities.contains(&capability),
            "{mode:?} without its capability"
        );
        modes.push((mode, i[3]));
    }
    modes.sort_by_key(|m| m.1);
    modes
}

fn with(denormals: Denormals) -> DeviceCaps {
    DeviceCaps {
        denormals,
        ..DeviceCaps::full()
    }
}

use translator::{DenormMode, Denormals, Independence};
use DenormMode::{FlushToZero, Preserve};

#[test]
fn denormals_are_kept_where_the_device_can_keep_them() {
    // What NVIDIA's driver reports: every width may be kept, only floats
    // flushed.
    let nvidia = Denormals {
        preserve: [true; 3],
        flush: [true, false, false],
        independence: Independence::All,
        kept_unasked: false,
    };
    assert!(nvidia.float_exact() && nvidia.double_exact());
    assert_eq!(
        denormal_modes(&with(nvidia), ""),
        [(Preserve, 32), (Preserve, 64)]
    );
    assert_eq!(
        denormal_modes(&with(nvidia), "-cl-denorms-are-zero"),
        [(FlushToZero, 32), (Preserve, 64)]
    );
    // Halves share the doubles' mode when only floats are independent.
    let only32 = Denormals {
        independence: Independence::Only32,
        ..nvidia
    };
    assert_eq!(
        denormal_modes(&with(only32), "-cl-fast-relaxed-math -cl-denorms-are-zero"),
        [(Preserve, 16), (FlushToZero, 32), (Preserve, 64)]
    );
    // One mode for all: the hint to flush floats cannot be followed.
    let none = Denormals {
        independence: Independence::None,
        ..nvidia
    };
    assert_eq!(
        denormal_modes(&with(none), "-cl-denorms-are-zero"),
        [(Preserve, 16), (Preserve, 32), (Preserve, 64)]
    );
}

#[test]
fn floats_are_flushed_where_they_cannot_be_kept() {
    let flushing = Denormals {
        preserve: [false, true, false],
        flush: [true, false, false],
        independence: Independence::All,
        kept_unasked: false,
    };
    assert!(!flushing.float_exact() && flushing.double_exact());
    for options in ["", "-cl-denorms-are-zero"] {
        assert_eq!(
            denormal_modes(&with(flushing), options),
            [(FlushToZero, 32), (Preserve, 64)]
        );
    }
    // Doubles cannot be kept when halves must share their mode and
    // cannot: no double support then (the runtime asks `double_exact`).
    let tied = Denormals {
        independence: Independence::Only32,
        ..flushing
    };
    assert!(!tied.double_exact());
    assert_eq!(denormal_modes(&with(tied), ""), [(FlushToZero, 32)]);
    let mixed = Denormals {
        independence: Independence::None,
        ..flushing
    };
    assert!(!mixed.double_exact() && !mixed.float_exact());
    assert_eq!(denormal_modes(&with(mixed), ""), []);
}

#[test]
fn devices_without_controls_declare_nothing() {
    // Lavapipe: no controls, but measured to keep denormals.
    let lavapipe = Denormals {
        kept_unasked: true,
        ..Denormals::UNCONTROLLED
    };
    assert!(lavapipe.double_exact() && !lavapipe.float_exact());
    assert!(!Denormals::UNCONTROLLED.double_exact());
    assert_eq!(denormal_modes(&with(lavapipe), "-cl-denorms-are-zero"), []);
}
