//! The fuzz targets on a stable toolchain, without libFuzzer: replays files
//! and folders through a target, each input with a time limit, and can then
//! mutate them for a while, deterministically from a seed. It has no
//! coverage feedback (libFuzzer's job, `cargo fuzz run`); it is for replaying
//! a corpus or a regression, and for short fixed-seed runs where libFuzzer
//! cannot be built.
//!
//! ```text
//! replay [--target whole_build|front_end] [--time-limit SECS] [--mutate SECS]
//!        [--runs N] [--seed N] [--max-len BYTES] [--artifacts DIR] PATH...
//! ```
//!
//! Each input runs on a worker thread with an 8 MiB stack, as libFuzzer's
//! main thread has. A panic is reported and the run goes on; an input past
//! the time limit is a hang, and the run stops there (the worker cannot be
//! stopped). The input being run is kept in `DIR/current` first, so one
//! that overflows the stack and aborts the process is there to see.
//! Failing inputs are written to `DIR/crash-<n>` and `DIR/hang-<n>`; the
//! exit status is 1 when there were any.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

struct Options {
    target: fn(&[u8]),
    time_limit: Duration,
    mutate_for: Duration,
    /// At most this many mutated inputs: with a seed, the same inputs on
    /// every machine, however fast.
    runs: u64,
    seed: u64,
    max_len: usize,
    artifacts: PathBuf,
    paths: Vec<PathBuf>,
}

fn usage(why: &str) -> ! {
    eprintln!("replay: {why}");
    eprintln!(
        "usage: replay [--target whole_build|front_end] [--time-limit SECS] [--mutate SECS] \
         [--runs N] [--seed N] [--max-len BYTES] [--artifacts DIR] PATH..."
    );
    std::process::exit(2)
}

fn options() -> Options {
    let mut o = Options {
        target: clvulkan_fuzz::build,
        time_limit: Duration::from_secs(10),
        mutate_for: Duration::ZERO,
        runs: u64::MAX,
        seed: 1,
        max_len: 4096,
        artifacts: PathBuf::from("artifacts/replay"),
        paths: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .unwrap_or_else(|| usage(&format!("{name} needs a value")))
        };
        let number = |v: String| {
            v.parse::<u64>()
                .unwrap_or_else(|_| usage(&format!("not a number: {v}")))
        };
        match arg.as_str() {
            "--target" => {
                let name = value("--target");
                o.target = clvulkan_fuzz::target(&name)
                    .unwrap_or_else(|| usage(&format!("no target {name}")));
            }
            "--time-limit" => o.time_limit = Duration::from_secs(number(value("--time-limit"))),
            "--mutate" => o.mutate_for = Duration::from_secs(number(value("--mutate"))),
            "--runs" => o.runs = number(value("--runs")),
            "--seed" => o.seed = number(value("--seed")),
            "--max-len" => o.max_len = number(value("--max-len")) as usize,
            "--artifacts" => o.artifacts = PathBuf::from(value("--artifacts")),
            _ if arg.starts_with("--") => usage(&format!("unknown option {arg}")),
            _ => o.paths.push(PathBuf::from(arg)),
        }
    }
    if o.paths.is_empty() {
        usage("no inputs");
    }
    o
}

/// Every file under `path`, in a stable order.
fn files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .unwrap_or_else(|e| usage(&format!("{}: {e}", path.display())))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for entry in entries {
            files(&entry, out);
        }
    } else {
        out.push(path.to_path_buf());
    }
}

/// A small deterministic generator (xorshift64*): the same seed gives the
/// same run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Tokens worth inserting: the shapes that reach deep into the checker
/// and the lowering.
const DICTIONARY: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ";",
    ",",
    ".",
    "->",
    "=",
    "+",
    "*",
    "&",
    "&&",
    "||",
    "?",
    ":",
    "<<",
    ">>",
    "!",
    "~",
    "++",
    "--",
    "0",
    "1",
    "-1",
    "0x7fffffff",
    "1.0f",
    "0.5",
    "'a'",
    "\"s\"",
    "int",
    "uint",
    "long",
    "float",
    "double",
    "half",
    "char",
    "short",
    "bool",
    "void",
    "float4",
    "int2",
    "uchar16",
    "double3",
    "struct S { int a; float b[2]; }",
    "union U",
    "typedef",
    "const",
    "volatile",
    "restrict",
    "__global",
    "__local",
    "__constant",
    "__private",
    "global int *",
    "kernel void k(",
    "__kernel",
    "if (",
    "else",
    "while (",
    "for (;;)",
    "do",
    "switch (",
    "case 1:",
    "default:",
    "break;",
    "continue;",
    "return",
    "goto l;",
    "l:",
    "sizeof",
    "vec_step",
    "__attribute__((aligned(8)))",
    "#define M(x) x\n",
    "#if 1\n",
    "#endif\n",
    "#include",
    "get_global_id(0)",
    "barrier(CLK_LOCAL_MEM_FENCE)",
    "atomic_add(",
    "atomic_inc(",
    "vload4(0, ",
    "vstore4(",
    "as_float(",
    "convert_int4(",
    "printf(\"%d\", ",
    "async_work_group_copy(",
    "work_group_reduce_add(",
    ".xyzw",
    ".s0",
    ".hi",
    ".lo",
    "(int4)(1)",
    "{ .a = 1 }",
    "[1] = ",
    "= {",
    "NULL",
    "(void*)0",
];

