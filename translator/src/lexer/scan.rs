//! Phase 3 on spliced text: whitespace and comments skipped, and each
//! token (identifier, pp-number, character or string literal, header
//! name, punctuator) found, interned and located.

use super::interner::FX_SEED;
use super::punct::punct_at;
use super::{token_len, CompactToken, Interner, LexError, LexErrorKind, LINE_START};
use crate::diagnostic::{FileId, Location};
use crate::token::{Punct, TokenKind};

struct Lexer<'s, 'i> {
    src: &'s [u8],
    text: &'s str,
    pos: usize,
    file: FileId,
    splices: &'s [(u32, u32)],
    /// The next entry of `splices` to pass.
    splice_cursor: usize,
    /// Its logical offset (`u32::MAX` past the last), and the bytes removed
    /// before it: the common case of a token between two splices is then
    /// one comparison.
    next_splice: u32,
    removed: u32,
    interner: &'i mut Interner,
    /// `(word, symbol)` for identifiers and numbers of at most 8 bytes,
    /// keyed by their bytes as a zero-padded little-endian word (such
    /// spellings never contain a zero byte, so the word is the spelling):
    /// a direct-mapped cache in front of the interner, which most of a
    /// source's short names and numbers hit without hashing or comparing
    /// text.
    short_syms: Vec<(u64, u32)>,
    /// `64 - log2(short_syms.len())`.
    short_shift: u32,
    tokens: Vec<CompactToken>,
    errors: Vec<LexError>,
}

/// The tokens of `text`, the output of phase 2 with splices `splices`
/// (see `splice`), and the problems found.
pub(super) fn scan(
    text: &str,
    splices: &[(u32, u32)],
    file: FileId,
    interner: &mut Interner,
) -> (Vec<CompactToken>, Vec<LexError>) {
    // Sized to the text: macro pasting lexes many tiny ones.
    let short_slots = (text.len() / 32)
        .clamp(8, MAX_SHORT_SLOTS)
        .next_power_of_two();
    let mut lexer = Lexer {
        src: text.as_bytes(),
        text,
        pos: 0,
        file,
        splices,
        splice_cursor: 0,
        next_splice: splices.first().map_or(u32::MAX, |s| s.0),
        removed: 0,
        interner,
        tokens: Vec::with_capacity(text.len() / 3 + 8),
        short_syms: vec![(0, 0); short_slots],
        short_shift: 64 - short_slots.trailing_zeros(),
        errors: Vec::new(),
    };
    lexer.run();
    lengthen_spliced(&mut lexer.tokens, splices);
    (lexer.tokens, lexer.errors)
}

/// Adds to the length of each token a splice lies inside (not one right
/// after it) the bytes the splice removed, which the lexer did not count.
/// Splices are rare, so this pass over them is cheaper than a test per
/// token. In order: then a token's length so far ends where its text
/// does with only the earlier splices put back.
fn lengthen_spliced(tokens: &mut [CompactToken], splices: &[(u32, u32)]) {
    let mut before = 0;
    for &(at, removed) in splices {
        let backslash = at + before;
        let i = tokens.partition_point(|t| t.location.offset < backslash);
        if let Some(t) = i.checked_sub(1).map(|i| &mut tokens[i]) {
            if t.end() > backslash {
                t.len = token_len(usize::from(t.len) + (removed - before) as usize);
            }
        }
        before = removed;
    }
}

/// The most slots [`Lexer::short_syms`] has; a power of two.
const MAX_SHORT_SLOTS: usize = 1024;

/// Byte classes, one table lookup per byte on the hot loops.
const IDENT_START: u8 = 1;

const IDENT_CONTINUE: u8 = 2;

static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphabetic() || c == b'_' {
            t[b] = IDENT_START | IDENT_CONTINUE;
        } else if c.is_ascii_digit() {
            t[b] = IDENT_CONTINUE;
        }
        b += 1;
    }
    t
};

