//! Programs made of SPIR-V (`clCreateProgramWithIL`, `cl_khr_il_program`):
//! the module an application gave, with its bytes as given (what
//! `CL_PROGRAM_IL` returns), the specialization constant values set on it
//! (`clSetProgramSpecializationConstant`), and the SPIR-V a build, a
//! compiled object, a library or a binary keeps ([`IlUnit`]).
//!
//! A module is read once, when the program is created: bytes that are not
//! SPIR-V of a version the translator takes are refused there, so every
//! later build starts from a module that parses. The translator's front
//! end ([`translator::Session::build_il`]) does the rest.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, PoisonError};

use opencl_sys::{CL_INVALID_SPEC_ID, CL_INVALID_VALUE};
use translator::il::{IlModule, SpecValues};
use translator::BuildError;

use crate::core::device::Device;
use crate::core::object::Object;
use crate::core::CLResult;

/// The SPIR-V of a program created from IL.
pub struct IlProgram {
    /// As the application passed them: `CL_PROGRAM_IL` gives them back
    /// unchanged, also when the module was in the other byte order.
    bytes: Vec<u8>,
    module: Arc<IlModule>,
    /// The values set so far; builds and compiles take a copy.
    spec: Mutex<SpecValues>,
}

impl IlProgram {
    /// Reads `bytes`; `CL_INVALID_VALUE` when they are not a SPIR-V module
    /// the translator can read (the spec's error for IL "not supported by
    /// any device" or not well-formed).
    pub fn parse(bytes: &[u8]) -> CLResult<Self> {
        let module = IlModule::parse(bytes).map_err(|error| {
            log::debug!("clCreateProgramWithIL: {error}");
            CL_INVALID_VALUE
        })?;
        Ok(IlProgram {
            bytes: bytes.to_vec(),
            module: Arc::new(module),
            spec: Mutex::new(SpecValues::new()),
        })
    }

    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// `clSetProgramSpecializationConstant`: `value` holds the constant's
    /// bytes, little-endian. `CL_INVALID_SPEC_ID` for an id the module does
    /// not declare, `CL_INVALID_VALUE` for a size other than the
    /// constant's.
    pub fn set_spec_constant(&self, id: u32, value: &[u8]) -> CLResult<()> {
        let constant = self
            .module
            .spec_constants
            .iter()
            .find(|c| c.id == id)
            .ok_or(CL_INVALID_SPEC_ID)?;
        // A constant of a type the reader could not size (0) cannot be set.
        if value.len() != constant.size || !(1..=8).contains(&value.len()) {
            return Err(CL_INVALID_VALUE);
        }
        let mut bytes = [0u8; 8];
        bytes[..value.len()].copy_from_slice(value);
        self.spec
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id, u64::from_le_bytes(bytes));
        Ok(())
    }

    /// The module with the values set now: what a build or a compile of
    /// the program starts from.
    pub fn unit(&self) -> IlUnit {
        let spec = self
            .spec
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        IlUnit {
            parts: vec![IlPart {
                module: self.module.clone(),
                spec,
            }],
        }
    }
}

/// One module and the specialization constant values it is built with.
#[derive(Clone, Debug)]
pub struct IlPart {
    pub module: Arc<IlModule>,
    pub spec: SpecValues,
}

/// The SPIR-V behind a build: one module for a program created from IL,
/// the inputs' modules in order for a link or a library.
#[derive(Clone, Debug)]
pub struct IlUnit {
    pub parts: Vec<IlPart>,
}

