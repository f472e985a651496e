//! `shuffle` and `shuffle2` with masks known only at run time, through the
//! ICD, for every element type (half and double where the device has
//! them) and every input and output width (2, 4, 8, 16; OpenCL C allows no
//! 3-lane shuffles): each result lane against the host's pick of lane
//! `mask % n` of `x` (or of `x` then `y`), masks drawn over their type's
//! whole range so that the bits above the index must be ignored. Then an
//! OpenCL-CTS-shaped kernel (`shuffle_built_in_dual_input`): 32 blocks of
//! `shuffle2` on `ulong16`, each with its own vector variables, which
//! was refused with `CL_OUT_OF_RESOURCES` as its variables and the old
//! lowering's spills outgrew the CPU device's private memory.

mod common;

use common::launch::{run_1d as run, set_arg as arg};
use common::{buffer_with as buffer, read_buffer as read};
use opencl3::device::Device;
use opencl3::kernel::Kernel;

const WIDTHS: [usize; 4] = [2, 4, 8, 16];
const WORK_ITEMS: usize = 64;

/// An element type: its OpenCL C name, its mask type's and its size.
struct Element {
    name: &'static str,
    mask: &'static str,
    bytes: usize,
    /// Whether arbitrary bit patterns may be NaNs the test must avoid.
    float: bool,
}

const fn element(name: &'static str, mask: &'static str, bytes: usize, float: bool) -> Element {
    Element {
        name,
        mask,
        bytes,
        float,
    }
}

const ELEMENTS: [Element; 11] = [
    element("char", "uchar", 1, false),
    element("uchar", "uchar", 1, false),
    element("short", "ushort", 2, false),
    element("ushort", "ushort", 2, false),
    element("int", "uint", 4, false),
    element("uint", "uint", 4, false),
    element("long", "ulong", 8, false),
    element("ulong", "ulong", 8, false),
    element("half", "ushort", 2, true),
    element("float", "uint", 4, true),
    element("double", "ulong", 8, true),
];

/// Output lanes per work-item: shuffle and shuffle2 for each width pair.
fn out_lanes() -> usize {
    2 * WIDTHS.len() * WIDTHS.iter().sum::<usize>()
}

/// One kernel per input width `n` (`shuffles2` ... `shuffles16`), each
/// storing its results where one kernel of them all would: lavapipe's
/// compile time grows faster than a kernel's size (a `half` kernel of all
/// 32 calls took 62 s on Mesa 25.0, its four parts 11 s together).
fn kernel_source(e: &Element) -> String {
    let pragma = match e.name {
        "half" => "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n",
        "double" => "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n",
        _ => "",
    };
    let mut source = String::from(pragma);
    let mut offset = 0;
    for n in WIDTHS {
        let mut body = String::new();
        for k in WIDTHS {
            body += &format!(
                "    vstore{k}(shuffle(vload{n}(0, xs), vload{k}(0, ms)), 0, o + {offset});\n"
            );
            offset += k;
            body += &format!(
                "    vstore{k}(shuffle2(vload{n}(0, xs), vload{n}(0, ys), vload{k}(0, ms)), 0, o + {offset});\n"
            );
            offset += k;
        }
        source += &format!(
            "__kernel void shuffles{n}(__global const {t} *x, __global const {t} *y,
                       __global const {m} *masks, __global {t} *out)
{{
    size_t g = get_global_id(0);
    const __global {t} *xs = x + 16 * g;
    const __global {t} *ys = y + 16 * g;
    const __global {m} *ms = masks + 16 * g;
    __global {t} *o = out + {lanes} * g;
{body}}}
",
            t = e.name,
            m = e.mask,
            lanes = out_lanes(),
        );
    }
    source
}