/// The punctuator a byte is on its own whatever follows (most of a
/// source's punctuators), found by one lookup before the general path.
static SINGLE_PUNCT: [Option<Punct>; 256] = {
    let mut t = [None; 256];
    t[b'(' as usize] = Some(Punct::LParen);
    t[b')' as usize] = Some(Punct::RParen);
    t[b',' as usize] = Some(Punct::Comma);
    t[b';' as usize] = Some(Punct::Semicolon);
    t[b'[' as usize] = Some(Punct::LBracket);
    t[b']' as usize] = Some(Punct::RBracket);
    t[b'{' as usize] = Some(Punct::LBrace);
    t[b'}' as usize] = Some(Punct::RBrace);
    t[b'~' as usize] = Some(Punct::Tilde);
    t[b'?' as usize] = Some(Punct::Question);
    t
};

#[inline]
fn is_ident_start(b: u8) -> bool {
    CLASS[b as usize] & IDENT_START != 0
}

#[inline]
fn is_ident_continue(b: u8) -> bool {
    CLASS[b as usize] & IDENT_CONTINUE != 0
}

/// The first index of `needle` in `hay`: `memchr`, a machine word at a time
/// (comment and splice scans cross most of a source).
pub(crate) fn find_byte(hay: &[u8], needle: u8) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let pattern = LO.wrapping_mul(needle as u64);
    let mut chunks = hay.chunks_exact(8);
    let mut base = 0;
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        let x = u64::from_le_bytes(w) ^ pattern;
        // Nonzero iff some byte of `x` is zero (the exact form of the test).
        if (x.wrapping_sub(LO) & !x & HI) != 0 {
            return c.iter().position(|&b| b == needle).map(|i| base + i);
        }
        base += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| b == needle)
        .map(|i| base + i)
}

impl Lexer<'_, '_> {
    fn peek(&self, ahead: usize) -> u8 {
        self.src.get(self.pos + ahead).copied().unwrap_or(0)
    }

    /// Physical offset of logical offset `logical`. Only ever asked for
    /// ascending offsets, so a cursor beats a binary search.
    #[inline]
    fn physical(&mut self, logical: usize) -> Location {
        if logical as u32 >= self.next_splice {
            self.pass_splices(logical as u32);
        }
        Location::new(self.file, logical + self.removed as usize)
    }

    #[cold]
    fn pass_splices(&mut self, logical: u32) {
        while let Some(&(at, removed)) = self.splices.get(self.splice_cursor) {
            if at > logical {
                break;
            }
            self.removed = removed;
            self.splice_cursor += 1;
        }
        self.next_splice = self
            .splices
            .get(self.splice_cursor)
            .map_or(u32::MAX, |s| s.0);
    }

    fn error(&mut self, kind: LexErrorKind, logical: usize) {
        let location = self.physical(logical);
        self.errors.push(LexError { kind, location });
    }

    #[inline]
    fn push(&mut self, kind: TokenKind, sym: u32, start: usize, space: bool, line: bool) {
        let location = self.physical(start);
        self.tokens.push(CompactToken {
            location,
            sym,
            kind,
            flags: u8::from(space) | if line { LINE_START } else { 0 },
            // The text without splices: see `lengthen_spliced`.
            len: token_len(self.pos - start),
        });
    }

    /// The symbol of the identifier or number at `start..end`.
    #[inline]
    fn word_sym(&mut self, start: usize, end: usize) -> u32 {
        let len = end - start;
        if let (1..=8, Some(bytes)) = (len, self.src.get(start..start + 8)) {
            let mut w = [0u8; 8];
            w.copy_from_slice(bytes);
            let word = u64::from_le_bytes(w) & (u64::MAX >> (64 - 8 * len));
            let slot = (word.wrapping_mul(FX_SEED) >> self.short_shift) as usize;
            let (known, sym) = self.short_syms[slot];
            if known == word {
                return sym;
            }
            return self.word_sym_miss(start, end, Some((slot, word)));
        }
        self.word_sym_miss(start, end, None)
    }

