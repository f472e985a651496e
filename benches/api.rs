//! Build time and launch costs (the `build`, `roundtrip`, `launches` and
//! `set-arg` workloads of clvulkan-compare) on clvulkan alone.

mod common;

use clvulkan_compare::Group;
use criterion::{criterion_group, criterion_main, Criterion};

fn build(c: &mut Criterion) {
    common::bench_group(c, Group::Build);
}

fn api(c: &mut Criterion) {
    common::bench_group(c, Group::Api);
}

criterion_group!(benches, build, api);
criterion_main!(benches);
