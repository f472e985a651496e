//! Shared by the api, memory and compute benches: the ICD selection of
//! `roundtrip.rs`, and one criterion group per workload group that runs the
//! `clvulkan-compare` workloads, so each workload exists once.

use clvulkan_compare::harness::Metric;
use clvulkan_compare::{all, Config, Group, Side};
use criterion::{Criterion, Throughput};
use std::time::Duration;

/// Points the loader at the freshly built ICD unless the caller chose one
/// (`OCL_ICD_VENDORS` set: compare against another platform).
fn select_icd() {
    if std::env::var_os("OCL_ICD_VENDORS").is_some() {
        return;
    }
    let exe = std::env::current_exe().expect("bench path");
    let lib = exe
        .parent()
        .and_then(|d| d.parent())
        .expect("target/<profile>")
        .join("libclvulkan.so");
    assert!(
        lib.exists(),
        "{} missing: cargo build --release -p clvulkan-layer",
        lib.display()
    );
    // SAFETY: set before any thread that reads the environment starts.
    unsafe {
        std::env::set_var("OCL_ICD_VENDORS", &lib);
        std::env::set_var("OCL_ICD_FILENAMES", &lib);
    }
}

/// Benches every workload of `group` except the single-shot first-result
/// one on the selected platform (its first, by default clvulkan), with the
/// sizes `clcompare` uses for that device (`--quick` sizes on CPU devices).
pub fn bench_group(c: &mut Criterion, group: Group) {
    select_icd();
    let side = Side::open("").expect("an OpenCL platform");
    let cfg = Config::for_sides(side.is_cpu(), &[&side]);
    let platform = side.platform_name.clone();
    for workload in all()
        .into_iter()
        .filter(|w| w.group == group && w.name != "first-result")
    {
        let mut prepared = match (workload.prepare)(&side, &cfg) {
            Ok(p) => p,
            Err(f) => {
                eprintln!("{}: skipped: {f:?}", workload.name);
                continue;
            }
        };
        let mut g = c.benchmark_group(workload.name);
        g.sample_size(10).warm_up_time(Duration::from_millis(500));
        match prepared.metric() {
            Metric::Rate {
                amount,
                unit: "GB/s",
                ..
            } => {
                g.throughput(Throughput::Bytes(amount as u64));
            }
            Metric::Rate { amount, .. } => {
                g.throughput(Throughput::Elements(amount as u64));
            }
            Metric::Cost { count, .. } => {
                g.throughput(Throughput::Elements(count as u64));
            }
        }
        // A filter on the command line may skip the bench; then there is
        // nothing to verify.
        let mut ran = false;
        g.bench_function(&platform, |b| {
            ran = true;
            b.iter(|| prepared.run().expect("run"));
        });
        g.finish();
        if ran {
            if let Err(why) = prepared.verify() {
                panic!("{}: WRONG result: {why}", workload.name);
            }
        }
    }
}
