//! The C99 preprocessor (translation phase 4) for OpenCL C: everything
//! between the lexer's tokens and the parser's token stream.
//!
//! This module is the driver: it runs the predefined macros (or copies the
//! table they leave from a [`PreludeCache`]), then the `-D`/`-U` options,
//! then the main file, reading each file's tokens and running directives on
//! the way. It also decides when lexer errors are reported: the lexer runs
//! over whole files, and problems inside skipped groups must stay silent.
//! The rest is one concern per module:
//!
//! - `directives`: the directive lines (`#define`, `#undef`, `#line`,
//!   `#error`, `#warning`, `#pragma` and `_Pragma`);
//! - `conditional`: conditional inclusion (`#if` ... `#endif`, skipped
//!   groups, `defined`);
//! - `if_expr`: the constant expressions of `#if` and `#elif`;
//! - `include`: `#include` (embedded headers, then `-I` directories);
//! - `macros`: what a macro is, and the built-in ones (`__LINE__`, ...);
//! - `expand`: macro expansion (contexts, arguments);
//! - `substitute`: a replacement list with its arguments, `#` and `##`;
//! - `prelude`: the OpenCL C predefined macros, the build options' macros,
//!   and the cache of the predefined macros' table;
//! - `output`: the token stream as text (`-E`).
//!
//! Expansion works on a stack of token contexts rather than by splicing token
//! vectors: a macro's replacement is pushed as a context, and the macro stays
//! disabled until that context has been read past. An identifier read while
//! its macro is disabled is painted blue and never expands again, which is
//! exactly the C99 6.10.3.4 rule. Arguments are pre-expanded in isolation
//! behind a barrier context, so they cannot reach the rest of the file.
//!
//! Internally tokens are the lexer's `CompactToken`s: `Copy`, with the
//! spelling as a symbol of one interner per build, so that copying tokens
//! through arguments and contexts touches no reference counts, and the macro
//! table is a vector indexed by symbol. They become public [`Token`]s only
//! on the way out.

mod conditional;
mod directives;
mod expand;
mod if_expr;
mod include;
mod macros;
mod output;
mod prelude;
mod substitute;
#[cfg(test)]
mod testing;

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;

use crate::caps::DeviceCaps;
use crate::diagnostic::{Diagnostics, FileId, Location, SourceMap};
use crate::lexer::{self, CompactToken, Interner, LexError};
use crate::options::BuildOptions;
use crate::token::{Punct, Token, TokenKind};
use conditional::Cond;
use expand::{Args, Context};
use macros::Macro;
pub use output::tokens_to_string;
pub(crate) use output::would_merge;
pub use prelude::PreludeCache;
use prelude::{command_line_source, predefined_source};
use substitute::PreExpanded;

/// What the preprocessor needs besides the sources.
pub struct PreprocessInput<'a> {
    pub options: &'a BuildOptions,
    pub caps: &'a DeviceCaps,
    /// `(name, text)` of headers that `#include` finds before any `-I`
    /// directory.
    pub embedded_headers: &'a [(&'a str, &'a str)],
    /// Where the macro table the predefined macros leave is kept between
    /// builds.
    pub prelude: &'a PreludeCache,
}

/// Preprocesses file `main` of `sources`: the result always ends with
/// exactly one [`TokenKind::Eof`] token. Included files are added to
/// `sources` so diagnostics can show them.
pub fn preprocess(
    sources: &mut SourceMap,
    main: FileId,
    input: &PreprocessInput,
    diags: &mut Diagnostics,
) -> Vec<Token> {
    let (tokens, interner) = preprocess_compact(sources, main, input, diags);
    interner.tokens(&tokens).collect()
}

