//! Statements and blocks, where a declaration and an expression statement
//! are told apart.

use super::keywords::Kw;
use super::{PResult, Parser, Reported};
use crate::ast::{Block, Declaration, Name, Stmt, StmtKind};
use crate::lexer::CompactToken;
use crate::token::{Punct, TokenKind};

impl Parser {
    pub(super) fn block(&mut self) -> PResult<Block> {
        let location = self.loc();
        self.expect(Punct::LBrace)?;
        self.push_scope();
        // Room for a typical block without regrowing.
        let mut items = Vec::with_capacity(8);
        while !self.at(Punct::RBrace) && self.peek().kind != TokenKind::Eof {
            let start = self.pos;
            match self.statement() {
                Ok(s) => items.push(s),
                Err(Reported) => {
                    self.recover();
                    if self.pos == start {
                        self.pos += 1;
                    }
                }
            }
        }
        self.pop_scope();
        self.expect(Punct::RBrace)?;
        Ok(Block { items, location })
    }

    fn statement(&mut self) -> PResult<Stmt> {
        self.nested(Self::statement_inner)
    }

    pub(super) fn sub_statement(&mut self) -> PResult<Box<Stmt>> {
        // A sub-statement gets its own scope (C99 6.8.4, 6.8.5).
        self.push_scope();
        let s = self.statement();
        self.pop_scope();
        Ok(Box::new(s?))
    }

    /// Statement `kind`, which started at token `first` and ends with the
    /// last token read.
    fn finish_statement(&self, kind: StmtKind, first: CompactToken) -> Stmt {
        Stmt {
            kind,
            location: first.location,
            end: self.extent_since(first).end,
        }
    }

