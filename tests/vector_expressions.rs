//! Vector expressions end to end, each checked against a host model:
//! the vector conditional operator (`c ? a : b` with a vector condition
//! selects each lane by the most significant bit of the condition's lane,
//! OpenCL C 6.3.i) on every width with vector and scalar operands;
//! `as_<type>` between every pair of types of one size, 3-vectors sized as
//! four lanes included, against the host's bytes; and
//! (`tests/kernels/vector_expressions.cl`) vector literals whose operands
//! are casts, `bitselect` and `select` on `float`/`double`, compound
//! literals, and members of structs returned by functions.

mod common;

use opencl3::context::Context;
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::program::Program;
use std::fmt::Write as _;

/// splitmix64: deterministic pseudo-random inputs.
fn mix(i: u64) -> u64 {
    let mut z = i.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn has_extension(context: &Context, name: &str) -> bool {
    opencl3::device::Device::new(context.devices()[0])
        .extensions()
        .expect("extensions")
        .contains(name)
}

fn build(context: &Context, source: &str) -> Program {
    Program::create_and_build_from_source(context, source, "")
        .unwrap_or_else(|log| panic!("build failed:\n{log}\n{source}"))
}

/// Runs `name` of `program` on one work-item with byte buffers `inputs`
/// and an output of `out_len` bytes (the last argument), and returns it.
fn run_bytes(
    context: &Context,
    queue: &opencl3::command_queue::CommandQueue,
    program: &Program,
    name: &str,
    inputs: &[&[u8]],
    out_len: usize,
) -> Vec<u8> {
    let kernel = Kernel::create(program, name).expect("kernel");
    let buffers: Vec<_> = inputs
        .iter()
        .map(|b| common::buffer_with(context, queue, b))
        .collect();
    let out = common::buffer_with(context, queue, &vec![0u8; out_len]);
    let mut exec = ExecuteKernel::new(&kernel);
    for b in &buffers {
        // SAFETY: the kernels take one buffer per input, then the output.
        unsafe { exec.set_arg(b) };
    }
    // SAFETY: as above.
    unsafe {
        exec.set_arg(&out)
            .set_global_work_size(1)
            .enqueue_nd_range(queue)
    }
    .unwrap_or_else(|e| panic!("{name}: enqueue: {e}"));
    common::read_buffer(queue, &out, out_len)
}

/// A scalar type as the host sees its bytes.
#[derive(Clone, Copy, PartialEq)]
struct Scalar {
    name: &'static str,
    size: usize,
}

const fn s(name: &'static str, size: usize) -> Scalar {
    Scalar { name, size }
}

/// `c ? a : b` with a vector condition of type `cond` and operands of
/// `value`, lane by lane: `a` where the condition's lane has its most
/// significant bit set. Scalar operands spread to every lane.
#[test]
fn vector_conditional_selects_by_the_most_significant_bit() {
    let (context, queue) = common::context_and_queue();
    let fp64 = has_extension(&context, "cl_khr_fp64");
    let pairs = [
        (s("char", 1), s("char", 1)),
        (s("uchar", 1), s("uchar", 1)),
        (s("char", 1), s("uchar", 1)),
        (s("short", 2), s("short", 2)),
        (s("ushort", 2), s("short", 2)),
        (s("int", 4), s("int", 4)),
        (s("uint", 4), s("uint", 4)),
        (s("int", 4), s("float", 4)),
        (s("uint", 4), s("float", 4)),
        (s("long", 8), s("long", 8)),
        (s("ulong", 8), s("ulong", 8)),
        (s("long", 8), s("double", 8)),
    ];
    let mut source =
        String::from("#ifdef cl_khr_fp64\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#endif\n");
    let mut runs = Vec::new();
    for (c, v) in pairs {
        if v.name == "double" && !fp64 {
            eprintln!("skipped double: the device does not report cl_khr_fp64");
            continue;
        }
        for n in [2usize, 3, 4, 8, 16] {
            let (ct, vt) = (format!("{}{n}", c.name), format!("{}{n}", v.name));
            let name = format!("cond_{ct}_{vt}");
            let t = v.name;
            writeln!(
                source,
                "kernel void {name}(global const {c0} *c, global const {t} *a, global const {t} *b, global {t} *out) {{\n  \
                 {ct} cv = vload{n}(0, c); {vt} av = vload{n}(0, a), bv = vload{n}(0, b);\n  \
                 vstore{n}(cv ? av : bv, 0, out);\n  \
                 vstore{n}(cv ? av : ({t})7, 0, out + {n});\n  \
                 vstore{n}(cv ? ({t})3 : bv, 0, out + {n2});\n  \
                 vstore{n}(cv ? ({t})3 : ({t})7, 0, out + {n3});\n  \
                 {vt} w = bv; w = vload{n}(0, c) < ({ct})0 ? w : av; vstore{n}(w, 0, out + {n4});\n}}",
                c0 = c.name,
                n2 = 2 * n,
                n3 = 3 * n,
                n4 = 4 * n,
            )
            .unwrap();
            runs.push((c, v, n, name));
        }
    }
    let program = build(&context, &source);
    // Condition lanes around the sign bit: zero, one, the largest
    // positive, the smallest negative, -1 and random bits.
    let cond_lane = |c: Scalar, k: usize| -> Vec<u8> {
        let bits = c.size * 8;
        let top = 1u64 << (bits - 1);
        let v = match k % 6 {
            0 => 0,
            1 => 1,
            2 => top - 1,
            3 => top,
            4 => u64::MAX,
            _ => mix(k as u64),
        };
        v.to_le_bytes()[..c.size].to_vec()
    };
    // Operand lanes: small integers, as the operand type holds them.
    let value_lane = |v: Scalar, x: i64| -> Vec<u8> {
        match v.name {
            "float" => (x as f32).to_le_bytes().to_vec(),
            "double" => (x as f64).to_le_bytes().to_vec(),
            _ => x.to_le_bytes()[..v.size].to_vec(),
        }
    };
    for (c, v, n, name) in runs {
        let cond: Vec<Vec<u8>> = (0..n).map(|k| cond_lane(c, k + n)).collect();
        let a: Vec<i64> = (0..n).map(|k| 10 + k as i64).collect();
        let b: Vec<i64> = (0..n).map(|k| 40 + k as i64).collect();
        let bytes =
            |lanes: &[i64]| -> Vec<u8> { lanes.iter().flat_map(|&x| value_lane(v, x)).collect() };
        let got = run_bytes(
            &context,
            &queue,
            &program,
            &name,
            &[&cond.concat(), &bytes(&a), &bytes(&b)],
            5 * n * v.size,
        );
        let msb = |k: usize| cond[k][c.size - 1] & 0x80 != 0;
        let expected: Vec<i64> = [
            (0..n)
                .map(|k| if msb(k) { a[k] } else { b[k] })
                .collect::<Vec<_>>(),
            (0..n).map(|k| if msb(k) { a[k] } else { 7 }).collect(),
            (0..n).map(|k| if msb(k) { 3 } else { b[k] }).collect(),
            (0..n).map(|k| if msb(k) { 3 } else { 7 }).collect(),
            // `c < 0` is -1 (all bits) in lanes where a signed `c` is
            // negative, and an unsigned `c` never is.
            (0..n)
                .map(|k| {
                    let negative = msb(k) && !c.name.starts_with('u');
                    if negative {
                        b[k]
                    } else {
                        a[k]
                    }
                })
                .collect(),
        ]
        .concat();
        assert_eq!(got, bytes(&expected), "{name}");
    }
}

/// Every type of one size: its name, element size and lanes.
fn types_of_size(size: usize, half: bool) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let scalars = [
        ("char", 1),
        ("uchar", 1),
        ("short", 2),
        ("ushort", 2),
        ("half", 2),
        ("int", 4),
        ("uint", 4),
        ("float", 4),
        ("long", 8),
        ("ulong", 8),
        ("double", 8),
    ];
    for (name, elem) in scalars {
        if name == "half" && !half {
            continue;
        }
        for lanes in [1usize, 2, 3, 4, 8, 16] {
            let storage = if lanes == 3 { 4 } else { lanes };
            if elem * storage == size {
                let t = if lanes == 1 {
                    name.to_string()
                } else {
                    format!("{name}{lanes}")
                };
                out.push((t, elem, lanes));
            }
        }
    }
    out
}

