//! Narrow stores through cast pointers into wider elements, through the
//! loader: `uchar`/`ushort`/`char` stores into `__local` arrays of `float`,
//! `ulong`, `float4`, `short` and `int4` by all work-items of a group at
//! once (each must change only its own bytes, atomically where others
//! share the word), the casts written on the arrays, on a helper's
//! parameter, on a pointer variable and on one chosen at run time; and into a private `float` array;
//! the host computes the same bytes.

mod common;

use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::program::Program;

const GROUP: usize = 64;
const GROUPS: usize = 3;
const SEED: u8 = 0x5a;
/// Words each group writes to `out`.
const WORDS: usize = 192;

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect()
}

/// The words group `group` writes to `out`.
fn expected_group(group: usize) -> Vec<u32> {
    let b = |lid: usize| (SEED as usize + lid * 7 + group * 13) as u8;
    let mut f: Vec<u8> = (0..16).flat_map(|_| (-1.0f32).to_le_bytes()).collect();
    let mut l: Vec<u8> = (0..16)
        .flat_map(|_| 0x0123_4567_89ab_cdefu64.to_le_bytes())
        .collect();
    let mut v: Vec<u8> = (0..4)
        .flat_map(|k| [k as f32, -(k as f32), 0.5, 2.0])
        .flat_map(f32::to_le_bytes)
        .collect();
    let mut s: Vec<u8> = (0..32).flat_map(|k| (-(k as i16)).to_le_bytes()).collect();
    let mut i4: Vec<u8> = (0..8)
        .flat_map(|k: i32| [k, -k, k * 1000, 7])
        .flat_map(i32::to_le_bytes)
        .collect();
    let mut h: Vec<u8> = (0..16).flat_map(|_| 2.0f32.to_le_bytes()).collect();
    let mut pv = vec![0xffu8; 64];
    let mut ca: Vec<u8> = (0..16).flat_map(|_| (-0.5f32).to_le_bytes()).collect();
    let mut cb = ca.clone();
    for lid in 0..GROUP {
        if lid % 4 != 0 {
            let chosen = if group & 1 == 1 { &mut ca } else { &mut cb };
            chosen[lid] = b(lid);
        }
        if lid % 3 == 1 {
            h[lid] = b(lid);
        }
        if lid < 56 {
            pv[8 + lid] = b(lid) ^ 0x33;
        }
        if lid & 1 == 1 {
            f[lid] = b(lid);
        }
        if lid < 48 {
            l[2 * lid..2 * lid + 2].copy_from_slice(&(b(lid) as u16 * 257).to_le_bytes());
        }
        if lid % 5 != 0 {
            v[lid] = b(lid);
        }
        if lid % 3 != 0 {
            s[lid] = b(lid);
        }
        if lid % 4 != 3 {
            let half = (u32::from(b(lid)) * 3 + 1) as u16;
            i4[2 * lid..2 * lid + 2].copy_from_slice(&half.to_le_bytes());
        }
    }
    let shorts = s
        .chunks_exact(2)
        .map(|h| i16::from_le_bytes([h[0], h[1]]) as i32 as u32);
    let mut out = words(&f);
    out.extend(words(&l));
    out.extend(words(&v));
    out.extend(shorts);
    out.extend(words(&i4));
    out.extend(words(&h));
    out.extend(words(&pv));
    out.extend(words(&ca));
    out.extend(words(&cb));
    out
}

/// The four words work-item `global` writes to `private_out`.
fn expected_private(global: usize) -> Vec<u32> {
    let (lid, group) = (global % GROUP, global / GROUP);
    let b = (SEED as usize + lid * 7 + group * 13) as u8;
    let mut p: Vec<u8> = [1.5f32, -2.0, 3.0, 0.25]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    p[lid & 15] = b;
    let at = 2 * ((lid >> 2) & 7);
    p[at..at + 2].copy_from_slice(&((lid * 1111) as u16).to_le_bytes());
    words(&p)
}

#[test]
fn narrow_stores_into_wider_local_and_private_elements() {
    let (context, queue) = common::context_and_queue();
    let source = std::fs::read_to_string(common::repo_path("tests/kernels/narrow_local_stores.cl"))
        .expect("kernel source");
    let program = Program::create_and_build_from_source(&context, &source, "")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"));
    let kernel = Kernel::create(&program, "narrow_local_stores").expect("kernel");
    let out = common::buffer_with(&context, &queue, &vec![0u32; GROUPS * WORDS]);
    let private_out = common::buffer_with(&context, &queue, &vec![0u32; GROUPS * GROUP * 4]);
    // SAFETY: the arguments match the kernel's parameters.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&out)
            .set_arg(&private_out)
            .set_arg(&SEED)
            .set_global_work_size(GROUPS * GROUP)
            .set_local_work_size(GROUP)
            .enqueue_nd_range(&queue)
            .expect("launch");
    }
    let got = common::read_buffer(&queue, &out, GROUPS * WORDS);
    for group in 0..GROUPS {
        let want = expected_group(group);
        for (k, (&g, &w)) in got[group * WORDS..].iter().zip(&want).enumerate() {
            assert_eq!(g, w, "group {group}, word {k}: {g:#010x} != {w:#010x}");
        }
    }
    let got = common::read_buffer(&queue, &private_out, GROUPS * GROUP * 4);
    for global in 0..GROUPS * GROUP {
        assert_eq!(
            got[global * 4..global * 4 + 4],
            expected_private(global)[..],
            "work-item {global}"
        );
    }
}

