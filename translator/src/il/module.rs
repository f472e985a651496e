//! Reading a SPIR-V binary: the header checked, the instructions parsed by
//! rspirv, and what the runtime asks of a module before any build (its
//! specialization constants).

use super::{IlError, SPIRV_VERSIONS};
use rspirv::dr::{self, Operand};
use rspirv::spirv::{Decoration, Op};

const MAGIC: u32 = 0x0723_0203;

/// A parsed SPIR-V module, with the words it was read from (the
/// program's `CL_PROGRAM_IL` and its binary keep those).
#[derive(Debug)]
pub struct IlModule {
    pub(crate) words: Vec<u32>,
    pub(crate) module: dr::Module,
    /// `(major, minor)` from the header.
    pub version: (u32, u32),
    /// Every specialization constant with a `SpecId`, by id.
    pub spec_constants: Vec<SpecConstant>,
}

/// A specialization constant the module declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpecConstant {
    /// Its `SpecId` decoration, what `clSetProgramSpecializationConstant`
    /// names it by.
    pub id: u32,
    /// The size in bytes of its scalar type (`bool` is 1).
    pub size: usize,
}

impl IlModule {
    /// Reads `bytes` as a SPIR-V module, in either byte order.
    pub fn parse(bytes: &[u8]) -> Result<IlModule, IlError> {
        if bytes.len() < 20 || !bytes.len().is_multiple_of(4) {
            return Err(IlError::Truncated);
        }
        let mut words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        if words[0] == MAGIC.swap_bytes() {
            words.iter_mut().for_each(|w| *w = w.swap_bytes());
        } else if words[0] != MAGIC {
            return Err(IlError::NotSpirv);
        }
        let version = ((words[1] >> 16) & 0xff, (words[1] >> 8) & 0xff);
        if !SPIRV_VERSIONS.contains(&version) {
            return Err(IlError::UnsupportedVersion(version.0, version.1));
        }
        let module = dr::load_words(&words).map_err(|e| IlError::Malformed(e.to_string()))?;
        let spec_constants = spec_constants(&module);
        Ok(IlModule {
            words,
            module,
            version,
            spec_constants,
        })
    }

    /// The module's words (host byte order).
    pub fn words(&self) -> &[u32] {
        &self.words
    }
}

/// The `SpecId`-decorated constants of `module` and their sizes.
fn spec_constants(module: &dr::Module) -> Vec<SpecConstant> {
    let mut found = Vec::new();
    for decoration in &module.annotations {
        let [Operand::IdRef(target), Operand::Decoration(Decoration::SpecId), Operand::LiteralBit32(id)] =
            decoration.operands[..]
        else {
            continue;
        };
        if decoration.class.opcode != Op::Decorate {
            continue;
        }
        let Some(constant) = module
            .types_global_values
            .iter()
            .find(|i| i.result_id == Some(target))
        else {
            continue;
        };
        let size = match constant.class.opcode {
            Op::SpecConstantTrue | Op::SpecConstantFalse => 1,
            Op::SpecConstant => scalar_size(module, constant.result_type),
            _ => continue,
        };
        found.push(SpecConstant { id, size });
    }
    found.sort_by_key(|c| c.id);
    found
}

/// The size in bytes of the scalar type `ty` (0 for anything else).
fn scalar_size(module: &dr::Module, ty: Option<u32>) -> usize {
    let Some(ty) = module
        .types_global_values
        .iter()
        .find(|i| i.result_id.is_some() && i.result_id == ty)
    else {
        return 0;
    };
    match (ty.class.opcode, ty.operands.first()) {
        (Op::TypeInt | Op::TypeFloat, Some(Operand::LiteralBit32(bits))) => *bits as usize / 8,
        (Op::TypeBool, _) => 1,
        _ => 0,
    }
}
