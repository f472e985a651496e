//! Expressions, by precedence climbing for the binary operators: casts
//! and compound literals, unary and postfix operators, `sizeof`,
//! `vec_step` and vector literals.

use super::keywords::Kw;
use super::{Extent, PResult, Parser, MAX_NESTING};
use crate::ast::{
    BinaryOp, Declarator, Expr, ExprKind, Fold, FoldOp, MemberTemplateId, Name, New, NewInit,
    OffsetofStep, TemplateArg, TypeName, UnaryOp,
};
use std::sync::Arc;

/// The precedence of `+` and `-` in `binary_op`: the loosest operators a
/// template's value argument may hold unparenthesised, so that `>` and
/// `>>` end its list (C++ takes `>>` there for two `>`; it would allow an
/// unparenthesised `<<`, which this does not).
const ADDITIVE_PRECEDENCE: u8 = 9;
use crate::lexer::CompactToken;
use crate::token::{Punct, TokenKind};
use crate::types;

impl Parser {
    pub(super) fn expr(&mut self) -> PResult<Expr> {
        let e = self.assignment_expr()?;
        if !self.at(Punct::Comma) {
            return Ok(e);
        }
        self.comma_tail(e)
    }

    // The operator cases below are out of line, so that the paths through
    // the precedence levels to a lone operand, the common ones, stay small.
    /// Each `,` nests the tree a level, as the operators of
    /// [`Parser::binary_tail`] do.
    #[inline(never)]
    fn comma_tail(&mut self, e: Expr) -> PResult<Expr> {
        self.chain(e, |p, e| {
            if !p.at(Punct::Comma) {
                return Ok(Err(e));
            }
            let comma = p.peek();
            if p.peek_at(1).is_punct(Punct::Ellipsis) {
                // `(f(args), ...)`: a fold expression's operator.
                return Ok(Err(e));
            }
            p.pos += 1;
            let rhs = p.assignment_expr()?;
            let extent = Extent::of(comma).expr(&e).expr(&rhs);
            Ok(Ok(
                extent.make(ExprKind::Comma(Box::new((e, rhs))), comma.location)
            ))
        })
    }

    /// Builds a left-nested chain from `first`: `link` makes the next,
    /// deeper node (`Ok(Ok(node))`) or gives the chain back when it ends
    /// (`Ok(Err(chain))`). Each link counts as a level of nesting while
    /// the rest of the chain is parsed: the loop itself needs no stack,
    /// but every later stage walks the tree it builds by recursion.
    fn chain(
        &mut self,
        first: Expr,
        mut link: impl FnMut(&mut Self, Expr) -> PResult<Result<Expr, Expr>>,
    ) -> PResult<Expr> {
        let outer = self.depth;
        let mut e = first;
        let result = loop {
            match link(self, e) {
                Ok(Ok(deeper)) => e = deeper,
                Ok(Err(done)) => break Ok(done),
                Err(reported) => break Err(reported),
            }
            if let Err(reported) = self.enter() {
                break Err(reported);
            }
        };
        self.depth = outer;
        result
    }

    pub(super) fn assignment_expr(&mut self) -> PResult<Expr> {
        if let Some(leaf) = self.lone_operand() {
            return Ok(leaf);
        }
        self.nested(Self::assignment_inner)
    }

    /// A name or number that is a whole expression, ended by `,`, `)`,
    /// `]` or `;`: most call arguments (macro arguments are parenthesised)
    /// and subscripts. Taken here, it skips the descent through every
    /// precedence level to the same leaf. Not at the nesting limit, where
    /// the descent would report the nesting instead.
    #[inline]
    fn lone_operand(&mut self) -> Option<Expr> {
        let ends = matches!(
            self.peek_at(1).kind,
            TokenKind::Punct(Punct::Comma | Punct::RParen | Punct::RBracket | Punct::Semicolon)
        );
        if !ends || self.depth >= MAX_NESTING {
            return None;
        }
        let t = self.peek();
        let kind = match t.kind {
            TokenKind::Identifier if self.kw() == Kw::Name => ExprKind::Ident(self.name_used(t)),
            TokenKind::IntLiteral => ExprKind::IntLiteral(Name(t.sym)),
            TokenKind::FloatLiteral => ExprKind::FloatLiteral(Name(t.sym)),
            _ => return None,
        };
        self.pos += 1;
        Some(Extent::of(t).make(kind, t.location))
    }

