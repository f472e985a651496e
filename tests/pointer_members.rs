//! Pointers stored in objects through the loader: struct members that are
//! pointers (in private variables, by-value parameters and returns, arrays
//! of structs, nested records), arrays of pointers indexed at run time,
//! and pointers to pointer variables, each checked against the host.

mod common;

use opencl3::kernel::Kernel;

use common::launch::{build_file as build, run_1d as run, set_arg as arg};
use common::{buffer_with as buffer, read_buffer as read};

const N: usize = 64;

fn inputs() -> (Vec<f32>, Vec<f32>, Vec<i32>) {
    let a: Vec<f32> = (0..N + 8).map(|i| i as f32 * 0.5 + 1.0).collect();
    let b: Vec<f32> = (0..N + 8).map(|i| 100.0 + i as f32 * 3.0).collect();
    let pick: Vec<i32> = (0..N).map(|i| ((i * 7 + i / 3) % 2) as i32).collect();
    (a, b, pick)
}

fn sum(p: &[f32], n: usize) -> f32 {
    let mut s = 0.0f32;
    for x in &p[..n] {
        s += *x;
    }
    s
}

#[test]
fn struct_members_that_are_pointers() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointer_members.cl");
    let (a, b, pick) = inputs();
    let kernel = Kernel::create(&program, "members").expect("kernel");
    let (da, db) = (buffer(&context, &queue, &a), buffer(&context, &queue, &b));
    let dpick = buffer(&context, &queue, &pick);
    let out = buffer(&context, &queue, &vec![0.0f32; N * 8]);
    arg(&kernel, 0, &da);
    arg(&kernel, 1, &db);
    arg(&kernel, 2, &dpick);
    arg(&kernel, 3, &out);
    run(&queue, &kernel, N, 16);
    let got = read(&queue, &out, N * 8);
    for i in 0..N {
        let c = pick[i] != 0;
        let (ai, bi) = (&a[i..], &b[i..]);
        let u = if c { ai } else { bi };
        let chosen_arr = if c { sum(bi, 2) } else { sum(ai, 1) };
        let s_w = if c { bi } else { ai };
        let want = [
            sum(ai, 4),
            bi[1] * 10.0 + sum(&bi[1..], 2),
            sum(u, 3) + 100.0 * sum(&u[1..], 2),
            chosen_arr,
            1.0 + if c { 10.0 } else { 20.0 },
            0.5 * (sum(bi, 2) + s_w[1]),
            ai[3] + sum(&ai[2..], 2),
            if c { bi[0] } else { ai[0] },
        ];
        for (k, w) in want.iter().enumerate() {
            assert_eq!(got[i * 8 + k], *w, "out[{i}][{k}] (pick {})", pick[i]);
        }
    }
}

fn int_inputs() -> (Vec<i32>, Vec<i32>, Vec<i32>) {
    let a: Vec<i32> = (0..N + 8).map(|j| j as i32 * 3 + 1).collect();
    let b: Vec<i32> = (0..N + 8).map(|j| 500 - j as i32 * 7).collect();
    let (_, _, pick) = inputs();
    (a, b, pick)
}

/// Runs kernel `name` of the test's program over `N` work-items with
/// (a, b, pick, out) and returns `out` (`per_item` ints per work-item).
fn run_ints(name: &str, a: &[i32], b: &[i32], pick: &[i32], per_item: usize) -> Vec<i32> {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointer_members.cl");
    let kernel = Kernel::create(&program, name).expect("kernel");
    let (da, db) = (buffer(&context, &queue, a), buffer(&context, &queue, b));
    let dpick = buffer(&context, &queue, pick);
    let out = buffer(&context, &queue, &vec![-99i32; N * per_item]);
    arg(&kernel, 0, &da);
    arg(&kernel, 1, &db);
    arg(&kernel, 2, &dpick);
    arg(&kernel, 3, &out);
    run(&queue, &kernel, N, 16);
    read(&queue, &out, N * per_item)
}

fn check(name: &str, got: &[i32], per_item: usize, pick: &[i32], want: impl Fn(usize) -> Vec<i32>) {
    for (i, c) in pick.iter().enumerate().take(N) {
        for (k, w) in want(i).iter().enumerate() {
            let at = i * per_item + k;
            assert_eq!(got[at], *w, "{name}: out[{i}][{k}] (pick {c})");
        }
    }
}

#[test]
fn arrays_of_pointers() {
    let (a, b, pick) = int_inputs();
    let got = run_ints("arrays", &a, &b, &pick, 6);
    check("arrays", &got, 6, &pick, |i| {
        let c = pick[i] != 0;
        let ro = |k: usize| {
            if (k + usize::from(c)) % 2 == 1 {
                a[i + k]
            } else {
                b[i + k]
            }
        };
        vec![
            if c { b[i] } else { a[i] },
            if c {
                a[i] * 1000 + a[i + 2]
            } else {
                b[i + 2] * 1000 + b[i]
            },
            if c { b[i + 1] } else { b[i] },
            ro(0) + ro(1) * 10 + ro(2) * 100,
            1,
            if c { -1 } else { a[i] },
        ]
    });
}