/// `as_T(x)` for every pair of types of one size from 2 to 64 bytes: the
/// result's bytes are the operand's, as the host lays both out. Bytes of
/// a 3-vector's fourth lane (the operand's, or the result's) are
/// undefined and not checked.
#[test]
fn as_type_between_every_pair_of_one_size() {
    let (context, queue) = common::context_and_queue();
    let fp64 = has_extension(&context, "cl_khr_fp64");
    let fp16 = has_extension(&context, "cl_khr_fp16");
    let mut source = String::new();
    if fp64 {
        source.push_str("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    }
    if fp16 {
        source.push_str("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n");
    }
    let mut runs = Vec::new();
    for size in [2usize, 4, 8, 16, 32, 64] {
        let types: Vec<_> = types_of_size(size, fp16)
            .into_iter()
            .filter(|(t, ..)| fp64 || !t.starts_with("double"))
            .collect();
        for (from, from_elem, from_lanes) in &types {
            let name = format!("as_from_{from}");
            let mut body = String::new();
            let mut targets = Vec::new();
            for (k, (to, to_elem, to_lanes)) in types.iter().enumerate() {
                writeln!(body, "  *(global {to} *)(out + {}) = as_{to}(x);", k * size).unwrap();
                targets.push((to.clone(), *to_elem, *to_lanes));
            }
            writeln!(
                source,
                "kernel void {name}(global const {from} *in, global uchar *out) {{\n  {from} x = in[0];\n{body}}}"
            )
            .unwrap();
            runs.push((name, size, *from_elem, *from_lanes, targets));
        }
    }
    let program = build(&context, &source);
    for (name, size, from_elem, from_lanes, targets) in runs {
        // Bytes that make a normal, finite number of every float type at
        // every aligned 2, 4 and 8 bytes (0x10..0x3f in each byte), so no
        // NaN payload or subnormal is at stake.
        let input: Vec<u8> = (0..size)
            .map(|i| 0x10 + (mix((size * 131 + i) as u64 + from_elem as u64) % 0x30) as u8)
            .collect();
        let got = run_bytes(
            &context,
            &queue,
            &program,
            &name,
            &[&input],
            size * targets.len(),
        );
        let undefined = |elem: usize, lanes: usize, byte: usize| lanes == 3 && byte / elem == 3;
        for (k, (to, to_elem, to_lanes)) in targets.iter().enumerate() {
            for byte in 0..size {
                if undefined(from_elem, from_lanes, byte) || undefined(*to_elem, *to_lanes, byte) {
                    continue;
                }
                assert_eq!(
                    got[k * size + byte],
                    input[byte],
                    "{name}: as_{to}, byte {byte}"
                );
            }
        }
    }
}
