//! The pointer model through the loader: pointers chosen at run time
//! (ternaries per work-item, ping-pong loops, variables reassigned on
//! different paths), pointer casts on `__local`, `__constant` and private
//! memory, pointer comparisons and `%p`, integers computed from pointers
//! converted back, records held as bytes given to helpers by pointer, float atomics through chosen pointers, each checked
//! against the host.

mod common;

use opencl3::kernel::Kernel;

use common::launch::{build_file as build, run_1d as run, set_arg as arg};
use common::{buffer_with as buffer, read_buffer as read};

#[test]
fn ternary_pointers_chosen_per_work_item() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointers_select.cl");
    const N: usize = 256;
    let a: Vec<f32> = (0..=N).map(|i| i as f32 * 0.5).collect();
    let b: Vec<f32> = (0..=N).map(|i| 100.0 + i as f32).collect();
    let c: Vec<f32> = (0..=N).map(|i| -(i as f32) * 0.25).collect();
    let pick: Vec<i32> = (0..N).map(|i| ((i * 7 + i / 5) % 3) as i32).collect();
    let sentinel = vec![-7.0f32; N];
    let kernel = Kernel::create(&program, "select_buffers").expect("kernel");
    let bufs = [
        buffer(&context, &queue, &a),
        buffer(&context, &queue, &b),
        buffer(&context, &queue, &c),
    ];
    let dpick = buffer(&context, &queue, &pick);
    let even = buffer(&context, &queue, &sentinel);
    let odd = buffer(&context, &queue, &sentinel);
    let out = buffer(&context, &queue, &vec![0.0f32; N]);
    let facts = buffer(&context, &queue, &vec![0i32; N]);
    for (i, b) in bufs.iter().enumerate() {
        arg(&kernel, i as u32, b);
    }
    arg(&kernel, 3, &dpick);
    arg(&kernel, 4, &even);
    arg(&kernel, 5, &odd);
    arg(&kernel, 6, &out);
    arg(&kernel, 7, &facts);
    run(&queue, &kernel, N, 64);
    let (got_out, got_even, got_odd, got_facts) = (
        read(&queue, &out, N),
        read(&queue, &even, N),
        read(&queue, &odd, N),
        read(&queue, &facts, N),
    );
    let sources = [&a, &b, &c];
    for i in 0..N {
        let k = pick[i] as usize;
        let s = sources[k];
        let m = usize::from(i + 1 < N);
        let want = s[i] * 3.0 + (s[i] + 2.0 * s[i + m]) + s[i + 1];
        assert_eq!(got_out[i], want, "out[{i}] (pick {k})");
        let (mine, other) = if i & 1 == 1 {
            (&got_odd, &got_even)
        } else {
            (&got_even, &got_odd)
        };
        assert_eq!(mine[i], s[i], "store through the chosen pointer at {i}");
        assert_eq!(other[i], -7.0, "the other buffer at {i} is untouched");
        let want_facts = i32::from(k == 0)
            | i32::from(k == 1) << 1
            | i32::from(k != 2) << 2
            | 1 << 3
            | 1 << 4
            | 1 << 5;
        assert_eq!(got_facts[i], want_facts, "comparisons at {i} (pick {k})");
    }

    let kernel = Kernel::create(&program, "select_private").expect("kernel");
    let input: Vec<i32> = (0..N as i32).map(|i| i * 3 + 1).collect();
    let din = buffer(&context, &queue, &input);
    let dout = buffer(&context, &queue, &vec![0i32; N]);
    arg(&kernel, 0, &din);
    arg(&kernel, 1, &dout);
    run(&queue, &kernel, N, 64);
    let got = read(&queue, &dout, N);
    for i in 0..N {
        let v = input[i];
        let mut lo: Vec<i32> = (0..4).map(|j| v + j).collect();
        let mut hi: Vec<i32> = (0..4).map(|j| v * 10 + j).collect();
        let p = if v & 1 == 1 { &mut hi } else { &mut lo };
        p[i & 3] += 100;
        let p3 = p[3];
        let want = lo.iter().sum::<i32>() + 2 * hi.iter().sum::<i32>() + p3;
        assert_eq!(got[i], want, "private choice at {i}");
    }

    let kernel = Kernel::create(&program, "select_local").expect("kernel");
    let input: Vec<f32> = (0..N).map(|g| ((g * 37) % 100) as f32 / 100.0).collect();
    let din = buffer(&context, &queue, &input);
    let dout = buffer(&context, &queue, &vec![0.0f32; N]);
    arg(&kernel, 0, &din);
    arg(&kernel, 1, &dout);
    run(&queue, &kernel, N, 64);
    let got = read(&queue, &dout, N);
    for g in 0..N {
        let source = input[g - g % 64 + 63 - g % 64];
        let want = if input[g] > 0.5 { source } else { -source };
        assert_eq!(got[g], want, "__local choice at {g}");
    }
}

