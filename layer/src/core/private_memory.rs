//! A kernel's private memory: the bytes one work-item's variables take,
//! read from the kernel's SPIR-V, for `CL_KERNEL_PRIVATE_MEM_SIZE` and for
//! refusing at enqueue a kernel the device cannot hold.
//!
//! Private memory is every `Function` variable (locals, including private
//! arrays) and `Private` variable (program-scope data each invocation has a
//! copy of). A function's own variables plus those of the deepest call
//! below it are what one work-item needs at once; OpenCL C has no
//! recursion, and a call cycle in the module is cut rather than followed.
//! Sizes are the types' natural sizes (3-element vectors as 4), an
//! estimate of what a driver allocates, which may pack or pad otherwise.
//!
//! Of those bytes, only the variables the driver must keep addressable
//! are memory it cannot put in registers: a variable whose every use is a
//! load, a store into it or a constant-index access chain ending in those
//! (a vector or struct variable read and written lane by lane, member by
//! member) is split into values by any driver's compiler, as lavapipe's
//! NIR does. A dynamic index, or the variable's pointer going anywhere
//! else (a call, a stored pointer, a pointer cast), keeps it in memory.
//! The enqueue-time limit is on that addressed part ([`Private::addressed`]);
//! `CL_KERNEL_PRIVATE_MEM_SIZE` reports the whole ([`Private::total`]).
//!
//! The translator's reflection does not carry these figures yet, so they
//! are recomputed here from the module the driver receives.

use std::collections::{HashMap, HashSet};

const OP_ENTRY_POINT: u32 = 15;
const OP_TYPE_BOOL: u32 = 20;
const OP_TYPE_INT: u32 = 21;
const OP_TYPE_FLOAT: u32 = 22;
const OP_TYPE_VECTOR: u32 = 23;
const OP_TYPE_MATRIX: u32 = 24;
const OP_TYPE_ARRAY: u32 = 28;
const OP_TYPE_STRUCT: u32 = 30;
const OP_TYPE_POINTER: u32 = 32;
const OP_CONSTANT: u32 = 43;
const OP_FUNCTION: u32 = 54;
const OP_FUNCTION_END: u32 = 56;
const OP_FUNCTION_CALL: u32 = 57;
const OP_VARIABLE: u32 = 59;
const OP_LOAD: u32 = 61;
const OP_STORE: u32 = 62;
const OP_ACCESS_CHAIN: u32 = 65;
const OP_IN_BOUNDS_ACCESS_CHAIN: u32 = 66;

const STORAGE_PRIVATE: u32 = 6;
const STORAGE_FUNCTION: u32 = 7;

/// Words of the SPIR-V header before the first instruction.
const HEADER_WORDS: usize = 5;

/// What a type is made of, as far as its size goes.
enum Type {
    /// Bytes.
    Scalar(u64),
    /// Element type and count.
    Repeated(u32, u64),
    Struct(Vec<u32>),
    /// A pointer held in a variable: an address.
    Pointer,
}

#[derive(Default)]
struct Function {
    /// Bytes of its own `Function` variables.
    own: u64,
    /// Its own variables, with their bytes.
    variables: Vec<(u32, u64)>,
    callees: Vec<u32>,
}

#[derive(Default)]
struct Module {
    types: HashMap<u32, Type>,
    /// The pointee of each pointer type.
    pointees: HashMap<u32, u32>,
    /// `OpConstant` values, for array lengths.
    constants: HashMap<u32, u64>,
    functions: HashMap<u32, Function>,
    entry_points: Vec<u32>,
    /// Bytes of `Private` variables.
    private: u64,
    /// The `Function` variable each pointer reaching it comes from: the
    /// variable itself and constant-index access chains into it.
    roots: HashMap<u32, u32>,
    /// `Function` variables used in a way that keeps them in memory.
    addressed: HashSet<u32>,
}

