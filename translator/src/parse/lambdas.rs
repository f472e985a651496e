//! C++'s lambda expressions. The parser reads the captures, parameters,
//! return type and body, and notes which names of the enclosing
//! functions' block scopes the body uses ([`ast::Lambda::outer_names`]):
//! those are all the variables it may capture, which the checker then
//! decides from the capture list and default.

use super::keywords::Kw;
use super::{PResult, Parser};
use crate::ast::{
    Capture, CaptureDefault, Declarator, Derived, Expr, ExprKind, Lambda, MethodDecl,
    MethodTemplate, Name, Qualifiers, TemplateParam, TypeSpec,
};
use crate::lexer::CompactToken;
use crate::token::{Punct, TokenKind};
use std::sync::Arc;

/// A lambda whose body is being parsed: how deep the block scopes around
/// it go, and the names of those scopes its body has used.
pub(super) struct LambdaFrame {
    scopes: usize,
    outer_names: Vec<(Name, crate::diagnostic::Location)>,
}

impl Parser {
    /// `[captures](params) -> ret { body }`, the `[` next.
    pub(super) fn lambda(&mut self) -> PResult<Expr> {
        let open = self.bump();
        let mut default = None;
        let mut captures = Vec::new();
        while !self.at(Punct::RBracket) {
            let t = self.peek();
            let ends = |p: &Self, n| {
                p.peek_at(n).is_punct(Punct::Comma) || p.peek_at(n).is_punct(Punct::RBracket)
            };
            if t.is_punct(Punct::Amp) && ends(self, 1) {
                self.pos += 1;
                default = Some(CaptureDefault::Reference);
            } else if t.is_punct(Punct::Assign) && ends(self, 1) {
                self.pos += 1;
                default = Some(CaptureDefault::Copy);
            } else {
                let by_reference = self.eat(Punct::Amp);
                let name = self.peek();
                if self.kw() == Kw::This {
                    return Err(self.unsupported_cxx(name.location, "lambdas capturing 'this'"));
                }
                if name.kind != TokenKind::Identifier {
                    return Err(self.error_here("a capture"));
                }
                self.pos += 1;
                if !ends(self, 0) {
                    return Err(self.unsupported_cxx(name.location, "captures with initializers"));
                }
                captures.push(Capture {
                    name: Name(name.sym),
                    by_reference,
                    location: name.location,
                });
            }
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RBracket)?;
        let mut mutable = false;
        let params = if self.eat(Punct::LParen) {
            let params = self.parameter_list()?;
            // `mutable`: the call operator may change the copies.
            mutable = self.eat_kw(Kw::Mutable);
            self.exception_specification()?;
            params
        } else {
            Derived::Function {
                params: Vec::new(),
                variadic: false,
            }
        };
        let mut params = params;
        let template_params = self.invented_template_parameters(&mut params);
        let mut derived = vec![params];
        let (ret, deduce_return) = if self.eat(Punct::Arrow) {
            let ret = self.type_name()?;
            derived.extend(ret.declarator.derived);
            (ret.specs, false)
        } else {
            (Self::constructor_specs(open.location), true)
        };
        let declarator = Declarator {
            derived,
            ..Declarator::default()
        };
        if !self.at(Punct::LBrace) {
            return Err(self.error_here("'{' of the lambda's body"));
        }
        self.lambda_frames.push(LambdaFrame {
            scopes: self.scope_starts.len(),
            outer_names: Vec::new(),
        });
        let body =
            self.with_template_parameters(&template_params, |p| p.function_body(&declarator));
        let frame = self.lambda_frames.pop().expect("the lambda's frame");
        let body = body?;
        let extent = self.extent_since(open);
        let method = MethodDecl {
            deleted: false,
            specs: ret,
            declarator,
            this_qualifiers: Qualifiers {
                is_const: !mutable,
                ..Qualifiers::default()
            },
            body: Some(body),
            location: open.location,
            constructor: false,
            member_inits: Vec::new(),
            defaulted: false,
        };
        let lambda = Lambda {
            default,
            captures,
            call: Arc::new(MethodTemplate {
                params: template_params,
                method,
                location: open.location,
            }),
            deduce_return,
            outer_names: frame.outer_names,
            location: open.location,
        };
        Ok(extent.make(ExprKind::Lambda(Box::new(lambda)), open.location))
    }

    /// C++'s generic lambda: a template parameter for each parameter
    /// whose type is `auto` (`auto:1`, a name no token spells), which the
    /// parameter's type then names.
    fn invented_template_parameters(&mut self, params: &mut Derived) -> Vec<TemplateParam> {
        let Derived::Function { params, .. } = params else {
            return Vec::new();
        };
        let mut invented = Vec::new();
        for p in params
            .iter_mut()
            .filter(|p| matches!(p.specs.ty, TypeSpec::Auto))
        {
            let name = Name(self.qualified_symbol(&format!("auto:{}", invented.len() + 1)));
            p.specs.ty = TypeSpec::Typedef(name);
            invented.push(TemplateParam {
                pack: p.declarator.pack,
                name,
                location: p.location,
                value_type: None,
                default: None,
            });
        }
        invented
    }

    /// Notes a use of name token `t` (meaning symbol `sym`) for the
    /// lambdas around it whose enclosing block scopes declare it.
    pub(super) fn note_name_use(&mut self, t: CompactToken, sym: u32) {
        let Some(declared) = self.names[sym as usize] else {
            return;
        };
        if !declared.block {
            return;
        }
        for frame in &mut self.lambda_frames {
            if declared.depth as usize <= frame.scopes
                && !frame.outer_names.iter().any(|(n, _)| n.0 == sym)
            {
                frame.outer_names.push((Name(sym), t.location));
            }
        }
    }
}
