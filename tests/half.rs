//! `half` values (cl_khr_fp16) through the ICD: arithmetic, a by-value
//! `half` argument, comparisons, every vector width, conversions with each
//! rounding mode and saturation, `as_type`, buffers where neighbouring
//! work-items write neighbouring halfs, and the math library on `half`
//! against f64 references within OpenCL's `half` ULP bounds. Every test
//! skips with a note on a device without cl_khr_fp16.

mod common;

use common::fp16::{half_to_f32, half_to_f64, to_half, to_half_rte, Rounding, ROUNDINGS};
use common::ulp::{report, Bits, Runner, Worst};
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::types::CL_BLOCKING;
use std::ptr;

/// Whether the device reports cl_khr_fp16; prints why a test is skipped.
fn has_fp16() -> bool {
    for (k, v) in common::opencl_env() {
        // SAFETY: tests in this binary only ever set these same values.
        unsafe { std::env::set_var(k, v) };
    }
    let platform = get_platforms().expect("platforms").remove(0);
    let ids = platform.get_devices(CL_DEVICE_TYPE_ALL).expect("devices");
    let extensions = Device::new(ids[0]).extensions().expect("extensions");
    let yes = extensions.split_whitespace().any(|e| e == "cl_khr_fp16");
    if !yes {
        println!("note: the device does not report cl_khr_fp16; half tests skipped");
    }
    yes
}

/// The runner for `file`, or `None` (skip) without cl_khr_fp16.
fn runner(file: &str) -> Option<Runner> {
    has_fp16().then(|| Runner::new(file))
}

fn buffer<T: Copy>(r: &Runner, data: &[T]) -> Buffer<T> {
    // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
    let mut b = unsafe {
        Buffer::<T>::create(
            &r.context,
            CL_MEM_READ_WRITE,
            data.len().max(1),
            ptr::null_mut(),
        )
    }
    .expect("create buffer");
    if !data.is_empty() {
        // SAFETY: blocking, so `data` outlives the transfer.
        unsafe {
            r.queue
                .enqueue_write_buffer(&mut b, CL_BLOCKING, 0, data, &[])
        }
        .expect("write buffer");
    }
    b
}

fn zeros<T: Copy + Default>(r: &Runner, n: usize) -> Buffer<T> {
    buffer(r, &vec![T::default(); n])
}

fn read<T: Copy + Default>(r: &Runner, b: &Buffer<T>, n: usize) -> Vec<T> {
    let mut out = vec![T::default(); n];
    // SAFETY: blocking, so `out` outlives the transfer.
    unsafe {
        r.queue
            .enqueue_read_buffer(b, CL_BLOCKING, 0, &mut out, &[])
    }
    .expect("read buffer");
    out
}

