//! Program-scope pointer variables (`global int *cursor = table;`,
//! `constant float *global coefficients = low;`): a pointer kept in the
//! program globals' block (see `program_globals.rs`) from one launch to
//! the next. A pointer here is a root and an index known to one kernel's
//! module, which a later launch of another kernel cannot share, so such a
//! variable may only point into objects every kernel of the program sees
//! alike: the block itself, and the program-scope `__constant` variables
//! (each module holds the same data). It holds the byte offset there plus
//! one in its first 32-bit word (0 is null) and, in a 64-bit pointer's
//! second word, the object: 0 for the block, 1 + the variable's index
//! among the program's globals for a `__constant` one. Reading it gives a
//! pointer chosen at run time between null, the block and, for a pointer
//! to `__constant` (or generic) memory, the `__constant` variables whose
//! address the program takes
//! ([`crate::analysis::Analysis::stored_constants`]).
//!
//! A buffer argument cannot be held: its address would have to outlive
//! the launch, and a Vulkan buffer has one only through
//! `bufferDeviceAddress` pointers, which naga, our SPIR-V writer, cannot
//! express; without them a buffer is reachable only through the descriptor
//! a launch binds, which a later launch of another kernel does not have.

use crate::diagnostic::Location;
use crate::hir::{self, ExprId, ExprKind as H};
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::function::FnBuilder;
use crate::lower::pointers::{Choice, PointerValue, Root, Target};
use crate::types::{Scalar, Type};
use naga::Handle;

fn u32_lit(fb: &mut Emitter, v: u32) -> Handle<naga::Expression> {
    fb.add(naga::Expression::Literal(naga::Literal::U32(v)))
}

/// Where a program-scope pointer variable is: its first word, its second
/// (a 64-bit pointer's), what it points to, and whether that may be
/// `__constant` data.
#[derive(Clone, Copy, Debug)]
pub(in crate::lower) struct BlockPointerSlot {
    pub(in crate::lower) word: Handle<naga::Expression>,
    pub(in crate::lower) tag: Option<Handle<naga::Expression>>,
    pub(in crate::lower) constants: bool,
}

