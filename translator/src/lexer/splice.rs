//! Phase 2: backslash-newlines removed, and a record of where they were,
//! so that tokens keep their physical locations.

use super::scan::find_byte;
use super::{LexError, LexErrorKind};
use crate::diagnostic::{FileId, Location};

/// Phase 2 output: the text with backslash-newlines removed, and where they
/// were, to map logical offsets back to physical ones.
pub(super) struct Spliced<'a> {
    pub(super) text: std::borrow::Cow<'a, str>,
    /// `(logical offset, bytes removed before it in total)`, ascending.
    pub(super) splices: Vec<(u32, u32)>,
}

/// `text` spliced; each backslash separated from its newline by spaces is
/// reported in `errors` (a warning).
pub(super) fn splice<'a>(text: &'a str, file: FileId, errors: &mut Vec<LexError>) -> Spliced<'a> {
    let bytes = text.as_bytes();
    // Built at the first splice: most sources have none and keep the
    // borrowed text.
    let mut out: Option<String> = None;
    let mut splices = Vec::new();
    let mut removed = 0u32;
    let mut copied_from = 0;
    let mut i = 0;
    while let Some(k) = find_byte(&bytes[i..], b'\\') {
        i += k;
        let mut j = i + 1;
        while j < bytes.len() && (bytes[j] == b' ' || bytes[j] == b'\t') {
            j += 1;
        }
        let newline_len = match (bytes.get(j), bytes.get(j + 1)) {
            (Some(b'\n'), _) => 1,
            (Some(b'\r'), Some(b'\n')) => 2,
            _ => 0,
        };
        if newline_len == 0 {
            i += 1;
            continue;
        }
        if j > i + 1 {
            errors.push(LexError {
                kind: LexErrorKind::BackslashSpaceNewline,
                location: Location::new(file, i),
            });
        }
        let o = out.get_or_insert_with(|| String::with_capacity(text.len()));
        o.push_str(&text[copied_from..i]);
        let end = j + newline_len;
        removed += (end - i) as u32;
        splices.push((o.len() as u32, removed));
        copied_from = end;
        i = end;
    }
    match out {
        None => Spliced {
            text: std::borrow::Cow::Borrowed(text),
            splices,
        },
        Some(mut o) => {
            o.push_str(&text[copied_from..]);
            Spliced {
                text: std::borrow::Cow::Owned(o),
                splices,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::{FileId, Severity};
    use crate::lexer::{lex, LexErrorKind};

    #[test]
    fn line_splicing_anywhere() {
        let src = "in\\\nt x = 1\\\n0; /\\\n/ comment \\\n still comment\ny";
        let l = lex(src, FileId(0));
        assert!(l.errors.is_empty());
        let t: Vec<_> = l.tokens.iter().map(|t| &*t.token.text).collect();
        assert_eq!(t, ["int", "x", "=", "10", ";", "y"]);
        // Locations stay physical: `x` is after the splice.
        assert_eq!(l.tokens[1].token.location.offset, 6);
        assert_eq!(l.tokens[3].token.location.offset, 10);
        assert_eq!(l.tokens[5].token.location.offset as usize, src.len() - 1);
        assert!(l.tokens[5].at_line_start);
        // CRLF, and spaces before the newline (a warning).
        let l = lex("a\\\r\nb c\\  \nd", FileId(0));
        let t: Vec<_> = l.tokens.iter().map(|t| &*t.token.text).collect();
        assert_eq!(t, ["ab", "cd"]);
        assert_eq!(l.errors.len(), 1);
        assert_eq!(l.errors[0].kind, LexErrorKind::BackslashSpaceNewline);
        assert_eq!(l.errors[0].severity(), Severity::Warning);
        // A splice joining a directive line.
        let l = lex("#define X \\\n 1\nY", FileId(0));
        let starts: Vec<_> = l.tokens.iter().map(|t| t.at_line_start).collect();
        assert_eq!(starts, [true, false, false, false, true]);
    }
}
