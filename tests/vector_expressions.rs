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

/// Inputs of the fixed kernels: `char`/`uchar` casts of `xi[0]` and
/// `xi[2]` wrap, `xi[5] & 3` picks array elements at run time.
const XI: [i32; 8] = [300, -7, 1234, 9, 77, 2, 1, 0];
const XF: [f32; 4] = [1.5, -2.25, 3.75, 0.1];

/// Runs one of the fixed kernels on `XI`/`XF` with an int and a float
/// output of 32 elements each.
fn run_fixed(name: &str) -> (Vec<i32>, Vec<f32>) {
    let (context, queue) = common::context_and_queue();
    let source = std::fs::read_to_string(common::repo_path("tests/kernels/vector_expressions.cl"))
        .expect("kernel source");
    let program = build(&context, &source);
    let kernel = Kernel::create(&program, name).expect("kernel");
    let xi = common::buffer_with(&context, &queue, &XI);
    let xf = common::buffer_with(&context, &queue, &XF);
    let oi = common::buffer_with(&context, &queue, &[0i32; 32]);
    let of = common::buffer_with(&context, &queue, &[0f32; 32]);
    // SAFETY: four buffers, as the kernel declares.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&xi)
            .set_arg(&xf)
            .set_arg(&oi)
            .set_arg(&of)
            .set_global_work_size(1)
            .enqueue_nd_range(&queue)
    }
    .unwrap_or_else(|e| panic!("{name}: enqueue: {e}"));
    let got_i = common::read_buffer(&queue, &oi, 32);
    let got_f = common::read_buffer(&queue, &of, 32);
    (got_i, got_f)
}

#[test]
fn vector_literals_whose_operands_are_casts() {
    let (oi, of) = run_fixed("literals_of_casts");
    let [x0, x1, x2, x3, x4, ..] = XI;
    let c = |x: i32| i32::from(x as i8);
    let u = |x: i32| i32::from(x as u8);
    assert_eq!(oi[0..2], [c(x0); 2], "(char2)(char)x");
    assert_eq!(
        of[0..4],
        [XF[0], XF[1], x1 as f32, 4.0],
        "(float4)((float2)(..), (float)x, 4)"
    );
    assert_eq!(
        oi[2..6],
        [XF[2] as i32, x0, x1, c(x2)],
        "(int4)((int)f, (int2)(..), (int)(char)x)"
    );
    assert_eq!(
        oi[6..14],
        [u(x0), u(x0), u(x0), u(x0), 1, 2, u(x1), u(x2)],
        "uchar8 of casts"
    );
    assert_eq!(oi[14..16], [-1, -1], "(short2)(short)-1");
    assert_eq!(of[4..6], [x3 as f32; 2], "(float2)(float)x");
    assert_eq!(
        oi[16..19],
        [x0 >> 1, x1 >> 1, x1 >> 1],
        "(long3)((long)x, (long2)(long)y)"
    );
    assert_eq!(oi[19..21], [(x4 as f32) as i32; 2], "(int2)(int)(float)x");
    let base = c(x2) as f32;
    assert_eq!(
        of[6..10],
        [base + 1.0, base + 2.0, base + 2.0, base + 2.0],
        "literal of a cast of a literal"
    );
}