impl Module {
    fn read(words: &[u32]) -> Module {
        let mut module = Module::default();
        let mut current: Option<u32> = None;
        let mut at = HEADER_WORDS;
        while at < words.len() {
            let count = (words[at] >> 16) as usize;
            let Some(instruction) = words.get(at..at + count).filter(|_| count > 0) else {
                break;
            };
            module.take(instruction, &mut current);
            at += count;
        }
        module
    }

    fn take(&mut self, instruction: &[u32], current: &mut Option<u32>) {
        let operand = |i: usize| instruction.get(i).copied().unwrap_or(0);
        match instruction[0] & 0xffff {
            OP_ENTRY_POINT => self.entry_points.push(operand(2)),
            OP_TYPE_BOOL => {
                self.types.insert(operand(1), Type::Scalar(4));
            }
            OP_TYPE_INT | OP_TYPE_FLOAT => {
                let bytes = u64::from(operand(2) / 8).max(1);
                self.types.insert(operand(1), Type::Scalar(bytes));
            }
            OP_TYPE_VECTOR | OP_TYPE_MATRIX => {
                // A 3-element vector is laid out as 4.
                let count = match operand(3) {
                    3 => 4,
                    n => u64::from(n),
                };
                self.types
                    .insert(operand(1), Type::Repeated(operand(2), count));
            }
            OP_TYPE_ARRAY => {
                let length = self.constants.get(&operand(3)).copied().unwrap_or(0);
                self.types
                    .insert(operand(1), Type::Repeated(operand(2), length));
            }
            OP_TYPE_STRUCT => {
                let members = instruction.get(2..).unwrap_or_default().to_vec();
                self.types.insert(operand(1), Type::Struct(members));
            }
            OP_TYPE_POINTER => {
                self.types.insert(operand(1), Type::Pointer);
                self.pointees.insert(operand(1), operand(3));
            }
            OP_CONSTANT => {
                let low = u64::from(operand(3));
                let high = u64::from(instruction.get(4).copied().unwrap_or(0));
                self.constants.insert(operand(2), high << 32 | low);
            }
            OP_FUNCTION => {
                *current = Some(operand(2));
                self.functions.entry(operand(2)).or_default();
            }
            OP_FUNCTION_END => *current = None,
            OP_FUNCTION_CALL => {
                if let Some(function) = current.and_then(|f| self.functions.get_mut(&f)) {
                    function.callees.push(operand(3));
                }
                self.address(instruction.get(4..).unwrap_or_default());
            }
            OP_VARIABLE => {
                let bytes = self
                    .pointees
                    .get(&operand(1))
                    .map_or(0, |&pointee| self.size(pointee, 0));
                match (operand(3), *current) {
                    (STORAGE_FUNCTION, Some(function)) => {
                        let function = self.functions.entry(function).or_default();
                        function.own = function.own.saturating_add(bytes);
                        function.variables.push((operand(2), bytes));
                        self.roots.insert(operand(2), operand(2));
                    }
                    (STORAGE_PRIVATE, _) => self.private = self.private.saturating_add(bytes),
                    _ => {}
                }
            }
            // Loads from and stores into a variable leave it a value.
            OP_LOAD => {}
            OP_STORE => self.address(instruction.get(2..).unwrap_or_default()),
            OP_ACCESS_CHAIN | OP_IN_BOUNDS_ACCESS_CHAIN => {
                let indices = instruction.get(4..).unwrap_or_default();
                match self.roots.get(&operand(3)).copied() {
                    Some(root) if indices.iter().all(|i| self.constants.contains_key(i)) => {
                        self.roots.insert(operand(2), root);
                    }
                    Some(root) => {
                        self.addressed.insert(root);
                    }
                    None => {}
                }
            }
            // Any other mention of a variable's pointer inside a function
            // (an operand word that happens to equal one counts too, which
            // errs towards memory).
            _ if current.is_some() => self.address(instruction.get(1..).unwrap_or_default()),
            _ => {}
        }
    }

    /// Marks the variables whose pointers appear among `operands` as
    /// addressed.
    fn address(&mut self, operands: &[u32]) {
        for word in operands {
            if let Some(&root) = self.roots.get(word) {
                self.addressed.insert(root);
            }
        }
    }

