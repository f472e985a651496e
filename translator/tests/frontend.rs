//! The front-end corpus (`tests/frontend/`): kernels written the way real
//! applications write them must check clean, and deliberately wrong kernels
//! must give the diagnostics their `// expect:` lines name, at the right line
//! and column.
//!
//! * `valid/*.cl`: each must pass [`translator::check_source`] with no error.
//! * `invalid/*.cl`: each has exactly one deliberate error and one or more
//!   lines `// expect: LINE:COL: error: TEXT`; the log must hold, for each, an
//!   error `<source>:LINE:COL: error: ...` whose message contains `TEXT`.
//!
//! A file whose first line is `// options: ...` is checked with those build
//! options; one with a line `// device: no cl_khr_fp16` is checked for a
//! device without `half`. Both tests collect every failure and list them all at the end,
//! after a summary line, so one run shows how far the checker has come:
//!
//! ```text
//! cargo test -p clvulkan-translator --test frontend -- --ignored --nocapture
//! ```
//!
//! `FRONTEND_FILTER=name` limits a run to the files whose name contains
//! `name` (then the corpus-size checks are skipped); `FRONTEND_VERBOSE=1`
//! lists every error of each failing file instead of the first ones.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use translator::{BuildError, DeviceCaps, MAIN_FILE_NAME};

/// The issue asks for at least this many kernels on each side.
const MIN_CORPUS: usize = 60;

fn verbose() -> bool {
    std::env::var_os("FRONTEND_VERBOSE").is_some_and(|v| !v.is_empty() && v != "0")
}

fn filter() -> Option<String> {
    std::env::var("FRONTEND_FILTER")
        .ok()
        .filter(|f| !f.is_empty())
}

/// The `.cl` files of `tests/frontend/<kind>`, sorted, after the filter.
fn corpus(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/frontend")
        .join(kind);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    files.sort();
    match filter() {
        Some(f) => files.retain(|p| name_of(p).contains(&f)),
        None => assert!(
            files.len() >= MIN_CORPUS,
            "{} has {} kernels, the corpus needs at least {MIN_CORPUS}",
            dir.display(),
            files.len()
        ),
    }
    files
}

fn name_of(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The build options from a first line `// options: ...`, else none.
fn options_of(source: &str) -> &str {
    source
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("// options:"))
        .map_or("", str::trim)
}

/// What a check came to: the log when it passed, or why it failed.
enum Outcome {
    Clean(String),
    Errors(String),
    /// Invalid options, or a panic in the checker.
    Broken(String),
}

/// The device a file is checked for: [`DeviceCaps::full`], less `half`
/// when a line says `// device: no cl_khr_fp16`.
fn caps_of(source: &str) -> DeviceCaps {
    let mut caps = DeviceCaps::full();
    if source
        .lines()
        .any(|l| l.trim() == "// device: no cl_khr_fp16")
    {
        caps.float16 = false;
    }
    caps
}

fn check(source: &str) -> Outcome {
    let options = options_of(source);
    let caps = caps_of(source);
    match catch_unwind(AssertUnwindSafe(|| {
        translator::check_source(source, options, &caps)
    })) {
        Ok(Ok(log)) => Outcome::Clean(log),
        Ok(Err(BuildError::Compile { log })) => Outcome::Errors(log),
        Ok(Err(e)) => Outcome::Broken(format!("{e} (options '{options}')")),
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("(no message)");
            Outcome::Broken(format!("the checker panicked: {message}"))
        }
    }
}

/// The diagnostic lines of a log (`<source>:L:C: ...`), without the source
/// excerpts and carets under them.
fn diagnostic_lines(log: &str) -> impl Iterator<Item = &str> {
    log.lines()
        .filter(|l| l.starts_with(MAIN_FILE_NAME) || l.contains(": error: "))
}

