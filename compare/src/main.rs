//! `clcompare`: runs every workload on two OpenCL platforms, chosen by a
//! substring of their names, and prints one row per workload; with
//! `--devices 2`, the multi-device workloads on a context of two devices of
//! each platform.

use clvulkan_compare::harness::{Better, Outcome};
use clvulkan_compare::pair::{Pair, PairError};
use clvulkan_compare::pair_report::{PairReport, PairRow};
use clvulkan_compare::report::{now_utc, Report, Row};
use clvulkan_compare::side::{platform_names, Side};
use clvulkan_compare::workloads::two_devices;
use clvulkan_compare::{all, by_name, run_workload, run_workload_on_both, Config};
use std::process::{Command, ExitCode};

const USAGE: &str = "usage: clcompare --a <platform> --b <platform> [--quick] [--only name,...] \
[--markdown] [--fresh N] [--devices 2]
       clcompare --first-result-only --a <platform> [--quick]
       clcompare --alone <workload> --a <platform> [--quick]
       clcompare --list

Platforms are chosen by a case-insensitive substring of their names.
  --quick              small sizes, few repetitions (CPU devices, smoke tests)
  --only a,b           run only these workloads (see --list)
  --markdown           print the table as Markdown
  --fresh N            also measure time to first result in N fresh processes
                       per side and report the median (default 3, 0: off)
  --first-result-only  measure time to first result once on --a and exit
  --alone NAME         measure one workload on --a alone in this process and exit
                       (--fresh also runs the round trip this way, per side)
  --devices 2          run the multi-device workloads instead (see --list): each
                       side opens one context of its platform's first two devices
                       (GPUs first) with a queue on each, and reports the
                       two-device figure, the same work on device 0 of that
                       context alone, and their ratio; a platform without two
                       devices is reported as needing them";

#[derive(Default)]
struct Args {
    a: Option<String>,
    b: Option<String>,
    quick: bool,
    only: Option<Vec<String>>,
    markdown: bool,
    fresh: usize,
    first_result_only: bool,
    /// `--alone NAME`: measure one workload on --a alone and exit.
    alone: Option<String>,
    list: bool,
    /// 1: the one-device workloads; 2: the multi-device ones.
    devices: usize,
}

fn parse(mut it: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut args = Args {
        fresh: 3,
        devices: 1,
        ..Args::default()
    };
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--a" => args.a = Some(value()?),
            "--b" => args.b = Some(value()?),
            "--quick" => args.quick = true,
            "--markdown" => args.markdown = true,
            "--only" => args.only = Some(value()?.split(',').map(str::to_string).collect()),
            "--fresh" => {
                args.fresh = value()?
                    .parse()
                    .map_err(|_| "--fresh needs a count".to_string())?
            }
            "--devices" => {
                args.devices = match value()?.as_str() {
                    "1" => 1,
                    "2" => 2,
                    _ => return Err("--devices takes 1 or 2".into()),
                }
            }
            "--first-result-only" => args.first_result_only = true,
            "--alone" => {
                let name = value()?;
                if by_name(&name).is_none() {
                    return Err(format!("no workload '{name}' (see --list)"));
                }
                args.alone = Some(name);
            }
            "--list" => args.list = true,
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument '{other}'\n{USAGE}")),
        }
    }
    // Each mode has its own workloads.
    if let Some(only) = &args.only {
        let known = |n: &str| match args.devices {
            2 => two_devices::by_name(n).is_some(),
            _ => by_name(n).is_some(),
        };
        if let Some(bad) = only.iter().find(|n| !known(n)) {
            let mode = if args.devices == 2 {
                " with --devices 2"
            } else {
                ""
            };
            return Err(format!("no workload '{bad}'{mode} (see --list)"));
        }
    }
    if args.devices == 2 && (args.first_result_only || args.alone.is_some()) {
        return Err("--first-result-only and --alone measure one device".into());
    }
    Ok(args)
}

/// The machine-readable line a `--first-result-only` child prints.
const FRESH_TAG: &str = "first-result-ms ";

/// The machine-readable line an `--alone` child prints: the figure, then
/// its unit.
const ALONE_TAG: &str = "alone ";

/// Workloads also measured with each side alone in processes of its own
/// (`--fresh`), away from the other implementation's runtime threads: a
/// round trip is microseconds, and applications load one implementation.
const ALONE_WORKLOADS: &[&str] = &["roundtrip"];