#[test]
fn compound_literals_as_values_and_arguments() {
    let (oi, of) = run_fixed("compound_literals");
    let [x0, x1, x2, x3, _, x5, ..] = XI;
    assert_eq!(oi[0..2], [5 + x0, 7], "(int2){{5, 6}} + (int2){{x, 1}}");
    assert_eq!(oi[2..4], [2 * x1, 2 * x2], "(int2){{..}} as an argument");
    assert_eq!(oi[4], x0, "(Pair){{.a = x, .b = 2}}");
    assert_eq!(of[0], 2.0 + XF[0], "(Pair){{.b = f}}.b");
    assert_eq!(
        oi[5],
        x1 + x2,
        "(Pair){{..}} as an argument, designators out of order"
    );
    assert_eq!(
        of[1],
        1.0 + 2.0 + XF[0],
        "(float[]){{..}} as a pointer argument"
    );
    assert_eq!(oi[6], 7 + [x0, x1][(x5 & 1) as usize], "(int[]){{..}}[i]");
    assert_eq!(oi[7], 12 + 20, "sizeof of array compound literals");
    assert_eq!(of[2], XF[1] + 5.0, "(float[4]){{f, 5}}: the rest is zero");
    let mut acc = 0f32;
    for i in 0..3 {
        let mut s = 0f32;
        s += i as f32;
        s += XF[2];
        acc += s * 2.0;
    }
    assert_eq!(of[3], acc, "array compound literals in a loop");
    assert_eq!(of[4], XF[3] + x3 as f32, "scalar compound literals");
}

#[test]
fn members_of_structs_returned_by_functions() {
    let (oi, of) = run_fixed("returned_members");
    let [_, x1, x2, x3, _, x5, x6, _] = XI;
    let i = (x5 & 3) as usize;
    assert_eq!(of[0..2], [XF[0], 2.0 * XF[0]], "mk(a).re, mk(a).im");
    assert_eq!(
        of[2..6],
        [XF[1] + 1.0, XF[1] + 3.0, XF[2] + 2.0, XF[2] + 3.0],
        "mk(a).v lanes"
    );
    assert_eq!(oi[0..2], [x1 + i as i32, x1 + 3], "mk(a).arr[i]");
    assert_eq!(
        oi[2..5],
        [
            i32::from((x2 * 3) as i16),
            i32::from((x2 + 1) as i8),
            x2 * 5
        ],
        "members of a returned struct with narrow members"
    );
    let bits = XF[3].to_bits();
    assert_eq!(
        oi[5..7],
        [bits as i32, (bits >> 24) as i32],
        "members of a returned union"
    );
    assert_eq!(
        of[6],
        XF[1] + (x3 + i as i32) as f32,
        "members of a nested returned struct"
    );
    assert_eq!(
        oi[7],
        i32::from((x3 + 1) as i8),
        "a narrow member of a nested returned struct"
    );
    assert_eq!(
        of[7],
        if x6 > 0 { 2.0 * XF[0] } else { 2.0 * XF[1] },
        "(c ? mk(a) : mk(b)).im"
    );
}

