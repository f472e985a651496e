//! Pointer values: a pointer expression evaluated to a root and an
//! index, an index as an integer value, and `&x`.

use crate::diagnostic::Location;
use crate::hir::{ExprId, ExprKind as H};
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::expressions::{Operand, Value};
use crate::lower::function::{FnBuilder, Slot};
use crate::lower::pointers::{PointerValue, Root};
use crate::types::{Scalar, Type};
use naga::Handle;

impl ModuleBuilder<'_> {
    pub(in crate::lower) fn pointer(
        &mut self,
        fb: &mut FnBuilder,
        e: impl Into<Operand>,
    ) -> LResult<PointerValue> {
        let e = e.into();
        match self.expr(fb, e)? {
            Value::Pointer(p) => Ok(p),
            _ => {
                let at = fb.hir(e).map(|e| e.span).unwrap_or_default();
                Err(self.error(
                    at,
                    "this pointer cannot be resolved to a buffer or array at compile time",
                ))
            }
        }
    }

    /// An integer index as a wrapping `u32`.
    pub(in crate::lower) fn index_value(
        &mut self,
        fb: &mut FnBuilder,
        e: impl Into<Operand>,
    ) -> LResult<Handle<naga::Expression>> {
        let e = e.into();
        let s = fb.ty(e).scalar().unwrap_or(Scalar::Int);
        let v = self.plain(fb, e)?;
        Ok(match s.size() {
            8 => fb.add(naga::Expression::As {
                expr: v,
                kind: naga::ScalarKind::Uint,
                convert: Some(4),
            }),
            _ if s.is_signed() => fb.add(naga::Expression::As {
                expr: v,
                kind: naga::ScalarKind::Uint,
                convert: None,
            }),
            _ => v,
        })
    }

    pub(in crate::lower) fn address_of(
        &mut self,
        fb: &mut FnBuilder,
        id: ExprId,
        location: Location,
    ) -> LResult<Value> {
        let x = fb.expr(id);
        let source = fb.source;
        let ty = |h: ExprId| source.exprs[h].ty;
        match x.kind {
            H::Index(base, index) if ty(base).is_pointer() => {
                let p = self.pointer(fb, base)?;
                let i = self.index_value(fb, index)?;
                let index = fb.binary(naga::BinaryOperator::Add, p.index, i);
                Ok(Value::Pointer(p.at(index)))
            }
            H::Index(base, index) => {
                if let Some(p) = self.block_element_pointer(fb, base, index, &x.ty, location)? {
                    return Ok(Value::Pointer(p));
                }
                let root = self.array_root(fb, base)?;
                let index = self.index_value(fb, index)?;
                Ok(Value::Pointer(PointerValue::fixed(root, index)))
            }
            H::Deref(p) => Ok(Value::Pointer(self.pointer(fb, p)?)),
            H::Global(global) if self.block_place_of(x) => {
                self.block_address(fb, global, id).map(Value::Pointer)
            }
            H::Local(_) | H::Global(_) if x.ty.is_array() => {
                let root = self.array_root(fb, id)?;
                let index = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
                Ok(Value::Pointer(PointerValue::fixed(root, index)))
            }
            // A program-scope `__constant` scalar, vector or record: its
            // own variable, as a `__local` scalar's.
            H::Global(global) => {
                let g = self.program_global(global, location)?;
                let index = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
                Ok(Value::Pointer(PointerValue::fixed(Root::Global(g), index)))
            }
            H::Local(local) => {
                let v = match fb.slots[&local] {
                    Slot::Variable(v) => v,
                    Slot::Workgroup(g) => {
                        let index = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
                        return Ok(Value::Pointer(PointerValue::fixed(Root::Global(g), index)));
                    }
                    Slot::Pointer { .. } => {
                        return Err(self.error(
                            location,
                            "taking this address is not supported yet by this translator",
                        ))
                    }
                };
                let index = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
                let is_array = matches!(x.ty, Type::Array(..));
                Ok(Value::Pointer(PointerValue::fixed(
                    Root::Private(v, is_array),
                    index,
                )))
            }
            H::Member(..) => self.member_address(fb, id, location).map(Value::Pointer),
            _ => Err(self.error(
                location,
                "taking this address is not supported yet by this translator",
            )),
        }
    }

    /// `&v.m` (through members and array elements) of a variable `v`
    /// held as a byte image (the analysis holds every record a member of
    /// which has its address taken so): a pointer into its words, as a
    /// cast of the variable to the member's type (see `cast_memory.rs`),
    /// at the member's byte offset.
    fn member_address(
        &mut self,
        fb: &mut FnBuilder,
        id: ExprId,
        location: Location,
    ) -> LResult<PointerValue> {
        let member_ty = fb.expr(id).ty;
        let unsupported = |this: &mut Self| {
            this.error(
                location,
                "taking this address is not supported yet by this translator",
            )
        };
        let lit =
            |fb: &mut FnBuilder, v: u32| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
        let mut offset = lit(fb, 0);
        let mut e = id;
        let local = loop {
            let node = fb.expr(e);
            match node.kind {
                H::Member(base, field) => {
                    let Type::Record(r) = fb.expr(base).ty else {
                        return Err(unsupported(self));
                    };
                    let at = self.program.types[r].fields[field].offset as u32;
                    let at = lit(fb, at);
                    offset = fb.binary(naga::BinaryOperator::Add, offset, at);
                    e = base;
                }
                H::Index(base, index) if !fb.expr(base).ty.is_pointer() => {
                    let base_ty = fb.expr(base).ty;
                    let element = self.element_of(&base_ty).ok_or_else(|| unsupported(self))?;
                    let size = self.type_size(&element).ok_or_else(|| unsupported(self))?;
                    let i = self.index_value(fb, index)?;
                    let size = lit(fb, size as u32);
                    let at = fb.binary(naga::BinaryOperator::Multiply, i, size);
                    offset = fb.binary(naga::BinaryOperator::Add, offset, at);
                    e = base;
                }
                H::Local(local) => break local,
                _ => return Err(unsupported(self)),
            }
        };
        let ty = fb.local(local).ty;
        let element = self.element_of(&ty).unwrap_or(ty);
        let root = match fb.slots.get(&local) {
            Some(&Slot::Variable(v)) => Root::Private(v, true),
            Some(&Slot::Workgroup(g)) => Root::Global(g),
            _ => return Err(unsupported(self)),
        };
        // Members are at multiples of their alignment, which is the size
        // of scalars and vectors.
        let size = match member_ty {
            Type::Scalar(_) | Type::Vector(..) if self.is_image(&element) => self
                .type_size(&member_ty)
                .ok_or_else(|| unsupported(self))?,
            _ => return Err(unsupported(self)),
        };
        let cast = self.cast_root(root, &element, &member_ty, location)?;
        let size = lit(fb, size as u32);
        let index = fb.binary(naga::BinaryOperator::Divide, offset, size);
        Ok(PointerValue::fixed(cast, index))
    }
}