    /// The bytes of type `id`; `depth` stops a malformed, cyclic module.
    fn size(&self, id: u32, depth: u32) -> u64 {
        if depth > 64 {
            return 0;
        }
        match self.types.get(&id) {
            Some(Type::Scalar(bytes)) => *bytes,
            Some(Type::Repeated(element, count)) => {
                self.size(*element, depth + 1).saturating_mul(*count)
            }
            Some(Type::Struct(members)) => members
                .iter()
                .map(|&member| self.size(member, depth + 1))
                .fold(0, u64::saturating_add),
            Some(Type::Pointer) => 8,
            None => 0,
        }
    }

    /// The bytes of `function`'s addressed variables.
    fn addressed_bytes(&self, function: &Function) -> u64 {
        function
            .variables
            .iter()
            .filter(|(id, _)| self.addressed.contains(id))
            .map(|&(_, bytes)| bytes)
            .fold(0, u64::saturating_add)
    }

    /// `function`'s variables plus the most any call chain below it adds,
    /// counting what `bytes` counts of each function; `on_path` cuts
    /// cycles.
    fn deepest(
        &self,
        function: u32,
        bytes: &impl Fn(&Function) -> u64,
        on_path: &mut Vec<u32>,
    ) -> u64 {
        let Some(own) = self.functions.get(&function) else {
            return 0;
        };
        if on_path.contains(&function) {
            return 0;
        }
        on_path.push(function);
        let below = own
            .callees
            .iter()
            .map(|&callee| self.deepest(callee, bytes, on_path))
            .max()
            .unwrap_or(0);
        on_path.pop();
        bytes(own).saturating_add(below)
    }

    /// The module's `Private` variables and, for the entry point needing
    /// most, what `bytes` counts down its deepest call chain.
    fn per_work_item(&self, bytes: impl Fn(&Function) -> u64) -> u64 {
        let functions = self
            .entry_points
            .iter()
            .map(|&entry| self.deepest(entry, &bytes, &mut Vec::new()))
            .max()
            .unwrap_or(0);
        self.private.saturating_add(functions)
    }
}

/// The private memory one work-item of a module's kernel uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Private {
    /// Every variable: `Private` ones and, for the entry point needing
    /// most, its `Function` variables down its deepest call chain.
    pub total: u64,
    /// As `total`, counting only the `Function` variables kept in memory
    /// (see the module comment).
    pub addressed: u64,
}

