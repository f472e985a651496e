//! Unrolled loops through the loader: the kernels of
//! `tests/kernels/unrolled_loops.cl` loop over private arrays with
//! constant trip counts (counting up and down, `<=`, `!=`, steps past 1,
//! nests, loops that never run, a counter read after its loop, a `uchar`
//! counter that wraps, copies that index past an array's end where they
//! never run, an early `return`), under `#pragma unroll` with and without
//! a count, and in loops that must stay loops (the body writes its
//! counter, breaks, continues, or takes its address). Every work-item's
//! result must be what the host computes.
//!
//! `large_private` needs unrolling to run at all on a CPU device: its
//! 4,160-byte private array (260 `uint4`s), indexed by loop counters, is more than such
//! a device lets a work-item keep addressed, and only once the loops are
//! unrolled is every index a constant and the array values.

mod common;

use common::launch::{build_source, launch};
use opencl3::kernel::{ExecuteKernel, Kernel};

const ITEMS: usize = 64;
const N: usize = 64;

fn input() -> Vec<u32> {
    (0..N as u32)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 7)
        .collect()
}

/// What each kernel computes for work-item `g`, as the host computes it.
fn expected(kernel: &str, g: i32, input: &[u32]) -> u32 {
    let at = |i: i32| input[(i as usize) % N];
    match kernel {
        "ascending" => {
            let a: Vec<i32> = (0..8).map(|i| g * (i + 1) - i * i).collect();
            (0..8).fold(0u32, |s, i| {
                s.wrapping_mul(3)
                    .wrapping_add((a[i as usize] * (i + 3)) as u32)
            })
        }
        "descending" => {
            let a: Vec<i32> = (0..8).map(|i| g + i * 5).collect();
            (0..8)
                .rev()
                .fold(0u32, |s, i| s.wrapping_mul(3).wrapping_add(a[i] as u32))
        }
        "bounds_and_steps" => {
            let a: Vec<i32> = (0..10).map(|i| g ^ (i * 13)).collect();
            let mut s = 0u32;
            for (i, k) in [(1, 7), (4, 7), (7, 7), (9, 5), (5, 5), (1, 5)] {
                s = s.wrapping_mul(k).wrapping_add(a[i] as u32);
            }
            for i in [1, 2, 4, 8] {
                s = s.wrapping_mul(11).wrapping_add(a[i] as u32);
            }
            for i in [2, 4, 6, 8] {
                s = s.wrapping_mul(13).wrapping_add(a[i] as u32);
            }
            s
        }
        "nested" => {
            let mut acc = [[0i32; 5]; 4];
            for (r, row) in acc.iter_mut().enumerate() {
                for (c, v) in row.iter_mut().enumerate() {
                    *v = g * r as i32 + c as i32;
                }
            }
            for k in 0..3 {
                for (r, row) in acc.iter_mut().enumerate() {
                    for (c, v) in row.iter_mut().enumerate() {
                        *v += (r as i32 + 1) * (c as i32 + k);
                    }
                }
            }
            (acc.iter().flatten()).fold(0u32, |s, &v| s.wrapping_mul(3).wrapping_add(v as u32))
        }
        "counter_after" => {
            let a: Vec<i32> = (0..6).map(|i| g + i).collect();
            let s = 600u32 + 3 + 10;
            let s = a
                .iter()
                .fold(s, |s, &v| s.wrapping_mul(2).wrapping_add(v as u32));
            s + 6
        }
        "wrapping_counter" => {
            let mut a = [0u32; 10];
            let mut c: u8 = 250;
            while c != 4 {
                a[usize::from(c) % 10] =
                    a[usize::from(c) % 10].wrapping_add((i32::from(c) + g) as u32);
                c = c.wrapping_add(1);
            }
            a.iter()
                .fold(0u32, |s, &v| s.wrapping_mul(3).wrapping_add(v))
        }
        "unreached_copies" => {
            let small: Vec<i32> = (0..4).map(|i| g + i).collect();
            let mut big: Vec<i32> = (0..8).map(|i| g * i).collect();
            for i in 0..4 {
                big[i] += small[i];
            }
            big.iter()
                .fold(0u32, |s, &v| s.wrapping_mul(5).wrapping_add(v as u32))
        }
        "early_return" => (0..8)
            .find(|i| (g * 5 + i * 3) % 11 == 7)
            .map_or(100, |i| i as u32),
        "pragmas" => {
            let mut s = 0u32;
            for i in 0..16 {
                s = s.wrapping_add(at(g + i).wrapping_mul(i as u32 + 1));
            }
            for i in 0..12 {
                s = s.wrapping_mul(3).wrapping_add(at(g * 3 + i));
            }
            for i in 0..10 {
                s = s.wrapping_mul(5).wrapping_add(at(g + 2 * i));
            }
            for i in 0..8 {
                s ^= at(g + i * 7) << (i & 3);
            }
            for i in 0..6u32 {
                s = s.wrapping_add(i.wrapping_mul(at(g)));
            }
            for i in (0..6).rev() {
                s = s.wrapping_mul(7).wrapping_add(at(g + i));
            }
            for i in 0..4 {
                s = s.wrapping_mul(3).wrapping_add(at(g + i * 9));
            }
            s
        }
        "kept_loops" => {
            let a: Vec<i32> = (0..8).map(|i| g + i * 7).collect();
            let mut s = 0u32;
            let mut i = 0;
            while i < 8 {
                s = s.wrapping_add(a[i] as u32);
                if a[i] % 3 == 0 {
                    i += 1;
                }
                i += 1;
            }
            for &v in &a {
                if v % 5 == 4 {
                    break;
                }
                s = s.wrapping_mul(2).wrapping_add(v as u32);
            }
            for (i, &v) in a.iter().enumerate() {
                if v & 1 == 0 {
                    s = s.wrapping_add((v * i as i32) as u32);
                }
            }
            for &v in &a {
                if v % 4 == 0 {
                    continue;
                }
                s = s.wrapping_add(v as u32).wrapping_mul(3);
            }
            for (i, &v) in a.iter().enumerate() {
                s = match v % 3 {
                    0 => s.wrapping_add(1),
                    1 => s.wrapping_add(i as u32),
                    _ => s.wrapping_sub(v as u32),
                };
            }
            a.iter()
                .fold(s, |s, &v| s.wrapping_mul(5).wrapping_add(v as u32))
        }
        "large_private" => (0..260u32).fold(0u32, |s, i| {
            let x = at(g + i as i32);
            let term = x
                .wrapping_mul((i & 7) + 1)
                .wrapping_add(i.wrapping_mul(3 * i))
                .wrapping_add(g as u32);
            s.wrapping_add(term)
        }),
        _ => unreachable!("no host code for {kernel}"),
    }
}

