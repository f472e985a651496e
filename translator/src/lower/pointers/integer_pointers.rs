//! Integers converted to pointers. A pointer here has no address, only a
//! root and an index (see `chosen.rs`), so an integer cannot in general
//! become one. Two kinds can: `0`, the null pointer (see `expr`), and an
//! integer computed from a pointer by adding or subtracting byte counts,
//! `(T *)((uintptr_t)p + n)`, which is `p` moved by `n` bytes and seen as
//! pointing at `T`. The computation may go through integer variables that
//! keep their initializer's value (`uintptr_t a = (uintptr_t)p;` then
//! `(T *)(a + n)`): the conversion then evaluates the initializer again,
//! which gives the same pointer because nothing it reads can have changed
//! (the analysis finds them, see [`crate::analysis::definitions`]). Any
//! other integer is a build error naming the construct.

use crate::analysis::provenance::{byte_offsets, ByteOffset};
use crate::diagnostic::Location;
use crate::hir::ExprId;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::function::FnBuilder;
use crate::lower::pointers::{Choice, PointerValue, Target};
use crate::types::Type;
use naga::Handle;

impl ModuleBuilder<'_> {
    /// `(ty)x` for an integer `x` and a pointer type `ty`, `x` not 0.
    pub(in crate::lower) fn integer_to_pointer(
        &mut self,
        fb: &mut FnBuilder,
        x: ExprId,
        ty: &Type,
        location: Location,
    ) -> LResult<PointerValue> {
        let kept = self.analysis.function(fb.hir).map(|f| &f.kept_values);
        let origin = kept.and_then(|kept| byte_offsets(fb.source, kept, x));
        let Some((origin, offsets)) = origin else {
            return self.decoded_pointer(fb, x, ty, location);
        };
        let pointee = |t: &Type| self.pointee(t).map_or(Type::Void, |p| p.ty);
        let (from, to) = (pointee(&fb.expr(origin).ty), pointee(ty));
        let p = self.pointer(fb, origin)?;
        let p = self.cast_pointer(fb, p, &from, &to, location)?;
        if offsets.is_empty() {
            return Ok(p);
        }
        // Byte counts are signed (a negative one moves back); the sum wraps
        // as 32-bit addresses do.
        let mut total: Option<Handle<naga::Expression>> = None;
        for ByteOffset { subtract, bytes } in offsets {
            let bytes_ty = fb.expr(bytes).ty;
            let value = self.plain(fb, bytes)?;
            let value = self.convert(fb, value, &bytes_ty, &Type::INT, location)?;
            total = Some(match (total, subtract) {
                (Some(sum), false) => fb.binary(naga::BinaryOperator::Add, sum, value),
                (Some(sum), true) => fb.binary(naga::BinaryOperator::Subtract, sum, value),
                (None, false) => value,
                (None, true) => fb.unary(naga::UnaryOperator::Negate, value),
            });
        }
        let size = match to {
            Type::Void => 1,
            ref t => self.type_size(t).unwrap_or(1),
        };
        let size = fb.add(naga::Expression::Literal(naga::Literal::I32(size as i32)));
        let total = total.expect("at least one offset");
        let elements = fb.binary(naga::BinaryOperator::Divide, total, size);
        let elements = fb.add(naga::Expression::As {
            expr: elements,
            kind: naga::ScalarKind::Uint,
            convert: None,
        });
        let index = fb.binary(naga::BinaryOperator::Add, p.index, elements);
        Ok(p.at(index))
    }

    /// `(ty)x` for a 64-bit integer `x` in a kernel, computed in any way:
    /// its high 32 bits name the object (as a pointer converted to a
    /// 64-bit integer puts it there, see `pointer_to_integer`), found
    /// among the objects the kernel's pointers converted to integers point
    /// into (`PointerFacts::escaped`), else null; its low 32 bits are the
    /// byte offset there.
    fn decoded_pointer(
        &mut self,
        fb: &mut FnBuilder,
        x: ExprId,
        ty: &Type,
        location: Location,
    ) -> LResult<PointerValue> {
        use naga::BinaryOperator as B;
        let from = fb.expr(x).ty;
        let wide = from.scalar().is_some_and(|s| s.size() == 8);
        let escaped = self
            .analysis
            .function(fb.hir)
            .is_some_and(|f| !f.pointers.escaped.is_empty());
        if fb.source.kernel.is_none() || !wide || !escaped {
            return Err(self.error(
                location,
                "converting an integer to a pointer is not supported by this translator here: pointers have no addresses, so an integer becomes one only when it is 0, computed from a pointer by adding or subtracting byte counts, as in '(T *)((uintptr_t)p + n)' (through variables that keep their initializer's value), or, in a kernel, a 64-bit integer holding a pointer the kernel converted to an integer",
            ));
        }
        let to = self.pointee(ty).map_or(Type::Void, |p| p.ty);
        let roots = self.decoded_roots(fb, &to, location)?;
        let value = self.plain(fb, x)?;
        let value = match from.scalar() {
            Some(s) if s.is_signed() => fb.add(naga::Expression::As {
                expr: value,
                kind: naga::ScalarKind::Uint,
                convert: None,
            }),
            _ => value,
        };
        let narrow = |fb: &mut FnBuilder, v| {
            fb.add(naga::Expression::As {
                expr: v,
                kind: naga::ScalarKind::Uint,
                convert: Some(4),
            })
        };
        let at = fb.add(naga::Expression::Literal(naga::Literal::U32(32)));
        let high = fb.binary(B::ShiftRight, value, at);
        let identity = narrow(fb, high);
        let byte = narrow(fb, value);
        let lit =
            |fb: &mut FnBuilder, v: u32| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
        // The identities and origins are those `pointer_to_integer`
        // encoded: a buffer argument's allocation and its origin there
        // where the kernel names buffers by allocation.
        let mut which = lit(fb, 0);
        let mut origin = lit(fb, 0);
        for (k, &root) in roots.iter().enumerate().skip(1) {
            let id = self.identity_value(fb, root);
            let is = fb.binary(B::Equal, identity, id);
            let k = lit(fb, k as u32);
            which = fb.select(is, k, which);
            if let Some(here) = self.buffer_origin(fb, root) {
                origin = fb.select(is, here, origin);
            }
        }
        let byte = fb.binary(B::Subtract, byte, origin);
        let size = match to {
            Type::Void => 1,
            ref t => self.type_size(t).unwrap_or(1) as u32,
        };
        let size = lit(fb, size);
        let index = fb.binary(B::Divide, byte, size);
        let set = self.root_set(roots);
        Ok(PointerValue {
            target: Target::Chosen(Choice { set, which }),
            index,
        })
    }
}
