//! The block of program-scope `__global` variables as the translator
//! reports it: where each variable's initial bytes lie, how large the
//! block is, and which kernels bind it where.

use translator::{BuildError, DeviceCaps, Program};

fn build(source: &str) -> Program {
    translator::build(source, "-cl-std=CL2.0", &DeviceCaps::full())
        .unwrap_or_else(|e| panic!("build failed:\n{e}"))
}

fn log_of(source: &str) -> String {
    match translator::build(source, "-cl-std=CL2.0", &DeviceCaps::full()) {
        Err(BuildError::Compile { log }) => log,
        Err(e) => panic!("unexpected error: {e}"),
        Ok(_) => panic!("expected a build failure for:\n{source}"),
    }
}

/// The `u32` at byte `at` of `bytes`.
fn word(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes"))
}

#[test]
fn variables_with_larger_units_come_first_and_pad_only_where_they_must() {
    // Units: float4 16 bytes, int 4, char 1, and the struct 12, which comes
    // last as it is not a power of two: it starts at a multiple of 12 (36,
    // after 7 bytes of padding), so that it is element 3 of a view of such
    // structs.
    let program = build(
        "struct three { int x, y, z; };
         global char c = 7;
         global int a[3] = { 1, 2, 3 };
         global struct three s = { 4, 5, 6 };
         global float4 v = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
         kernel void k(global int *out) { out[0] = c + a[1] + s.y + (int)v.w; }",
    );
    let globals = &program.globals;
    assert_eq!(globals.size, 16 + 12 + 1 + 7 + 12);
    assert_eq!(globals.initial.len(), 48);
    let floats: Vec<f32> = (0..4)
        .map(|i| f32::from_bits(word(&globals.initial, i * 4)))
        .collect();
    assert_eq!(floats, [1.0, 2.0, 3.0, 4.0]);
    let a: Vec<u32> = (0..3).map(|i| word(&globals.initial, 16 + i * 4)).collect();
    assert_eq!(a, [1, 2, 3]);
    assert_eq!(word(&globals.initial, 28), 7, "the char, then padding");
    assert_eq!(word(&globals.initial, 32), 0, "padding");
    let s: Vec<u32> = (0..3).map(|i| word(&globals.initial, 36 + i * 4)).collect();
    assert_eq!(s, [4, 5, 6]);
}

#[test]
fn uninitialised_variables_are_zero_and_constant_data_is_not_in_the_block() {
    let program = build(
        "constant int table[2] = { 8, 9 };
         global long total;
         global half h = 1.5h;
         kernel void k(global long *out) { total += table[1]; out[0] = total + (long)h; }",
    );
    assert_eq!(program.globals.size, 8 + 2);
    let mut expected = vec![0u8; 12];
    expected[8..10].copy_from_slice(&0x3e00u16.to_le_bytes());
    assert_eq!(program.globals.initial, expected);
}

#[test]
fn only_kernels_that_use_the_variables_bind_the_block() {
    let program = build(
        "global int hits;
         void note(void) { atomic_inc(&hits); }
         kernel void plain(global int *out) { out[0] = 1; }
         kernel void counts(global int *out) { note(); out[0] = hits; }
         kernel void prints(global int *out) { printf(\"%d\\n\", hits); out[0] = 2; }",
    );
    let plain = &program.kernel("plain").expect("plain").reflection;
    assert_eq!(plain.program_globals, None);
    assert_eq!(plain.storage_buffers, 1);
    let counts = &program.kernel("counts").expect("counts").reflection;
    assert_eq!(counts.program_globals, Some(1));
    assert_eq!(counts.storage_buffers, 2);
    let prints = &program.kernel("prints").expect("prints").reflection;
    let printf = prints.printf.as_ref().expect("printf buffer").binding;
    let globals = prints.program_globals.expect("globals binding");
    assert_ne!(printf, globals);
    assert_eq!(
        [printf.min(globals), printf.max(globals)],
        [1, 2],
        "both past the argument's binding"
    );
    assert_eq!(prints.storage_buffers, 3);
}

#[test]
fn programs_without_them_have_an_empty_block() {
    let program = build("kernel void k(global int *out) { out[0] = 1; }");
    assert_eq!(program.globals.size, 0);
    assert!(program.globals.initial.is_empty());
}

#[test]
fn pointer_variables_hold_a_block_offset_plus_one() {
    // 64-bit pointers come first (unit 8), then the ints: `t` at 16.
    let program = build(
        "global int t[4];
         global int *p = &t[2];
         global int *q;
         kernel void k(global int *out) { out[0] = *p; q = p + 1; }",
    );
    let globals = &program.globals;
    assert_eq!(globals.size, 8 + 8 + 16);
    assert_eq!(word(&globals.initial, 0), 16 + 2 * 4 + 1, "p: &t[2]");
    assert_eq!(word(&globals.initial, 4), 0, "p's high word");
    assert_eq!(word(&globals.initial, 8), 0, "q: null");
}

#[test]
fn pointer_variables_to_constant_data_name_it_in_their_high_word() {
    let program = build(
        "constant int before[3] = { 1, 2, 3 };
         constant int table[4] = { 4, 5, 6, 7 };
         constant int *global p = &table[1];
         kernel void k(global int *out) { out[0] = *p; }",
    );
    let globals = &program.globals;
    assert_eq!(word(&globals.initial, 0), 4 + 1, "p: byte 4 of table");
    // `table` is the program's second global: tag 2.
    assert_eq!(word(&globals.initial, 4), 2, "p's high word");
}

#[test]
fn pointer_variables_only_point_into_the_block() {
    let cases: &[(&str, &str)] = &[
        (
            "global int *p = (global int *)16;
             kernel void k(global int *out) { out[0] = *p; }",
            "can only be initialised with the address of a program-scope __global or __constant variable",
        ),
        (
            "global int *p;
             kernel void k(global int *out) { p = out; out[0] = 1; }",
            "can only hold the address of a program-scope __global or __constant variable (or null): a buffer argument's",
        ),
        (
            "global int *p;
             global int **pp = &p;
             kernel void k(global int *out) { out[0] = **pp; }",
            "pointers to program-scope pointer variables",
        ),
    ];
    for (source, expected) in cases {
        let log = log_of(source);
        assert!(log.contains(expected), "{source}\n{log}");
    }
}

#[test]
fn a_second_initializer_is_a_redefinition() {
    let log = log_of(
        "global int x = 1;
         global int x = 2;
         kernel void k(global int *out) { out[0] = x; }",
    );
    assert!(log.contains("redefinition of 'x'"), "{log}");
    let log = log_of(
        "extern global int x;
         global float x;
         kernel void k(global int *out) { out[0] = x; }",
    );
    assert!(
        log.contains("redefinition of 'x' with a different type or address space"),
        "{log}"
    );
}