impl ModuleBuilder<'_> {
    /// The roots a program-scope pointer variable to `pointee` may hold
    /// besides null and the block (`constants`: it may point to
    /// `__constant` data), each seen as `pointee`, with its tag.
    fn stored_constant_roots(
        &mut self,
        pointee: &Type,
        constants: bool,
        location: Location,
    ) -> LResult<Vec<(Root, u32)>> {
        let mut roots = Vec::new();
        if !constants {
            return Ok(roots);
        }
        // As the analysis names them (`provenance.rs`): the variable's
        // own root, or cast to the pointee.
        for &c in self.analysis.stored_constants() {
            let ty = self.program.globals[c].ty;
            let element = self.element_of(&ty).unwrap_or(ty);
            let own = Root::Global(self.program_global(c, location)?);
            let root = if element == *pointee {
                own
            } else {
                self.cast_root(None, own, &element, pointee, location)?
            };
            roots.push((root, c.index() as u32 + 1));
        }
        Ok(roots)
    }

    /// The pointer held in the block at `slot`, to `pointee`.
    pub(super) fn load_block_pointer(
        &mut self,
        fb: &mut FnBuilder,
        slot: BlockPointerSlot,
        pointee: &Type,
        location: Location,
    ) -> LResult<PointerValue> {
        use naga::BinaryOperator as B;
        let (unit, size) = self.pointee_unit(pointee, location)?;
        let constants = self.stored_constant_roots(pointee, slot.constants, location)?;
        let stored = fb.add(naga::Expression::Load { pointer: slot.word });
        let (zero, one) = (u32_lit(fb, 0), u32_lit(fb, 1));
        let non_null = fb.binary(B::NotEqual, stored, zero);
        let mut which = fb.select(non_null, one, zero);
        // Null is at offset 0 of nothing, as comparisons expect.
        let byte = fb.binary(B::Subtract, stored, which);
        if let (Some(tag), false) = (slot.tag, constants.is_empty()) {
            let tag = fb.add(naga::Expression::Load { pointer: tag });
            for (k, &(_, t)) in constants.iter().enumerate() {
                let t = u32_lit(fb, t);
                let is = fb.binary(B::Equal, tag, t);
                let is = fb.binary(B::LogicalAnd, non_null, is);
                let position = u32_lit(fb, 2 + k as u32);
                which = fb.select(is, position, which);
            }
        }
        let index = if size == 1 {
            byte
        } else {
            let size = u32_lit(fb, size);
            fb.binary(B::Divide, byte, size)
        };
        let view = self.globals_view(&unit, location)?;
        let mut roots = vec![Root::Null, Root::Global(view)];
        roots.extend(constants.iter().map(|&(r, _)| r));
        let set = self.root_set(roots);
        Ok(PointerValue {
            target: Target::Chosen(Choice { set, which }),
            index,
        })
    }

    /// Stores `p`, a pointer to `pointee`, in the block at `slot`.
    pub(super) fn store_block_pointer(
        &mut self,
        fb: &mut FnBuilder,
        slot: BlockPointerSlot,
        pointee: &Type,
        p: PointerValue,
        location: Location,
    ) -> LResult<()> {
        use naga::BinaryOperator as B;
        let block = self.interface.globals_block_view();
        let roots = self.roots_of(p.target);
        let mut tags = Vec::with_capacity(roots.len());
        for root in roots {
            let object = match root {
                Root::Cast(b) => self.memory.cast_base_root(b),
                root => root,
            };
            let tag = match object {
                Root::Null => Some(0),
                Root::Global(view)
                    if self
                        .memory
                        .views
                        .iter()
                        .any(|v| v.view == view && Some(v.first) == block) =>
                {
                    Some(0)
                }
                Root::Global(g) => self.constant_of(g).map(|c| c.index() as u32 + 1),
                _ => None,
            };
            match tag {
                Some(t) if t == 0 || slot.tag.is_some() => tags.push(t),
                _ => {
                    return Err(self.error(
                        location,
                        "a program-scope pointer variable can only hold the address of a program-scope __global or __constant variable (or null): a buffer argument's or a __local or private object's address does not outlive the launch here",
                    ))
                }
            }
        }
        let (identity, byte) = self.pointer_address(fb, p, pointee, location)?;
        let (zero, one) = (u32_lit(fb, 0), u32_lit(fb, 1));
        let is_null = fb.binary(B::Equal, identity, zero);
        let plus_one = fb.binary(B::Add, byte, one);
        let value = fb.select(is_null, zero, plus_one);
        fb.push(naga::Statement::Store {
            pointer: slot.word,
            value,
        });
        if let Some(tag_word) = slot.tag {
            let tag = match p.target {
                Target::Fixed(_) => u32_lit(fb, tags[0]),
                Target::Chosen(choice) => {
                    let mut tag = u32_lit(fb, tags[tags.len() - 1]);
                    for (k, &t) in tags.iter().enumerate().rev().skip(1) {
                        let k = u32_lit(fb, k as u32);
                        let is = fb.binary(B::Equal, choice.which, k);
                        let t = u32_lit(fb, t);
                        tag = fb.select(is, t, tag);
                    }
                    tag
                }
            };
            fb.push(naga::Statement::Store {
                pointer: tag_word,
                value: tag,
            });
        }
        Ok(())
    }

    /// The type a pointer to `pointee` indexes the block in, and its size:
    /// `void *` counts bytes.
    pub(super) fn pointee_unit(
        &mut self,
        pointee: &Type,
        location: Location,
    ) -> LResult<(Type, u32)> {
        if *pointee == Type::Void {
            return Ok((Type::Scalar(Scalar::UChar), 1));
        }
        if let Type::Pointer(_) = pointee {
            return Err(self.error(
                location,
                "pointers to program-scope pointer variables and arrays of them are not supported yet by this translator",
            ));
        }
        match self.type_size(pointee) {
            Some(size) => Ok((*pointee, size as u32)),
            None => Err(self.error(location, "pointer to an object without a size")),
        }
    }
}