#[test]
fn atomics_through_pointers_chosen_per_work_item() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointers_select.cl");
    let kernel = Kernel::create(&program, "select_atomics").expect("kernel");
    const N: usize = 512;
    let input: Vec<i32> = (0..N as i32).map(|i| (i * 7919) % 1000).collect();
    let din = buffer(&context, &queue, &input);
    let even = buffer(&context, &queue, &[0i32; 9]);
    let odd = buffer(&context, &queue, &[0i32; 9]);
    arg(&kernel, 0, &din);
    arg(&kernel, 1, &even);
    arg(&kernel, 2, &odd);
    run(&queue, &kernel, N, 64);
    let mut want = [[0i32; 9]; 2];
    for &v in &input {
        let h = &mut want[(v & 1) as usize];
        h[((v >> 1) & 7) as usize] += 1;
        h[8] = h[8].max(v);
    }
    assert_eq!(read(&queue, &even, 9), want[0], "even values");
    assert_eq!(read(&queue, &odd, 9), want[1], "odd values");
}

#[test]
fn opencl_2_atomics_through_pointers_chosen_per_work_item() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointers_c11_atomics.cl");
    let kernel = Kernel::create(&program, "select_c11_atomics").expect("kernel");
    const N: usize = 256;
    let input: Vec<i32> = (0..N as i32).map(|i| (i * 613) % 97).collect();
    let din = buffer(&context, &queue, &input);
    let even = buffer(&context, &queue, &[0i32; 2]);
    let odd = buffer(&context, &queue, &[0i32; 2]);
    let old = buffer(&context, &queue, &[-1i32; N]);
    arg(&kernel, 0, &din);
    arg(&kernel, 1, &even);
    arg(&kernel, 2, &odd);
    arg(&kernel, 3, &old);
    run(&queue, &kernel, N, 64);
    let mut want = [[0i32; 2]; 2];
    for &v in &input {
        let c = &mut want[(v & 1) as usize];
        c[0] += v;
        c[1] = c[1].max(v);
    }
    assert_eq!(read(&queue, &even, 2), want[0], "even values");
    assert_eq!(read(&queue, &odd, 2), want[1], "odd values");
    // Each old value is a partial sum of its own class: below the total.
    let got_old = read(&queue, &old, N);
    for (i, (&o, &v)) in got_old.iter().zip(&input).enumerate() {
        let total = want[(v & 1) as usize][0];
        assert!((0..=total - v).contains(&o), "old value {o} at {i}");
    }
}

#[test]
fn null_pointers_and_pointers_as_integers() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointers_select.cl");
    let kernel = Kernel::create(&program, "select_null").expect("kernel");
    const N: usize = 256;
    let a: Vec<f32> = (0..N).map(|i| ((i * 37) % 11) as f32 - 5.0).collect();
    let da = buffer(&context, &queue, &a);
    let out = buffer(&context, &queue, &[0.0f32; N]);
    let addr = buffer(&context, &queue, &[7u64; N]);
    arg(&kernel, 0, &da);
    arg(&kernel, 1, &out);
    arg(&kernel, 2, &addr);
    run(&queue, &kernel, N, 64);
    let (got, addresses) = (read(&queue, &out, N), read(&queue, &addr, N));
    let object = addresses
        .iter()
        .find(|&&v| v != 0)
        .map(|v| v >> 32)
        .expect("some pointer is not null");
    assert_ne!(object, 0, "an object's number is never 0");
    for i in 0..N {
        let positive = a[i] > 0.0;
        let want =
            if positive { a[i] } else { -1.0 } + if i & 1 == 1 { 0.0 } else { 100.0 } + 1000.0;
        assert_eq!(got[i], want, "out[{i}]");
        let want_addr = if positive {
            object << 32 | (4 * i) as u64
        } else {
            0
        };
        assert_eq!(addresses[i], want_addr, "(ulong)p at {i}");
    }
}

