//! C++ conversion functions (`operator float() const`): an object of a
//! class that has one converts to another type through it, where a value
//! of that type is wanted (an initialiser, an assignment, an argument, a
//! `return`, a cast), then by the standard conversions from its result.
//! The one returning the wanted type exactly is taken, else the class's
//! only one; a class with several and none exact is clang's ambiguity.

use super::*;
use crate::types::Record;
use naga::Handle;

impl Checker<'_> {
    /// The conversion functions of class `r`, by name.
    /// Found through the class's own member names (a conversion
    /// function's name is `operator T`), not by a search of every class's
    /// member functions: overload ranks ask for each class argument.
    fn conversion_functions(&self, r: Handle<Record>) -> Vec<(Name, FunctionId)> {
        let members = self.class_members.get(&r).map_or(&[][..], Vec::as_slice);
        members
            .iter()
            .filter(|(name, symbol)| {
                matches!(symbol, Symbol::Method) && self.text(*name).starts_with("operator ")
            })
            .flat_map(|(name, _)| {
                let ids = self.methods.get(&(r, *name)).map_or(&[][..], Vec::as_slice);
                ids.iter().map(|&id| (*name, id))
            })
            .collect()
    }

    /// Whether a value of class type `from` converts to non-class type
    /// `to` through a conversion function, for overload ranks.
    pub(super) fn converts_by_function(&self, from: Type, to: Type) -> bool {
        match (from, to) {
            (Type::Record(_), Type::Record(_)) => false,
            (Type::Record(r), _) => !self.conversion_functions(r).is_empty(),
            _ => false,
        }
    }

    /// `v`, an object of a class with conversion functions, converted to
    /// `to` (not a class) by one; `None` where its class has none.
    pub(super) fn convert_by_function(&mut self, v: Expr, to: Type) -> Option<Expr> {
        let Type::Record(r) = v.ty else {
            return None;
        };
        let functions = self.conversion_functions(r);
        let exact = functions
            .iter()
            .find(|(_, id)| self.program.functions[*id].ret == to);
        let span = v.span;
        let (name, id) = match (exact, &functions[..]) {
            (Some(&chosen), _) => chosen,
            (None, [only]) => *only,
            (None, []) => return None,
            (None, _) => {
                let (from, to) = (self.class_spelling(r), self.display(to));
                self.error(
                    span,
                    format!("conversion from '{from}' to '{to}' is ambiguous"),
                );
                return Some(Expr::new(H::Int(0), Type::Error, span));
            }
        };
        let this = self.object_address(v);
        Some(self.checked_call(name, &[id], Some(this), Vec::new(), span, span.location()))
    }
}
