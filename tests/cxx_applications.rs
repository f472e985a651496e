//! Application-style C++ for OpenCL kernels through the loader (issue 22),
//! each against a host reference: a templated work-group reduction with
//! operator functors, a radix-2 FFT on a complex-number class template,
//! sorts with comparator functors and a lambda, and a particle step on a
//! small vector/matrix class library (`tests/kernels/cxx_applications.cl`).

mod common;

use opencl3::kernel::Kernel;

use common::launch::{build_file, run_1d, set_arg};
use common::{buffer_with, read_buffer};

const SOURCE: &str = "tests/kernels/cxx_applications.cl";

/// A deterministic pseudo-random sequence in [0, 1).
fn noise(n: usize, seed: u32) -> Vec<f32> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 8) as f32 / (1u32 << 24) as f32
        })
        .collect()
}

fn close(got: f32, want: f64, tolerance: f64) -> bool {
    (f64::from(got) - want).abs() <= tolerance * want.abs().max(1.0)
}

#[test]
fn a_templated_reduction_sums_and_finds_maxima_per_group() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, SOURCE);
    let kernel = Kernel::create(&program, "reduce").expect("kernel");
    const COUNT: usize = 5000;
    const GROUPS: usize = 4;
    const LOCAL: usize = 64;
    let floats: Vec<f32> = noise(COUNT, 7).iter().map(|x| x * 4.0 - 2.0).collect();
    let ints: Vec<i32> = (0..COUNT as i32)
        .map(|i| (i * 7919) % 100_003 - 50_000)
        .collect();
    let f = buffer_with(&context, &queue, &floats);
    let k = buffer_with(&context, &queue, &ints);
    let sums = buffer_with(&context, &queue, &[f32::NAN; GROUPS]);
    let maxima = buffer_with(&context, &queue, &[i32::MIN; GROUPS]);
    set_arg(&kernel, 0, &f);
    set_arg(&kernel, 1, &k);
    set_arg(&kernel, 2, &(COUNT as u32));
    set_arg(&kernel, 3, &sums);
    set_arg(&kernel, 4, &maxima);
    run_1d(&queue, &kernel, GROUPS * LOCAL, LOCAL);
    // Work-item g takes elements g, g + 256, ...; group w sums and takes
    // the maximum over its 64 work-items' elements.
    let stride = GROUPS * LOCAL;
    let got_sums = read_buffer::<f32>(&queue, &sums, GROUPS);
    let got_maxima = read_buffer::<i32>(&queue, &maxima, GROUPS);
    for group in 0..GROUPS {
        let items = group * LOCAL..(group + 1) * LOCAL;
        let elements = || items.clone().flat_map(|g| (g..COUNT).step_by(stride));
        let sum: f64 = elements().map(|i| f64::from(floats[i])).sum();
        let max = elements().map(|i| ints[i]).max().unwrap();
        assert!(
            close(got_sums[group], sum, 1e-4),
            "group {group}: {} vs {sum}",
            got_sums[group]
        );
        assert_eq!(got_maxima[group], max.max(-1_000_000), "group {group}");
    }
}

#[test]
fn an_fft_on_a_complex_class_matches_the_discrete_fourier_transform() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, SOURCE);
    let kernel = Kernel::create(&program, "fft16").expect("kernel");
    const ROWS: usize = 32;
    let input: Vec<f32> = noise(ROWS * 32, 11).iter().map(|x| x * 2.0 - 1.0).collect();
    let din = buffer_with(&context, &queue, &input);
    let dout = buffer_with(&context, &queue, &vec![f32::NAN; ROWS * 32]);
    let power = buffer_with(&context, &queue, &[f32::NAN; ROWS]);
    set_arg(&kernel, 0, &din);
    set_arg(&kernel, 1, &dout);
    set_arg(&kernel, 2, &power);
    run_1d(&queue, &kernel, ROWS, 8);
    let got = read_buffer::<f32>(&queue, &dout, ROWS * 32);
    let got_power = read_buffer::<f32>(&queue, &power, ROWS);
    for row in 0..ROWS {
        let x = |n: usize| {
            let at = row * 32 + 2 * n;
            (f64::from(input[at]), f64::from(input[at + 1]))
        };
        let mut total = 0.0;
        for k in 0..16 {
            let (mut re, mut im) = (0.0, 0.0);
            for n in 0..16 {
                let angle = -2.0 * std::f64::consts::PI * (k * n) as f64 / 16.0;
                let (xr, xi) = x(n);
                re += xr * angle.cos() - xi * angle.sin();
                im += xr * angle.sin() + xi * angle.cos();
            }
            total += re * re + im * im;
            let (got_re, got_im) = (got[row * 32 + 2 * k], got[row * 32 + 2 * k + 1]);
            assert!(
                close(got_re, re, 1e-4) && close(got_im, im, 1e-4),
                "row {row} bin {k}: ({got_re}, {got_im}) vs ({re}, {im})"
            );
        }
        assert!(close(got_power[row], total, 1e-4), "row {row} power");
    }
}