#[test]
fn helpers_given_pointers_into_private_memory() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointers_private_args.cl");
    let kernel = Kernel::create(&program, "private_args").expect("kernel");
    const N: usize = 128;
    let input: Vec<f32> = (0..N * 4).map(|k| (k % 7) as f32 - 2.0).collect();
    let din = buffer(&context, &queue, &input);
    let dout = buffer(&context, &queue, &[0.0f32; N * 6]);
    arg(&kernel, 0, &din);
    arg(&kernel, 1, &dout);
    run(&queue, &kernel, N, 64);
    let got = read(&queue, &dout, N * 6);
    for i in 0..N {
        let mut first: Vec<f32> = input[i * 4..i * 4 + 4].iter().map(|v| v * 2.0).collect();
        let mut second = vec![0.0f32, 1.0, 2.0, 3.0];
        let total = 1.0 + first.iter().sum::<f32>();
        let chosen = if i & 1 == 1 { &mut first } else { &mut second };
        chosen[1] *= 3.0;
        chosen[2] *= 3.0;
        let flags = 1.0 + if i & 1 == 1 { 0.0 } else { 4.0 };
        let want = [
            total,
            first.iter().sum(),
            second.iter().sum(),
            first[1],
            second[2],
            flags,
        ];
        assert_eq!(&got[i * 6..i * 6 + 6], &want[..], "work-item {i}");
    }
}

#[test]
fn helpers_returning_pointers() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointers_private_args.cl");
    let kernel = Kernel::create(&program, "returned_pointers").expect("kernel");
    const N: usize = 128;
    let m: Vec<f32> = (0..N * 2).map(|k| k as f32).collect();
    let dm = buffer(&context, &queue, &m);
    let dout = buffer(&context, &queue, &[0.0f32; N]);
    arg(&kernel, 0, &dm);
    arg(&kernel, 1, &dout);
    run(&queue, &kernel, N, 64);
    let (got_m, got_out) = (read(&queue, &dm, N * 2), read(&queue, &dout, N));
    for i in 0..N {
        let (x, y) = if i & 1 == 1 { (11.0, 2.0) } else { (1.0, 12.0) };
        let want = m[2 * i] + x * 100.0 + y;
        assert_eq!(
            (got_m[2 * i], got_m[2 * i + 1]),
            (m[2 * i], want),
            "row {i}"
        );
        assert_eq!(got_out[i], 1.0, "a null pointer returned at {i}");
    }
}

#[test]
fn ping_pong_pointers_swapped_in_loops() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointers_pingpong.cl");
    const N: usize = 256;

    let kernel = Kernel::create(&program, "pingpong_buffers").expect("kernel");
    let a: Vec<f32> = (0..N).map(|i| i as f32).collect();
    let da = buffer(&context, &queue, &a);
    let db = buffer(&context, &queue, &vec![0.0f32; N]);
    let steps = 5i32;
    arg(&kernel, 0, &da);
    arg(&kernel, 1, &db);
    arg(&kernel, 2, &steps);
    run(&queue, &kernel, N, 64);
    let (got_a, got_b) = (read(&queue, &da, N), read(&queue, &db, N));
    for i in 0..N {
        let mut v = a[i];
        for s in 0..steps {
            v = v * 2.0 + s as f32;
        }
        assert_eq!((got_a[i], got_b[i]), (v, v), "buffers at {i}");
    }

    let kernel = Kernel::create(&program, "pingpong_private").expect("kernel");
    let input: Vec<f32> = (0..N * 8).map(|k| ((k * 13) % 32) as f32).collect();
    let din = buffer(&context, &queue, &input);
    let dout = buffer(&context, &queue, &vec![0.0f32; N * 8]);
    arg(&kernel, 0, &din);
    arg(&kernel, 1, &dout);
    run(&queue, &kernel, N, 64);
    let got = read(&queue, &dout, N * 8);
    for i in 0..N {
        let mut v: Vec<f32> = input[i * 8..i * 8 + 8].to_vec();
        for _ in 0..5 {
            v = (0..8).map(|k| v[k] + 0.5 * v[(k + 1) & 7]).collect();
        }
        assert_eq!(&got[i * 8..i * 8 + 8], &v[..], "private arrays at {i}");
    }

    let kernel = Kernel::create(&program, "pingpong_local").expect("kernel");
    let input: Vec<i32> = (0..N as i32).map(|g| (g * 31) % 17 - 8).collect();
    let din = buffer(&context, &queue, &input);
    let dout = buffer(&context, &queue, &vec![0i32; N]);
    let steps = 6i32;
    arg(&kernel, 0, &din);
    arg(&kernel, 1, &dout);
    arg(&kernel, 2, &steps);
    run(&queue, &kernel, N, 64);
    let got = read(&queue, &dout, N);
    for group in 0..N / 64 {
        let mut v = input[group * 64..group * 64 + 64].to_vec();
        for _ in 0..steps {
            v = (0..64).map(|l| v[l] + v[(l + 1) & 63]).collect();
        }
        assert_eq!(&got[group * 64..group * 64 + 64], &v[..], "group {group}");
    }
}

