//! C++'s named return value optimization where clang certainly applies
//! it: when every `return` of a function returning an object names one
//! local variable (`T t; ...; return t;`), that variable is the object
//! returned, neither copied by the `return` nor destroyed by it. C++
//! allows the copy and its elision alike; eliding it where clang does
//! keeps the effects of copies and destructors equal to clang's.
//!
//! The variable is found before the body is checked: every `return`
//! names it, and the body declares it once (so that each `return` names
//! the same variable), and no parameter is named so.

use super::*;

impl Checker<'_> {
    /// The name of the variable every `return` of a function with
    /// parameters `params` and body `body` returns, when it is one local
    /// variable's.
    pub(super) fn named_return(
        &self,
        params: &[ast::ParamDecl],
        body: &ast::Block,
    ) -> Option<Name> {
        let mut returns = Vec::new();
        let mut declared = Vec::new();
        for s in &body.items {
            returns_and_declarations(s, &mut returns, &mut declared);
        }
        let (first, rest) = returns.split_first()?;
        let name = (*first)?;
        let once = declared.iter().filter(|&&d| d == name).count() == 1;
        let parameter = params
            .iter()
            .any(|p| p.declarator.name.is_some_and(|(n, _)| n == name));
        (rest.iter().all(|r| *r == Some(name)) && once && !parameter).then_some(name)
    }
}

/// Adds what each `return` in `s` returns (a name, or `None` for anything
/// else) to `returns`, and the names `s` declares to `declared`.
fn returns_and_declarations(
    s: &ast::Stmt,
    returns: &mut Vec<Option<Name>>,
    declared: &mut Vec<Name>,
) {
    use ast::StmtKind as S;
    crate::stack::guard(|| match &s.kind {
        S::Compound(b) => {
            (b.items.iter()).for_each(|s| returns_and_declarations(s, returns, declared))
        }
        S::Declaration(d) => {
            declared.extend(
                d.declarators
                    .iter()
                    .filter_map(|i| i.declarator.name.map(|(n, _)| n)),
            );
        }
        S::Bindings(b) => declared.extend(b.names.iter().map(|&(n, _)| n)),
        S::If(_, a, b) | S::IfConstexpr(_, a, b) => {
            returns_and_declarations(a, returns, declared);
            if let Some(b) = b {
                returns_and_declarations(b, returns, declared);
            }
        }
        S::While(_, s)
        | S::DoWhile(s, _)
        | S::Switch(_, s)
        | S::Case(_, s)
        | S::Default(s)
        | S::Labeled(_, s)
        | S::Attributed(_, s) => returns_and_declarations(s, returns, declared),
        S::For { init, body, .. } => {
            if let Some(init) = init {
                returns_and_declarations(init, returns, declared);
            }
            returns_and_declarations(body, returns, declared);
        }
        S::RangeFor(r) => returns_and_declarations(&r.elements, returns, declared),
        S::Return(value) => returns.push(match value.as_ref().map(|v| &v.kind) {
            Some(ast::ExprKind::Ident(name)) => Some(*name),
            _ => None,
        }),
        S::Expr(_) | S::Break | S::Continue | S::Goto(..) | S::Pragma(_) | S::StaticAssert(_) => {}
    })
}