    fn assignment_inner(&mut self) -> PResult<Expr> {
        let lhs = self.conditional_expr()?;
        let op = match self.peek().kind {
            TokenKind::Punct(p) => match p {
                Punct::Assign => Some(None),
                Punct::StarAssign => Some(Some(BinaryOp::Mul)),
                Punct::SlashAssign => Some(Some(BinaryOp::Div)),
                Punct::PercentAssign => Some(Some(BinaryOp::Rem)),
                Punct::PlusAssign => Some(Some(BinaryOp::Add)),
                Punct::MinusAssign => Some(Some(BinaryOp::Sub)),
                Punct::ShlAssign => Some(Some(BinaryOp::Shl)),
                Punct::ShrAssign => Some(Some(BinaryOp::Shr)),
                Punct::AmpAssign => Some(Some(BinaryOp::BitAnd)),
                Punct::CaretAssign => Some(Some(BinaryOp::BitXor)),
                Punct::PipeAssign => Some(Some(BinaryOp::BitOr)),
                _ => None,
            },
            _ => None,
        };
        let Some(op) = op else { return Ok(lhs) };
        self.assignment_tail(lhs, op)
    }

    #[inline(never)]
    fn assignment_tail(&mut self, lhs: Expr, op: Option<BinaryOp>) -> PResult<Expr> {
        let op_token = self.peek();
        self.pos += 1;
        let rhs = self.assignment_expr()?;
        let extent = Extent::of(op_token).expr(&lhs).expr(&rhs);
        Ok(extent.make(
            ExprKind::Assign(op, Box::new((lhs, rhs))),
            op_token.location,
        ))
    }

    #[inline]
    pub(super) fn conditional_expr(&mut self) -> PResult<Expr> {
        let cond = self.binary_expr(0)?;
        if !self.at(Punct::Question) {
            return Ok(cond);
        }
        self.conditional_tail(cond)
    }

    fn conditional_tail(&mut self, cond: Expr) -> PResult<Expr> {
        let question = self.peek();
        self.pos += 1;
        let then = self.nested(Self::expr)?;
        self.expect(Punct::Colon)?;
        let otherwise = self.nested(Self::conditional_expr)?;
        let extent = Extent::of(question).expr(&cond).expr(&otherwise);
        Ok(extent.make(
            ExprKind::Conditional(Box::new((cond, then, otherwise))),
            question.location,
        ))
    }

    /// Precedence climbing over C's binary operators.
    fn binary_expr(&mut self, min_prec: u8) -> PResult<Expr> {
        let lhs = self.cast_expr()?;
        match self.binary_op() {
            Some((_, prec)) if prec >= min_prec => self.binary_tail(lhs, min_prec),
            _ => Ok(lhs),
        }
    }

    ///
    /// A chain `a + b + c ...` is parsed by this loop, but its tree nests
    /// one level per operator (`(a + b) + c`), and every later stage walks
    /// it by recursion: each operator counts as a level of nesting while
    /// the rest of the chain is parsed, so a chain is bounded by
    /// [`MAX_NESTING`] as parentheses are.
    #[inline(never)]
    fn binary_tail(&mut self, lhs: Expr, min_prec: u8) -> PResult<Expr> {
        self.chain(lhs, |p, lhs| {
            let Some((op, prec)) = p.binary_op().filter(|&(_, prec)| prec >= min_prec) else {
                return Ok(Err(lhs));
            };
            let op_token = p.peek();
            p.pos += 1;
            let rhs = p.nested(|p| p.binary_expr(prec + 1))?;
            let extent = Extent::of(op_token).expr(&lhs).expr(&rhs);
            Ok(Ok(extent.make(
                ExprKind::Binary(op, Box::new((lhs, rhs))),
                op_token.location,
            )))
        })
    }

    /// The binary operator next, unless a fold expression's `...`
    /// follows it (`(args + ...)`).
    fn binary_op(&self) -> Option<(BinaryOp, u8)> {
        let op = self.binary_operator_token()?;
        (!self.peek_at(1).is_punct(Punct::Ellipsis)).then_some(op)
    }

