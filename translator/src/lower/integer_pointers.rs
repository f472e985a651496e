//! Integers converted to pointers. A pointer here has no address, only a
//! root and an index (see `chosen.rs`), so an integer cannot in general
//! become one. Two kinds can: `0`, the null pointer (see `expr`), and an
//! integer computed in the same expression from a pointer by adding or
//! subtracting byte counts, `(T *)((uintptr_t)p + n)`, which is `p` moved
//! by `n` bytes and seen as pointing at `T`. Any other is a build error
//! naming the construct.

use super::*;

/// A byte count added to (or, `subtract`, taken from) a pointer's address.
struct ByteOffset<'a> {
    subtract: bool,
    bytes: &'a Expr,
}

/// The pointer the integer `e` was computed from, seen through integer
/// conversions, and the byte counts added to and subtracted from it.
fn pointer_origin(e: &Expr) -> Option<(&Expr, Vec<ByteOffset<'_>>)> {
    match &e.kind {
        H::Convert(x) if matches!(x.ty, Type::Pointer(_)) => Some((x, Vec::new())),
        H::Convert(x) if matches!(x.ty, Type::Scalar(_)) => pointer_origin(x),
        H::Binary(BinaryOp::Add, a, b) => {
            let (origin, mut offsets, bytes) = match pointer_origin(a) {
                Some((origin, offsets)) => (origin, offsets, b),
                None => {
                    let (origin, offsets) = pointer_origin(b)?;
                    (origin, offsets, a)
                }
            };
            offsets.push(ByteOffset {
                subtract: false,
                bytes,
            });
            Some((origin, offsets))
        }
        H::Binary(BinaryOp::Sub, a, b) => {
            let (origin, mut offsets) = pointer_origin(a)?;
            offsets.push(ByteOffset {
                subtract: true,
                bytes: b,
            });
            Some((origin, offsets))
        }
        _ => None,
    }
}

impl ModuleBuilder<'_> {
    /// `(ty)x` for an integer `x` and a pointer type `ty`, `x` not 0.
    pub(super) fn integer_to_pointer(
        &mut self,
        fb: &mut FnBuilder,
        x: &Expr,
        ty: &Type,
        location: Location,
    ) -> LResult<PointerValue> {
        let Some((origin, offsets)) = pointer_origin(x) else {
            return Err(self.error(
                location,
                "converting an integer to a pointer is not supported by this translator: pointers have no addresses here, so only 0 and an integer computed from a pointer in the same expression, as in '(T *)((uintptr_t)p + n)', can become one",
            ));
        };
        let pointee = |t: &Type| t.pointee().map_or(Type::Void, |p| p.ty.clone());
        let (from, to) = (pointee(&origin.ty), pointee(ty));
        let p = self.pointer(fb, origin)?;
        let p = self.cast_pointer(fb, p, &from, &to, location)?;
        if offsets.is_empty() {
            return Ok(p);
        }
        // Byte counts are signed (a negative one moves back); the sum wraps
        // as 32-bit addresses do.
        let mut total: Option<Handle<naga::Expression>> = None;
        for ByteOffset { subtract, bytes } in offsets {
            let value = self.plain(fb, bytes)?;
            let value = self.convert(fb, value, &bytes.ty, &Type::INT, location)?;
            total = Some(match (total, subtract) {
                (Some(sum), false) => fb.binary(naga::BinaryOperator::Add, sum, value),
                (Some(sum), true) => fb.binary(naga::BinaryOperator::Subtract, sum, value),
                (None, false) => value,
                (None, true) => fb.unary(naga::UnaryOperator::Negate, value),
            });
        }
        let size = match to {
            Type::Void => 1,
            ref t => t.size(self.caps.address_bits).unwrap_or(1),
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
}
