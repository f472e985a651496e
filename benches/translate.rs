//! Translation time, source to SPIR-V, of the slice kernels: the part of
//! clBuildProgram that is ours.

// Links libclvulkan's global allocator (mimalloc), so the figures are what
// clBuildProgram pays inside the ICD.
use criterion::{criterion_group, criterion_main, Criterion};
use layer as _;
use std::hint::black_box;
use translator::DeviceCaps;

fn kernel_source(name: &str) -> String {
    let path = format!("{}/tests/kernels/{name}.cl", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn translate(c: &mut Criterion) {
    let caps = DeviceCaps::full();
    for name in ["vecadd", "saxpy", "control_flow", "helpers"] {
        let source = kernel_source(name);
        c.bench_function(&format!("translate/{name}"), |b| {
            b.iter(|| {
                let program = translator::build(black_box(&source), "", &caps).expect("build");
                for k in &program.kernels {
                    black_box(k.spirv([64, 1, 1], &[]).expect("spirv"));
                }
            })
        });
    }
}

criterion_group!(benches, translate);
criterion_main!(benches);
