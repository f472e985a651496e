//! Built-ins written on a float's bits give, on subnormal operands, either
//! the result for the operands as given or the one for them flushed to
//! zero (and the result flushed), as OpenCL C 7.5.3 allows a device that
//! does not report `CL_FP_DENORM`, never a mix. On NVIDIA's driver, which
//! flushes in some instructions and not in others, `fmax` of two
//! subnormals returned the smaller one and `nextafter` stepped from a
//! flushed zero to an unflushed subnormal (OpenCL-CTS test_bruteforce on
//! the H200, 2026-11-29); lavapipe keeps subnormals everywhere, so this
//! check bites on the H200 run of the suite.

mod common;

use common::launch::launch;

const SOURCE: &str = "
kernel void bits(global const float *x, global const float *y, global const int *n,
                 global float *out, global int *exponent) {
    size_t i = get_global_id(0);
    float a = x[i], b = y[i];
    out[8 * i + 0] = fmax(a, b);
    out[8 * i + 1] = fmin(a, b);
    out[8 * i + 2] = maxmag(a, b);
    out[8 * i + 3] = minmag(a, b);
    out[8 * i + 4] = nextafter(a, b);
    out[8 * i + 5] = ldexp(a, n[i]);
    int e;
    out[8 * i + 6] = frexp(a, &e);
    exponent[i] = e;
    float whole;
    out[8 * i + 7] = fract(a, &whole);
}";

fn flush(v: f32) -> f32 {
    if v != 0.0 && v.abs() < f32::MIN_POSITIVE {
        0.0f32.copysign(v)
    } else {
        v
    }
}

fn nextafter(x: f32, y: f32) -> f32 {
    if x.is_nan() || y.is_nan() {
        return f32::NAN;
    }
    if x == y {
        return y;
    }
    if x == 0.0 {
        return f32::from_bits(1).copysign(y);
    }
    let bits = x.to_bits();
    let away = (y > x) == (x > 0.0);
    f32::from_bits(if away { bits + 1 } else { bits - 1 })
}

fn maxmag(a: f32, b: f32) -> f32 {
    match a.abs().partial_cmp(&b.abs()) {
        Some(std::cmp::Ordering::Greater) => a,
        Some(std::cmp::Ordering::Less) => b,
        _ => a.max(b),
    }
}

fn minmag(a: f32, b: f32) -> f32 {
    match a.abs().partial_cmp(&b.abs()) {
        Some(std::cmp::Ordering::Less) => a,
        Some(std::cmp::Ordering::Greater) => b,
        _ => a.min(b),
    }
}

fn ldexp(a: f32, n: i32) -> f32 {
    (f64::from(a) * 2f64.powi(n.clamp(-400, 400))) as f32
}

fn frexp(a: f32) -> (f32, i32) {
    if a == 0.0 || !a.is_finite() {
        return (a, 0);
    }
    let mut e = 0;
    let mut m = f64::from(a);
    while m.abs() >= 1.0 {
        m /= 2.0;
        e += 1;
    }
    while m.abs() < 0.5 {
        m *= 2.0;
        e -= 1;
    }
    (m as f32, e)
}

fn fract(a: f32) -> f32 {
    if a == 0.0 {
        return a;
    }
    (a - a.floor()).min(f32::from_bits(0x3f7f_ffff))
}

/// Lane `k` of the eight results, for `a`, `b` and `n`.
fn results(a: f32, b: f32, n: i32) -> [f32; 8] {
    [
        a.max(b),
        a.min(b),
        maxmag(a, b),
        minmag(a, b),
        nextafter(a, b),
        ldexp(a, n),
        frexp(a).0,
        fract(a),
    ]
}

fn same(x: f32, y: f32) -> bool {
    x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
}

#[test]
fn bit_level_built_ins_flush_subnormals_all_or_nothing() {
    let (context, queue) = common::context_and_queue();
    let program = common::launch::build_source(&context, SOURCE, "");
    // Subnormals of both signs against each other, zeros, the smallest
    // normals and ordinary values.
    let specials = [
        f32::from_bits(0x0063_a487),
        f32::from_bits(0x006b_789d),
        f32::from_bits(0x8050_5dc9),
        f32::from_bits(0x8071_2466),
        f32::from_bits(0x007f_ffff),
        f32::from_bits(0x807f_ffff),
        f32::from_bits(1),
        0.0,
        -0.0,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        1.5,
        -3.25,
    ];
    let (mut xs, mut ys, mut ns) = (Vec::new(), Vec::new(), Vec::new());
    for (i, &a) in specials.iter().enumerate() {
        for (j, &b) in specials.iter().enumerate() {
            xs.push(a);
            ys.push(b);
            ns.push([0, 3, -2, 200][(i + j) % 4]);
        }
    }
    let count = xs.len();
    let dx = common::buffer_with(&context, &queue, &xs);
    let dy = common::buffer_with(&context, &queue, &ys);
    let dn = common::buffer_with(&context, &queue, &ns);
    let dout = common::buffer_with(&context, &queue, &vec![0f32; 8 * count]);
    let dexp = common::buffer_with(&context, &queue, &vec![0i32; count]);
    launch(&queue, &program, "bits", count, |k| {
        // SAFETY: three inputs of `count` elements, 8 * count floats and
        // `count` ints of output, as declared.
        unsafe {
            k.set_arg(&dx)
                .set_arg(&dy)
                .set_arg(&dn)
                .set_arg(&dout)
                .set_arg(&dexp)
        };
    });
    let out = common::read_buffer(&queue, &dout, 8 * count);
    let exponents = common::read_buffer(&queue, &dexp, count);
    let names = [
        "fmax",
        "fmin",
        "maxmag",
        "minmag",
        "nextafter",
        "ldexp",
        "frexp",
        "fract",
    ];
    let mut wrong = Vec::new();
    for i in 0..count {
        let (a, b, n) = (xs[i], ys[i], ns[i]);
        let exact = results(a, b, n);
        let flushed = results(flush(a), flush(b), n).map(flush);
        for k in 0..8 {
            let got = out[8 * i + k];
            let mut fine = same(got, exact[k]) || same(got, flushed[k]);
            // A result whose exact value is subnormal may be flushed.
            fine |= same(got, flush(exact[k]));
            // nextafter from a subnormal steps to the smallest normal.
            if k == 4 && flush(a) == 0.0 && a != 0.0 && b != a {
                fine |= same(got, f32::MIN_POSITIVE.copysign(b - a));
            }
            if !fine {
                wrong.push(format!(
                    "{}({a:e} [{:#x}], {b:e} [{:#x}], {n}) = {got:e} [{:#x}], want {:e} or {:e}",
                    names[k],
                    a.to_bits(),
                    b.to_bits(),
                    got.to_bits(),
                    exact[k],
                    flushed[k]
                ));
            }
        }
        let got = exponents[i];
        let (want, want_flushed) = (frexp(a).1, frexp(flush(a)).1);
        if got != want && got != want_flushed {
            wrong.push(format!(
                "frexp({a:e}) exponent {got}, want {want} or {want_flushed}"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
