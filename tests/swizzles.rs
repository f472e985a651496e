//! Every swizzle form on every vector width end to end: `.s0`-`.sF` (with
//! `S` and upper-case hex digits), multi-lane `.s5a`-style selections, `.xyzw`
//! (on any width, as clang allows, lanes 0-3), `.rgba` (OpenCL C 3.0),
//! `.lo`/`.hi`/`.even`/`.odd` and their nestings, on 2-, 3-, 4-, 8- and
//! 16-lane vectors of every integer type, `float` and (where the device
//! reports `cl_khr_fp64`) `double`. Each form is read (rvalue) and written
//! (lvalue, with `=`, compound assignments, `++` and `--`) in a private
//! variable and in a `__global` vector. The kernels are generated here and
//! every lane checked against a host model of the swizzle, which parses the
//! selector names itself. A 3-vector's `.hi` and `.odd` reach its fourth
//! lane, which C leaves undefined: those lanes are not checked.

mod common;

use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::program::Program;
use std::fmt::Write as _;

#[derive(Clone, Copy)]
struct Elem {
    name: &'static str,
    size: usize,
    float: bool,
    signed: bool,
}

const ELEMS: &[Elem] = &[
    Elem {
        name: "char",
        size: 1,
        float: false,
        signed: true,
    },
    Elem {
        name: "uchar",
        size: 1,
        float: false,
        signed: false,
    },
    Elem {
        name: "short",
        size: 2,
        float: false,
        signed: true,
    },
    Elem {
        name: "ushort",
        size: 2,
        float: false,
        signed: false,
    },
    Elem {
        name: "int",
        size: 4,
        float: false,
        signed: true,
    },
    Elem {
        name: "uint",
        size: 4,
        float: false,
        signed: false,
    },
    Elem {
        name: "long",
        size: 8,
        float: false,
        signed: true,
    },
    Elem {
        name: "ulong",
        size: 8,
        float: false,
        signed: false,
    },
    Elem {
        name: "float",
        size: 4,
        float: true,
        signed: true,
    },
    Elem {
        name: "double",
        size: 8,
        float: true,
        signed: true,
    },
];

const WIDTHS: [usize; 5] = [2, 3, 4, 8, 16];

impl Elem {
    /// The bytes of `v` as this type holds it (wrapped for integers; the
    /// tests keep values exact in floats).
    fn encode(self, v: i64) -> Vec<u8> {
        match (self.float, self.size) {
            (true, 4) => (v as f32).to_le_bytes().to_vec(),
            (true, _) => (v as f64).to_le_bytes().to_vec(),
            _ => v.to_le_bytes()[..self.size].to_vec(),
        }
    }
}

impl Elem {
    /// `char` and `short` results are written to the output as `int`s: a
    /// vector of them stored into a byte buffer is a compare-and-swap per
    /// lane, which makes kernels of hundreds of stores slow to build.
    fn widened(self) -> bool {
        self.size < 4
    }

    /// The size of one output element.
    fn out_size(self) -> usize {
        self.size.max(4)
    }

    /// An output element holding lane value `v`.
    fn encode_out(self, v: i64) -> Vec<u8> {
        if !self.widened() {
            return self.encode(v);
        }
        let bytes = self.encode(v);
        let mut wide = [0u8; 8];
        wide[..self.size].copy_from_slice(&bytes);
        let wrapped = match (self.size, self.signed) {
            (1, true) => i64::from(bytes[0] as i8),
            (1, false) => i64::from(bytes[0]),
            (_, true) => i64::from(i16::from_le_bytes([bytes[0], bytes[1]])),
            _ => i64::from(u16::from_le_bytes([bytes[0], bytes[1]])),
        };
        (wrapped as i32).to_le_bytes().to_vec()
    }
}

/// A 3-vector occupies four lanes.
fn storage(n: usize) -> usize {
    if n == 3 {
        4
    } else {
        n
    }
}

/// The host model: the lanes a selector names on a vector of `n` lanes
/// (OpenCL C 6.3.7), lane `storage(n) - 1` of a 3-vector included.
fn lanes_of(selector: &str, n: usize) -> Vec<usize> {
    let half = storage(n) / 2;
    match selector {
        "lo" => (0..half).collect(),
        "hi" => (half..2 * half).collect(),
        "even" => (0..half).map(|i| 2 * i).collect(),
        "odd" => (0..half).map(|i| 2 * i + 1).collect(),
        s if s.starts_with(['s', 'S']) => s[1..]
            .chars()
            .map(|c| c.to_digit(16).expect("hex digit") as usize)
            .collect(),
        s => s
            .chars()
            .map(|c| {
                "xyzw"
                    .find(c)
                    .or_else(|| "rgba".find(c))
                    .expect("xyzw or rgba")
            })
            .collect(),
    }
}

/// The lanes of `v.a.b.c` (selectors in order) on a vector of `n` lanes.
fn path_lanes(path: &[String], n: usize) -> Vec<usize> {
    let mut lanes: Vec<usize> = (0..storage(n)).collect();
    let mut width = n;
    for s in path {
        lanes = lanes_of(s, width).iter().map(|&l| lanes[l]).collect();
        width = lanes.len();
    }
    lanes
}