    /// [`Self::word_sym`] from the interner, entering the result at `slot`
    /// of the cache under `word` if given. Out of line, so that the cache
    /// hit stays small enough to inline.
    #[inline(never)]
    fn word_sym_miss(&mut self, start: usize, end: usize, entry: Option<(usize, u64)>) -> u32 {
        let sym = self.interner.sym(&self.text[start..end]);
        if let Some((slot, word)) = entry {
            self.short_syms[slot] = (word, sym);
        }
        sym
    }

    /// Whether the tokens so far on this line are `#` `include`, so that a
    /// `<` starts a header name.
    fn expecting_header_name(&self) -> bool {
        let t = &self.tokens;
        let n = t.len();
        n >= 2
            && t[n - 2].line_start()
            && t[n - 2].is_punct(Punct::Hash)
            && !t[n - 1].line_start()
            && t[n - 1].kind == TokenKind::Identifier
            && self.interner.get(t[n - 1].sym) == "include"
    }

    fn run(&mut self) {
        let mut at_line_start = true;
        let mut space = false;
        // Whitespace and comments first, then one token.
        while let Some(&b) = self.src.get(self.pos) {
            match b {
                b'\n' => {
                    at_line_start = true;
                    space = true;
                    self.pos += 1;
                    continue;
                }
                b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c' => {
                    space = true;
                    self.pos += 1;
                    // Indentation comes in runs.
                    while matches!(self.src.get(self.pos), Some(b' ' | b'\t')) {
                        self.pos += 1;
                    }
                    continue;
                }
                b'/' if self.peek(1) == b'/' => {
                    space = true;
                    let rest = &self.src[self.pos..];
                    self.pos += find_byte(rest, b'\n').unwrap_or(rest.len());
                    continue;
                }
                b'/' if self.peek(1) == b'*' => {
                    space = true;
                    let start = self.pos;
                    match find_comment_end(&self.src[self.pos + 2..]) {
                        Some(end) => self.pos += 2 + end + 2,
                        None => {
                            self.error(LexErrorKind::UnterminatedComment, start);
                            self.pos = self.src.len();
                        }
                    }
                    continue;
                }
                _ => {}
            }
            let start = self.pos;
            // A skipped stray byte leaves the line state alone, so a `#`
            // after it still starts a directive.
            if self.lex_token(b, start, space, at_line_start) {
                at_line_start = false;
                space = false;
            }
        }
    }

    /// Lexes the token starting with byte `b` at `start`; false when `b`
    /// starts none and was skipped.
    fn lex_token(&mut self, b: u8, start: usize, space: bool, line: bool) -> bool {
        if is_ident_start(b) {
            // Encoding prefixes of character and string literals.
            let quote_at = match b {
                b'L' | b'u' | b'U' => match (b, self.peek(1), self.peek(2)) {
                    (b'u', b'8', b'"') => Some(2),
                    (_, b'\'' | b'"', _) => Some(1),
                    _ => None,
                },
                _ => None,
            };
            if let Some(q) = quote_at {
                self.pos += q;
                let quote = self.src[self.pos];
                self.lex_quoted(quote, start, space, line);
                return true;
            }
            let len = self.src[start..]
                .iter()
                .position(|&c| !is_ident_continue(c))
                .unwrap_or(self.src.len() - start);
            self.pos = start + len;
            let sym = self.word_sym(start, self.pos);
            self.push(TokenKind::Identifier, sym, start, space, line);
            return true;
        }
        if let Some(p) = SINGLE_PUNCT[b as usize] {
            self.pos = start + 1;
            self.push(TokenKind::Punct(p), p as u32, start, space, line);
            return true;
        }
        if b.is_ascii_digit() || (b == b'.' && self.peek(1).is_ascii_digit()) {
            self.lex_number(start, space, line);
            return true;
        }
        match b {
            b'\'' | b'"' => {
                self.lex_quoted(b, start, space, line);
                return true;
            }
            b'<' if self.expecting_header_name() => {
                let rest = &self.src[start + 1..];
                let line_len = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
                if let Some(close) = rest[..line_len].iter().position(|&c| c == b'>') {
                    self.pos = start + 1 + close + 1;
                    let sym = self
                        .interner
                        .sym(self.text.get(start..self.pos).unwrap_or("<>"));
                    self.push(TokenKind::StringLiteral, sym, start, space, line);
                    return true;
                }
            }
            _ => {}
        }
        if let Some((p, len)) = punct_at(&self.src[start..]) {
            self.pos = start + len;
            self.push(TokenKind::Punct(p), p as u32, start, space, line);
            return true;
        }
        // Nothing starts here: report the whole character and skip it.
        let c = self
            .text
            .get(start..)
            .and_then(|s| s.chars().next())
            .unwrap_or('\u{fffd}');
        self.pos = start + c.len_utf8();
        self.error(LexErrorKind::StrayCharacter(c), start);
        false
    }

    /// C99 6.4.8: `.`? digit, then digits, identifier characters, `.`, and
    /// `e+ e- E+ E- p+ p- P+ P-`.
    fn lex_number(&mut self, start: usize, space: bool, line: bool) {
        let src = self.src;
        let mut i = start + 1;
        let mut has_dot = src[start] == b'.';
        let mut has_exp = false;
        let hex = src[start] == b'0' && matches!(src.get(start + 1), Some(b'x' | b'X'));
        while let Some(&c) = src.get(i) {
            if matches!(c, b'+' | b'-') && matches!(src[i - 1], b'e' | b'E' | b'p' | b'P') {
                i += 1;
            } else if is_ident_continue(c) {
                if hex {
                    has_exp |= matches!(c, b'p' | b'P');
                } else {
                    has_exp |= matches!(c, b'e' | b'E');
                }
                i += 1;
            } else if c == b'.' {
                has_dot = true;
                i += 1;
            } else {
                break;
            }
        }
        self.pos = i;
        let kind = if has_dot || has_exp {
            TokenKind::FloatLiteral
        } else {
            TokenKind::IntLiteral
        };
        let sym = self.word_sym(start, i);
        self.push(kind, sym, start, space, line);
    }

    /// A character or string literal whose opening quote is at `self.pos`
    /// (any encoding prefix starts at `start`). An unterminated one runs to
    /// the end of the line and is reported.
    fn lex_quoted(&mut self, quote: u8, start: usize, space: bool, line: bool) {
        let mut i = self.pos + 1;
        let terminated = loop {
            match self.src.get(i) {
                None | Some(b'\n') => break false,
                Some(&c) if c == quote => {
                    i += 1;
                    break true;
                }
                Some(b'\\') => {
                    // The escaped byte may start a multi-byte character;
                    // only the quote and backslash matter here, which are
                    // ASCII, so skipping one byte is enough.
                    i += if matches!(self.src.get(i + 1), None | Some(b'\n')) {
                        1
                    } else {
                        2
                    };
                }
                Some(_) => i += 1,
            }
        };
        let mut end = i;
        if !terminated {
            while end > self.pos + 1 && self.src[end - 1] == b'\r' {
                end -= 1;
            }
            let kind = if quote == b'\'' {
                LexErrorKind::UnterminatedChar
            } else {
                LexErrorKind::UnterminatedString
            };
            self.error(kind, start);
        }
        // `i` only ever stops at ASCII bytes or the end, so this slice is on
        // character boundaries.
        self.pos = i;
        let kind = if quote == b'\'' {
            TokenKind::CharLiteral
        } else {
            TokenKind::StringLiteral
        };
        let sym = match self.text.get(start..end) {
            Some(s) => self.interner.sym(s),
            None => self
                .interner
                .sym(String::from_utf8_lossy(&self.src[start..end]).as_ref()),
        };
        self.push(kind, sym, start, space, line);
    }
}

