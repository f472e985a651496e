//! `fma` on `float` is correctly rounded (OpenCL C 7.4: 0 ulp) on every
//! device, scalar and vector: where the driver computes Vulkan's `Fma` as a
//! multiply and an add (lavapipe), the translator builds it in software.
//! The cases that tell the two apart: `fma(x, y, -x*y)` is the product's
//! rounding error, which a separate multiply turns into 0.

mod common;

use common::sweep::{self, Value, FLOAT};

#[test]
fn float_fma_is_correctly_rounded() {
    let (context, queue) = common::context_and_queue();
    let mut random = sweep::Random::new(0x5851_f42d_4c95_7f2d);
    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..1 << 16 {
        let x = f32::from_bits(random.next() as u32 & 0xbfff_ffff);
        let y = f32::from_bits(0x3f80_0000 | (random.next() as u32 & 0x007f_ffff));
        let z = match i % 3 {
            // The product's rounding error, alone or nearly.
            0 => -(x * y),
            1 => -(x * y) * (1.0 + f32::EPSILON),
            _ => f32::from_bits(random.next() as u32 & 0xbfff_ffff),
        };
        a.push(Value::Float(f64::from(x)));
        b.push(Value::Float(f64::from(y)));
        c.push(Value::Float(f64::from(z)));
    }
    for width in [1, 4] {
        let source = sweep::kernel_source(&[FLOAT; 3], FLOAT, width, "fma({0}, {1}, {2})");
        let operands = [(FLOAT, &a[..]), (FLOAT, &b[..]), (FLOAT, &c[..])];
        let got = sweep::run(&context, &queue, &source, &operands, FLOAT, width);
        let mut wrong = Vec::new();
        for (i, got) in got.iter().enumerate() {
            let (x, y, z) = (
                a[i].float() as f32,
                b[i].float() as f32,
                c[i].float() as f32,
            );
            let got = got.float() as f32;
            // The device does not report CL_FP_DENORM: a subnormal operand
            // may act as a zero of its sign, and a subnormal result may be
            // flushed to one.
            let flush = |v: f32| {
                if v.is_subnormal() {
                    0f32.copysign(v)
                } else {
                    v
                }
            };
            let readings = [(x, y, z), (flush(x), flush(y), flush(z))];
            let accepted = |want: f32| {
                got.to_bits() == want.to_bits()
                    || (got.is_nan() && want.is_nan())
                    || (want.is_subnormal() && got == 0.0)
            };
            let want = x.mul_add(y, z);
            if !readings.iter().any(|&(x, y, z)| accepted(x.mul_add(y, z))) {
                wrong.push(format!("fma({x:e}, {y:e}, {z:e}) = {got:e}, want {want:e}"));
            }
        }
        assert!(
            wrong.is_empty(),
            "width {width}: {} wrong, e.g.\n{}",
            wrong.len(),
            wrong[..wrong.len().min(5)].join("\n")
        );
    }
}