/// One to four edits of `input`, with pieces of `other` or the dictionary.
fn mutate(rng: &mut Rng, input: &[u8], other: &[u8], max_len: usize) -> Vec<u8> {
    let mut data = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(data.len() + 1);
        match rng.below(7) {
            0 if !data.is_empty() => {
                let at = at.min(data.len() - 1);
                data[at] ^= 1 << rng.below(8);
            }
            1 if !data.is_empty() => {
                let end = (at + 1 + rng.below(16)).min(data.len());
                data.drain(at.min(end)..end);
            }
            2 | 3 => {
                let word = DICTIONARY[rng.below(DICTIONARY.len())];
                data.splice(at..at, word.bytes());
            }
            4 if !data.is_empty() => {
                // Repeat a piece: chains, nesting.
                let start = rng.below(data.len());
                let end = (start + 1 + rng.below(32)).min(data.len());
                let piece = data[start..end].to_vec();
                for _ in 0..1 + rng.below(8) {
                    data.splice(at..at, piece.iter().copied());
                }
            }
            5 if !other.is_empty() => {
                let start = rng.below(other.len());
                let end = (start + 1 + rng.below(256)).min(other.len());
                data.splice(at..at, other[start..end].iter().copied());
            }
            _ => {
                const PUNCTUATION: &[u8] = b"{}()[];,.*&+-=<>?:!~\"'#\n 0aZ_";
                if !data.is_empty() {
                    let at = at.min(data.len() - 1);
                    data[at] = PUNCTUATION[rng.below(PUNCTUATION.len())];
                }
            }
        }
    }
    data.truncate(max_len);
    data
}

/// Runs inputs on one worker thread, each with a time limit.
struct Runner {
    inputs: mpsc::Sender<Vec<u8>>,
    outcomes: mpsc::Receiver<bool>,
    time_limit: Duration,
    artifacts: PathBuf,
    failures: usize,
}

enum Outcome {
    Passed,
    Panicked,
    Hung,
}

impl Runner {
    fn new(target: fn(&[u8]), time_limit: Duration, artifacts: PathBuf) -> Self {
        let (inputs, work) = mpsc::channel::<Vec<u8>>();
        let (done, outcomes) = mpsc::channel();
        std::thread::Builder::new()
            .name("target".into())
            .stack_size(8 << 20)
            .spawn(move || {
                for data in work {
                    let passed = std::panic::catch_unwind(|| target(&data)).is_ok();
                    if done.send(passed).is_err() {
                        break;
                    }
                }
            })
            .expect("spawn the target's thread");
        std::fs::create_dir_all(&artifacts)
            .unwrap_or_else(|e| usage(&format!("{}: {e}", artifacts.display())));
        Runner {
            inputs,
            outcomes,
            time_limit,
            artifacts,
            failures: 0,
        }
    }

    fn run(&mut self, data: &[u8]) -> Outcome {
        // Kept first, for an input that takes the process down.
        let _ = std::fs::write(self.artifacts.join("current"), data);
        self.inputs
            .send(data.to_vec())
            .expect("the target's thread");
        let outcome = match self.outcomes.recv_timeout(self.time_limit) {
            Ok(true) => return Outcome::Passed,
            Ok(false) => Outcome::Panicked,
            Err(_) => Outcome::Hung,
        };
        self.failures += 1;
        let kind = match outcome {
            Outcome::Hung => "hang",
            _ => "crash",
        };
        let path = self.artifacts.join(format!("{kind}-{}", self.failures));
        let _ = std::fs::write(&path, data);
        eprintln!("replay: {kind}: input written to {}", path.display());
        outcome
    }
}

fn main() {
    let o = options();
    let mut paths = Vec::new();
    for p in &o.paths {
        files(p, &mut paths);
    }
    let corpus: Vec<Vec<u8>> = paths
        .iter()
        .map(|p| std::fs::read(p).unwrap_or_else(|e| usage(&format!("{}: {e}", p.display()))))
        .collect();
    let mut runner = Runner::new(o.target, o.time_limit, o.artifacts.clone());
    let started = Instant::now();
    for (path, data) in paths.iter().zip(&corpus) {
        if let Outcome::Hung = runner.run(data) {
            eprintln!(
                "replay: {} did not finish in {:?}",
                path.display(),
                o.time_limit
            );
            std::process::exit(1);
        }
    }
    let replayed = started.elapsed();
    println!(
        "replayed {} inputs in {:.1} s, {} failing",
        corpus.len(),
        replayed.as_secs_f64(),
        runner.failures
    );
    if !o.mutate_for.is_zero() && !corpus.is_empty() {
        let mut rng = Rng(o.seed.max(1));
        let (started, mut runs) = (Instant::now(), 0u64);
        while started.elapsed() < o.mutate_for && runs < o.runs {
            let input = &corpus[rng.below(corpus.len())];
            let other = &corpus[rng.below(corpus.len())];
            let data = mutate(&mut rng, input, other, o.max_len);
            runs += 1;
            if let Outcome::Hung = runner.run(&data) {
                eprintln!(
                    "replay: a mutated input did not finish in {:?}",
                    o.time_limit
                );
                std::process::exit(1);
            }
        }
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "mutated {runs} inputs in {seconds:.0} s ({:.0}/s, seed {}), {} failing",
            runs as f64 / seconds,
            o.seed,
            runner.failures
        );
    }
    let _ = std::fs::remove_file(o.artifacts.join("current"));
    if runner.failures > 0 {
        std::process::exit(1);
    }
}
