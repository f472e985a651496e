//! Preprocess + parse + check of arbitrary input (`clvulkan_fuzz::front_end`):
//! nothing may panic, hang or overflow the stack; malformed input must only
//! produce diagnostics.
//!
//! The first byte also picks a build option string, so the `-D`/`-U`
//! command-line path, `-cl-std=` and the warning switches get fuzzed too.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| clvulkan_fuzz::front_end(data));