#[test]
fn pointers_to_pointer_variables() {
    let (a, b, pick) = int_inputs();
    let got = run_ints("indirect", &a, &b, &pick, 8);
    check("indirect", &got, 8, &pick, |i| {
        let c = pick[i] != 0;
        vec![
            if c { a[i] } else { b[i] },
            a[i + 2],
            a[i + 3],
            if c {
                b[i] * 1000 + a[i + 4]
            } else {
                b[i + 1] * 1000 + a[i + 3]
            },
            a[i + 5] + a[i + 6] * 1000,
            b[i + 1] * 1000 + a[i],
            if c {
                a[i] * 1000 + b[i + 2]
            } else {
                a[i + 1] * 1000 + b[i + 1]
            },
            1 + if c { 0 } else { 10 },
        ]
    });
}

#[test]
fn pointers_returned_for_pointers_chosen_at_run_time() {
    let (a, b, pick) = int_inputs();
    let got = run_ints("chosen_calls", &a, &b, &pick, 2);
    check("chosen_calls", &got, 2, &pick, |i| {
        let p = if pick[i] != 0 { &a } else { &b };
        vec![p[i + 1], p[i + 2] + 1]
    });
}

#[test]
fn struct_members_copied_incremented_and_stored_through_pointers() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointer_members.cl");
    let (_, _, pick) = inputs();
    let s: Vec<i32> = (0..N * 16).map(|j| j as i32 * 5 + 3).collect();
    let kernel = Kernel::create(&program, "struct_places").expect("kernel");
    let ds = buffer(&context, &queue, &s);
    let dpick = buffer(&context, &queue, &pick);
    let out = buffer(&context, &queue, &vec![-99i32; N * 4]);
    arg(&kernel, 0, &ds);
    arg(&kernel, 1, &dpick);
    arg(&kernel, 2, &out);
    run(&queue, &kernel, N, 16);
    let got = read(&queue, &out, N * 4);
    let got_s = read(&queue, &ds, N * 16);
    let mut want_s = s.clone();
    check("struct_places", &got, 4, &pick, |i| {
        let c = pick[i] != 0;
        let (r0, r1) = (i * 16, i * 16 + 8);
        let p0 = if c { r0 } else { r1 };
        let (w_n, v_p) = (if c { 1 } else { 2 }, r0);
        let w_p = p0 + 4;
        let x_p = p0 + 4;
        let head = s[w_p] + (w_p - r0) as i32 * 100 + i32::from(x_p > v_p) * 1000 + w_n * 10000;
        // `vp` is `&v` or `&w`; its member then points at r1 + 6.
        let (v_after, w_after) = if c { (r1 + 6, w_p) } else { (v_p, r1 + 6) };
        vec![
            head,
            if c { s[v_p] } else { s[w_p] },
            s[v_after],
            s[w_after],
        ]
    });
    for (i, c) in pick.iter().enumerate().take(N) {
        let p0 = if *c != 0 { i * 16 } else { i * 16 + 8 };
        want_s[p0 + 1] = 5;
    }
    assert_eq!(got_s, want_s, "the stores through x.p");
}

#[test]
fn members_pointing_into_local_memory_and_private_arrays_of_pointers() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointer_members.cl");
    let kernel = Kernel::create(&program, "local_members").expect("kernel");
    let out = buffer(&context, &queue, &vec![-99i32; N * 2]);
    arg(&kernel, 0, &out);
    run(&queue, &kernel, N, 16);
    let got = read(&queue, &out, N * 2);
    for i in 0..N {
        let odd = i & 1 == 1;
        // t[3] = 3 for odd work-items, u[3] = 6 for even ones.
        assert_eq!(got[i * 2], if odd { 3 } else { 6 }, "local_get for {i}");
        let priv_ = [7, 8, 9];
        let (mut p0, mut p1) = (0usize, 1usize);
        if odd {
            p1 += 1;
        } else {
            p0 += 1;
        }
        assert_eq!(
            got[i * 2 + 1],
            priv_[p0] * 10 + priv_[p1],
            "private pointers for {i}"
        );
    }
}

#[test]
fn program_scope_arrays_of_pointers_across_launches() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointer_arrays_program.cl");
    let (_, _, pick) = inputs();
    let (t0, t1) = ([1, 2, 3, 4], [10, 20, 30, 40]);
    let dpick = buffer(&context, &queue, &pick);
    let out = buffer(&context, &queue, &vec![-99i32; N * 3]);
    let read_tabs = Kernel::create(&program, "read_tabs").expect("kernel");
    arg(&read_tabs, 0, &dpick);
    arg(&read_tabs, 1, &out);
    run(&queue, &read_tabs, N, 16);
    let got = read(&queue, &out, N * 3);
    check("read_tabs", &got, 3, &pick, |i| {
        let c = pick[i] != 0;
        vec![
            if c { t1[1 + i % 3] } else { t0[i % 3] },
            1,
            if c { t0[0] } else { t1[1] },
        ]
    });
    let retarget = Kernel::create(&program, "retarget").expect("kernel");
    run(&queue, &retarget, 1, 1);
    let after = buffer(&context, &queue, &[-99i32; 5]);
    let read_after = Kernel::create(&program, "read_after").expect("kernel");
    arg(&read_after, 0, &after);
    run(&queue, &read_after, 1, 1);
    assert_eq!(read(&queue, &after, 5), vec![t1[2], 77, 5, 9, 4]);
}
