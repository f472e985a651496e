//! The text a SPIR-V module's diagnostics point into: its disassembly, one
//! line per instruction, registered as a source file, so a build log reads
//! clang-style (`module.spv:LINE:COL: error: ...`, the instruction, a
//! caret) with the instruction's word offset in the message.
//!
//! Instructions are found by identity: the module is parsed once and not
//! moved while it is built, so the address of each of its
//! [`Instruction`]s names it.

use crate::diagnostic::{FileId, Location, SourceMap, Span};
use rspirv::binary::Disassemble;
use rspirv::dr::{Instruction, Module};
use std::collections::HashMap;

/// Where each instruction of one module is, in the listing and in words.
pub(super) struct Listing {
    file: FileId,
    /// By instruction address: the byte offset of its line and its word
    /// offset in the binary.
    places: HashMap<*const Instruction, (u32, u32)>,
}

impl Listing {
    /// Lists `module`, read from `words`, as file `name` of `sources`.
    pub fn new(name: &str, module: &Module, words: &[u32], sources: &mut SourceMap) -> Self {
        let offsets = word_offsets(words);
        let mut text = String::new();
        let mut places = HashMap::new();
        for (number, inst) in in_file_order(module).enumerate() {
            let word = offsets.get(number).copied().unwrap_or(0);
            places.insert(inst as *const Instruction, (text.len() as u32, word));
            text.push_str(&inst.disassemble());
            text.push('\n');
        }
        let file = sources.add(name, text);
        Listing { file, places }
    }

    /// The span of `inst`'s line (its start), and its word offset.
    pub fn place(&self, inst: &Instruction) -> (Span, u32) {
        let (offset, word) = self
            .places
            .get(&(inst as *const Instruction))
            .copied()
            .unwrap_or((0, 0));
        (
            Span::at(Location {
                file: self.file.0,
                offset,
            }),
            word,
        )
    }
}

/// The word offset of each instruction, in the order of the binary.
fn word_offsets(words: &[u32]) -> Vec<u32> {
    let mut offsets = Vec::new();
    let mut at = 5usize;
    while at < words.len() {
        offsets.push(at as u32);
        at += ((words[at] >> 16) as usize).max(1);
    }
    offsets
}

/// `module`'s instructions in the order SPIR-V's logical layout puts them
/// in a binary, which is the order rspirv's sections keep.
fn in_file_order(module: &Module) -> impl Iterator<Item = &Instruction> {
    let sections = module
        .capabilities
        .iter()
        .chain(&module.extensions)
        .chain(&module.ext_inst_imports)
        .chain(&module.memory_model)
        .chain(&module.entry_points)
        .chain(&module.execution_modes)
        .chain(&module.debug_string_source)
        .chain(&module.debug_names)
        .chain(&module.debug_module_processed)
        .chain(&module.annotations)
        .chain(&module.types_global_values);
    let functions = module.functions.iter().flat_map(|f| {
        f.def
            .iter()
            .chain(&f.parameters)
            .chain(
                f.blocks
                    .iter()
                    .flat_map(|b| b.label.iter().chain(&b.instructions)),
            )
            .chain(&f.end)
    });
    sections.chain(functions)
}
