//! Runs the front end (preprocess + parse + check) on
//! `benches/data/kernels_1000.cl` N times (first argument, default 1), for
//! instruction counts under callgrind: the difference between N = 11 and
//! N = 1, over 10, is the per-call figure `docs/performance.md` reports.
//! A second argument `spirv` builds to SPIR-V instead; any other second
//! argument is the path of an OpenCL C file to check instead of
//! `kernels_1000.cl`. The runs share one [`translator::Session`], as a
//! runtime's builds for one device do. Links the ICD's allocator, as
//! `clBuildProgram` runs inside it.

use layer as _;

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let mode = std::env::args().nth(2).unwrap_or_default();
    let spirv = mode == "spirv";
    let path = if spirv || mode.is_empty() {
        concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data/kernels_1000.cl")
    } else {
        &mode
    };
    let source = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let caps = translator::DeviceCaps::full();
    let session = translator::Session::new();
    for _ in 0..runs {
        if spirv {
            let program = session
                .build(std::hint::black_box(&source), "", &caps)
                .expect("build");
            for k in &program.kernels {
                std::hint::black_box(k.spirv([64, 1, 1], &[]).expect("spirv"));
            }
        } else {
            let checked = session.check_source(std::hint::black_box(&source), "", &caps);
            assert!(checked.is_ok(), "{path} must check");
        }
    }
}
