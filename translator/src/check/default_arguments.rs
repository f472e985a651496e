//! C++ default arguments: the constant each parameter may have, recorded
//! per function from its declarations (a parameter gets one only once), and
//! filled in where a call leaves arguments out. Only constants are there
//! yet: an integer constant expression, or a floating literal for a
//! floating parameter.

use super::*;

/// A C++ default argument, in its parameter's type.
#[derive(Clone, Copy, Debug)]
pub(super) enum DefaultArg {
    /// The bits of an integer (or `bool`) parameter's value.
    Int(u64),
    Float(f64),
}

impl Checker<'_> {
    /// C++: the default arguments of `params` (of types `signature`), by
    /// parameter. Only constants are there yet: an integer constant
    /// expression, or a floating literal for a floating parameter.
    pub(super) fn default_arguments(
        &mut self,
        params: &[ast::ParamDecl],
        signature: &[Type],
    ) -> Vec<Option<(DefaultArg, Location)>> {
        let mut defaults = Vec::with_capacity(params.len());
        for (i, p) in params.iter().enumerate() {
            let Some(e) = &p.default else {
                if defaults.iter().any(Option::is_some) {
                    let name = self.declared_name(&p.declarator);
                    let at = p.declarator.name.map_or(p.location, |(_, at)| at);
                    self.error(
                        at,
                        format!("missing default argument on parameter '{name}'"),
                    );
                }
                defaults.push(None);
                continue;
            };
            let value = match signature.get(i).copied() {
                Some(Type::Scalar(s)) if s.is_float() => {
                    self.float_constant(e).map(DefaultArg::Float)
                }
                Some(Type::Scalar(s)) if p.declarator.reference.is_none() => {
                    let c = self.quietly(|c| c.const_int_as(e, s));
                    c.map(|c| DefaultArg::Int(literal::wrap(c as i64, s)))
                }
                _ => None,
            };
            if value.is_none() {
                let not_yet = crate::language::NOT_YET;
                self.error(
                    e.location,
                    format!("default arguments other than constants are {not_yet}"),
                );
            }
            // A redefinition is reported at the parameter, as clang does.
            let at = p.declarator.name.map_or(p.location, |(_, at)| at);
            defaults.push(value.map(|v| (v, at)));
        }
        defaults
    }

    /// A floating constant a default argument may be: a literal, negated
    /// or not, or an integer constant.
    fn float_constant(&mut self, e: &ast::Expr) -> Option<f64> {
        match &e.kind {
            A::FloatLiteral(_) => match self.expr(e).kind {
                H::Float(f) => Some(f),
                _ => None,
            },
            A::Unary(ast::UnaryOp::Minus, x) => self.float_constant(x).map(|f| -f),
            // `T(0)`, `float(1)`: a constant converted.
            A::Call(..) | A::Cast(..) if self.cxx => match self.quietly(|c| c.rvalue(e)).kind {
                H::Float(f) => Some(f),
                H::Convert(ref x) => match x.kind {
                    H::Float(f) => Some(f),
                    H::Int(i) => Some(i as i64 as f64),
                    _ => None,
                },
                H::Int(i) => Some(i as i64 as f64),
                _ => None,
            },
            _ => self.quietly(|c| c.const_int(e)).map(|c| c as f64),
        }
    }

    /// Records function `id`'s default arguments from one declaration; a
    /// parameter may get one only once (C++17 [dcl.fct.default]/4).
    pub(super) fn add_default_arguments(
        &mut self,
        id: FunctionId,
        defaults: Vec<Option<(DefaultArg, Location)>>,
    ) {
        if defaults.iter().all(Option::is_none) {
            return;
        }
        let known = self
            .default_args
            .entry(id)
            .or_insert_with(|| vec![None; defaults.len()]);
        let mut redefined = Vec::new();
        for (known, new) in known.iter_mut().zip(defaults) {
            match (&known, new) {
                (Some(_), Some((_, at))) => redefined.push(at),
                (None, Some((new, _))) => *known = Some(new),
                _ => {}
            }
        }
        for at in redefined {
            self.error(at, "redefinition of default argument");
        }
    }

    /// The arguments a call of `id` with `given` arguments leaves out, from
    /// its default arguments, if it has them all.
    pub(super) fn defaulted_arguments(
        &self,
        id: FunctionId,
        given: usize,
        param_types: &[Type],
        span: Span,
    ) -> Option<Vec<Expr>> {
        let defaults = self.default_args.get(&id)?;
        (given..param_types.len())
            .map(|i| {
                let ty = param_types[i];
                Some(match (*defaults.get(i)?)? {
                    DefaultArg::Int(bits) => self.int_const(bits, ty, span),
                    DefaultArg::Float(f) => Expr::new(H::Float(f), ty, span),
                })
            })
            .collect()
    }
}
