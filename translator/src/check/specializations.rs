//! C++ class template specializations: `template <> struct S<int>` (an
//! explicit one) and `template <typename T> struct S<T *>` (a partial
//! one). An instance of `S` is made from the specialization its
//! arguments match, else from the template.
//!
//! A partial specialization's pattern takes, for each argument, a type
//! with no parameter, a parameter (`T`, `const T`), a pointer to one
//! (`T *`, `const T *`), an instance of another template whose arguments
//! are such patterns (`Pair<T, U>`), or an integer or integer parameter.
//! Other patterns are a named error where the specialization is declared,
//! never one that silently matches nothing. Where two partial
//! specializations match, C++ would take the more specialized one; that
//! ordering is a named error for now, not a guess.

use super::templates::TemplateArgument;
use super::*;
use std::sync::Arc;

/// A specialization and its parameters' arguments.
type Chosen = (Arc<ast::ClassTemplate>, Vec<TemplateArgument>);

impl Checker<'_> {
    /// Declares `t`, a specialization of class template `tag`.
    pub(super) fn class_specialization(&mut self, tag: Name, t: &Arc<ast::ClassTemplate>) {
        let Some(primary) = self.class_templates.get(&tag).cloned() else {
            let spelling = self.spelling(tag);
            self.error(
                t.record.tag_location,
                format!("explicit specialization of undeclared template '{spelling}'"),
            );
            return;
        };
        let pattern = t.record.pattern.as_deref().unwrap_or_default();
        let variadic = primary.params.iter().any(|p| p.pack);
        if pattern.len() != primary.params.len() && !variadic {
            let spelling = self.spelling(tag);
            self.error(
                t.record.tag_location,
                format!(
                    "wrong number of template arguments for the specialization of '{spelling}'"
                ),
            );
            return;
        }
        if let Some(at) = pattern
            .iter()
            .find_map(|p| self.unsupported_pattern(&t.params, p))
        {
            let not_yet = crate::language::NOT_YET;
            self.error(at, format!("partial specialization patterns other than 'T', 'const T', 'T *', 'C<...>' and constants are {not_yet}"));
            return;
        }
        self.class_specializations
            .entry(tag)
            .or_default()
            .push(Arc::clone(t));
    }

    /// Where pattern `p` has a form `match_argument` cannot match, if it
    /// has one.
    fn unsupported_pattern(
        &self,
        params: &[ast::TemplateParam],
        p: &ast::TemplateArg,
    ) -> Option<Location> {
        let ast::TemplateArg::Type(written) = p else {
            return None;
        };
        if !self.mentions_parameter(params, written) {
            return None;
        }
        let at = written.specs.type_location;
        match (&written.specs.ty, &written.declarator.derived[..]) {
            (ast::TypeSpec::Typedef(_), [] | [ast::Derived::Pointer(_)]) => None,
            (ast::TypeSpec::TemplateId(_, args), []) => args
                .iter()
                .find_map(|a| self.unsupported_pattern(params, a)),
            _ => Some(at),
        }
    }

    /// Whether type `written` names one of `params`.
    fn mentions_parameter(&self, params: &[ast::TemplateParam], written: &ast::TypeName) -> bool {
        match &written.specs.ty {
            ast::TypeSpec::Typedef(name) => params.iter().any(|p| p.name == *name),
            ast::TypeSpec::TemplateId(_, args) => args.iter().any(|a| match a {
                ast::TemplateArg::Type(t) => self.mentions_parameter(params, t),
                ast::TemplateArg::Value(e) => {
                    matches!(e.kind, ast::ExprKind::Ident(n) if params.iter().any(|p| p.name == n))
                }
            }),
            _ => false,
        }
    }

    /// The specialization of class template `name` that `arguments`
    /// select, with its parameters' arguments: an explicit one before a
    /// partial one. `Err` after the error for two partial ones.
    pub(super) fn specialization_for(
        &mut self,
        name: Name,
        arguments: &[TemplateArgument],
        at: Location,
    ) -> Result<Option<Chosen>, ()> {
        let candidates = self
            .class_specializations
            .get(&name)
            .cloned()
            .unwrap_or_default();
        let mut matched: Vec<Chosen> = Vec::new();
        for s in candidates {
            if let Some(bindings) = self.match_specialization(&s, arguments) {
                if s.params.is_empty() {
                    return Ok(Some((s, bindings)));
                }
                matched.push((s, bindings));
            }
        }
        if matched.len() > 1 {
            let not_yet = crate::language::NOT_YET;
            let spelling = self.spelling(name);
            self.error(at, format!("choosing among several partial specializations of '{spelling}' that match is {not_yet}"));
            return Err(());
        }
        Ok(matched.pop())
    }

    /// The arguments of `s`'s parameters for which its pattern is
    /// `arguments`, if it is.
    ///
    /// Packs among `arguments` count as their elements, and a pattern
    /// that ends in a pack expansion (`S<T, Rest...>`) binds that pack to
    /// the elements left.
    fn match_specialization(
        &mut self,
        s: &ast::ClassTemplate,
        arguments: &[TemplateArgument],
    ) -> Option<Vec<TemplateArgument>> {
        let pattern = s.record.pattern.as_deref()?;
        let arguments = self.pack_elements_of(arguments);
        let (fixed, rest) = match pattern.split_last() {
            Some((last, fixed)) if is_pack_expansion(last) => (fixed, Some(last)),
            _ => (pattern, None),
        };
        let counts_match = match rest {
            Some(_) => arguments.len() >= fixed.len(),
            None => arguments.len() == fixed.len(),
        };
        if !counts_match {
            return None;
        }
        let mut bound = vec![None; s.params.len()];
        for (p, &a) in fixed.iter().zip(&arguments) {
            if !self.match_argument(&s.params, p, a, &mut bound) {
                return None;
            }
        }
        if let Some(rest) = rest {
            let elements = arguments[fixed.len()..].to_vec();
            let pack = TemplateArgument::Pack(self.packs.intern(elements));
            if !self.match_argument(&s.params, rest, pack, &mut bound) {
                return None;
            }
        }
        // A pack the pattern names nowhere has no elements.
        for (slot, param) in bound.iter_mut().zip(&s.params) {
            if slot.is_none() && param.pack {
                *slot = Some(TemplateArgument::Pack(self.packs.intern(Vec::new())));
            }
        }
        bound.into_iter().collect()
    }

    fn match_argument(
        &mut self,
        params: &[ast::TemplateParam],
        p: &ast::TemplateArg,
        a: TemplateArgument,
        bound: &mut [Option<TemplateArgument>],
    ) -> bool {
        let param_index = |name: Name| params.iter().position(|p| p.name == name);
        match (p, a) {
            (ast::TemplateArg::Value(e), TemplateArgument::Value(value, _)) => {
                if let ast::ExprKind::Ident(n) = e.kind {
                    if let Some(i) = param_index(n) {
                        return bind(bound, i, a);
                    }
                }
                self.quietly(|c| c.const_int(e)) == Some(i128::from(value))
            }
            // `Rest...` takes a pack whole.
            (ast::TemplateArg::Type(written), TemplateArgument::Pack(_))
                if written.declarator.pack =>
            {
                match written.specs.ty {
                    ast::TypeSpec::Typedef(n) => param_index(n).is_some_and(|i| bind(bound, i, a)),
                    _ => false,
                }
            }
            (ast::TemplateArg::Value(e), TemplateArgument::Pack(_)) => match &e.kind {
                ast::ExprKind::PackExpansion(pattern) => match pattern.kind {
                    ast::ExprKind::Ident(n) => param_index(n).is_some_and(|i| bind(bound, i, a)),
                    _ => false,
                },
                _ => false,
            },
            // Template arguments are never references here (a forwarding
            // reference deduces the referent), so `S<T &>` matches none.
            (ast::TemplateArg::Type(written), _) if written.declarator.reference.is_some() => false,
            (ast::TemplateArg::Type(written), TemplateArgument::Type(ty, quals)) => {
                if !self.mentions_parameter(params, written) {
                    let (want, space) = self.quietly(|c| c.type_name_and_space(written));
                    return want == ty
                        && space == quals.address_space
                        && written.specs.qualifiers.is_const == quals.is_const;
                }
                let own = written.specs.qualifiers;
                match (&written.specs.ty, &written.declarator.derived[..]) {
                    (&ast::TypeSpec::Typedef(n), []) => {
                        let Some(i) = param_index(n) else {
                            return false;
                        };
                        // `const T` takes a `const` argument, and `T` is
                        // it without the `const`; so for an address space
                        // (`__global T`).
                        if own.is_const && !quals.is_const {
                            return false;
                        }
                        if own.address_space.is_some() && own.address_space != quals.address_space {
                            return false;
                        }
                        let quals = ast::Qualifiers {
                            is_const: quals.is_const && !own.is_const,
                            address_space: quals
                                .address_space
                                .filter(|_| own.address_space.is_none()),
                            ..quals
                        };
                        bind(bound, i, TemplateArgument::Type(ty, quals))
                    }
                    (&ast::TypeSpec::Typedef(n), [ast::Derived::Pointer(_)]) => {
                        let (Some(i), Some(pointee)) = (param_index(n), self.pointee(ty)) else {
                            return false;
                        };
                        if own.is_const && !pointee.is_const {
                            return false;
                        }
                        // As deduction has it: what the pattern writes, T
                        // does not take.
                        let quals = ast::Qualifiers {
                            is_const: pointee.is_const && !own.is_const,
                            address_space: own.address_space.xor(Some(pointee.space)),
                            ..ast::Qualifiers::default()
                        };
                        bind(bound, i, TemplateArgument::Type(pointee.ty, quals))
                    }
                    (&ast::TypeSpec::TemplateId(class, ref written_args), []) => {
                        let Type::Record(r) = ty else { return false };
                        let Some((made_from, instance_args)) = self.instance_of.get(&r).cloned()
                        else {
                            return false;
                        };
                        made_from == class
                            && written_args.len() == instance_args.len()
                            && (written_args.iter().zip(instance_args))
                                .all(|(w, a)| self.match_argument(params, w, a, bound))
                    }
                    _ => false,
                }
            }
            _ => false,
        }
    }
}

/// Whether template argument `p` is a pack expansion, `Ts...` or `Ns...`.
pub(super) fn is_pack_expansion(p: &ast::TemplateArg) -> bool {
    match p {
        ast::TemplateArg::Type(t) => t.declarator.pack,
        ast::TemplateArg::Value(e) => matches!(e.kind, ast::ExprKind::PackExpansion(_)),
    }
}

/// Binds parameter `i` to `argument`, or checks that it is bound to it.
fn bind(bound: &mut [Option<TemplateArgument>], i: usize, argument: TemplateArgument) -> bool {
    match bound[i] {
        None => {
            bound[i] = Some(argument);
            true
        }
        Some(earlier) => earlier == argument,
    }
}
