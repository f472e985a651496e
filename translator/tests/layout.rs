//! Struct layouts must be byte-identical to the host compiler's, because
//! host and kernels share buffers. Each case below is compiled twice: by
//! the system C compiler against the Khronos host types (`cl_float4`, ...)
//! and by our layout engine, with a prelude that maps the `cl_*` names to
//! the OpenCL C types. sizeof, alignof and every member offset must agree.

use std::fmt::Write as _;
use std::process::Command;
use translator::{DeviceCaps, TypeLayout};

/// `cl_<type>` as OpenCL C typedefs, so one spelling serves both sides.
fn device_prelude() -> String {
    let mut prelude = String::new();
    let scalars = [
        "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double",
    ];
    for s in scalars {
        let _ = writeln!(prelude, "typedef {s} cl_{s};");
        for n in [2, 3, 4, 8, 16] {
            let _ = writeln!(prelude, "typedef {s}{n} cl_{s}{n};");
        }
    }
    prelude
}

/// Declarations covering the rules of OpenCL C 6.1.5 and 6.11.1 (the
/// seeds): natural alignment, 3-vectors as 4, `aligned`, `packed`, where
/// attributes bind, typedef alignment, unions, arrays and nesting.
const CASES: &[&str] = &[
    // Natural layout and padding.
    "struct s01 { cl_char a; cl_int b; cl_char c; };",
    "struct s02 { cl_char a; cl_short b; cl_char c; cl_long d; };",
    "struct s03 { cl_double d; cl_char c; };",
    "struct s04 { cl_char a[3]; cl_short b; };",
    "struct s05 { cl_uchar a; cl_ulong b[2]; cl_uint c; };",
    // Vectors, 3-vectors sized and aligned as 4.
    "struct s06 { cl_char a; cl_float4 v; };",
    "struct s07 { cl_char a; cl_float3 v; cl_char b; };",
    "struct s08 { cl_short a; cl_char3 v; cl_short b; };",
    "struct s09 { cl_int a; cl_double2 d; cl_int b; };",
    "struct s10 { cl_char a; cl_long16 v; };",
    "struct s11 { cl_uchar16 a; cl_char b; cl_ushort8 c; };",
    "struct s12 { cl_int3 a[3]; cl_char b; };",
    "struct s13 { cl_float2 a; cl_float b; cl_float8 c; };",
    "struct s14 { cl_short3 a; cl_char b; cl_double3 c; };",
    // Structs of vectors shared with the host, as applications write them.
    "typedef struct { cl_float4 pos; cl_float4 vel; } t15;",
    "typedef struct { cl_float3 p; cl_float m; cl_int id; } t16;",
    "typedef struct { cl_uint count; cl_float4 box[2]; cl_uchar flags; } t17;",
    // Nesting and arrays of records.
    "struct s18i { cl_char c; cl_int i; }; struct s18 { cl_char a; struct s18i in[3]; cl_char z; };",
    "struct s19i { cl_double d; }; struct s19 { cl_char a; struct s19i b; cl_char c; };",
    "typedef struct { cl_short x, y; } t20i; struct s20 { t20i a; cl_char b; t20i c[2]; };",
    // Unions.
    "union u21 { cl_char c[5]; cl_int i; };",
    "union u22 { cl_float4 v; cl_float f[4]; cl_uint u; };",
    "struct s23 { cl_char tag; union { cl_int i; cl_double d; } value; };",
    "union u24 { struct { cl_char a; cl_short b; } s; cl_long l; };",
    // `packed` on the struct and on a member (the seed's struct foo).
    "struct __attribute__((packed)) s25 { cl_char a; cl_int b; cl_short c; };",
    "struct s26 { cl_char a; cl_int x[2] __attribute__((packed)); };",
    "struct s27 { cl_char a; cl_int b __attribute__((packed)); cl_char c; cl_long d; };",
    "struct s28 { cl_char a; cl_float4 v; } __attribute__((packed));",
    "struct __attribute__((packed)) s29i { cl_char a; cl_int b; }; struct s29 { cl_char c; struct s29i in; };",
    // `aligned(n)` on members and types only increases alignment.
    "struct s30 { cl_int x[2] __attribute__((aligned(8))); };",
    "struct s31 { cl_char a; cl_char b __attribute__((aligned(16))); };",
    "struct s32 { cl_long a __attribute__((aligned(2))); cl_char b; };",
    "struct s33 { cl_int a; } __attribute__((aligned(32)));",
    "struct __attribute__((aligned(64))) s34 { cl_char a; };",
    "struct s35 { cl_char a; cl_int b __attribute__((packed, aligned(2))); };",
    "struct __attribute__((packed)) s36 { cl_char a; cl_int b __attribute__((aligned(4))); };",
    // Attributes before `struct` bind to the variable, after the body to
    // the type (the seed's struct A and struct B).
    "__constant __attribute__((aligned(128))) struct A { cl_int i; } a = { 1 };",
    "__attribute__((aligned(16))) struct B { cl_double d; } __attribute__((aligned(32)));",
    // Typedef alignment increases or decreases.
    "typedef cl_int i8_t __attribute__((aligned(8))); struct s39 { cl_char c; i8_t x; };",
    "typedef cl_int i2_t __attribute__((aligned(2))); struct s40 { cl_char c; i2_t x; cl_char d; };",
    "typedef struct { cl_char c; cl_int i; } __attribute__((aligned(16))) t41;",
    "typedef struct s42 { cl_char c; cl_long l; } t42; struct s42b { t42 a[2]; cl_char z; };",
    "typedef cl_float4 v43 __attribute__((aligned(32))); struct s43 { cl_char c; v43 v; };",
    // Mixed, as real structs are.
    "struct s44 { cl_uchar type; cl_float3 normal; cl_ushort idx[3]; cl_double w; cl_char4 color; };",
    "struct s45 { cl_ulong key; cl_uint2 range; cl_char name[13]; cl_float16 m; };",
];