#[test]
fn pointer_variable_reassigned_across_branches() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointers_branches.cl");
    const N: usize = 256;
    let kernel = Kernel::create(&program, "branches").expect("kernel");
    let a: Vec<f32> = (0..N).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..N).map(|i| 1000.0 + i as f32).collect();
    let c: Vec<f32> = (0..N).map(|i| -(i as f32)).collect();
    let mode: Vec<i32> = (0..N).map(|i| (i * 5 / 3 % 3) as i32).collect();
    let (da, db, dc) = (
        buffer(&context, &queue, &a),
        buffer(&context, &queue, &b),
        buffer(&context, &queue, &c),
    );
    let dmode = buffer(&context, &queue, &mode);
    let dout = buffer(&context, &queue, &vec![0.0f32; N]);
    arg(&kernel, 0, &da);
    arg(&kernel, 1, &db);
    arg(&kernel, 2, &dc);
    arg(&kernel, 3, &dmode);
    arg(&kernel, 4, &dout);
    run(&queue, &kernel, N, 64);
    let (ga, gb, gc, gout) = (
        read(&queue, &da, N),
        read(&queue, &db, N),
        read(&queue, &dc, N),
        read(&queue, &dout, N),
    );
    for i in 0..N {
        let (mut wa, mut wb, mut wc) = (a[i], b[i], c[i]);
        let chosen = match mode[i] {
            0 => &mut wa,
            1 => &mut wb,
            _ => &mut wc,
        };
        let want_out = *chosen * 2.0;
        *chosen = i as f32;
        if mode[i] == 2 {
            wc += 1.0;
        } else {
            wa += 1.0;
        }
        assert_eq!(gout[i], want_out, "out[{i}] (mode {})", mode[i]);
        assert_eq!((ga[i], gb[i], gc[i]), (wa, wb, wc), "buffers at {i}");
    }
}

