//! `CLVULKAN_LOG`: the ICD's diagnostics, through the `log` facade, and the
//! switch of the API trace (`api::trace`), both written to one sink.
//!
//! The value is a comma-separated list of words, case-insensitive: a level
//! (`off`, `error`, `warn`, `info`, `debug`, `trace`; `warn` when none is
//! given) and `api`, which turns the API trace on (`api,info` does both).
//! Lines go to standard error, or are appended to the file that
//! `CLVULKAN_LOG_FILE` names. Every line starts with `clvulkan: `, like the
//! ICD's other diagnostics (`CLVULKAN_TRACE_TRANSFERS`, validation messages).
//!
//! The settings are read once, on first use (the first entry point an
//! application calls); after that, asking whether the trace is on is one
//! atomic load.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::sync::{Mutex, OnceLock, PoisonError};

use log::{LevelFilter, Log, Metadata, Record};

/// The variable that sets the level and the API trace.
pub const LOG_VARIABLE: &str = "CLVULKAN_LOG";
/// The variable naming a file to append the lines to instead of stderr.
pub const LOG_FILE_VARIABLE: &str = "CLVULKAN_LOG_FILE";

/// What `CLVULKAN_LOG` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The most detailed level written.
    pub level: LevelFilter,
    /// Whether every entry point is traced with its arguments and result.
    pub api: bool,
    /// Words of the value that mean nothing (warned about once the logger
    /// is up).
    pub unknown: Vec<String>,
}

/// The level words, in the order of `log`'s levels.
const LEVELS: [(&str, LevelFilter); 6] = [
    ("off", LevelFilter::Off),
    ("error", LevelFilter::Error),
    ("warn", LevelFilter::Warn),
    ("info", LevelFilter::Info),
    ("debug", LevelFilter::Debug),
    ("trace", LevelFilter::Trace),
];

impl Settings {
    /// Reads a value of `CLVULKAN_LOG` (`None` when unset).
    pub fn parse(value: Option<&str>) -> Settings {
        let mut settings = Settings {
            level: LevelFilter::Warn,
            api: false,
            unknown: Vec::new(),
        };
        for word in value.unwrap_or_default().split(',').map(str::trim) {
            let lower = word.to_ascii_lowercase();
            if word.is_empty() {
                continue;
            } else if lower == "api" {
                settings.api = true;
            } else if let Some(&(_, level)) = LEVELS.iter().find(|(name, _)| *name == lower) {
                settings.level = level;
            } else {
                settings.unknown.push(word.to_string());
            }
        }
        settings
    }
}

/// The settings, read (and the logger installed) on first use.
pub fn settings() -> &'static Settings {
    static SETTINGS: OnceLock<Settings> = OnceLock::new();
    SETTINGS.get_or_init(|| {
        let settings = Settings::parse(std::env::var(LOG_VARIABLE).ok().as_deref());
        // Another logger may already be installed when the runtime is used
        // as a Rust library (the CLI, in-process tests); it then decides.
        if log::set_logger(&LOGGER).is_ok() {
            log::set_max_level(settings.level);
        }
        for word in &settings.unknown {
            log::warn!(
                "{LOG_VARIABLE}: unknown word '{word}' ignored (expected api, off, error, warn, info, debug or trace)"
            );
        }
        settings
    })
}

/// Reads the settings and installs the logger, for users of the runtime as
/// a library that log before their first OpenCL call.
pub fn init() {
    settings();
}

/// Whether the API trace is on: one atomic load once initialised.
#[inline]
pub fn api_trace() -> bool {
    settings().api
}

/// Writes one line (ending in a newline) to the sink. Lines from several
/// threads never interleave, and a failed write is dropped: diagnostics
/// must not fail the call they describe.
pub fn write_line(line: &str) {
    match sink() {
        Sink::Stderr => {
            let _ = std::io::stderr().lock().write_all(line.as_bytes());
        }
        Sink::File(file) => {
            let mut file = file.lock().unwrap_or_else(PoisonError::into_inner);
            let _ = file.write_all(line.as_bytes());
        }
    }
}

/// Where lines go. The file is unbuffered, so nothing is lost when the
/// application exits without unloading the ICD.
enum Sink {
    Stderr,
    File(Mutex<File>),
}

fn sink() -> &'static Sink {
    static SINK: OnceLock<Sink> = OnceLock::new();
    SINK.get_or_init(|| match std::env::var_os(LOG_FILE_VARIABLE) {
        Some(path) if !path.is_empty() => {
            match OpenOptions::new().create(true).append(true).open(&path) {
                Ok(file) => Sink::File(Mutex::new(file)),
                Err(error) => {
                    let _ = writeln!(
                        std::io::stderr().lock(),
                        "clvulkan: warn: {LOG_FILE_VARIABLE}={}: {error}; logging to stderr",
                        path.to_string_lossy()
                    );
                    Sink::Stderr
                }
            }
        }
        _ => Sink::Stderr,
    })
}

/// The `log` implementation: clvulkan's own messages at the chosen level;
/// other crates' (the Vulkan allocator's) only when they are warnings or
/// errors, since their details mean little to an OpenCL user.
struct Logger;

static LOGGER: Logger = Logger;

impl Log for Logger {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        metadata.level() <= log::max_level()
            && (metadata.target().starts_with("clvulkan") || metadata.level() <= log::Level::Warn)
    }

    fn log(&self, record: &Record<'_>) {
        if self.enabled(record.metadata()) {
            let level = record.level().as_str().to_ascii_lowercase();
            write_line(&format!("clvulkan: {level}: {}\n", record.args()));
        }
    }

    fn flush(&self) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warn_without_the_variable() {
        let settings = Settings::parse(None);
        assert_eq!(settings.level, LevelFilter::Warn);
        assert!(!settings.api);
        assert_eq!(Settings::parse(Some("")), settings);
    }

    #[test]
    fn levels_and_api_combine_in_any_order() {
        let settings = Settings::parse(Some("api, INFO"));
        assert_eq!(settings.level, LevelFilter::Info);
        assert!(settings.api);
        let settings = Settings::parse(Some("debug,api"));
        assert_eq!(settings.level, LevelFilter::Debug);
        assert!(settings.api);
        let settings = Settings::parse(Some("api"));
        assert_eq!(settings.level, LevelFilter::Warn);
        assert!(settings.unknown.is_empty());
    }

    #[test]
    fn unknown_words_are_kept_for_a_warning() {
        let settings = Settings::parse(Some("verbose,off"));
        assert_eq!(settings.level, LevelFilter::Off);
        assert_eq!(settings.unknown, vec!["verbose".to_string()]);
    }
}
