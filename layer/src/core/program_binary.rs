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
//! | unit kind          | `u32`: 0 OpenCL C, 1 SPIR-V                           |
//! | unit               | OpenCL C: string, the translation unit (below); SPIR-V: `u32` module count, then per module a `u32` word count, the words, a `u32` count of specialization constants set and per constant a `u32` SpecId and its `u64` value |
//! | kernels            | `u32` count, then per kernel a string name and a `u32` argument count |
//! | checksum           | `u64` FNV-1a of every byte before it                  |
//!
//! The payload is the *unit*: the preprocessed, checked OpenCL C that
//! [`translator::compile_unit`] produces (every `#include` and macro
//! resolved, tokens on their original lines), or for a program created
//! from SPIR-V the modules the application gave, with the values of the
//! specialization constants set when it was built. It is not the Vulkan
//! SPIR-V that runs: each
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

use translator::il::SpecValues;

use crate::vulkan::PhysicalDeviceInfo;

const MAGIC: [u8; 8] = *b"CLVKPRG\0";
/// Bumped whenever the layout above changes: 2 added the unit kind (and
/// SPIR-V units); a binary of version 1 is refused as stale.
pub const FORMAT_VERSION: u32 = 2;
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

/// What a binary is built from (see [`crate::core::program::Unit`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BinaryUnit {
    /// An OpenCL C translation unit.
    Source(String),
    /// SPIR-V modules, each its words and its specialization constant
    /// values by SpecId.
    Il(Vec<(Vec<u32>, SpecValues)>),
}

/// The `unit kind` field.
const UNIT_SOURCE: u32 = 0;
const UNIT_IL: u32 = 1;

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
    pub unit: BinaryUnit,
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
        let mut out = Writer(Vec::with_capacity(256));
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
        match &self.unit {
            BinaryUnit::Source(text) => {
                out.u32(UNIT_SOURCE);
                out.string(text);
            }
            BinaryUnit::Il(modules) => {
                out.u32(UNIT_IL);
                out.u32(modules.len() as u32);
                for (words, spec) in modules {
                    out.u32(words.len() as u32);
                    words.iter().for_each(|&word| out.u32(word));
                    out.u32(spec.len() as u32);
                    for (&id, &value) in spec {
                        out.u32(id);
                        out.0.extend_from_slice(&value.to_le_bytes());
                    }
                }
            }
        }
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
        let unit = match reader.u32()? {
            UNIT_SOURCE => BinaryUnit::Source(reader.string()?),
            UNIT_IL => BinaryUnit::Il(reader.modules()?),
            _ => return Err(BinaryError::Corrupt),
        };
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

    /// A SPIR-V unit's modules. Nothing is reserved from the counts read:
    /// a corrupt count runs out of bytes before it allocates much.
    fn modules(&mut self) -> Result<Vec<(Vec<u32>, SpecValues)>, BinaryError> {
        let count = self.u32()?;
        let mut modules = Vec::new();
        for _ in 0..count {
            let len = self.u32()? as usize;
            let bytes = self.take(len.checked_mul(4).ok_or(BinaryError::Corrupt)?)?;
            let words = bytes
                .chunks_exact(4)
                .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                .collect();
            let mut spec = SpecValues::new();
            for _ in 0..self.u32()? {
                let id = self.u32()?;
                let value = u64::from_le_bytes(self.array()?);
                // Written from a map: an id twice is corruption.
                if spec.insert(id, value).is_some() {
                    return Err(BinaryError::Corrupt);
                }
            }
            modules.push((words, spec));
        }
        Ok(modules)
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
            unit: BinaryUnit::Source(
                "#line 1 \"<source>\"\nkernel void k(global int *p) { p[0] = 1; }\n".to_owned(),
            ),
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

    /// A binary of SPIR-V: two modules, one with constants set.
    fn il_sample() -> ProgramBinary {
        ProgramBinary {
            unit: BinaryUnit::Il(vec![
                (
                    vec![0x0723_0203, 0x0001_0000, 0, 5, 0],
                    SpecValues::from([(1, 42), (7, u64::MAX)]),
                ),
                (vec![0x0723_0203, 0x0001_0500, 0, 1, 0], SpecValues::new()),
            ]),
            ..sample()
        }
    }

    #[test]
    fn spirv_units_round_trip() {
        let binary = il_sample();
        assert_eq!(
            ProgramBinary::decode(&binary.encode(), &device()),
            Ok(binary)
        );
    }

    #[test]
    fn every_truncation_is_rejected() {
        for bytes in [sample().encode(), il_sample().encode()] {
            every_truncation_of(&bytes);
        }
    }

    fn every_truncation_of(bytes: &[u8]) {
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
        for bytes in [sample().encode(), il_sample().encode()] {
            every_byte_flip_of(&bytes);
        }
    }

    fn every_byte_flip_of(bytes: &[u8]) {
        // A deterministic pseudo-random flip pattern per position.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for at in 0..bytes.len() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mut corrupt = bytes.to_vec();
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
        // A format version 1 binary (before unit kinds) with a valid
        // checksum: stale.
        let mut old = bytes.clone();
        old[MAGIC.len()..MAGIC.len() + 4].copy_from_slice(&1u32.to_le_bytes());
        let body = old.len() - CHECKSUM_BYTES;
        let checksum = fnv1a(&old[..body]).to_le_bytes();
        old[body..].copy_from_slice(&checksum);
        assert_eq!(
            ProgramBinary::decode(&old, &device()),
            Err(BinaryError::Stale)
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
