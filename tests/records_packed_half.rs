//! Packed struct members at every byte offset and structs with `half`
//! members, end to end (`tests/kernels/records_packed_half.cl`): the host
//! declares the same types with `#[repr(C)]` (`half` as its `u16` bits),
//! and checks what the kernels wrote against a host computation.
//! Neighbouring work-items write members that share 32-bit words, in
//! buffers and in `__local` memory, so lost writes show as wrong bytes.

mod common;

use common::fp16::{half_to_f32, to_half_rte};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::program::Program;
use std::mem::size_of;

const N: usize = 1024;
const GROUP: usize = 64;

#[repr(C, packed)]
#[derive(Clone, Copy, Default)]
struct Packed {
    c: i8,
    l: i64,
    d: f64,
    i: i32,
    s: i16,
    /// `half` bits.
    h: u16,
}

/// `half2`: four bytes aligned to four.
#[repr(C, align(4))]
#[derive(Clone, Copy, Default, Debug, PartialEq)]
struct Half2([u16; 2]);

/// `half4` and `half3`: eight bytes aligned to eight.
#[repr(C, align(8))]
#[derive(Clone, Copy, Default, Debug, PartialEq)]
struct Half4([u16; 4]);

#[repr(C)]
#[derive(Clone, Copy, Default, Debug, PartialEq)]
struct Halves {
    h: u16,
    c: i8,
    v: Half2,
    f: f32,
    w: Half4,
    t: Half4,
}

/// splitmix64: deterministic pseudo-random inputs.
fn mix(i: u64) -> u64 {
    let mut z = i.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A `half` that is a multiple of 1/4 in [-64, 64): sums and doubles of
/// two of them are exact.
fn small_half(r: u64) -> u16 {
    to_half_rte((r % 512) as f64 / 4.0 - 64.0)
}

/// `half` bits that only move: subnormals, NaNs with payloads, infinities,
/// anything.
fn any_half(r: u64) -> u16 {
    const SPECIAL: [u16; 6] = [0x0001, 0x03ff, 0x8200, 0x7c01, 0xfe37, 0x7c00];
    match r % 4 {
        0 => SPECIAL[(r >> 8) as usize % SPECIAL.len()],
        _ => (r >> 16) as u16,
    }
}

fn random_packed(n: usize, seed: u64) -> Vec<Packed> {
    (0..n)
        .map(|k| {
            let r = |j: u64| mix(seed ^ (k as u64 * 16 + j));
            Packed {
                c: r(0) as i8,
                // Room for the sums: no overflow, which C leaves undefined.
                l: (r(1) >> 2) as i64 - (1 << 61),
                d: (r(2) % 4_000_000) as f64 * 0.5 - 1e6,
                i: r(3) as i32,
                s: r(4) as i16,
                h: small_half(r(5)),
            }
        })
        .collect()
}

/// The kernels' `changed`.
fn changed(x: Packed, k: u32) -> Packed {
    let k64 = i64::from(k);
    Packed {
        c: x.c.wrapping_add(1),
        l: x.l ^ (k64 << 40 | k64),
        d: x.d * 2.0,
        i: x.i.wrapping_sub(k as i32),
        s: x.s.wrapping_neg(),
        h: to_half_rte(f64::from(half_to_f32(x.h)) * 2.0),
    }
}

/// The bytes of a plain-data value.
fn bytes_of<T: Copy>(values: &[T]) -> Vec<u8> {
    // SAFETY: `values` is `size_of_val(values)` initialised bytes of
    // repr(C) plain data (every value here is built field by field, and
    // the packed type has no padding).
    unsafe {
        std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), std::mem::size_of_val(values))
    }
    .to_vec()
}

fn build(context: &opencl3::context::Context) -> Program {
    let source = std::fs::read_to_string(common::repo_path("tests/kernels/records_packed_half.cl"))
        .expect("kernel source");
    common::launch::build_source(context, &source, "")
}

fn launch(queue: &opencl3::command_queue::CommandQueue, exec: &mut ExecuteKernel) {
    // SAFETY: every kernel's arguments were set as it declares them.
    unsafe {
        exec.set_global_work_size(N)
            .set_local_work_size(GROUP)
            .enqueue_nd_range(queue)
    }
    .expect("launch");
    queue.finish().expect("finish");
}

/// Compares field by field (a packed struct's fields cannot be borrowed,
/// so they are copied out).
fn assert_packed_eq(got: Packed, want: Packed, what: &str) {
    let g = (got.c, got.l, got.d.to_bits(), got.i, got.s, got.h);
    let w = (want.c, want.l, want.d.to_bits(), want.i, want.s, want.h);
    assert_eq!(g, w, "{what}: (c, l, d bits, i, s, h bits)");
}

#[test]
fn packed_members_at_every_byte_offset() {
    assert_eq!(size_of::<Packed>(), 25);
    let (context, queue) = common::context_and_queue();
    let program = build(&context);
    let items = random_packed(N, 7);
    let p = common::buffer_with(&context, &queue, &items);
    let copies = common::buffer_with(&context, &queue, &vec![Packed::default(); N]);
    let sums = common::buffer_with(&context, &queue, &vec![0i64; N]);
    let kernel = Kernel::create(&program, "packed_members").expect("kernel");
    // SAFETY: the arguments match the kernel's parameters.
    launch(&queue, unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&p)
            .set_arg(&copies)
            .set_arg(&sums)
    });
    let got = common::read_buffer(&queue, &p, N);
    let got_copies = common::read_buffer(&queue, &copies, N);
    let got_sums = common::read_buffer(&queue, &sums, N);
    for (k, &x) in items.iter().enumerate() {
        let want = Packed {
            c: x.c.wrapping_sub(1),
            l: x.l + 1,
            d: -x.d,
            i: !x.i,
            s: x.s.wrapping_add(3),
            h: x.h ^ 0x8000,
        };
        assert_packed_eq(got[k], want, &format!("members written in place, item {k}"));
        assert_packed_eq(
            got_copies[k],
            changed(x, k as u32),
            &format!("copy of item {k}"),
        );
        let (l, d, i, s, c) = (x.l, x.d, x.i, x.s, x.c);
        let sum =
            l + i64::from(i) + i64::from(s) + i64::from(c) + d as i64 + half_to_f32(x.h) as i64;
        assert_eq!(got_sums[k], sum, "sum of members of item {k}");
    }
}

