//! Inputs that the fuzzers (`fuzz/fuzz_targets/`: the front end, the whole
//! build) found to panic, hang or overflow the stack, minimized into
//! `fuzz/regressions/*.cl`. The front end and the whole build must come
//! back from each, with or without errors, and a failed build's log must
//! not be an internal compiler error; nothing else is asserted.
//!
//! A file whose first line is `// fuzz-options: <options>` is checked with
//! that build option string, else with none. Each file is checked for a full
//! device and for a 32-bit one without `long` and `double`, as the fuzz
//! target does.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use translator::DeviceCaps;

/// Far more than any of these inputs needs, even in a debug build: past it
/// the input counts as a hang.
const TIME_LIMIT: Duration = Duration::from_secs(30);

/// The fuzzer runs its target on the main thread, with 8 MiB of stack.
const STACK: usize = 8 << 20;

fn regression_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions");
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    files.sort();
    files
}

fn small_device() -> DeviceCaps {
    DeviceCaps {
        address_bits: 32,
        int64: false,
        float64: false,
        int64_atomics: false,
        ..DeviceCaps::full()
    }
}

/// Runs the front end and the whole build on `text` on its own thread;
/// `Err` says why it did not come back, or came back wrong.
fn check_returns(text: String, options: String, caps: DeviceCaps) -> Result<(), &'static str> {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            let outcome = std::panic::catch_unwind(move || {
                let _ = translator::check_source(&text, &options, &caps);
                match translator::build(&text, &options, &caps) {
                    Err(translator::BuildError::Compile { log }) => {
                        !log.contains("internal compiler error")
                    }
                    _ => true,
                }
            });
            let _ = tx.send(match outcome {
                Ok(true) => Ok(()),
                Ok(false) => Err("internal compiler error"),
                Err(_) => Err("panicked"),
            });
        })
        .expect("spawn");
    match rx.recv_timeout(TIME_LIMIT) {
        Ok(outcome) => outcome,
        Err(_) => Err("did not finish in time (hang)"),
    }
}

#[test]
fn fuzz_regressions_do_not_panic_or_hang() {
    let mut failures = Vec::new();
    for path in regression_files() {
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let options = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("// fuzz-options:"))
            .map_or_else(String::new, |o| o.trim().to_string());
        for caps in [DeviceCaps::full(), small_device()] {
            let bits = caps.address_bits;
            if let Err(why) = check_returns(text.clone(), options.clone(), caps) {
                failures.push(format!("{} ({bits}-bit device): {why}", path.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