    /// The binary operator the next token is, and its precedence.
    fn binary_operator_token(&self) -> Option<(BinaryOp, u8)> {
        let TokenKind::Punct(p) = self.peek().kind else {
            return None;
        };
        Some(match p {
            Punct::PipePipe => (BinaryOp::LogicalOr, 1),
            Punct::AmpAmp => (BinaryOp::LogicalAnd, 2),
            Punct::Pipe => (BinaryOp::BitOr, 3),
            Punct::Caret => (BinaryOp::BitXor, 4),
            Punct::Amp => (BinaryOp::BitAnd, 5),
            Punct::EqEq => (BinaryOp::Eq, 6),
            Punct::NotEq => (BinaryOp::Ne, 6),
            Punct::Lt => (BinaryOp::Lt, 7),
            Punct::Gt => (BinaryOp::Gt, 7),
            Punct::Le => (BinaryOp::Le, 7),
            Punct::Ge => (BinaryOp::Ge, 7),
            Punct::Shl => (BinaryOp::Shl, 8),
            Punct::Shr => (BinaryOp::Shr, 8),
            Punct::Plus => (BinaryOp::Add, 9),
            Punct::Minus => (BinaryOp::Sub, 9),
            Punct::Star => (BinaryOp::Mul, 10),
            Punct::Slash => (BinaryOp::Div, 10),
            Punct::Percent => (BinaryOp::Rem, 10),
            _ => return None,
        })
    }

    /// The operand of a binary operator. Most are a name or a number,
    /// perhaps with postfix operators: those take the short way here.
    #[inline]
    fn cast_expr(&mut self) -> PResult<Expr> {
        let t = self.peek();
        let kind = match t.kind {
            TokenKind::Identifier
                if self.kw() == Kw::Name
                    && !self.at_template_id()
                    && !self.scope_operator_at(1)
                    && !self.at_list_initialized_temporary() =>
            {
                ExprKind::Ident(self.name_used(t))
            }
            TokenKind::IntLiteral => ExprKind::IntLiteral(Name(t.sym)),
            TokenKind::FloatLiteral => ExprKind::FloatLiteral(Name(t.sym)),
            _ => return self.general_cast_expr(),
        };
        self.pos += 1;
        self.postfix_tail(Extent::of(t).make(kind, t.location))
    }

    // Out of line, so that the short path above stays small.
    #[inline(never)]
    fn general_cast_expr(&mut self) -> PResult<Expr> {
        if self.at(Punct::LParen) && self.starts_type(1) {
            let lparen = self.peek();
            self.pos += 1;
            let location = lparen.location;
            let ty = Box::new(self.type_name()?);
            self.expect(Punct::RParen)?;
            if self.at(Punct::LBrace) {
                let init = Box::new(self.initializer()?);
                let extent = self.extent_since(lparen);
                let e = extent.make(ExprKind::CompoundLiteral(ty, init), location);
                return self.postfix_tail(e);
            }
            if self.at(Punct::LParen)
                && !self.starts_type(1)
                && types::is_vector_type_name(&ty, &self.spellings)
            {
                // `(float4)(a, b)`: a vector literal, not a cast of a comma
                // expression (OpenCL C 6.1.6). `(char2)(char)0` is a cast
                // of a cast, as in clang: a parenthesis opening a type
                // name opens a cast, never a literal's operands.
                let parts_location = self.in_file_of(lparen, self.peek());
                self.pos += 1;
                let mut parts = Vec::new();
                loop {
                    parts.push(self.assignment_expr()?);
                    if !self.eat(Punct::Comma) {
                        break;
                    }
                }
                self.expect(Punct::RParen)?;
                let extent = self.extent_since(lparen);
                let e = extent.make(ExprKind::VectorLiteral(ty, parts, parts_location), location);
                return self.postfix_tail(e);
            }
            let operand = self.nested(Self::cast_expr)?;
            let extent = Extent::of(lparen).expr(&operand);
            return Ok(extent.make(ExprKind::Cast(ty, Box::new(operand)), location));
        }
        if self.kw() == Kw::NamedCast {
            let e = self.named_cast()?;
            return self.postfix_tail(e);
        }
        if self.cxx && self.starts_type(0) {
            if let Some(e) = self.list_initialized_temporary()? {
                return self.postfix_tail(e);
            }
        }
        if self.cxx && self.at_functional_cast() {
            let e = self.functional_cast()?;
            return self.postfix_tail(e);
        }
        self.unary_expr()
    }

    /// C++: whether a name and `{` come next, `S{...}`.
    fn at_list_initialized_temporary(&self) -> bool {
        self.cxx && self.peek_at(1).is_punct(Punct::LBrace)
    }

