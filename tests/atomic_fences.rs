//! Fences (`atomic_work_item_fence`, `mem_fence` and its read/write
//! forms) inside loops that work-items leave at different iterations,
//! through the ICD (`tests/kernels/atomic_fences.cl`, after the
//! OpenCL-CTS's `atomic_flag` test): every work-item of a 256-item group
//! must finish and claim a critical section of its own, and every flag
//! must be clear at the end. Lavapipe suspends a work-group at each
//! memory barrier as at `barrier()`, so such fences ended its work-groups
//! with most work-items unfinished (10 of 1024 sections claimed).

mod common;

use common::launch::{build_file as build, run_1d as run, set_arg as arg};
use common::{buffer_with as buffer, read_buffer as read};
use opencl3::kernel::Kernel;

const GROUP: usize = 256;
const GROUPS: usize = 3;

/// Each group's sections are claimed once each, by the group's own
/// work-items, each work-item claiming exactly one.
fn check_owners(owners: &[i32], what: &str) {
    for g in 0..GROUPS {
        let mut claimed: Vec<i32> = owners[g * GROUP..(g + 1) * GROUP].to_vec();
        claimed.sort_unstable();
        let want: Vec<i32> = ((g * GROUP) as i32..((g + 1) * GROUP) as i32).collect();
        assert_eq!(claimed, want, "{what}: owners of group {g}'s sections");
    }
}

#[test]
fn local_flags_with_fences_in_divergent_loops() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/atomic_fences.cl");
    let kernel = Kernel::create(&program, "claim_local").expect("kernel");
    let n = GROUP * GROUPS;
    let owner = buffer(&context, &queue, &vec![-1i32; n]);
    let flags_after = buffer(&context, &queue, &vec![7i32; n]);
    arg(&kernel, 0, &owner);
    arg(&kernel, 1, &flags_after);
    run(&queue, &kernel, n, GROUP);
    check_owners(&read(&queue, &owner, n), "__local flags");
    assert_eq!(
        read(&queue, &flags_after, n),
        vec![0; n],
        "every __local flag clear at the end"
    );
}

#[test]
fn global_flags_with_mem_fences_in_divergent_loops() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/atomic_fences.cl");
    let kernel = Kernel::create(&program, "claim_global").expect("kernel");
    let n = GROUP * GROUPS;
    let flags = buffer(&context, &queue, &vec![0i32; n]);
    let owner = buffer(&context, &queue, &vec![-1i32; n]);
    arg(&kernel, 0, &flags);
    arg(&kernel, 1, &owner);
    run(&queue, &kernel, n, GROUP);
    check_owners(&read(&queue, &owner, n), "__global flags");
    assert_eq!(
        read(&queue, &flags, n),
        vec![0; n],
        "every __global flag clear at the end"
    );
}