/// The host program that prints what the C compiler decides for `layouts`
/// (the names and fields come from our side, the numbers from the host's).
fn host_program(declarations: &str, layouts: &[TypeLayout]) -> String {
    let mut c = String::from(
        "#define CL_TARGET_OPENCL_VERSION 300\n#include <CL/cl_platform.h>\n#include <stddef.h>\n\
         #include <stdio.h>\n#define __constant const\n",
    );
    c.push_str(declarations);
    c.push_str("\nint main(void) {\n");
    for l in layouts {
        let _ = writeln!(
            c,
            "    printf(\"%s %zu %zu\", \"{0}\", sizeof({0}), _Alignof({0}));",
            l.name
        );
        for (field, _) in &l.fields {
            let _ = writeln!(
                c,
                "    printf(\" {field}=%zu\", offsetof({}, {field}));",
                l.name
            );
        }
        c.push_str("    printf(\"\\n\");\n");
    }
    c.push_str("    return 0;\n}\n");
    c
}

fn describe(l: &TypeLayout) -> String {
    let mut s = format!("{} {} {}", l.name, l.size, l.align);
    for (field, offset) in &l.fields {
        let _ = write!(s, " {field}={offset}");
    }
    s
}

#[test]
fn layouts_match_the_host_compiler() {
    assert!(CASES.len() >= 40);
    let prelude = device_prelude();
    let dir = std::env::temp_dir().join(format!("clvulkan-layout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut mismatches = Vec::new();
    let mut compared = 0;
    for (i, case) in CASES.iter().enumerate() {
        let source = format!("{prelude}{case}\n");
        let layouts: Vec<TypeLayout> = translator::type_layouts(&source, "", &DeviceCaps::full())
            .unwrap_or_else(|e| panic!("case {i} `{case}`: {e}"))
            .into_iter()
            .filter(|l| !l.name.starts_with("cl_"))
            .collect();
        assert!(!layouts.is_empty(), "case {i}: no types");
        let c_file = dir.join(format!("case{i}.c"));
        let exe = dir.join(format!("case{i}"));
        std::fs::write(&c_file, host_program(case, &layouts)).expect("write C");
        let status = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
            .args(["-std=c11", "-w", "-o"])
            .arg(&exe)
            .arg(&c_file)
            .status()
            .expect("a C compiler (cc) must be installed");
        assert!(status.success(), "case {i}: host compile failed: {case}");
        let out = Command::new(&exe).output().expect("run host program");
        let host = String::from_utf8_lossy(&out.stdout);
        for (ours, theirs) in layouts.iter().map(describe).zip(host.lines()) {
            compared += 1;
            if ours != theirs {
                mismatches.push(format!(
                    "case {i} `{case}`\n  ours: {ours}\n  host: {theirs}"
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        mismatches.is_empty(),
        "{} of {compared} layouts differ:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    assert!(compared >= 40, "only {compared} types compared");
}

#[test]
fn bare_aligned_means_the_largest_device_alignment() {
    // Hosts pick their own value for a bare `aligned`, so this one is
    // checked against the OpenCL rule alone: the largest alignment of any
    // type, long16/double16's 128.
    let layouts = translator::type_layouts(
        "struct s { short a[3] __attribute__((aligned)); };",
        "",
        &DeviceCaps::full(),
    )
    .expect("layout");
    assert_eq!(layouts[0].align, 128);
    assert_eq!(layouts[0].size, 128);
}

#[test]
fn attribute_errors() {
    let cases = [
        (
            "struct s { int a __attribute__((aligned(3))); };",
            "requested alignment is not a power of 2",
        ),
        (
            "struct s { int a : 3; };",
            "bit-fields are not supported in OpenCL C",
        ),
        (
            "kernel void k(global int *p) { int x __attribute__((endian(host))) = 0; p[0] = x; }",
            "'endian' attribute only applies to pointers",
        ),
        (
            "kernel void k(global int *p __attribute__((endian(host))), global int *q) { q = p; }",
            "endian",
        ),
    ];
    for (source, expected) in cases {
        match translator::check_source(source, "", &DeviceCaps::full()) {
            Err(translator::BuildError::Compile { log }) => {
                assert!(log.contains(expected), "{source}\n{log}")
            }
            other => panic!("{source}: expected an error, got {other:?}"),
        }
    }
}
