//! Bandwidth of the copy kernel, clEnqueueCopyBuffer, and blocking writes
//! and reads (the memory workloads of clvulkan-compare) on clvulkan alone.

mod common;

use clvulkan_compare::Group;
use criterion::{criterion_group, criterion_main, Criterion};

fn memory(c: &mut Criterion) {
    common::bench_group(c, Group::Memory);
}

criterion_group!(benches, memory);
criterion_main!(benches);
