//! clvulkan's program binary format (`CL_PROGRAM_BINARIES`,
//! `clCreateProgramWithBinary`): what one device's build is saved as.
//!
//! All integers are little-endian; a string is a `u32` byte length then
//! UTF-8 bytes. In order:
//!
//! | field              | encoding                                              |
//! |--------------------|-------------------------------------------------------|
//! | magic              | the 8 bytes `CLVKPRG\0`                               |
//! | format version     | `u32` ([`FORMAT_VERSION`])                            |
//! | clvulkan version   | string (the ICD's crate version)                      |
//! | translator version | string ([`translator::VERSION`])                      |
//! | device identity    | `u32` vendor id, `u32` device id, `u32` driver version, 16-byte device UUID, string device name |
//! | binary type        | `u32`: 1 compiled object, 2 library, 4 executable (the `CL_PROGRAM_BINARY_TYPE_*` values) |
//! | options            | string: the compile or build options                  |
//! | unit               | string: the translation unit (below)                  |
//! | kernels            | `u32` count, then per kernel a string name and a `u32` argument count |
//! | checksum           | `u64` FNV-1a of every byte before it                  |
//!
//! The payload is the *unit*: the preprocessed, checked OpenCL C that
//! [`translator::compile_unit`] produces (every `#include` and macro
//! resolved, tokens on their original lines). It is not SPIR-V: each
//! kernel's SPIR-V is a template patched per launch (work-group size,
//! `__local` lengths) and comes with reflection that would need an
//! encoding of its own, while the unit translates again in about a
//! millisecond. Loading a binary
//! translates the unit again with the recorded options; the kernel table
//! is checked against that result. A binary from another clvulkan or
//! translator version, or for another device, is stale and rejected, as is
//! one whose checksum or structure does not hold (truncation, corruption).
//! Decoding never panics: every read is bounds-checked.

use opencl_sys::{
    cl_program_binary_type, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
    CL_PROGRAM_BINARY_TYPE_EXECUTABLE, CL_PROGRAM_BINARY_TYPE_LIBRARY,
};

use crate::vulkan::PhysicalDeviceInfo;

const MAGIC: [u8; 8] = *b"CLVKPRG\0";
/// Bumped whenever the layout above changes.
pub const FORMAT_VERSION: u32 = 1;
const CLVULKAN_VERSION: &str = env!("CARGO_PKG_VERSION");
const CHECKSUM_BYTES: usize = 8;

/// The device a binary was built for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceIdentity {
    pub vendor_id: u32,
    pub device_id: u32,
    pub driver_version: u32,
    pub uuid: [u8; 16],
    pub name: String,
}

impl DeviceIdentity {
    pub fn of(info: &PhysicalDeviceInfo) -> Self {
        DeviceIdentity {
            vendor_id: info.vendor_id,
            device_id: info.device_id,
            driver_version: info.driver_version,
            uuid: info.device_uuid,
            name: info.name.clone(),
        }
    }
}

/// The kind of build a binary holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryKind {
    CompiledObject,
    Library,
    Executable,
}

/// `(kind, CL_PROGRAM_BINARY_TYPE_*)`: the format stores the OpenCL value.
const KIND_VALUES: [(BinaryKind, cl_program_binary_type); 3] = [
    (
        BinaryKind::CompiledObject,
        CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
    ),
    (BinaryKind::Library, CL_PROGRAM_BINARY_TYPE_LIBRARY),
    (BinaryKind::Executable, CL_PROGRAM_BINARY_TYPE_EXECUTABLE),
];

impl BinaryKind {
    pub fn cl_value(self) -> cl_program_binary_type {
        KIND_VALUES
            .iter()
            .find(|(kind, _)| *kind == self)
            .map_or(0, |&(_, value)| value)
    }

    fn from_cl_value(value: cl_program_binary_type) -> Option<Self> {
        KIND_VALUES
            .iter()
            .find(|&&(_, v)| v == value)
            .map(|&(kind, _)| kind)
    }
}