/// An argument of a kernel launch: a buffer or a value.
enum Arg<'a> {
    Halfs(&'a Buffer<u16>),
    Ints(&'a Buffer<i32>),
    Floats(&'a Buffer<f32>),
    Doubles(&'a Buffer<f64>),
    Half(u16),
    Half4([u16; 4]),
}

fn launch(r: &Runner, name: &str, args: &[Arg], global: usize, local: Option<usize>) {
    let kernel = Kernel::create(&r.program, name).expect("kernel");
    let mut exec = ExecuteKernel::new(&kernel);
    for a in args {
        // SAFETY: each kernel takes these arguments in this order.
        unsafe {
            match a {
                Arg::Halfs(b) => exec.set_arg(*b),
                Arg::Ints(b) => exec.set_arg(*b),
                Arg::Floats(b) => exec.set_arg(*b),
                Arg::Doubles(b) => exec.set_arg(*b),
                Arg::Half(v) => exec.set_arg(v),
                Arg::Half4(v) => exec.set_arg(v),
            };
        }
    }
    exec.set_global_work_size(global);
    if let Some(l) = local {
        exec.set_local_work_size(l);
    }
    // SAFETY: every argument is set.
    unsafe { exec.enqueue_nd_range(&r.queue) }.expect("enqueue");
    r.queue.finish().expect("finish");
}

/// Random `half` bits: finite normal values or zero (the device does not
/// report `half` denormals, so arithmetic may flush them).
fn normal_halfs(bits: &mut Bits, n: usize) -> Vec<u16> {
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let h = bits.next_u32() as u16;
        let e = (h >> 10) & 0x1f;
        if e != 0x1f && (e != 0 || h & 0x3ff == 0) {
            out.push(h);
        }
    }
    out
}

/// Special `half` bits mixed into the inputs: zeros, infinities, NaN, the
/// largest and smallest normal values, one, and values near one.
const SPECIAL: [u16; 12] = [
    0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7bff, 0xfbff, 0x0400, 0x8400, 0x3c00, 0x3c01, 0x3bff,
];

/// Every pair of [`SPECIAL`] values at the start of `x` and `y`.
fn special_pairs(x: &mut [u16], y: &mut [u16]) {
    for (k, a) in SPECIAL.iter().enumerate() {
        for (j, b) in SPECIAL.iter().enumerate() {
            x[k * SPECIAL.len() + j] = *a;
            y[k * SPECIAL.len() + j] = *b;
        }
    }
}

/// Whether the device's `got` is the `half` `want` (bits): any NaN for
/// NaN, and a zero of the right sign for a subnormal (flushed).
fn same_half(got: u16, want: u16) -> bool {
    let (g, w) = (half_to_f64(got), half_to_f64(want));
    if w.is_nan() {
        return g.is_nan();
    }
    got == want || (want & 0x7c00 == 0 && got & 0x7fff == 0 && (got ^ want) & 0x8000 == 0)
}

fn check_halfs(
    what: &str,
    got: &[u16],
    want: impl Fn(usize) -> u16,
    input: impl Fn(usize) -> String,
) {
    let mut wrong = Vec::new();
    for (i, &g) in got.iter().enumerate() {
        let w = want(i);
        if !same_half(g, w) {
            wrong.push(format!(
                "{what}[{i}] {}: got {:#06x} ({}), want {w:#06x} ({})",
                input(i),
                g,
                half_to_f64(g),
                half_to_f64(w)
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong, e.g.:\n{}",
        wrong.len(),
        wrong
            .iter()
            .step_by(wrong.len().div_ceil(12))
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn host_reference_round_trips_every_half() {
    for h in 0..=u16::MAX {
        let v = half_to_f64(h);
        if v.is_nan() {
            continue;
        }
        for mode in ROUNDINGS {
            assert_eq!(to_half(v, mode), h, "{h:#06x} {mode:?}");
        }
    }
    let tie = 1.0 + 2f64.powi(-11);
    assert_eq!(to_half(tie, Rounding::Rte), 0x3c00);
    assert_eq!(to_half(tie, Rounding::Rtp), 0x3c01);
    assert_eq!(to_half(-tie, Rounding::Rtn), 0xbc01);
    assert_eq!(to_half(65520.0, Rounding::Rte), 0x7c00);
    assert_eq!(to_half(65519.0, Rounding::Rte), 0x7bff);
    assert_eq!(to_half(1e9, Rounding::Rtz), 0x7bff);
    assert_eq!(to_half(-1e9, Rounding::Rtp), 0xfbff);
    assert_eq!(to_half(2f64.powi(-25), Rounding::Rte), 0x0000);
    assert_eq!(to_half(2f64.powi(-25) * 1.5, Rounding::Rte), 0x0001);
    assert_eq!(to_half(2f64.powi(-30), Rounding::Rtp), 0x0001);
}

#[test]
fn arithmetic_matches_host_reference() {
    let Some(r) = runner("tests/kernels/half_arith.cl") else {
        return;
    };
    let n = 1 << 16;
    let mut bits = Bits::new(0x05ee_df16);
    let mut x = normal_halfs(&mut bits, n);
    let mut y = normal_halfs(&mut bits, n);
    special_pairs(&mut x, &mut y);
    let k_bits = to_half_rte(0.75);
    let (xb, yb) = (buffer(&r, &x), buffer(&r, &y));
    let out = zeros::<u16>(&r, 8 * n);
    let cmp = zeros::<i32>(&r, 6 * n);
    launch(
        &r,
        "arith",
        &[
            Arg::Halfs(&xb),
            Arg::Halfs(&yb),
            Arg::Half(k_bits),
            Arg::Halfs(&out),
            Arg::Ints(&cmp),
        ],
        n,
        None,
    );
    let got = read(&r, &out, 8 * n);
    let k = half_to_f64(k_bits);
    let ops: [(&str, &BinaryRef); 8] = [
        ("a + b", &|a, b| a + b),
        ("a - b", &|a, b| a - b),
        ("a * b", &|a, b| a * b),
        ("a / b", &|a, b| a / b),
        ("-a", &|a, _| -a),
        ("a * k", &|a, _| a * k),
        ("(a + 1.5) * b", &|a, b| {
            half_to_f64(to_half_rte(a + 1.5)) * b
        }),
        ("fma(a, b, k)", &|a, b| a.mul_add(b, k)),
    ];
    for (j, (name, op)) in ops.iter().enumerate() {
        let lane: Vec<u16> = (0..n).map(|i| got[8 * i + j]).collect();
        check_halfs(
            name,
            &lane,
            |i| to_half_rte(op(half_to_f64(x[i]), half_to_f64(y[i]))),
            |i| format!("a={:#06x} b={:#06x}", x[i], y[i]),
        );
    }
    let cmp = read(&r, &cmp, 6 * n);
    for i in 0..n {
        let (a, b) = (half_to_f64(x[i]), half_to_f64(y[i]));
        let want = [a < b, a <= b, a == b, a != b, a > b].map(i32::from);
        assert_eq!(cmp[6 * i..6 * i + 5], want, "comparisons of {a} and {b}");
        if a.is_finite() {
            assert_eq!(cmp[6 * i + 5], a.trunc() as i32, "(int){a}");
        }
    }
}

#[test]
fn every_vector_width() {
    let Some(r) = runner("tests/kernels/half_arith.cl") else {
        return;
    };
    let n = 4096;
    let mut bits = Bits::new(0x0dd_ba11);
    let mut x = normal_halfs(&mut bits, 16 * n);
    let mut y = normal_halfs(&mut bits, 16 * n);
    special_pairs(&mut x, &mut y);
    let (xb, yb) = (buffer(&r, &x), buffer(&r, &y));
    let widths = [2usize, 3, 4, 8, 16];
    let outs: Vec<Buffer<u16>> = widths.iter().map(|w| zeros(&r, w * n)).collect();
    let mut args = vec![Arg::Halfs(&xb), Arg::Halfs(&yb)];
    args.extend(outs.iter().map(Arg::Halfs));
    launch(&r, "vectors", &args, n, None);
    for (w, out) in widths.iter().zip(&outs) {
        let got = read(&r, out, w * n);
        check_halfs(
            &format!("half{w}"),
            &got,
            |i| {
                let (a, b) = (half_to_f64(x[i]), half_to_f64(y[i]));
                to_half_rte(half_to_f64(to_half_rte(a * b)) - a)
            },
            |i| format!("a={:#06x} b={:#06x}", x[i], y[i]),
        );
    }

    let out = zeros::<u16>(&r, 4 * n);
    let ushorts = zeros::<u16>(&r, 4 * n);
    let words = zeros::<i32>(&r, 2 * n);
    let constants = [1.0, 2.0, 0.5, -0.25];
    launch(
        &r,
        "shuffles",
        &[
            Arg::Halfs(&xb),
            Arg::Halfs(&out),
            Arg::Halfs(&ushorts),
            Arg::Ints(&words),
            Arg::Half4(constants.map(to_half_rte)),
        ],
        n,
        None,
    );
    let got = read(&r, &out, 4 * n);
    check_halfs(
        "select(v.wzyx + c, v, v > 0)",
        &got,
        |i| {
            let v = half_to_f64(x[i]);
            if v > 0.0 {
                x[i]
            } else {
                let swapped = x[i - i % 4 + 3 - i % 4];
                to_half_rte(half_to_f64(swapped) + constants[i % 4])
            }
        },
        |i| format!("v[{}]={:#06x}", i % 4, x[i]),
    );
    let shuffled: Vec<u16> = (0..4 * n)
        .map(|k| x[k - k % 4 + [2, 0, 3, 1][k % 4]])
        .collect();
    assert_eq!(
        read(&r, &ushorts, 4 * n),
        shuffled,
        "as_ushort4(shuffle(v, mask))"
    );
    let words = read(&r, &words, 2 * n);
    for (i, w) in words.iter().enumerate() {
        let want = u32::from(x[2 * i]) | u32::from(x[2 * i + 1]) << 16;
        assert_eq!(*w as u32, want, "as_uint2 word {i}");
    }
}

#[test]
fn conversions_with_rounding_modes_and_saturation() {
    let Some(r) = runner("tests/kernels/half_convert.cl") else {
        return;
    };
    // Floats around every part of the half range: ties, values between
    // halves, subnormal halves, beyond the largest half, specials.
    let mut bits = Bits::new(0xc0_ffee);
    let mut f: Vec<f32> = Vec::new();
    for _ in 0..1 << 14 {
        let h = bits.next_u32() as u16 & 0x7fff;
        let v = half_to_f64(h);
        if !v.is_finite() {
            continue;
        }
        let off = f64::from(bits.next_u32() % 4096) / 4096.0 - 0.5;
        let step = 2f64.powi(((h >> 10) as i32).max(1) - 25);
        let sign = if bits.next_u32().is_multiple_of(2) {
            1.0
        } else {
            -1.0
        };
        f.push((sign * (v + off * step)) as f32);
        f.push((sign * (v + 0.5 * step)) as f32);
    }
    f.extend([
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        65504.0,
        65519.0,
        65520.0,
        65535.0,
        1e9,
        -1e9,
        6e-8,
        3e-8,
        2.9e-8,
        -6e-8,
        1.0 + 1.0 / 4096.0,
        f32::MAX,
        f32::MIN_POSITIVE,
    ]);
    let n = f.len();
    let ints: Vec<i32> = (0..n)
        .map(|i| match i % 4 {
            0 => (bits.next_u32() as i32) >> (bits.next_u32() % 31),
            1 => (bits.next_u32() % 140_000) as i32 - 70_000,
            2 => [
                0,
                1,
                -1,
                2049,
                2051,
                -4097,
                65504,
                65519,
                65520,
                65535,
                i32::MAX,
                i32::MIN,
            ][i / 4 % 12],
            _ => (bits.next_u32() % 8192) as i32 - 4096,
        })
        .collect();
    let (fb, nb) = (buffer(&r, &f), buffer(&r, &ints));
    let out = zeros::<u16>(&r, 16 * n);
    launch(
        &r,
        "from_float",
        &[Arg::Floats(&fb), Arg::Ints(&nb), Arg::Halfs(&out)],
        n,
        None,
    );
    let got = read(&r, &out, 16 * n);
    let modes = [
        Rounding::Rte,
        Rounding::Rtz,
        Rounding::Rtp,
        Rounding::Rtn,
        Rounding::Rte,
    ];
    let names = ["", "_rtz", "_rtp", "_rtn", "_rte"];
    for j in 0..16 {
        let lane: Vec<u16> = (0..n).map(|i| got[16 * i + j]).collect();
        check_halfs(
            &format!("result {j}"),
            &lane,
            |i| {
                let (v, k) = (f64::from(f[i]), ints[i]);
                match j {
                    0..=4 => to_half(v, modes[j]),
                    5..=9 => to_half(f64::from(k), modes[j - 5]),
                    10 => to_half_rte(v),
                    11 => to_half_rte(f64::from(k)),
                    12 => k as i16 as u16,
                    13 => to_half_rte(f64::from(k as u32)),
                    // A negative long as ulong is beyond every half.
                    14 => to_half(k as i64 as u64 as f64, Rounding::Rtz),
                    _ => to_half(f64::from(k), Rounding::Rtp),
                }
            },
            |i| {
                let name = names.get(j % 5).copied().unwrap_or("");
                format!("convert_half{name} of f={:e} / n={}", f[i], ints[i])
            },
        );
    }

    // Every half to the integers.
    let h: Vec<u16> = (0..=u16::MAX).collect();
    let n = h.len();
    let hb = buffer(&r, &h);
    let out = zeros::<i32>(&r, 10 * n);
    let widened = zeros::<f32>(&r, n);
    launch(
        &r,
        "to_integers",
        &[Arg::Halfs(&hb), Arg::Ints(&out), Arg::Floats(&widened)],
        n,
        None,
    );
    let got = read(&r, &out, 10 * n);
    let widened = read(&r, &widened, n);
    let sat = |v: f64, lo: f64, hi: f64| {
        if v.is_nan() {
            0
        } else {
            v.clamp(lo, hi) as i64
        }
    };
    let even = |v: f64| {
        let f = v.floor();
        if v - f > 0.5 || (v - f == 0.5 && f % 2.0 != 0.0) {
            f + 1.0
        } else {
            f
        }
    };
    let (imin, imax) = (f64::from(i32::MIN), f64::from(i32::MAX));
    for i in 0..n {
        let v = half_to_f64(h[i]);
        let row = &got[10 * i..10 * i + 10];
        let w = widened[i];
        assert!(
            (v.is_nan() && w.is_nan()) || f64::from(w) == v,
            "(float) of {:#06x}: {w}",
            h[i]
        );
        let long_sat = if v.is_nan() {
            0
        } else if v.is_infinite() {
            if v > 0.0 {
                i64::MAX
            } else {
                i64::MIN
            }
        } else {
            v.trunc() as i64
        };
        let want = [
            if v.is_finite() {
                v.trunc() as i32
            } else {
                row[0]
            },
            sat(v.trunc(), imin, imax) as i32,
            sat(even(v), imin, imax) as i32,
            sat(v.ceil(), imin, imax) as i32,
            sat(v.floor(), imin, imax) as i32,
            sat(v.trunc(), 0.0, 255.0) as i32,
            sat(even(v), -32768.0, 32767.0) as i32,
            long_sat as i32,
            h[i] as i16 as i32,
            sat(v.trunc(), -128.0, 127.0) as i32,
        ];
        assert_eq!(row, want, "conversions of half {:#06x} ({v})", h[i]);
    }

    if program_has_kernel(&r, "from_double") {
        let mut d: Vec<f64> = Vec::new();
        for _ in 0..1 << 13 {
            let v = half_to_f64(bits.next_u32() as u16 & 0x7bff);
            let step = 2f64.powi(-11) * v.abs().max(2f64.powi(-14));
            // Just past a tie, closer than a float can tell.
            d.push(v + step * (1.0 + 2f64.powi(-30)));
            d.push(-(v + step * (1.0 - 2f64.powi(-30))));
            d.push(v + step * f64::from(bits.next_u32()) / 4294967296.0);
        }
        d.extend([
            1e300,
            -1e300,
            65_519.999_999,
            f64::NAN,
            2f64.powi(-25) + 2f64.powi(-60),
        ]);
        let n = d.len();
        let db = buffer(&r, &d);
        let out = zeros::<u16>(&r, 5 * n);
        let back = zeros::<f64>(&r, n);
        launch(
            &r,
            "from_double",
            &[Arg::Doubles(&db), Arg::Halfs(&out), Arg::Doubles(&back)],
            n,
            None,
        );
        let got = read(&r, &out, 5 * n);
        for j in 0..5 {
            let lane: Vec<u16> = (0..n).map(|i| got[5 * i + j]).collect();
            check_halfs(
                &format!("convert_half{}(double)", names[j]),
                &lane,
                |i| to_half(d[i], modes[j]),
                |i| format!("d={:e}", d[i]),
            );
        }
        let back = read(&r, &back, n);
        println!("convert_half*(double) checked on {n} values");
        for i in 0..n {
            let want = half_to_f64(got[5 * i]);
            assert!(
                want.is_nan() && back[i].is_nan() || back[i] == want,
                "convert_double of half"
            );
        }
    }
}

fn program_has_kernel(r: &Runner, name: &str) -> bool {
    r.program.kernel_names().split(';').any(|k| k == name)
}

#[test]
fn neighbouring_work_items_keep_their_writes() {
    let Some(r) = runner("tests/kernels/half_memory.cl") else {
        return;
    };
    let n = (1 << 17) + 6;
    let input: Vec<u16> = (0..n)
        .map(|i| to_half_rte(((i % 2000) as f64 - 1000.0) / 8.0))
        .collect();
    let start: Vec<u16> = (0..n).map(|i| to_half_rte((i % 7) as f64)).collect();
    let (ib, out, acc) = (buffer(&r, &input), zeros::<u16>(&r, n), buffer(&r, &start));
    launch(
        &r,
        "neighbours",
        &[Arg::Halfs(&ib), Arg::Halfs(&out), Arg::Halfs(&acc)],
        n,
        None,
    );
    let doubled = read(&r, &out, n);
    let summed = read(&r, &acc, n);
    check_halfs(
        "out[i] = 2 in[i]",
        &doubled,
        |i| to_half_rte(2.0 * half_to_f64(input[i])),
        |i| format!("in={:#06x}", input[i]),
    );
    check_halfs(
        "acc[i] += in[i]",
        &summed,
        |i| to_half_rte(half_to_f64(start[i]) + half_to_f64(input[i])),
        |i| format!("in={:#06x}", input[i]),
    );

    let n = 64 * 1024;
    let out = zeros::<u16>(&r, n);
    let mixed = zeros::<f32>(&r, n);
    launch(
        &r,
        "private_halfs",
        &[Arg::Halfs(&ib), Arg::Halfs(&out), Arg::Floats(&mixed)],
        n,
        None,
    );
    let got = read(&r, &out, n);
    check_halfs(
        "a[j] + a[7 - j]",
        &got,
        |i| {
            let j = i & 7;
            let (p, q) = (input[(i + j) % n], input[(i + 7 - j) % n]);
            to_half_rte(half_to_f64(p) + half_to_f64(q))
        },
        |i| format!("item {i}"),
    );
    let mixed = read(&r, &mixed, n);
    for (i, m) in mixed.iter().enumerate() {
        let want = (half_to_f64(input[i]) * 3.0 + 1.0) as f32;
        assert_eq!(*m, want, "half * 3.0f + 1 at {i}");
    }

    let out = zeros::<u16>(&r, n);
    launch(
        &r,
        "async_halfs",
        &[Arg::Halfs(&ib), Arg::Halfs(&out)],
        n,
        Some(64),
    );
    check_halfs(
        "async copies of tile * 0.5",
        &read(&r, &out, n),
        |i| to_half_rte(half_to_f64(input[i]) * 0.5),
        |i| format!("item {i}"),
    );

    let out = zeros::<u16>(&r, n);
    launch(
        &r,
        "local_halfs",
        &[Arg::Halfs(&ib), Arg::Halfs(&out)],
        n,
        Some(64),
    );
    let got = read(&r, &out, n);
    check_halfs(
        "tile[63 - l] + tile[l]",
        &got,
        |i| {
            let mirror = i - i % 64 + 63 - i % 64;
            to_half_rte(half_to_f64(input[mirror]) + half_to_f64(input[i]))
        },
        |i| format!("item {i}"),
    );
}

/// `nextafter` on `half` bits.
fn next_half(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    if x == y {
        return y;
    }
    if x == 0.0 {
        return 2f64.powi(-24).copysign(y);
    }
    let b = to_half_rte(x);
    let away = (y > x) == (x > 0.0);
    half_to_f64(if away { b + 1 } else { b - 1 })
}

/// `remainder`: `x - n y` for `n` the integer nearest `x / y`, ties even.
fn remainder(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() || x.is_infinite() || y == 0.0 {
        return f64::NAN;
    }
    if y.is_infinite() {
        return x;
    }
    let r = x % y;
    let n = ((x - r) / y).abs();
    let half = y.abs() / 2.0;
    let r = if r.abs() > half || (r.abs() == half && n % 2.0 == 1.0) {
        r - y.abs().copysign(r)
    } else {
        r
    };
    if r == 0.0 {
        0.0f64.copysign(x)
    } else {
        r
    }
}

fn maxmag(x: f64, y: f64) -> f64 {
    if x.abs() > y.abs() {
        x
    } else if y.abs() > x.abs() {
        y
    } else {
        x.max(y)
    }
}

fn minmag(x: f64, y: f64) -> f64 {
    if x.abs() < y.abs() {
        x
    } else if y.abs() < x.abs() {
        y
    } else {
        x.min(y)
    }
}

fn powr(x: f64, y: f64) -> f64 {
    let nan = x.is_nan()
        || y.is_nan()
        || x < 0.0
        || (x == 0.0 && y == 0.0)
        || (x.is_infinite() && y == 0.0)
        || (x == 1.0 && y.is_infinite());
    if nan {
        f64::NAN
    } else {
        x.abs().powf(y)
    }
}

fn rootn(x: f64, n: i32) -> f64 {
    if n == 0 || (x < 0.0 && n % 2 == 0) || x.is_nan() {
        return f64::NAN;
    }
    let magnitude = x.abs().powf(1.0 / f64::from(n));
    if x.is_sign_negative() && n % 2 != 0 {
        -magnitude
    } else {
        magnitude
    }
}

/// `sin(pi x)` with the argument reduced exactly first.
fn sinpi(x: f64) -> f64 {
    if x.is_infinite() {
        return f64::NAN;
    }
    let r = x % 2.0;
    if r == 0.0 || r.abs() == 1.0 {
        return 0.0f64.copysign(x);
    }
    (std::f64::consts::PI * r).sin()
}

fn cospi(x: f64) -> f64 {
    if x.is_infinite() {
        return f64::NAN;
    }
    let r = (x % 2.0).abs();
    if r == 0.5 || r == 1.5 {
        return 0.0;
    }
    (std::f64::consts::PI * r).cos()
}

fn tanpi(x: f64) -> f64 {
    if x.is_infinite() {
        return f64::NAN;
    }
    let r = x % 1.0;
    if r == 0.0 {
        // tanpi(n) is +-0 with the sign of x for even n, flipped for odd.
        let odd = (x % 2.0).abs() == 1.0;
        return if odd {
            -0.0f64.copysign(x)
        } else {
            0.0f64.copysign(x)
        };
    }
    if r.abs() == 0.5 {
        // An infinity whose sign alternates with n (tanpi(0.5) = +inf).
        let n = (x - r) as i64;
        let positive = (r > 0.0) == (n % 2 == 0);
        return if positive {
            f64::INFINITY
        } else {
            f64::NEG_INFINITY
        };
    }
    (std::f64::consts::PI * r).tan()
}

fn logb(x: f64) -> f64 {
    if x == 0.0 {
        f64::NEG_INFINITY
    } else if x.is_infinite() {
        f64::INFINITY
    } else {
        x.abs().log2().floor()
    }
}

fn sign(x: f64) -> f64 {
    if x.is_nan() {
        0.0
    } else if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        x
    }
}

type Unary = fn(f64) -> f64;
type Binary = fn(f64, f64) -> f64;
type WithInt = fn(f64, i32) -> f64;
/// A reference that may capture (the kernel's `half` argument).
type BinaryRef<'a> = dyn Fn(f64, f64) -> f64 + 'a;

/// Unary functions: name, reference, bound in `half` ulps (OpenCL C's
/// table for `half`: exact functions 0, most 2).
const UNARY: &[(&str, Unary, f64)] = &[
    ("acos", f64::acos, 2.0),
    ("acosh", f64::acosh, 2.0),
    ("acospi", |x| x.acos() / std::f64::consts::PI, 2.0),
    ("asin", f64::asin, 2.0),
    ("asinh", f64::asinh, 2.0),
    ("asinpi", |x| x.asin() / std::f64::consts::PI, 2.0),
    ("atan", f64::atan, 2.0),
    ("atanh", f64::atanh, 2.0),
    ("atanpi", |x| x.atan() / std::f64::consts::PI, 2.0),
    ("cbrt", f64::cbrt, 2.0),
    ("ceil", f64::ceil, 0.0),
    ("cos", f64::cos, 2.0),
    ("cosh", f64::cosh, 2.0),
    ("cospi", cospi, 2.0),
    ("exp", f64::exp, 2.0),
    ("exp2", f64::exp2, 2.0),
    ("exp10", |x| 10f64.powf(x), 2.0),
    ("expm1", f64::exp_m1, 2.0),
    ("fabs", f64::abs, 0.0),
    ("floor", f64::floor, 0.0),
    ("log", f64::ln, 2.0),
    ("log2", f64::log2, 2.0),
    ("log10", f64::log10, 2.0),
    ("log1p", f64::ln_1p, 2.0),
    ("logb", logb, 0.0),
    ("rint", f64::round_ties_even, 0.0),
    ("round", f64::round, 0.0),
    ("rsqrt", |x| 1.0 / x.sqrt(), 1.0),
    ("sin", f64::sin, 2.0),
    ("sinh", f64::sinh, 2.0),
    ("sinpi", sinpi, 2.0),
    ("sqrt", f64::sqrt, 1.0),
    ("tan", f64::tan, 2.0),
    ("tanh", f64::tanh, 2.0),
    ("tanpi", tanpi, 2.0),
    ("trunc", f64::trunc, 0.0),
    ("sign", sign, 0.0),
    ("degrees", f64::to_degrees, 2.0),
    ("radians", f64::to_radians, 2.0),
];

const BINARY: &[(&str, Binary, f64)] = &[
    ("atan2", f64::atan2, 2.0),
    ("atan2pi", |y, x| y.atan2(x) / std::f64::consts::PI, 2.0),
    ("copysign", f64::copysign, 0.0),
    (
        "fdim",
        |x, y| {
            if x > y {
                x - y
            } else if x.is_nan() || y.is_nan() {
                f64::NAN
            } else {
                0.0
            }
        },
        0.5,
    ),
    ("fmax", f64::max, 0.0),
    ("fmin", f64::min, 0.0),
    ("fmod", |x, y| x % y, 0.0),
    ("hypot", f64::hypot, 2.0),
    ("maxmag", maxmag, 0.0),
    ("minmag", minmag, 0.0),
    ("nextafter", next_half, 0.0),
    ("pow", f64::powf, 4.0),
    ("powr", powr, 4.0),
    ("remainder", remainder, 0.0),
    ("step", |edge, x| if x < edge { 0.0 } else { 1.0 }, 0.0),
];

#[test]
fn math_functions_within_half_bounds() {
    let Some(r) = runner("tests/kernels/half_math.cl") else {
        return;
    };
    // Unary: every half.
    let x: Vec<u16> = (0..=u16::MAX).collect();
    let n = x.len();
    let xb = buffer(&r, &x);
    let out = zeros::<u16>(&r, n);
    let mut results = Vec::new();
    for (name, f, bound) in UNARY {
        launch(
            &r,
            &format!("h_{name}"),
            &[Arg::Halfs(&xb), Arg::Halfs(&out)],
            n,
            None,
        );
        let got = read(&r, &out, n);
        let mut w = Worst::half(name, *bound);
        for i in 0..n {
            let v = half_to_f64(x[i]);
            w.record(half_to_f32(got[i]), f(v), || format!("{name}({v:e})"));
        }
        results.push(w);
    }
    // Binary: random pairs (denormals included) and the special pairs.
    let mut bits = Bits::new(0xb1_4a7);
    let mut a: Vec<u16> = (0..n).map(|_| bits.next_u32() as u16).collect();
    let mut b: Vec<u16> = (0..n).map(|_| bits.next_u32() as u16).collect();
    special_pairs(&mut a, &mut b);
    // Near-equal pairs make nextafter, fdim and remainder interesting.
    for i in (n / 2..n).step_by(3) {
        b[i] = a[i] ^ (bits.next_u32() as u16 & 0x7);
    }
    let (ab, bb) = (buffer(&r, &a), buffer(&r, &b));
    for (name, f, bound) in BINARY {
        launch(
            &r,
            &format!("h_{name}"),
            &[Arg::Halfs(&ab), Arg::Halfs(&bb), Arg::Halfs(&out)],
            n,
            None,
        );
        let got = read(&r, &out, n);
        let mut w = Worst::half(name, *bound);
        for i in 0..n {
            let (u, v) = (half_to_f64(a[i]), half_to_f64(b[i]));
            w.record(half_to_f32(got[i]), f(u, v), || {
                format!("{name}({u:e}, {v:e})")
            });
        }
        results.push(w);
    }
    // With an int: pown, rootn, ldexp; and ilogb.
    let k: Vec<i32> = (0..n)
        .map(|i| (bits.next_u32() % 41) as i32 - 20 + (i % 2) as i32)
        .collect();
    let kb = buffer(&r, &k);
    let with_int: [(&str, WithInt, f64); 3] = [
        ("pown", |x, k| x.powi(k), 4.0),
        ("rootn", rootn, 4.0),
        ("ldexp", |x, k| x * 2f64.powi(k), 0.5),
    ];
    for (name, f, bound) in with_int {
        launch(
            &r,
            &format!("h_{name}"),
            &[Arg::Halfs(&ab), Arg::Ints(&kb), Arg::Halfs(&out)],
            n,
            None,
        );
        let got = read(&r, &out, n);
        let mut w = Worst::half(name, bound);
        for i in 0..n {
            let u = half_to_f64(a[i]);
            w.record(half_to_f32(got[i]), f(u, k[i]), || {
                format!("{name}({u:e}, {})", k[i])
            });
        }
        results.push(w);
    }
    report(&results);

    let ints = zeros::<i32>(&r, n);
    launch(&r, "h_ilogb", &[Arg::Halfs(&xb), Arg::Ints(&ints)], n, None);
    let got = read(&r, &ints, n);
    for i in 0..n {
        let v = half_to_f64(x[i]);
        if v.is_finite() && v != 0.0 {
            assert_eq!(got[i], v.abs().log2().floor() as i32, "ilogb({v:e})");
        }
    }

    let rel = zeros::<i32>(&r, 10 * n);
    launch(
        &r,
        "h_relational",
        &[Arg::Halfs(&ab), Arg::Halfs(&bb), Arg::Ints(&rel)],
        n,
        None,
    );
    let got = read(&r, &rel, 10 * n);
    for i in 0..n {
        let (u, v) = (half_to_f64(a[i]), half_to_f64(b[i]));
        let normal = u.is_finite() && u.abs() >= 2f64.powi(-14);
        let want = [
            u.is_nan(),
            u.is_infinite(),
            u.is_finite(),
            normal,
            u.is_sign_negative(),
            u < v,
            u.is_nan() || v.is_nan(),
        ]
        .map(i32::from);
        assert_eq!(
            got[10 * i..10 * i + 7],
            want,
            "relational functions of {u:e}, {v:e}"
        );
        assert_eq!(
            got[10 * i + 7],
            if u == v { -1 } else { 0 },
            "isequal on half2 of {u:e}, {v:e}"
        );
        let unordered = u.is_nan() || v.is_nan();
        assert_eq!(
            got[10 * i + 8],
            if unordered { 0 } else { -1 },
            "isordered of {u:e}, {v:e}"
        );
        assert_eq!(
            got[10 * i + 9],
            if unordered { -1 } else { 0 },
            "isunordered of {u:e}, {v:e}"
        );
    }

    // fma on half4 against the exact a * b + c, rounded once.
    let fma = zeros::<u16>(&r, n);
    launch(
        &r,
        "h_fma4",
        &[Arg::Halfs(&ab), Arg::Halfs(&bb), Arg::Halfs(&fma)],
        n / 4,
        None,
    );
    check_halfs(
        "fma(a, b, a.wzyx)",
        &read(&r, &fma, n),
        |i| {
            let c = a[i - i % 4 + 3 - i % 4];
            to_half_rte(half_to_f64(a[i]).mul_add(half_to_f64(b[i]), half_to_f64(c)))
        },
        |i| format!("a={:#06x} b={:#06x}", a[i], b[i]),
    );
}

#[test]
fn geometric_and_common_functions_on_half_vectors() {
    let Some(r) = runner("tests/kernels/half_math.cl") else {
        return;
    };
    // Multiples of 1/64 up to 4: products and sums are exact in float,
    // so the float library rounds once.
    let n = 8192;
    let mut bits = Bits::new(0x9e0);
    let grid =
        |bits: &mut Bits| to_half_rte(f64::from((bits.next_u32() % 513) as i32 - 256) / 64.0);
    let x: Vec<u16> = (0..4 * n).map(|_| grid(&mut bits)).collect();
    let y: Vec<u16> = (0..4 * n).map(|_| grid(&mut bits)).collect();
    let (xb, yb) = (buffer(&r, &x), buffer(&r, &y));
    let (o, nb, mb) = (
        zeros::<u16>(&r, 3 * n),
        zeros::<u16>(&r, 4 * n),
        zeros::<u16>(&r, 4 * n),
    );
    launch(
        &r,
        "h_geometric",
        &[
            Arg::Halfs(&xb),
            Arg::Halfs(&yb),
            Arg::Halfs(&o),
            Arg::Halfs(&nb),
            Arg::Halfs(&mb),
        ],
        n,
        None,
    );
    let (o, normalized, mixed) = (
        read(&r, &o, 3 * n),
        read(&r, &nb, 4 * n),
        read(&r, &mb, 4 * n),
    );
    let mut length = Worst::half("length", 2.0);
    let mut dot = Worst::half("dot", 1.0);
    let mut distance = Worst::half("distance", 2.0);
    let mut normalize = Worst::half("normalize", 2.0);
    for i in 0..n {
        let a: Vec<f64> = (0..4).map(|k| half_to_f64(x[4 * i + k])).collect();
        let b: Vec<f64> = (0..4).map(|k| half_to_f64(y[4 * i + k])).collect();
        let len = a.iter().map(|v| v * v).sum::<f64>().sqrt();
        let input = || format!("a={a:?} b={b:?}");
        length.record(half_to_f32(o[3 * i]), len, input);
        dot.record(
            half_to_f32(o[3 * i + 1]),
            a.iter().zip(&b).map(|(p, q)| p * q).sum(),
            input,
        );
        let dist = a
            .iter()
            .zip(&b)
            .map(|(p, q)| (p - q) * (p - q))
            .sum::<f64>()
            .sqrt();
        distance.record(half_to_f32(o[3 * i + 2]), dist, input);
        if len > 0.0 {
            for k in 0..4 {
                normalize.record(half_to_f32(normalized[4 * i + k]), a[k] / len, input);
            }
        }
        for k in 0..4 {
            let mix = half_to_f64(to_half_rte(a[k] + (b[k] - a[k]) * 0.25));
            let want = to_half_rte(mix + a[k].clamp(-1.0, 1.0));
            assert!(
                same_half(mixed[4 * i + k], want),
                "mix + clamp of {a:?} {b:?} lane {k}"
            );
        }
    }
    report(&[length, dot, distance, normalize]);
}

const PRINTF_CHILD: &str = "CLVULKAN_HALF_PRINTF_CHILD";

/// The `printf` launch, when this process is the child of
/// [`printf_of_half`].
#[test]
fn printf_child() {
    if std::env::var_os(PRINTF_CHILD).is_none() {
        return;
    }
    let Some(r) = runner("tests/kernels/half_math.cl") else {
        return;
    };
    let v = buffer(&r, &[0.5, -2.0, 3.25, 65504.0].map(to_half_rte));
    launch(
        &r,
        "h_print",
        &[Arg::Half(to_half_rte(1.5)), Arg::Halfs(&v)],
        1,
        None,
    );
}

#[test]
fn printf_of_half() {
    if !has_fp16() {
        return;
    }
    let stdout = common::run_child_test("printf_child", PRINTF_CHILD);
    assert!(
        stdout.contains("H: half 1.500 vector 0.500000,-2.000000,3.250000,65504.000000"),
        "printf output:\n{stdout}"
    );
}

#[test]
fn builtins_with_output_pointers() {
    let Some(r) = runner("tests/kernels/half_math.cl") else {
        return;
    };
    let x: Vec<u16> = (0..=u16::MAX).collect();
    let n = x.len();
    let mut bits = Bits::new(0x0070_0707);
    let y: Vec<u16> = (0..n)
        .map(|i| match i % 3 {
            0 => bits.next_u32() as u16,
            1 => to_half_rte(f64::from(bits.next_u32() % 64) / 8.0 - 4.0),
            _ => x[i] ^ (bits.next_u32() as u16 & 0x7),
        })
        .collect();
    let (xb, yb) = (buffer(&r, &x), buffer(&r, &y));
    let (o, k) = (zeros::<u16>(&r, 8 * n), zeros::<i32>(&r, 2 * n));
    launch(
        &r,
        "h_outputs",
        &[
            Arg::Halfs(&xb),
            Arg::Halfs(&yb),
            Arg::Halfs(&o),
            Arg::Ints(&k),
        ],
        n,
        None,
    );
    let (o, k) = (read(&r, &o, 8 * n), read(&r, &k, 2 * n));
    let (mut sin, mut cos) = (
        Worst::half("sincos sin", 2.0),
        Worst::half("sincos cos", 2.0),
    );
    for i in 0..n {
        let v = half_to_f64(x[i]);
        let row = &o[8 * i..8 * i + 8];
        let input = || format!("x={v:e} ({:#06x})", x[i]);
        sin.record(half_to_f32(row[6]), v.sin(), input);
        cos.record(half_to_f32(row[7]), v.cos(), input);
        if !v.is_finite() {
            continue;
        }
        let below_one = half_to_f64(0x3bff);
        // fract(+-0) is +-0.
        let fract = if v == 0.0 {
            v
        } else {
            (v - v.floor()).min(below_one)
        };
        assert!(same_half(row[0], to_half_rte(fract)), "fract {}", input());
        assert!(
            same_half(row[1], to_half_rte(v.floor())),
            "fract's floor {}",
            input()
        );
        let whole = v.trunc();
        let part = if v == whole {
            0.0f64.copysign(v)
        } else {
            v - whole
        };
        assert!(same_half(row[2], to_half_rte(part)), "modf {}", input());
        assert!(
            same_half(row[3], to_half_rte(whole)),
            "modf's whole {}",
            input()
        );
        let (mantissa, exponent) = if v == 0.0 {
            (v, 0)
        } else {
            let e = v.abs().log2().floor() as i32 + 1;
            (v / 2f64.powi(e), e)
        };
        assert!(
            same_half(row[4], to_half_rte(mantissa)),
            "frexp {}",
            input()
        );
        assert_eq!(k[2 * i], exponent, "frexp's exponent {}", input());
        let w = half_to_f64(y[i]);
        let rem = remainder(v, w);
        assert!(same_half(row[5], to_half_rte(rem)), "remquo({v:e}, {w:e})");
        if w != 0.0 && w.is_finite() {
            // The quotient's sign and at least its 3 low bits.
            let quotient = ((v - rem) / w).round() as i64;
            let q = i64::from(k[2 * i + 1]);
            assert_eq!(
                q.abs() & 7,
                quotient.abs() & 7,
                "remquo's quo of {v:e}, {w:e}"
            );
            assert!(
                q == 0 || (q < 0) == (quotient < 0),
                "remquo's quo sign of {v:e}, {w:e}"
            );
        }
    }

    // sincos on half8: split in 4-lane parts, the pointer cast per part.
    let n8 = n / 8;
    let (s8, c8) = (zeros::<u16>(&r, n), zeros::<u16>(&r, n));
    launch(
        &r,
        "h_sincos8",
        &[Arg::Halfs(&xb), Arg::Halfs(&s8), Arg::Halfs(&c8)],
        n8,
        None,
    );
    let (s8, c8) = (read(&r, &s8, n), read(&r, &c8, n));
    let (mut sin8, mut cos8) = (
        Worst::half("sincos8 sin", 2.0),
        Worst::half("sincos8 cos", 2.0),
    );
    for i in 0..n {
        let v = half_to_f64(x[i]);
        sin8.record(half_to_f32(s8[i]), v.sin(), || format!("x={v:e}"));
        cos8.record(half_to_f32(c8[i]), v.cos(), || format!("x={v:e}"));
    }
    report(&[sin, cos, sin8, cos8]);
}
