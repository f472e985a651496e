//! OpenCL C constructs that third-party kernels use and the front end once
//! rejected (issue 19): predefined `true`/`false`, program-scope `bool`
//! variables, the `HALF_*`/`M_*_H` constants, `#include` of absolute and
//! macro-computed paths, `__private` on by-value parameters,
//! `__builtin_offsetof`/`offsetof`, `__alignof__` of expressions and
//! variables, and anonymous struct and union members. Each runs through the
//! ICD, and what it writes is checked against the host's own computation of
//! the same values: layouts against the host C compiler's, from the same
//! declarations compiled as C.

mod common;

use common::launch::launch;

use common::{buffer_with, context_and_queue, read_buffer};
use opencl3::context::Context;
use opencl3::program::Program;
use std::process::Command;

fn build(context: &Context, source: &str, options: &str) -> Program {
    Program::create_and_build_from_source(context, source, options)
        .unwrap_or_else(|log| panic!("build failed:\n{log}"))
}

/// Builds `source` and runs its kernel `k(global T *out)` on one work-item;
/// the first `n` elements of `out` (filled with `fill` before).
fn run_one<T: Clone + Default>(source: &str, options: &str, n: usize, fill: T) -> Vec<T> {
    let (context, queue) = context_and_queue();
    let program = build(&context, source, options);
    let out = buffer_with(&context, &queue, &vec![fill; n]);
    launch(&queue, &program, "k", 1, |k| {
        // SAFETY: the kernel's one argument is a buffer of `n` T.
        unsafe { k.set_arg(&out) };
    });
    read_buffer(&queue, &out, n)
}

#[test]
fn true_and_false_are_the_integer_constants_one_and_zero() {
    let source = r#"
        kernel void k(global int *out)
        {
            bool b = true;
            out[0] = true;
            out[1] = false;
            out[2] = b;
            out[3] = false == 0;
            out[4] = true + true;
        #if true && !false
            out[5] = 1;
        #else
            out[5] = 0;
        #endif
            b = false;
            out[6] = b ? 10 : 20;
        }
    "#;
    let b = false;
    let expected = [1, 0, 1, 1, 2, 1, if b { 10 } else { 20 }];
    assert_eq!(run_one(source, "", 7, -1i32), expected);
}

#[test]
fn program_scope_bool_variables_are_read_and_written() {
    let source = r#"
        global bool flag = true;
        global bool flags[5] = {true, false, true, false, true};
        constant bool always = true;
        global bool unset;

        kernel void flip(global const int *in)
        {
            size_t i = get_global_id(0);
            flags[i] = in[i] > 2;
            if (i == 0) {
                flag = !flag;
                unset = true;
            }
        }

        kernel void report(global int *out)
        {
            out[0] = flag;
            for (int i = 0; i < 5; i++)
                out[1 + i] = flags[i];
            out[6] = always;
            out[7] = unset;
            out[8] = flags[2] && flag ? 3 : 4;
        }
    "#;
    let (context, queue) = context_and_queue();
    let program = build(&context, source, "-cl-std=CL3.0");
    let report = || {
        let out = buffer_with(&context, &queue, &[-1i32; 9]);
        launch(&queue, &program, "report", 1, |k| {
            // SAFETY: a buffer of nine ints, the kernel's argument.
            unsafe { k.set_arg(&out) };
        });
        read_buffer(&queue, &out, 9)
    };
    let mut flag = true;
    let mut flags = [true, false, true, false, true];
    let expect = |flag: bool, flags: [bool; 5], unset: bool| {
        let mut v = vec![i32::from(flag)];
        v.extend(flags.map(i32::from));
        v.extend([1, i32::from(unset), if flags[2] && flag { 3 } else { 4 }]);
        v
    };
    assert_eq!(report(), expect(flag, flags, false));
    // Five work-items write five bytes of the same words at once.
    let input = [5i32, 1, 3, 0, 9];
    let in_buffer = buffer_with(&context, &queue, &input);
    launch(&queue, &program, "flip", 5, |k| {
        // SAFETY: a buffer of five ints, one per work-item.
        unsafe { k.set_arg(&in_buffer) };
    });
    flag = !flag;
    for (f, x) in flags.iter_mut().zip(input) {
        *f = x > 2;
    }
    assert_eq!(report(), expect(flag, flags, true));
}