    fn statement_inner(&mut self) -> PResult<Stmt> {
        let first = self.peek();
        if self.kw() == Kw::StaticAssert {
            let kind = StmtKind::StaticAssert(self.static_assert()?);
            return Ok(self.finish_statement(kind, first));
        }
        if self.kw() == Kw::Using && self.cxx && self.at_using_namespace_member() {
            self.using_directive_or_declaration()?;
            return Ok(self.finish_statement(StmtKind::Expr(None), first));
        }
        if self.kw() == Kw::Using {
            let kind = StmtKind::Declaration(self.alias_declaration()?);
            return Ok(self.finish_statement(kind, first));
        }
        if self.kw() == Kw::Namespace {
            self.diags.error(
                first.location,
                "namespaces can only be defined in global or namespace scope",
            );
            return Err(Reported);
        }
        if self.kw() == Kw::Attribute {
            // Statement attributes (`__attribute__((opencl_unroll_hint(4)))
            // for ...`) come before loops; anything else after attributes
            // is a declaration.
            let start = self.pos;
            let mut attributes = Vec::new();
            self.attributes(&mut attributes)?;
            if matches!(
                self.kw(),
                Kw::For | Kw::While | Kw::Do | Kw::If | Kw::Switch
            ) {
                let inner = self.statement()?;
                let kind = StmtKind::Attributed(attributes, Box::new(inner));
                return Ok(self.finish_statement(kind, first));
            }
            self.pos = start;
        }
        let t = self.peek();
        let kind = match t.kind {
            TokenKind::Pragma => {
                self.pos += 1;
                StmtKind::Pragma(Name(t.sym))
            }
            TokenKind::Punct(Punct::LBrace) => StmtKind::Compound(self.block()?),
            TokenKind::Punct(Punct::Semicolon) => {
                self.pos += 1;
                StmtKind::Expr(None)
            }
            TokenKind::Identifier => match self.kw() {
                Kw::If => {
                    self.pos += 1;
                    let constexpr = self.eat_kw(Kw::Constexpr);
                    self.expect(Punct::LParen)?;
                    let cond = self.expr()?;
                    self.expect(Punct::RParen)?;
                    let then = self.sub_statement()?;
                    let otherwise = if self.eat_kw(Kw::Else) {
                        Some(self.sub_statement()?)
                    } else {
                        None
                    };
                    if constexpr {
                        StmtKind::IfConstexpr(cond, then, otherwise)
                    } else {
                        StmtKind::If(cond, then, otherwise)
                    }
                }
                Kw::While => {
                    self.pos += 1;
                    self.expect(Punct::LParen)?;
                    let cond = self.expr()?;
                    self.expect(Punct::RParen)?;
                    StmtKind::While(cond, self.sub_statement()?)
                }
                Kw::Do => {
                    self.pos += 1;
                    let body = self.sub_statement()?;
                    if !self.eat_kw(Kw::While) {
                        return Err(self.error_here("'while'"));
                    }
                    self.expect(Punct::LParen)?;
                    let cond = self.expr()?;
                    self.expect(Punct::RParen)?;
                    self.expect_semicolon("after do/while statement")?;
                    StmtKind::DoWhile(body, cond)
                }
                Kw::For => {
                    self.pos += 1;
                    self.push_scope();
                    let result = self.for_statement();
                    self.pop_scope();
                    result?
                }
                Kw::Switch => {
                    self.pos += 1;
                    self.expect(Punct::LParen)?;
                    let value = self.expr()?;
                    self.expect(Punct::RParen)?;
                    StmtKind::Switch(value, self.sub_statement()?)
                }
                Kw::Case => {
                    self.pos += 1;
                    let value = self.conditional_expr()?;
                    self.expect(Punct::Colon)?;
                    StmtKind::Case(value, Box::new(self.statement()?))
                }
                Kw::Default if self.peek_at(1).is_punct(Punct::Colon) => {
                    self.pos += 2;
                    StmtKind::Default(Box::new(self.statement()?))
                }
                Kw::Break => {
                    self.pos += 1;
                    self.expect_semicolon("after break statement")?;
                    StmtKind::Break
                }
                Kw::Continue => {
                    self.pos += 1;
                    self.expect_semicolon("after continue statement")?;
                    StmtKind::Continue
                }
                Kw::Return => {
                    self.pos += 1;
                    let value = if self.at(Punct::Semicolon) {
                        None
                    } else {
                        Some(self.expr()?)
                    };
                    self.expect_semicolon("after return statement")?;
                    StmtKind::Return(value)
                }
                Kw::Goto => {
                    self.pos += 1;
                    let label = self.bump();
                    if label.kind != TokenKind::Identifier {
                        self.pos -= 1;
                        return Err(self.error_here("identifier"));
                    }
                    self.expect_semicolon("after goto statement")?;
                    StmtKind::Goto(Name(label.sym), label.location)
                }
                _ if self.peek_at(1).is_punct(Punct::Colon)
                    && !self.scope_operator_at(1)
                    && !self.starts_declaration() =>
                {
                    self.pos += 2;
                    // Before C23 a label names a statement: not the end of
                    // a block, not a declaration (clang-15's wording).
                    if self.at(Punct::RBrace) {
                        return Err(self.error_here("statement"));
                    }
                    let declares = self.starts_type(0)
                        || matches!(self.kw(), Kw::Storage(_) | Kw::Inline | Kw::Kernel);
                    if declares {
                        return Err(self.error_here("expression"));
                    }
                    StmtKind::Labeled(Name(t.sym), Box::new(self.statement()?))
                }
                _ if self.starts_declaration() => self.declaration_statement()?,
                _ => self.expression_statement()?,
            },
            _ => self.expression_statement()?,
        };
        Ok(self.finish_statement(kind, first))
    }

    fn expression_statement(&mut self) -> PResult<StmtKind> {
        let e = self.expr()?;
        self.expect_semicolon("after expression")?;
        Ok(StmtKind::Expr(Some(e)))
    }