/// Where the `*/` closing a comment with body `body` starts.
fn find_comment_end(body: &[u8]) -> Option<usize> {
    let mut i = 0;
    while let Some(k) = find_byte(&body[i..], b'*') {
        i += k;
        if body.get(i + 1) == Some(&b'/') {
            return Some(i);
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{find_byte, find_comment_end};
    use crate::diagnostic::{FileId, Location};
    use crate::lexer::{lex, lex_compact, Interner, LexErrorKind};
    use crate::token::{Punct, TokenKind};

    fn toks(src: &str) -> Vec<(TokenKind, String)> {
        let l = lex(src, FileId(0));
        assert!(l.errors.is_empty(), "{:?}", l.errors);
        l.tokens
            .into_iter()
            .map(|t| (t.token.kind, t.token.text.to_string()))
            .collect()
    }

    fn texts(src: &str) -> Vec<String> {
        lex(src, FileId(0))
            .tokens
            .into_iter()
            .map(|t| t.token.text.to_string())
            .collect()
    }

    #[test]
    fn identifiers_and_punctuators() {
        use TokenKind::Punct as P;
        assert_eq!(
            toks("a+=b->c...d<<=e"),
            vec![
                (TokenKind::Identifier, "a".into()),
                (P(Punct::PlusAssign), "+=".into()),
                (TokenKind::Identifier, "b".into()),
                (P(Punct::Arrow), "->".into()),
                (TokenKind::Identifier, "c".into()),
                (P(Punct::Ellipsis), "...".into()),
                (TokenKind::Identifier, "d".into()),
                (P(Punct::ShlAssign), "<<=".into()),
                (TokenKind::Identifier, "e".into()),
            ]
        );
        assert_eq!(texts("x+++++y"), ["x", "++", "++", "+", "y"]);
        assert_eq!(texts(".. ..."), [".", ".", "..."]);
        assert_eq!(texts("a##b#c"), ["a", "##", "b", "#", "c"]);
    }

    #[test]
    fn digraphs() {
        use TokenKind::Punct as P;
        let kinds: Vec<_> = lex("<: :> <% %> %: %:%:", FileId(0))
            .tokens
            .into_iter()
            .map(|t| (t.token.kind, t.token.text.to_string()))
            .collect();
        assert_eq!(
            kinds,
            vec![
                (P(Punct::LBracket), "[".into()),
                (P(Punct::RBracket), "]".into()),
                (P(Punct::LBrace), "{".into()),
                (P(Punct::RBrace), "}".into()),
                (P(Punct::Hash), "#".into()),
                (P(Punct::HashHash), "##".into()),
            ]
        );
        // `%:%` is `#` then `%`.
        assert_eq!(texts("%:%"), ["#", "%"]);
    }

    #[test]
    fn numbers() {
        let kind = |s: &str| {
            let t = toks(s);
            assert_eq!(t.len(), 1, "{s}: {t:?}");
            assert_eq!(t[0].1, s);
            t[0].0
        };
        for s in [
            "0", "42", "0x1f", "0x1fu", "3l", "017", "0xe", "0x1e5", "1f", "12ul",
        ] {
            assert_eq!(kind(s), TokenKind::IntLiteral, "{s}");
        }
        for s in [
            "1.0", "1.0f", "0x1p-3", "1e+5", "1E-5", ".5", "1.5h", "1.", "2e3", "0x1.8p1f", "1e5f",
            "1.2.3",
        ] {
            assert_eq!(kind(s), TokenKind::FloatLiteral, "{s}");
        }
        // A sign only continues a pp-number after an exponent letter.
        assert_eq!(texts("1+2"), ["1", "+", "2"]);
        assert_eq!(texts("0x1e+5"), ["0x1e+5"]);
        assert_eq!(texts("a.5"), ["a", ".5"]);
        assert_eq!(texts("1..2"), ["1..2"]);
    }

    #[test]
    fn literals() {
        assert_eq!(
            toks(r#"'a' '\'' "x\"y" L'b' u8"s" "\\" 'é'"#),
            vec![
                (TokenKind::CharLiteral, "'a'".into()),
                (TokenKind::CharLiteral, r"'\''".into()),
                (TokenKind::StringLiteral, r#""x\"y""#.into()),
                (TokenKind::CharLiteral, "L'b'".into()),
                (TokenKind::StringLiteral, "u8\"s\"".into()),
                (TokenKind::StringLiteral, r#""\\""#.into()),
                (TokenKind::CharLiteral, "'é'".into()),
            ]
        );
        // Not prefixes.
        assert_eq!(texts("Lx u 'c'"), ["Lx", "u", "'c'"]);
    }

    #[test]
    fn unterminated_literals_are_errors_not_panics() {
        let l = lex("a = 'b;\nc = \"d\ne", FileId(3));
        let kinds: Vec<_> = l.errors.iter().map(|e| e.kind).collect();
        assert_eq!(
            kinds,
            [
                LexErrorKind::UnterminatedChar,
                LexErrorKind::UnterminatedString
            ]
        );
        assert_eq!(l.errors[0].location, Location::new(FileId(3), 4));
        assert_eq!(l.errors[1].location, Location::new(FileId(3), 12));
        let t: Vec<_> = l.tokens.iter().map(|t| &*t.token.text).collect();
        assert_eq!(t, ["a", "=", "'b;", "c", "=", "\"d", "e"]);
        assert!(l.tokens[3].at_line_start);
        assert!(l.tokens[6].at_line_start);
        // At end of input, and a trailing backslash inside.
        assert_eq!(lex("'", FileId(0)).errors.len(), 1);
        assert_eq!(lex("\"abc\\", FileId(0)).errors.len(), 1);
    }

    #[test]
    fn comments() {
        assert_eq!(texts("a // x */ y\nb /* c\n d */ e"), ["a", "b", "e"]);
        let l = lex("a /* b\n */ c\n d", FileId(0));
        // A comment spanning lines is one space: `c` does not start a line.
        assert!(!l.tokens[1].at_line_start);
        assert!(l.tokens[1].token.leading_space);
        assert!(l.tokens[2].at_line_start);
        assert_eq!(texts("a/**/b"), ["a", "b"]);
        assert!(lex("a/**/b", FileId(0)).tokens[1].token.leading_space);
        let l = lex("x /* never closed", FileId(0));
        assert_eq!(l.errors.len(), 1);
        assert_eq!(l.errors[0].kind, LexErrorKind::UnterminatedComment);
        assert_eq!(l.errors[0].location.offset, 2);
        // `//` inside a string is not a comment; `/*` in a `//` comment is.
        assert_eq!(texts("\"//x\" // /*\ny"), ["\"//x\"", "y"]);
    }

    #[test]
    fn line_start_and_leading_space() {
        let l = lex("#a b\n  c\td", FileId(0));
        let f: Vec<_> = l
            .tokens
            .iter()
            .map(|t| (t.at_line_start, t.token.leading_space))
            .collect();
        assert_eq!(
            f,
            [
                (true, false),
                (false, false),
                (false, true),
                (true, true),
                (false, true)
            ]
        );
    }

    #[test]
    fn header_names_after_include() {
        let l = lex(
            "#include <a/b.h>\n# include<c>\nx < y >\n#include <oops\n",
            FileId(0),
        );
        let t: Vec<_> = l
            .tokens
            .iter()
            .map(|t| (t.token.kind, t.token.text.to_string()))
            .collect();
        assert_eq!(t[2], (TokenKind::StringLiteral, "<a/b.h>".into()));
        assert_eq!(t[5], (TokenKind::StringLiteral, "<c>".into()));
        assert_eq!(t[7].1, "<");
        // No closing `>`: ordinary tokens, for the preprocessor to reject.
        assert_eq!(t[12].1, "<");
    }

    #[test]
    fn stray_characters() {
        let l = lex("a @ $b ` \\ c é ë\n#x", FileId(0));
        let t: Vec<_> = l.tokens.iter().map(|t| &*t.token.text).collect();
        assert_eq!(t, ["a", "b", "c", "#", "x"]);
        let kinds: Vec<_> = l.errors.iter().map(|e| e.kind).collect();
        assert_eq!(
            kinds,
            [
                LexErrorKind::StrayCharacter('@'),
                LexErrorKind::StrayCharacter('$'),
                LexErrorKind::StrayCharacter('`'),
                LexErrorKind::StrayCharacter('\\'),
                LexErrorKind::StrayCharacter('é'),
                LexErrorKind::StrayCharacter('ë'),
            ]
        );
        assert_eq!(l.errors[4].location.offset, 13);
        assert_eq!(l.errors[0].message(), "stray '@' in program");
        assert_eq!(l.errors[4].message(), "stray '\\u{00e9}' in program");
        // Non-ASCII in comments and strings is fine.
        assert!(lex("// é\n/* ü */ \"ß\"", FileId(0)).errors.is_empty());
        // A `#` after a stray byte at line start still starts the line.
        let l = lex("@#define", FileId(0));
        assert!(l.tokens[0].at_line_start);
    }

    #[test]
    fn token_lengths_cover_their_source_text() {
        // Splices inside a token are its; one right after it is not.
        let src = "ab\\\ncd x\\\n y \"s\\\nt\" p\\\nq\\\r\nr /* \\\n */ z";
        let (tokens, _) = lex_compact(src, FileId(0), &mut Interner::default());
        let text: Vec<_> = tokens
            .iter()
            .map(|t| &src[t.location.offset as usize..t.end() as usize])
            .collect();
        assert_eq!(
            text,
            ["ab\\\ncd", "x", "y", "\"s\\\nt\"", "p\\\nq\\\r\nr", "z"]
        );
    }

    #[test]
    fn short_spelling_cache_keeps_spellings_apart() {
        // Prefixes of each other, the 8-byte boundary, numbers, repeats, and
        // the last tokens of the text (no 8-byte window after them).
        let words = [
            "a",
            "ab",
            "abcdefgh",
            "abcdefghi",
            "abcdefg",
            "x1",
            "1",
            "12",
            "0x1f",
            "1.5f",
            "a",
            "abcdefgh",
            "1",
            "_",
            "__",
            "ab",
        ];
        let src = words.join(" ");
        let mut interner = Interner::default();
        let (tokens, _) = lex_compact(&src, FileId(0), &mut interner);
        assert_eq!(tokens.len(), words.len());
        for (t, w) in tokens.iter().zip(words) {
            assert_eq!(interner.get(t.sym), w);
        }
        // Many distinct short names: collisions in the cache must not mix
        // them up.
        let src: String = (0..3000).map(|i| format!("v{i} ")).collect();
        let (tokens, _) = lex_compact(&src, FileId(0), &mut interner);
        for (i, t) in tokens.iter().enumerate() {
            assert_eq!(interner.get(t.sym), format!("v{i}"));
        }
    }

    #[test]
    fn find_byte_matches_a_plain_search() {
        let hay: Vec<u8> = (0..200u32).map(|i| (i * 37 % 251) as u8).collect();
        for start in 0..20 {
            for len in 0..hay.len() - start {
                let h = &hay[start..start + len];
                for needle in [0u8, 1, b'\\', b'*', b'\n', 37, 74, 250] {
                    assert_eq!(
                        find_byte(h, needle),
                        h.iter().position(|&b| b == needle),
                        "{start} {len} {needle}"
                    );
                }
            }
        }
        assert_eq!(find_comment_end(b"a * b */ c"), Some(6));
        assert_eq!(find_comment_end(b"**/"), Some(1));
        assert_eq!(find_comment_end(b"*"), None);
    }

    #[test]
    fn no_panic_on_odd_input() {
        let inputs = [
            "",
            "\\",
            "\\\n",
            "'",
            "\"",
            "/*",
            "/",
            "0x",
            ".",
            "..",
            "%:%",
            "u8",
            "u8'",
            "L\"",
            "\u{0}",
            "\r",
            "\r\n",
            "#include <",
            "#include",
            "\u{feff}x",
            "1e",
            "1e+",
            "0x1p",
            "\\ \n",
            "a\\\r",
            "\"\\\u{e9}\"",
            "'\\",
        ];
        for s in inputs {
            let _ = lex(s, FileId(0));
        }
        // Every byte value alone and after a backslash.
        for b in 0u8..128 {
            let s = String::from(b as char);
            let _ = lex(&s, FileId(0));
            let _ = lex(&format!("\\{s}x"), FileId(0));
            let _ = lex(&format!("'{s}"), FileId(0));
        }
    }
}
