//! Integer constant expressions (array sizes, case labels, enumerators,
//! attribute arguments) evaluated with C's types (C99 6.6, 6.3.1): every
//! value has the type the expression would have, operands go through the
//! integer promotions and the usual arithmetic conversions, and each
//! result wraps to its type. So `(uchar)300` is 44 and `-1 < 0u` is false,
//! as in the code the same expression compiles to. Also what rests on
//! them: `static_assert`, and C++'s `const`/`constexpr` integer variables,
//! which are constant expressions there.

use super::*;
use crate::int_constant::IntConstant;

impl Checker<'_> {
    /// The value of integer constant expression `e`, or `None` when it is
    /// not one (or divides by zero, or shifts by its width or more).
    pub(super) fn const_int(&mut self, e: &ast::Expr) -> Option<i128> {
        self.constant(e).map(|c| c.value)
    }

    /// [`Checker::const_int`], converted to type `s`.
    pub(super) fn const_int_as(&mut self, e: &ast::Expr, s: Scalar) -> Option<i128> {
        self.constant(e).map(|c| c.converted(s).value)
    }

    pub(super) fn constant(&mut self, e: &ast::Expr) -> Option<IntConstant> {
        crate::stack::guard(|| self.constant_inner(e))
    }

    fn constant_inner(&mut self, e: &ast::Expr) -> Option<IntConstant> {
        let int = |value: bool| IntConstant::new(value.into(), Scalar::Int);
        Some(match &e.kind {
            A::IntLiteral(_) | A::CharLiteral(_) | A::BoolLiteral(_) => {
                let mark = self.diags.len();
                let v = self.expr(e);
                match (&v.kind, v.ty) {
                    (&H::Int(bits), Type::Scalar(s)) => {
                        IntConstant::new(literal::sign_extend(bits, s).into(), s)
                    }
                    _ => {
                        self.diags.truncate(mark);
                        return None;
                    }
                }
            }
            A::Qualified(class, None, name) if self.enumerators.contains_key(class) => {
                let members = self.enumerators.get(class)?;
                let &(_, v, s) = members.iter().find(|(n, _, _)| n == name)?;
                IntConstant::new(v.into(), s)
            }
            // A class's static constant (`S::N`).
            A::Qualified(class, args, name) => {
                let Symbol::Global(id) =
                    self.qualified_static_member(*class, args.as_deref(), *name, e.location)?
                else {
                    return None;
                };
                let &(v, s) = self.global_constants.get(&id)?;
                IntConstant::new(v.into(), s)
            }
            A::Ident(name) => match self.lookup(*name)? {
                Symbol::EnumConstant(v, s) => IntConstant::new(v.into(), s),
                Symbol::Local(id) => {
                    let &(v, s) = self.current.as_ref()?.constants.get(&id)?;
                    IntConstant::new(v.into(), s)
                }
                Symbol::Global(id) => {
                    let &(v, s) = self.global_constants.get(&id)?;
                    IntConstant::new(v.into(), s)
                }
                _ => return None,
            },
            A::Unary(op, x) => {
                let x = self.constant(x)?;
                let promoted = x.converted(promote(x.ty));
                match op {
                    ast::UnaryOp::Plus => promoted,
                    ast::UnaryOp::Minus => IntConstant::new(-promoted.value, promoted.ty),
                    ast::UnaryOp::BitNot => IntConstant::new(!promoted.value, promoted.ty),
                    ast::UnaryOp::Not => int(!x.truth()),
                    _ => return None,
                }
            }
            A::Binary(op, operands) => {
                let (a, b) = (self.constant(&operands.0)?, self.constant(&operands.1)?);
                IntConstant::binary(*op, a, b)?
            }
            A::Conditional(operands) => {
                let (c, a, b) = &**operands;
                let (c, a, b) = (self.constant(c)?, self.constant(a)?, self.constant(b)?);
                let common = common_scalar(a.ty, b.ty);
                if c.truth() { a } else { b }.converted(common)
            }
            A::Cast(t, x) => {
                let Type::Scalar(to) = self.type_name(t) else {
                    return None;
                };
                if !(to.is_integer() || to == Scalar::Bool) {
                    return None;
                }
                // A floating constant may be the immediate operand of a
                // cast to an integer type (C99 6.6p6).
                if let A::FloatLiteral(_) = x.kind {
                    let v = self.expr(x);
                    let H::Float(f) = v.kind else { return None };
                    let value = if to == Scalar::Bool {
                        (f != 0.0).into()
                    } else {
                        f.trunc() as i128
                    };
                    return Some(IntConstant::new(value, to));
                }
                self.constant(x)?.converted(to)
            }
            A::SizeofType(t) => {
                let ty = self.type_name(t);
                self.size_constant(self.type_size(ty)?)
            }
            A::SizeofExpr(x) => {
                let v = self.expr(x);
                self.size_constant(self.type_size(v.ty)?)
            }
            A::AlignofType(t) => {
                let ty = self.type_name(t);
                self.size_constant(self.program.types.align(ty)?)
            }
            A::AlignofExpr(x) => {
                let align = self.align_of_expr(x)?;
                self.size_constant(align)
            }
            A::Offsetof(t, steps) => {
                // An index that is not constant makes it no constant
                // either; its expression is checked where it is used.
                let mark = self.diags.len();
                match self.offset_of(t, steps, e.span())?.kind {
                    H::Int(v) => self.size_constant(v),
                    _ => {
                        self.diags.truncate(mark);
                        return None;
                    }
                }
            }
            A::VecStepType(t) => match self.type_name(t) {
                Type::Scalar(_) => int(true),
                Type::Vector(_, n) => IntConstant::new(types::storage_lanes(n).into(), Scalar::Int),
                _ => return None,
            },
            // C++: a call of a `constexpr` function.
            A::Call(..) if self.cxx => self.constexpr_call(e)?,
            A::SizeofPack(name, _) => match self.scopes.lookup(*name)? {
                Symbol::Pack(elements) => self.size_constant(elements.len() as u64),
                _ => return None,
            },
            A::Fold(fold) => self.fold_constant(fold)?,
            A::VecStepExpr(x) => match self.expr(x).ty {
                Type::Scalar(_) => int(true),
                Type::Vector(_, n) => IntConstant::new(types::storage_lanes(n).into(), Scalar::Int),
                _ => return None,
            },
            _ => return None,
        })
    }

    /// C++: the value of a `const` (or `constexpr`) integer variable of
    /// type `ty` whose initialiser is a constant, which makes the variable
    /// a constant expression itself (C++17 [expr.const]/2.7). A
    /// `constexpr` one must have such an initialiser.
    pub(super) fn variable_constant(
        &mut self,
        specs: &ast::DeclSpecs,
        is_const: bool,
        ty: Type,
        init: &ast::InitDeclarator,
        location: Location,
    ) -> Option<(i64, Scalar)> {
        if !self.cxx || !is_const {
            return None;
        }
        let integer = matches!(ty, Type::Scalar(s) if s.is_integer() || s == Scalar::Bool);
        let value = match (&init.init, integer) {
            (Some(ast::Initializer::Expr(e)), true) => {
                // Checked already as the initialiser: nothing to report twice.
                self.quietly(|c| c.constant(e))
            }
            _ => None,
        };
        match (value, ty) {
            (Some(v), Type::Scalar(s)) => {
                let v = v.converted(s);
                Some((v.value as i64, s))
            }
            _ if integer && specs.constexpr.is_some() => {
                let name = self.declared_name(&init.declarator);
                self.error(
                    location,
                    format!(
                        "constexpr variable '{name}' must be initialized by a constant expression"
                    ),
                );
                None
            }
            _ => None,
        }
    }

    /// `static_assert`: an error unless the condition is a non-zero
    /// constant, with clang's wording.
    pub(super) fn static_assert(&mut self, a: &ast::StaticAssert) {
        let span = a.condition.span();
        // clang points at where the condition starts.
        let start = Location {
            file: span.file,
            offset: span.start,
        };
        let mark = self.diags.len();
        match self.const_int(&a.condition) {
            None => {
                // An expression with errors of its own gets only those,
                // once.
                self.diags.truncate(mark);
                let errors = self.diags.error_count();
                self.expr(&a.condition);
                if self.diags.error_count() == errors {
                    self.error(
                        start,
                        "static assertion expression is not an integral constant expression",
                    );
                }
            }
            Some(0) => {
                let message = match a.message.as_deref().map(literal::parse_string) {
                    Some(Ok(bytes)) => format!(
                        "static assertion failed: {}",
                        String::from_utf8_lossy(&bytes)
                    ),
                    _ => "static assertion failed".to_owned(),
                };
                self.error(a.location, message);
            }
            Some(_) => {}
        }
    }

    /// A `size_t` result (`sizeof`, `alignof`, `offsetof`).
    fn size_constant(&self, value: u64) -> IntConstant {
        IntConstant::new(value.into(), self.size_type(false))
    }
}
