//! Program-scope pointer variables (`global int *cursor = table;`): a
//! pointer kept in the program globals' block (see `program_globals.rs`)
//! from one launch to the next. A pointer here is a root and an index
//! known to one kernel's module, which a later launch of another kernel
//! cannot share, so such a variable may only point into the block itself,
//! the one object every kernel of the program sees alike. It holds the
//! byte offset there plus one in its first 32-bit word (0 is null; a
//! 64-bit pointer's other word stays 0), so reading it gives a pointer
//! chosen at run time between null and the block.

use crate::diagnostic::Location;
use crate::hir::{self, ExprId, ExprKind as H};
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::function::FnBuilder;
use crate::lower::pointers::{Choice, PointerValue, Root, Target};
use crate::types::{Scalar, Type};
use naga::Handle;

impl ModuleBuilder<'_> {
    /// The pointer held in the word `word` of the block, to `pointee`.
    pub(super) fn load_block_pointer(
        &mut self,
        fb: &mut FnBuilder,
        word: Handle<naga::Expression>,
        pointee: &Type,
        location: Location,
    ) -> LResult<PointerValue> {
        let (unit, size) = self.pointee_unit(pointee, location)?;
        let stored = fb.add(naga::Expression::Load { pointer: word });
        let lit =
            |fb: &mut Emitter, v: u32| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
        let (zero, one) = (lit(fb, 0), lit(fb, 1));
        let non_null = fb.binary(naga::BinaryOperator::NotEqual, stored, zero);
        let which = fb.select(non_null, one, zero);
        // Null is at offset 0 of nothing, as comparisons expect.
        let byte = fb.binary(naga::BinaryOperator::Subtract, stored, which);
        let index = if size == 1 {
            byte
        } else {
            let size = lit(fb, size);
            fb.binary(naga::BinaryOperator::Divide, byte, size)
        };
        let view = self.globals_view(&unit, location)?;
        let set = self.root_set(vec![Root::Null, Root::Global(view)]);
        Ok(PointerValue {
            target: Target::Chosen(Choice { set, which }),
            index,
        })
    }

    /// Stores `p`, a pointer to `pointee`, in the word `word` of the block.
    pub(super) fn store_block_pointer(
        &mut self,
        fb: &mut FnBuilder,
        word: Handle<naga::Expression>,
        pointee: &Type,
        p: PointerValue,
        location: Location,
    ) -> LResult<()> {
        let block = self.interface.globals_block_view();
        for root in self.roots_of(p.target) {
            let in_block = match root {
                Root::Null => true,
                Root::Global(view) => self
                    .memory
                    .views
                    .iter()
                    .any(|v| v.view == view && Some(v.first) == block),
                _ => false,
            };
            if !in_block {
                return Err(self.error(
                    location,
                    "a program-scope pointer variable can only hold the address of a program-scope __global variable (or null) in this translator",
                ));
            }
        }
        let (identity, byte) = self.pointer_address(fb, p, pointee, location)?;
        let lit =
            |fb: &mut Emitter, v: u32| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
        let (zero, one) = (lit(fb, 0), lit(fb, 1));
        let is_null = fb.binary(naga::BinaryOperator::Equal, identity, zero);
        let plus_one = fb.binary(naga::BinaryOperator::Add, byte, one);
        let value = fb.select(is_null, zero, plus_one);
        fb.push(naga::Statement::Store {
            pointer: word,
            value,
        });
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
/// expression of `program`) names in the block (`offset_of` gives each
/// variable's), 0 for null; `None` when `init` is not such an address.
pub(in crate::lower) fn initial_pointer(
    program: &hir::Program,
    init: ExprId,
    offset_of: &dyn Fn(hir::GlobalId) -> Option<u64>,
) -> Option<u64> {
    let exprs = &program.global_exprs;
    let is_null = |mut e: ExprId| loop {
        match exprs[e].kind {
            H::Int(0) => return true,
            H::PointerCast(inner) => e = inner,
            _ => return false,
        }
    };
    if is_null(init) {
        return Some(0);
    }
    let constant = ConstantAddress { program, offset_of };
    constant.address(init).map(|offset| offset + 1)
}

/// Constant addresses in the block, from the program's initialiser
/// expressions.
struct ConstantAddress<'a> {
    program: &'a hir::Program,
    offset_of: &'a dyn Fn(hir::GlobalId) -> Option<u64>,
}

impl ConstantAddress<'_> {
    /// The byte offset in the block of the constant address `e`.
    fn address(&self, e: ExprId) -> Option<u64> {
        let (exprs, types) = (&self.program.global_exprs, &self.program.types);
        match exprs[e].kind {
            H::Decay(x) | H::AddressOf(x) => self.object(x),
            H::PointerCast(x) | H::Convert(x) if exprs[x].ty.is_pointer() => self.address(x),
            H::PointerOffset(p, n) => {
                let base = self.address(p)?;
                let size = match types.pointee(exprs[p].ty)?.ty {
                    Type::Void => 1,
                    t => types.size(t)?,
                };
                self.offset_by(base, n, size)
            }
            _ => None,
        }
    }

    /// The byte offset in the block of the object `x` names.
    fn object(&self, x: ExprId) -> Option<u64> {
        let (exprs, types) = (&self.program.global_exprs, &self.program.types);
        match exprs[x].kind {
            H::Global(id) => (self.offset_of)(id),
            H::Index(base, index) => {
                let elem = types.array_element(exprs[base].ty)?;
                let base = self.object(base)?;
                self.offset_by(base, index, types.size(elem)?)
            }
            H::Member(base, field) => {
                let Type::Record(r) = exprs[base].ty else {
                    return None;
                };
                let at = types[r].fields.get(field)?.offset;
                Some(self.object(base)? + at)
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