/// [`preprocess`] as the preprocessor holds its output: each token's
/// spelling a symbol of the returned interner. The parser reads this form
/// directly, so a build never makes a [`Token`] (an `Rc` per token).
pub(crate) fn preprocess_compact(
    sources: &mut SourceMap,
    main: FileId,
    input: &PreprocessInput,
    diags: &mut Diagnostics,
) -> (Vec<CompactToken>, Interner) {
    let predefined = predefined_source(input.options, input.caps);
    let command_line = command_line_source(input.options);
    let main_len = sources.file(main).text.len();
    // The predefines run first, then the command line, then main. The
    // predefines only define macros, and the same ones every time for the
    // same options and device: their macro table (and the interner it
    // refers to) is kept in `input.prelude` and copied, instead of lexing
    // and running a few hundred `#define`s per build.
    let builtin = sources.add("<built-in>", predefined);
    let cached = input.prelude.restore(&sources.file(builtin).text, builtin);
    let restored = cached.is_some();
    // Room for a large kernel's spellings besides the predefines', so that
    // the interner does not grow while main is lexed.
    let (interner, macros) = cached.unwrap_or_else(|| (Interner::with_capacity(2048), Vec::new()));
    let mut pp = Preprocessor::new(sources, input, diags, interner, macros);
    if !restored {
        pp.define_builtins();
        pp.push_file(builtin, None);
        pp.run(&mut Vec::new());
        pp.save_prelude(builtin, input.prelude);
    }
    // A stack: the command line runs before main.
    pp.push_file(main, None);
    if let Some(text) = command_line {
        let id = pp.sources.add("<command line>", text);
        pp.push_file(id, None);
    }
    // Expansion usually grows a kernel's token count: reserve for that, so
    // the (large) output is not copied while it grows.
    let mut out = Vec::with_capacity(main_len / 2 + 16);
    pp.run(&mut out);
    out.push(CompactToken {
        location: Location::new(main, main_len),
        sym: pp.names.empty,
        kind: TokenKind::Eof,
        flags: 0,
        len: 0,
    });
    let Preprocessor { interner, .. } = pp;
    (out, interner)
}

/// A token on its way through the preprocessor: `Copy`, its spelling a
/// symbol of the preprocessor's interner. It becomes a [`Token`] only when
/// it is output.
type PpTok = CompactToken;

/// Symbols the preprocessor compares against. They are interned first, in
/// this order, so every interner (the prelude's cached one included) gives
/// them the same numbers.
#[derive(Clone, Copy)]
struct Names {
    empty: u32,
    one: u32,
    zero: u32,
    defined: u32,
    va_args: u32,
    pragma_operator: u32,
}

impl Names {
    fn new(interner: &mut Interner) -> Self {
        Names {
            empty: interner.sym(""),
            one: interner.sym("1"),
            zero: interner.sym("0"),
            defined: interner.sym("defined"),
            va_args: interner.sym("__VA_ARGS__"),
            pragma_operator: interner.sym("_Pragma"),
        }
    }
}

struct FileState {
    id: FileId,
    toks: Vec<PpTok>,
    /// The next token to read.
    pos: usize,
    errors: Vec<LexError>,
    /// Lexer errors before this index have been reported or dropped.
    err_pos: usize,
    /// The offset of `errors[err_pos]` (`u32::MAX` when none is left), so
    /// that reading a token costs one comparison for them.
    next_err: u32,
    conds: Vec<Cond>,
    /// Directory for `#include "..."` relative to this file (disk files).
    dir: Option<PathBuf>,
}

impl FileState {
    #[inline]
    fn peek(&self) -> Option<PpTok> {
        self.toks.get(self.pos).copied()
    }

    /// Reports (or, in skipped groups, drops) the lexer errors up to
    /// `offset`, so that they appear in source order with the rest.
    #[cold]
    fn flush(&mut self, offset: u32, report: bool, diags: &mut Diagnostics) {
        while let Some(e) = self.errors.get(self.err_pos) {
            if e.location.offset > offset {
                break;
            }
            if report {
                e.report(diags);
            }
            self.err_pos += 1;
        }
        self.next_err = self
            .errors
            .get(self.err_pos)
            .map_or(u32::MAX, |e| e.location.offset);
    }

    #[inline]
    fn next(&mut self, report: bool, diags: &mut Diagnostics) -> Option<PpTok> {
        let t = *self.toks.get(self.pos)?;
        self.pos += 1;
        if t.location.offset >= self.next_err {
            self.flush(t.location.offset, report, diags);
        }
        Some(t)
    }

    /// The next token when reading it needs no work: it starts no
    /// directive and no lexer error is due before it.
    #[inline]
    fn next_plain(&mut self) -> Option<PpTok> {
        let t = *self.toks.get(self.pos)?;
        if (t.line_start() && t.is_punct(Punct::Hash)) || t.location.offset >= self.next_err {
            return None;
        }
        self.pos += 1;
        Some(t)
    }

    fn next_in_line(&mut self, report: bool, diags: &mut Diagnostics) -> Option<PpTok> {
        if self.peek()?.line_start() {
            return None;
        }
        self.next(report, diags)
    }

    pub(super) fn skip_line(&mut self, report: bool, diags: &mut Diagnostics) {
        while self.next_in_line(report, diags).is_some() {}
    }
}

