//! Constructs that third-party OpenCL software (hashcat, CLBlast, piglit's
//! `cl` profile) uses, each reduced to a kernel of its own and checked
//! against the host, so that the clients' failures stay fixed without
//! running the clients.

mod common;

use opencl3::kernel::Kernel;

use common::launch::{build_file as build, run_1d as run, set_arg as arg};
use common::{buffer_with as buffer, read_buffer as read};

/// hashcat's `markov_le.cl`: a struct pointer reassigned from one buffer
/// argument to another in a loop (a pointer joined at run time), and an
/// element of the struct's array member indexed by a `ulong`.
#[test]
fn array_member_through_a_pointer_chosen_at_run_time() {
    #[repr(C)]
    #[derive(Clone, Copy, Default)]
    struct Cs {
        buf: [u32; 8],
        len: u32,
    }
    let table = |salt: u32, n: usize| -> Vec<Cs> {
        (0..n as u32)
            .map(|i| Cs {
                buf: std::array::from_fn(|j| (i * 13 + j as u32 * 7 + salt) % 97),
                len: 1 + (i * 5 + salt) % 8,
            })
            .collect()
    };
    let (root, chain) = (table(3, 4), table(11, 16));
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/client_constructs.cl");
    let kernel = Kernel::create(&program, "markov_walk").expect("kernel");
    const N: usize = 64;
    let seed: u64 = 0x1234_5678_9abc;
    let droot = buffer(&context, &queue, &root);
    let dchain = buffer(&context, &queue, &chain);
    let out = buffer(&context, &queue, &vec![0u32; N]);
    arg(&kernel, 0, &droot);
    arg(&kernel, 1, &dchain);
    arg(&kernel, 2, &out);
    arg(&kernel, 3, &seed);
    run(&queue, &kernel, N, 16);
    let got = read(&queue, &out, N);
    for (gid, &got) in got.iter().enumerate() {
        let mut cs = &root[gid % 4];
        let mut val = seed + gid as u64;
        let mut acc = 0u32;
        for i in 0..6u32 {
            let len = u64::from(cs.len);
            let key = cs.buf[(val % len) as usize];
            val /= len;
            acc = acc.wrapping_mul(31).wrapping_add(key);
            cs = &chain[((i * 8 + key) % 16) as usize];
        }
        assert_eq!(got, acc, "out[{gid}]");
    }
}

/// hashcat's `inc_types.h`: an enum of 64-bit round constants (SHA-512's),
/// read through a `__constant` table. Enumerators beyond `int` keep their
/// values and the enum's type holds them (clang's rules for C).
#[test]
fn enumerators_beyond_int() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/client_constructs.cl");
    let kernel = Kernel::create(&program, "wide_enumerators").expect("kernel");
    let out = buffer(&context, &queue, &[0u64; 8]);
    let signed = buffer(&context, &queue, &[0i64; 4]);
    arg(&kernel, 0, &out);
    arg(&kernel, 1, &signed);
    run(&queue, &kernel, 1, 1);
    let big0: u64 = 0x428a_2f98_d728_ae22;
    // sizeof: the 64-bit enum and its typedef 8, BIG0 8; SMALL an int (4),
    // an enum of unsigned values up to 2^31 4, one with a negative value
    // and one beyond int 8.
    let want = [big0, big0 + 1, 5, big0 + 1, big0 + 1, 888, 448, 0x8000_0000];
    assert_eq!(read(&queue, &out, 8), want);
    assert_eq!(
        read(&queue, &signed, 4),
        [-3, 0x1_2345_6789, -3, 0x8000_0000]
    );
}
