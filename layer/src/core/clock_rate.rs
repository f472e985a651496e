//! `CL_DEVICE_MAX_CLOCK_FREQUENCY`. Vulkan has no query for clock rates, so
//! a CPU device (lavapipe runs kernels on the host's cores) takes the
//! host's from the operating system; GPUs report 0, the value for
//! "unknown".

use std::fs;

/// Where Linux states a core's highest frequency, in kHz.
const CPUFREQ_MAX_KHZ: &str = "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq";
/// Where Linux states each core's current frequency (`cpu MHz : 2596.122`),
/// the only figure in virtual machines without cpufreq.
const CPUINFO: &str = "/proc/cpuinfo";

/// The host's highest core frequency in MHz, or 0 where the system does
/// not say.
pub fn host_max_mhz() -> u32 {
    fs::read_to_string(CPUFREQ_MAX_KHZ)
        .ok()
        .and_then(|khz| khz.trim().parse::<u32>().ok())
        .map(|khz| khz / 1000)
        .or_else(|| {
            fs::read_to_string(CPUINFO)
                .ok()
                .map(|text| cpuinfo_max_mhz(&text))
        })
        .unwrap_or(0)
}

/// The largest `cpu MHz` line of `/proc/cpuinfo`, rounded to whole MHz.
fn cpuinfo_max_mhz(cpuinfo: &str) -> u32 {
    cpuinfo
        .lines()
        .filter_map(|line| line.split_once(':'))
        .filter(|(key, _)| key.trim() == "cpu MHz")
        .filter_map(|(_, value)| value.trim().parse::<f64>().ok())
        .map(|mhz| mhz.round() as u32)
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fastest_core_of_cpuinfo() {
        let text = "processor\t: 0\ncpu MHz\t\t: 2596.122\n\nprocessor\t: 1\ncpu MHz\t\t: 3400.600\nflags\t\t: fpu\n";
        assert_eq!(cpuinfo_max_mhz(text), 3401);
        assert_eq!(cpuinfo_max_mhz("flags : fpu\n"), 0);
    }
}