#[test]
fn packed_members_in_local_memory() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context);
    let items = random_packed(N, 99);
    let input = common::buffer_with(&context, &queue, &items);
    let out = common::buffer_with(&context, &queue, &vec![Packed::default(); N]);
    let kernel = Kernel::create(&program, "packed_local").expect("kernel");
    // SAFETY: the arguments match the kernel's parameters.
    launch(&queue, unsafe {
        ExecuteKernel::new(&kernel).set_arg(&input).set_arg(&out)
    });
    let got = common::read_buffer(&queue, &out, N);
    for (g, &got) in got.iter().enumerate() {
        let neighbour = g - g % GROUP + (g + 1) % GROUP;
        assert_packed_eq(
            got,
            changed(items[neighbour], g as u32),
            &format!("work-item {g} reading work-item {neighbour}'s element"),
        );
    }
}

#[test]
fn structs_with_half_members() {
    assert_eq!(size_of::<Halves>(), 32);
    let (context, queue) = common::context_and_queue();
    let program = build(&context);
    let items: Vec<Halves> = (0..N)
        .map(|k| {
            let r = |j: u64| mix(0x4a1f ^ (k as u64 * 16 + j));
            Halves {
                h: small_half(r(0)),
                c: r(1) as i8,
                v: Half2([small_half(r(2)), small_half(r(3))]),
                f: (r(4) % 1000) as f32 - 500.0,
                w: Half4([
                    any_half(r(5)),
                    any_half(r(6)),
                    small_half(r(7)),
                    any_half(r(8)),
                ]),
                t: Half4([small_half(r(9)), any_half(r(10)), any_half(r(11)), 0]),
            }
        })
        .collect();
    let by_value = Halves {
        h: 0x0203, // a subnormal
        w: Half4([0, to_half_rte(-2.5), 0, 0]),
        ..Halves::default()
    };
    let p = common::buffer_with(&context, &queue, &items);
    let out = common::buffer_with(&context, &queue, &vec![0f32; N]);
    let kernel = Kernel::create(&program, "half_members").expect("kernel");
    // SAFETY: the arguments match the kernel's parameters (`Halves` by
    // value as the host lays it out).
    launch(&queue, unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&p)
            .set_arg(&out)
            .set_arg(&by_value)
    });
    let got = common::read_buffer(&queue, &p, N);
    let got_out = common::read_buffer(&queue, &out, N);
    for (k, x) in items.iter().enumerate() {
        let f = half_to_f32;
        let sum = f(x.h) + f(x.v.0[1]) + x.f + f(x.w.0[2]) + f(x.t.0[0]) + f(by_value.w.0[1]);
        assert_eq!(got_out[k], sum, "sum of half members of item {k}");
        let n = &items[k - k % GROUP + (k + 1) % GROUP];
        let want = Halves {
            h: x.w.0[3],
            c: x.c.wrapping_add(1),
            v: Half2([x.v.0[1], x.v.0[0]]),
            f: f(to_half_rte(f64::from(f(x.h)) + f64::from(f(x.v.0[0])))),
            w: Half4([n.h, x.t.0[2], x.t.0[1], x.h]),
            t: Half4([by_value.h, x.v.0[0], x.t.0[2], x.t.0[3]]),
        };
        assert_eq!(got[k], want, "item {k} (half members as bits)");
        assert_eq!(bytes_of(&got[k..=k]).len(), 32);
    }
}

#[test]
fn packed_structs_by_value_and_in_constant_tables() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context);
    let by_value = random_packed(1, 5)[0];
    let out = common::buffer_with(&context, &queue, &vec![Packed::default(); N]);
    let kernel = Kernel::create(&program, "packed_by_value").expect("kernel");
    // SAFETY: the arguments match the kernel's parameters (`Packed` by
    // value, its 25 bytes as the host lays them out).
    launch(&queue, unsafe {
        ExecuteKernel::new(&kernel).set_arg(&out).set_arg(&by_value)
    });
    let got = common::read_buffer(&queue, &out, N);
    let table = [
        Packed {
            c: -3,
            l: 0x0102_0304_0506_0708,
            d: -2.5,
            i: 0x1122_3344,
            s: -7,
            h: to_half_rte(1.5),
        },
        Packed {
            c: 4,
            l: -1,
            d: 1e300,
            i: -1,
            s: 0x7fff,
            h: to_half_rte(-0.25),
        },
        Packed {
            c: 0x7f,
            l: i64::MAX,
            d: 0.0,
            i: 0,
            s: -32768,
            h: to_half_rte(65504.0),
        },
    ];
    for (k, &got) in got.iter().enumerate() {
        let want = table.get(k).copied().unwrap_or(changed(by_value, k as u32));
        assert_packed_eq(got, want, &format!("item {k}"));
    }
}