    /// C++'s `T{a, b}` (`S{}`, `Pair<int>{1, 2}`, `float{x}`): a compound
    /// literal of `T`, which for a class with constructors calls the one
    /// the items pick. `None`, nothing consumed, when the type name is not
    /// followed by `{`.
    fn list_initialized_temporary(&mut self) -> PResult<Option<Expr>> {
        let start = self.pos;
        let first = self.peek();
        let specs = self.decl_specs()?;
        if !self.at(Punct::LBrace) {
            self.pos = start;
            return Ok(None);
        }
        let ty = Box::new(TypeName {
            specs,
            declarator: Declarator::default(),
        });
        let init = Box::new(self.initializer()?);
        let extent = self.extent_since(first);
        Ok(Some(
            extent.make(ExprKind::CompoundLiteral(ty, init), first.location),
        ))
    }

    /// C++'s `static_cast<T>(e)`, `reinterpret_cast<T>(e)` and
    /// `const_cast<T>(e)`, the keyword next: a cast, as `(T)e` is. They
    /// take no conversion a C cast refuses; that they refuse some a C
    /// cast takes is not checked yet.
    fn named_cast(&mut self) -> PResult<Expr> {
        let keyword = self.bump();
        self.expect(Punct::Lt)?;
        let ty = Box::new(self.type_name()?);
        self.expect(Punct::Gt)?;
        self.expect(Punct::LParen)?;
        let operand = self.nested(Self::expr)?;
        self.expect(Punct::RParen)?;
        let extent = self.extent_since(keyword);
        Ok(extent.make(ExprKind::Cast(ty, Box::new(operand)), keyword.location))
    }

    /// Whether a one-word built-in type and a `(` come next: C++'s
    /// functional cast, `float(i)`.
    fn at_functional_cast(&self) -> bool {
        matches!(self.kw(), Kw::Scalar(_) | Kw::BuiltinType)
            && self.peek_at(1).is_punct(Punct::LParen)
            && !self.starts_type(2)
    }

    /// `T(e)` for a one-word built-in type `T`: `(T)e`.
    fn functional_cast(&mut self) -> PResult<Expr> {
        let word = self.peek();
        // The word alone: a declarator would take the `(` for its own.
        let ty = Box::new(TypeName {
            specs: self.decl_specs()?,
            declarator: Declarator::default(),
        });
        self.expect(Punct::LParen)?;
        let operand = self.nested(Self::assignment_expr)?;
        if self.at(Punct::Comma) {
            let at = self.loc();
            return Err(self.unsupported_cxx(at, "functional casts of several values"));
        }
        self.expect(Punct::RParen)?;
        let extent = self.extent_since(word);
        Ok(extent.make(ExprKind::Cast(ty, Box::new(operand)), word.location))
    }

    fn unary_expr(&mut self) -> PResult<Expr> {
        let op = match self.peek().kind {
            TokenKind::Punct(Punct::PlusPlus) => Some(UnaryOp::PreInc),
            TokenKind::Punct(Punct::MinusMinus) => Some(UnaryOp::PreDec),
            TokenKind::Punct(Punct::Plus) => Some(UnaryOp::Plus),
            TokenKind::Punct(Punct::Minus) => Some(UnaryOp::Minus),
            TokenKind::Punct(Punct::Bang) => Some(UnaryOp::Not),
            TokenKind::Punct(Punct::Tilde) => Some(UnaryOp::BitNot),
            TokenKind::Punct(Punct::Star) => Some(UnaryOp::Deref),
            TokenKind::Punct(Punct::Amp) => Some(UnaryOp::AddressOf),
            _ => None,
        };
        if let Some(op) = op {
            return self.prefix_operation(op);
        }
        let kw = self.kw();
        if matches!(kw, Kw::Sizeof | Kw::VecStep | Kw::Alignof) {
            return self.type_operation(kw);
        }
        if kw == Kw::Offsetof {
            return self.offsetof();
        }
        if kw == Kw::New {
            return self.new_expression();
        }
        if kw == Kw::Delete {
            // Only placement `new` makes objects; nothing is freed.
            let t = self.bump();
            self.diags.error(
                t.location,
                "'default delete' is not supported in C++ for OpenCL",
            );
            if self.at(Punct::LBracket) && self.peek_at(1).is_punct(Punct::RBracket) {
                self.pos += 2;
            }
            return self.nested(Self::cast_expr);
        }
        let primary = self.primary_expr()?;
        self.postfix_tail(primary)
    }

