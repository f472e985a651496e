//! Preprocessing tokens: what the lexer produces, the preprocessor rewrites
//! and the parser consumes.

use crate::diagnostic::Location;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// Identifiers and keywords alike: the parser tells them apart, so that
    /// C++ for OpenCL can bring its own keyword set.
    Identifier,
    /// A pp-number that is an integer literal, suffix included (`0x1fu`, `3l`).
    IntLiteral,
    /// A pp-number that is a floating literal, suffix included (`1.0f`, `2e-3h`).
    FloatLiteral,
    /// `'a'`, with its quotes and escapes as written.
    CharLiteral,
    /// `"text"`, with its quotes and escapes as written.
    StringLiteral,
    Punct(Punct),
    /// A `#pragma` that survives preprocessing (`OPENCL EXTENSION`, `unroll`);
    /// `text` is the pragma's body after the word `pragma`, spaces normalised.
    Pragma,
    /// End of the translation unit; always the last token.
    Eof,
}

/// C99 punctuators (digraphs are folded into their usual spelling).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Punct {
    LBracket,
    RBracket,
    LParen,
    RParen,
    LBrace,
    RBrace,
    Dot,
    Arrow,
    PlusPlus,
    MinusMinus,
    Amp,
    Star,
    Plus,
    Minus,
    Tilde,
    Bang,
    Slash,
    Percent,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    EqEq,
    NotEq,
    Caret,
    Pipe,
    AmpAmp,
    PipePipe,
    Question,
    Colon,
    Semicolon,
    Ellipsis,
    Assign,
    StarAssign,
    SlashAssign,
    PercentAssign,
    PlusAssign,
    MinusAssign,
    ShlAssign,
    ShrAssign,
    AmpAssign,
    CaretAssign,
    PipeAssign,
    Comma,
    Hash,
    HashHash,
}

impl Punct {
    /// Every punctuator, for tests and tables.
    pub const ALL: [Punct; 48] = [
        Punct::LBracket,
        Punct::RBracket,
        Punct::LParen,
        Punct::RParen,
        Punct::LBrace,
        Punct::RBrace,
        Punct::Dot,
        Punct::Arrow,
        Punct::PlusPlus,
        Punct::MinusMinus,
        Punct::Amp,
        Punct::Star,
        Punct::Plus,
        Punct::Minus,
        Punct::Tilde,
        Punct::Bang,
        Punct::Slash,
        Punct::Percent,
        Punct::Shl,
        Punct::Shr,
        Punct::Lt,
        Punct::Gt,
        Punct::Le,
        Punct::Ge,
        Punct::EqEq,
        Punct::NotEq,
        Punct::Caret,
        Punct::Pipe,
        Punct::AmpAmp,
        Punct::PipePipe,
        Punct::Question,
        Punct::Colon,
        Punct::Semicolon,
        Punct::Ellipsis,
        Punct::Assign,
        Punct::StarAssign,
        Punct::SlashAssign,
        Punct::PercentAssign,
        Punct::PlusAssign,
        Punct::MinusAssign,
        Punct::ShlAssign,
        Punct::ShrAssign,
        Punct::AmpAssign,
        Punct::CaretAssign,
        Punct::PipeAssign,
        Punct::Comma,
        Punct::Hash,
        Punct::HashHash,
    ];

    pub fn spelling(self) -> &'static str {
        use Punct::*;
        match self {
            LBracket => "[",
            RBracket => "]",
            LParen => "(",
            RParen => ")",
            LBrace => "{",
            RBrace => "}",
            Dot => ".",
            Arrow => "->",
            PlusPlus => "++",
            MinusMinus => "--",
            Amp => "&",
            Star => "*",
            Plus => "+",
            Minus => "-",
            Tilde => "~",
            Bang => "!",
            Slash => "/",
            Percent => "%",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            EqEq => "==",
            NotEq => "!=",
            Caret => "^",
            Pipe => "|",
            AmpAmp => "&&",
            PipePipe => "||",
            Question => "?",
            Colon => ":",
            Semicolon => ";",
            Ellipsis => "...",
            Assign => "=",
            StarAssign => "*=",
            SlashAssign => "/=",
            PercentAssign => "%=",
            PlusAssign => "+=",
            MinusAssign => "-=",
            ShlAssign => "<<=",
            ShrAssign => ">>=",
            AmpAssign => "&=",
            CaretAssign => "^=",
            PipeAssign => "|=",
            Comma => ",",
            Hash => "#",
            HashHash => "##",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub kind: TokenKind,
    /// The spelling. Shared, because macro expansion copies tokens a lot.
    pub text: std::rc::Rc<str>,
    /// Where the token was written; for a token produced by a macro
    /// expansion, the location of the macro name at the expansion site.
    pub location: Location,
    /// Whitespace came before this token (for `#` stringising and printing).
    pub leading_space: bool,
}

impl Token {
    pub fn is_punct(&self, p: Punct) -> bool {
        self.kind == TokenKind::Punct(p)
    }

    pub fn is_ident(&self, name: &str) -> bool {
        self.kind == TokenKind::Identifier && &*self.text == name
    }
}