/// `bitselect` on `float` and `double` (scalars, 3-, 4- and 8-vectors)
/// and `select` on them with signed and unsigned integer masks: scalars
/// select on a non-zero mask, vector lanes on its most significant bit.
#[test]
fn bitselect_and_select_on_floats() {
    let (context, queue) = common::context_and_queue();
    let fp64 = has_extension(&context, "cl_khr_fp64");
    let source = std::fs::read_to_string(common::repo_path("tests/kernels/vector_expressions.cl"))
        .expect("kernel source");
    let program = build(&context, &source);
    let kernel = Kernel::create(&program, "float_bitselect").expect("kernel");
    let fa: Vec<f32> = (0..16).map(|k| 1.25 + k as f32 * 0.5).collect();
    let fb: Vec<f32> = (0..16).map(|k| -3.0 - k as f32 * 1.75).collect();
    let masks = [
        0xffff_0000u32,
        0,
        0x8000_0000,
        0x7f80_0000,
        0x0f0f_0f0f,
        u32::MAX,
        0x0000_ffff,
        0x8000_0001,
    ];
    let fm: Vec<u32> = (0..16).map(|k| masks[k % 8] ^ (k as u32) << 12).collect();
    let im: Vec<i32> = [0, 1, -1, i32::MIN, i32::MAX, -5, 7, 0]
        .iter()
        .cycle()
        .take(16)
        .copied()
        .collect();
    let da: Vec<f64> = (0..4).map(|k| 0.75 + f64::from(k)).collect();
    let db: Vec<f64> = (0..4).map(|k| -9.5 * f64::from(k + 1)).collect();
    let dm: Vec<u64> = vec![
        0xffff_ffff_0000_0000,
        0x8000_0000_0000_0000,
        0x000f_ffff_ffff_ffff,
        0x7ff0_0000_0000_0001,
    ];
    let lm: Vec<i64> = vec![0, -1, i64::MIN, 3];
    let buffers = (
        common::buffer_with(&context, &queue, &fa),
        common::buffer_with(&context, &queue, &fb),
        common::buffer_with(&context, &queue, &fm),
        common::buffer_with(&context, &queue, &im),
        common::buffer_with(&context, &queue, &[0f32; 48]),
        common::buffer_with(&context, &queue, &[0f64; 16]),
        common::buffer_with(&context, &queue, &da),
        common::buffer_with(&context, &queue, &db),
        common::buffer_with(&context, &queue, &dm),
        common::buffer_with(&context, &queue, &lm),
    );
    // SAFETY: ten buffers, as the kernel declares.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&buffers.0)
            .set_arg(&buffers.1)
            .set_arg(&buffers.2)
            .set_arg(&buffers.3)
            .set_arg(&buffers.4)
            .set_arg(&buffers.5)
            .set_arg(&buffers.6)
            .set_arg(&buffers.7)
            .set_arg(&buffers.8)
            .set_arg(&buffers.9)
            .set_global_work_size(1)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let of: Vec<u32> = common::read_buffer(&queue, &buffers.4, 48)
        .iter()
        .map(|f| f.to_bits())
        .collect();
    let bitselect = |a: f32, b: f32, c: u32| (a.to_bits() & !c) | (b.to_bits() & c);
    let mut expected = vec![bitselect(fa[0], fb[0], fm[0])];
    expected.extend((0..4).map(|k| bitselect(fa[k], fb[k], fm[k])));
    expected.extend((0..8).map(|k| bitselect(fa[k], fb[k], fm[k])));
    expected.extend((0..3).map(|k| bitselect(fa[k], fb[k], fm[k])));
    let pick = |k: usize, b: bool| if b { fb[k].to_bits() } else { fa[k].to_bits() };
    expected.push(pick(0, im[0] != 0));
    expected.push(pick(1, fm[1] != 0));
    expected.extend((0..4).map(|k| pick(k, im[k] < 0)));
    expected.extend((0..4).map(|k| pick(k, fm[k] >> 31 == 1)));
    expected.extend((0..16).map(|k| pick(k, im[k] < 0)));
    assert_eq!(
        of[..expected.len()],
        expected[..],
        "float bitselect/select bits"
    );
    if !fp64 {
        eprintln!("skipped double: the device does not report cl_khr_fp64");
        return;
    }
    let od: Vec<u64> = common::read_buffer(&queue, &buffers.5, 16)
        .iter()
        .map(|f| f.to_bits())
        .collect();
    let dbitselect = |a: f64, b: f64, c: u64| (a.to_bits() & !c) | (b.to_bits() & c);
    let dpick = |k: usize, b: bool| if b { db[k].to_bits() } else { da[k].to_bits() };
    let mut expected = vec![dbitselect(da[0], db[0], dm[0])];
    expected.extend((0..2).map(|k| dbitselect(da[k], db[k], dm[k])));
    expected.extend((0..4).map(|k| dbitselect(da[k], db[k], dm[k])));
    expected.push(dpick(0, lm[0] != 0));
    expected.extend((0..2).map(|k| dpick(k, lm[k] < 0)));
    expected.extend((0..4).map(|k| dpick(k, dm[k] >> 63 == 1)));
    assert_eq!(
        od[..expected.len()],
        expected[..],
        "double bitselect/select bits"
    );
}

/// `Holder` as the kernel declares it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Nested {
    pad: i16,
    inner: [i32; 3],
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Holder {
    tag: i32,
    arr: [i32; 6],
    nested: Nested,
}