    /// Prefix operator `op` and its operand.
    #[inline(never)]
    fn prefix_operation(&mut self, op: UnaryOp) -> PResult<Expr> {
        let t = self.bump();
        let operand = if matches!(op, UnaryOp::PreInc | UnaryOp::PreDec) {
            self.nested(Self::unary_expr)?
        } else {
            self.nested(Self::cast_expr)?
        };
        let extent = Extent::of(t).expr(&operand);
        Ok(extent.make(ExprKind::Unary(op, Box::new(operand)), t.location))
    }

    /// `sizeof`, `vec_step` or `__alignof__` (keyword `kw`) and its
    /// operand.
    #[inline(never)]
    fn type_operation(&mut self, kw: Kw) -> PResult<Expr> {
        let t = self.bump();
        let location = t.location;
        let (of_type, of_expr) = if kw == Kw::Sizeof {
            (
                ExprKind::SizeofType as fn(Box<TypeName>) -> ExprKind,
                ExprKind::SizeofExpr as fn(Box<Expr>) -> ExprKind,
            )
        } else if kw == Kw::Alignof {
            (
                ExprKind::AlignofType as fn(Box<TypeName>) -> ExprKind,
                ExprKind::AlignofExpr as fn(Box<Expr>) -> ExprKind,
            )
        } else {
            (
                ExprKind::VecStepType as fn(Box<TypeName>) -> ExprKind,
                ExprKind::VecStepExpr as fn(Box<Expr>) -> ExprKind,
            )
        };
        if kw == Kw::Sizeof && self.cxx && self.eat(Punct::Ellipsis) {
            // `sizeof...(pack)`
            self.expect(Punct::LParen)?;
            let name = self.bump();
            if name.kind != TokenKind::Identifier {
                self.pos -= 1;
                return Err(self.error_here("the name of a parameter pack"));
            }
            self.expect(Punct::RParen)?;
            let extent = self.extent_since(t);
            return Ok(extent.make(
                ExprKind::SizeofPack(Name(name.sym), name.location),
                location,
            ));
        }
        if self.at(Punct::LParen) && self.starts_type(1) {
            self.pos += 1;
            let ty = self.type_name()?;
            self.expect(Punct::RParen)?;
            let extent = self.extent_since(t);
            return Ok(extent.make(of_type(Box::new(ty)), location));
        }
        let operand = self.nested(Self::unary_expr)?;
        let extent = Extent::of(t).expr(&operand);
        Ok(extent.make(of_expr(Box::new(operand)), location))
    }

    /// C++'s `new (place) T[(args) | {items}]`, the `new` next. Without
    /// a placement it would allocate, which C++ for OpenCL leaves out
    /// (clang's error).
    #[inline(never)]
    fn new_expression(&mut self) -> PResult<Expr> {
        let t = self.bump();
        let placement = if self.at(Punct::LParen) && !self.starts_type(1) {
            self.constructor_arguments()?.0
        } else {
            self.diags.error(
                t.location,
                "'default new' is not supported in C++ for OpenCL",
            );
            Vec::new()
        };
        let specs = self.decl_specs()?;
        if self.at(Punct::LBracket) || self.at(Punct::Star) {
            let at = self.loc();
            return Err(
                self.unsupported_cxx(at, "placement new-expressions of arrays and pointers")
            );
        }
        let init = if self.at(Punct::LParen) {
            let (args, lparen) = self.constructor_arguments()?;
            NewInit::Parens(args, lparen)
        } else if self.at(Punct::LBrace) {
            NewInit::Braces(self.initializer()?)
        } else {
            NewInit::Default
        };
        let ty = TypeName {
            specs,
            declarator: Declarator::default(),
        };
        let new = New {
            placement,
            ty,
            init,
        };
        let extent = self.extent_since(t);
        Ok(extent.make(ExprKind::New(Box::new(new)), t.location))
    }

