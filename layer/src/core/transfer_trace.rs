//! `CLVULKAN_TRACE_TRANSFERS`: one line per host transfer (and per move of
//! a buffer between devices) saying which path it took, so a test or a
//! measurement can tell direct from staged.
//!
//! `1` or `stderr` writes to standard error; any other non-empty value is
//! the path of a file the lines are appended to. Each line is
//! `clvulkan: transfer: <command> <path> <bytes>`, for example
//! `clvulkan: transfer: read direct 4096`, or `move bridged <bytes>` for
//! a buffer moved between two devices. When a device is opened a line
//! says what its device-local memory offers and what transfers may use.

use std::fs::OpenOptions;
use std::io::Write;
use std::sync::{Mutex, OnceLock, PoisonError};

use crate::vulkan::DeviceLocalHostAccess;

/// The environment variable that turns tracing on.
pub const TRACE_VARIABLE: &str = "CLVULKAN_TRACE_TRANSFERS";

/// Which command moved data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    Read,
    Write,
    ReadRect,
    WriteRect,
    Map,
    Unmap,
    /// A buffer's contents moved from one device of a context to another
    /// ([`crate::core::migration`]).
    Move,
}

/// How it moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// The host copied to or from the buffer's own mapping (for a move,
    /// from one device's copy into the other's).
    Direct,
    /// A map pointing into the buffer, or an unmap of one.
    ZeroCopy,
    /// Through host-visible staging and a GPU copy.
    Staged,
    /// Through staging in parts (`core::transfer`, `core::migration`).
    Streamed,
    /// In parts through host memory imported into both devices, with no
    /// host copy (`core::bridge`).
    Bridged,
}

impl Command {
    fn name(self) -> &'static str {
        match self {
            Command::Read => "read",
            Command::Write => "write",
            Command::ReadRect => "read-rect",
            Command::WriteRect => "write-rect",
            Command::Map => "map",
            Command::Unmap => "unmap",
            Command::Move => "move",
        }
    }
}

impl Path {
    fn name(self) -> &'static str {
        match self {
            Path::Direct => "direct",
            Path::ZeroCopy => "zero-copy",
            Path::Staged => "staged",
            Path::Streamed => "streamed",
            Path::Bridged => "bridged",
        }
    }
}

enum Sink {
    Off,
    Stderr,
    /// The file's path; opened per line so that nothing is lost to
    /// buffering when the process exits.
    File(String),
}

fn sink() -> &'static Sink {
    static SINK: OnceLock<Sink> = OnceLock::new();
    SINK.get_or_init(|| match std::env::var(TRACE_VARIABLE) {
        Ok(value) if value == "1" || value == "stderr" => Sink::Stderr,
        Ok(value) if !value.is_empty() && value != "0" => Sink::File(value),
        _ => Sink::Off,
    })
}

/// Notes that `command` moved `bytes` bytes along `path`.
pub fn note(command: Command, path: Path, bytes: usize) {
    if matches!(path, Path::Staged | Path::Streamed) {
        log::debug!(
            "slow path: {} of {bytes} bytes {} through host-visible staging",
            command.name(),
            path.name()
        );
    }
    if matches!(sink(), Sink::Off) {
        return;
    }
    write_line(&format!(
        "clvulkan: transfer: {} {} {bytes}\n",
        command.name(),
        path.name()
    ));
}

/// Notes what a device's device-local memory is (`classified`) and what
/// the transfers may do with it (`effective`, none when switched off), as
/// `clvulkan: transfer: device <name>: unified, direct unified`.
pub fn note_device(
    name: &str,
    classified: DeviceLocalHostAccess,
    effective: DeviceLocalHostAccess,
) {
    if matches!(sink(), Sink::Off) {
        return;
    }
    let class = |access| match access {
        DeviceLocalHostAccess::Unified => "unified",
        DeviceLocalHostAccess::BarWindow => "bar-window",
        DeviceLocalHostAccess::None => "none",
    };
    write_line(&format!(
        "clvulkan: transfer: device {name}: {}, direct {}\n",
        class(classified),
        class(effective)
    ));
}

fn write_line(line: &str) {
    // Lines from concurrent transfers must not interleave.
    static WRITING: Mutex<()> = Mutex::new(());
    let _writing = WRITING.lock().unwrap_or_else(PoisonError::into_inner);
    // Tracing is a diagnostic: failing to write it must not fail the transfer.
    let _ = match sink() {
        Sink::Off => Ok(()),
        Sink::Stderr => std::io::stderr().write_all(line.as_bytes()),
        Sink::File(path) => OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut file| file.write_all(line.as_bytes())),
    };
}
