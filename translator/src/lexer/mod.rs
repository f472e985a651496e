//! Turns one source text into preprocessing tokens (C99 translation phases 1
//! to 3): line splicing, comments, pp-numbers, character and string
//! literals, punctuators (digraphs folded), identifiers, plus the line-start
//! and leading-whitespace facts the preprocessor needs.
//!
//! Problems are returned as [`LexError`]s beside the tokens rather than
//! reported at once: the preprocessor lexes whole files up front, and a
//! stray `'` inside an `#if 0` block must not be an error.
//!
//! Internally every token is a `CompactToken`: a symbol of the
//! [`Interner`] instead of its spelling, so that it is `Copy` and 16 bytes.
//! The preprocessor works on those throughout; [`lex`] turns them into
//! public [`Token`]s for everyone else.
//!
//! This module holds the token and error types and the entry points;
//! `splice` does phase 2, `scan` the tokens, `punct` the punctuators, and
//! `interner` numbers the spellings.

mod interner;
mod punct;
mod scan;
mod splice;

use crate::diagnostic::{Diagnostics, FileId, Location, Severity};
use crate::token::{Punct, Token, TokenKind};
pub(crate) use interner::FrozenInterner;
pub use interner::{FxBuildHasher, FxHashMap, FxHashSet, FxHasher, Interner, Spellings};
pub use punct::punct_at;
pub(crate) use scan::find_byte;

/// A token plus whether it is the first on its (logical) line, which is what
/// makes a `#` start a directive.
#[derive(Clone, Debug, PartialEq)]
pub struct LexedToken {
    pub token: Token,
    pub at_line_start: bool,
}

/// What went wrong while lexing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LexErrorKind {
    /// A `'` with no closing `'` on its line; the token runs to the line end.
    UnterminatedChar,
    /// A `"` with no closing `"` on its line; the token runs to the line end.
    UnterminatedString,
    /// A `/*` with no `*/`.
    UnterminatedComment,
    /// A character that starts no token (`@`, `$`, a lone `\`, non-ASCII).
    StrayCharacter(char),
    /// `\` and the newline it splices are separated by spaces (a warning).
    BackslashSpaceNewline,
}

/// A lexing problem at a physical location.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LexError {
    pub kind: LexErrorKind,
    pub location: Location,
}

impl LexError {
    pub fn severity(&self) -> Severity {
        match self.kind {
            LexErrorKind::BackslashSpaceNewline => Severity::Warning,
            _ => Severity::Error,
        }
    }

    pub fn message(&self) -> String {
        match self.kind {
            LexErrorKind::UnterminatedChar => "missing terminating ' character".into(),
            LexErrorKind::UnterminatedString => "missing terminating '\"' character".into(),
            LexErrorKind::UnterminatedComment => "unterminated /* comment".into(),
            LexErrorKind::StrayCharacter(c) if c.is_ascii_graphic() => {
                format!("stray '{c}' in program")
            }
            LexErrorKind::StrayCharacter(c) => {
                format!("stray '\\u{{{:04x}}}' in program", c as u32)
            }
            LexErrorKind::BackslashSpaceNewline => {
                "backslash and newline separated by space".into()
            }
        }
    }

    /// Hands the problem to `diags`.
    pub fn report(&self, diags: &mut Diagnostics) {
        diags.push(self.severity(), Some(self.location), self.message());
    }
}

/// A token as the lexer and preprocessor pass it around: the spelling is
/// symbol `sym` of the [`Interner`], so copying one touches no reference
/// count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CompactToken {
    pub location: Location,
    pub sym: u32,
    pub kind: TokenKind,
    /// [`SPACE`], [`LINE_START`], and the preprocessor's own bits.
    pub flags: u8,
    /// How many bytes of source text from `location` the token stands for
    /// (at most `u16::MAX`): its own, splices included, or for a token a
    /// macro expansion made, which is located at the invocation, the whole
    /// invocation's (the macro's name through its `)`). The parser's
    /// ranges end here.
    pub len: u16,
}

/// Whitespace came before the token.
pub(crate) const SPACE: u8 = 1;

/// The first token of its (logical) line.
pub(crate) const LINE_START: u8 = 2;

impl CompactToken {
    /// The offset just past the source text the token stands for.
    #[inline]
    pub fn end(&self) -> u32 {
        self.location.offset + u32::from(self.len)
    }

    #[inline]
    pub fn space(&self) -> bool {
        self.flags & SPACE != 0
    }

    #[inline]
    pub fn set_space(&mut self, space: bool) {
        self.flags = (self.flags & !SPACE) | u8::from(space);
    }

    #[inline]
    pub fn line_start(&self) -> bool {
        self.flags & LINE_START != 0
    }

    #[inline]
    pub fn is_punct(&self, p: Punct) -> bool {
        self.kind == TokenKind::Punct(p)
    }
}

/// The tokens of one text and the problems found, both in source order.
#[derive(Clone, Debug, Default)]
pub struct Lexed {
    pub tokens: Vec<LexedToken>,
    pub errors: Vec<LexError>,
}

/// Lexes `text`, which is file `file` of the source map.
pub fn lex(text: &str, file: FileId) -> Lexed {
    lex_with(text, file, &mut Interner::default())
}

/// [`lex`], reporting every problem straight into `diags`: for callers that
/// are not the preprocessor and have no skipped regions.
pub fn lex_reporting(text: &str, file: FileId, diags: &mut Diagnostics) -> Vec<LexedToken> {
    let lexed = lex(text, file);
    for e in &lexed.errors {
        e.report(diags);
    }
    lexed.tokens
}

/// [`lex`] with a caller-owned interner shared across files.
pub fn lex_with(text: &str, file: FileId, interner: &mut Interner) -> Lexed {
    let (tokens, errors) = lex_compact(text, file, interner);
    Lexed {
        tokens: interner
            .tokens(&tokens)
            .zip(&tokens)
            .map(|(token, t)| LexedToken {
                token,
                at_line_start: t.line_start(),
            })
            .collect(),
        errors,
    }
}

/// The tokens of `text` as `CompactToken`s, and the problems found.
pub(crate) fn lex_compact(
    text: &str,
    file: FileId,
    interner: &mut Interner,
) -> (Vec<CompactToken>, Vec<LexError>) {
    let mut errors = Vec::new();
    let spliced = splice::splice(text, file, &mut errors);
    let (tokens, mut lex_errors) = scan::scan(&spliced.text, &spliced.splices, file, interner);
    if !errors.is_empty() {
        // Splice warnings were found in a separate pass; keep source order.
        errors.append(&mut lex_errors);
        errors.sort_by_key(|e| e.location.offset);
        lex_errors = errors;
    }
    (tokens, lex_errors)
}

/// A length as [`CompactToken::len`] holds it.
#[inline]
pub(crate) fn token_len(bytes: usize) -> u16 {
    bytes.min(u16::MAX as usize) as u16
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::{lex, lex_reporting};
    use crate::diagnostic::{Diagnostics, FileId};

    #[test]
    fn reporting_variant() {
        let mut d = Diagnostics::default();
        let t = lex_reporting("a @", FileId(0), &mut d);
        assert_eq!(t.len(), 1);
        assert!(d.has_errors());
    }

    #[test]
    fn interned_spellings_share_allocations() {
        let l = lex("int int", FileId(0));
        assert!(Rc::ptr_eq(&l.tokens[0].token.text, &l.tokens[1].token.text));
    }
}