    /// `__builtin_offsetof ( type-name , member-designator )`, the
    /// designator a member name followed by `.member` and `[index]` steps.
    #[inline(never)]
    fn offsetof(&mut self) -> PResult<Expr> {
        let t = self.bump();
        self.expect(Punct::LParen)?;
        let ty = self.type_name()?;
        self.expect(Punct::Comma)?;
        let mut steps = Vec::new();
        let mut want_member = true;
        loop {
            if want_member {
                let name = self.peek();
                if name.kind != TokenKind::Identifier {
                    return Err(self.error_here("identifier"));
                }
                self.pos += 1;
                steps.push(OffsetofStep::Member(Name(name.sym)));
                want_member = false;
            } else if self.eat(Punct::Dot) {
                want_member = true;
            } else if self.eat(Punct::LBracket) {
                let index = self.nested(Self::expr)?;
                self.expect(Punct::RBracket)?;
                steps.push(OffsetofStep::Index(index));
            } else {
                break;
            }
        }
        self.expect(Punct::RParen)?;
        let extent = self.extent_since(t);
        Ok(extent.make(ExprKind::Offsetof(Box::new(ty), steps), t.location))
    }

    fn primary_expr(&mut self) -> PResult<Expr> {
        let t = self.peek();
        let location = t.location;
        if self.cxx && t.is_punct(Punct::LBrace) {
            // `f({1, 2})`, `x = {1, 2}`: a list whose type its context
            // gives (the checker says where it takes one).
            let init = Box::new(self.initializer()?);
            let extent = self.extent_since(t);
            return Ok(extent.make(ExprKind::BracedList(init), location));
        }
        let kind = match t.kind {
            TokenKind::Identifier => match self.kw() {
                Kw::BoolLiteral(value) => ExprKind::BoolLiteral(value),
                Kw::Nullptr => ExprKind::Nullptr,
                Kw::This => ExprKind::This,
                _ if self.at_template_id() => return self.template_id(),
                _ if self.cxx && self.scope_operator_at(1) => {
                    let member = self.peek_at(3);
                    if member.kind != TokenKind::Identifier {
                        return Err(self.unsupported_cxx(
                            member.location,
                            "qualified names other than 'class::member'",
                        ));
                    }
                    self.pos += 4;
                    let extent = self.extent_since(t);
                    let class = Name(self.resolved(t));
                    let kind = ExprKind::Qualified(class, None, Name(member.sym));
                    return Ok(extent.make(kind, member.location));
                }
                _ => ExprKind::Ident(self.name_used(t)),
            },
            TokenKind::IntLiteral => ExprKind::IntLiteral(Name(t.sym)),
            TokenKind::FloatLiteral => ExprKind::FloatLiteral(Name(t.sym)),
            TokenKind::CharLiteral => ExprKind::CharLiteral(Name(t.sym)),
            TokenKind::StringLiteral => {
                // Adjacent string literals concatenate.
                let mut text = String::from(self.text(t));
                while self.peek_at(1).kind == TokenKind::StringLiteral {
                    self.pos += 1;
                    text.pop();
                    text.push_str(&self.text(self.peek())[1..]);
                }
                self.pos += 1;
                let extent = self.extent_since(t);
                return Ok(extent.make(ExprKind::StringLiteral(text), location));
            }
            TokenKind::Punct(Punct::LParen) => return self.parenthesized(),
            TokenKind::Punct(Punct::LBracket) if self.cxx => return self.lambda(),
            _ => return Err(self.error_here("expression")),
        };
        self.pos += 1;
        Ok(Extent::of(t).make(kind, location))
    }

    /// Whether a function template's name and a `<` come next: template
    /// arguments, not a comparison.
    pub(super) fn at_template_id(&self) -> bool {
        self.peek_at(1).is_punct(Punct::Lt)
            && self
                .template_names
                .contains_key(&self.resolved(self.peek()))
    }

    /// `name<type, ...>`, a template's name with template arguments, the
    /// name next.
    fn template_id(&mut self) -> PResult<Expr> {
        let t = self.peek();
        let (name, args) = self.template_arguments()?;
        if self.cxx && self.at_scope_operator() && self.peek_at(2).kind == TokenKind::Identifier {
            // `Template<T>::name`: a member of the instance.
            let member = self.peek_at(2);
            self.pos += 3;
            let extent = self.extent_since(t);
            let kind = ExprKind::Qualified(name, Some(args), Name(member.sym));
            return Ok(extent.make(kind, member.location));
        }
        let extent = self.extent_since(t);
        Ok(extent.make(ExprKind::TemplateId(name, args), t.location))
    }

