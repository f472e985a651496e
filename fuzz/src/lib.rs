//! What the fuzz targets run on one input, shared by the libFuzzer targets
//! (`fuzz_targets/`) and the stable replay driver (`src/bin/replay.rs`):
//! how an input's bytes become a source, build options and a device, and
//! the two pipelines fuzzed. Nothing may panic, hang or overflow the
//! stack; malformed input must only produce diagnostics.

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

/// One fuzz input, decoded.
pub struct Input<'a> {
    pub source: &'a str,
    pub options: &'a str,
    /// Also run for a 32-bit device without `long` and `double`.
    pub small_device_too: bool,
}

/// Decodes `text` (the input's bytes, converted to UTF-8 lossily).
pub fn decode(text: &str) -> Input<'_> {
    let first = text.as_bytes().first().copied().unwrap_or(0);
    let (options, source) = if first % 16 == 15 {
        // The first line is the option string itself, to fuzz its parser.
        match text.split_once('\n') {
            Some((options, source)) => (options, source),
            None => (text, ""),
        }
    } else {
        (OPTIONS[first as usize % OPTIONS.len()], text)
    };
    // `-I` would let the fuzzer read the machine's files: keep it hermetic.
    let options = if options.contains("-I") { "" } else { options };
    Input {
        source,
        options,
        small_device_too: first & 0x80 != 0,
    }
}

/// The devices an input is built for.
pub fn devices(input: &Input<'_>) -> Vec<DeviceCaps> {
    let full = DeviceCaps::full();
    let mut devices = vec![full.clone()];
    if input.small_device_too {
        // A device without 64-bit types or doubles takes other paths.
        devices.push(DeviceCaps {
            address_bits: 32,
            int64: false,
            float64: false,
            int64_atomics: false,
            ..full
        });
    }
    devices
}

/// Preprocess + parse + check.
pub fn front_end(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let input = decode(&text);
    for caps in devices(&input) {
        // Ok or Err alike; only panics and hangs are bugs.
        let _ = translator::check_source(input.source, input.options, &caps);
    }
}

/// The whole build: preprocess, check, analysis, lowering, naga's
/// validation and SPIR-V writing, then what the runtime asks of each
/// kernel (its SPIR-V for a launch, its `__local` memory). A log with an
/// internal compiler error (naga rejected a module we made) is a
/// translator bug like a panic, and fails the input the same way.
pub fn build(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let input = decode(&text);
    for caps in devices(&input) {
        let program = match translator::build(input.source, input.options, &caps) {
            Ok(program) => program,
            Err(translator::BuildError::Compile { log }) => {
                assert!(
                    !log.contains("internal compiler error"),
                    "internal compiler error:\n{log}"
                );
                continue;
            }
            Err(_) => continue,
        };
        for kernel in &program.kernels {
            let _ = kernel.spirv([8, 2, 1], &[16; 4]);
            let _ = kernel.spirv_for_group([3, 1, 1], [8, 2, 1], &[]);
            let _ = kernel.static_local_bytes(64);
        }
    }
}

/// The pipelines a target may run, by the target's name.
pub fn target(name: &str) -> Option<fn(&[u8])> {
    match name {
        "front_end" => Some(front_end),
        "whole_build" => Some(build),
        _ => None,
    }
}