    /// A declaration as a statement: C++'s structured bindings
    /// (`auto [a, b] = e;`) among them.
    fn declaration_statement(&mut self) -> PResult<StmtKind> {
        if self.cxx && self.kw() == Kw::Auto {
            let start = self.pos;
            let specs = self.decl_specs()?;
            let by_reference = self.at(Punct::Amp) && self.peek_at(1).is_punct(Punct::LBracket);
            if self.at(Punct::LBracket) || by_reference {
                return self.structured_bindings(specs, by_reference);
            }
            self.pos = start;
        }
        Ok(StmtKind::Declaration(self.declaration()?))
    }

    /// The rest of `auto [a, b] = e;` (`auto &[a, b]` when
    /// `by_reference`), its `&` or `[` next.
    fn structured_bindings(
        &mut self,
        specs: crate::ast::DeclSpecs,
        by_reference: bool,
    ) -> PResult<StmtKind> {
        let reference = by_reference.then(|| self.bump().location);
        let open = self.bump();
        let mut names = Vec::new();
        loop {
            let t = self.peek();
            if t.kind != TokenKind::Identifier {
                return Err(self.error_here("identifier"));
            }
            self.pos += 1;
            names.push((Name(t.sym), t.location));
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RBracket)?;
        if !self.eat(Punct::Assign) {
            return Err(self.error_here("'=' and an initializer"));
        }
        let init = self.assignment_expr()?;
        self.expect_semicolon("at end of declaration")?;
        // One hidden name per declaration, so that several in a scope
        // do not clash.
        let hidden =
            Name(self.qualified_symbol(&format!("structured binding {}", open.location.offset)));
        let at = open.location;
        let object = crate::ast::Declaration {
            location: specs.location,
            specs,
            declarators: vec![crate::ast::InitDeclarator {
                declarator: crate::ast::Declarator {
                    name: Some((hidden, at)),
                    reference,
                    start: at.offset,
                    end: open.end(),
                    ..Default::default()
                },
                init: Some(crate::ast::Initializer::Expr(init)),
                arguments: None,
            }],
        };
        for (name, _) in &names {
            self.declare_name(*name, false);
        }
        let hidden = crate::ast::Expr {
            kind: crate::ast::ExprKind::Ident(hidden),
            location: at,
            start: at.offset,
            end: open.end(),
        };
        Ok(StmtKind::Bindings(Box::new(crate::ast::Bindings {
            object,
            hidden,
            names,
        })))
    }

    fn declaration(&mut self) -> PResult<Declaration> {
        let specs = self.decl_specs()?;
        if self.eat(Punct::Semicolon) {
            return Ok(Declaration {
                location: specs.location,
                specs,
                declarators: Vec::new(),
            });
        }
        let first = self.named_declarator()?;
        self.rest_of_declaration(specs, first)
    }

    fn for_statement(&mut self) -> PResult<StmtKind> {
        self.expect(Punct::LParen)?;
        let first = self.peek();
        let init = if self.eat(Punct::Semicolon) {
            None
        } else if self.starts_declaration() {
            let specs = self.decl_specs()?;
            let declarator = self.named_declarator()?;
            if self.cxx && self.at(Punct::Colon) && !self.at_scope_operator() {
                return self.range_for(specs, declarator, first);
            }
            let kind = StmtKind::Declaration(self.rest_of_declaration(specs, declarator)?);
            Some(Box::new(self.finish_statement(kind, first)))
        } else {
            let kind = self.expression_statement()?;
            Some(Box::new(self.finish_statement(kind, first)))
        };
        let cond = if self.at(Punct::Semicolon) {
            None
        } else {
            Some(self.expr()?)
        };
        self.expect_semicolon("in 'for' statement specifier")?;
        let step = if self.at(Punct::RParen) {
            None
        } else {
            Some(self.expr()?)
        };
        self.expect(Punct::RParen)?;
        let body = self.sub_statement()?;
        Ok(StmtKind::For {
            init,
            cond,
            step,
            body,
        })
    }
}