    /// A template's name and its arguments, `name<type, ...>`, the name
    /// next.
    pub(super) fn template_arguments(&mut self) -> PResult<(Name, Vec<TemplateArg>)> {
        let t = self.bump();
        self.pos += 1;
        self.check_unambiguous(t);
        let name = Name(self.resolved(t));
        let args = self.template_argument_list(name)?;
        Ok((name, args))
    }

    /// The arguments of template `name` after the `<` read, to the `>`.
    pub(super) fn template_argument_list(&mut self, name: Name) -> PResult<Vec<TemplateArg>> {
        let values = self
            .template_names
            .get(&name.0)
            .cloned()
            .unwrap_or_default();
        self.template_arguments_for(&values)
    }

    /// Template arguments after the `<` read, to the `>`, for parameters
    /// of which `values` says which are values.
    fn template_arguments_for(&mut self, values: &[bool]) -> PResult<Vec<TemplateArg>> {
        let mut args = Vec::new();
        // `Array<>` gives no argument: each is its default.
        let mut more = !self.at(Punct::Gt);
        while more {
            // A value stops before a `>`, which ends the list, as C++ has
            // it: `N > 1` needs parentheses there.
            args.push(self.template_argument(values.get(args.len()) == Some(&true))?);
            more = self.eat(Punct::Comma);
        }
        if self.at(Punct::Shr) {
            // `A<B<int>>`: this list's `>` is the first half of the `>>`,
            // whose second half is left for the enclosing list.
            let t = &mut self.tokens[self.pos];
            t.kind = TokenKind::Punct(Punct::Gt);
            t.location.offset += 1;
            t.len = 1;
            return Ok(args);
        }
        self.expect(Punct::Gt)?;
        Ok(args)
    }

    /// One template argument: a value for a value parameter, else a type.
    pub(super) fn template_argument(&mut self, value: bool) -> PResult<TemplateArg> {
        Ok(if value {
            let e = self.binary_expr(ADDITIVE_PRECEDENCE)?;
            if self.cxx && self.at(Punct::Ellipsis) {
                // `Ns...`
                let ellipsis = self.bump();
                let extent = Extent::of(ellipsis).expr(&e);
                let expansion = ExprKind::PackExpansion(Arc::new(e));
                return Ok(TemplateArg::Value(
                    extent.make(expansion, ellipsis.location),
                ));
            }
            TemplateArg::Value(e)
        } else {
            TemplateArg::Type(self.type_name()?)
        })
    }

    /// An argument of a call or constructor: an assignment expression,
    /// or in C++ a pack expansion, `pattern...`.
    pub(super) fn argument(&mut self) -> PResult<Expr> {
        let e = self.assignment_expr()?;
        if !(self.cxx && self.at(Punct::Ellipsis)) {
            return Ok(e);
        }
        let ellipsis = self.bump();
        let extent = Extent::of(ellipsis).expr(&e);
        Ok(extent.make(ExprKind::PackExpansion(Arc::new(e)), ellipsis.location))
    }

    /// The operator of a fold expression, next, if a `...` follows it.
    fn fold_operator(&self) -> Option<FoldOp> {
        if !self.peek_at(1).is_punct(Punct::Ellipsis) {
            return None;
        }
        self.fold_operator_here()
    }

    /// The rest of a fold expression after its `(` and the operand before
    /// the operator (`left`), the operator next.
    fn fold(&mut self, lparen: CompactToken, left: Option<Expr>, op: FoldOp) -> PResult<Expr> {
        self.pos += 1;
        let ellipsis = self.bump().location;
        let right = if left.is_none() || !self.at(Punct::RParen) {
            if left.is_some() {
                // `(a op ... op b)`: the same operator again.
                if self.fold_operator_here() != Some(op) {
                    return Err(self.error_here("the fold expression's operator again"));
                }
                self.pos += 1;
            }
            Some(self.nested(Self::cast_expr)?)
        } else {
            None
        };
        let rparen = self.peek();
        self.expect(Punct::RParen)?;
        let extent = Extent::of(rparen).token(lparen);
        let fold = Fold {
            op,
            left,
            right,
            ellipsis,
        };
        Ok(extent.make(ExprKind::Fold(Box::new(fold)), ellipsis))
    }

    /// The binary operator or `,` next, as a fold expression's operator.
    fn fold_operator_here(&self) -> Option<FoldOp> {
        if self.at(Punct::Comma) {
            return Some(FoldOp::Comma);
        }
        self.binary_operator_token()
            .map(|(op, _)| FoldOp::Binary(op))
    }

