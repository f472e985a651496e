//! C++ operator overloading: an operator with an operand of class type
//! calls the `operator` function its operands pick, a member function of
//! the left operand's class (`a + b` is `a.operator+(b)`) or else a
//! function of the program (`operator+(a, b)`). The parser names each
//! `operator op` by a symbol of its own
//! ([`crate::language::OVERLOADABLE_OPERATORS`]).
//!
//! Members are tried before functions of the program; C++ ranks them
//! together, which differs only where both kinds take the operands.

use super::*;

impl Checker<'_> {
    /// Whether an operator with these operands is C++'s to overload: one
    /// of them is an object of class type.
    pub(super) fn overloads_operator(&self, operands: &[&Expr]) -> bool {
        self.cxx && operands.iter().any(|o| matches!(o.ty, Type::Record(_)))
    }

    /// The call of `operator op` that `operands` (checked, not decayed)
    /// pick, or clang's error when none takes them.
    pub(super) fn overloaded_operator(
        &mut self,
        op: &str,
        operands: Vec<Expr>,
        span: Span,
    ) -> Expr {
        let error = || Expr::new(H::Int(0), Type::Error, span);
        if operands.iter().any(|o| o.ty.is_error()) {
            return error();
        }
        let name = self
            .names
            .rfind(&crate::language::operator_name(op))
            .map(Name);
        if let (Some(name), Type::Record(r)) = (name, operands[0].ty) {
            let rest = |_: &mut Self| operands[1..].to_vec();
            let found = self.member_functions(r, name, rest, span.location());
            if let Some((candidates, path)) = found {
                let object = self.base_object(operands[0].clone(), &path);
                let object = self.object_address(object);
                let rest = operands[1..].to_vec();
                let viable = self.quietly(|c| {
                    let values: Vec<Expr> = std::iter::once(object.clone())
                        .chain(rest.iter().map(|a| c.decay(a.clone())))
                        .collect();
                    c.resolve_overload(name, &candidates, &values, span)
                        .is_some()
                });
                if viable {
                    return self.checked_call(
                        name,
                        &candidates,
                        Some(object),
                        rest,
                        span,
                        span.location(),
                    );
                }
            }
        }
        if let Some(name) = name {
            if let Some(Symbol::Function(first)) = self.lookup(name) {
                let candidates = self.overload_set(first);
                let Some(candidates) = self.visible_overloads(name, candidates, span) else {
                    return error();
                };
                return self.checked_call(name, &candidates, None, operands, span, span.location());
            }
        }
        let types: Vec<String> = operands.iter().map(|o| self.operand_type(o)).collect();
        let message = match &types[..] {
            [a] => format!("invalid argument type '{a}' to unary expression"),
            [a, b] if op == "[]" => {
                format!("type '{a}' does not provide a subscript operator for '{b}'")
            }
            [a, b] => format!("invalid operands to binary expression ('{a}' and '{b}')"),
            _ => format!("no viable overloaded '{op}'"),
        };
        self.error(span, message);
        error()
    }

    /// An operand's type as clang writes it in C++: a class by its name,
    /// after its address space when the operand is an object.
    fn operand_type(&mut self, operand: &Expr) -> String {
        match operand.ty {
            Type::Record(_) if self.is_place(operand) => {
                let object = Pointee {
                    ty: operand.ty,
                    is_const: self.is_const_qualified(operand),
                    is_volatile: false,
                    space: self.place_space(operand),
                    endian_host: false,
                };
                self.object_type(object, true)
            }
            Type::Record(r) => self.class_spelling(r),
            ty => self.display(ty),
        }
    }

    /// C++: `object(args)` for an object of a class with `operator()` (a
    /// function object, a lambda's closure): a call of that member
    /// function. `None` where `callee` is no such object.
    pub(super) fn call_operator(
        &mut self,
        callee: &ast::Expr,
        args: &[&ast::Expr],
        span: Span,
        rparen: Location,
    ) -> Option<Expr> {
        if !self.cxx {
            return None;
        }
        let Type::Record(r) = self.quietly(|c| c.expr(callee).ty) else {
            return None;
        };
        let name = Name(self.names.rfind(&crate::language::operator_name("()"))?);
        let values = |c: &mut Self| c.argument_values(args);
        let (candidates, path) = self.member_functions(r, name, values, span.location())?;
        let object = self.expr(callee);
        let object = self.base_object(object, &path);
        let at = span.with_caret(callee.location);
        // A lambda's captures by reference are arguments of their own.
        let mut written = self.reference_capture_arguments(r, &object, span);
        let this = self.object_address(object);
        written.extend(args.iter().map(|a| self.expr(a)));
        Some(self.checked_call(name, &candidates, Some(this), written, at, rparen))
    }
}