impl IlUnit {
    /// The modules of several units, in order (the inputs of a link).
    pub fn joined<'a>(units: impl IntoIterator<Item = &'a IlUnit>) -> IlUnit {
        IlUnit {
            parts: units
                .into_iter()
                .flat_map(|unit| unit.parts.iter().cloned())
                .collect(),
        }
    }

    /// Builds the modules for `device`, each with its own specialization
    /// constant values. Panics in the translator come back as the `Err`
    /// of the outer result, for [`crate::core::program::executable_from`].
    pub fn build(
        &self,
        device: &Object<Device>,
        options: &str,
    ) -> std::thread::Result<Result<translator::Program, BuildError>> {
        let modules: Vec<(&IlModule, &SpecValues)> =
            self.parts.iter().map(|p| (&*p.module, &p.spec)).collect();
        catch_unwind(AssertUnwindSafe(|| {
            device
                .translator()
                .build_il(&modules, options, device.build_caps())
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module declaring a 32-bit constant with SpecId 1 and an 8-bit one
    /// with SpecId 2 (assembled by hand: types, the constants, decorations).
    fn module_words() -> Vec<u32> {
        const MAGIC: u32 = 0x0723_0203;
        let mut words = vec![MAGIC, 0x0001_0000, 0, 10, 0];
        let mut op = |opcode: u32, operands: &[u32]| {
            words.push(((operands.len() as u32 + 1) << 16) | opcode);
            words.extend_from_slice(operands);
        };
        op(17, &[6]); // OpCapability Addresses
        op(17, &[4]); // OpCapability Kernel
        op(17, &[39]); // OpCapability Int8
        op(14, &[2, 2]); // OpMemoryModel Physical64 OpenCL
        op(71, &[4, 1, 1]); // OpDecorate %4 SpecId 1
        op(71, &[5, 1, 2]); // OpDecorate %5 SpecId 2
        op(21, &[1, 32, 0]); // %1 = OpTypeInt 32 0
        op(21, &[2, 8, 0]); // %2 = OpTypeInt 8 0
        op(50, &[1, 4, 7]); // %4 = OpSpecConstant %1 7
        op(50, &[2, 5, 3]); // %5 = OpSpecConstant %2 3
        words
    }

    fn bytes(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn keeps_the_bytes_and_refuses_what_is_not_spirv() {
        let module = bytes(&module_words());
        let program = IlProgram::parse(&module).unwrap();
        assert_eq!(program.bytes(), &module[..]);
        assert_eq!(
            IlProgram::parse(&module[..16]).err(),
            Some(CL_INVALID_VALUE)
        );
        let mut not_spirv = module.clone();
        not_spirv[0] ^= 1;
        assert_eq!(IlProgram::parse(&not_spirv).err(), Some(CL_INVALID_VALUE));
    }

    #[test]
    fn spec_constants_are_checked_and_zero_extended() {
        let program = IlProgram::parse(&bytes(&module_words())).unwrap();
        assert_eq!(
            program.set_spec_constant(9, &[0; 4]),
            Err(CL_INVALID_SPEC_ID)
        );
        assert_eq!(program.set_spec_constant(1, &[0; 8]), Err(CL_INVALID_VALUE));
        assert_eq!(program.set_spec_constant(2, &[0; 4]), Err(CL_INVALID_VALUE));
        program.set_spec_constant(1, &42u32.to_le_bytes()).unwrap();
        program.set_spec_constant(2, &[0xff]).unwrap();
        // The last value set wins.
        program.set_spec_constant(1, &43u32.to_le_bytes()).unwrap();
        let unit = program.unit();
        assert_eq!(unit.parts.len(), 1);
        assert_eq!(unit.parts[0].spec, SpecValues::from([(1, 43), (2, 0xff)]));
    }

    #[test]
    fn joined_units_keep_every_part_in_order() {
        let first = IlProgram::parse(&bytes(&module_words())).unwrap();
        first.set_spec_constant(1, &5u32.to_le_bytes()).unwrap();
        let second = IlProgram::parse(&bytes(&module_words())).unwrap();
        let joined = IlUnit::joined([&first.unit(), &second.unit()]);
        assert_eq!(joined.parts.len(), 2);
        assert_eq!(joined.parts[0].spec, SpecValues::from([(1, 5)]));
        assert!(joined.parts[1].spec.is_empty());
    }
}