/// A struct's array member passed to functions as a pointer (`f(s.arr)`,
/// `f(&s.arr[1])`, nested members, written through the pointer) for
/// structs in `__global` memory.
#[test]
fn array_members_of_global_structs_as_pointers() {
    let (context, queue) = common::context_and_queue();
    let source = std::fs::read_to_string(common::repo_path("tests/kernels/vector_expressions.cl"))
        .expect("kernel source");
    let program = build(&context, &source);
    let kernel = Kernel::create(&program, "member_arrays").expect("kernel");
    let holder = |k: i32| Holder {
        tag: 7 + k,
        arr: std::array::from_fn(|j| (j as i32 + 1) * (k + 2)),
        nested: Nested {
            pad: -1,
            inner: std::array::from_fn(|j| 50 * (k + 1) + j as i32),
        },
    };
    let h = [holder(0), holder(1)];
    let i = 1i32;
    let dh = common::buffer_with(&context, &queue, &h);
    let oi = common::buffer_with(&context, &queue, &[0i32; 8]);
    // SAFETY: two buffers and an int, as the kernel declares.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&dh)
            .set_arg(&oi)
            .set_arg(&i)
            .set_global_work_size(1)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let got = common::read_buffer(&queue, &oi, 8);
    let iu = i as usize;
    let inner = h[iu & 1].nested.inner;
    let expected = [
        h[0].arr[0] + h[0].arr[1],
        h[1].arr[1] + h[1].arr[2],
        h[1].arr[iu] + h[1].arr[iu + 1] + h[1].arr[iu + 2],
        inner[0] + inner[1],
        h[0].nested.inner[1] + h[0].nested.inner[2],
        h[1].arr[2] * h[1].arr[5],
        h[1].tag,
    ];
    assert_eq!(got[..7], expected[..]);
    let mut after = h;
    after[1].arr[0] += 100;
    after[1].arr[2] += 100;
    after[0].nested.inner[0] += 1000;
    after[0].nested.inner[2] += 1000;
    assert_eq!(
        common::read_buffer(&queue, &dh, 2),
        after.to_vec(),
        "writes through member pointers"
    );
}