    /// `( expr )`: the expression, its text widened to the parentheses;
    /// in C++ also a fold expression.
    fn parenthesized(&mut self) -> PResult<Expr> {
        let lparen = self.bump();
        if self.cxx && self.at(Punct::Ellipsis) {
            // `(... op pattern)`
            self.pos += 1;
            let Some(op) = self.fold_operator_here() else {
                return Err(self.error_here("a fold expression's operator"));
            };
            self.pos -= 1;
            return self.fold(lparen, None, op);
        }
        let mut inner = self.nested(Self::expr)?;
        if self.cxx {
            if let Some(op) = self.fold_operator() {
                return self.fold(lparen, Some(inner), op);
            }
        }
        let rparen = self.peek();
        self.expect(Punct::RParen)?;
        let extent = Extent::of(rparen).token(lparen).expr(&inner);
        if extent.file == inner.location.file {
            (inner.start, inner.end) = (extent.start, extent.end);
        }
        Ok(inner)
    }

    #[inline]
    fn postfix_tail(&mut self, e: Expr) -> PResult<Expr> {
        match self.peek().kind {
            TokenKind::Punct(
                Punct::LBracket
                | Punct::LParen
                | Punct::Dot
                | Punct::Arrow
                | Punct::PlusPlus
                | Punct::MinusMinus,
            ) => self.postfix_ops(e),
            _ => Ok(e),
        }
    }

    /// Each postfix operator nests the tree a level (`p->next->next`), as
    /// the operators of [`Parser::binary_tail`] do.
    fn postfix_ops(&mut self, e: Expr) -> PResult<Expr> {
        self.chain(e, Self::postfix_op)
    }

    /// One postfix operator applied to `e`, or `e` back when none follows.
    fn postfix_op(&mut self, e: Expr) -> PResult<Result<Expr, Expr>> {
        let op = self.peek();
        let location = op.location;
        let base = (e.location.file, e.start, e.end);
        let kind = if self.eat(Punct::LBracket) {
            let index = self.expr()?;
            self.expect(Punct::RBracket)?;
            ExprKind::Index(Box::new((e, index)))
        } else if self.eat(Punct::LParen) {
            let mut args = Vec::new();
            while !self.at(Punct::RParen) {
                args.push(self.argument()?);
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
            let rparen = self.in_file_of(op, self.peek());
            self.expect(Punct::RParen)?;
            ExprKind::Call(Box::new(e), args, rparen)
        } else if self.at(Punct::Dot) || self.at(Punct::Arrow) {
            let arrow = self.at(Punct::Arrow);
            self.pos += 1;
            // `o.template f<T>()`
            let written_template = self.cxx && self.eat_kw(Kw::Template);
            let name = self.bump();
            // Swizzles like `.s01` lex as identifiers; `.0` does not exist.
            if name.kind != TokenKind::Identifier {
                self.pos -= 1;
                return Err(self.error_here("a member name"));
            }
            let values = self.member_template_names.get(&name.sym).cloned();
            if self.cxx && self.at(Punct::Lt) && (values.is_some() || written_template) {
                // `o.f<T>(...)`: a member function template's arguments.
                self.pos += 1;
                let args = self.template_arguments_for(&values.unwrap_or_default())?;
                let member = MemberTemplateId {
                    base: e,
                    name: Name(name.sym),
                    arrow,
                    args,
                };
                let extent = self.extent_since(op).cover(base.0, base.1, base.2);
                return Ok(Ok(extent.make(
                    ExprKind::MemberTemplateId(Box::new(member)),
                    name.location,
                )));
            }
            ExprKind::Member {
                base: Box::new(e),
                name: Name(name.sym),
                name_location: name.location,
                arrow,
            }
        } else if self.eat(Punct::PlusPlus) {
            ExprKind::Unary(UnaryOp::PostInc, Box::new(e))
        } else if self.eat(Punct::MinusMinus) {
            ExprKind::Unary(UnaryOp::PostDec, Box::new(e))
        } else {
            return Ok(Err(e));
        };
        // Every postfix operator ends with the last token read.
        let extent = self.extent_since(op).cover(base.0, base.1, base.2);
        Ok(Ok(extent.make(kind, location)))
    }
}
