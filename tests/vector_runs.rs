//! `vloadn`/`vstoren` of `char`s and `short`s whose bytes fill whole
//! words, through the loader. The translator moves them as runs of words
//! (lower/pointers/narrow.rs): the words inside a run with plain stores,
//! the two it shares with neighbours with atomics, at any alignment. Each
//! work-item loads its run, changes it and stores it at a start shifted by
//! 0 to 3 elements, so neighbouring work-items share words; the host
//! computes every byte, the ones no run covers included.

mod common;

use common::launch::launch;
use opencl3::program::Program;

const WORK_ITEMS: usize = 64;
/// Elements of slack around the runs, each side.
const SLACK: usize = 8;

struct Case {
    ty: &'static str,
    size: usize,
    signed: bool,
}

const CASES: [Case; 4] = [
    Case {
        ty: "char",
        size: 1,
        signed: true,
    },
    Case {
        ty: "uchar",
        size: 1,
        signed: false,
    },
    Case {
        ty: "short",
        size: 2,
        signed: true,
    },
    Case {
        ty: "ushort",
        size: 2,
        signed: false,
    },
];

fn source(case: &Case, n: usize) -> String {
    let (t, v) = (case.ty, format!("{}{n}", case.ty));
    // `x * 3 + x >> 1` mixes the sign in, and the lane number tells the
    // lanes apart.
    format!(
        "kernel void run(global const {t} *src, global {t} *dst, uint shift) {{
            size_t i = get_global_id(0);
            {v} x = vload{n}(i, src + shift);
            {v} lane = ({v})({lanes});
            {v} y = x * ({t})3 + (x >> ({t})1) + lane;
            vstore{n}(y, i, dst + shift);
        }}",
        lanes = (0..n).map(|k| k.to_string()).collect::<Vec<_>>().join(", ")
    )
}

/// What the kernel computes for element `x` at lane `lane`, as bytes.
fn changed(case: &Case, x: i64, lane: i64) -> i64 {
    let bits = 8 * case.size as u32;
    let wrap = |v: i64| {
        let m = v & ((1i64 << bits) - 1);
        if case.signed && m >= 1i64 << (bits - 1) {
            m - (1i64 << bits)
        } else {
            m
        }
    };
    // C promotes to int, then converts back to the element type.
    wrap(wrap(x * 3) + wrap(x >> 1) + lane)
}

fn element(case: &Case, bytes: &[u8], at: usize) -> i64 {
    let raw = bytes[at * case.size..(at + 1) * case.size]
        .iter()
        .rev()
        .fold(0i64, |acc, &b| (acc << 8) | i64::from(b));
    let bits = 8 * case.size as u32;
    if case.signed && raw >= 1i64 << (bits - 1) {
        raw - (1i64 << bits)
    } else {
        raw
    }
}

fn put(case: &Case, bytes: &mut [u8], at: usize, value: i64) {
    for k in 0..case.size {
        bytes[at * case.size + k] = (value >> (8 * k)) as u8;
    }
}

#[test]
fn vector_loads_and_stores_of_narrow_scalars_at_every_alignment() {
    let (context, queue) = common::context_and_queue();
    for case in &CASES {
        let widths: &[usize] = if case.size == 1 {
            &[4, 8, 16]
        } else {
            &[2, 4, 8, 16]
        };
        for &n in widths {
            let program = Program::create_and_build_from_source(&context, &source(case, n), "")
                .unwrap_or_else(|log| panic!("{} {n}: build failed:\n{log}", case.ty));
            let elements = WORK_ITEMS * n + 2 * SLACK;
            let src: Vec<u8> = (0..elements * case.size)
                .map(|k| (k * 151 + 7 * n + case.size) as u8)
                .collect();
            for shift in 0..4usize {
                let before: Vec<u8> = (0..elements * case.size)
                    .map(|k| (k * 29 + 0xa5) as u8)
                    .collect();
                let dsrc = common::buffer_with(&context, &queue, &src);
                let ddst = common::buffer_with(&context, &queue, &before);
                let shift_arg = shift as u32;
                launch(&queue, &program, "run", WORK_ITEMS, |k| {
                    // SAFETY: two buffers of `elements` elements and a
                    // uint, as declared; the runs end SLACK short of it.
                    unsafe { k.set_arg(&dsrc).set_arg(&ddst).set_arg(&shift_arg) };
                });
                let got = common::read_buffer(&queue, &ddst, before.len());
                let mut expected = before.clone();
                for i in 0..WORK_ITEMS {
                    for lane in 0..n {
                        let at = shift + i * n + lane;
                        let x = element(case, &src, at);
                        put(case, &mut expected, at, changed(case, x, lane as i64));
                    }
                }
                assert_eq!(got, expected, "{}{n}, runs shifted by {shift}", case.ty);
            }
        }
    }
}