/// `x` rounded to the nearest `half` (ties to even), for normal values in
/// `half`'s range: what a `half` literal of `x` holds.
fn round_to_half(x: f64) -> f32 {
    let exponent = x.abs().log2().floor() as i32;
    let ulp = 2f64.powi(exponent - 10);
    ((x / ulp).round_ties_even() * ulp) as f32
}

#[test]
fn half_constants_are_defined_with_cl_khr_fp16() {
    let source = r#"
        #ifdef cl_khr_fp16
        #pragma OPENCL EXTENSION cl_khr_fp16 : enable
        kernel void k(global float *out)
        {
            half values[] = {
                HALF_MAX, HALF_MIN, HALF_EPSILON,
                M_E_H, M_LOG2E_H, M_LOG10E_H, M_LN2_H, M_LN10_H, M_PI_H,
                M_PI_2_H, M_PI_4_H, M_1_PI_H, M_2_PI_H, M_2_SQRTPI_H,
                M_SQRT2_H, M_SQRT1_2_H,
            };
            for (int i = 0; i < 16; i++)
                out[i] = values[i];
            int ints[] = {
                HALF_DIG, HALF_MANT_DIG, HALF_MAX_10_EXP, HALF_MAX_EXP,
                HALF_MIN_10_EXP, HALF_MIN_EXP, HALF_RADIX,
            };
            for (int i = 0; i < 7; i++)
                out[16 + i] = ints[i];
            out[23] = sizeof(HALF_MAX) + sizeof(M_PI_H);
        }
        #else
        kernel void k(global float *out)
        {
        #if defined(HALF_MAX) || defined(M_PI_H)
            out[0] = 1.0f;
        #else
            out[0] = -2.0f;
        #endif
        }
        #endif
    "#;
    let (context, _queue) = context_and_queue();
    let device = opencl3::device::Device::new(context.devices()[0]);
    let extensions = device.extensions().expect("extensions");
    let out = run_one(source, "", 24, -1.0f32);
    if !extensions.split_whitespace().any(|e| e == "cl_khr_fp16") {
        assert_eq!(out[0], -2.0, "HALF_* without cl_khr_fp16");
        return;
    }
    use std::f64::consts as c;
    let mut expected = vec![65504.0f32, 2f32.powi(-14), 2f32.powi(-10)];
    expected.extend(
        [
            c::E,
            c::LOG2_E,
            c::LOG10_E,
            c::LN_2,
            c::LN_10,
            c::PI,
            c::FRAC_PI_2,
            c::FRAC_PI_4,
            c::FRAC_1_PI,
            c::FRAC_2_PI,
            c::FRAC_2_SQRT_PI,
            c::SQRT_2,
            c::FRAC_1_SQRT_2,
        ]
        .map(round_to_half),
    );
    // The <float.h> values of IEEE binary16.
    let mant_dig = 11;
    let max_exp = 16;
    let min_exp = -13;
    let dig = ((mant_dig - 1) as f64 * 2f64.log10()).floor();
    let max_10_exp = (65504f64).log10().floor();
    let min_10_exp = (2f64.powi(min_exp - 1)).log10().ceil();
    expected.extend([
        dig as f32,
        mant_dig as f32,
        max_10_exp as f32,
        max_exp as f32,
        min_10_exp as f32,
        min_exp as f32,
        2.0,
    ]);
    expected.push(4.0);
    assert_eq!(out, expected);
}

