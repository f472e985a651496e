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