const KERNELS: [&str; 10] = [
    "ascending",
    "descending",
    "bounds_and_steps",
    "nested",
    "counter_after",
    "wrapping_counter",
    "unreached_copies",
    "early_return",
    "pragmas",
    "kept_loops",
];

/// Whether `kernel` takes the input buffer before its output.
fn takes_input(kernel: &str) -> bool {
    matches!(kernel, "pragmas" | "large_private")
}

fn source() -> String {
    std::fs::read_to_string(common::repo_path("tests/kernels/unrolled_loops.cl"))
        .expect("kernel source")
}

#[test]
fn unrolled_loops_compute_what_the_host_computes() {
    let (context, queue) = common::context_and_queue();
    let program = build_source(&context, &source(), "");
    let data = input();
    let input = common::buffer_with(&context, &queue, &data);
    for kernel in KERNELS {
        let output = common::buffer_with(&context, &queue, &[u32::MAX; ITEMS]);
        launch(&queue, &program, kernel, ITEMS, |e: &mut ExecuteKernel| {
            // SAFETY: the buffers match the kernel's parameters and hold
            // what it reads and writes.
            unsafe {
                if takes_input(kernel) {
                    e.set_arg(&input);
                }
                e.set_arg(&output);
            }
        });
        let got = common::read_buffer(&queue, &output, ITEMS);
        for (g, &value) in got.iter().enumerate() {
            assert_eq!(
                value,
                expected(kernel, g as i32, &data),
                "{kernel}, work-item {g}"
            );
        }
    }
}

#[test]
fn a_private_array_too_large_to_address_runs_once_unrolled() {
    let (context, queue) = common::context_and_queue();
    let device = opencl3::device::Device::new(context.devices()[0]);
    let cpu = device.dev_type().expect("device type") == opencl3::device::CL_DEVICE_TYPE_CPU;
    let data = input();
    let input = common::buffer_with(&context, &queue, &data);
    let run = |options: &str| {
        let program = build_source(&context, &source(), options);
        let kernel = Kernel::create(&program, "large_private").expect("kernel");
        let output = common::buffer_with(&context, &queue, &[0u32; ITEMS]);
        // SAFETY: the buffers match the kernel's parameters and hold what
        // it reads and writes.
        let launched = unsafe {
            ExecuteKernel::new(&kernel)
                .set_arg(&input)
                .set_arg(&output)
                .set_global_work_size(ITEMS)
                .enqueue_nd_range(&queue)
        };
        launched.map(|event| {
            event.wait().expect("wait");
            common::read_buffer(&queue, &output, ITEMS)
        })
    };
    let got = run("").expect("the unrolled kernel launches");
    for (g, &value) in got.iter().enumerate() {
        assert_eq!(
            value,
            expected("large_private", g as i32, &data),
            "work-item {g}"
        );
    }
    if cpu {
        // Not unrolled, the array stays indexed at run time.
        let refused = run("-cl-opt-disable").map(|_: Vec<u32>| ()).unwrap_err();
        assert_eq!(refused.0, opencl3::error_codes::CL_OUT_OF_RESOURCES);
    }
}
