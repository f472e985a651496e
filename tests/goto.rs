//! `goto` and labels through the loader: forward and backward, out of
//! nested loops, into loop bodies, between `switch` cases, to a loop's
//! continue point, irreducible flow, in kernels and in helpers, each
//! work-item on its own path. The kernels (`tests/kernels/goto.cl`) are
//! compiled as C for the host too (`tests/c/goto_host.c`), and the device
//! must give what the host's C compiler gives.

mod common;

use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::program::Program;
use std::collections::HashMap;
use std::process::Command;

const ITEMS: usize = 256;

/// Each kernel's outputs as the host computes them.
fn host_outputs() -> HashMap<String, Vec<i32>> {
    let host = common::compile_c(&common::repo_path("tests/c/goto_host.c"), "goto-host");
    let out = Command::new(&host).output().expect("run the host program");
    assert!(out.status.success(), "host program failed");
    let _ = std::fs::remove_file(&host);
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(|line| {
            let mut words = line.split(' ');
            let name = words.next().expect("kernel name").to_string();
            let values: Vec<i32> = words.map(|w| w.parse().expect("an int")).collect();
            assert_eq!(values.len(), ITEMS, "{name}");
            (name, values)
        })
        .collect()
}

#[test]
fn goto_kernels_match_the_host() {
    let expected = host_outputs();
    assert_eq!(expected.len(), 7, "{:?}", expected.keys());
    let (context, queue) = common::context_and_queue();
    let source =
        std::fs::read_to_string(common::repo_path("tests/kernels/goto.cl")).expect("kernel source");
    let program = Program::create_and_build_from_source(&context, &source, "")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"));
    let mut names: Vec<&String> = expected.keys().collect();
    names.sort();
    for name in names {
        let kernel = Kernel::create(&program, name).expect("kernel");
        let output = common::buffer_with(&context, &queue, &[i32::MIN; ITEMS]);
        // SAFETY: the argument matches the kernel's parameter.
        unsafe {
            ExecuteKernel::new(&kernel)
                .set_arg(&output)
                .set_global_work_size(ITEMS)
                .set_local_work_size(64)
                .enqueue_nd_range(&queue)
                .expect("launch");
        }
        let got = common::read_buffer(&queue, &output, ITEMS);
        for (id, (g, e)) in got.iter().zip(&expected[name]).enumerate() {
            assert_eq!(g, e, "{name}, work-item {id}");
        }
    }
}

/// What `tests/kernels/goto_barrier.cl` computes for a group of `n`
/// work-items starting at global id `base`.
fn ring_expected(base: usize, n: usize) -> Vec<i32> {
    let mut v: Vec<i32> = (0..n).map(|l| (base + l) as i32 * 3).collect();
    for round in 0..5 {
        for (lid, value) in v.iter_mut().enumerate() {
            *value += (lid & 3) as i32;
        }
        let ring = v.clone();
        for (lid, value) in v.iter_mut().enumerate() {
            *value = ring[(lid + 1) % n].wrapping_mul(2).wrapping_add(round);
        }
    }
    for (lid, value) in v.iter_mut().enumerate() {
        if lid & 1 == 0 {
            *value = value.wrapping_neg();
        }
    }
    v
}

#[test]
fn barriers_in_a_uniform_goto_loop() {
    let (context, queue) = common::context_and_queue();
    let source = std::fs::read_to_string(common::repo_path("tests/kernels/goto_barrier.cl"))
        .expect("kernel source");
    let program = Program::create_and_build_from_source(&context, &source, "")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"));
    let kernel = Kernel::create(&program, "ring").expect("kernel");
    let group = 64;
    let output = common::buffer_with(&context, &queue, &[0i32; ITEMS]);
    // SAFETY: the arguments match the kernel's parameters; the `__local`
    // one is given its size only.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&output)
            .set_arg_local_buffer(group * std::mem::size_of::<i32>())
            .set_global_work_size(ITEMS)
            .set_local_work_size(group)
            .enqueue_nd_range(&queue)
            .expect("launch");
    }
    let got = common::read_buffer(&queue, &output, ITEMS);
    for base in (0..ITEMS).step_by(group) {
        let expected = ring_expected(base, group);
        assert_eq!(&got[base..base + group], &expected[..], "group at {base}");
    }
}