/// The private memory one work-item of the module's kernel uses.
pub fn private_bytes(spirv: &[u32]) -> Private {
    let module = Module::read(spirv);
    Private {
        total: module.per_work_item(|f| f.own),
        addressed: module.per_work_item(|f| module.addressed_bytes(f)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module of instructions given as (opcode, operands).
    fn module(instructions: &[(u32, &[u32])]) -> Vec<u32> {
        let mut words = vec![0x0723_0203, 0x0001_0500, 0, 100, 0];
        for (opcode, operands) in instructions {
            words.push(((operands.len() as u32 + 1) << 16) | opcode);
            words.extend_from_slice(operands);
        }
        words
    }

    #[test]
    fn arrays_structs_and_calls_add_up() {
        let words = module(&[
            (OP_ENTRY_POINT, &[5, 10, 0x6e69_616d, 0]),
            (OP_TYPE_INT, &[1, 32, 0]),
            (OP_TYPE_FLOAT, &[2, 32]),
            (OP_TYPE_VECTOR, &[3, 2, 3]),
            (OP_CONSTANT, &[1, 4, 256]),
            (OP_TYPE_ARRAY, &[6, 2, 4]),
            (OP_TYPE_STRUCT, &[7, 1, 3]),
            (OP_TYPE_POINTER, &[8, STORAGE_FUNCTION, 6]),
            (OP_TYPE_POINTER, &[9, STORAGE_FUNCTION, 7]),
            (OP_TYPE_POINTER, &[11, STORAGE_PRIVATE, 1]),
            (OP_VARIABLE, &[11, 12, STORAGE_PRIVATE]),
            // The helper: a struct of an int and a float3 (4 + 16 bytes).
            (OP_FUNCTION, &[1, 20, 0, 0]),
            (OP_VARIABLE, &[9, 21, STORAGE_FUNCTION]),
            (OP_FUNCTION_END, &[]),
            // Another helper with less.
            (OP_FUNCTION, &[1, 30, 0, 0]),
            (OP_FUNCTION_END, &[]),
            // The kernel: float[256], calling both.
            (OP_FUNCTION, &[1, 10, 0, 0]),
            (OP_VARIABLE, &[8, 13, STORAGE_FUNCTION]),
            (OP_FUNCTION_CALL, &[1, 14, 20]),
            (OP_FUNCTION_CALL, &[1, 15, 30]),
            (OP_FUNCTION_END, &[]),
        ]);
        let expected = 4 + 1024 + 20;
        assert_eq!(private_bytes(&words).total, expected);
        // None of the function variables is used: values, not memory.
        assert_eq!(private_bytes(&words).addressed, 4);
    }

    #[test]
    fn truncated_and_cyclic_modules_do_not_hang() {
        let words = module(&[
            (OP_ENTRY_POINT, &[5, 10, 0]),
            (OP_FUNCTION, &[1, 10, 0, 0]),
            (OP_FUNCTION_CALL, &[1, 14, 10]),
            (OP_FUNCTION_END, &[]),
        ]);
        let nothing = Private {
            total: 0,
            addressed: 0,
        };
        assert_eq!(private_bytes(&words), nothing);
        assert_eq!(private_bytes(&words[..words.len() - 3]), nothing);
        assert_eq!(private_bytes(&[]), nothing);
    }

    #[test]
    fn only_dynamically_indexed_or_escaping_variables_are_addressed() {
        let words = module(&[
            (OP_ENTRY_POINT, &[5, 10, 0x6e69_616d, 0]),
            (OP_TYPE_INT, &[1, 32, 0]),
            (OP_CONSTANT, &[1, 2, 16]),
            (OP_CONSTANT, &[1, 3, 1]),
            (OP_TYPE_ARRAY, &[4, 1, 2]),
            (OP_TYPE_POINTER, &[6, STORAGE_FUNCTION, 4]),
            (OP_TYPE_POINTER, &[7, STORAGE_FUNCTION, 1]),
            (OP_FUNCTION, &[1, 20, 0, 0]),
            (OP_FUNCTION_END, &[]),
            (OP_FUNCTION, &[1, 10, 0, 0]),
            // Four int[16]: 64 bytes each.
            (OP_VARIABLE, &[6, 30, STORAGE_FUNCTION]),
            (OP_VARIABLE, &[6, 31, STORAGE_FUNCTION]),
            (OP_VARIABLE, &[6, 32, STORAGE_FUNCTION]),
            (OP_VARIABLE, &[6, 33, STORAGE_FUNCTION]),
            (OP_LOAD, &[1, 40, 3]),
            // 30: a constant index, loaded and stored: a value.
            (OP_ACCESS_CHAIN, &[7, 41, 30, 3]),
            (OP_LOAD, &[1, 42, 41]),
            (OP_STORE, &[41, 42]),
            // 31: a run-time index.
            (OP_ACCESS_CHAIN, &[7, 43, 31, 40]),
            (OP_LOAD, &[1, 44, 43]),
            // 32: its element's pointer passed to a call.
            (OP_ACCESS_CHAIN, &[7, 45, 32, 3]),
            (OP_FUNCTION_CALL, &[1, 46, 20, 45]),
            // 33: its pointer stored into 30's element.
            (OP_STORE, &[41, 33]),
            (OP_FUNCTION_END, &[]),
        ]);
        assert_eq!(
            private_bytes(&words),
            Private {
                total: 4 * 64,
                addressed: 3 * 64,
            }
        );
    }
}
