//! What the preprocessor's tests share: running a source through it and
//! looking at the result.

use super::{preprocess, tokens_to_string, PreludeCache, PreprocessInput};
use crate::caps::DeviceCaps;
use crate::diagnostic::{Diagnostics, FileId, Severity, SourceMap};
use crate::lexer;
use crate::options::BuildOptions;
use crate::token::{Token, TokenKind};

pub(super) struct Out {
    pub(super) text: String,
    pub(super) log: String,
    pub(super) tokens: Vec<Token>,
    pub(super) diags: Diagnostics,
}

pub(super) fn run_with(
    src: &str,
    options: &BuildOptions,
    caps: &DeviceCaps,
    headers: &[(&str, &str)],
) -> Out {
    run_in(&PreludeCache::default(), src, options, caps, headers)
}

/// [`run_with`], keeping the predefined macros' table in `prelude`.
pub(super) fn run_in(
    prelude: &PreludeCache,
    src: &str,
    options: &BuildOptions,
    caps: &DeviceCaps,
    headers: &[(&str, &str)],
) -> Out {
    let mut sources = SourceMap::default();
    let main = sources.add("<source>", src);
    let mut diags = Diagnostics::default();
    let input = PreprocessInput {
        options,
        caps,
        embedded_headers: headers,
        prelude,
    };
    let tokens = preprocess(&mut sources, main, &input, &mut diags);
    let eofs = tokens.iter().filter(|t| t.kind == TokenKind::Eof).count();
    assert_eq!(eofs, 1, "exactly one Eof");
    assert_eq!(tokens.last().map(|t| t.kind), Some(TokenKind::Eof));
    Out {
        text: tokens_to_string(&tokens),
        log: diags.render(&sources),
        tokens,
        diags,
    }
}

pub(super) fn run(src: &str) -> Out {
    run_with(src, &BuildOptions::default(), &DeviceCaps::full(), &[])
}

pub(super) fn run_opts(src: &str, options: &str) -> Out {
    let o = BuildOptions::parse(options).expect("options");
    run_with(src, &o, &DeviceCaps::full(), &[])
}

/// Token spellings separated by single spaces: whitespace-insensitive,
/// but string contents still count.
pub(super) fn norm(s: &str) -> String {
    let lexed = lexer::lex(s, FileId(0));
    let texts: Vec<&str> = lexed.tokens.iter().map(|t| &*t.token.text).collect();
    texts.join(" ")
}

#[track_caller]
pub(super) fn expands_to(src: &str, expected: &str) {
    let o = run(src);
    assert_eq!(o.log, "", "unexpected diagnostics for {src:?}");
    assert_eq!(norm(&o.text), norm(expected), "source: {src:?}");
}

pub(super) fn errors(o: &Out) -> Vec<String> {
    o.diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.message.clone())
        .collect()
}
