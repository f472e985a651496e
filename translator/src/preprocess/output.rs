//! The preprocessed tokens as text (`clvulkan compile -E`, and compiled
//! units), keeping apart the tokens that would otherwise lex as one.

use crate::lexer;
use crate::token::{Token, TokenKind};

/// The tokens as text: spellings joined, a space where the source had one
/// (or where two tokens would otherwise lex as one). Pragmas are written as
/// `#pragma` lines so that `-E` output can be compiled again.
pub fn tokens_to_string(tokens: &[Token]) -> String {
    let mut out = String::with_capacity(tokens.len() * 4);
    let mut prev: Option<&Token> = None;
    for t in tokens {
        match t.kind {
            TokenKind::Eof => continue,
            TokenKind::Pragma => {
                if !out.is_empty() && !out.ends_with('\n') {
                    out.push('\n');
                }
                out.push_str("#pragma ");
                out.push_str(&t.text);
                out.push('\n');
                prev = None;
                continue;
            }
            _ => {}
        }
        if let Some(p) = prev {
            if t.leading_space || would_merge(p, t) {
                out.push(' ');
            }
        }
        out.push_str(&t.text);
        prev = Some(t);
    }
    out
}

/// Whether writing `b` right after `a` would lex differently; only tokens
/// glued together by macro expansion can hit this.
pub(crate) fn would_merge(a: &Token, b: &Token) -> bool {
    let (Some(&x), Some(&y)) = (a.text.as_bytes().last(), b.text.as_bytes().first()) else {
        return false;
    };
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let number = matches!(a.kind, TokenKind::IntLiteral | TokenKind::FloatLiteral);
    if word(x) && word(y) {
        return true;
    }
    if number && (y == b'.' || (matches!(y, b'+' | b'-') && matches!(x, b'e' | b'E' | b'p' | b'P')))
    {
        return true;
    }
    if x == b'.' && y.is_ascii_digit() {
        return true;
    }
    if a.kind == TokenKind::Identifier
        && matches!(b.kind, TokenKind::StringLiteral | TokenKind::CharLiteral)
        && matches!(&*a.text, "L" | "u" | "U" | "u8")
    {
        return true;
    }
    if let TokenKind::Punct(_) = a.kind {
        let mut joined = Vec::with_capacity(a.text.len() + 2);
        joined.extend_from_slice(a.text.as_bytes());
        joined.extend(b.text.bytes().take(2));
        if a.text.len() == 1 && x == b'/' && matches!(y, b'/' | b'*') {
            return true;
        }
        if let Some((_, len)) = lexer::punct_at(&joined) {
            return len > a.text.len();
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use crate::preprocess::testing::{norm, run};

    #[test]
    fn tokens_to_string_keeps_tokens_apart() {
        let o = run("#define P +\n#define E\nP+ -E- a/E/b x P\n#define CAT(a,b) a b\nCAT(1,x)");
        assert_eq!(o.text, "+ + - - a/ /b x + 1 x");
        assert_eq!(norm(&o.text).split(' ').count(), o.tokens.len() - 1);
    }
}
