//! Translation time, source to SPIR-V, of small kernels (the test
//! corpus's `vecadd`, `saxpy`, `control_flow`, `helpers`), a medium
//! ~500-line, the 1,000-line (issue 4's figure) and a large ~2,000-line
//! macro-heavy source, `math20`, one kernel calling 20 software math
//! built-ins, and `cxx_500`, a 500-line templated C++ for OpenCL program
//! (issue 22's figure): the part of clBuildProgram that is ours, plus
//! patching each kernel's SPIR-V for a launch. The builds share a [`translator::Session`],
//! as a runtime's builds for one device do.

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

/// The medium (~500 lines, 51 kernels) and large (~2,000 lines,
/// macro-heavy, 172 kernels) inputs, which `benches/data/make_sources.py`
/// makes from `kernels_1000.cl`, and `cxx_500.cl`, the C++ kernels of
/// `tests/kernels` in one unit.
fn bench_data(name: &str) -> String {
    let path = format!("{}/benches/data/{name}.cl", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn translate(c: &mut Criterion) {
    let caps = DeviceCaps::full();
    let session = translator::Session::new();
    let sources = ["vecadd", "saxpy", "control_flow", "helpers"]
        .map(|name| (name, kernel_source(name), ""))
        .into_iter()
        .chain(
            ["kernels_500", "kernels_1000", "kernels_2000", "math20"]
                .map(|name| (name, bench_data(name), "")),
        )
        .chain([("cxx_500", bench_data("cxx_500"), "-cl-std=CLC++")]);
    for (name, source, options) in sources {
        c.bench_function(&format!("translate/{name}"), |b| {
            b.iter(|| {
                let program = session
                    .build(black_box(&source), options, &caps)
                    .expect("build");
                for k in &program.kernels {
                    black_box(k.spirv([64, 1, 1], &[]).expect("spirv"));
                }
            })
        });
    }
}

criterion_group!(benches, translate);
criterion_main!(benches);
