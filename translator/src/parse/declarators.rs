//! Declarators (pointers, arrays, functions and their parameters), type
//! names, and initializers.

use super::keywords::{add_qualifier, Kw, ScalarWord};
use super::{PResult, Parser, Reported};
use crate::ast::{
    Attribute, Declarator, Derived, Designator, Expr, Initializer, Name, ParamDecl, Qualifiers,
    TypeName,
};
use crate::diagnostic::{Location, Span};
use crate::token::{Punct, TokenKind};

impl Parser {
    fn pointer_qualifiers(&mut self, attrs: &mut Vec<Attribute>) -> PResult<Qualifiers> {
        let mut q = Qualifiers::default();
        loop {
            let kw = self.kw();
            if add_qualifier(&mut q, kw) {
                self.pos += 1;
            } else if kw == Kw::Attribute {
                self.attributes(attrs)?;
            } else {
                break;
            }
        }
        Ok(q)
    }

    /// A declarator, abstract or not (the caller checks for a name).
    pub(super) fn declarator(&mut self) -> PResult<Declarator> {
        self.nested(Self::declarator_inner)
    }

    fn declarator_inner(&mut self) -> PResult<Declarator> {
        let first = self.peek();
        let mut attributes = Vec::new();
        let mut pointers = Vec::new();
        while self.eat(Punct::Star) {
            pointers.push(Derived::Pointer(self.pointer_qualifiers(&mut attributes)?));
        }
        // C++'s `T &name` and `T &&name`: the reference binds the
        // declarator's name, so a name comes next, or a nested
        // declarator's `(&name)[N]`.
        let rvalue = self.cxx && self.at(Punct::AmpAmp);
        let reference = (self.cxx && (self.at(Punct::Amp) || rvalue)).then(|| self.bump().location);
        if reference.is_some() && (self.at(Punct::Amp) || self.at(Punct::LParen)) {
            return Err(self.unsupported_cxx(self.loc(), "references to references and arrays"));
        }
        // `Ts... args`, `const Ts &... args`: a parameter pack.
        let pack = self.cxx && self.eat(Punct::Ellipsis);
        let mut inner = Declarator {
            pack,
            ..Declarator::default()
        };
        let t = self.peek();
        if self.kw() == Kw::Operator {
            inner.name = Some(self.operator_function_name()?);
        } else if !matches!(self.kw(), Kw::NotIdent | Kw::Attribute) {
            self.pos += 1;
            let name = Name(self.qualified_declarator_name(t));
            inner.name = Some((name, t.location));
            self.enter_namespace_of(name);
            // `f<float>` in `template <> float f<float>(float x)`.
            if self.cxx && self.at(Punct::Lt) && self.template_names.contains_key(&self.resolved(t))
            {
                self.pos += 1;
                let resolved = Name(self.resolved(t));
                inner.template_args = Some(self.template_argument_list(resolved)?);
            }
            if self.cxx && self.at_scope_operator() {
                // `S::name`: a member of class `S`, defined outside it.
                let member = self.peek_at(2);
                let class = Name(self.resolved(t));
                let member = if self.kw_at(2) == Kw::Operator {
                    self.pos += 2;
                    self.operator_function_name()?
                } else if member.is_punct(Punct::Tilde) && self.names_class(class, self.peek_at(3))
                {
                    // `S::~S`: the destructor.
                    let name_at = self.peek_at(3).location;
                    self.pos += 4;
                    (self.destructor_name(class), name_at)
                } else if member.kind == TokenKind::Identifier {
                    self.pos += 3;
                    // A constructor is named by its class's name.
                    let name = if self.names_class(class, member) {
                        class
                    } else {
                        Name(member.sym)
                    };
                    (name, member.location)
                } else {
                    return Err(self.unsupported_cxx(
                        member.location,
                        "qualified names other than 'class::member'",
                    ));
                };
                inner.name = Some(member);
                inner.class = Some((class, t.location));
            }
        } else if self.at(Punct::LParen) && self.is_nested_declarator() {
            let star = self.peek_at(1);
            let star = star.is_punct(Punct::Star).then_some(star.location);
            self.pos += 1;
            inner = self.declarator()?;
            // `(*f)(...)`: OpenCL C has no function pointers (6.9.a).
            if let Some(star) = star {
                if self.at(Punct::RParen) && self.peek_at(1).is_punct(Punct::LParen) {
                    self.diags
                        .error(star, "pointers to functions are not allowed");
                }
            }
            self.expect(Punct::RParen)?;
        } else {
            // clang takes the `(` of `void ()` for a grouping parenthesis
            // where a name is required, and looks for the name after it.
            self.missing_name_at = if t.is_punct(Punct::LParen) {
                self.peek_at(1).location
            } else {
                t.location
            };
        }
        let mut suffixes = Vec::new();
        loop {
            if self.eat(Punct::LBracket) {
                let size = if self.at(Punct::RBracket) {
                    None
                } else {
                    Some(self.assignment_expr()?)
                };
                self.expect(Punct::RBracket)?;
                suffixes.push(Derived::Array(size));
            } else if self.at(Punct::LParen) {
                if self.cxx && self.constructor_arguments_next(&inner, &suffixes) {
                    break;
                }
                self.pos += 1;
                suffixes.push(self.parameter_list()?);
                self.exception_specification()?;
            } else {
                break;
            }
        }
        self.attributes(&mut attributes)?;
        // Most declarators have one of these lists at most: move it in
        // rather than copy it.
        if inner.derived.is_empty() {
            inner.derived = suffixes;
        } else {
            inner.derived.extend(suffixes);
        }
        if inner.derived.is_empty() {
            pointers.reverse();
            inner.derived = pointers;
        } else {
            inner.derived.extend(pointers.into_iter().rev());
        }
        // A nested declarator's reference is its own (`T (&a)[N]`, a
        // reference to an array).
        if reference.is_some() {
            inner.reference = reference;
            inner.rvalue = rvalue;
        }
        if inner.attributes.is_empty() {
            inner.attributes = attributes;
        } else {
            inner.attributes.extend(attributes);
        }
        if let Some((_, name)) = inner.name {
            // In the name's file: a declarator split by an `#include` has
            // the name alone.
            let extent = self.extent_since(first);
            (inner.start, inner.end) = if extent.file == name.file {
                (extent.start, extent.end)
            } else {
                (name.offset, name.offset)
            };
        }
        Ok(inner)
    }