/// `--first-result-only` and `--alone NAME`: one workload on `--a`, in
/// this process alone, its figure printed as a tagged line.
fn measure_alone(args: &Args, name: &str, tag: &str) -> ExitCode {
    let Some(a) = &args.a else {
        eprintln!("--first-result-only and --alone need --a");
        return ExitCode::FAILURE;
    };
    let side = match Side::open(a) {
        Ok(s) => s,
        Err(e) => {
            println!("failed: {e}");
            return ExitCode::FAILURE;
        }
    };
    let cfg = Config::for_sides(args.quick, &[&side]);
    let workload = by_name(name).expect("checked when parsed");
    match run_workload(&workload, &side, &cfg) {
        Outcome::Measured {
            value,
            unit,
            better,
            ..
        } => {
            if tag == ALONE_TAG {
                let better = match better {
                    Better::Lower => "lower",
                    Better::Higher => "higher",
                };
                println!("{tag}{value} {unit} {better}");
            } else {
                println!("{tag}{value}");
            }
            ExitCode::SUCCESS
        }
        Outcome::Wrong(why) => {
            println!("WRONG: {why}");
            ExitCode::FAILURE
        }
        Outcome::Unsupported(why) => {
            println!("unsupported: {why}");
            ExitCode::FAILURE
        }
        Outcome::Failed(why) => {
            println!("failed: {why}");
            ExitCode::FAILURE
        }
    }
}

/// The median time to first result over `runs` fresh processes of this
/// binary on `platform`. `warm`: every process builds the same source, and
/// one unmeasured process runs first to fill the on-disk caches.
fn fresh_first_result(platform: &str, runs: usize, quick: bool, warm: bool) -> Outcome {
    let child = |cmd: &mut Command| {
        cmd.args(["--first-result-only", "--a", platform]);
        if warm {
            cmd.env("CLCOMPARE_WARM", "1");
        }
    };
    let skip = usize::from(warm);
    in_fresh_processes(runs, skip, quick, FRESH_TAG, child).map_or_else(
        |failed| failed,
        |(value, _)| Outcome::Measured {
            value,
            unit: "ms",
            better: Better::Lower,
            runs,
        },
    )
}

/// `workload` measured on `platform` alone in each of `runs` processes of
/// its own; the median process's figure.
fn alone_in_fresh_processes(platform: &str, workload: &str, runs: usize, quick: bool) -> Outcome {
    let child = |cmd: &mut Command| {
        cmd.args(["--alone", workload, "--a", platform]);
    };
    match in_fresh_processes(runs, 0, quick, ALONE_TAG, child) {
        Ok((value, rest)) => {
            let mut words = rest.split_whitespace();
            let unit = match words.next() {
                Some("us") => "us",
                Some("ms") => "ms",
                Some("GB/s") => "GB/s",
                Some("GFLOP/s") => "GFLOP/s",
                _ => "",
            };
            let better = if words.next() == Some("lower") {
                Better::Lower
            } else {
                Better::Higher
            };
            Outcome::Measured {
                value,
                unit,
                better,
                runs,
            }
        }
        Err(failed) => failed,
    }
}

/// Runs this binary `runs + skip` times as set by `child`, reads the
/// figure each prints after `tag`, and returns the median of all but the
/// first `skip` with the rest of its line (the unit); or the first
/// child's verdict where one gave no figure.
fn in_fresh_processes(
    runs: usize,
    skip: usize,
    quick: bool,
    tag: &str,
    child: impl Fn(&mut Command),
) -> Result<(f64, String), Outcome> {
    let exe = std::env::current_exe().map_err(|e| Outcome::Failed(format!("own path: {e}")))?;
    let mut values = Vec::new();
    for run in 0..runs + skip {
        let mut cmd = Command::new(&exe);
        child(&mut cmd);
        if quick {
            cmd.arg("--quick");
        }
        let out = cmd
            .output()
            .map_err(|e| Outcome::Failed(format!("spawn: {e}")))?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        let parsed = stdout
            .lines()
            .find_map(|l| l.strip_prefix(tag))
            .and_then(|v| {
                let (value, rest) = v.split_once(' ').unwrap_or((v, ""));
                Some((value.trim().parse::<f64>().ok()?, rest.to_owned()))
            });
        let Some(value) = parsed else {
            let said = stdout.lines().last().unwrap_or("").to_string();
            let stderr = String::from_utf8_lossy(&out.stderr);
            let said = if said.is_empty() {
                stderr.lines().last().unwrap_or("no output").to_string()
            } else {
                said
            };
            // The child's own verdict where it gave one.
            return Err(if let Some(why) = said.strip_prefix("unsupported: ") {
                Outcome::Unsupported(why.into())
            } else if let Some(why) = said.strip_prefix("WRONG: ") {
                Outcome::Wrong(why.into())
            } else {
                Outcome::Failed(format!("fresh process ({}): {said}", out.status))
            });
        };
        if run >= skip {
            values.push(value);
        }
    }
    values.sort_by(|a: &(f64, String), b| a.0.total_cmp(&b.0));
    values
        .get(values.len() / 2)
        .cloned()
        .ok_or_else(|| Outcome::Failed("no runs".into()))
}