/// Where a token is being read for. Only the outermost reader may leave a
/// file at its end; macro arguments must close within their file.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Top,
    Args,
}

struct Preprocessor<'p> {
    sources: &'p mut SourceMap,
    diags: &'p mut Diagnostics,
    options: &'p BuildOptions,
    /// The device, for the extensions `#pragma OPENCL EXTENSION` may name.
    caps: &'p DeviceCaps,
    embedded: &'p [(&'p str, &'p str)],
    interner: Interner,
    names: Names,
    /// Indexed by symbol: the macro that name is, if any. Most identifiers
    /// are not macros, and this answers for them with one load.
    macros: Vec<Option<Arc<Macro>>>,
    /// Indexed by symbol: an expansion of the macro of that name is live
    /// on the context stack, so the name does not expand.
    disabled: Vec<bool>,
    /// Spent token vectors, reused for replacement lists and expansions.
    tok_pool: Vec<Vec<PpTok>>,
    /// Spent argument lists, reused by `collect_args`.
    args_pool: Vec<Args>,
    /// Spent `substitute` scratch lists.
    pre_pool: Vec<Vec<PreExpanded>>,
    files: Vec<FileState>,
    ctxs: Vec<Context>,
    include_cache: HashMap<String, FileId>,
    once: HashSet<FileId>,
    /// Recursion depth of argument / directive-line expansion.
    nesting: u32,
    nesting_reported: bool,
    /// Barrier contexts on the stack; `_Pragma` waits until there are none.
    barriers: u32,
    /// Macros currently disabled; zero means no identifier needs painting.
    live_macros: u32,
    expanded: usize,
    /// Expansion stopped after a limit was hit (reported once).
    halted: bool,
    counter: u64,
    /// Symbols of `__DATE__` and `__TIME__`, made at first use.
    date_time: Option<(u32, u32)>,
}

impl<'p> Preprocessor<'p> {
    fn new(
        sources: &'p mut SourceMap,
        input: &'p PreprocessInput<'p>,
        diags: &'p mut Diagnostics,
        mut interner: Interner,
        macros: Vec<Option<Arc<Macro>>>,
    ) -> Self {
        let names = Names::new(&mut interner);
        Preprocessor {
            sources,
            diags,
            options: input.options,
            caps: input.caps,
            embedded: input.embedded_headers,
            interner,
            names,
            disabled: vec![false; macros.len()],
            macros,
            tok_pool: Vec::new(),
            args_pool: Vec::new(),
            pre_pool: Vec::new(),
            files: Vec::new(),
            ctxs: Vec::new(),
            include_cache: HashMap::new(),
            once: HashSet::new(),
            nesting: 0,
            nesting_reported: false,
            barriers: 0,
            live_macros: 0,
            expanded: 0,
            halted: false,
            counter: 0,
            date_time: None,
        }
    }

    /// The spelling of `t`.
    fn text(&self, t: &PpTok) -> &str {
        self.interner.get(t.sym)
    }

    fn is_ident(&self, t: &PpTok, word: &str) -> bool {
        t.kind == TokenKind::Identifier && self.interner.get(t.sym) == word
    }

    fn take_vec(&mut self, capacity: usize) -> Vec<PpTok> {
        let mut v = self.tok_pool.pop().unwrap_or_default();
        v.reserve(capacity);
        v
    }

    fn recycle(&mut self, mut v: Vec<PpTok>) {
        if self.tok_pool.len() < 64 && v.capacity() <= 4096 {
            v.clear();
            self.tok_pool.push(v);
        }
    }

    fn push_file(&mut self, id: FileId, dir: Option<PathBuf>) {
        let (toks, errors) =
            lexer::lex_compact(&self.sources.file(id).text, id, &mut self.interner);
        let next_err = errors.first().map_or(u32::MAX, |e| e.location.offset);
        self.files.push(FileState {
            id,
            toks,
            pos: 0,
            errors,
            err_pos: 0,
            next_err,
            conds: Vec::new(),
            dir,
        });
    }

    fn end_of_file(&mut self) {
        let Some(mut f) = self.files.pop() else {
            return;
        };
        f.flush(u32::MAX, true, self.diags);
        for c in f.conds.iter().rev() {
            self.diags
                .error(c.location, "unterminated conditional directive");
        }
    }

    /// Stops all further expansion after a resource limit, reporting once.
    fn halt(&mut self, at: Location, message: &str) {
        if !self.halted {
            self.halted = true;
            self.diags.error(at, message);
        }
    }

