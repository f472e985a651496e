//! `CLVULKAN_DEVICES`: which Vulkan devices become OpenCL devices.
//!
//! The value is a comma-separated list; each entry is an index (the
//! numbering `clvulkan info` prints, which is the order of
//! `vulkan::Instance::physical_devices`: GPUs first) or a case-insensitive
//! substring of the device's name. A device is taken when any entry picks
//! it, in the instance's order. Unset or empty takes every device. Devices
//! Vulkan reports but clvulkan cannot use are skipped whatever the value
//! says, with the reason logged.

/// The environment variable.
pub const DEVICES_VARIABLE: &str = "CLVULKAN_DEVICES";

/// One entry of the list.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Pick {
    Index(usize),
    /// Lower-cased, to compare with lower-cased names.
    NameContains(String),
}

/// The parsed value: `None` takes every device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceSelection {
    picks: Option<Vec<Pick>>,
}

impl DeviceSelection {
    /// Reads a value of [`DEVICES_VARIABLE`] (`None` when unset).
    pub fn parse(value: Option<&str>) -> DeviceSelection {
        let picks: Vec<Pick> = value
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
            .filter(|entry| !entry.is_empty())
            .map(|entry| match entry.parse() {
                Ok(index) => Pick::Index(index),
                Err(_) => Pick::NameContains(entry.to_lowercase()),
            })
            .collect();
        DeviceSelection {
            picks: (!picks.is_empty()).then_some(picks),
        }
    }

    /// Whether every device is taken (no selection was made).
    pub fn takes_all(&self) -> bool {
        self.picks.is_none()
    }

    /// Whether the device at `index` named `name` is picked.
    pub fn picks(&self, index: usize, name: &str) -> bool {
        let Some(picks) = &self.picks else {
            return true;
        };
        let name = name.to_lowercase();
        picks.iter().any(|pick| match pick {
            Pick::Index(wanted) => *wanted == index,
            Pick::NameContains(part) => name.contains(part.as_str()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::DeviceSelection;

    #[test]
    fn unset_or_empty_takes_every_device() {
        for value in [None, Some(""), Some(" , ")] {
            let selection = DeviceSelection::parse(value);
            assert!(selection.takes_all());
            assert!(selection.picks(3, "anything"));
        }
    }

    #[test]
    fn indices_and_name_parts_pick_devices() {
        let selection = DeviceSelection::parse(Some("1, GeForce"));
        assert!(!selection.takes_all());
        assert!(selection.picks(1, "llvmpipe (LLVM 15.0.6, 256 bits)"));
        assert!(!selection.picks(0, "llvmpipe (LLVM 15.0.6, 256 bits)"));
        assert!(selection.picks(0, "NVIDIA GeForce RTX 4090"));
        assert!(DeviceSelection::parse(Some("LLVMPIPE")).picks(0, "llvmpipe (LLVM 15)"));
        assert!(!DeviceSelection::parse(Some("radeon")).picks(0, "llvmpipe (LLVM 15)"));
    }
}