/// One kernel of an executable, as the binary records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelEntry {
    pub name: String,
    pub arg_count: u32,
}

/// A decoded binary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramBinary {
    pub device: DeviceIdentity,
    pub kind: BinaryKind,
    pub options: String,
    pub unit: String,
    pub kernels: Vec<KernelEntry>,
}

/// Why a binary was rejected (all are `CL_INVALID_BINARY`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BinaryError {
    /// Not a clvulkan binary at all.
    NotOurs,
    /// Cut short, checksum mismatch, or a field that does not parse.
    Corrupt,
    /// Another format version, clvulkan or translator version.
    Stale,
    /// Built for another device.
    OtherDevice,
}

impl ProgramBinary {
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Writer(Vec::with_capacity(self.unit.len() + 256));
        out.0.extend_from_slice(&MAGIC);
        out.u32(FORMAT_VERSION);
        out.string(CLVULKAN_VERSION);
        out.string(translator::VERSION);
        out.u32(self.device.vendor_id);
        out.u32(self.device.device_id);
        out.u32(self.device.driver_version);
        out.0.extend_from_slice(&self.device.uuid);
        out.string(&self.device.name);
        out.u32(self.kind.cl_value());
        out.string(&self.options);
        out.string(&self.unit);
        out.u32(self.kernels.len() as u32);
        for kernel in &self.kernels {
            out.string(&kernel.name);
            out.u32(kernel.arg_count);
        }
        let checksum = fnv1a(&out.0);
        out.0.extend_from_slice(&checksum.to_le_bytes());
        out.0
    }

    /// Decodes `bytes` and checks that they were built by this clvulkan for
    /// `device`.
    pub fn decode(bytes: &[u8], device: &DeviceIdentity) -> Result<Self, BinaryError> {
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(BinaryError::NotOurs);
        }
        let body_len = bytes
            .len()
            .checked_sub(CHECKSUM_BYTES)
            .ok_or(BinaryError::Corrupt)?;
        let (body, checksum) = bytes.split_at(body_len);
        let checksum = u64::from_le_bytes(checksum.try_into().map_err(|_| BinaryError::Corrupt)?);
        if body_len < MAGIC.len() || fnv1a(body) != checksum {
            return Err(BinaryError::Corrupt);
        }
        let mut reader = Reader {
            bytes: body,
            at: MAGIC.len(),
        };
        if reader.u32()? != FORMAT_VERSION
            || reader.string()? != CLVULKAN_VERSION
            || reader.string()? != translator::VERSION
        {
            return Err(BinaryError::Stale);
        }
        let identity = DeviceIdentity {
            vendor_id: reader.u32()?,
            device_id: reader.u32()?,
            driver_version: reader.u32()?,
            uuid: reader.array()?,
            name: reader.string()?,
        };
        if identity != *device {
            return Err(BinaryError::OtherDevice);
        }
        let kind = BinaryKind::from_cl_value(reader.u32()?).ok_or(BinaryError::Corrupt)?;
        let options = reader.string()?;
        let unit = reader.string()?;
        let count = reader.u32()?;
        let mut kernels = Vec::new();
        for _ in 0..count {
            kernels.push(KernelEntry {
                name: reader.string()?,
                arg_count: reader.u32()?,
            });
        }
        if reader.at != body.len() {
            return Err(BinaryError::Corrupt);
        }
        Ok(ProgramBinary {
            device: identity,
            kind,
            options,
            unit,
            kernels,
        })
    }
}

/// 64-bit FNV-1a. Each step is a bijection of the state for a fixed input
/// byte, so any change of a single byte always changes the result.
fn fnv1a(bytes: &[u8]) -> u64 {
    const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0100_0000_01b3;
    bytes.iter().fold(OFFSET_BASIS, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(PRIME)
    })
}

struct Writer(Vec<u8>);

impl Writer {
    fn u32(&mut self, value: u32) {
        self.0.extend_from_slice(&value.to_le_bytes());
    }