/// `--devices 2`: the multi-device workloads on a pair of devices of each
/// platform. A platform without two devices gives its side no figures
/// (the report says why); any other failure to open one ends the run.
fn two_device_mode(args: &Args, a_name: &str, b_name: &str) -> ExitCode {
    let open = |name: &str| match Pair::open(name) {
        Ok(pair) => Some(Ok(pair)),
        Err(e @ PairError::NeedsTwoDevices(_)) => {
            eprintln!("{name}: {e}");
            Some(Err(e.to_string()))
        }
        Err(PairError::Failed(e)) => {
            eprintln!("{e}");
            None
        }
    };
    let Some(a) = open(a_name) else {
        return ExitCode::FAILURE;
    };
    let Some(b) = open(b_name) else {
        return ExitCode::FAILURE;
    };
    let pairs: Vec<&Pair> = [&a, &b].into_iter().flat_map(|p| p.as_ref().ok()).collect();
    if pairs.is_empty() {
        return ExitCode::FAILURE;
    }
    let cfg = Config::for_pairs(args.quick, &pairs);
    let rows = two_devices::all()
        .into_iter()
        .filter(|w| {
            args.only
                .as_ref()
                .is_none_or(|only| only.iter().any(|n| n == w.name))
        })
        .map(|w| {
            eprintln!("{} ...", w.name);
            let run = |side: &Result<Pair, String>| {
                side.as_ref().ok().map(|p| two_devices::run(&w, p, &cfg))
            };
            PairRow {
                name: w.name.into(),
                what: w.what.into(),
                a: run(&a),
                b: run(&b),
            }
        })
        .collect();
    let report = PairReport {
        date: now_utc(),
        a: a.as_ref().map(Pair::identity).map_err(Clone::clone),
        b: b.as_ref().map(Pair::identity).map_err(Clone::clone),
        sizes: format!(
            "{}sgemm n={}, stream {} MiB over both devices, migrate {} MiB",
            if cfg.quick { "--quick: " } else { "" },
            cfg.sgemm_n,
            cfg.copy_bytes >> 20,
            cfg.migrate_bytes >> 20,
        ),
        rows,
        notes: vec![
            "figures are medians of host-clock timings after warm-up; two-device runs enqueue on both queues, clFlush both, then clFinish both".into(),
            "inputs are written to buffers of each device's own before timing; the one-device figure is the one-device workload on device 0 of the same context".into(),
            "migrate: bytes over (median run with the move - median run of the same two kernels on device 0 alone), runs alternating".into(),
        ],
    };
    if args.markdown {
        print!("{}", report.markdown());
    } else {
        print!("{}", report.text());
    }
    if report.all_correct() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    if args.list {
        for w in all() {
            println!("{:<14}{:?}: {}", w.name, w.group, w.what);
        }
        println!("with --devices 2:");
        for w in two_devices::all() {
            println!("{:<14}{}", w.name, w.what);
        }
        println!("platforms: {}", platform_names().join(", "));
        return ExitCode::SUCCESS;
    }
    if args.first_result_only {
        return measure_alone(&args, "first-result", FRESH_TAG);
    }
    if let Some(name) = args.alone.clone() {
        return measure_alone(&args, &name, ALONE_TAG);
    }
    let (Some(a_name), Some(b_name)) = (&args.a, &args.b) else {
        eprintln!("{USAGE}");
        return ExitCode::FAILURE;
    };
    if args.devices == 2 {
        return two_device_mode(&args, a_name, b_name);
    }
    let selected: Vec<_> = all()
        .into_iter()
        .filter(|w| {
            args.only
                .as_ref()
                .is_none_or(|only| only.iter().any(|n| n == w.name))
        })
        .collect();
    // Before this process loads either implementation's state.
    let fresh = if args.fresh > 0 && selected.iter().any(|w| w.name == "first-result") {
        eprintln!(
            "first-result in {} fresh processes per side ...",
            args.fresh
        );
        Some([false, true].map(|warm| {
            (
                fresh_first_result(a_name, args.fresh, args.quick, warm),
                fresh_first_result(b_name, args.fresh, args.quick, warm),
            )
        }))
    } else {
        None
    };
    // Also before this process opens either side: each side alone.
    let alone: Vec<(&str, Outcome, Outcome)> = if args.fresh > 0 {
        selected
            .iter()
            .filter(|w| ALONE_WORKLOADS.contains(&w.name))
            .map(|w| {
                eprintln!(
                    "{} in {} processes of its own per side ...",
                    w.name, args.fresh
                );
                (
                    w.name,
                    alone_in_fresh_processes(a_name, w.name, args.fresh, args.quick),
                    alone_in_fresh_processes(b_name, w.name, args.fresh, args.quick),
                )
            })
            .collect()
    } else {
        Vec::new()
    };
    let open = |name: &str| {
        Side::open(name).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1);
        })
    };
    let a = open(a_name);
    let b = open(b_name);
    let cfg = Config::for_sides(args.quick, &[&a, &b]);
    let mut rows = Vec::new();
    for w in &selected {
        eprintln!("{} ...", w.name);
        let (oa, ob) = run_workload_on_both(w, &a, &b, &cfg);
        rows.push(Row {
            name: w.name.into(),
            what: w.what.into(),
            a: oa,
            b: ob,
        });
        if let Some((_, a_alone, b_alone)) = alone.iter().find(|(name, ..)| *name == w.name) {
            rows.push(Row {
                name: format!("{}-alone", w.name),
                what: format!(
                    "the same with each side alone in its process, median of {} processes",
                    args.fresh
                ),
                a: a_alone.clone(),
                b: b_alone.clone(),
            });
        }
        if w.name == "first-result" {
            if let Some([(fa, fb), (wa, wb)]) = fresh.clone() {
                rows.push(Row {
                    name: "first-result-fresh".into(),
                    what: format!(
                        "the same in a fresh process each time, median of {}",
                        args.fresh
                    ),
                    a: fa,
                    b: fb,
                });
                rows.push(Row {
                    name: "first-result-warm".into(),
                    what: format!(
                        "fresh processes building a source built before (on-disk caches warm), median of {}",
                        args.fresh
                    ),
                    a: wa,
                    b: wb,
                });
            }
        }
    }
    let report = Report {
        date: now_utc(),
        a: a.identity(),
        b: b.identity(),
        sizes: format!(
            "{}copy {} MiB, sgemm n={}, reduce {} Mi floats, nbody n={}, histogram {} MiB, images {}x{}, {} launches",
            if cfg.quick { "--quick: " } else { "" },
            cfg.copy_bytes >> 20,
            cfg.sgemm_n,
            cfg.reduce_n >> 20,
            cfg.nbody_n,
            cfg.histogram_bytes >> 20,
            cfg.image_side,
            cfg.image_side,
            cfg.launches
        ),
        rows,
        notes: vec![
            "figures are medians of host-clock timings around enqueue + clFinish, after warm-up".into(),
            "first-result in-process runs before any other workload, but after both platforms were opened; first-result-fresh is the honest figure".into(),
            "each timed build gets a unique CLCOMPARE_NONCE that changes its code, so no compiler cache answers it".into(),
            "build is clBuildProgram alone: clvulkan creates Vulkan pipelines at first launch and PoCL generates work-group code at first launch; first-result includes that work".into(),
        ],
    };
    if args.markdown {
        print!("{}", report.markdown());
    } else {
        print!("{}", report.text());
    }
    let all_ok = report
        .rows
        .iter()
        .all(|r| !matches!(r.a, Outcome::Wrong(_)) && !matches!(r.b, Outcome::Wrong(_)));
    if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