/// The initial value of a program-scope pointer variable: the byte offset
/// plus one of what the constant address `init` (an initialiser
/// expression of `program`) names (0 for null), and the object's tag (0
/// for the block, see the module's documentation); `offset_of` gives each
/// block variable's offset. `None` when `init` is not such an address.
pub(in crate::lower) fn initial_pointer(
    program: &hir::Program,
    init: ExprId,
    offset_of: &dyn Fn(hir::GlobalId) -> Option<u64>,
) -> Option<(u64, u32)> {
    let exprs = &program.global_exprs;
    let is_null = |mut e: ExprId| loop {
        match exprs[e].kind {
            H::Int(0) => return true,
            H::PointerCast(inner) => e = inner,
            _ => return false,
        }
    };
    if is_null(init) {
        return Some((0, 0));
    }
    let constant = ConstantAddress { program, offset_of };
    constant
        .address(init)
        .map(|(tag, offset)| (offset + 1, tag))
}

/// Constant addresses, as the object's tag and the byte offset there, from
/// the program's initialiser expressions.
struct ConstantAddress<'a> {
    program: &'a hir::Program,
    offset_of: &'a dyn Fn(hir::GlobalId) -> Option<u64>,
}

impl ConstantAddress<'_> {
    /// The tag and byte offset of the constant address `e`.
    fn address(&self, e: ExprId) -> Option<(u32, u64)> {
        let (exprs, types) = (&self.program.global_exprs, &self.program.types);
        match exprs[e].kind {
            H::Decay(x) | H::AddressOf(x) => self.object(x),
            H::PointerCast(x) | H::Convert(x) if exprs[x].ty.is_pointer() => self.address(x),
            H::PointerOffset(p, n) => {
                let (tag, base) = self.address(p)?;
                let size = match types.pointee(exprs[p].ty)?.ty {
                    Type::Void => 1,
                    t => types.size(t)?,
                };
                Some((tag, self.offset_by(base, n, size)?))
            }
            _ => None,
        }
    }

    /// The tag and byte offset of the object `x` names: in the block, or
    /// in a program-scope `__constant` variable.
    fn object(&self, x: ExprId) -> Option<(u32, u64)> {
        let (exprs, types) = (&self.program.global_exprs, &self.program.types);
        match exprs[x].kind {
            H::Global(id)
                if self.program.globals[id].space == crate::ast::AddressSpace::Constant =>
            {
                Some((id.index() as u32 + 1, 0))
            }
            H::Global(id) => Some((0, (self.offset_of)(id)?)),
            H::Index(base, index) => {
                let elem = types.array_element(exprs[base].ty)?;
                let (tag, base) = self.object(base)?;
                Some((tag, self.offset_by(base, index, types.size(elem)?)?))
            }
            H::Member(base, field) => {
                let Type::Record(r) = exprs[base].ty else {
                    return None;
                };
                let at = types[r].fields.get(field)?.offset;
                let (tag, base) = self.object(base)?;
                Some((tag, base + at))
            }
            _ => None,
        }
    }

    /// `base` moved by the constant `n` elements of `size` bytes.
    fn offset_by(&self, base: u64, n: ExprId, size: u64) -> Option<u64> {
        let n = &self.program.global_exprs[n];
        let H::Int(bits) = n.kind else {
            return None;
        };
        let n = crate::literal::sign_extend(bits, n.ty.scalar()?);
        base.checked_add_signed(n.checked_mul(size as i64)?)
    }
}