    /// C++'s `noexcept` or `noexcept(constant)` after a parameter list (or
    /// the qualifiers of `this`), skipped: OpenCL has no exceptions.
    pub(super) fn exception_specification(&mut self) -> PResult<()> {
        if !(self.cxx && self.kw() == Kw::Noexcept) {
            return Ok(());
        }
        self.pos += 1;
        if self.eat(Punct::LParen) {
            self.conditional_expr()?;
            self.expect(Punct::RParen)?;
        }
        Ok(())
    }

    /// A declarator that must declare a name (of a declaration or a
    /// function definition, not of a parameter or type name): an abstract
    /// one is clang's error where the name should be.
    pub(super) fn named_declarator(&mut self) -> PResult<Declarator> {
        let declarator = self.declarator()?;
        if declarator.name.is_none() {
            self.diags
                .error(self.missing_name_at, "expected identifier or '('");
            return Err(Reported);
        }
        Ok(declarator)
    }

    /// After `(` in a declarator: is this `(*p)` (nested) or a parameter list?
    fn is_nested_declarator(&self) -> bool {
        let next = self.peek_at(1);
        next.is_punct(Punct::Star)
            || (self.cxx && next.is_punct(Punct::Amp))
            || next.is_punct(Punct::LParen)
            || next.is_punct(Punct::LBracket)
            || (next.kind == TokenKind::Identifier && !self.starts_type(1))
    }

    /// Whether the `(` next after declarator `inner` (with `suffixes` so
    /// far) opens constructor arguments, `S x(1, 2)`, rather than a
    /// parameter list: in a function body, after a name, when what follows
    /// cannot start a parameter (C++ takes a declaration wherever one can
    /// be read, so `S x();` still declares a function).
    fn constructor_arguments_next(&self, inner: &Declarator, suffixes: &[Derived]) -> bool {
        self.function_depth > 0
            && inner.name.is_some()
            && inner.derived.is_empty()
            && suffixes.is_empty()
            && !self.peek_at(1).is_punct(Punct::RParen)
            && !self.starts_type(1)
    }

    /// `( args )` after a declarator: a constructor's arguments.
    pub(super) fn constructor_arguments(&mut self) -> PResult<(Vec<Expr>, Location)> {
        let lparen = self.bump().location;
        let mut args = Vec::new();
        while !self.at(Punct::RParen) {
            args.push(self.argument()?);
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RParen)?;
        Ok((args, lparen))
    }

    pub(super) fn parameter_list(&mut self) -> PResult<Derived> {
        let mut params = Vec::new();
        let mut variadic = false;
        // `(void)` declares no parameters.
        if self.kw() == Kw::Scalar(ScalarWord::Void) && self.peek_at(1).is_punct(Punct::RParen) {
            self.pos += 2;
            return Ok(Derived::Function { params, variadic });
        }
        while !self.at(Punct::RParen) {
            if self.eat(Punct::Ellipsis) {
                variadic = true;
                break;
            }
            let location = self.loc();
            let specs = self.decl_specs()?;
            let declarator = self.declarator()?;
            let default = if self.cxx && self.eat(Punct::Assign) {
                Some(self.assignment_expr()?)
            } else {
                None
            };
            params.push(ParamDecl {
                specs,
                declarator,
                location,
                default,
            });
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RParen)?;
        Ok(Derived::Function { params, variadic })
    }

    pub(super) fn type_name(&mut self) -> PResult<TypeName> {
        let specs = self.decl_specs()?;
        let declarator = self.declarator()?;
        if let Some((_, loc)) = declarator.name {
            self.diags.error(loc, "unexpected name in a type");
        }
        Ok(TypeName { specs, declarator })
    }

    pub(super) fn initializer(&mut self) -> PResult<Initializer> {
        if !self.at(Punct::LBrace) {
            // An item may be a pack expansion (`{xs...}`).
            return Ok(Initializer::Expr(self.argument()?));
        }
        self.nested(Self::initializer_list)
    }

    /// `{ ... }`, with designators.
    fn initializer_list(&mut self) -> PResult<Initializer> {
        let lbrace = self.bump();
        let mut items = Vec::new();
        while !self.at(Punct::RBrace) {
            let mut designators = Vec::new();
            loop {
                if self.eat(Punct::LBracket) {
                    designators.push(Designator::Index(self.conditional_expr()?));
                    self.expect(Punct::RBracket)?;
                } else if self.at(Punct::Dot) {
                    self.pos += 1;
                    let t = self.bump();
                    if t.kind != TokenKind::Identifier {
                        self.pos -= 1;
                        return Err(self.error_here("a field name"));
                    }
                    designators.push(Designator::Field(Name(t.sym), t.location));
                } else {
                    break;
                }
            }
            if !designators.is_empty() {
                self.expect(Punct::Assign)?;
            }
            items.push((designators, self.initializer()?));
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RBrace)?;
        let extent = self.extent_since(lbrace);
        let span = Span::new(lbrace.location, extent.start, extent.end);
        Ok(Initializer::List(items, span))
    }
}