/// The first `limit` error lines of a log (all of them when verbose), one a
/// line after `indent`.
fn errors(log: &str, limit: usize, indent: &str) -> String {
    let limit = if verbose() { usize::MAX } else { limit };
    let lines: Vec<&str> = diagnostic_lines(log)
        .filter(|l| l.contains(": error: "))
        .take(limit)
        .collect();
    if lines.is_empty() {
        return log.lines().next().unwrap_or("(empty log)").to_string();
    }
    lines.join(&format!("\n{indent}"))
}

#[test]
fn valid_corpus_checks_clean() {
    let files = corpus("valid");
    let mut failures = Vec::new();
    for path in &files {
        let source = std::fs::read_to_string(path).expect("read kernel");
        match check(&source) {
            Outcome::Clean(_) => {}
            Outcome::Errors(log) => {
                failures.push(format!("{}: {}", name_of(path), errors(&log, 1, "    ")))
            }
            Outcome::Broken(why) => failures.push(format!("{}: {why}", name_of(path))),
        }
    }
    println!(
        "valid: {}/{} clean",
        files.len() - failures.len(),
        files.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} valid kernels do not check clean:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// One `// expect: LINE:COL: error: TEXT` line.
struct Expectation {
    line: u32,
    column: u32,
    text: String,
}

impl Expectation {
    fn parse(line: &str) -> Option<Self> {
        let rest = line.strip_prefix("// expect:")?.trim();
        let (position, text) = rest.split_once(": error: ")?;
        let (l, c) = position.split_once(':')?;
        Some(Expectation {
            line: l.trim().parse().ok()?,
            column: c.trim().parse().ok()?,
            text: text.trim().to_string(),
        })
    }

    /// The `<source>:LINE:COL: error: ` that must start a matching line.
    fn prefix(&self) -> String {
        format!("{MAIN_FILE_NAME}:{}:{}: error: ", self.line, self.column)
    }

    fn met_by(&self, log: &str) -> bool {
        let prefix = self.prefix();
        log.lines().any(|l| {
            l.strip_prefix(&prefix)
                .is_some_and(|message| message.contains(&self.text))
        })
    }
}

impl std::fmt::Display for Expectation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: error: {}", self.line, self.column, self.text)
    }
}

/// Why an invalid kernel did not give what it expects, or `None`.
fn invalid_mismatch(source: &str) -> Option<String> {
    let expected: Vec<Expectation> = source
        .lines()
        .filter(|l| l.starts_with("// expect:"))
        .map(|l| Expectation::parse(l).unwrap_or_else(|| panic!("malformed line '{l}'")))
        .collect();
    if expected.is_empty() {
        return Some("the file has no '// expect: LINE:COL: error: TEXT' line".into());
    }
    let log = match check(source) {
        Outcome::Clean(log) => {
            let warnings: Vec<&str> = diagnostic_lines(&log).take(3).collect();
            return Some(format!(
                "no error reported{}",
                if warnings.is_empty() {
                    String::new()
                } else {
                    format!("; warnings:\n      {}", warnings.join("\n      "))
                }
            ));
        }
        Outcome::Errors(log) => log,
        Outcome::Broken(why) => return Some(why),
    };
    let missing: Vec<String> = expected
        .iter()
        .filter(|e| !e.met_by(&log))
        .map(|e| format!("expected {e}"))
        .collect();
    if missing.is_empty() {
        return None;
    }
    Some(format!(
        "{}\n      got: {}",
        missing.join("\n    "),
        errors(&log, 3, "           ")
    ))
}

#[test]
fn invalid_corpus_reports_expected_diagnostics() {
    let files = corpus("invalid");
    let mut failures = Vec::new();
    for path in &files {
        let source = std::fs::read_to_string(path).expect("read kernel");
        if let Some(why) = invalid_mismatch(&source) {
            failures.push(format!("{}:\n    {why}", name_of(path)));
        }
    }
    println!(
        "invalid: {}/{} as expected",
        files.len() - failures.len(),
        files.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} invalid kernels do not give the expected diagnostics:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
