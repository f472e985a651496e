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
                let p = self.array_start(fb, base, location)?;
                let i = self.index_value(fb, index)?;
                let index = fb.binary(naga::BinaryOperator::Add, p.index, i);
                Ok(Value::Pointer(p.at(index)))
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
            H::Member(..) => match self.member_bytes(fb, id, location)? {
                Some(bytes) => {
                    self.member_pointer_fits(fb, id, &x.ty, location)?;
                    Ok(Value::Pointer(self.cast_pointer(
                        fb,
                        bytes,
                        &Type::Void,
                        &x.ty,
                        location,
                    )?))
                }
                None => Err(self.error(
                    location,
                    "taking the address of a member of a program-scope struct variable is not supported yet by this translator",
                )),
            },
            _ => Err(self.error(
                location,
                "taking this address is not supported yet by this translator",
            )),
        }
    }

    /// `(T *)&s.m` for `inner`, `&s.m`: the member's byte address cast
    /// straight to `T`, which can address it where a pointer to the
    /// member's own type cannot (`(uchar *)&packed.v` for a `float4 v` at
    /// byte 1, see `member_pointer_fits`). `None` when `inner` is not the
    /// address of a member that `member_bytes` reaches.
    pub(in crate::lower) fn cast_member_address(
        &mut self,
        fb: &mut FnBuilder,
        inner: ExprId,
        to: &Type,
        location: Location,
    ) -> LResult<Option<PointerValue>> {
        let H::AddressOf(member) = fb.expr(inner).kind else {
            return Ok(None);
        };
        if !matches!(fb.expr(member).kind, H::Member(..)) {
            return Ok(None);
        }
        let Some(bytes) = self.member_bytes(fb, member, location)? else {
            return Ok(None);
        };
        self.member_pointer_fits(fb, member, to, location)?;
        self.cast_pointer(fb, bytes, &Type::Void, to, location)
            .map(Some)
    }

    /// A pointer to the first element of `array`, an array member of a
    /// record reached through a pointer (`p->arr`, `p[i].inner.arr`);
    /// `None` for other arrays.
    pub(in crate::lower) fn member_array_pointer(
        &mut self,
        fb: &mut FnBuilder,
        array: ExprId,
        location: Location,
    ) -> LResult<Option<PointerValue>> {
        let Some(element) = self.program.types.array_element(fb.expr(array).ty) else {
            return Ok(None);
        };
        match self.member_bytes(fb, array, location)? {
            Some(bytes) => Ok(Some({
                self.member_pointer_fits(fb, array, &element, location)?;
                self.cast_pointer(fb, bytes, &Type::Void, &element, location)?
            })),
            None => Ok(None),
        }
    }

    /// A pointer to a member counts elements of the member's type from
    /// the start of its memory, so the member must sit at a multiple of
    /// that type's size there: a member of a packed record may not (`char
    /// c; char2 v;` puts `v` at byte 1), and its pointer would be rounded
    /// down to the member before it. Such a member's address is a build
    /// error, not a pointer to the wrong bytes.
    fn member_pointer_fits(
        &mut self,
        fb: &FnBuilder,
        member: ExprId,
        pointee: &Type,
        location: Location,
    ) -> LResult<()> {
        let Some(size) = self.type_size(pointee).filter(|&s| s > 1) else {
            return Ok(());
        };
        let (mut offset, mut at) = (0u64, member);
        while let H::Member(base, field) = fb.expr(at).kind {
            let Type::Record(r) = fb.expr(base).ty else {
                return Ok(());
            };
            offset += self.record(r).fields[field].offset;
            at = base;
        }
        // The outermost record: a variable starts at byte 0; one reached
        // through a pointer or an array sits at a multiple of its size.
        let whole = fb.expr(at).ty;
        let outer_fits = matches!(fb.expr(at).kind, H::Local(_))
            || self.type_size(&whole).is_some_and(|s| s % size == 0);
        if offset % size == 0 && outer_fits {
            return Ok(());
        }
        let (member_ty, record_ty) = (self.display(pointee), self.display(&whole));
        Err(self.error(
            location,
            format!("taking the address of a '{member_ty}' member that sits at an offset that is not a multiple of its size in '{record_ty}' (a packed struct, or a pointer to an array member) is not supported yet by this translator, except cast at once to a pointer whose pointee's size divides the offset (`(uchar *)&s.m`)"),
        ))
    }

    /// `&object` counted in bytes (a `void` pointer) when `object` is a
    /// member of a record reached through a pointer: the record's
    /// address, cast to bytes, plus the member's offset. The pointer's
    /// root views its memory as the member's type when cast again, as a
    /// buffer does (see `views.rs`); other memory cannot be viewed as a
    /// record's members and says so in `cast_root`. `None` when the
    /// record is not reached through a pointer (a variable).
    fn member_bytes(
        &mut self,
        fb: &mut FnBuilder,
        object: ExprId,
        location: Location,
    ) -> LResult<Option<PointerValue>> {
        let source = fb.source;
        let ty = |h: ExprId| source.exprs[h].ty;
        let H::Member(base, field) = fb.expr(object).kind else {
            return Ok(None);
        };
        let record_ty = ty(base);
        let Type::Record(r) = record_ty else {
            return Ok(None);
        };
        let offset = self.record(r).fields[field].offset;
        let record = match fb.expr(base).kind {
            H::Member(..) => match self.member_bytes(fb, base, location)? {
                Some(bytes) => bytes,
                None => return Ok(None),
            },
            H::Deref(p) => {
                let p = self.pointer(fb, p)?;
                self.cast_pointer(fb, p, &record_ty, &Type::Void, location)?
            }
            H::Index(p, i) if ty(p).is_pointer() => {
                let p = self.pointer(fb, p)?;
                let i = self.index_value(fb, i)?;
                let index = fb.binary(naga::BinaryOperator::Add, p.index, i);
                self.cast_pointer(fb, p.at(index), &record_ty, &Type::Void, location)?
            }
            // A variable or an element of an array variable, which the
            // analysis made an image for this (`analysis/records.rs`), or
            // one in the program globals' block, seen through its views.
            H::Local(_) | H::Global(_) | H::Index(..) => {
                let Value::Pointer(p) = self.address_of(fb, base, location)? else {
                    return Ok(None);
                };
                self.cast_pointer(fb, p, &record_ty, &Type::Void, location)?
            }
            _ => return Ok(None),
        };
        let offset = fb.add(naga::Expression::Literal(naga::Literal::U32(offset as u32)));
        let index = fb.binary(naga::BinaryOperator::Add, record.index, offset);
        Ok(Some(record.at(index)))
    }
}
