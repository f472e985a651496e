//! Objects outside buffers seen through pointer casts, with the bytes
//! their naga types would not hold, and initializers
//! (`tests/kernels/padding.cl`) through the loader:
//!
//! - 3-vectors in private and `__local` memory written through a cast
//!   pointer (`vstore3` at any float, padding included, as the
//!   OpenCL-CTS's `vstore_private` does), read back through the cast and
//!   as the vectors; a `__constant` table's padding reads as zero;
//! - structs and `bool`s in private memory read and written as bytes or
//!   ints through a cast, with the host's layout;
//! - nested designators and designators naming members of anonymous
//!   members; `__builtin_offsetof` with indices known only at run time.
//!
//! The plain-C kernels are compiled as C for the host too
//! (`tests/c/padding_host.c`), and the device must give what the host's C
//! compiler gives; the vector kernels' outputs are computed here.

mod common;

use common::launch::{launch, run_1d, set_arg};
use common::{buffer_with, context_and_queue, read_buffer};
use opencl3::kernel::Kernel;
use opencl3::memory::ClMem;
use opencl3::program::Program;
use std::collections::HashMap;
use std::process::Command;

const ITEMS: usize = 64;
const SOURCE: &str = "tests/kernels/padding.cl";

fn program(context: &opencl3::context::Context) -> Program {
    let source = std::fs::read_to_string(common::repo_path(SOURCE)).expect("kernel source");
    Program::create_and_build_from_source(context, &source, "")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"))
}

/// Each plain-C kernel's outputs as the host computes them.
fn host_outputs() -> HashMap<String, Vec<i32>> {
    let host = common::compile_c(&common::repo_path("tests/c/padding_host.c"), "padding-host");
    let out = Command::new(&host).output().expect("run the host program");
    assert!(out.status.success(), "host program failed");
    let _ = std::fs::remove_file(&host);
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(|line| {
            let mut words = line.split(' ');
            let name = words.next().expect("kernel name").to_string();
            let values = words.map(|w| w.parse().expect("an int")).collect();
            (name, values)
        })
        .collect()
}

#[test]
fn plain_c_kernels_match_the_host() {
    let expected = host_outputs();
    assert_eq!(expected.len(), 7, "{:?}", expected.keys());
    let (context, queue) = context_and_queue();
    let program = program(&context);
    let mut names: Vec<&String> = expected.keys().collect();
    names.sort();
    for name in names {
        let want = &expected[name];
        let out = buffer_with(&context, &queue, &vec![0i32; want.len()]);
        launch(&queue, &program, name, ITEMS, |k| {
            // SAFETY: `out` is a cl_mem of ints, as long as the kernel writes.
            unsafe { k.set_arg(&out) };
        });
        let got = read_buffer(&queue, &out, want.len());
        assert_eq!(&got, want, "{name}");
    }
}

/// What the vector kernels write per work-item `g`: sixteen elements read
/// through the cast after a 3-element store at element `g % 14` into
/// sixteen zeros, then the four 3-vectors' lanes (the padding left out).
fn expected_vectors<T: Copy + Default>(values: &[T]) -> Vec<T> {
    let mut out = Vec::new();
    for (g, x) in values.chunks(3).enumerate() {
        let mut memory = [T::default(); 16];
        let at = g % 14;
        memory[at..at + 3].copy_from_slice(x);
        out.extend_from_slice(&memory);
        for k in 0..4 {
            out.extend_from_slice(&memory[4 * k..4 * k + 3]);
        }
    }
    out
}

fn floats() -> Vec<f32> {
    (0..ITEMS * 3).map(|i| i as f32 * 0.25 + 1.0).collect()
}

#[test]
fn stores_through_casts_keep_3_vector_padding_in_private_memory() {
    let (context, queue) = context_and_queue();
    let program = program(&context);
    let src = floats();
    let expected = expected_vectors(&src);
    for helper in [0i32, 1] {
        let input = buffer_with(&context, &queue, &src);
        let out = buffer_with(&context, &queue, &vec![-1.0f32; expected.len()]);
        launch(&queue, &program, "vstore3_private", ITEMS, |k| {
            // SAFETY: the kernel's (float *, float *, int) arguments, the
            // buffers as long as it reads and writes.
            unsafe { k.set_arg(&input).set_arg(&out).set_arg(&helper) };
        });
        let got = read_buffer(&queue, &out, expected.len());
        assert_eq!(got, expected, "helper {helper}");
    }
}

#[test]
fn stores_through_casts_keep_padding_of_char3_and_long3() {
    let (context, queue) = context_and_queue();
    let program = program(&context);
    let chars: Vec<i8> = (0..ITEMS * 3).map(|i| (i as i8).wrapping_mul(37)).collect();
    let longs: Vec<i64> = (0..ITEMS * 3)
        .map(|i| (i as i64 + 1) * 0x1_0000_0001 * if i % 2 == 0 { 1 } else { -1 })
        .collect();
    let (want_c, want_l) = (expected_vectors(&chars), expected_vectors(&longs));
    let cs = buffer_with(&context, &queue, &chars);
    let ls = buffer_with(&context, &queue, &longs);
    let cout = buffer_with(&context, &queue, &vec![-1i8; want_c.len()]);
    let lout = buffer_with(&context, &queue, &vec![-1i64; want_l.len()]);
    launch(&queue, &program, "vstore3_narrow_wide", ITEMS, |k| {
        // SAFETY: the kernel's four buffer arguments, as long as it reads
        // and writes.
        unsafe { k.set_arg(&cs).set_arg(&ls).set_arg(&cout).set_arg(&lout) };
    });
    assert_eq!(read_buffer(&queue, &cout, want_c.len()), want_c);
    assert_eq!(read_buffer(&queue, &lout, want_l.len()), want_l);
}

