//! Front-end time: preprocess + parse + check of a realistic 1,000-line
//! OpenCL C source (`benches/data/kernels_1000.cl`: macro-heavy BLAS-style
//! code, helpers, float4 vector code, stencils), source to checked program.
//! This is what every `clBuildProgram` pays before lowering, in a session
//! that already holds the predefined macros' table (as a runtime's does
//! after its first build for the device).
//!
//! `frontend/check_source` is the whole front end; the others split it by
//! stage (preprocess alone, preprocess + parse, and the parser alone on
//! tokens preprocessed once), so a regression can be pinned on its stage.

// Links libclvulkan's global allocator (mimalloc), so the figures are what
// clBuildProgram pays inside the ICD.
use criterion::{criterion_group, criterion_main, Criterion};
use layer as _;
use std::hint::black_box;
use translator::diagnostic::{Diagnostics, SourceMap};
use translator::{preprocess, BuildOptions, DeviceCaps};

fn source() -> String {
    let path = format!(
        "{}/benches/data/kernels_1000.cl",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn frontend(c: &mut Criterion) {
    let source = source();
    let caps = DeviceCaps::full();
    let session = translator::Session::new();
    if let Err(e) = session.check_source(&source, "", &caps) {
        panic!("kernels_1000.cl must check without errors:\n{e}");
    }
    let options = BuildOptions::default();
    let prelude = preprocess::PreludeCache::default();
    let preprocessed = |source: &str| {
        let mut sources = SourceMap::default();
        let main = sources.add(translator::MAIN_FILE_NAME, source);
        let mut diags = Diagnostics::default();
        let input = preprocess::PreprocessInput {
            options: &options,
            caps: &caps,
            embedded_headers: &[],
            prelude: &prelude,
        };
        let tokens = preprocess::preprocess(&mut sources, main, &input, &mut diags);
        (tokens, diags)
    };

    c.bench_function("frontend/check_source", |b| {
        b.iter(|| session.check_source(black_box(&source), "", &caps))
    });
    c.bench_function("frontend/preprocess", |b| {
        b.iter(|| preprocessed(black_box(&source)))
    });
    c.bench_function("frontend/preprocess_parse", |b| {
        b.iter(|| {
            let (tokens, mut diags) = preprocessed(black_box(&source));
            translator::parse::parse(&tokens, &mut diags)
        })
    });
    // The parser alone (dropping its tree included): the tokens are made once.
    let (tokens, diags) = preprocessed(&source);
    assert!(!diags.has_errors());
    c.bench_function("frontend/parse", |b| {
        b.iter(|| {
            let mut diags = Diagnostics::default();
            translator::parse::parse(black_box(&tokens), &mut diags)
        })
    });
}

criterion_group!(benches, frontend);
criterion_main!(benches);