    /// The whole token stream into `out`.
    fn run(&mut self, out: &mut Vec<PpTok>) {
        loop {
            if self.ctxs.is_empty() {
                self.copy_plain_tokens(out);
            } else {
                self.copy_context_run(out);
            }
            match self.next_expanded(Mode::Top) {
                Some(t) => out.push(t),
                None => return,
            }
        }
    }

    /// Moves tokens that need no work (no directive, no macro name) straight
    /// from the current file to `out`: most of a kernel is such tokens, and
    /// the general path costs several copies per token.
    fn copy_plain_tokens(&mut self, out: &mut Vec<PpTok>) {
        let Some(f) = self.files.last_mut() else {
            return;
        };
        let (macros, pragma) = (&self.macros, self.names.pragma_operator);
        let plain = |t: &PpTok| match t.kind {
            TokenKind::Identifier => {
                macros.get(t.sym as usize).is_none_or(Option::is_none) && t.sym != pragma
            }
            TokenKind::Punct(Punct::Hash) => !t.line_start(),
            _ => true,
        };
        loop {
            // A run with no lexer error due is found first and copied in
            // one piece.
            let rest = &f.toks[f.pos.min(f.toks.len())..];
            let next_err = f.next_err;
            let len = rest
                .iter()
                .position(|t| !plain(t) || t.location.offset >= next_err)
                .unwrap_or(rest.len());
            out.extend_from_slice(&rest[..len]);
            f.pos += len;
            // A plain token with an error due goes the usual way, so that
            // the error is reported before it.
            match f.peek() {
                Some(t) if plain(&t) => {
                    f.next(true, self.diags);
                    out.push(t);
                }
                _ => return,
            }
        }
    }

