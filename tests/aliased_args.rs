//! Buffer arguments that share an allocation (issue 19): the same `cl_mem`
//! set to two arguments, a buffer and a sub-buffer of it, two sub-buffers
//! of one buffer. The kernel's pointer comparisons and differences between
//! the arguments must see one object; different buffers compare unequal,
//! and NULL arguments stay null. Each result is checked against the host's
//! model of the two pointers: (allocation, byte origin).

mod common;

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::kernel::Kernel;
use opencl3::memory::{Buffer, ClMem, CL_MEM_READ_WRITE};
use opencl3::types::cl_mem;
use std::ptr;

const OUTPUTS: usize = 13;

fn kernels(context: &Context) -> (Kernel, Kernel) {
    let path = common::repo_path("tests/kernels/aliased_buffer_args.cl");
    let source = std::fs::read_to_string(path).expect("kernel source");
    let program = common::launch::build_source(context, &source, "");
    (
        Kernel::create(&program, "aliased").expect("kernel"),
        Kernel::create(&program, "aliased_integers").expect("kernel"),
    )
}

/// A pointer argument as the host sees it: the allocation it is a region
/// of (`None`: a NULL `cl_mem`) and its origin in ints there.
#[derive(Clone, Copy, Debug)]
struct Arg {
    mem: cl_mem,
    allocation: Option<u32>,
    origin: i32,
}

/// What the kernel must write for arguments `p` and `q` (`pick` chooses
/// `r = p` or `q`), `None` where C leaves the result unspecified (order
/// and difference of pointers into different objects).
fn expected(p: Arg, q: Arg, k: i32, pick: bool) -> [Option<i32>; OUTPUTS] {
    let same = p.allocation == q.allocation;
    let equal = |a: Arg, da: i32, b: Arg| a.allocation == b.allocation && a.origin + da == b.origin;
    let ordered = |result: bool| same.then_some(result as i32);
    let r = if pick { p } else { q };
    [
        Some(equal(p, 0, q) as i32),
        Some(!equal(p, 0, q) as i32),
        ordered(p.origin < q.origin),
        ordered(p.origin <= q.origin),
        ordered(p.origin > q.origin),
        ordered(p.origin >= q.origin),
        same.then_some(q.origin - p.origin),
        // `p + k` of a NULL `p` is not null.
        (same || p.allocation.is_some()).then_some(equal(p, k, q) as i32),
        Some(equal(p, 0, q) as i32),
        (same || p.allocation.is_some()).then_some(equal(p, k, q) as i32),
        Some(equal(r, 0, q) as i32),
        (r.allocation == p.allocation).then_some(r.origin - p.origin),
        Some(0),
    ]
}

fn launch(
    queue: &CommandQueue,
    kernel: &Kernel,
    out: &Buffer<i32>,
    p: Arg,
    q: Arg,
    k: i32,
    pick: bool,
) -> Vec<i32> {
    let pick = pick as i32;
    // SAFETY: the arguments match the kernel's parameters; one work-item.
    unsafe {
        kernel.set_arg(0, &p.mem).expect("p");
        kernel.set_arg(1, &q.mem).expect("q");
        kernel.set_arg(2, &out.get()).expect("out");
        kernel.set_arg(3, &k).expect("k");
        kernel.set_arg(4, &pick).expect("pick");
        queue
            .enqueue_nd_range_kernel(
                kernel.get(),
                1,
                ptr::null(),
                [1usize].as_ptr(),
                ptr::null(),
                &[],
            )
            .expect("enqueue");
    }
    queue.finish().expect("finish");
    common::read_buffer(queue, out, OUTPUTS)
}

#[test]
fn pointers_of_arguments_sharing_a_buffer_compare_by_address() {
    let (context, queue) = common::context_and_queue();
    let (kernel, integers) = kernels(&context);
    let device = opencl3::device::Device::new(context.devices()[0]);
    // Sub-buffer origins must be aligned to the device's base alignment.
    let align = (device.mem_base_addr_align().expect("alignment") / 8) as usize;
    let step = align / 4;
    let whole = common::buffer_with(&context, &queue, &vec![0i32; 4 * step]);
    let other = common::buffer_with(&context, &queue, &vec![0i32; 4 * step]);
    let out = common::buffer_with(&context, &queue, &[-7i32; OUTPUTS]);
    // SAFETY: regions inside `whole`, at multiples of the base alignment.
    let first = unsafe { whole.create_sub_buffer(CL_MEM_READ_WRITE, step, step) }.expect("sub");
    let second =
        unsafe { whole.create_sub_buffer(CL_MEM_READ_WRITE, 2 * step, 2 * step) }.expect("sub");
    let arg = |mem: cl_mem, allocation, origin: usize| Arg {
        mem,
        allocation,
        origin: origin as i32,
    };
    let whole_arg = arg(whole.get(), Some(0), 0);
    let first_arg = arg(first.get(), Some(0), step);
    let second_arg = arg(second.get(), Some(0), 2 * step);
    let other_arg = arg(other.get(), Some(1), 0);
    let null_arg = arg(ptr::null_mut(), None, 0);
    let cases = [
        ("same buffer twice", whole_arg, whole_arg),
        ("buffer, then a sub-buffer of it", whole_arg, first_arg),
        ("sub-buffer, then its parent", first_arg, whole_arg),
        ("two sub-buffers of one buffer", first_arg, second_arg),
        ("the same sub-buffer twice", second_arg, second_arg),
        ("two different buffers", whole_arg, other_arg),
        ("a sub-buffer and another buffer", first_arg, other_arg),
        ("NULL and a buffer", null_arg, whole_arg),
        ("a buffer and NULL", whole_arg, null_arg),
        ("NULL twice", null_arg, null_arg),
    ];
    for (name, p, q) in cases {
        for k in [0, step as i32, -(step as i32)] {
            for pick in [false, true] {
                let got = launch(&queue, &kernel, &out, p, q, k, pick);
                let want = expected(p, q, k, pick);
                for (i, (&g, w)) in got.iter().zip(want).enumerate() {
                    if let Some(w) = w {
                        assert_eq!(g, w, "{name}, k {k}, pick {pick}: out[{i}] (all {got:?})");
                    }
                }
                // As integers, where the kernel compares no pointers.
                let got = launch(&queue, &integers, &out, p, q, k, pick);
                assert_eq!(got[0], want[0].unwrap_or(-1), "{name}: integers equal");
                if let Some(difference) = want[6] {
                    assert_eq!(got[1], difference, "{name}: integers' difference");
                }
            }
        }
    }
}
