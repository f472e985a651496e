//! SGEMM, reduction, N-body and histogram (the compute workloads of
//! clvulkan-compare) on clvulkan alone.

mod common;

use clvulkan_compare::Group;
use criterion::{criterion_group, criterion_main, Criterion};

fn compute(c: &mut Criterion) {
    common::bench_group(c, Group::Compute);
}

criterion_group!(benches, compute);
criterion_main!(benches);