#[test]
fn pointer_casts_on_local_private_and_constant_memory() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointers_casts.cl");

    let kernel = Kernel::create(&program, "local_vectors").expect("kernel");
    const N: usize = 128;
    let input: Vec<f32> = (0..N).map(|g| g as f32 * 0.5).collect();
    let din = buffer(&context, &queue, &input);
    let dout = buffer(&context, &queue, &vec![0.0f32; N]);
    arg(&kernel, 0, &din);
    arg(&kernel, 1, &dout);
    run(&queue, &kernel, N, 64);
    let got = read(&queue, &dout, N);
    for (g, &got) in got.iter().enumerate() {
        let l = g % 64;
        let row = g - l + (l / 4) * 4;
        let q = &input[row..row + 4];
        let rewritten = (l / 4) as f32 + (l % 4) as f32 * 0.25;
        let want = q[0] + q[3] * 10.0 + q[1] * 100.0 + rewritten * 1000.0;
        assert_eq!(got, want, "__local float4 view at {g}");
    }

    let kernel = Kernel::create(&program, "private_bits").expect("kernel");
    const M: usize = 64;
    let input: Vec<f32> = (0..M).map(|i| (i as f32 - 20.5) * 1.375e3).collect();
    let din = buffer(&context, &queue, &input);
    let dout = buffer(&context, &queue, &vec![0u32; M * 8]);
    arg(&kernel, 0, &din);
    arg(&kernel, 1, &dout);
    run(&queue, &kernel, M, 64);
    let got = read(&queue, &dout, M * 8);
    for i in 0..M {
        let bits = input[i].to_bits();
        let x = (bits & !0xff00) | u32::from((0xa0 + i) as u8) << 8;
        let hi = (x >> 16) as u16 as i16;
        let c: Vec<u8> = (0..8).map(|k| (i + k * 16) as u8).collect();
        let word = u32::from_le_bytes([c[4], c[5], c[6], c[7]]);
        let wide = u64::from(bits) << 20 | i as u64;
        let packed = u32::from_le_bytes([0xff, 2, 0xfd, i as u8]);
        let want = [
            bits,
            x,
            i32::from(hi) as u32,
            word,
            0xef | 0xde << 8 | u32::from(c[4]) << 16,
            wide as u32,
            (wide >> 32) as u32,
            packed,
        ];
        assert_eq!(&got[i * 8..i * 8 + 8], &want[..], "private casts at {i}");
    }

    let kernel = Kernel::create(&program, "constant_bytes").expect("kernel");
    let dout = buffer(&context, &queue, &vec![0u32; M * 3]);
    arg(&kernel, 0, &dout);
    run(&queue, &kernel, M, 64);
    let got = read(&queue, &dout, M * 3);
    let table: Vec<u8> = [0x0403_0201u32, 0x0807_0605, 0x0c0b_0a09, 0x100f_0e0d]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let halves = [0.5f32.to_bits(), (-2.0f32).to_bits()];
    for i in 0..M {
        let s = (i % 8) * 2;
        let want = [
            u32::from(table[i % 16]),
            u32::from(u16::from_le_bytes([table[s], table[s + 1]])),
            halves[i & 1],
        ];
        assert_eq!(&got[i * 3..i * 3 + 3], &want[..], "__constant casts at {i}");
    }
}

#[test]
fn narrow_stores_into_local_int_arrays_keep_every_work_items_bytes() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointers_casts.cl");
    let kernel = Kernel::create(&program, "local_bytes").expect("kernel");
    const N: usize = 128;
    let input: Vec<u8> = (0..N).map(|g| (g * 29 + 7) as u8).collect();
    let din = buffer(&context, &queue, &input);
    let words = buffer(&context, &queue, &[0u32; N / 4]);
    let ints = buffer(&context, &queue, &[0i32; N / 4]);
    let readback = buffer(&context, &queue, &vec![0u32; N]);
    arg(&kernel, 0, &din);
    arg(&kernel, 1, &words);
    arg(&kernel, 2, &ints);
    arg(&kernel, 3, &readback);
    run(&queue, &kernel, N, 64);
    let (got_words, got_ints, got_readback) = (
        read(&queue, &words, N / 4),
        read(&queue, &ints, N / 4),
        read(&queue, &readback, N),
    );
    for group in 0..N / 64 {
        let bytes = &input[group * 64..group * 64 + 64];
        let halves: Vec<i16> = bytes.iter().map(|&b| (i32::from(b) * -3) as i16).collect();
        for w in 0..16 {
            let want_word = u32::from_le_bytes([
                bytes[4 * w],
                bytes[4 * w + 1],
                bytes[4 * w + 2],
                bytes[4 * w + 3],
            ]);
            let want_int = i32::from(halves[2 * w] as u16) | i32::from(halves[2 * w + 1]) << 16;
            let at = group * 16 + w;
            assert_eq!(got_words[at], want_word, "uint word {w} of group {group}");
            assert_eq!(got_ints[at], want_int, "int word {w} of group {group}");
        }
        for l in 0..64 {
            let want = u32::from(bytes[63 - l]) | u32::from(halves[l & 31] as u16) << 16;
            assert_eq!(got_readback[group * 64 + l], want, "read back at {l}");
        }
    }
}