#[test]
fn include_of_absolute_and_macro_computed_paths() {
    let dir = std::env::temp_dir().join(format!("clvulkan-include-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("absolute.h"), "#define FROM_ABSOLUTE 17\n").expect("header");
    std::fs::write(
        dir.join("inc_vendor.h"),
        "int scaled(int x) { return 3 * x + FROM_ABSOLUTE; }\n",
    )
    .expect("header");
    let source = format!(
        "#include \"{}\"\n\
         #include M2S(INCLUDE_PATH/inc_vendor.h)\n\
         kernel void k(global int *out) {{ out[0] = FROM_ABSOLUTE; out[1] = scaled(5); }}\n",
        dir.join("absolute.h").display()
    );
    // hashcat's build options: a stringizing macro that expands its
    // argument, and the include directory as a macro.
    let options = format!(
        "-D 'XM2S(x)=#x' -D 'M2S(x)=XM2S(x)' -D INCLUDE_PATH={}",
        dir.display()
    );
    let out = run_one(&source, &options, 2, -1i32);
    std::fs::remove_dir_all(&dir).ok();
    let from_absolute = 17;
    assert_eq!(out, [from_absolute, 3 * 5 + from_absolute]);
}

#[test]
fn private_by_value_parameters() {
    let source = r#"
        int add_one(__private int x) { return x + 1; }
        float twice(private const float f) { return f * 2.0f; }

        kernel void k(__private int n, __private float f, global int *out)
        {
            int i = get_global_id(0);
            out[i] = add_one(n) * i + (int)twice(f);
        }
    "#;
    let (context, queue) = context_and_queue();
    let program = build(&context, source, "");
    let (n, f) = (7i32, 2.5f32);
    let out = buffer_with(&context, &queue, &[-1i32; 8]);
    launch(&queue, &program, "k", 8, |k| {
        // SAFETY: an int, a float and a buffer of eight ints, the kernel's
        // arguments.
        unsafe { k.set_arg(&n).set_arg(&f).set_arg(&out) };
    });
    let expected: Vec<i32> = (0..8).map(|i| (n + 1) * i + (f * 2.0) as i32).collect();
    assert_eq!(read_buffer(&queue, &out, 8), expected);
}

/// Compiles `source` as C with the host compiler, runs it, and returns the
/// integers it prints, one a line.
fn host_c_values(source: &str, name: &str) -> Vec<i64> {
    let dir = std::env::temp_dir().join(format!("clvulkan-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let c = dir.join("probe.c");
    let exe = dir.join("probe");
    std::fs::write(&c, source).expect("C source");
    let status = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .arg(&c)
        .arg("-o")
        .arg(&exe)
        .status()
        .expect("a C compiler (cc) must be installed");
    assert!(status.success(), "compiling the host probe failed");
    let output = Command::new(&exe).output().expect("run the host probe");
    std::fs::remove_dir_all(&dir).ok();
    String::from_utf8(output.stdout)
        .expect("utf-8")
        .lines()
        .map(|l| l.trim().parse().expect("an integer"))
        .collect()
}

/// Declarations that OpenCL C and the host's C lay out the same way.
const LAYOUTS: &str = r#"
typedef struct { char c; int x[2] __attribute__((aligned(8))); short s; } Aligned;
typedef struct __attribute__((packed)) { char c; int i; } Packed;
typedef int aint16 __attribute__((aligned(16)));
typedef struct Inner { char tag; double d[3]; } Inner;
typedef union { int i; char bytes[7]; Inner in; } U;
typedef struct {
    int a;
    float b[4];
    Inner in[2];
    U u;
    struct { char c; short s[3]; } named;
} Outer;
typedef struct {
    char tag;
    union { int i; float f; struct { short lo, hi; }; };
    short after;
} Tagged;
typedef union { struct { float x, y; }; struct { float real, imag; }; } cfloat_t;
CONSTANT int g_aligned __attribute__((aligned(32))) = 1;
CONSTANT short g_plain = 2;

#define OFFSETS(X) \
    X(__builtin_offsetof(Outer, b[2])) X(offsetof(Outer, in[1].d[2])) \
    X(offsetof(U, bytes[5])) X(offsetof(Outer, u.in.d[1])) \
    X(offsetof(Outer, named.s[2])) X(offsetof(Outer, named)) \
    X(offsetof(Tagged, f)) X(offsetof(Tagged, hi)) X(offsetof(Tagged, after)) \
    X(offsetof(Aligned, s)) X(offsetof(Packed, i)) X(offsetof(cfloat_t, imag)) \
    X(offsetof(cfloat_t, y)) X(sizeof(Tagged)) X(sizeof(Outer)) X(sizeof(cfloat_t)) \
    X(sizeof(offset_sized)) X((size_t)&(((Outer *)0)->in[1].d[2])) \
    X((int)&((Tagged *)0)->hi) X((unsigned long)&(*(Outer *)0).named.s[2])

#define LOCALS \
    int x __attribute__((aligned(16))); aint16 y; Aligned s; Packed p; \
    double d; short sh __attribute__((aligned(8))); float4 v; char bytes[3];

#define ALIGNS(X) \
    X(__alignof__(x)) X(__alignof__(y)) X(__alignof__(s.x)) X(__alignof__(s.s)) \
    X(__alignof__(p.i)) X(__alignof__ d) X(__alignof__(sh)) X(__alignof(v)) \
    X(__alignof__(s)) X(__alignof__(x + 1)) X(__alignof__(g_aligned)) \
    X(__alignof__(g_plain)) X(__alignof__(bytes)) X(__alignof__(bytes[1])) \
    X(__alignof__(p)) X(sizeof(align_sized))
"#;

#[test]
fn offsetof_and_alignof_match_the_host_compiler() {
    let host = format!(
        "#include <stddef.h>\n#include <stdio.h>\n#define CONSTANT const\n\
         typedef float float4 __attribute__((vector_size(16)));\n{LAYOUTS}\n\
         int main(void) {{\n\
             char offset_sized[offsetof(Outer, u) + 1];\n\
             LOCALS\n\
             char align_sized[__alignof__(x) + __alignof__(s.x)];\n\
             (void)x; (void)y; (void)s; (void)p; (void)d; (void)sh; (void)v; (void)bytes;\n\
             #define PRINT(e) printf(\"%ld\\n\", (long)(e));\n\
             OFFSETS(PRINT)\n\
             ALIGNS(PRINT)\n\
             return 0;\n\
         }}\n"
    );
    let expected = host_c_values(&host, "layouts");
    let device = format!(
        "#define CONSTANT constant\n{LAYOUTS}\n\
         kernel void k(global long *out) {{\n\
             char offset_sized[offsetof(Outer, u) + 1];\n\
             LOCALS\n\
             char align_sized[__alignof__(x) + __alignof__(s.x)];\n\
             int n = 0;\n\
             #define STORE(e) out[n++] = (e);\n\
             OFFSETS(STORE)\n\
             ALIGNS(STORE)\n\
         }}\n"
    );
    let out = run_one(&device, "", expected.len(), -1i64);
    assert_eq!(out, expected);
}

/// `cfloat_t` as the host sees it: two floats.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct CFloat {
    re: f32,
    im: f32,
}

#[repr(C)]
#[derive(Clone, Copy)]
union TaggedValue {
    i: i32,
    f: f32,
    halves: [i16; 2],
}

#[repr(C)]
#[derive(Clone, Copy)]
struct Tagged {
    tag: i8,
    value: TaggedValue,
    after: i16,
}

impl Default for Tagged {
    fn default() -> Self {
        Tagged {
            tag: 0,
            value: TaggedValue { i: 0 },
            after: 0,
        }
    }
}

#[test]
fn anonymous_struct_and_union_members() {
    let source = format!(
        "#define CONSTANT constant\n{LAYOUTS}\n\
         cfloat_t cfloat_mul(cfloat_t a, cfloat_t b)\n\
         {{\n\
             cfloat_t r;\n\
             r.real = a.x * b.real - a.imag * b.y;\n\
             r.imag = a.real * b.imag + a.y * b.x;\n\
             return r;\n\
         }}\n\
         kernel void complex(global const cfloat_t *a, global const cfloat_t *b,\n\
                             global cfloat_t *out)\n\
         {{\n\
             size_t i = get_global_id(0);\n\
             out[i] = cfloat_mul(a[i], b[i]);\n\
         }}\n\
         kernel void tagged(global Tagged *t, global int *halves)\n\
         {{\n\
             size_t i = get_global_id(0);\n\
             halves[2 * i] = t[i].lo;\n\
             halves[2 * i + 1] = t[i].hi;\n\
             Tagged copy = t[i];\n\
             copy.f = (float)copy.tag * 0.5f;\n\
             copy.after = copy.tag + 1;\n\
             t[i] = copy;\n\
         }}\n\
         kernel void braced(global float *out)\n\
         {{\n\
             cfloat_t c = {{ 1.5f, -2.0f }};\n\
             Tagged t = {{ 3, {{ 4 }}, 9 }};\n\
             Tagged u = {{ 5, 6 }};\n\
             out[0] = c.real; out[1] = c.imag; out[2] = c.x; out[3] = c.y;\n\
             out[4] = t.tag; out[5] = t.i; out[6] = t.after; out[7] = u.i;\n\
         }}\n"
    );
    let (context, queue) = context_and_queue();
    let program = build(&context, &source, "");
    let n = 16;
    let a: Vec<CFloat> = (0..n)
        .map(|i| CFloat {
            re: i as f32 * 0.5,
            im: 1.0 - i as f32,
        })
        .collect();
    let b: Vec<CFloat> = (0..n)
        .map(|i| CFloat {
            re: 2.0 + i as f32,
            im: i as f32 * 0.25,
        })
        .collect();
    let (a_buf, b_buf) = (
        buffer_with(&context, &queue, &a),
        buffer_with(&context, &queue, &b),
    );
    let out = buffer_with(&context, &queue, &vec![CFloat::default(); n]);
    launch(&queue, &program, "complex", n, |k| {
        // SAFETY: three buffers of `n` cfloat_t, the kernel's arguments.
        unsafe { k.set_arg(&a_buf).set_arg(&b_buf).set_arg(&out) };
    });
    let expected: Vec<CFloat> = a
        .iter()
        .zip(&b)
        .map(|(a, b)| CFloat {
            re: a.re * b.re - a.im * b.im,
            im: a.re * b.im + a.im * b.re,
        })
        .collect();
    assert_eq!(read_buffer(&queue, &out, n), expected);

    let tagged: Vec<Tagged> = (0..n)
        .map(|i| Tagged {
            tag: i as i8 - 5,
            value: TaggedValue {
                i: (i as i32 + 1) * 0x0001_0003 - 7,
            },
            after: -1,
        })
        .collect();
    let t_buf = buffer_with(&context, &queue, &tagged);
    let halves = buffer_with(&context, &queue, &vec![0i32; 2 * n]);
    launch(&queue, &program, "tagged", n, |k| {
        // SAFETY: `n` Tagged and `2n` ints, the kernel's arguments.
        unsafe { k.set_arg(&t_buf).set_arg(&halves) };
    });
    let mut expected_halves = Vec::new();
    for t in &tagged {
        // SAFETY: every bit pattern is a valid pair of i16.
        let [lo, hi] = unsafe { t.value.halves };
        expected_halves.extend([i32::from(lo), i32::from(hi)]);
    }
    assert_eq!(read_buffer(&queue, &halves, 2 * n), expected_halves);
    // Braces reach the first member of each anonymous member, elided or
    // not, as in C.
    let braced = buffer_with(&context, &queue, &[0.0f32; 8]);
    launch(&queue, &program, "braced", 1, |k| {
        // SAFETY: a buffer of eight floats, the kernel's argument.
        unsafe { k.set_arg(&braced) };
    });
    let (c, t, u) = (
        CFloat { re: 1.5, im: -2.0 },
        Tagged {
            tag: 3,
            value: TaggedValue { i: 4 },
            after: 9,
        },
        TaggedValue { i: 6 },
    );
    // SAFETY: the integer members were the ones initialised.
    let (t_i, u_i) = unsafe { (t.value.i, u.i) };
    assert_eq!(
        read_buffer(&queue, &braced, 8),
        [
            c.re,
            c.im,
            c.re,
            c.im,
            f32::from(t.tag),
            t_i as f32,
            f32::from(t.after),
            u_i as f32
        ]
    );
    let after = read_buffer(&queue, &t_buf, n);
    for (got, t) in after.iter().zip(&tagged) {
        assert_eq!(got.tag, t.tag);
        // SAFETY: the kernel wrote the float member.
        assert_eq!(unsafe { got.value.f }, f32::from(t.tag) * 0.5);
        assert_eq!(got.after, i16::from(t.tag) + 1);
    }
}

/// `-cl-single-precision-constant` makes unsuffixed floating constants
/// `float`: `1.0f + 1e-10` is then `1.0f`, where a `double` constant would
/// carry the sum in double; `sizeof(0.5)` is 4. Without the option (on a
/// device with `double`) both differ.
#[test]
fn single_precision_constant_makes_floating_constants_float() {
    let source = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n\
        kernel void k(global int *out) {\n\
            float one = 1.0f;\n\
            out[0] = (one + 1e-10) == one;\n\
            out[1] = sizeof(0.5);\n\
        }\n";
    assert_eq!(
        run_one(source, "-cl-single-precision-constant", 2, -1i32),
        [1, 4]
    );
    assert_eq!(run_one(source, "", 2, -1i32), [0, 8]);
}
