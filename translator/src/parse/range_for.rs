//! C++'s range-based `for` over an array, lowered as it is parsed (see
//! [`RangeFor`]): each element initialises the declaration as if written
//! `declaration = R[I];`, so that `auto`, references and constructors
//! all take it as they take any initialiser.

use super::{PResult, Parser};
use crate::ast::{
    BinaryOp, Block, DeclSpecs, Declaration, Declarator, Expr, ExprKind, InitDeclarator,
    Initializer, Name, RangeFor, Stmt, StmtKind, TypeSpec, UnaryOp,
};
use crate::lexer::CompactToken;
use crate::token::Punct;

impl Parser {
    /// The rest of `for (specs declarator : range) body`, the `:` next;
    /// `first` is the declaration's first token.
    pub(super) fn range_for(
        &mut self,
        specs: DeclSpecs,
        declarator: Declarator,
        first: CompactToken,
    ) -> PResult<StmtKind> {
        let colon = self.bump().location;
        if let Some((name, _)) = declarator.name {
            self.declare_name(name, false);
        }
        let range = self.expr()?;
        self.expect(Punct::RParen)?;
        let body = self.sub_statement()?;
        let [array, index, count, zero] =
            ["range-for array", "range-for index", "range-for count", "0"]
                .map(|text| Name(self.qualified_symbol(text)));
        let at = range.location;
        let (start, end) = (range.start, range.end);
        let expr = |kind| Expr {
            kind,
            location: at,
            start,
            end,
        };
        let ident = |name| expr(ExprKind::Ident(name));
        let auto_specs = DeclSpecs {
            ty: TypeSpec::Auto,
            ..Self::constructor_specs(at)
        };
        let declare = |specs: DeclSpecs, declarator: Declarator, init| Declaration {
            location: specs.location,
            specs,
            declarators: vec![InitDeclarator {
                declarator,
                init: Some(Initializer::Expr(init)),
                arguments: None,
            }],
        };
        let statement = |kind| Stmt {
            kind,
            location: at,
            end,
        };
        let element = expr(ExprKind::Index(Box::new((ident(array), ident(index)))));
        let element = declare(specs, declarator, element);
        let body = Block {
            items: vec![statement(StmtKind::Declaration(element)), *body],
            location: first.location,
        };
        // The index's declarator spans the range's text.
        let index_declarator = Declarator {
            name: Some((index, at)),
            start,
            end,
            ..Declarator::default()
        };
        let index_init = declare(
            auto_specs,
            index_declarator,
            expr(ExprKind::IntLiteral(zero)),
        );
        let elements = statement(StmtKind::For {
            init: Some(Box::new(statement(StmtKind::Declaration(index_init)))),
            cond: Some(expr(ExprKind::Binary(
                BinaryOp::Lt,
                Box::new((ident(index), ident(count))),
            ))),
            step: Some(expr(ExprKind::Unary(
                UnaryOp::PreInc,
                Box::new(ident(index)),
            ))),
            body: Box::new(Stmt {
                kind: StmtKind::Compound(body),
                location: first.location,
                end,
            }),
        });
        // Looked up once: a search of the tokens.
        let begin_end = match self.range_member_names {
            Some(names) => names,
            None => {
                let spelled = |word| self.symbol_spelled(word).map(Name);
                let names = spelled("begin").zip(spelled("end"));
                self.range_member_names = Some(names);
                names
            }
        };
        Ok(StmtKind::RangeFor(Box::new(RangeFor {
            range,
            array,
            count,
            begin_end,
            elements,
            colon,
        })))
    }
}