#[test]
fn integers_from_pointers_converted_back() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointers_integers.cl");
    const N: usize = 256;
    let input: Vec<f32> = (0..N).map(|i| i as f32 * 0.5 + 1.0).collect();
    let kernel = Kernel::create(&program, "integer_pointers").expect("kernel");
    let out = buffer(&context, &queue, &vec![0i32; N]);
    let din = buffer(&context, &queue, &input);
    arg(&kernel, 0, &out);
    arg(&kernel, 1, &din);
    run(&queue, &kernel, N, 64);
    let got = read(&queue, &out, N);
    for (i, (&g, &x)) in got.iter().zip(&input).enumerate() {
        let window = input[i] + input[(i + 1) & 255] + input[(i + 2) & 255];
        let want = (x.to_bits() as i32)
            .wrapping_add(x as i32)
            .wrapping_add(3 * i as i32)
            .wrapping_add(1)
            .wrapping_add((x * 2.0) as i32)
            .wrapping_add(window as i32);
        assert_eq!(g, want, "out[{i}]");
    }
}

const CHILD: &str = "CLVULKAN_POINTERS_PRINTF_CHILD";

/// The `%p` launch, when this process is the child.
#[test]
fn printf_pointers_child() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointers_printf.cl");
    let kernel = Kernel::create(&program, "print_pointers").expect("kernel");
    let a = buffer(&context, &queue, &[0.0f32; 8]);
    let b = buffer(&context, &queue, &[0.0f32; 8]);
    arg(&kernel, 0, &a);
    arg(&kernel, 1, &b);
    arg(&kernel, 2, &1i32);
    run(&queue, &kernel, 1, 1);
}

/// The numbers `%p` printed after each `name=`.
fn pointers_printed(line: &str) -> Vec<(String, u64)> {
    line.split_whitespace()
        .filter_map(|field| field.split_once('='))
        .map(|(name, value)| {
            let hex = value
                .strip_prefix("0x")
                .unwrap_or_else(|| panic!("%p without 0x: {value}"));
            let v = u64::from_str_radix(hex, 16).expect("hexadecimal");
            (name.to_string(), v)
        })
        .collect()
}

#[test]
fn printf_of_pointers_prints_object_and_offset() {
    let stdout = common::run_child_test("printf_pointers_child", CHILD);
    let lines: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.find("P: ").map(|at| &l[at + 3..]))
        .collect();
    assert_eq!(lines.len(), 2, "two printf lines in:\n{stdout}");
    let buffers = pointers_printed(lines[0]);
    let names: Vec<&str> = buffers.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["a", "a+3", "chosen", "b"]);
    let (a, a3, chosen, b) = (buffers[0].1, buffers[1].1, buffers[2].1, buffers[3].1);
    assert_eq!(a & 0xffff_ffff, 0, "a points at byte 0: {a:#x}");
    assert_ne!(a >> 32, 0, "an object is never null: {a:#x}");
    assert_eq!(a3 - a, 12, "a + 3 is 12 bytes on");
    assert_eq!(chosen, a, "the chosen pointer is a");
    assert_ne!(a >> 32, b >> 32, "a and b are different objects");
    let private = pointers_printed(lines[1]);
    assert_eq!(private[1].1 - private[0].1, 8, "x + 2 is 8 bytes on");
}

