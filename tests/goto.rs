//! `goto` and labels through the loader: forward and backward, out of
//! nested loops, into loop bodies, between `switch` cases, to a loop's
//! continue point, irreducible flow, in kernels and in helpers, each
//! work-item on its own path. The kernels (`tests/kernels/goto.cl`) are
//! compiled as C for the host too (`tests/c/goto_host.c`), and the device
//! must give what the host's C compiler gives.

mod common;

use opencl3::kernel::{ExecuteKernel, Kernel};
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
    let program = common::launch::build_source(&context, &source, "");
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
    let program = common::launch::build_source(&context, &source, "");
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

/// Random functions full of gotos (forward, backward, into and out of
/// loops, `switch` cases, branches and blocks), written in the C that both
/// OpenCL C and the host's compiler take, with a fuel count that ends
/// every path: a seeded generator, so each run builds the same programs.
struct RandomGotos {
    state: u64,
    /// Labels each function defines, `L0`..; gotos name any of them.
    labels: usize,
    placed: Vec<bool>,
    /// Loop counters declared at the top, one per loop.
    counters: usize,
}

impl RandomGotos {
    fn below(&mut self, n: u64) -> u64 {
        self.state = self
            .state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.state >> 33) % n
    }

    fn function(&mut self, name: &str) -> String {
        self.labels = 2 + self.below(4) as usize;
        self.placed = vec![false; self.labels];
        self.counters = 0;
        let mut body = String::new();
        self.statements(&mut body, 0, false, false);
        // Labels no statement took go at the end.
        for l in 0..self.labels {
            if !self.placed[l] {
                body += &format!("L{l}: acc = acc * 5u + {l}u;\n");
            }
        }
        let counters: String = (0..self.counters)
            .map(|i| format!("uint i{i} = 0;\n"))
            .collect();
        format!(
            "static uint {name}(uint x) {{\nuint acc = x, fuel = 0;\n{counters}{body}\
             end:\nreturn acc ^ (fuel << 24);\n}}\n"
        )
    }

    fn statements(&mut self, out: &mut String, depth: u32, in_loop: bool, in_switch: bool) {
        for _ in 0..1 + self.below(4) {
            self.statement(out, depth, in_loop, in_switch);
        }
    }

    fn statement(&mut self, out: &mut String, depth: u32, in_loop: bool, in_switch: bool) {
        let k = self.below(100);
        let nest = depth < 3;
        let choice = self.below(if nest { 13 } else { 6 });
        match choice {
            0 => *out += &format!("acc = acc * 31u + {k}u;\n"),
            1 => {
                let l = self.below(self.labels as u64) as usize;
                if !self.placed[l] {
                    self.placed[l] = true;
                    *out += &format!("L{l}: if (++fuel > 60u) goto end;\n");
                } else {
                    *out += &format!("acc ^= x + {k}u;\n");
                }
            }
            2 | 3 => {
                let l = self.below(self.labels as u64);
                let bit = self.below(6);
                *out += &format!("if (((x + acc) >> {bit}) & 1u) goto L{l};\n");
            }
            4 => {
                let l = self.below(self.labels as u64);
                *out += &format!("goto L{l};\n");
            }
            5 if in_loop || in_switch => {
                let jump = if in_loop && self.below(2) == 0 {
                    "continue"
                } else if in_switch || in_loop {
                    "break"
                } else {
                    unreachable!()
                };
                *out += &format!("if ((acc + {k}u) % 3u == 0u) {jump};\n");
            }
            5 => *out += &format!("acc += {k}u;\n"),
            6 | 7 => {
                *out += &format!("if ((acc ^ x) % 5u < {}u) {{\n", k % 5);
                self.statements(out, depth + 1, in_loop, in_switch);
                *out += "} else {\n";
                self.statements(out, depth + 1, in_loop, in_switch);
                *out += "}\n";
            }
            8 => {
                let i = self.counter();
                *out +=
                    &format!("for (i{i} = 0; i{i} < 3u; i{i}++) {{\nif (++fuel > 60u) goto end;\n");
                self.statements(out, depth + 1, true, false);
                *out += "}\n";
            }
            9 => {
                let i = self.counter();
                *out += &format!(
                    "i{i} = 0;\nwhile (i{i} < 3u) {{\nif (++fuel > 60u) goto end;\ni{i}++;\n"
                );
                self.statements(out, depth + 1, true, false);
                *out += "}\n";
            }
            10 => {
                let i = self.counter();
                *out += &format!("i{i} = 0;\ndo {{\nif (++fuel > 60u) goto end;\n");
                self.statements(out, depth + 1, true, false);
                *out += &format!("}} while (++i{i} < 2u);\n");
            }
            11 => {
                *out += "switch ((x + acc) % 4u) {\n";
                for case in ["case 0:", "case 1:", "case 2:", "default:"] {
                    *out += case;
                    *out += "\n";
                    self.statements(out, depth + 1, in_loop, true);
                    if self.below(2) == 0 {
                        *out += "break;\n";
                    }
                }
                *out += "}\n";
            }
            _ => {
                *out += "{\n";
                self.statements(out, depth + 1, in_loop, in_switch);
                *out += "}\n";
            }
        }
    }

    fn counter(&mut self) -> usize {
        self.counters += 1;
        self.counters - 1
    }
}