#[test]
fn sorts_order_keys_by_their_comparators() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, SOURCE);
    let kernel = Kernel::create(&program, "sort_rows").expect("kernel");
    const ROWS: usize = 16;
    let keys: Vec<i32> = (0..ROWS as i32 * 16)
        .map(|i| (i * 7_368_787 + 12_345) % 2001 - 1000)
        .collect();
    let din = buffer_with(&context, &queue, &keys);
    // Orders 0-2 pick a functor; 7 a lambda capturing 7.
    for order in [0, 1, 2, 7] {
        let dout = buffer_with(&context, &queue, &vec![i32::MIN; ROWS * 16]);
        set_arg(&kernel, 0, &din);
        set_arg(&kernel, 1, &dout);
        set_arg(&kernel, 2, &order);
        run_1d(&queue, &kernel, ROWS, 4);
        let got = read_buffer::<i32>(&queue, &dout, ROWS * 16);
        for row in 0..ROWS {
            let mut want = keys[row * 16..(row + 1) * 16].to_vec();
            match order {
                0 => want.sort(),
                1 => want.sort_by(|a, b| b.cmp(a)),
                2 => want.sort_by_key(|&k| (k.abs(), k)),
                _ => want.sort_by_key(|&k| (k % order, k)),
            }
            assert_eq!(
                got[row * 16..(row + 1) * 16],
                want,
                "order {order}, row {row}"
            );
        }
    }
    let kernel = Kernel::create(&program, "sort_group").expect("kernel");
    let values: Vec<f32> = noise(256, 3).iter().map(|x| x * 100.0 - 50.0).collect();
    let data = buffer_with(&context, &queue, &values);
    set_arg(&kernel, 0, &data);
    run_1d(&queue, &kernel, 256, 64);
    let got = read_buffer::<f32>(&queue, &data, 256);
    for (group, chunk) in values.chunks(64).enumerate() {
        let mut want = chunk.to_vec();
        want.sort_by(f32::total_cmp);
        assert_eq!(got[group * 64..(group + 1) * 64], want, "group {group}");
    }
}

#[test]
fn a_particle_step_on_a_vector_class_library_matches_the_host() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, SOURCE);
    let kernel = Kernel::create(&program, "particle_step").expect("kernel");
    const N: usize = 64;
    let pos: Vec<f32> = noise(N * 3, 5).iter().map(|x| x * 2.0 - 1.0).collect();
    let vel: Vec<f32> = noise(N * 3, 6).iter().map(|x| x - 0.5).collect();
    let (dt, steps) = (0.01f32, 20);
    let angle = 0.3f64;
    let (c, s) = (angle.cos() as f32, angle.sin() as f32);
    let dpos = buffer_with(&context, &queue, &pos);
    let dvel = buffer_with(&context, &queue, &vel);
    let energy = buffer_with(&context, &queue, &[f32::NAN; N]);
    set_arg(&kernel, 0, &dpos);
    set_arg(&kernel, 1, &dvel);
    set_arg(&kernel, 2, &energy);
    set_arg(&kernel, 3, &dt);
    set_arg(&kernel, 4, &c);
    set_arg(&kernel, 5, &s);
    set_arg(&kernel, 6, &steps);
    run_1d(&queue, &kernel, N, 16);
    let got_pos = read_buffer::<f32>(&queue, &dpos, N * 3);
    let got_vel = read_buffer::<f32>(&queue, &dvel, N * 3);
    let got_energy = read_buffer::<f32>(&queue, &energy, N);
    let (k, damping, dt) = (2.0, 0.1, f64::from(dt));
    let (c, s) = (f64::from(c), f64::from(s));
    for i in 0..N {
        let mut p: Vec<f64> = pos[3 * i..3 * i + 3].iter().map(|&x| x.into()).collect();
        let mut v: Vec<f64> = vel[3 * i..3 * i + 3].iter().map(|&x| x.into()).collect();
        for _ in 0..steps {
            for d in 0..3 {
                let a = -p[d] * k - v[d] * damping;
                v[d] += a * dt;
                p[d] += dt * v[d];
            }
        }
        let rotate = |u: &[f64]| [c * u[0] - s * u[1], s * u[0] + c * u[1], u[2]];
        let (p, v) = (rotate(&p), rotate(&v));
        let length2 = |u: &[f64; 3]| u.iter().map(|x| x * x).sum::<f64>();
        let e = 0.5 * length2(&v) + 0.5 * k * length2(&p);
        for d in 0..3 {
            assert!(
                close(got_pos[3 * i + d], p[d], 1e-4),
                "particle {i} position"
            );
            assert!(
                close(got_vel[3 * i + d], v[d], 1e-4),
                "particle {i} velocity"
            );
        }
        assert!(close(got_energy[i], e, 1e-4), "particle {i} energy");
    }
}
