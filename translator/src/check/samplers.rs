//! Samplers and images as the checker sees them: literal samplers (a
//! `sampler_t` variable initialised by a constant, at program or function
//! scope, and an integer constant passed where a `sampler_t` is expected),
//! which become compile-time sampler words rather than variables, and the
//! places image and sampler values may not go.

use super::*;

impl Checker<'_> {
    /// An integer constant converted to `sampler_t`: its word
    /// ([`crate::image::sampler`]). Samplers are only ever constants or
    /// parameters, so a value computed at run time is an error.
    pub(super) fn sampler_from_integer(&mut self, v: Expr) -> Expr {
        match integer_constant(&v) {
            Some(bits) => Expr::new(
                H::Int(bits & 0xffff_ffff),
                Type::Opaque(types::Opaque::Sampler),
                v.span,
            ),
            None => {
                self.error(
                    v.span,
                    "sampler_t initialization requires a 32-bit integer constant",
                );
                Expr::new(H::Int(0), Type::Error, v.span)
            }
        }
    }

    /// `[const] sampler_t name = constant;` at program or function scope:
    /// the name stands for the constant's word from here on.
    pub(super) fn literal_sampler(
        &mut self,
        name: Name,
        init: Option<&ast::Initializer>,
        location: Location,
    ) {
        let word = match init {
            Some(ast::Initializer::Expr(e)) => {
                let v = self.rvalue(e);
                let v = self.convert_for_assignment(
                    v,
                    Type::Opaque(types::Opaque::Sampler),
                    Conversion::Init(location),
                );
                match v.kind {
                    H::Int(bits) if v.ty.is_sampler() => Some(bits as u32),
                    _ if v.ty.is_error() => None,
                    _ => {
                        self.error(
                            v.span,
                            "sampler_t initialization requires a 32-bit integer constant",
                        );
                        None
                    }
                }
            }
            Some(ast::Initializer::List(_, span)) => {
                self.error(
                    *span,
                    "sampler_t initialization requires a 32-bit integer constant",
                );
                None
            }
            None => {
                self.error(location, "variable of type 'sampler_t' must be initialized");
                None
            }
        };
        self.declare(name, Symbol::Sampler(word.unwrap_or(0)));
    }

    /// Whether `init` names a `sampler_t` parameter: then the variable is
    /// a copy of it, an ordinary variable, rather than a literal sampler.
    pub(super) fn copies_sampler_parameter(&self, init: Option<&ast::Initializer>) -> bool {
        let Some(ast::Initializer::Expr(e)) = init else {
            return false;
        };
        let A::Ident(name) = &e.kind else {
            return false;
        };
        match self.lookup(*name) {
            Some(Symbol::Local(id)) => self
                .current
                .as_ref()
                .is_some_and(|f| f.locals[id].ty.is_sampler()),
            _ => false,
        }
    }

    /// Reports a variable (not a parameter) of image type: images are only
    /// ever kernel arguments passed on.
    pub(super) fn reject_image_variable(&mut self, ty: Type, location: Location) -> bool {
        if ty.image().is_none() {
            return false;
        }
        self.error(
            location,
            format!(
                "type '{}' can only be used as a function parameter in OpenCL",
                self.display(ty)
            ),
        );
        true
    }
}

/// The value of an integer constant expression made of the operators a
/// sampler's `CLK_*` flags are combined with (`|`, `+`, ...), as its
/// two's-complement bits; `None` when it is not one.
fn integer_constant(v: &Expr) -> Option<u64> {
    use ast::BinaryOp as B;
    crate::stack::guard(|| match &v.kind {
        H::Int(bits) => Some(*bits),
        H::Convert(x) if x.ty.is_integer() => integer_constant(x),
        H::Unary(hir::UnaryOp::BitNot, x) => Some(!integer_constant(x)?),
        H::Unary(hir::UnaryOp::Negate, x) => Some(integer_constant(x)?.wrapping_neg()),
        H::Binary(op, a, b) => {
            let (a, b) = (integer_constant(a)?, integer_constant(b)?);
            Some(match op {
                B::BitOr => a | b,
                B::BitAnd => a & b,
                B::BitXor => a ^ b,
                B::Add => a.wrapping_add(b),
                B::Sub => a.wrapping_sub(b),
                B::Mul => a.wrapping_mul(b),
                B::Shl if b < 64 => a << b,
                _ => return None,
            })
        }
        _ => None,
    })
}