#[test]
fn random_goto_programs_match_the_host() {
    const FUNCTIONS: usize = 48;
    const WORK_ITEMS: usize = 64;
    let mut generator = RandomGotos {
        state: 0x2545_f491_4f6c_dd1d,
        labels: 0,
        placed: Vec::new(),
        counters: 0,
    };
    let mut functions = String::new();
    for n in 0..FUNCTIONS {
        functions += &generator.function(&format!("f{n}"));
    }
    let calls: String = (0..FUNCTIONS)
        .map(|n| format!("out[x * {FUNCTIONS}u + {n}u] = f{n}(x);\n"))
        .collect();
    let kernel = format!(
        "{functions}kernel void all(global uint *out) {{\nuint x = (uint)get_global_id(0);\n{calls}}}\n"
    );
    // The host: the same functions as C, one call per work-item.
    let dir = std::env::temp_dir().join(format!("clvulkan-gotos-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let c = dir.join("gotos.c");
    std::fs::write(
        &c,
        format!(
            "#include <stdio.h>\n#include <stddef.h>\ntypedef unsigned int uint;\n\
             #define kernel\n#define global\nstatic size_t id;\n\
             static size_t get_global_id(uint d) {{ (void)d; return id; }}\n\
             {kernel}\
             int main(void) {{\n static uint out[{n}];\n\
             for (id = 0; id < {WORK_ITEMS}; id++) all(out);\n\
             for (int i = 0; i < {n}; i++) printf(\"%u\\n\", out[i]);\n return 0;\n}}\n",
            n = FUNCTIONS * WORK_ITEMS
        ),
    )
    .expect("write the host program");
    let exe = dir.join("gotos");
    let status = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .args(["-O1", "-w", "-o"])
        .arg(&exe)
        .arg(&c)
        .status()
        .expect("a C compiler (cc)");
    assert!(status.success(), "compiling {} failed", c.display());
    let host = Command::new(&exe).output().expect("run the host program");
    assert!(host.status.success());
    let expected: Vec<u32> = String::from_utf8(host.stdout)
        .expect("utf-8")
        .lines()
        .map(|l| l.parse().expect("a uint"))
        .collect();
    let _ = std::fs::remove_dir_all(&dir);

    let (context, queue) = common::context_and_queue();
    let program = common::launch::build_source(&context, &kernel, "");
    let all = Kernel::create(&program, "all").expect("kernel");
    let output = common::buffer_with(&context, &queue, &vec![u32::MAX; expected.len()]);
    // SAFETY: the argument matches the kernel's parameter.
    unsafe {
        ExecuteKernel::new(&all)
            .set_arg(&output)
            .set_global_work_size(WORK_ITEMS)
            .set_local_work_size(WORK_ITEMS)
            .enqueue_nd_range(&queue)
            .expect("launch");
    }
    let got = common::read_buffer(&queue, &output, expected.len());
    for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
        let (x, n) = (i / FUNCTIONS, i % FUNCTIONS);
        assert_eq!(g, e, "f{n}({x}) in:\n{kernel}");
    }
}