fn mix(i: u64) -> u64 {
    let mut z = i.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `count` random elements of `bytes` bytes each, as little-endian bytes;
/// for floats, the exponent's top bit cleared so that none is a NaN.
fn random_elements(seed: u64, count: usize, bytes: usize, float: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(count * bytes);
    for i in 0..count {
        let mut v = mix(seed * 1_000_003 + i as u64);
        if float {
            v &= !(1u64 << (bytes * 8 - 2));
        }
        out.extend_from_slice(&v.to_le_bytes()[..bytes]);
    }
    out
}

/// The element at `index` of `data`, as an integer.
fn lane(data: &[u8], bytes: usize, index: usize) -> u64 {
    let mut v = [0u8; 8];
    v[..bytes].copy_from_slice(&data[index * bytes..(index + 1) * bytes]);
    u64::from_le_bytes(v)
}

fn has_extension(device: &Device, name: &str) -> bool {
    device
        .extensions()
        .map(|e| e.split_whitespace().any(|x| x == name))
        .unwrap_or(false)
}

#[test]
fn run_time_masks_for_every_type_and_width() {
    let (context, queue) = common::context_and_queue();
    let device = Device::new(context.default_device());
    for (t, e) in ELEMENTS.iter().enumerate() {
        let skip = match e.name {
            "half" => !has_extension(&device, "cl_khr_fp16"),
            "double" => !has_extension(&device, "cl_khr_fp64"),
            _ => false,
        };
        if skip {
            println!("{}: not supported by the device, skipped", e.name);
            continue;
        }
        let source = kernel_source(e);
        let program = common::launch::build_source(&context, &source, "");
        let lanes = 16 * WORK_ITEMS;
        let seed = 10 * t as u64;
        let x = random_elements(seed, lanes, e.bytes, e.float);
        let y = random_elements(seed + 1, lanes, e.bytes, e.float);
        let mask_bytes = e.bytes;
        let masks = random_elements(seed + 2, lanes, mask_bytes, false);
        let dx = buffer(&context, &queue, &x);
        let dy = buffer(&context, &queue, &y);
        let dmasks = buffer(&context, &queue, &masks);
        let total = out_lanes() * WORK_ITEMS * e.bytes;
        let out = buffer(&context, &queue, &vec![0u8; total]);
        for n in WIDTHS {
            let kernel = Kernel::create(&program, &format!("shuffles{n}")).expect("kernel");
            arg(&kernel, 0, &dx);
            arg(&kernel, 1, &dy);
            arg(&kernel, 2, &dmasks);
            arg(&kernel, 3, &out);
            run(&queue, &kernel, WORK_ITEMS, 16);
        }
        let got = read(&queue, &out, total);
        for g in 0..WORK_ITEMS {
            let mut at = g * out_lanes();
            for n in WIDTHS {
                for k in WIDTHS {
                    for dual in [false, true] {
                        let count = if dual { 2 * n } else { n };
                        for i in 0..k {
                            let m = lane(&masks, mask_bytes, 16 * g + i) as usize % count;
                            let want = if m < n {
                                lane(&x, e.bytes, 16 * g + m)
                            } else {
                                lane(&y, e.bytes, 16 * g + m - n)
                            };
                            let have = lane(&got, e.bytes, at + i);
                            assert_eq!(
                                have,
                                want,
                                "{}: {}({}{n}, mask {}{k}) lane {i} of work-item {g} (mask lane {m})",
                                e.name,
                                if dual { "shuffle2" } else { "shuffle" },
                                e.name,
                                e.mask,
                            );
                        }
                        at += k;
                    }
                }
            }
        }
    }
}

/// 32 blocks as the OpenCL-CTS writes them: each declares its inputs and
/// its mask (a vector literal held in a variable) and stores the
/// `shuffle2` result.
fn cts_shaped_source(masks: &[[u64; 16]]) -> String {
    let mut s = String::from(
        "__kernel void sample_test(__global ulong16 *source, __global ulong16 *dest,
                          __global ulong16 *secondSource)
{
    if (get_global_id(0) != 0) return;
    ulong16 tmp;
",
    );
    for (i, m) in masks.iter().enumerate() {
        let lanes: Vec<String> = m.iter().map(u64::to_string).collect();
        s += &format!(
            "    {{
        ulong16 src1 = source[{i}];
        ulong16 src2 = secondSource[{i}];
        ulong16 mask = (ulong16)({});
        tmp = shuffle2(src1, src2, mask);
        dest[{i}] = tmp;
    }}
",
            lanes.join(", ")
        );
    }
    s + "}\n"
}

#[test]
fn cts_shaped_kernel_of_32_wide_shuffles_launches() {
    let (context, queue) = common::context_and_queue();
    const BLOCKS: usize = 32;
    let masks: Vec<[u64; 16]> = (0..BLOCKS)
        .map(|b| std::array::from_fn(|i| mix((b * 16 + i) as u64 + 77) % 32))
        .collect();
    let program = common::launch::build_source(&context, &cts_shaped_source(&masks), "");
    let kernel = Kernel::create(&program, "sample_test").expect("kernel");
    let x: Vec<[u64; 16]> = (0..BLOCKS)
        .map(|b| std::array::from_fn(|i| mix((b * 16 + i) as u64 + 5000)))
        .collect();
    let y: Vec<[u64; 16]> = (0..BLOCKS)
        .map(|b| std::array::from_fn(|i| mix((b * 16 + i) as u64 + 9000)))
        .collect();
    let dx = buffer(&context, &queue, &x);
    let dy = buffer(&context, &queue, &y);
    let out = buffer(&context, &queue, &vec![[0u64; 16]; BLOCKS]);
    arg(&kernel, 0, &dx);
    arg(&kernel, 1, &out);
    arg(&kernel, 2, &dy);
    run(&queue, &kernel, 1, 1);
    let got = read(&queue, &out, BLOCKS);
    for b in 0..BLOCKS {
        let want: [u64; 16] = std::array::from_fn(|i| {
            let m = masks[b][i] as usize;
            if m < 16 {
                x[b][m]
            } else {
                y[b][m - 16]
            }
        });
        assert_eq!(got[b], want, "block {b}");
    }
}