    fn next_file_token(&mut self, mode: Mode) -> Option<PpTok> {
        loop {
            let f = self.files.last_mut()?;
            let Some(t) = f.next(true, self.diags) else {
                if mode == Mode::Args {
                    return None;
                }
                self.end_of_file();
                continue;
            };
            if t.line_start() && t.is_punct(Punct::Hash) {
                if let Some(p) = self.directive(t, mode) {
                    return Some(p);
                }
                continue;
            }
            return Some(t);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{errors, run, run_with};
    use crate::caps::DeviceCaps;
    use crate::options::BuildOptions;

    #[test]
    fn lexer_errors_are_reported_in_order() {
        let o = run("a @\n#if 0\n@ 'x\n#endif\nb $\n'c");
        assert_eq!(
            errors(&o),
            [
                "stray '@' in program",
                "stray '$' in program",
                "missing terminating ' character"
            ]
        );
        assert!(o.log.contains("<source>:1:3: error: stray '@'"));
        assert!(o.log.contains("<source>:5:3: error: stray '$'"));
        assert!(o.log.contains("<source>:6:1: error: missing terminating"));
    }

    #[test]
    fn error_recovery_reports_everything() {
        let src = "#define F(a, b) a b\n\
                   int x = F(1);\n\
                   #bogus directive\n\
                   #define C(a, b) a ## b\n\
                   C(+, -)\n\
                   #error first\n\
                   #if 1 / 0\n\
                   #endif\n\
                   #endif\n\
                   #include <none.h>\n\
                   int y = F(1, 2);\n\
                   #error second\n\
                   F(1,\n";
        let o = run(src);
        let lines: Vec<&str> = o.log.lines().filter(|l| l.contains("error:")).collect();
        assert_eq!(
            lines,
            [
                "<source>:2:9: error: too few arguments provided to function-like macro invocation",
                "<source>:3:2: error: invalid preprocessing directive",
                "<source>:5:1: error: pasting formed '+-', an invalid preprocessing token",
                "<source>:6:2: error: first",
                "<source>:7:7: error: division by zero in preprocessor expression",
                "<source>:9:2: error: #endif without #if",
                "<source>:10:10: error: 'none.h' file not found",
                "<source>:12:2: error: second",
                "<source>:13:1: error: unterminated function-like macro invocation",
            ],
            "{}",
            o.log
        );
        assert!(o.text.contains("int y = 1 2;"));
    }

    #[test]
    fn limits_are_reported_not_overflowed() {
        // Deeply nested invocations.
        let src = format!("#define f(x) x\n{}1{}", "f(".repeat(1000), ")".repeat(1000));
        let o = run(&src);
        assert_eq!(errors(&o), ["macro invocations nested too deeply"]);
        let n = 5000;
        // Deeply nested #if parentheses and long operator chains.
        let src = format!("#if {}1{}\n#endif\n", "(".repeat(n), ")".repeat(n));
        assert_eq!(
            errors(&run(&src)),
            ["preprocessor expression nested too deeply"]
        );
        let src = format!(
            "#if {}1\n#endif\n#if {}1\n#endif\n",
            "- ".repeat(n),
            "0?0:".repeat(n)
        );
        assert_eq!(
            errors(&run(&src)),
            ["preprocessor expression nested too deeply"]
        );
        // Exponential growth stops at the token limit.
        let mut src = String::from("#define X0 a\n");
        for i in 1..40 {
            src.push_str(&format!("#define X{i} X{} X{}\n", i - 1, i - 1));
        }
        src.push_str("X39\n");
        let o = run(&src);
        assert_eq!(errors(&o), ["macro expansion produced too many tokens"]);
    }

    #[test]
    fn many_macros_and_names() {
        // Enough distinct names to grow the interner and fill the name
        // filter; every macro must still be found and no other name taken
        // for one.
        let mut src = String::new();
        for i in 0..3000 {
            src.push_str(&format!("#define M{i} v{i}\n"));
        }
        for i in 0..3000 {
            src.push_str(&format!("M{i} N{i} "));
        }
        let o = run(&src);
        assert!(o.log.is_empty(), "{}", o.log);
        let words: Vec<&str> = o.text.split_whitespace().collect();
        assert_eq!(words.len(), 6000);
        for (i, pair) in words.chunks(2).enumerate() {
            assert_eq!(pair, [format!("v{i}"), format!("N{i}")]);
        }
    }

    #[test]
    fn no_panic_on_garbage() {
        const PIECES: &[&str] = &[
            "#",
            "##",
            "#define",
            "#undef",
            "#if",
            "#ifdef",
            "#elif",
            "#else",
            "#endif",
            "#include",
            "#line",
            "#pragma",
            "#error",
            "_Pragma",
            "defined",
            "__VA_ARGS__",
            "F",
            "G",
            "x",
            "(",
            ")",
            ",",
            "...",
            "\n",
            " ",
            "\\\n",
            "'",
            "\"",
            "/*",
            "*/",
            "//",
            "0x",
            "1",
            "0",
            "9999999999999999999999",
            "<",
            ">",
            "+",
            "-",
            "/",
            "%",
            "?",
            ":",
            "!",
            "~",
            "&&",
            "||",
            "@",
            "é",
            "\"h\"",
            "<h>",
            "'\\x'",
            "__LINE__",
            "__FILE__",
            "once",
            "OPENCL",
            "unroll",
            "\t",
            "\r\n",
            ".",
            "e+",
            "L",
        ];
        let headers = [("h", "#include \"h\"\nF(\n"), ("<h>", "")];
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..300 {
            let mut src = String::new();
            let len = next() % 120;
            for _ in 0..len {
                src.push_str(PIECES[(next() % PIECES.len() as u64) as usize]);
                if next() % 3 == 0 {
                    src.push(' ');
                }
            }
            let _ = run_with(
                &src,
                &BuildOptions::default(),
                &DeviceCaps::full(),
                &headers,
            );
        }
    }

    /// `cargo test --release -- --ignored --nocapture perf` to measure.
    #[test]
    #[ignore]
    fn perf_thousand_lines() {
        let mut src = String::from(
            "#define IDX(x, y) ((y) * width + (x))\n#define SQ(v) ((v) * (v))\n#define N 16\n",
        );
        while src.lines().count() < 1000 {
            src.push_str(
                "    float acc = SQ(in[IDX(i, j)]) + 1.0f; // comment\n\
                 #if N > 8\n    out[IDX(i + 1, j)] = acc * N;\n#endif\n\
                 __kernel void k(__global float *in, __global float *out, int width) {\n\
                 int i = get_global_id(0); int j = get_global_id(1);\n}\n",
            );
        }
        let o = BuildOptions::default();
        let caps = DeviceCaps::full();
        let runs = 200;
        let start = std::time::Instant::now();
        for _ in 0..runs {
            let r = run_with(&src, &o, &caps, &[]);
            assert!(r.log.is_empty());
        }
        let per = start.elapsed() / runs;
        eprintln!(
            "{} lines: {:?} per preprocess (incl. rendering)",
            src.lines().count(),
            per
        );
    }
}