    fn string(&mut self, value: &str) {
        self.u32(value.len() as u32);
        self.0.extend_from_slice(value.as_bytes());
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, len: usize) -> Result<&[u8], BinaryError> {
        let end = self.at.checked_add(len).ok_or(BinaryError::Corrupt)?;
        let taken = self.bytes.get(self.at..end).ok_or(BinaryError::Corrupt)?;
        self.at = end;
        Ok(taken)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], BinaryError> {
        self.take(N)?.try_into().map_err(|_| BinaryError::Corrupt)
    }

    fn u32(&mut self) -> Result<u32, BinaryError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn string(&mut self) -> Result<String, BinaryError> {
        let len = self.u32()? as usize;
        let bytes = self.take(len)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| BinaryError::Corrupt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn device() -> DeviceIdentity {
        DeviceIdentity {
            vendor_id: 0x10005,
            device_id: 7,
            driver_version: 42,
            uuid: [3; 16],
            name: "llvmpipe".to_owned(),
        }
    }

    fn sample() -> ProgramBinary {
        ProgramBinary {
            device: device(),
            kind: BinaryKind::Executable,
            options: "-cl-fast-relaxed-math".to_owned(),
            unit: "#line 1 \"<source>\"\nkernel void k(global int *p) { p[0] = 1; }\n".to_owned(),
            kernels: vec![KernelEntry {
                name: "k".to_owned(),
                arg_count: 1,
            }],
        }
    }

    #[test]
    fn round_trips() {
        let binary = sample();
        assert_eq!(
            ProgramBinary::decode(&binary.encode(), &device()),
            Ok(binary)
        );
    }

    #[test]
    fn every_truncation_is_rejected() {
        let bytes = sample().encode();
        for len in 0..bytes.len() {
            let error = ProgramBinary::decode(&bytes[..len], &device()).unwrap_err();
            let expected = if len < MAGIC.len() {
                BinaryError::NotOurs
            } else {
                BinaryError::Corrupt
            };
            assert_eq!(error, expected, "length {len}");
        }
    }

    #[test]
    fn every_byte_flip_is_rejected() {
        let bytes = sample().encode();
        // A deterministic pseudo-random flip pattern per position.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for at in 0..bytes.len() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mut corrupt = bytes.clone();
            corrupt[at] ^= (state as u8) | 1;
            assert!(
                ProgramBinary::decode(&corrupt, &device()).is_err(),
                "flip at {at}"
            );
        }
    }

    #[test]
    fn another_device_or_version_is_rejected() {
        let bytes = sample().encode();
        let mut other = device();
        other.uuid[0] ^= 1;
        assert_eq!(
            ProgramBinary::decode(&bytes, &other),
            Err(BinaryError::OtherDevice)
        );
        // The same binary with another translator version and a valid
        // checksum: stale, not corrupt.
        let mut stale = bytes.clone();
        let version_at = MAGIC.len() + 4 + 4 + CLVULKAN_VERSION.len() + 4;
        stale[version_at] ^= 1;
        let body = stale.len() - CHECKSUM_BYTES;
        let checksum = fnv1a(&stale[..body]).to_le_bytes();
        stale[body..].copy_from_slice(&checksum);
        assert_eq!(
            ProgramBinary::decode(&stale, &device()),
            Err(BinaryError::Stale)
        );
    }

    #[test]
    fn arbitrary_bytes_never_panic() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for len in 0..512usize {
            let mut bytes: Vec<u8> = (0..len)
                .map(|_| {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1);
                    (state >> 56) as u8
                })
                .collect();
            if len >= MAGIC.len() {
                bytes[..MAGIC.len()].copy_from_slice(&MAGIC);
            }
            // With a valid checksum too, so the structure parser is reached.
            if len >= MAGIC.len() + CHECKSUM_BYTES {
                let body = len - CHECKSUM_BYTES;
                let checksum = fnv1a(&bytes[..body]).to_le_bytes();
                bytes[body..].copy_from_slice(&checksum);
            }
            assert!(ProgramBinary::decode(&bytes, &device()).is_err());
        }
    }
}