#[test]
fn records_held_as_bytes_given_to_helpers_by_pointer() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointers_records.cl");
    let kernel = Kernel::create(&program, "record_pointers").expect("kernel");
    const N: usize = 128;
    let input: Vec<i32> = (0..N as i32).map(|i| (i * 37) % 50 - 20).collect();
    let din = buffer(&context, &queue, &input);
    let out = buffer(&context, &queue, &[0i32; N * 3]);
    let puns = buffer(&context, &queue, &[0.0f32; N]);
    arg(&kernel, 0, &din);
    arg(&kernel, 1, &out);
    arg(&kernel, 2, &puns);
    run(&queue, &kernel, N, 64);
    let (got, got_puns) = (read(&queue, &out, N * 3), read(&queue, &puns, N));
    /// `Small` of the kernel: (a, b, c) as uchar, short, char.
    fn fill(v: i32) -> (u8, i16, i8) {
        ((v + 1) as u8, (-v * 3) as i16, (v - 5) as i8)
    }
    let total = |s: &[(u8, i16, i8)]| -> i32 {
        s.iter()
            .map(|&(a, b, c)| i32::from(a) + i32::from(b) + i32::from(c))
            .sum()
    };
    for i in 0..N {
        let v = input[i];
        let mut one = fill(v);
        let mut pair = [fill(v + 1), fill(v + 2)];
        pair[0].0 = pair[0].0.wrapping_add(1);
        let odd = v & 1 != 0;
        let chosen = if odd { &mut pair[1] } else { &mut one };
        chosen.2 = chosen.2.wrapping_mul(2);
        if odd {
            one = fill(7);
        } else {
            pair[0] = fill(7);
        }
        let want = [
            total(&[one]),
            total(&pair),
            i32::from(one.0) * 1000 + i32::from(pair[0].2),
        ];
        assert_eq!(&got[i * 3..i * 3 + 3], &want[..], "work-item {i} (v = {v})");
        let pun = f32::from_bits(((v as f32).to_bits() & !0xff) | (i as u32 & 0xff));
        assert_eq!(got_puns[i].to_bits(), pun.to_bits(), "union at {i}");
    }
}

#[test]
fn float_atomics_through_pointers_chosen_per_work_item() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointers_records.cl");
    let kernel = Kernel::create(&program, "float_atomics_chosen").expect("kernel");
    const N: usize = 256;
    let input: Vec<f32> = (0..N).map(|i| ((i * 53) % 41) as f32 - 20.0).collect();
    let initial_even: Vec<f32> = (0..N / 2).map(|k| k as f32 + 0.5).collect();
    let initial_odd: Vec<f32> = (0..N / 2).map(|k| -(k as f32) - 0.25).collect();
    let even = buffer(&context, &queue, &initial_even);
    let odd = buffer(&context, &queue, &initial_odd);
    let din = buffer(&context, &queue, &input);
    let old = buffer(&context, &queue, &[0.0f32; N]);
    let sums = buffer(&context, &queue, &[0.0f32; 2]);
    arg(&kernel, 0, &even);
    arg(&kernel, 1, &odd);
    arg(&kernel, 2, &din);
    arg(&kernel, 3, &old);
    arg(&kernel, 4, &sums);
    run(&queue, &kernel, N, 64);
    let (got_even, got_odd) = (read(&queue, &even, N / 2), read(&queue, &odd, N / 2));
    let got_old = read(&queue, &old, N);
    for i in 0..N {
        let (initial, now) = if i & 1 == 1 {
            (initial_odd[i >> 1], got_odd[i >> 1])
        } else {
            (initial_even[i >> 1], got_even[i >> 1])
        };
        assert_eq!(got_old[i], initial, "old value at {i}");
        assert_eq!(now, input[i], "value swapped in at {i}");
    }
    // Whole numbers: every order of the additions sums exactly.
    let positive: f32 = input.iter().filter(|&&v| v > 0.0).sum();
    let rest: f32 = input.iter().filter(|&&v| v <= 0.0).sum();
    assert_eq!(read(&queue, &sums, 2), vec![rest, positive], "sums");
}

#[test]
fn pointers_to_whole_arrays_read_and_write_them() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointers_whole_arrays.cl");
    let kernel = Kernel::create(&program, "whole_arrays").expect("kernel");
    const N: usize = 64;
    let input: Vec<i32> = (0..N as i32).map(|i| (i * 37) % 23).collect();
    let din = buffer(&context, &queue, &input);
    let out = buffer(&context, &queue, &vec![i32::MIN; N * 4]);
    arg(&kernel, 0, &out);
    arg(&kernel, 1, &din);
    run(&queue, &kernel, N, 16);
    let mut want = Vec::with_capacity(N * 4);
    for (g, &x) in input.iter().enumerate() {
        let g = g as i32;
        let mut a = [x, 2, 3, 4];
        a[0] += 10;
        a[(x & 3) as usize] = 100 + g;
        a.iter_mut().for_each(|v| *v += 1);
        let b_sum = 78 + 4 * g;
        let l = g % 16;
        want.extend([
            a.iter().sum(),
            a[1] * 1000 + a[3],
            b_sum,
            (l & 3) * 1000 + g / 16,
        ]);
    }
    assert_eq!(read(&queue, &out, N * 4), want);
}
