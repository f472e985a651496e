//! The whole build of arbitrary input (`clvulkan_fuzz::build`): preprocess,
//! check, analysis, lowering, naga's validation and SPIR-V writing, and the
//! launch-time patching of each kernel's SPIR-V. Nothing may panic, hang or
//! overflow the stack; malformed input must only produce diagnostics. An
//! internal compiler error in the log (naga rejected a module we made) fails
//! the input too.
//!
//! Inputs are decoded as for `front_end` (the first byte picks the options).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| clvulkan_fuzz::build(data));