/// A struct's array member passed to functions as a pointer for private
/// and `__local` structs and arrays of them, through helpers that pass it
/// on, and written through it.
#[test]
fn array_members_of_private_and_local_structs_as_pointers() {
    let (context, queue) = common::context_and_queue();
    let source = std::fs::read_to_string(common::repo_path("tests/kernels/vector_expressions.cl"))
        .expect("kernel source");
    let program = build(&context, &source);
    let kernel = Kernel::create(&program, "member_arrays_private_local").expect("kernel");
    let x: Vec<i32> = (0..16).map(|k| (mix(k) % 200) as i32 - 100).collect();
    let dx = common::buffer_with(&context, &queue, &x);
    let oi = common::buffer_with(&context, &queue, &[0i32; 32]);
    // SAFETY: two buffers, as the kernel declares.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&dx)
            .set_arg(&oi)
            .set_global_work_size(1)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let got = common::read_buffer(&queue, &oi, 26);
    let mut s = [x[1], x[2], x[3], x[4]];
    let mut two = [[x[6], x[7], x[8], x[9]], [x[11], x[12], x[13], x[14]]];
    let inner = [x[15], x[1]];
    let k = (x[0] & 1) as usize;
    let mut ls = s;
    let mut lt = two;
    let sum2 = |p: &[i32]| p[0] + p[1];
    let expected_reads = [
        sum2(&s),
        sum2(&s[2..]),
        sum2(&two[1]) + sum2(&two[1][1..]),
        sum2(&two[k][1..]),
        sum2(&inner),
        s[1] * s[3],
        sum2(&ls),
        sum2(&lt[1][2..]),
        lt[k][3] - lt[k][0],
    ];
    assert_eq!(
        got[..9],
        expected_reads[..],
        "reads through member pointers"
    );
    let bump = |p: &mut [i32], by: i32| {
        p[0] += by;
        p[1] *= 2;
    };
    bump(&mut s, 10);
    bump(&mut two[1][2..], 20);
    bump(&mut ls, 30);
    bump(&mut lt[0][1..], 40);
    let mut expected = s.to_vec();
    expected.extend(two[1]);
    expected.push(x[0] + x[10]);
    expected.extend(ls);
    expected.extend(lt[0]);
    assert_eq!(got[9..26], expected[..], "writes through member pointers");
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Mixed {
    c: i8,
    a: i32,
    vec: [u8; 4],
    s: [i16; 3],
}

/// `&s.member` of scalar, vector and array members, in a private struct
/// and through a pointer, cast to bytes (`(private uchar *)&(s.vec)`) and
/// written through.
#[test]
fn addresses_of_members() {
    let (context, queue) = common::context_and_queue();
    let source = std::fs::read_to_string(common::repo_path("tests/kernels/vector_expressions.cl"))
        .expect("kernel source");
    let program = build(&context, &source);
    let kernel = Kernel::create(&program, "member_addresses").expect("kernel");
    let p = [
        Mixed {
            c: 5,
            a: -9,
            vec: [9, 8, 7, 6],
            s: [1, 2, 3],
        },
        Mixed {
            c: -77,
            a: 12,
            vec: [200, 3, 4, 55],
            s: [-300, 41, 9],
        },
    ];
    let dp = common::buffer_with(&context, &queue, &p);
    let oi = common::buffer_with(&context, &queue, &[0i32; 8]);
    // SAFETY: two buffers, as the kernel declares.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&dp)
            .set_arg(&oi)
            .set_global_work_size(1)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let got = common::read_buffer(&queue, &oi, 5);
    let expected = [
        250 + 4 * 1000,
        70001,
        5,
        i32::from(p[1].c),
        i32::from(p[1].vec[0]) + i32::from(p[1].vec[3]),
    ];
    assert_eq!(got, expected);
    let mut after = p;
    after[0].a = 123;
    after[1].s[2] = p[1].s[0] + p[1].s[1];
    assert_eq!(
        common::read_buffer(&queue, &dp, 2),
        after.to_vec(),
        "writes through member addresses"
    );
}

/// Private variables seen through pointer casts and passed to helpers,
/// which read and write their bytes and pass them on.
#[test]
fn private_casts_passed_to_helpers() {
    let (context, queue) = common::context_and_queue();
    let source = std::fs::read_to_string(common::repo_path("tests/kernels/vector_expressions.cl"))
        .expect("kernel source");
    let program = build(&context, &source);
    let kernel = Kernel::create(&program, "private_casts_to_helpers").expect("kernel");
    let x: [i32; 6] = [0x1234_5678u32 as i32, -2, 0x0102_0304, 0x7f80_1122, 6, 19];
    let dx = common::buffer_with(&context, &queue, &x);
    let oi = common::buffer_with(&context, &queue, &[0i32; 4]);
    let of = common::buffer_with(&context, &queue, &[0f32; 1]);
    // SAFETY: three buffers, as the kernel declares.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&dx)
            .set_arg(&oi)
            .set_arg(&of)
            .set_global_work_size(1)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let got = common::read_buffer(&queue, &oi, 4);
    let b = x[0].to_le_bytes();
    let mut arr_bytes: Vec<u8> = x[1..4].iter().flat_map(|v| v.to_le_bytes()).collect();
    let picked = i32::from(arr_bytes[4 + (x[4] & 3) as usize]);
    arr_bytes[8 + 1] = 0xab;
    let arr2 = i32::from_le_bytes(arr_bytes[8..12].try_into().expect("4 bytes"));
    let expected = [
        i32::from(b[0]) + i32::from(b[1]) * 3 + i32::from(b[3]) * 5,
        picked,
        arr2,
        0.5f32.to_bits() as i32,
    ];
    assert_eq!(got, expected);
    assert_eq!(common::read_buffer(&queue, &of, 1), [-(x[5] as f32)]);
}