fn hex(l: usize, upper: bool) -> char {
    let c = char::from_digit(l as u32, 16).expect("lane");
    if upper {
        c.to_ascii_uppercase()
    } else {
        c
    }
}

/// splitmix64, for the lane choices.
fn mix(i: u64) -> u64 {
    let mut z = i.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The selector paths to read on a vector of `n` lanes, and whether each
/// is also written (no lane repeats; the `S` spellings are only read).
fn forms(n: usize) -> Vec<(Vec<String>, bool)> {
    let mut out: Vec<(Vec<String>, bool)> = Vec::new();
    let one = |s: String| vec![s];
    for l in 0..n {
        out.push((one(format!("s{}", hex(l, false))), true));
        out.push((one(format!("S{}", hex(l, true))), false));
    }
    for (l, c) in "xyzw".chars().enumerate().take(n.min(4)) {
        out.push((one(c.to_string()), true));
        out.push((one("rgba".chars().nth(l).expect("rgba").to_string()), true));
    }
    for half in ["lo", "hi", "even", "odd"] {
        out.push((one(half.to_string()), true));
    }
    // Multi-lane selections: distinct lanes (writable) and repeats.
    for (k, m) in [2usize, 3, 4, 8, 16].into_iter().enumerate() {
        if m > n {
            continue;
        }
        let mut pool: Vec<usize> = (0..n).collect();
        let mut distinct = Vec::new();
        for j in 0..m {
            let at = (mix((n * 100 + k * 10 + j) as u64) % pool.len() as u64) as usize;
            distinct.push(pool.remove(at));
        }
        let repeated: Vec<usize> = (0..m)
            .map(|j| (mix((n * 1000 + k * 10 + j) as u64) % n as u64) as usize)
            .collect();
        for (lanes, writable) in [(distinct, true), (repeated, false)] {
            let upper = k % 2 == 1;
            let name: String = lanes.iter().map(|&l| hex(l, upper)).collect();
            let has_repeat = (1..lanes.len()).any(|i| lanes[..i].contains(&lanes[i]));
            out.push((
                one(format!("{}{name}", if upper { 'S' } else { 's' })),
                writable && !has_repeat,
            ));
        }
    }
    if n <= 4 {
        out.push((one("yx".into()), true));
        out.push((one("xx".into()), false));
    }
    if n >= 3 {
        out.push((one("zyx".into()), true));
        out.push((one("bgr".into()), true));
    }
    if n >= 4 {
        out.push((one("wzyx".into()), true));
        out.push((one("xyzw".into()), true));
        out.push((one("rgba".into()), true));
        out.push((one("xxyy".into()), false));
        // Nested selections.
        out.push((vec!["hi".into(), "lo".into()], true));
        out.push((vec!["odd".into(), "even".into()], true));
        out.push((vec!["lo".into(), "y".into()], true));
        out.push((vec!["wzyx".into(), "hi".into()], true));
    }
    if n >= 8 {
        out.push((vec!["hi".into(), "odd".into(), "s1".into()], true));
        out.push((vec!["even".into(), "hi".into()], true));
        out.push((vec!["lo".into(), "w".into()], true));
        out.push((vec!["s76543210".into(), "lo".into(), "even".into()], true));
    }
    if n == 3 {
        out.push((vec!["hi".into(), "x".into()], true));
        out.push((vec!["odd".into(), "y".into()], true));
    }
    out
}

/// The host's update of one written lane: (old, source) → new.
type LaneUpdate = fn(i64, i64) -> i64;

/// How an lvalue form is written: the statement and the host's lane
/// update.
const OPS: &[(&str, LaneUpdate)] = &[
    ("{p} = {src};", |_, s| s),
    ("{p} += {src};", |o, s| o + s),
    ("{p} -= {src};", |o, s| o - s),
    ("{p} *= {src};", |o, s| o * s),
    ("{p}++;", |o, _| o + 1),
    ("--{p};", |o, _| o - 1),
];

/// One check: where its lanes are in the output (in elements) and what
/// each must hold (`None`: an undefined lane).
struct Expect {
    what: String,
    at: usize,
    lanes: Vec<Option<i64>>,
}

/// The kernel for vectors of `n` lanes of `e` and the expected output.
/// Its variables are declared once: the device's private memory limit
/// counts each variable of the kernel.
fn kernel_for(e: Elem, n: usize, input: &[i64], src: &[i64]) -> (String, Vec<Expect>) {
    let t = e.name;
    let vt = format!("{t}{n}");
    let out = if e.widened() { "int" } else { t };
    let mut body = String::new();
    let mut expects = Vec::new();
    let mut at = 0;
    let store = |body: &mut String, value: &str, m: usize, at: usize| {
        let value = match (e.widened(), m) {
            (false, _) => value.to_string(),
            (true, 1) => format!("(int){value}"),
            (true, m) => format!("convert_int{m}({value})"),
        };
        if m == 1 {
            writeln!(body, "  out[{at}] = {value};").unwrap();
        } else {
            writeln!(body, "  vstore{m}({value}, 0, out + {at});").unwrap();
        }
    };
    let defined = |lanes: &[usize], values: &[i64]| -> Vec<Option<i64>> {
        lanes.iter().map(|&l| (l < n).then(|| values[l])).collect()
    };
    for (i, (path, writable)) in forms(n).into_iter().enumerate() {
        let lanes = path_lanes(&path, n);
        let m = lanes.len();
        let sel = path.join(".");
        // Read.
        writeln!(body, "  r{m} = v.{sel};").unwrap();
        store(&mut body, &format!("r{m}"), m, at);
        expects.push(Expect {
            what: format!("{vt} v.{sel} read"),
            at,
            lanes: defined(&lanes, input),
        });
        at += m;
        if !writable {
            continue;
        }
        // Write, in a private variable or in global memory: the two take
        // turns, so each operation meets both across the forms.
        let (op, f) = OPS[i % OPS.len()];
        let src_value = if m == 1 {
            "s.s0".to_string()
        } else {
            format!("vload{m}(0, src)")
        };
        let global = (i / OPS.len()) % 2 == 1;
        let target = if global { "g[0]" } else { "w" };
        let statement = op
            .replace("{p}", &format!("{target}.{sel}"))
            .replace("{src}", &src_value);
        writeln!(body, "  {target} = v; {statement}").unwrap();
        store(&mut body, target, n, at);
        let mut expected: Vec<Option<i64>> = input.iter().map(|&x| Some(x)).collect();
        for (j, &l) in lanes.iter().enumerate() {
            if l < n {
                expected[l] = Some(f(input[l], src[j]));
            }
        }
        let space = if global { "global" } else { "private" };
        expects.push(Expect {
            what: format!("{vt} {statement} ({space})"),
            at,
            lanes: expected,
        });
        at += n;
    }
    let source = format!(
        "kernel void swizzles_{vt}(global const {t} *in, global const {t} *src, global {out} *out, global {vt} *g) {{\n  \
         {vt} v = vload{n}(0, in), w;\n  {t}16 s = vload16(0, src);\n  \
         {t} r1; {t}2 r2; {t}3 r3; {t}4 r4; {t}8 r8; {t}16 r16;\n{body}}}\n"
    );
    (source, expects)
}

#[test]
fn every_swizzle_form_on_every_width() {
    let (context, queue) = common::context_and_queue();
    let device = opencl3::device::Device::new(context.devices()[0]);
    let fp64 = device
        .extensions()
        .expect("extensions")
        .contains("cl_khr_fp64");
    for e in ELEMS {
        if e.name == "double" && !fp64 {
            eprintln!("skipped double: the device does not report cl_khr_fp64");
            continue;
        }
        let mut source = String::new();
        if e.name == "double" {
            source.push_str("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
        }
        let input: Vec<i64> = (0..16)
            .map(|k| {
                let v = k as i64 + 1;
                if e.signed && k % 3 == 0 {
                    -v
                } else {
                    v + 10
                }
            })
            .collect();
        let src: Vec<i64> = (0..16).map(|k| (k % 4) as i64 + 1).collect();
        let mut kernels = Vec::new();
        for n in WIDTHS {
            let (k, expects) = kernel_for(*e, n, &input[..n], &src);
            source.push_str(&k);
            kernels.push((n, expects));
        }
        let program = Program::create_and_build_from_source(&context, &source, "-cl-std=CL3.0")
            .unwrap_or_else(|log| panic!("{} build failed:\n{log}\n{source}", e.name));
        let in_bytes: Vec<u8> = input.iter().flat_map(|&v| e.encode(v)).collect();
        let src_bytes: Vec<u8> = src.iter().flat_map(|&v| e.encode(v)).collect();
        let din = common::buffer_with(&context, &queue, &in_bytes);
        let dsrc = common::buffer_with(&context, &queue, &src_bytes);
        for (n, expects) in kernels {
            let name = format!("swizzles_{}{n}", e.name);
            let kernel = Kernel::create(&program, &name).expect("kernel");
            let elements = expects.last().map_or(0, |x| x.at + x.lanes.len());
            let out = common::buffer_with(&context, &queue, &vec![0u8; elements * e.out_size()]);
            let g = common::buffer_with(&context, &queue, &vec![0u8; storage(n) * e.size]);
            // SAFETY: four buffers, as the kernel declares.
            unsafe {
                ExecuteKernel::new(&kernel)
                    .set_arg(&din)
                    .set_arg(&dsrc)
                    .set_arg(&out)
                    .set_arg(&g)
                    .set_global_work_size(1)
                    .enqueue_nd_range(&queue)
            }
            .unwrap_or_else(|err| panic!("{name}: enqueue: {err}"));
            let got = common::read_buffer(&queue, &out, elements * e.out_size());
            for x in &expects {
                for (j, lane) in x.lanes.iter().enumerate() {
                    let Some(v) = lane else { continue };
                    let byte = (x.at + j) * e.out_size();
                    assert_eq!(
                        &got[byte..byte + e.out_size()],
                        &e.encode_out(*v)[..],
                        "{}: lane {j} (expected {v})",
                        x.what
                    );
                }
            }
        }
    }
}