const WORDS_ACCESSED_OTHERWISE: &str = r#"
float first(__local float *p) { return p[0]; }
__kernel void k(__global float *g, __global uint *o) {
    __local float buf[64];
    event_t e = async_work_group_copy(buf, g, 64, 0);
    wait_group_events(1, &e);
    ((__local uchar *)buf)[get_local_id(0)] = 7;
    if (get_local_id(0) == 0)
        vstore4((float4)(1.0f), 4, buf);
    barrier(CLK_LOCAL_MEM_FENCE);
    float4 v = vload4(1, buf);
    o[get_global_id(0)] = as_uint(buf[get_local_id(0)]) + as_uint(v.y) + as_uint(first(buf + 3));
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t back = async_work_group_copy(g, (__local const float *)buf, 64, 0);
    wait_group_events(1, &back);
}
"#;

/// A `__local` array held as words for its narrow stores is still read and
/// written whole by the rest of the kernel: async copies both ways,
/// `vload4`/`vstore4`, a helper reading through a pointer into it.
#[test]
fn word_held_local_arrays_in_copies_vector_loads_and_helpers() {
    let (context, queue) = common::context_and_queue();
    let program = Program::create_and_build_from_source(&context, WORDS_ACCESSED_OTHERWISE, "")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"));
    let kernel = Kernel::create(&program, "k").expect("kernel");
    let input: Vec<f32> = (0..GROUP).map(|i| i as f32 * 1.25).collect();
    let g = common::buffer_with(&context, &queue, &input);
    let o = common::buffer_with(&context, &queue, &vec![0u32; GROUP]);
    // SAFETY: the arguments match the kernel's parameters.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&g)
            .set_arg(&o)
            .set_global_work_size(GROUP)
            .set_local_work_size(GROUP)
            .enqueue_nd_range(&queue)
            .expect("launch");
    }
    let mut buf: Vec<u32> = input.iter().map(|x| x.to_bits()).collect();
    buf[..16].fill(0x0707_0707);
    buf[16..20].fill(1.0f32.to_bits());
    let got = common::read_buffer(&queue, &o, GROUP);
    for (lid, &value) in got.iter().enumerate() {
        let want = buf[lid].wrapping_add(buf[5]).wrapping_add(buf[3]);
        assert_eq!(value, want, "o[{lid}]");
    }
    let copied: Vec<u32> = common::read_buffer(&queue, &g, GROUP)
        .iter()
        .map(|x: &f32| x.to_bits())
        .collect();
    assert_eq!(copied, buf);
}

/// Work-items rewriting the same `char`/`short` elements with the same
/// values, each reading them back between its stores (the OpenCL-CTS's
/// generic_address_space `builtin_functions` kernels do this with
/// `vstoren`): no reader may see anything but the value written. The
/// stores replace an element's bits in a shared word with two atomics;
/// clearing before setting showed zero to 1,536 of 16,384 work-items.
#[test]
fn rewriting_the_same_bytes_never_shows_another_value() {
    let (context, queue) = common::context_and_queue();
    let program = common::launch::build_file(&context, "tests/kernels/narrow_rewrites.cl");
    const N: usize = 4096;
    let bytes = common::buffer_with(&context, &queue, &[0i8; 16]);
    let shorts = common::buffer_with(&context, &queue, &[0i16; 8]);
    let bad = common::buffer_with(&context, &queue, &[0u32; N]);
    let kernel = Kernel::create(&program, "rewrite").expect("kernel");
    common::launch::set_arg(&kernel, 0, &bytes);
    common::launch::set_arg(&kernel, 1, &shorts);
    common::launch::set_arg(&kernel, 2, &bad);
    common::launch::run_1d(&queue, &kernel, N, 64);
    let bad: Vec<u32> = common::read_buffer(&queue, &bad, N);
    let readers = bad.iter().filter(|&&w| w != 0).count();
    assert_eq!(
        readers, 0,
        "work-items that saw another value: {readers} of {N}"
    );
    let bytes: Vec<i8> = common::read_buffer(&queue, &bytes, 16);
    assert_eq!(&bytes[..8], &[0, 0, 0, 1, 2, 3, 0, 5]);
    let shorts: Vec<i16> = common::read_buffer(&queue, &shorts, 8);
    assert_eq!(&shorts[..4], &[0, 0, -2, 300]);
}
