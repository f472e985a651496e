//! The on-disk pipeline cache: the driver's compiled pipelines survive the
//! process, so the second run of an application skips driver compilation
//! (tens of milliseconds per kernel on some drivers).
//!
//! One file per device and driver compiler (`pipelineCacheUUID`), under
//! `$CLVULKAN_CACHE_DIR`, else `$XDG_CACHE_HOME/clvulkan`, else
//! `~/.cache/clvulkan`; `CLVULKAN_CACHE_DIR=off` disables it. The data is
//! the driver's own, header-checked by the driver; a file it does not
//! accept only means an empty cache. Writes go to a temporary file that is
//! renamed over the old one, so concurrent processes never read half a file.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use super::instance::PhysicalDeviceInfo;

/// Caches larger than this are not loaded (a damaged or foreign file).
const MAX_BYTES: u64 = 512 << 20;

/// Where the cache of `info`'s device lives, or `None` when disabled or no
/// cache directory is known.
pub(crate) fn path(info: &PhysicalDeviceInfo) -> Option<PathBuf> {
    let dir = match std::env::var_os("CLVULKAN_CACHE_DIR") {
        Some(dir) if dir == "off" || dir.is_empty() => return None,
        Some(dir) => PathBuf::from(dir),
        None => std::env::var_os("XDG_CACHE_HOME")
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?
            .join("clvulkan"),
    };
    let uuid: String = info
        .pipeline_cache_uuid
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Some(dir.join(format!(
        "pipelines-{:04x}-{:04x}-{uuid}.bin",
        info.vendor_id, info.device_id
    )))
}

/// The cache file's bytes, or nothing when it is missing or unreadable.
pub(crate) fn load(info: &PhysicalDeviceInfo) -> Vec<u8> {
    let Some(path) = path(info) else {
        return Vec::new();
    };
    match std::fs::metadata(&path) {
        Ok(meta) if meta.len() <= MAX_BYTES => std::fs::read(&path).unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// Replaces the cache file with `data`. Failures are ignored: the cache is
/// an optimisation, and a read-only home must not break a build.
pub(crate) fn store(info: &PhysicalDeviceInfo, data: &[u8]) {
    let Some(path) = path(info) else { return };
    let Some(dir) = path.parent() else { return };
    if let Err(error) = std::fs::create_dir_all(dir) {
        log::info!("pipeline cache not stored, {}: {error}", dir.display());
        return;
    }
    // Unique within the process too: copies of one device (see
    // `Device::new_copy`) share the file and may store at once.
    static STORES: AtomicU64 = AtomicU64::new(0);
    let store = STORES.fetch_add(1, Ordering::Relaxed);
    let temporary = path.with_extension(format!("{}-{store}.tmp", std::process::id()));
    let stored = std::fs::write(&temporary, data).and_then(|()| std::fs::rename(&temporary, &path));
    if let Err(error) = stored {
        log::info!("pipeline cache not stored, {}: {error}", path.display());
        let _ = std::fs::remove_file(&temporary);
    }
}
