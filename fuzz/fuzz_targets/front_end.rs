//! Preprocess + parse + check of arbitrary input: nothing may panic, hang or
//! overflow the stack; malformed input must only produce diagnostics.
//!
//! The first byte also picks a build option string, so the `-D`/`-U`
//! command-line path, `-cl-std=` and the warning switches get fuzzed too.

#![no_main]

use libfuzzer_sys::fuzz_target;
use translator::DeviceCaps;

/// Option strings the first byte chooses from (the source still includes
/// that byte); when its low four bits are all set, the first line of the
/// input is the option string instead.
const OPTIONS: &[&str] = &[
    "",
    "",
    "",
    "",
    "-D N=4 -DF(x)=((x)*2) -U N",
    "-cl-std=CL1.2",
    "-cl-std=CL2.0 -cl-fast-relaxed-math",
    "-w",
    "-Werror",
    "-DX -DY=X -D 'G(a,...)=a __VA_ARGS__'",
];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let first = data.first().copied().unwrap_or(0);
    let (options, text) = if first % 16 == 15 {
        // The first line is the option string itself, to fuzz its parser.
        match text.split_once('\n') {
            Some((options, source)) => (options, source),
            None => (&*text, ""),
        }
    } else {
        (OPTIONS[first as usize % OPTIONS.len()], &*text)
    };
    // `-I` would let the fuzzer read the machine's files: keep it hermetic.
    let options = if options.contains("-I") { "" } else { options };
    let caps = DeviceCaps::full();
    // Ok or Err alike; only panics and hangs are bugs.
    let _ = translator::check_source(text, options, &caps);
    if first & 0x80 != 0 {
        // A device without 64-bit types or doubles takes other paths.
        let mut small = caps.clone();
        small.int64 = false;
        small.float64 = false;
        small.address_bits = 32;
        let _ = translator::check_source(text, options, &small);
    }
});