#[test]
fn stores_through_casts_keep_3_vector_padding_in_local_memory() {
    let (context, queue) = context_and_queue();
    let program = program(&context);
    let src = floats();
    let expected = expected_vectors(&src);
    let input = buffer_with(&context, &queue, &src);
    let out = buffer_with(&context, &queue, &vec![-1.0f32; expected.len()]);
    let kernel = Kernel::create(&program, "vstore3_local").expect("kernel");
    set_arg(&kernel, 0, &input.get());
    set_arg(&kernel, 1, &out.get());
    run_1d(&queue, &kernel, ITEMS, 32);
    assert_eq!(read_buffer(&queue, &out, expected.len()), expected);
}

#[test]
fn constant_3_vector_padding_reads_as_zero() {
    let (context, queue) = context_and_queue();
    let program = program(&context);
    let table = [[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
    let mut memory = Vec::new();
    for v in table {
        memory.extend_from_slice(&v);
        memory.push(0.0);
    }
    let expected: Vec<f32> = (0..ITEMS).map(|g| memory[g % 8]).collect();
    let out = buffer_with(&context, &queue, &vec![-1.0f32; ITEMS]);
    launch(&queue, &program, "constant_padding", ITEMS, |k| {
        // SAFETY: `out` is a cl_mem of ITEMS floats.
        unsafe { k.set_arg(&out) };
    });
    assert_eq!(read_buffer(&queue, &out, ITEMS), expected);
}

#[test]
fn a_struct_with_a_float3_member_keeps_its_padding() {
    let (context, queue) = context_and_queue();
    let program = program(&context);
    let src = floats();
    let mut expected = Vec::new();
    for (g, v) in src.chunks(3).enumerate() {
        let mut s = [-1.0f32; 8];
        s[..3].copy_from_slice(v);
        s[3] = 100.0 + g as f32;
        s[4] = 0.5 * g as f32;
        expected.extend_from_slice(&s);
    }
    let input = buffer_with(&context, &queue, &src);
    let out = buffer_with(&context, &queue, &vec![0.0f32; expected.len()]);
    launch(&queue, &program, "struct_vector", ITEMS, |k| {
        // SAFETY: the kernel's two float buffers, as long as it reads and
        // writes.
        unsafe { k.set_arg(&input).set_arg(&out) };
    });
    assert_eq!(read_buffer(&queue, &out, expected.len()), expected);
}

#[test]
fn local_structs_and_bools_and_a_constant_struct_as_bytes() {
    let (context, queue) = context_and_queue();
    let program = program(&context);
    // `cs` as the host lays it out: int, float, two chars, a short.
    let mut cs = Vec::new();
    cs.extend_from_slice(&1i32.to_le_bytes());
    cs.extend_from_slice(&2.0f32.to_le_bytes());
    cs.extend_from_slice(&[3, 4]);
    cs.extend_from_slice(&5i16.to_le_bytes());
    assert_eq!(cs.len(), 12);
    let group = 32;
    let mut shared: Vec<u8> = cs.repeat(4);
    let mut flags: Vec<u8> = (0..group).map(|l| u8::from(l % 3 == 0)).collect();
    for l in 0..group {
        shared[l + 8] = 0x80 + l as u8;
        flags[(l + 1) % group] = (l % 2) as u8;
    }
    let int_at = |at: usize| i32::from_le_bytes(shared[at..at + 4].try_into().unwrap());
    let short_at = |at: usize| i32::from(i16::from_le_bytes([shared[at], shared[at + 1]]));
    let mut expected = Vec::new();
    for g in 0..ITEMS {
        let l = g % group;
        expected.extend([
            int_at(12 * (l % 4)),
            short_at(12 * (l % 4) + 10),
            i32::from(cs[l % 12]),
            i32::from(flags[l] != 0),
            i32::from(flags[31 - l]),
        ]);
    }
    let out = buffer_with(&context, &queue, &vec![-1i32; expected.len()]);
    let kernel = Kernel::create(&program, "local_views").expect("kernel");
    set_arg(&kernel, 0, &out.get());
    run_1d(&queue, &kernel, ITEMS, group);
    assert_eq!(read_buffer(&queue, &out, expected.len()), expected);
}

#[test]
fn a_float3_through_a_cast_and_back_keeps_its_padding() {
    let (context, queue) = context_and_queue();
    let program = program(&context);
    let expected: Vec<f32> = (0..ITEMS)
        .flat_map(|g| [g as f32, -1.0, 3.0 * g as f32, 9.0])
        .collect();
    let out = buffer_with(&context, &queue, &vec![0.0f32; expected.len()]);
    launch(&queue, &program, "vector_round_trip", ITEMS, |k| {
        // SAFETY: `out` is a cl_mem of four floats per work-item.
        unsafe { k.set_arg(&out) };
    });
    assert_eq!(read_buffer(&queue, &out, expected.len()), expected);
}
