//! The C99 preprocessor (translation phase 4) for OpenCL C.
//!
//! This module owns everything between the lexer's tokens and the parser's
//! token stream: directives, conditional inclusion and its constant
//! expressions, `#include` (embedded headers, then `-I` directories), macro
//! definition and expansion, `#line`, the pragmas that survive as
//! [`TokenKind::Pragma`] tokens, the OpenCL C predefined macros and the
//! `-D`/`-U` build options. It also decides when lexer errors are reported:
//! the lexer runs over whole files, and problems inside skipped groups must
//! stay silent.
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

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::{Arc, Mutex, PoisonError};

use crate::caps::DeviceCaps;
use crate::diagnostic::{Diagnostics, FileId, LineDirective, Location, SourceMap};
use crate::lexer::{self, CompactToken, FrozenInterner, Interner, LexError, SPACE};
use crate::options::{BuildOptions, ClStd, MacroOption};
use crate::token::{Punct, Token, TokenKind};

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

/// Deepest `#include` nesting, as in clang.
const MAX_INCLUDE_DEPTH: usize = 200;
/// Deepest nesting of macro invocations inside macro arguments; each level
/// is a recursion of the expander, so this bounds the native stack.
const MAX_ARG_NESTING: u32 = 200;
/// Live expansion contexts. Each macro can be live once, so this only
/// guards against absurd chains of distinct macros.
const MAX_CONTEXTS: usize = 10_000;
/// Tokens all expansions may produce together (intermediate ones count).
/// `#define` chains can double the output per line, and a build must fail
/// instead of eating all memory; real kernels stay far below a million.
const MAX_EXPANDED_TOKENS: usize = 1 << 20;
/// Parenthesis / `?:` nesting in `#if` expressions (recursion bound).
const MAX_EXPR_DEPTH: u32 = 256;

/// OpenCL C 3.0 section 6.13 (and C99 6.10.8) macros with fixed values.
/// `FP_FAST_FMA`/`FP_FAST_FMAF` are deliberately absent: the device does not
/// promise a fast fma yet.
const PREDEFINED: &[(&str, &str)] = &[
    ("__STDC__", "1"),
    ("__STDC_HOSTED__", "0"),
    // OpenCL C is based on C99; clang reports this in OpenCL mode too.
    ("__STDC_VERSION__", "199901L"),
    ("__OPENCL_VERSION__", "300"),
    ("CL_VERSION_1_0", "100"),
    ("CL_VERSION_1_1", "110"),
    ("CL_VERSION_1_2", "120"),
    ("CL_VERSION_2_0", "200"),
    ("CL_VERSION_3_0", "300"),
    ("__ENDIAN_LITTLE__", "1"),
    (
        "__kernel_exec(X, typen)",
        "__kernel __attribute__((work_group_size_hint(X, 1, 1))) \
         __attribute__((vec_type_hint(typen)))",
    ),
    (
        "kernel_exec(X, typen)",
        "__kernel __attribute__((work_group_size_hint(X, 1, 1))) \
         __attribute__((vec_type_hint(typen)))",
    ),
];

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
    tokens.iter().map(|t| interner.token(t)).collect()
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
    let cached = input.prelude.get(&sources.file(builtin).text, builtin);
    let mut pp = match &cached {
        Some(prelude) => {
            let interner = prelude.interner.thaw();
            Preprocessor::new(sources, input, diags, interner, prelude.macros.clone())
        }
        None => {
            // Room for a large kernel's spellings besides the predefines',
            // so that the interner does not grow while main is lexed.
            let interner = Interner::with_capacity(2048);
            let mut pp = Preprocessor::new(sources, input, diags, interner, Vec::new());
            pp.define_builtins();
            pp.push_file(builtin, None);
            pp.run(&mut Vec::new());
            pp.save_prelude(builtin, input.prelude);
            pp
        }
    };
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
    });
    let Preprocessor { interner, .. } = pp;
    (out, interner)
}

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

/// `#define` lines for the predefined macros, run as a `<built-in>` file.
/// The constants OpenCL C defines as macros (6.15.2.3 math constants, and
/// the `<limits.h>`/`<float.h>` values of 6.1.1), spelled so that each has
/// the type the spec gives it. Infinity and NaN have no literal, so they
/// are constant divisions.
const LANGUAGE_CONSTANTS: &[(&str, &str)] = &[
    ("NULL", "((void*)0)"),
    ("CHAR_BIT", "8"),
    ("SCHAR_MAX", "127"),
    ("SCHAR_MIN", "(-127-1)"),
    ("CHAR_MAX", "SCHAR_MAX"),
    ("CHAR_MIN", "SCHAR_MIN"),
    ("UCHAR_MAX", "255"),
    ("SHRT_MAX", "32767"),
    ("SHRT_MIN", "(-32767-1)"),
    ("USHRT_MAX", "65535"),
    ("INT_MAX", "2147483647"),
    ("INT_MIN", "(-2147483647-1)"),
    ("UINT_MAX", "0xffffffffU"),
    ("LONG_MAX", "0x7fffffffffffffffL"),
    ("LONG_MIN", "(-0x7fffffffffffffffL-1)"),
    ("ULONG_MAX", "0xffffffffffffffffUL"),
    ("FLT_DIG", "6"),
    ("FLT_MANT_DIG", "24"),
    ("FLT_MAX_10_EXP", "+38"),
    ("FLT_MAX_EXP", "+128"),
    ("FLT_MIN_10_EXP", "-37"),
    ("FLT_MIN_EXP", "-125"),
    ("FLT_RADIX", "2"),
    ("FLT_MAX", "0x1.fffffep127f"),
    ("FLT_MIN", "0x1.0p-126f"),
    ("FLT_EPSILON", "0x1.0p-23f"),
    ("DBL_DIG", "15"),
    ("DBL_MANT_DIG", "53"),
    ("DBL_MAX_10_EXP", "+308"),
    ("DBL_MAX_EXP", "+1024"),
    ("DBL_MIN_10_EXP", "-307"),
    ("DBL_MIN_EXP", "-1021"),
    ("DBL_MAX", "0x1.fffffffffffffp1023"),
    ("DBL_MIN", "0x1.0p-1022"),
    ("DBL_EPSILON", "0x1.0p-52"),
    ("MAXFLOAT", "0x1.fffffep127f"),
    // What `ilogb` returns for 0 and NaN (lower/math/exact.rs).
    ("FP_ILOGB0", "(-2147483647-1)"),
    ("FP_ILOGBNAN", "2147483647"),
    ("HUGE_VALF", "(1.0f / 0.0f)"),
    ("INFINITY", "(1.0f / 0.0f)"),
    ("NAN", "(0.0f / 0.0f)"),
    ("HUGE_VAL", "(1.0 / 0.0)"),
    ("M_E_F", "2.71828174591064f"),
    ("M_LOG2E_F", "1.44269502162933f"),
    ("M_LOG10E_F", "0.43429449200630f"),
    ("M_LN2_F", "0.69314718246460f"),
    ("M_LN10_F", "2.30258512496948f"),
    ("M_PI_F", "3.14159274101257f"),
    ("M_PI_2_F", "1.57079637050629f"),
    ("M_PI_4_F", "0.78539818525314f"),
    ("M_1_PI_F", "0.31830987334251f"),
    ("M_2_PI_F", "0.63661974668503f"),
    ("M_2_SQRTPI_F", "1.12837922573090f"),
    ("M_SQRT2_F", "1.41421353816986f"),
    ("M_SQRT1_2_F", "0.70710676908493f"),
    ("M_E", "2.718281828459045090796"),
    ("M_LOG2E", "1.442695040888963387005"),
    ("M_LOG10E", "0.434294481903251816668"),
    ("M_LN2", "0.693147180559945286227"),
    ("M_LN10", "2.302585092994045901094"),
    ("M_PI", "3.141592653589793115998"),
    ("M_PI_2", "1.570796326794896557999"),
    ("M_PI_4", "0.785398163397448278999"),
    ("M_1_PI", "0.318309886183790691216"),
    ("M_2_PI", "0.636619772367581382433"),
    ("M_2_SQRTPI", "1.128379167095512558561"),
    ("M_SQRT2", "1.414213562373095145475"),
    ("M_SQRT1_2", "0.707106781186547572737"),
];

fn predefined_source(options: &BuildOptions, caps: &DeviceCaps) -> String {
    let mut s = String::with_capacity(2048);
    let mut define = |name: &str, value: &str| {
        s.push_str("#define ");
        s.push_str(name);
        s.push(' ');
        s.push_str(value);
        s.push('\n');
    };
    for (name, value) in PREDEFINED.iter().chain(LANGUAGE_CONSTANTS) {
        define(name, value);
    }
    let std = options.effective_cl_std();
    define("__OPENCL_C_VERSION__", &std.macro_value().to_string());
    if caps.image_support {
        define("__IMAGE_SUPPORT__", "1");
    }
    if options.fast_relaxed_math {
        define("__FAST_RELAXED_MATH__", "1");
    }
    // DeviceCaps documents devices without 64-bit integers as embedded
    // profile, which section 6.13 makes visible through this macro.
    if !caps.int64 {
        define("__EMBEDDED_PROFILE__", "1");
    }
    for ext in caps.extensions() {
        define(ext, "1");
    }
    // Feature macros are an OpenCL C 3.0 concept; earlier versions must not
    // see them (their kernels would take 3.0-only code paths).
    if std == ClStd::Cl3_0 {
        for feature in caps.features() {
            define(feature, "1");
        }
    }
    s
}

/// `-D`/`-U` as directives, in command-line order, run as `<command line>`.
fn command_line_source(options: &BuildOptions) -> Option<String> {
    if options.macros.is_empty() {
        return None;
    }
    let mut s = String::new();
    for m in &options.macros {
        match m {
            MacroOption::Define { name, value } => {
                // A newline would end the directive and leak the rest into
                // the program.
                let value = value.replace(['\n', '\r'], " ");
                s.push_str(&format!("#define {name} {value}\n"));
            }
            MacroOption::Undefine(name) => s.push_str(&format!("#undef {name}\n")),
        }
    }
    Some(s)
}

/// The macro table the predefined macros leave, kept between builds:
/// running them is most of the front end's work on a small kernel. It
/// holds the table of the last build that ran them, for its options and
/// device. Builds on several threads may share one (a runtime keeps one per
/// device), so it holds nothing tied to a thread: the table is behind a
/// mutex, and each build copies it out.
#[derive(Default)]
pub struct PreludeCache(Mutex<Option<Arc<Prelude>>>);

/// The macro table after the predefines, for one predefined source.
struct Prelude {
    source: String,
    /// The `<built-in>` file the macros' locations point into.
    file: FileId,
    /// The symbols the table's indices and the macros' tokens refer to.
    interner: FrozenInterner,
    macros: Vec<Option<Arc<Macro>>>,
}

impl PreludeCache {
    /// The table the predefines `text` of file `builtin` leave; `None` when
    /// the cache holds another one.
    fn get(&self, text: &str, builtin: FileId) -> Option<Arc<Prelude>> {
        let last = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        last.as_ref()
            .filter(|p| p.file == builtin && p.source == text)
            .cloned()
    }

    fn set(&self, prelude: Prelude) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(Arc::new(prelude));
    }
}

/// A token on its way through the preprocessor: `Copy`, its spelling a
/// symbol of the preprocessor's interner. It becomes a [`Token`] only when
/// it is output.
type PpTok = CompactToken;

/// Painted blue: named a disabled macro when read, so never expands.
const BLUE: u8 = 4;
/// A C99 placemarker (an empty `##` operand); never leaves `substitute`.
const PLACEMARKER: u8 = 8;

impl PpTok {
    fn is_blue(&self) -> bool {
        self.flags & BLUE != 0
    }

    fn is_placemarker(&self) -> bool {
        self.flags & PLACEMARKER != 0
    }
}

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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Builtin {
    File,
    Line,
    Date,
    Time,
    Counter,
}

#[derive(Debug, PartialEq)]
enum MacroKind {
    Object,
    /// `params` (symbols) ends with the variadic one (`__VA_ARGS__` or a GNU
    /// name) when `variadic`.
    Function {
        params: Vec<u32>,
        variadic: bool,
    },
    Builtin(Builtin),
}

const NOT_PARAM: u32 = u32::MAX;

/// A stretch of a replacement list, for substitution without `#`/`##`.
#[derive(Debug, Clone, Copy)]
enum Piece {
    /// `body[start..end]`, none of them a parameter.
    Tokens { start: u32, end: u32 },
    /// A use of parameter `param` at `body[at]`, whose leading-space flag
    /// its argument's first token takes.
    Param { param: u32, at: u32 },
}

/// The [`Piece`]s of `body` (whose parameter indices are `param_of`) and
/// the parameters it uses in order of first use.
fn pieces_of(body: &[PpTok], param_of: &[u32]) -> (Vec<Piece>, Vec<u32>) {
    let mut pieces = Vec::new();
    let mut used = Vec::new();
    let mut run_start = 0;
    for (k, &p) in param_of.iter().enumerate() {
        if p == NOT_PARAM {
            continue;
        }
        if run_start < k {
            pieces.push(Piece::Tokens {
                start: run_start as u32,
                end: k as u32,
            });
        }
        pieces.push(Piece::Param {
            param: p,
            at: k as u32,
        });
        if !used.contains(&p) {
            used.push(p);
        }
        run_start = k + 1;
    }
    if run_start < body.len() {
        pieces.push(Piece::Tokens {
            start: run_start as u32,
            end: body.len() as u32,
        });
    }
    (pieces, used)
}

#[derive(Debug)]
struct Macro {
    name: u32,
    kind: MacroKind,
    /// The replacement list; of the flags only [`SPACE`] is set.
    body: Vec<PpTok>,
    /// Per body token: the index of the parameter it names, or `NOT_PARAM`.
    param_of: Vec<u32>,
    /// The body has `#` or `##` operators: substitution takes the slow path.
    has_ops: bool,
    /// The body as runs of plain tokens and parameter uses, in body order:
    /// what substitution without operators walks, a run at a time.
    pieces: Vec<Piece>,
    /// The parameters the body uses, each once, in order of first use: the
    /// arguments to pre-expand.
    used_params: Vec<u32>,
    location: Location,
}

impl Macro {
    fn params(&self) -> (usize, bool) {
        match &self.kind {
            MacroKind::Function { params, variadic } => (params.len(), *variadic),
            _ => (0, false),
        }
    }

    /// C99 6.10.3p2: same parameters, same tokens, same whitespace
    /// separation.
    fn same_definition(&self, other: &Macro) -> bool {
        self.kind == other.kind
            && self.body.len() == other.body.len()
            && self
                .body
                .iter()
                .zip(&other.body)
                .enumerate()
                .all(|(i, (a, b))| {
                    a.kind == b.kind && a.sym == b.sym && (i == 0 || a.space() == b.space())
                })
    }
}

struct Context {
    /// The tokens still to read, last first: reading pops, and the spent
    /// vector goes back to the pool.
    toks: Vec<PpTok>,
    /// The name of the macro this is the replacement of, which is disabled
    /// until this is popped.
    mac: Option<u32>,
    /// An argument or directive line expanded on its own: reading stops here
    /// instead of falling through to what lies below.
    barrier: bool,
}

/// The arguments of one invocation, unexpanded, in one flat vector so that
/// an invocation costs two allocations however many arguments it has.
#[derive(Default)]
struct Args {
    toks: Vec<PpTok>,
    /// `toks[ends[k - 1]..ends[k]]` is argument `k`.
    ends: Vec<usize>,
    /// The variadic argument was left out entirely (not just empty), which
    /// is when GNU `, ## __VA_ARGS__` drops the comma.
    va_omitted: bool,
}

impl Args {
    fn len(&self) -> usize {
        self.ends.len()
    }

    fn get(&self, k: usize) -> Option<&[PpTok]> {
        let end = *self.ends.get(k)?;
        let start = if k == 0 { 0 } else { self.ends[k - 1] };
        self.toks.get(start..end)
    }
}

/// The state of reading one invocation's arguments.
struct ArgReader {
    /// Parentheses open inside the arguments.
    depth: u32,
    /// Once this many arguments are complete, commas no longer split (they
    /// are inside the variadic argument); `usize::MAX` for none.
    last_split: usize,
    /// Some macro is disabled, so identifiers naming one must be painted.
    paint: bool,
}

impl ArgReader {
    /// Adds `t` to `args`; true when it is the `)` closing the list.
    #[inline(always)]
    fn take(&mut self, mut t: PpTok, args: &mut Args, disabled: &[bool]) -> bool {
        match t.kind {
            TokenKind::Punct(Punct::LParen) => self.depth += 1,
            TokenKind::Punct(Punct::RParen) => {
                if self.depth == 0 {
                    return true;
                }
                self.depth -= 1;
            }
            TokenKind::Punct(Punct::Comma) if self.depth == 0 && args.len() != self.last_split => {
                args.ends.push(args.toks.len());
                return false;
            }
            TokenKind::Identifier
                if self.paint && !t.is_blue() && disabled.get(t.sym as usize) == Some(&true) =>
            {
                t.flags |= BLUE;
            }
            _ => {}
        }
        args.toks.push(t);
        false
    }
}

/// What `substitute` knows about an argument's pre-expansion.
#[derive(Clone)]
enum PreExpanded {
    Unknown,
    /// Expansion would not change it: use the argument as it is.
    Same,
    Done(Vec<PpTok>),
}

struct Cond {
    /// The directive name of the opening `#if` (where clang reports an
    /// unterminated conditional).
    location: Location,
    /// Some group of this conditional has been taken.
    taken: bool,
    seen_else: bool,
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

    fn skip_line(&mut self, report: bool, diags: &mut Diagnostics) {
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

    fn define_builtins(&mut self) {
        for (name, b) in [
            ("__FILE__", Builtin::File),
            ("__LINE__", Builtin::Line),
            ("__DATE__", Builtin::Date),
            ("__TIME__", Builtin::Time),
            ("__COUNTER__", Builtin::Counter),
        ] {
            let name = self.interner.sym(name);
            let m = Macro {
                name,
                kind: MacroKind::Builtin(b),
                body: Vec::new(),
                param_of: Vec::new(),
                has_ops: false,
                pieces: Vec::new(),
                used_params: Vec::new(),
                location: Location::default(),
            };
            self.insert_macro(name, Arc::new(m));
        }
    }

    fn insert_macro(&mut self, name: u32, m: Arc<Macro>) {
        let i = name as usize;
        if i >= self.macros.len() {
            self.macros.resize(i + 1, None);
            self.disabled.resize(i + 1, false);
        }
        self.macros[i] = Some(m);
    }

    /// The macro named by symbol `name`, if any.
    #[inline]
    fn macro_of(&self, name: u32) -> Option<&Arc<Macro>> {
        self.macros.get(name as usize)?.as_ref()
    }

    /// The spelling of `t`.
    fn text(&self, t: &PpTok) -> Rc<str> {
        self.interner.get(t.sym).clone()
    }

    fn is_ident(&self, t: &PpTok, word: &str) -> bool {
        t.kind == TokenKind::Identifier && &**self.interner.get(t.sym) == word
    }

    /// Keeps the macro table after the predefines of file `builtin` in
    /// `cache`.
    fn save_prelude(&self, builtin: FileId, cache: &PreludeCache) {
        // Only a clean run is worth keeping (the predefines never fail, but
        // a build that hit a resource limit must not leave it behind).
        if self.halted || !self.ctxs.is_empty() {
            return;
        }
        cache.set(Prelude {
            source: self.sources.file(builtin).text.clone(),
            file: builtin,
            interner: self.interner.freeze(),
            macros: self.macros.clone(),
        });
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

    fn recycle_args(&mut self, mut args: Args) {
        if self.args_pool.len() < 64 && args.toks.capacity() <= 4096 {
            args.toks.clear();
            args.ends.clear();
            args.va_omitted = false;
            self.args_pool.push(args);
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

    fn int_token(&self, value: bool, location: Location) -> PpTok {
        PpTok {
            location,
            sym: if value {
                self.names.one
            } else {
                self.names.zero
            },
            kind: TokenKind::IntLiteral,
            flags: SPACE,
        }
    }

    // ---- reading tokens ----

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

    /// Moves the innermost context's tokens up to the next one that could
    /// start an expansion (a macro name or `_Pragma`) straight to `out`:
    /// most of a replacement list is such tokens. The context reads from
    /// its end, so that run is its tail, copied in one piece.
    fn copy_context_run(&mut self, out: &mut Vec<PpTok>) {
        let Some(ctx) = self.ctxs.last_mut() else {
            return;
        };
        let (macros, pragma) = (&self.macros, self.names.pragma_operator);
        let keep = ctx
            .toks
            .iter()
            .rposition(|t| {
                t.kind == TokenKind::Identifier
                    && !t.is_blue()
                    && (macros.get(t.sym as usize).is_some_and(Option::is_some) || t.sym == pragma)
            })
            .map_or(0, |i| i + 1);
        out.extend(ctx.toks[keep..].iter().rev());
        ctx.toks.truncate(keep);
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

    /// The next token with no macro expansion: from the innermost live
    /// context, else from the current file (running directives on the way).
    /// `None` at a barrier, or at the end of input (`Mode::Top`) or of the
    /// current file (`Mode::Args`).
    #[inline]
    fn next_unexpanded(&mut self, mode: Mode) -> Option<PpTok> {
        while let Some(ctx) = self.ctxs.last_mut() {
            if let Some(t) = ctx.toks.pop() {
                return Some(t);
            }
            if ctx.barrier {
                return None;
            }
            self.pop_context();
        }
        self.next_file_token(mode)
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

    fn pop_context(&mut self) {
        if let Some(c) = self.ctxs.pop() {
            if let Some(name) = c.mac {
                self.disabled[name as usize] = false;
                self.live_macros = self.live_macros.saturating_sub(1);
            }
            self.recycle(c.toks);
        }
    }

    /// Pushes the replacement `toks` (last token first) of the macro named
    /// `name`.
    fn push_macro_context(&mut self, name: u32, toks: Vec<PpTok>, at: Location) {
        if self.ctxs.len() >= MAX_CONTEXTS {
            self.halt(at, "macro expansion nested too deeply");
            return;
        }
        self.disabled[name as usize] = true;
        self.live_macros += 1;
        self.ctxs.push(Context {
            toks,
            mac: Some(name),
            barrier: false,
        });
    }

    /// Whether the next token is `(`, for a function-like macro name. Spent
    /// contexts are popped on the way (as clang does); barriers, directives
    /// and the end of the file all mean no.
    fn peek_lparen(&mut self) -> bool {
        while let Some(ctx) = self.ctxs.last() {
            if let Some(t) = ctx.toks.last() {
                return t.is_punct(Punct::LParen);
            }
            if ctx.barrier {
                return false;
            }
            self.pop_context();
        }
        self.files
            .last()
            .and_then(FileState::peek)
            .is_some_and(|t| t.is_punct(Punct::LParen))
    }

    /// The next fully macro-expanded token.
    fn next_expanded(&mut self, mode: Mode) -> Option<PpTok> {
        loop {
            let mut t = self.next_unexpanded(mode)?;
            if t.kind != TokenKind::Identifier || t.is_blue() {
                return Some(t);
            }
            let Some(m) = self.macro_of(t.sym) else {
                if self.barriers == 0 && t.sym == self.names.pragma_operator {
                    match self.pragma_operator(&t, mode) {
                        Some(p) => return Some(p),
                        None => continue,
                    }
                }
                return Some(t);
            };
            if self.disabled[t.sym as usize] {
                t.flags |= BLUE;
                return Some(t);
            }
            if self.halted {
                return Some(t);
            }
            let m = Arc::clone(m);
            match m.kind {
                MacroKind::Builtin(b) => return Some(self.builtin_token(b, &t)),
                MacroKind::Object => {
                    let body = self.substitute(&m, &Args::default(), &t);
                    self.push_macro_context(m.name, body, t.location);
                }
                MacroKind::Function { .. } => {
                    if !self.peek_lparen() {
                        return Some(t);
                    }
                    let _lparen = self.next_unexpanded(mode);
                    if let Some(args) = self.collect_args(&m, &t) {
                        let body = self.substitute(&m, &args, &t);
                        self.recycle_args(args);
                        self.push_macro_context(m.name, body, t.location);
                    }
                }
            }
        }
    }

    /// Reads a function-like macro's arguments after its `(`, unexpanded.
    /// `None` (reported) when the list is unterminated or the count is
    /// wrong.
    fn collect_args(&mut self, m: &Macro, name: &PpTok) -> Option<Args> {
        let (nparams, variadic) = m.params();
        let mut args = self.args_pool.pop().unwrap_or_default();
        let mut reader = ArgReader {
            depth: 0,
            // The commas from here on belong to the variadic argument.
            last_split: if variadic { nparams - 1 } else { usize::MAX },
            paint: self.live_macros > 0,
        };
        loop {
            // Arguments are long runs of tokens straight from a context or
            // the file: take those in a loop of their own, without the
            // general reader's calls.
            let closed = match self.ctxs.last_mut() {
                Some(ctx) => {
                    let mut closed = false;
                    while let Some(t) = ctx.toks.pop() {
                        if reader.take(t, &mut args, &self.disabled) {
                            closed = true;
                            break;
                        }
                    }
                    closed
                }
                None => match self.files.last_mut() {
                    Some(f) => {
                        let mut closed = false;
                        while let Some(t) = f.next_plain() {
                            if reader.take(t, &mut args, &self.disabled) {
                                closed = true;
                                break;
                            }
                        }
                        closed
                    }
                    None => false,
                },
            };
            if closed {
                break;
            }
            let Some(t) = self.next_unexpanded(Mode::Args) else {
                self.diags
                    .error(name.location, "unterminated function-like macro invocation");
                self.note_defined_here(m);
                return None;
            };
            // Reading may have changed which macros are live.
            reader.paint = self.live_macros > 0;
            if reader.take(t, &mut args, &self.disabled) {
                break;
            }
        }
        args.ends.push(args.toks.len());
        if nparams == 0 {
            if args.len() == 1 && args.toks.is_empty() {
                return Some(Args::default());
            }
            self.diags.error(
                name.location,
                "too many arguments provided to function-like macro invocation",
            );
            self.note_defined_here(m);
            return None;
        }
        // As in C2x and GNU C, the variadic argument may be left out.
        if variadic && args.len() + 1 == nparams {
            args.ends.push(args.toks.len());
            args.va_omitted = true;
        }
        if args.len() != nparams {
            let message = if args.len() < nparams {
                "too few arguments provided to function-like macro invocation"
            } else {
                "too many arguments provided to function-like macro invocation"
            };
            self.diags.error(name.location, message);
            self.note_defined_here(m);
            return None;
        }
        Some(args)
    }

    fn note_defined_here(&mut self, m: &Macro) {
        if !matches!(m.kind, MacroKind::Builtin(_)) {
            let name = self.interner.get(m.name);
            self.diags
                .note(m.location, format!("macro '{name}' defined here"));
        }
    }

    /// Whether expanding `toks` on their own could change them.
    fn needs_expansion(&self, toks: &[PpTok]) -> bool {
        toks.iter().any(|t| {
            t.kind == TokenKind::Identifier && !t.is_blue() && self.macro_of(t.sym).is_some()
        })
    }

    /// Fully expands `toks` as if they were the rest of the input (macro
    /// arguments, `#include`/`#line`/`#if` lines). In `if_mode`, `defined`
    /// is evaluated; `None` when that went wrong (reported).
    fn expand_tokens(&mut self, toks: Vec<PpTok>, if_mode: bool) -> Option<Vec<PpTok>> {
        if !if_mode && !self.needs_expansion(&toks) {
            return Some(toks);
        }
        self.expand_isolated(toks, if_mode)
    }

    /// [`Self::expand_tokens`] without the check for work to do.
    fn expand_isolated(&mut self, mut toks: Vec<PpTok>, if_mode: bool) -> Option<Vec<PpTok>> {
        if self.nesting >= MAX_ARG_NESTING {
            if !self.nesting_reported {
                self.nesting_reported = true;
                let at = toks.first().map_or(Location::default(), |t| t.location);
                self.diags.error(at, "macro invocations nested too deeply");
            }
            return if if_mode { None } else { Some(toks) };
        }
        let base = self.ctxs.len();
        self.nesting += 1;
        self.barriers += 1;
        let mut out = self.take_vec(toks.len());
        toks.reverse();
        self.ctxs.push(Context {
            toks,
            mac: None,
            barrier: true,
        });
        let mut ok = true;
        loop {
            if !if_mode {
                self.copy_context_run(&mut out);
            }
            let Some(t) = self.next_expanded(Mode::Top) else {
                break;
            };
            if if_mode && t.kind == TokenKind::Identifier && t.sym == self.names.defined {
                match self.defined_operator(&t) {
                    Some(v) => out.push(v),
                    None => ok = false,
                }
            } else {
                out.push(t);
            }
        }
        // Everything above our barrier is spent, and the barrier with it.
        while self.ctxs.len() > base {
            self.pop_context();
        }
        self.nesting -= 1;
        self.barriers -= 1;
        ok.then_some(out)
    }

    /// `defined X` / `defined ( X )` in an `#if` line.
    fn defined_operator(&mut self, at: &PpTok) -> Option<PpTok> {
        let mut t = self.next_unexpanded(Mode::Args);
        let paren = t.as_ref().is_some_and(|t| t.is_punct(Punct::LParen));
        if paren {
            t = self.next_unexpanded(Mode::Args);
        }
        let name = match t {
            Some(n) if n.kind == TokenKind::Identifier => n,
            Some(n) => {
                self.diags
                    .error(n.location, "macro name must be an identifier");
                return None;
            }
            None => {
                self.diags.error(at.location, "macro name missing");
                return None;
            }
        };
        if paren {
            match self.next_unexpanded(Mode::Args) {
                Some(t) if t.is_punct(Punct::RParen) => {}
                _ => {
                    self.diags
                        .error(name.location, "missing ')' after 'defined'");
                    return None;
                }
            }
        }
        let value = self.macro_of(name.sym).is_some();
        Some(self.int_token(value, at.location))
    }

    // ---- substitution ----

    /// The replacement list of `m` for one invocation, arguments substituted
    /// and `#`/`##` applied, ready to be rescanned: last token first, the
    /// order a context reads in.
    fn substitute(&mut self, m: &Macro, args: &Args, name: &PpTok) -> Vec<PpTok> {
        let site = name.location;
        let mut out = self.take_vec(m.body.len() + args.toks.len());
        let function = matches!(m.kind, MacroKind::Function { .. });
        if !m.has_ops {
            // Arguments are pre-expanded in body order (so diagnostics and
            // `__COUNTER__` see them in source order), then the list is
            // written backwards, a run of plain tokens at a time, which
            // saves reversing it afterwards.
            let mut pre = self.pre_pool.pop().unwrap_or_default();
            if function && !m.used_params.is_empty() {
                pre.resize_with(args.len(), || PreExpanded::Unknown);
                for &p in &m.used_params {
                    if let Some(arg) = args.get(p as usize) {
                        pre[p as usize] = self.pre_expand(arg);
                    }
                }
            }
            for piece in m.pieces.iter().rev() {
                match *piece {
                    Piece::Tokens { start, end } => {
                        let run = &m.body[start as usize..end as usize];
                        out.extend(run.iter().rev().map(|t| PpTok {
                            location: site,
                            ..*t
                        }));
                    }
                    Piece::Param { param, at } => {
                        let t = &m.body[at as usize];
                        let Some(arg) = args.get(param as usize) else {
                            out.push(PpTok {
                                location: site,
                                ..*t
                            });
                            continue;
                        };
                        let toks = match &pre[param as usize] {
                            PreExpanded::Done(v) => v.as_slice(),
                            _ => arg,
                        };
                        out.extend(toks.iter().rev());
                        if let (Some(first), false) = (out.last_mut(), toks.is_empty()) {
                            first.set_space(t.space());
                        }
                    }
                }
            }
            self.recycle_pre(pre);
        } else {
            // Allocated on the first parameter use that needs it.
            let mut pre = self.pre_pool.pop().unwrap_or_default();
            let mut i = 0;
            while i < m.body.len() {
                let t = &m.body[i];
                if function && t.is_punct(Punct::Hash) {
                    if let Some(arg) = m.param_of.get(i + 1).and_then(|&p| args.get(p as usize)) {
                        out.push(self.stringize(arg, site, t.space()));
                        i += 2;
                        continue;
                    }
                }
                if t.is_punct(Punct::HashHash) {
                    i = self.paste_operand(m, args, i + 1, &mut out, site);
                    continue;
                }
                let p = m.param_of[i];
                if let Some(arg) = args.get(p as usize) {
                    let start = out.len();
                    let pasting = m
                        .body
                        .get(i + 1)
                        .is_some_and(|n| n.is_punct(Punct::HashHash));
                    if pasting {
                        if arg.is_empty() {
                            out.push(self.placemarker(site));
                        } else {
                            out.extend_from_slice(arg);
                        }
                    } else {
                        if pre.is_empty() {
                            pre.resize_with(args.len(), || PreExpanded::Unknown);
                        }
                        let k = p as usize;
                        if matches!(pre[k], PreExpanded::Unknown) {
                            pre[k] = self.pre_expand(arg);
                        }
                        match &pre[k] {
                            PreExpanded::Done(v) => out.extend_from_slice(v),
                            _ => out.extend_from_slice(arg),
                        }
                    }
                    if let Some(first) = out.get_mut(start) {
                        first.set_space(t.space());
                    }
                    i += 1;
                    continue;
                }
                out.push(PpTok {
                    location: site,
                    ..*t
                });
                i += 1;
            }
            out.retain(|t| !t.is_placemarker());
            self.recycle_pre(pre);
            out.reverse();
        }
        if let Some(first) = out.last_mut() {
            first.set_space(name.space());
        }
        self.expanded += out.len();
        if self.expanded > MAX_EXPANDED_TOKENS {
            self.halt(site, "macro expansion produced too many tokens");
        }
        out
    }

    /// An argument, fully macro-expanded on its own (C99 6.10.3.1).
    fn pre_expand(&mut self, arg: &[PpTok]) -> PreExpanded {
        if !self.needs_expansion(arg) {
            return PreExpanded::Same;
        }
        let mut copy = self.take_vec(arg.len());
        copy.extend_from_slice(arg);
        match self.expand_isolated(copy, false) {
            Some(v) => PreExpanded::Done(v),
            None => PreExpanded::Same,
        }
    }

    fn recycle_pre(&mut self, mut pre: Vec<PreExpanded>) {
        for p in pre.drain(..) {
            if let PreExpanded::Done(v) = p {
                self.recycle(v);
            }
        }
        if self.pre_pool.len() < 64 {
            self.pre_pool.push(pre);
        }
    }

    fn placemarker(&self, site: Location) -> PpTok {
        PpTok {
            location: site,
            sym: self.names.empty,
            kind: TokenKind::Identifier,
            flags: PLACEMARKER,
        }
    }

    /// Applies the `##` before body index `j` to the last output token and
    /// the operand at `j`; returns the body index after the operand.
    fn paste_operand(
        &mut self,
        m: &Macro,
        args: &Args,
        j: usize,
        out: &mut Vec<PpTok>,
        site: Location,
    ) -> usize {
        let Some(rt) = m.body.get(j) else {
            return j;
        };
        let lhs = out.pop().unwrap_or_else(|| self.placemarker(site));
        let function = matches!(m.kind, MacroKind::Function { .. });
        let (rhs, next): (Vec<PpTok>, usize) = if function
            && rt.is_punct(Punct::Hash)
            && m.param_of.get(j + 1).is_some_and(|&p| p != NOT_PARAM)
        {
            let p = m.param_of[j + 1] as usize;
            let arg = args.get(p).unwrap_or_default();
            (vec![self.stringize(arg, site, rt.space())], j + 2)
        } else if let Some(arg) = args.get(m.param_of[j] as usize) {
            let (nparams, variadic) = m.params();
            // GNU `, ## __VA_ARGS__`: the comma goes when the variadic
            // argument is left out (as in gcc and clang), and is never
            // pasted onto it.
            if variadic && m.param_of[j] as usize + 1 == nparams && lhs.is_punct(Punct::Comma) {
                if args.va_omitted {
                    out.push(self.placemarker(site));
                } else {
                    out.push(lhs);
                    out.extend_from_slice(arg);
                }
                return j + 1;
            }
            (arg.to_vec(), j + 1)
        } else {
            let t = PpTok {
                location: site,
                ..*rt
            };
            (vec![t], j + 1)
        };
        let mut rhs = rhs.into_iter();
        match rhs.next() {
            None => out.push(lhs),
            Some(first) => self.paste(lhs, first, site, out),
        }
        out.extend(rhs);
        next
    }

    /// `lhs ## rhs`: the spellings joined must lex as one token.
    fn paste(&mut self, lhs: PpTok, rhs: PpTok, site: Location, out: &mut Vec<PpTok>) {
        if lhs.is_placemarker() {
            out.push(rhs);
            return;
        }
        if rhs.is_placemarker() {
            out.push(lhs);
            return;
        }
        let (l, r) = (self.interner.get(lhs.sym), self.interner.get(rhs.sym));
        let mut text = String::with_capacity(l.len() + r.len());
        text.push_str(l);
        text.push_str(r);
        let (toks, errors) = lexer::lex_compact(&text, FileId(site.file), &mut self.interner);
        if let ([t], true) = (toks.as_slice(), errors.is_empty()) {
            out.push(PpTok {
                location: site,
                sym: t.sym,
                kind: t.kind,
                flags: lhs.flags & SPACE,
            });
            return;
        }
        self.diags.error(
            site,
            format!("pasting formed '{text}', an invalid preprocessing token"),
        );
        out.push(lhs);
        out.push(rhs);
    }

    /// `# param`: the argument's spelling as a string literal.
    fn stringize(&mut self, arg: &[PpTok], site: Location, leading_space: bool) -> PpTok {
        let mut s = String::with_capacity(2 + arg.len() * 4);
        s.push('"');
        for (i, t) in arg.iter().enumerate() {
            if i > 0 && t.space() {
                s.push(' ');
            }
            let text = self.interner.get(t.sym);
            match t.kind {
                TokenKind::StringLiteral | TokenKind::CharLiteral => {
                    for c in text.chars() {
                        if c == '"' || c == '\\' {
                            s.push('\\');
                        }
                        s.push(c);
                    }
                }
                _ => s.push_str(text),
            }
        }
        s.push('"');
        PpTok {
            location: site,
            sym: self.interner.sym(&s),
            kind: TokenKind::StringLiteral,
            flags: u8::from(leading_space),
        }
    }

    fn builtin_token(&mut self, b: Builtin, name: &PpTok) -> PpTok {
        let location = name.location;
        let (kind, sym) = match b {
            Builtin::File => {
                let p = self.sources.presumed(location);
                (TokenKind::StringLiteral, self.interner.sym(&quote(p.name)))
            }
            Builtin::Line => {
                let line = self.sources.presumed(location).line;
                (TokenKind::IntLiteral, self.interner.sym(&line.to_string()))
            }
            Builtin::Counter => {
                let n = self.counter;
                self.counter += 1;
                (TokenKind::IntLiteral, self.interner.sym(&n.to_string()))
            }
            Builtin::Date | Builtin::Time => {
                let (date, time) = match self.date_time {
                    Some(dt) => dt,
                    None => {
                        let (d, t) = date_time_now();
                        let dt = (self.interner.sym(&d), self.interner.sym(&t));
                        *self.date_time.insert(dt)
                    }
                };
                let sym = if b == Builtin::Date { date } else { time };
                (TokenKind::StringLiteral, sym)
            }
        };
        PpTok {
            location,
            sym,
            kind,
            flags: name.flags & SPACE,
        }
    }

    // ---- directives ----

    /// The rest of the current line, as one copy of the file's tokens.
    fn read_line(&mut self, report: bool) -> Vec<PpTok> {
        let Some(f) = self.files.last_mut() else {
            return Vec::new();
        };
        let start = f.pos.min(f.toks.len());
        let len = f.toks[start..]
            .iter()
            .position(CompactToken::line_start)
            .unwrap_or(f.toks.len() - start);
        let line = f.toks[start..start + len].to_vec();
        f.pos = start + len;
        // The lexer errors up to the line's last token, as reading it token
        // by token would report them.
        if let Some(last) = line.last() {
            if last.location.offset >= f.next_err {
                f.flush(last.location.offset, report, self.diags);
            }
        }
        line
    }

    fn skip_line(&mut self) {
        if let Some(f) = self.files.last_mut() {
            f.skip_line(true, self.diags);
        }
    }

    fn next_line_token(&mut self) -> Option<PpTok> {
        let f = self.files.last_mut()?;
        f.next_in_line(true, self.diags)
    }

    fn extra_tokens(&mut self, directive: &str) {
        if let Some(t) = self.next_line_token() {
            self.diags.warning(
                t.location,
                format!("extra tokens at end of #{directive} directive"),
            );
            self.skip_line();
        }
    }

    /// Runs the directive whose `#` is `hash`; a surviving pragma comes back
    /// as a token.
    fn directive(&mut self, hash: PpTok, mode: Mode) -> Option<PpTok> {
        let name = self.next_line_token()?;
        match name.kind {
            TokenKind::Identifier => {}
            // GNU line marker (`# 33 "file"`), as written by `-E`.
            TokenKind::IntLiteral => {
                self.line_directive(&name, Some(name));
                return None;
            }
            _ => {
                self.diags
                    .error(name.location, "invalid preprocessing directive");
                self.skip_line();
                return None;
            }
        }
        let word = self.text(&name);
        match &*word {
            "define" => {
                let line = self.read_line(true);
                self.define(&line, name.location);
            }
            "undef" => self.undef(&name),
            "include" => self.include_directive(&name, mode),
            "if" => {
                let taken = self.eval_condition(&name);
                self.enter_conditional(name.location, taken);
            }
            "ifdef" | "ifndef" => {
                let taken = match self.next_line_token() {
                    None => {
                        self.diags.error(name.location, "macro name missing");
                        false
                    }
                    Some(t) if t.kind == TokenKind::Identifier => {
                        self.extra_tokens(&word);
                        self.macro_of(t.sym).is_some() == (&*word == "ifdef")
                    }
                    Some(t) => {
                        self.diags
                            .error(t.location, "macro name must be an identifier");
                        self.skip_line();
                        false
                    }
                };
                self.enter_conditional(name.location, taken);
            }
            "elif" => {
                self.skip_line();
                match self.current_cond().map(|c| c.seen_else) {
                    None => self.diags.error(name.location, "#elif without #if"),
                    Some(seen_else) => {
                        if seen_else {
                            self.diags.error(name.location, "#elif after #else");
                        }
                        self.skip_group();
                    }
                }
            }
            "else" => match self.current_cond() {
                None => {
                    self.skip_line();
                    self.diags.error(name.location, "#else without #if");
                }
                Some(c) => {
                    let again = c.seen_else;
                    c.seen_else = true;
                    if again {
                        self.diags.error(name.location, "#else after #else");
                    }
                    self.extra_tokens("else");
                    self.skip_group();
                }
            },
            "endif" => {
                if self.files.last_mut().and_then(|f| f.conds.pop()).is_none() {
                    self.diags.error(name.location, "#endif without #if");
                }
                self.extra_tokens("endif");
            }
            "line" => self.line_directive(&name, None),
            "error" | "warning" => {
                // The message is free text: a lone `'` in it is no error.
                let line = self.read_line(false);
                let mut message = String::new();
                for (i, t) in line.iter().enumerate() {
                    if i > 0 && t.space() {
                        message.push(' ');
                    }
                    message.push_str(self.interner.get(t.sym));
                }
                if message.is_empty() {
                    message = format!("#{word}");
                }
                if &*word == "error" {
                    self.diags.error(name.location, message);
                } else {
                    self.diags.warning(name.location, message);
                }
            }
            "pragma" => {
                let body = self.read_line(true);
                return self.pragma(body, hash.location);
            }
            _ => {
                self.diags
                    .error(name.location, "invalid preprocessing directive");
                self.skip_line();
            }
        }
        None
    }

    fn current_cond(&mut self) -> Option<&mut Cond> {
        self.files.last_mut().and_then(|f| f.conds.last_mut())
    }

    fn enter_conditional(&mut self, location: Location, taken: bool) {
        if let Some(f) = self.files.last_mut() {
            f.conds.push(Cond {
                location,
                taken,
                seen_else: false,
            });
        }
        if !taken {
            self.skip_group();
        }
    }

    /// Skips to the next group of the current conditional that is taken, or
    /// past its `#endif`. Only conditional directives are looked at here;
    /// everything else, however malformed, is ignored.
    fn skip_group(&mut self) {
        let mut depth = 0u32;
        loop {
            let Some(f) = self.files.last_mut() else {
                return;
            };
            let Some(t) = f.next(false, self.diags) else {
                return;
            };
            if !(t.line_start() && t.is_punct(Punct::Hash)) {
                continue;
            }
            let Some(name) = f.next_in_line(false, self.diags) else {
                continue;
            };
            let word = if name.kind == TokenKind::Identifier {
                self.interner.get(name.sym).clone()
            } else {
                self.interner.get(self.names.empty).clone()
            };
            match &*word {
                "if" | "ifdef" | "ifndef" => {
                    depth += 1;
                    f.skip_line(false, self.diags);
                }
                "endif" if depth > 0 => {
                    depth -= 1;
                    f.skip_line(false, self.diags);
                }
                "endif" => {
                    f.conds.pop();
                    self.extra_tokens("endif");
                    return;
                }
                "elif" if depth == 0 => {
                    let (seen_else, taken) = f
                        .conds
                        .last()
                        .map_or((false, true), |c| (c.seen_else, c.taken));
                    if seen_else || taken {
                        f.skip_line(false, self.diags);
                        if seen_else {
                            self.diags.error(name.location, "#elif after #else");
                        }
                        continue;
                    }
                    if self.eval_condition(&name) {
                        if let Some(c) = self.current_cond() {
                            c.taken = true;
                        }
                        return;
                    }
                }
                "else" if depth == 0 => {
                    let Some(c) = f.conds.last_mut() else {
                        f.skip_line(false, self.diags);
                        continue;
                    };
                    let again = c.seen_else;
                    c.seen_else = true;
                    if again {
                        f.skip_line(false, self.diags);
                        self.diags.error(name.location, "#else after #else");
                        continue;
                    }
                    if !c.taken {
                        c.taken = true;
                        self.extra_tokens("else");
                        return;
                    }
                    f.skip_line(false, self.diags);
                }
                _ => f.skip_line(false, self.diags),
            }
        }
    }

    /// Evaluates the rest of an `#if`/`#elif` line; errors count as false.
    fn eval_condition(&mut self, directive: &PpTok) -> bool {
        let line = self.read_line(true);
        let Some(last) = line.last().map(|t| t.location) else {
            let word = self.text(directive);
            self.diags
                .error(directive.location, format!("#{word} with no expression"));
            return false;
        };
        let Some(toks) = self.expand_tokens(line, true) else {
            return false;
        };
        let mut e = Eval {
            toks: &toks,
            pos: 0,
            depth: 0,
            end: last,
            diags: &mut *self.diags,
            interner: &self.interner,
        };
        let Ok(v) = e.expr(true) else {
            return false;
        };
        if let Some(t) = toks.get(e.pos) {
            let message = if t.is_punct(Punct::RParen) {
                "unexpected ')' in preprocessor expression"
            } else if t.is_punct(Punct::Colon) {
                "unexpected ':' in preprocessor expression"
            } else {
                "token is not a valid binary operator in a preprocessor subexpression"
            };
            self.diags.error(t.location, message);
            return false;
        }
        v.bits != 0
    }

    /// Checks the name of a `#define`/`#undef`.
    fn macro_name_ok(&mut self, t: Option<&PpTok>, directive_at: Location) -> bool {
        match t {
            None => {
                self.diags.error(directive_at, "macro name missing");
                false
            }
            Some(t) if t.kind != TokenKind::Identifier => {
                self.diags
                    .error(t.location, "macro name must be an identifier");
                false
            }
            Some(t) if t.sym == self.names.defined => {
                self.diags
                    .error(t.location, "'defined' cannot be used as a macro name");
                false
            }
            Some(_) => true,
        }
    }

    /// `#define` with the directive's tokens after `define`.
    fn define(&mut self, line: &[PpTok], directive_at: Location) {
        if !self.macro_name_ok(line.first(), directive_at) {
            return;
        }
        let name = line[0];
        let va_args = self.names.va_args;
        let mut i = 1;
        let mut kind = MacroKind::Object;
        // Only a `(` glued to the name starts a parameter list.
        if line
            .get(1)
            .is_some_and(|t| t.is_punct(Punct::LParen) && !t.space())
        {
            i = 2;
            let mut params: Vec<u32> = Vec::new();
            let mut variadic = false;
            let missing_paren = |this: &mut Self, at: Location| {
                this.diags.error(at, "missing ')' in macro parameter list");
            };
            loop {
                let Some(t) = line.get(i) else {
                    missing_paren(self, line[i - 1].location);
                    return;
                };
                i += 1;
                if t.is_punct(Punct::RParen) && params.is_empty() {
                    break;
                }
                if t.is_punct(Punct::Ellipsis) {
                    variadic = true;
                    params.push(va_args);
                } else if t.kind == TokenKind::Identifier {
                    if t.sym == va_args {
                        self.diags.error(
                            t.location,
                            "__VA_ARGS__ can only appear in the expansion of a C99 variadic macro",
                        );
                        return;
                    }
                    if params.contains(&t.sym) {
                        let text = self.text(t);
                        self.diags.error(
                            t.location,
                            format!("duplicate macro parameter name '{text}'"),
                        );
                        return;
                    }
                    params.push(t.sym);
                    // GNU named variadic parameter: `args...`.
                    if line.get(i).is_some_and(|n| n.is_punct(Punct::Ellipsis)) {
                        variadic = true;
                        i += 1;
                    }
                } else {
                    self.diags
                        .error(t.location, "invalid token in macro parameter list");
                    return;
                }
                let Some(t) = line.get(i) else {
                    missing_paren(self, line[i - 1].location);
                    return;
                };
                i += 1;
                if t.is_punct(Punct::RParen) {
                    break;
                }
                if !t.is_punct(Punct::Comma) || variadic {
                    if variadic {
                        missing_paren(self, t.location);
                    } else {
                        self.diags
                            .error(t.location, "expected comma in macro parameter list");
                    }
                    return;
                }
            }
            kind = MacroKind::Function { params, variadic };
        }
        let body_toks = &line[i.min(line.len())..];
        let mut body: Vec<PpTok> = body_toks
            .iter()
            .map(|t| PpTok {
                flags: t.flags & SPACE,
                ..*t
            })
            .collect();
        if let Some(first) = body.first_mut() {
            first.set_space(false);
        }
        for t in [body.first(), body.last()].into_iter().flatten() {
            if t.is_punct(Punct::HashHash) {
                self.diags.error(
                    t.location,
                    "'##' cannot appear at either end of a macro expansion",
                );
                return;
            }
        }
        let mut param_of = vec![NOT_PARAM; body.len()];
        let mut has_ops = false;
        if let MacroKind::Function { params, .. } = &kind {
            for (k, t) in body.iter().enumerate() {
                if t.kind != TokenKind::Identifier {
                    continue;
                }
                if let Some(p) = params.iter().position(|&p| p == t.sym) {
                    param_of[k] = p as u32;
                } else if t.sym == va_args {
                    self.diags.warning(
                        t.location,
                        "__VA_ARGS__ can only appear in the expansion of a C99 variadic macro",
                    );
                }
            }
            for (k, t) in body.iter().enumerate() {
                if t.is_punct(Punct::Hash) {
                    has_ops = true;
                    if param_of.get(k + 1).is_none_or(|&p| p == NOT_PARAM) {
                        self.diags
                            .error(t.location, "'#' is not followed by a macro parameter");
                        return;
                    }
                }
            }
        } else if let Some(t) = body
            .iter()
            .find(|t| t.kind == TokenKind::Identifier && t.sym == va_args)
        {
            self.diags.warning(
                t.location,
                "__VA_ARGS__ can only appear in the expansion of a C99 variadic macro",
            );
        }
        has_ops |= body.iter().any(|t| t.is_punct(Punct::HashHash));
        let (pieces, used_params) = pieces_of(&body, &param_of);
        let m = Macro {
            name: name.sym,
            kind,
            body,
            param_of,
            has_ops,
            pieces,
            used_params,
            location: name.location,
        };
        if let Some(old) = self.macro_of(name.sym) {
            if matches!(old.kind, MacroKind::Builtin(_)) {
                self.diags
                    .warning(name.location, "redefining builtin macro");
            } else if !old.same_definition(&m) {
                let old_at = old.location;
                let text = self.text(&name);
                self.diags
                    .warning(name.location, format!("'{text}' macro redefined"));
                self.diags.note(old_at, "previous definition is here");
            }
        }
        self.insert_macro(name.sym, Arc::new(m));
    }

    fn undef(&mut self, directive: &PpTok) {
        let t = self.next_line_token();
        if !self.macro_name_ok(t.as_ref(), directive.location) {
            self.skip_line();
            return;
        }
        let Some(t) = t else {
            return;
        };
        self.extra_tokens("undef");
        let old = self.macros.get_mut(t.sym as usize).and_then(Option::take);
        if let Some(old) = old {
            if matches!(old.kind, MacroKind::Builtin(_)) {
                self.diags.warning(t.location, "undefining builtin macro");
            }
        }
    }

    fn include_directive(&mut self, directive: &PpTok, mode: Mode) {
        let line = self.read_line(true);
        if mode == Mode::Args {
            self.diags.error(
                directive.location,
                "#include directive within macro arguments is not supported",
            );
            return;
        }
        let Some(first) = line.first() else {
            self.diags
                .error(directive.location, "expected \"FILENAME\" or <FILENAME>");
            return;
        };
        let at = first.location;
        let (name, angled) = if first.kind == TokenKind::StringLiteral {
            if line.len() > 1 {
                self.diags.warning(
                    line[1].location,
                    "extra tokens at end of #include directive",
                );
            }
            match header_name(self.interner.get(first.sym)) {
                Some(h) => h,
                None => {
                    self.diags.error(at, "expected \"FILENAME\" or <FILENAME>");
                    return;
                }
            }
        } else {
            let Some(toks) = self.expand_tokens(line, false) else {
                return;
            };
            match expanded_header_name(&toks, &self.interner) {
                Some(h) => h,
                None => {
                    self.diags.error(at, "expected \"FILENAME\" or <FILENAME>");
                    return;
                }
            }
        };
        if name.is_empty() {
            self.diags.error(at, "empty filename");
            return;
        }
        if self.files.len() > MAX_INCLUDE_DEPTH {
            self.diags.error(at, "#include nested too deeply");
            return;
        }
        let Some((id, dir)) = self.open_header(&name, angled, at) else {
            return;
        };
        if self.once.contains(&id) {
            return;
        }
        self.push_file(id, dir);
    }

    /// Finds `name`: embedded headers, then (for `"..."`) the including
    /// file's directory, then the `-I` directories in order.
    fn open_header(
        &mut self,
        name: &str,
        angled: bool,
        at: Location,
    ) -> Option<(FileId, Option<PathBuf>)> {
        let embedded = self.embedded;
        if let Some(&(hname, text)) = embedded.iter().find(|(n, _)| *n == name) {
            let key = format!("embedded:{hname}");
            let id = match self.include_cache.get(&key) {
                Some(&id) => id,
                None => {
                    let id = self.sources.add(hname, text);
                    self.include_cache.insert(key, id);
                    id
                }
            };
            return Some((id, None));
        }
        let options = self.options;
        let own_dir = if angled {
            None
        } else {
            self.files.last().and_then(|f| f.dir.clone())
        };
        for dir in own_dir.iter().chain(&options.include_dirs) {
            let path = dir.join(name);
            if !path.is_file() {
                continue;
            }
            let parent = path.parent().map(Path::to_path_buf);
            let key = std::fs::canonicalize(&path)
                .unwrap_or_else(|_| path.clone())
                .to_string_lossy()
                .into_owned();
            if let Some(&id) = self.include_cache.get(&key) {
                return Some((id, parent));
            }
            return match std::fs::read_to_string(&path) {
                Ok(text) => {
                    let id = self.sources.add(path.display().to_string(), text);
                    self.include_cache.insert(key, id);
                    Some((id, parent))
                }
                Err(e) => {
                    self.diags
                        .error(at, format!("cannot read '{}': {e}", path.display()));
                    None
                }
            };
        }
        self.diags.error(at, format!("'{name}' file not found"));
        None
    }

    /// `#line N ["name"]`, or a GNU line marker when `gnu_number` is given.
    fn line_directive(&mut self, directive: &PpTok, gnu_number: Option<PpTok>) {
        let raw = self.read_line(true);
        let last = raw.last().map_or(directive.location, |t| t.location);
        let gnu = gnu_number.is_some();
        let toks = match gnu_number {
            Some(n) => std::iter::once(n).chain(raw).collect(),
            None => match self.expand_tokens(raw, false) {
                Some(t) => t,
                None => return,
            },
        };
        let number = toks.first().and_then(|t| {
            let text = self.interner.get(t.sym);
            let digits =
                t.kind == TokenKind::IntLiteral && text.bytes().all(|b| b.is_ascii_digit());
            digits.then(|| text.parse::<u64>().unwrap_or(u64::MAX))
        });
        let Some(number) = number else {
            let at = toks.first().map_or(directive.location, |t| t.location);
            self.diags
                .error(at, "#line directive requires a simple digit sequence");
            return;
        };
        if number > 2_147_483_647 {
            self.diags
                .error(toks[0].location, "line number out of range");
            return;
        }
        let mut name = None;
        if let Some(t) = toks.get(1) {
            let text = self.interner.get(t.sym);
            if t.kind == TokenKind::StringLiteral && text.starts_with('"') {
                name = Some(unescape_string(text));
            } else {
                self.diags
                    .error(t.location, "invalid filename for #line directive");
                return;
            }
            if let (Some(extra), false) = (toks.get(2), gnu) {
                self.diags
                    .warning(extra.location, "extra tokens at end of #line directive");
            }
        }
        let Some(id) = self.files.last().map(|f| f.id) else {
            return;
        };
        let file = self.sources.file_mut(id);
        let physical_line = file.line_col(last.offset).0 + 1;
        // Without a name the presumed name stays what it was.
        let name = name.or_else(|| file.line_directives.last().and_then(|d| d.name.clone()));
        file.line_directives.push(LineDirective {
            physical_line,
            presumed_line: number as u32,
            name,
        });
    }

    // ---- pragmas ----

    /// A pragma body (the tokens after `pragma`): `once` is honoured, the
    /// ones later stages need become a Pragma token, the rest vanish.
    fn pragma(&mut self, body: Vec<PpTok>, location: Location) -> Option<PpTok> {
        let first = body.first()?;
        if first.kind != TokenKind::Identifier {
            return None;
        }
        let word = self.text(first);
        let keep = match &*word {
            "once" => {
                if let Some(f) = self.files.last() {
                    self.once.insert(f.id);
                }
                return None;
            }
            "OPENCL" => body
                .get(1)
                .is_some_and(|t| self.is_ident(t, "EXTENSION") || self.is_ident(t, "FP_CONTRACT")),
            "unroll" | "nounroll" => true,
            _ => false,
        };
        if !keep {
            return None;
        }
        let mut body = body.into_iter();
        let mut text = String::new();
        // `OPENCL EXTENSION cl_khr_fp64` must keep the extension's name,
        // which is itself a macro; an unroll count may be a macro.
        let toks: Vec<PpTok> = if &*word == "OPENCL" {
            body.collect()
        } else {
            let word = body.next();
            let rest = self
                .expand_tokens(body.collect(), false)
                .unwrap_or_default();
            word.into_iter().chain(rest).collect()
        };
        for (i, t) in toks.iter().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            text.push_str(self.interner.get(t.sym));
        }
        Some(PpTok {
            location,
            sym: self.interner.sym(&text),
            kind: TokenKind::Pragma,
            flags: SPACE,
        })
    }

    /// C99 6.10.9 `_Pragma ( string-literal )`.
    fn pragma_operator(&mut self, at: &PpTok, mode: Mode) -> Option<PpTok> {
        let location = at.location;
        let lparen = self.next_expanded(mode);
        let string = match lparen {
            Some(t) if t.is_punct(Punct::LParen) => self.next_expanded(mode),
            _ => None,
        };
        let rparen = match &string {
            Some(s) if s.kind == TokenKind::StringLiteral => self.next_expanded(mode),
            _ => None,
        };
        let (Some(string), Some(rparen)) = (string, rparen) else {
            self.diags
                .error(location, "_Pragma takes a parenthesized string literal");
            return None;
        };
        let string = self.text(&string);
        if !rparen.is_punct(Punct::RParen) || !string.ends_with('"') {
            self.diags
                .error(location, "_Pragma takes a parenthesized string literal");
            return None;
        }
        let text = unescape_string(&string);
        let (toks, errors) = lexer::lex_compact(&text, FileId(location.file), &mut self.interner);
        for e in &errors {
            self.diags.push(e.severity(), Some(location), e.message());
        }
        let body = toks.into_iter().map(|t| PpTok { location, ..t }).collect();
        self.pragma(body, location)
    }
}

/// `"name"` or `<name>` as lexed after `#include`.
fn header_name(text: &str) -> Option<(String, bool)> {
    if let Some(inner) = text.strip_prefix('<').and_then(|s| s.strip_suffix('>')) {
        return Some((inner.to_owned(), true));
    }
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    Some((inner.to_owned(), false))
}

/// The header name of a macro-expanded `#include` line.
fn expanded_header_name(toks: &[PpTok], interner: &Interner) -> Option<(String, bool)> {
    let first = toks.first()?;
    if first.kind == TokenKind::StringLiteral {
        return header_name(interner.get(first.sym));
    }
    if !first.is_punct(Punct::Lt) {
        return None;
    }
    let mut name = String::new();
    for (i, t) in toks.iter().enumerate().skip(1) {
        if t.is_punct(Punct::Gt) {
            return Some((name, true));
        }
        if i > 1 && t.space() {
            name.push(' ');
        }
        name.push_str(interner.get(t.sym));
    }
    None
}

/// A string literal's contents with `\"` and `\\` undone (C99 6.10.9, and
/// the file name of `#line`); any prefix is dropped.
fn unescape_string(text: &str) -> String {
    let start = text.find('"').map_or(text.len(), |i| i + 1);
    let inner = text[start..].strip_suffix('"').unwrap_or(&text[start..]);
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some(e @ ('"' | '\\')) => out.push(e),
                Some(e) => {
                    out.push('\\');
                    out.push(e);
                }
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// `s` as a C string literal.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// `__DATE__` and `__TIME__` as string literals, in UTC: there is no time
/// zone database to consult without a dependency.
fn date_time_now() -> (String, String) {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Howard Hinnant's civil_from_days.
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let name = MONTHS.get(month as usize - 1).copied().unwrap_or("Jan");
    let rem = secs % 86_400;
    (
        format!("\"{name} {day:>2} {year}\""),
        format!("\"{:02}:{:02}:{:02}\"", rem / 3600, rem / 60 % 60, rem % 60),
    )
}

// ---- #if expressions ----

/// An `intmax_t` or `uintmax_t` value (C99 6.10.1p4).
#[derive(Clone, Copy, Debug)]
struct Value {
    bits: u64,
    unsigned: bool,
}

impl Value {
    fn signed(v: i64) -> Self {
        Value {
            bits: v as u64,
            unsigned: false,
        }
    }

    fn from_bool(b: bool) -> Self {
        Value::signed(i64::from(b))
    }

    fn truth(self) -> bool {
        self.bits != 0
    }
}

struct Eval<'t, 'd> {
    toks: &'t [PpTok],
    pos: usize,
    depth: u32,
    /// Where "expected value" points when the line runs out.
    end: Location,
    diags: &'d mut Diagnostics,
    interner: &'d Interner,
}

impl Eval<'_, '_> {
    fn fail<T>(&mut self, at: Location, message: impl Into<String>) -> Result<T, ()> {
        self.diags.error(at, message);
        Err(())
    }

    fn peek_punct(&self) -> Option<(Punct, Location)> {
        let t = self.toks.get(self.pos)?;
        match t.kind {
            TokenKind::Punct(p) => Some((p, t.location)),
            _ => None,
        }
    }

    fn eat(&mut self, p: Punct) -> bool {
        if self.peek_punct().is_some_and(|(q, _)| q == p) {
            self.pos += 1;
            return true;
        }
        false
    }

    fn enter(&mut self) -> Result<(), ()> {
        self.depth += 1;
        if self.depth > MAX_EXPR_DEPTH {
            let at = self.toks.get(self.pos).map_or(self.end, |t| t.location);
            return self.fail(at, "preprocessor expression nested too deeply");
        }
        Ok(())
    }

    /// `live` is false in operands that short-circuiting skips: they are
    /// parsed and typed, but cannot fail or warn.
    fn expr(&mut self, live: bool) -> Result<Value, ()> {
        self.enter()?;
        let mut v = self.conditional(live)?;
        while self.eat(Punct::Comma) {
            v = self.conditional(live)?;
        }
        self.depth -= 1;
        Ok(v)
    }

    fn conditional(&mut self, live: bool) -> Result<Value, ()> {
        let c = self.binary(1, live)?;
        if !self.eat(Punct::Question) {
            return Ok(c);
        }
        let a = self.expr(live && c.truth())?;
        if !self.eat(Punct::Colon) {
            let at = self.toks.get(self.pos).map_or(self.end, |t| t.location);
            return self.fail(at, "expected ':' in preprocessor expression");
        }
        self.enter()?;
        let b = self.conditional(live && !c.truth())?;
        self.depth -= 1;
        let v = if c.truth() { a } else { b };
        Ok(Value {
            bits: v.bits,
            unsigned: a.unsigned || b.unsigned,
        })
    }

    fn binary(&mut self, min_prec: u8, live: bool) -> Result<Value, ()> {
        let mut lhs = self.unary(live)?;
        while let Some((op, at)) = self.peek_punct() {
            let Some(prec) = precedence(op) else {
                break;
            };
            if prec < min_prec {
                break;
            }
            self.pos += 1;
            let rhs_live = match op {
                Punct::AmpAmp => live && lhs.truth(),
                Punct::PipePipe => live && !lhs.truth(),
                _ => live,
            };
            let rhs = self.binary(prec + 1, rhs_live)?;
            lhs = self.apply(op, lhs, rhs, live, at)?;
        }
        Ok(lhs)
    }

    fn overflow(&mut self, live: bool, at: Location) {
        if live {
            self.diags
                .warning(at, "integer overflow in preprocessor expression");
        }
    }

    fn apply(
        &mut self,
        op: Punct,
        l: Value,
        r: Value,
        live: bool,
        at: Location,
    ) -> Result<Value, ()> {
        use Punct::*;
        let unsigned = l.unsigned || r.unsigned;
        let (a, b) = (l.bits, r.bits);
        let (sa, sb) = (a as i64, b as i64);
        let value = |bits: u64| Value { bits, unsigned };
        Ok(match op {
            AmpAmp => Value::from_bool(l.truth() && r.truth()),
            PipePipe => Value::from_bool(l.truth() || r.truth()),
            EqEq => Value::from_bool(a == b),
            NotEq => Value::from_bool(a != b),
            Lt | Gt | Le | Ge => {
                let ord = if unsigned { a.cmp(&b) } else { sa.cmp(&sb) };
                Value::from_bool(match op {
                    Lt => ord.is_lt(),
                    Gt => ord.is_gt(),
                    Le => ord.is_le(),
                    _ => ord.is_ge(),
                })
            }
            Pipe => value(a | b),
            Caret => value(a ^ b),
            Amp => value(a & b),
            Plus | Minus | Star if unsigned => value(match op {
                Plus => a.wrapping_add(b),
                Minus => a.wrapping_sub(b),
                _ => a.wrapping_mul(b),
            }),
            Plus | Minus | Star => {
                let r = match op {
                    Plus => sa.checked_add(sb),
                    Minus => sa.checked_sub(sb),
                    _ => sa.checked_mul(sb),
                };
                match r {
                    Some(v) => Value::signed(v),
                    None => {
                        self.overflow(live, at);
                        Value::signed(match op {
                            Plus => sa.wrapping_add(sb),
                            Minus => sa.wrapping_sub(sb),
                            _ => sa.wrapping_mul(sb),
                        })
                    }
                }
            }
            Slash | Percent => {
                if b == 0 {
                    if !live {
                        return Ok(value(0));
                    }
                    let what = if op == Slash { "division" } else { "remainder" };
                    return self.fail(at, format!("{what} by zero in preprocessor expression"));
                }
                if unsigned {
                    value(if op == Slash { a / b } else { a % b })
                } else {
                    if sa == i64::MIN && sb == -1 {
                        self.overflow(live, at);
                    }
                    Value::signed(if op == Slash {
                        sa.wrapping_div(sb)
                    } else {
                        sa.wrapping_rem(sb)
                    })
                }
            }
            Shl | Shr => {
                // The result has the left operand's type; an out-of-range
                // count is undefined in C, and gives 0 (or -1) here.
                let count = if r.unsigned || sb >= 0 { b } else { u64::MAX };
                let bits = if count >= 64 {
                    if op == Shr && !l.unsigned && sa < 0 {
                        u64::MAX
                    } else {
                        0
                    }
                } else if op == Shl {
                    a << count
                } else if l.unsigned {
                    a >> count
                } else {
                    (sa >> count) as u64
                };
                Value {
                    bits,
                    unsigned: l.unsigned,
                }
            }
            _ => Value::signed(0),
        })
    }

    fn unary(&mut self, live: bool) -> Result<Value, ()> {
        // Prefix operators are applied iteratively: `- - - ... 1` must not
        // recurse once per operator.
        let mut ops = Vec::new();
        while let Some((p, at)) = self.peek_punct() {
            if !matches!(p, Punct::Plus | Punct::Minus | Punct::Tilde | Punct::Bang) {
                break;
            }
            ops.push((p, at));
            self.pos += 1;
        }
        let mut v = self.primary(live)?;
        for (op, at) in ops.into_iter().rev() {
            v = match op {
                Punct::Minus => {
                    if !v.unsigned && v.bits == i64::MIN as u64 {
                        self.overflow(live, at);
                    }
                    Value {
                        bits: v.bits.wrapping_neg(),
                        unsigned: v.unsigned,
                    }
                }
                Punct::Tilde => Value {
                    bits: !v.bits,
                    unsigned: v.unsigned,
                },
                Punct::Bang => Value::from_bool(!v.truth()),
                _ => v,
            };
        }
        Ok(v)
    }

    fn primary(&mut self, live: bool) -> Result<Value, ()> {
        let Some(t) = self.toks.get(self.pos) else {
            return self.fail(self.end, "expected value in expression");
        };
        let at = t.location;
        self.pos += 1;
        match t.kind {
            TokenKind::IntLiteral => match parse_int(self.interner.get(t.sym)) {
                Ok((v, too_big)) => {
                    if too_big && live {
                        self.diags.warning(
                            at,
                            "integer literal is too large to be represented in a signed \
                             integer type, interpreting as unsigned",
                        );
                    }
                    Ok(v)
                }
                Err(message) => self.fail(at, message),
            },
            TokenKind::CharLiteral => match parse_char(self.interner.get(t.sym)) {
                Ok(v) => Ok(Value::signed(v)),
                Err(message) => self.fail(at, message),
            },
            TokenKind::FloatLiteral => {
                self.fail(at, "floating point literal in preprocessor expression")
            }
            // Identifiers left after expansion (keywords included) are 0.
            TokenKind::Identifier => Ok(Value::signed(0)),
            TokenKind::Punct(Punct::LParen) => {
                let v = self.expr(live)?;
                if !self.eat(Punct::RParen) {
                    let at = self.toks.get(self.pos).map_or(self.end, |t| t.location);
                    return self.fail(at, "expected ')' in preprocessor expression");
                }
                Ok(v)
            }
            _ => self.fail(at, "invalid token at start of a preprocessor expression"),
        }
    }
}

fn precedence(p: Punct) -> Option<u8> {
    use Punct::*;
    Some(match p {
        PipePipe => 1,
        AmpAmp => 2,
        Pipe => 3,
        Caret => 4,
        Amp => 5,
        EqEq | NotEq => 6,
        Lt | Gt | Le | Ge => 7,
        Shl | Shr => 8,
        Plus | Minus => 9,
        Star | Slash | Percent => 10,
        _ => return None,
    })
}

/// An integer literal's value, and whether a decimal literal without `u`
/// only fits as unsigned (worth a warning).
fn parse_int(text: &str) -> Result<(Value, bool), String> {
    let b = text.as_bytes();
    let (radix, start) = match b {
        [b'0', b'x' | b'X', ..] => (16u64, 2),
        [b'0', b'b' | b'B', ..] => (2, 2),
        [b'0', ..] => (8, 1),
        _ => (10, 0),
    };
    let digits_len = b[start..]
        .iter()
        .take_while(|c| {
            if radix == 16 {
                c.is_ascii_hexdigit()
            } else {
                c.is_ascii_digit()
            }
        })
        .count();
    let digits = &text[start..start + digits_len];
    let suffix = &text[start + digits_len..];
    if start == 2 && digits.is_empty() {
        return Err(format!(
            "invalid suffix '{}' on integer constant",
            &text[1..]
        ));
    }
    let mut v: u64 = 0;
    for c in digits.chars() {
        let d = u64::from(c.to_digit(16).unwrap_or(0));
        if d >= radix {
            let kind = if radix == 8 { "octal" } else { "binary" };
            return Err(format!("invalid digit '{c}' in {kind} constant"));
        }
        v = v
            .checked_mul(radix)
            .and_then(|v| v.checked_add(d))
            .ok_or("integer literal is too large to be represented in any integer type")?;
    }
    let (u, rest) = if let Some(r) = suffix.strip_prefix(['u', 'U']) {
        (true, r)
    } else if let Some(r) = suffix.strip_suffix(['u', 'U']) {
        (true, r)
    } else {
        (false, suffix)
    };
    if !matches!(rest, "" | "l" | "L" | "ll" | "LL") {
        return Err(format!("invalid suffix '{suffix}' on integer constant"));
    }
    let too_big = v > i64::MAX as u64;
    Ok((
        Value {
            bits: v,
            unsigned: u || too_big,
        },
        too_big && !u && radix == 10,
    ))
}

/// A character constant's value: `char` is signed, multi-character
/// constants pack bytes big-end first into an `int` (as clang does).
fn parse_char(text: &str) -> Result<i64, String> {
    let (prefix, rest) = if let Some(r) = text.strip_prefix("u8") {
        ("u8", r)
    } else if let Some(r) = text.strip_prefix(['L', 'u', 'U']) {
        (&text[..1], r)
    } else {
        ("", text)
    };
    // An unterminated constant was already reported by the lexer.
    let Some(body) = rest.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')) else {
        return Ok(0);
    };
    let wide = matches!(prefix, "L" | "u" | "U");
    let mut units: Vec<u32> = Vec::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            if wide {
                units.push(c as u32);
            } else {
                let mut buf = [0u8; 4];
                units.extend(c.encode_utf8(&mut buf).bytes().map(u32::from));
            }
            continue;
        }
        let Some(e) = chars.next() else {
            break;
        };
        let v = match e {
            'n' => 10,
            't' => 9,
            'v' => 11,
            'b' => 8,
            'r' => 13,
            'f' => 12,
            'a' => 7,
            'x' => {
                let mut v: u32 = 0;
                let mut any = false;
                while let Some(d) = chars.peek().and_then(|c| c.to_digit(16)) {
                    v = v.wrapping_mul(16).wrapping_add(d);
                    any = true;
                    chars.next();
                }
                if !any {
                    return Err("\\x used with no following hex digits".into());
                }
                v
            }
            'u' | 'U' => {
                let n = if e == 'u' { 4 } else { 8 };
                let mut v: u32 = 0;
                for _ in 0..n {
                    match chars.peek().and_then(|c| c.to_digit(16)) {
                        Some(d) => {
                            v = v.wrapping_mul(16).wrapping_add(d);
                            chars.next();
                        }
                        None => return Err("incomplete universal character name".into()),
                    }
                }
                v
            }
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                v
            }
            other => other as u32,
        };
        units.push(v);
    }
    let Some(&last) = units.last() else {
        return Err("empty character constant".into());
    };
    Ok(match prefix {
        "L" => i64::from(last as i32),
        "u" => i64::from(last as u16),
        "U" => i64::from(last),
        "u8" => i64::from(last as u8),
        _ if units.len() == 1 => i64::from(last as u8 as i8),
        _ => {
            let packed = units.iter().fold(0u32, |acc, &u| (acc << 8) | (u & 0xff));
            i64::from(packed as i32)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Severity;

    struct Out {
        text: String,
        log: String,
        tokens: Vec<Token>,
        diags: Diagnostics,
    }

    fn run_with(
        src: &str,
        options: &BuildOptions,
        caps: &DeviceCaps,
        headers: &[(&str, &str)],
    ) -> Out {
        run_in(&PreludeCache::default(), src, options, caps, headers)
    }

    /// [`run_with`], keeping the predefined macros' table in `prelude`.
    fn run_in(
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

    fn run(src: &str) -> Out {
        run_with(src, &BuildOptions::default(), &DeviceCaps::full(), &[])
    }

    fn run_opts(src: &str, options: &str) -> Out {
        let o = BuildOptions::parse(options).expect("options");
        run_with(src, &o, &DeviceCaps::full(), &[])
    }

    /// Token spellings separated by single spaces: whitespace-insensitive,
    /// but string contents still count.
    fn norm(s: &str) -> String {
        let lexed = lexer::lex(s, FileId(0));
        let texts: Vec<&str> = lexed.tokens.iter().map(|t| &*t.token.text).collect();
        texts.join(" ")
    }

    #[track_caller]
    fn expands_to(src: &str, expected: &str) {
        let o = run(src);
        assert_eq!(o.log, "", "unexpected diagnostics for {src:?}");
        assert_eq!(norm(&o.text), norm(expected), "source: {src:?}");
    }

    fn errors(o: &Out) -> Vec<String> {
        o.diags
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| d.message.clone())
            .collect()
    }

    #[test]
    fn object_and_function_macros() {
        expands_to("#define N 4\nint a[N];", "int a[4];");
        expands_to(
            "#define MAX(a, b) ((a) > (b) ? (a) : (b))\nMAX(x, y+1)",
            "((x) > (y+1) ? (x) : (y+1))",
        );
        expands_to("#define F() 1\nF() F ( ) F", "1 1 F");
        expands_to("#define F(x) [x]\nF() F(()) F((a,b))", "[] [()] [(a,b)]");
        // A `(` on a later line still invokes.
        expands_to("#define F(x) <x>\nF\n\n(1)", "<1>");
        // A name not followed by `(` is left alone.
        expands_to("#define F(x) x\nint F;", "int F;");
        // Space before `(` in the definition makes it object-like.
        expands_to("#define G (x) x\nG", "(x) x");
        expands_to("#define E\na E b", "a b");
    }

    #[test]
    fn c99_example_3() {
        let src = "#define x 3
#define f(a) f(x * (a))
#undef x
#define x 2
#define g f
#define z z[0]
#define h g(~
#define m(a) a(w)
#define w 0,1
#define t(a) a
#define p() int
#define q(x) x
#define r(x,y) x ## y
#define str(x) # x
f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);
g(x+(3,4)-w) | h 5) & m
(f)^m(m);
p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };
char c[2][6] = { str(hello), str() };
";
        expands_to(
            src,
            "f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);
f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);
int i[] = { 1, 23, 4, 5, };
char c[2][6] = { \"hello\", \"\" };",
        );
    }

    #[test]
    fn c99_example_4() {
        let src = r#"#define str(s) # s
#define xstr(s) str(s)
#define debug(s, t) printf("x" # s "= %d, x" # t "= %s", \
 x ## s, x ## t)
#define INCFILE(n) vers ## n
#define glue(a, b) a ## b
#define xglue(a, b) glue(a, b)
#define HIGHLOW "hello"
#define LOW LOW ", world"
debug(1, 2);
fputs(str(strncmp("abc\0d", "abc", '\4') // this goes away
 == 0), s);
#include xstr(INCFILE(2).h)
glue(HIGH, LOW);
xglue(HIGH, LOW)
"#;
        let headers = [("vers2.h", "int from_vers2;\n")];
        let o = run_with(src, &BuildOptions::default(), &DeviceCaps::full(), &headers);
        assert_eq!(o.log, "");
        let expected = r#"printf("x" "1" "= %d, x" "2" "= %s", x1, x2);
fputs("strncmp(\"abc\\0d\", \"abc\", '\\4') == 0", s);
int from_vers2;
"hello";
"hello" ", world""#;
        assert_eq!(norm(&o.text), norm(expected));
    }

    #[test]
    fn c99_example_5_placemarkers() {
        expands_to(
            "#define t(x,y,z) x ## y ## z
int j[] = { t(1,2,3), t(,4,5), t(6,,7), t(8,9,),
 t(10,,), t(,11,), t(,,12), t(,,) };",
            "int j[] = { 123, 45, 67, 89, 10, 11, 12, };",
        );
    }

    #[test]
    fn c99_example_7_variadic() {
        let src = r#"#define debug(...) fprintf(stderr, __VA_ARGS__)
#define showlist(...) puts(#__VA_ARGS__)
#define report(test, ...) ((test)?puts(#test):\
 printf(__VA_ARGS__))
debug("Flag");
debug("X = %d\n", x);
showlist(The first, second, and third items.);
report(x>y, "x is %d but y is %d", x, y);
"#;
        expands_to(
            src,
            r#"fprintf(stderr, "Flag" );
fprintf(stderr, "X = %d\n", x );
puts( "The first, second, and third items." );
((x>y)?puts("x>y"): printf("x is %d but y is %d", x, y));"#,
        );
    }

    #[test]
    fn c99_hash_hash_example() {
        // 6.10.3.3 EXAMPLE: a `##` made by pasting is not an operator.
        expands_to(
            "#define hash_hash # ## #
#define mkstr(a) # a
#define in_between(a) mkstr(a)
#define join(c, d) in_between(c hash_hash d)
char p[] = join(x, y);",
            r#"char p[] = "x ## y";"#,
        );
    }

    #[test]
    fn stringizing_spacing_and_escapes() {
        expands_to(
            "#define S(x) #x\nS(  a   +\n b  ) S(\"q\\n\") S('\"') S(a\t(b))",
            r#""a + b" "\"q\\n\"" "'\"'" "a (b)""#,
        );
    }

    #[test]
    fn pasting() {
        expands_to(
            "#define C(a,b) a##b\nC(x,1) C(-,>) C(.,5) C(L,'a') C(1,e)",
            "x1 -> .5 L'a' 1e",
        );
        // The pasted identifier is rescanned.
        expands_to("#define AB done\n#define C(a,b) a##b\nC(A,B)", "done");
        // GNU `, ## __VA_ARGS__`.
        expands_to(
            "#define P(fmt, ...) printf(fmt, ## __VA_ARGS__)\nP(\"a\") P(\"b\", 1, 2) P(\"c\",)",
            r#"printf("a") printf("b", 1, 2) printf("c",)"#,
        );
        // Named variadic parameter.
        expands_to("#define V(args...) f(args)\nV(1, 2)", "f(1, 2)");
        let o = run("#define C(a,b) a##b\nC(+,/) C(\"a\",\"b\")");
        assert_eq!(
            errors(&o),
            [
                "pasting formed '+/', an invalid preprocessing token",
                "pasting formed '\"a\"\"b\"', an invalid preprocessing token"
            ]
        );
        // Invalid pastes keep both tokens.
        assert_eq!(norm(&o.text), norm("+ / \"a\" \"b\""));
    }

    #[test]
    fn recursion_stops() {
        expands_to("#define foo foo\nfoo", "foo");
        expands_to("#define a b\n#define b a\na b", "a b");
        expands_to("#define f(x) x+f(x)\nf(1)", "1+f(1)");
        expands_to(
            "#define f(x) g(x)\n#define g(x) f(x)\nf(1) g(2)",
            "f(1) g(2)",
        );
        // 6.10.3.4p4: the standard's own ambiguous case, as gcc and clang do.
        expands_to("#define f(a) a*g\n#define g(a) f(a)\nf(2)(9)", "2*9*g");
        // A name painted blue stays unexpandable after leaving its macro.
        expands_to("#define f(x) x f\nf(1)(2)", "1 f(2)");
        expands_to("#define h g(h)\n#define g(x) x\nh", "h");
        expands_to(
            "#define AA BB\n#define BB AA\n#define id(x) x\nid(AA)",
            "AA",
        );
        // The invoked macro itself may appear expanded in its arguments.
        expands_to("#define f(x) (x)\nf(f(f(1)))", "(((1)))");
    }

    #[test]
    fn expansion_locations_point_to_the_use() {
        let src = "#define ONE 1\n#define ID(x) x\n  ONE ID(y)";
        let o = run(src);
        let at = |t: &Token| t.location.offset as usize;
        let use_one = src.rfind("ONE").unwrap_or(0);
        let use_y = src.rfind('y').unwrap_or(0);
        assert_eq!(&*o.tokens[0].text, "1");
        assert_eq!(at(&o.tokens[0]), use_one);
        // Argument tokens keep their own place in the user's code.
        assert_eq!(&*o.tokens[1].text, "y");
        assert_eq!(at(&o.tokens[1]), use_y);
        // Nested expansions report the outermost use.
        let src = "#define A B\n#define B 7\nA";
        let o = run(src);
        assert_eq!(at(&o.tokens[0]), src.len() - 1);
    }

    #[test]
    fn redefinition() {
        let o = run("#define X 1\n#define X 1\n#define X  1 \n#define Y(a) a\n#define Y(a) a\nX");
        assert_eq!(o.log, "");
        let o = run("#define X 1\n#define X 2\nX");
        assert_eq!(
            o.log,
            "<source>:2:9: warning: 'X' macro redefined\n#define X 2\n        ^\n\
             <source>:1:9: note: previous definition is here\n#define X 1\n        ^\n\
             1 warning generated.\n"
        );
        assert_eq!(norm(&o.text), "2");
        assert!(run("#define F(a) a\n#define F(b) b\n")
            .log
            .contains("macro redefined"));
        assert!(run("#define F(a) a+a\n#define F(a) a + a\n")
            .log
            .contains("macro redefined"));
        assert!(run("#define __LINE__ 3\n")
            .log
            .contains("redefining builtin macro"));
    }

    #[test]
    fn define_errors() {
        let cases = [
            ("#define\n", "macro name missing"),
            ("#define 3 x\n", "macro name must be an identifier"),
            (
                "#define defined\n",
                "'defined' cannot be used as a macro name",
            ),
            ("#define F(a,a) a\n", "duplicate macro parameter name 'a'"),
            (
                "#define F(a b) a\n",
                "expected comma in macro parameter list",
            ),
            ("#define F(a,\n", "missing ')' in macro parameter list"),
            ("#define F(1) a\n", "invalid token in macro parameter list"),
            (
                "#define F(...,a) a\n",
                "missing ')' in macro parameter list",
            ),
            (
                "#define F(a) #b\n",
                "'#' is not followed by a macro parameter",
            ),
            (
                "#define F(a) ## a\n",
                "'##' cannot appear at either end of a macro expansion",
            ),
            (
                "#define F a ##\n",
                "'##' cannot appear at either end of a macro expansion",
            ),
            ("#undef\n", "macro name missing"),
        ];
        for (src, message) in cases {
            assert_eq!(errors(&run(src)), [message], "{src:?}");
        }
        // A rejected definition defines nothing.
        expands_to_with_errors("#define F(a,a) a\nF(1)", "F(1)");
        // `#` in an object-like macro is just a token.
        expands_to("#define H # x\nH", "# x");
    }

    #[track_caller]
    fn expands_to_with_errors(src: &str, expected: &str) {
        let o = run(src);
        assert!(o.diags.has_errors());
        assert_eq!(norm(&o.text), norm(expected));
    }

    #[test]
    fn argument_count_errors() {
        let o = run("#define F(a, b) a b\n#define G() 1\nF(1) F(1,2,3) G(1) G(,) F(1,2)");
        assert_eq!(
            errors(&o),
            [
                "too few arguments provided to function-like macro invocation",
                "too many arguments provided to function-like macro invocation",
                "too many arguments provided to function-like macro invocation",
                "too many arguments provided to function-like macro invocation",
            ]
        );
        assert!(o.log.contains("note: macro 'F' defined here"));
        assert_eq!(norm(&o.text), "1 2");
        // The variadic argument may be left out entirely.
        expands_to("#define V(a, ...) a __VA_ARGS__\nV(1)", "1");
    }

    #[test]
    fn unterminated_invocation() {
        let o = run("#define F(x) x\nF(1, \n2");
        assert!(
            o.log
                .contains("<source>:2:1: error: unterminated function-like macro invocation"),
            "{}",
            o.log
        );
        // Arguments do not run past the end of an included file.
        let headers = [("h.h", "#define F(x) x\nF(1\n")];
        let o = run_with(
            "#include \"h.h\"\n)",
            &BuildOptions::default(),
            &DeviceCaps::full(),
            &headers,
        );
        assert_eq!(errors(&o), ["unterminated function-like macro invocation"]);
        assert!(o.log.starts_with("h.h:2:1:"), "{}", o.log);
    }

    #[test]
    fn directives_inside_macro_arguments() {
        expands_to(
            "#define F(x) [x]\nF(a\n#define B 2\n#if 1\nB\n#else\nc\n#endif\n)",
            "[a 2]",
        );
        let o = run("#define F(x) x\nF(\n#include \"x.h\"\n)");
        assert_eq!(
            errors(&o),
            ["#include directive within macro arguments is not supported"]
        );
    }

    fn cond(expr: &str) -> (bool, Out) {
        let o = run(&format!("#if {expr}\nyes\n#else\nno\n#endif\n"));
        let v = match o.text.trim() {
            "yes" => true,
            "no" => false,
            other => panic!("#if {expr}: {other:?}"),
        };
        (v, o)
    }

    #[track_caller]
    fn is_true(expr: &str) {
        let (v, o) = cond(expr);
        assert_eq!(o.log, "", "#if {expr}");
        assert!(v, "#if {expr} should be true");
    }

    #[track_caller]
    fn is_false(expr: &str) {
        let (v, o) = cond(expr);
        assert_eq!(o.log, "", "#if {expr}");
        assert!(!v, "#if {expr} should be false");
    }

    #[test]
    fn if_arithmetic() {
        is_true("1");
        is_false("0");
        is_true("1 + 2 * 3 == 7");
        is_true("(1 + 2) * 3 == 9");
        is_true("10 % 3 == 1 && -7 / 2 == -3 && -7 % 2 == -1");
        is_true("1 << 4 == 16 && 256 >> 4 == 16 && -16 >> 2 == -4");
        is_true("(1 << 63) < 0");
        is_true("-9223372036854775807 - 1 < 0");
        is_true("0x7fffffffffffffff > 0 && 0x10 == 16 && 017 == 15 && 0b101 == 5");
        is_true("~0 == -1 && !0 == 1 && !5 == 0 && -(-3) == +3");
        is_true("(5 & 3) == 1 && (5 | 3) == 7 && (5 ^ 3) == 6");
        is_true("1 < 2 && 2 <= 2 && 3 > 2 && 3 >= 3 && 1 != 2");
        is_true("(1, 2) == 2");
        is_true("0 ? 1 : 0 ? 2 : 3");
        is_true("(1 ? 2 : 3) == 2 && (0 ? 2 : 3) == 3");
        is_true("10L == 10 && 10ul == 10u && 3LL == 3");
        // Unknown identifiers, keywords and uninvoked function-like macros
        // are 0.
        is_false("UNKNOWN");
        is_true("UNKNOWN == 0 && int == 0");
    }

    #[test]
    fn if_unsigned_semantics() {
        is_true("-1 > 0u");
        is_false("-1 > 0");
        is_true("~0u == 18446744073709551615u");
        is_true("0u - 1 > 0");
        // `?:` takes the unsigned type of either branch.
        is_true("(1 ? -1 : 0u) > 0");
        is_true("-1 / 2u == 9223372036854775807");
        is_true("(-1u >> 63) == 1 && (-1 >> 63) == -1");
        is_true("18446744073709551615u == -1");
        // Too big for intmax_t: unsigned, with clang's warning.
        let (v, o) = cond("18446744073709551615 == -1");
        assert!(v);
        assert!(
            o.log.contains("warning: integer literal is too large"),
            "{}",
            o.log
        );
        assert!(!o.diags.has_errors());
        let (_, o) = cond("9223372036854775807 + 1");
        assert!(o
            .log
            .contains("warning: integer overflow in preprocessor expression"));
    }

    #[test]
    fn if_char_constants() {
        is_true("'a' == 97 && '\\n' == 10 && '\\0' == 0 && '\\x41' == 65 && '\\101' == 65");
        is_true("'\\377' < 0 && '\\xff' == -1");
        is_true("L'\\xff' == 255 && u'x' == 120 && U'\\U0001F600' == 0x1F600");
        is_true("'ab' == 0x6162 && '\\'' == 39 && '\"' == 34");
        let (_, o) = cond("''");
        assert_eq!(errors(&o), ["empty character constant"]);
    }

    #[test]
    fn if_short_circuit_and_division_by_zero() {
        is_false("0 && 1 / 0");
        is_true("1 || 1 / 0");
        is_true("1 ? 2 : 1 / 0");
        is_true("0 ? 1 % 0 : 3");
        let (v, o) = cond("1 / 0");
        assert!(!v);
        assert_eq!(errors(&o), ["division by zero in preprocessor expression"]);
        assert!(o.log.starts_with("<source>:1:7: error:"), "{}", o.log);
        let (_, o) = cond("1 % (2 - 2)");
        assert_eq!(errors(&o), ["remainder by zero in preprocessor expression"]);
    }

    #[test]
    fn if_defined() {
        let src = "#define X\n#define F(a) a\n\
                   #if defined X && defined(F) && !defined Y && !defined ( Z )\nok\n#endif\n\
                   #define D defined(X)\n#if D\nok2\n#endif\n\
                   #if defined __FILE__ && defined __LINE__\nok3\n#endif";
        expands_to(src, "ok ok2 ok3");
        let o = run("#if defined\n#endif\n#if defined(X\n#endif\n#if defined 3\n#endif\n");
        assert_eq!(
            errors(&o),
            [
                "macro name missing",
                "missing ')' after 'defined'",
                "macro name must be an identifier"
            ]
        );
    }

    #[test]
    fn if_errors() {
        let cases = [
            ("", "#if with no expression"),
            ("1 +", "expected value in expression"),
            ("(1", "expected ')' in preprocessor expression"),
            ("1.0", "floating point literal in preprocessor expression"),
            (
                "\"s\"",
                "invalid token at start of a preprocessor expression",
            ),
            ("08", "invalid digit '8' in octal constant"),
            (
                "1 2",
                "token is not a valid binary operator in a preprocessor subexpression",
            ),
            ("1 ? 2", "expected ':' in preprocessor expression"),
            ("1)", "unexpected ')' in preprocessor expression"),
            (
                "1 = 1",
                "token is not a valid binary operator in a preprocessor subexpression",
            ),
            ("1x", "invalid suffix 'x' on integer constant"),
            ("0x", "invalid suffix 'x' on integer constant"),
            (
                "99999999999999999999",
                "integer literal is too large to be represented in any integer type",
            ),
        ];
        for (expr, message) in cases {
            let (v, o) = cond(expr);
            assert!(!v, "#if {expr}");
            assert_eq!(errors(&o), [message], "#if {expr}");
        }
        let o = run("#define E\n#if E\n#endif\n");
        assert_eq!(errors(&o), ["expected value in expression"]);
    }

    #[test]
    fn conditionals() {
        expands_to(
            "#define A 2\n#if A == 1\none\n#elif A == 2\ntwo\n#elif A == 2\nagain\n#else\nother\n#endif",
            "two",
        );
        expands_to(
            "#ifdef A\na\n#else\nnot_a\n#endif\n#ifndef A\nyes\n#endif",
            "not_a yes",
        );
        expands_to("#if 0\n#if 1\nx\n#else\ny\n#endif\n#elif 1\nz\n#endif", "z");
        // Skipped groups: no expansion, bad directives and lexer errors
        // ignored, only nesting tracked.
        expands_to(
            "#if 0\n#bogus\n#define X 1 ##\n#include <nope>\n'unterminated\n@ $\n#if garbage (\n#endif\n#else\nkept\n#endif",
            "kept",
        );
        // `#elif` after a taken group is not evaluated.
        expands_to("#if 1\na\n#elif 1/0\nb\n#endif", "a");
        expands_to("#if 0\n#elif 1\nb\n#else\nc\n#endif", "b");
    }

    #[test]
    fn conditional_errors() {
        let o = run("#else\n#endif\n#elif 1\n#if 1\n#else\n#else\n#endif\n#if 0\n#else\n#elif 1\n#endif\n#if 1\n#ifdef X\n");
        assert_eq!(
            errors(&o),
            [
                "#else without #if",
                "#endif without #if",
                "#elif without #if",
                "#else after #else",
                "#elif after #else",
                "unterminated conditional directive",
                "unterminated conditional directive",
            ]
        );
        assert!(o
            .log
            .contains("<source>:13:2: error: unterminated conditional directive"));
        assert!(o
            .log
            .contains("<source>:12:2: error: unterminated conditional directive"));
        let o = run("#ifdef\n#endif\n#ifdef 3\n#endif\n#ifdef X junk\n#endif junk\n");
        assert_eq!(
            errors(&o),
            ["macro name missing", "macro name must be an identifier"]
        );
        assert!(o
            .log
            .contains("warning: extra tokens at end of #ifdef directive"));
        assert!(o
            .log
            .contains("warning: extra tokens at end of #endif directive"));
    }

    #[test]
    fn line_directive() {
        let src = "a\n#line 100 \"foo.cl\"\nint x = __LINE__;\nconst char *f = __FILE__;\n#error here\n\
                   #line 7\n#warning there\n__LINE__ __FILE__\n# 40 \"gnu.cl\" 2\n__LINE__ __FILE__";
        let o = run(src);
        assert_eq!(
            norm(&o.text),
            norm(r#"a int x = 100; const char *f = "foo.cl"; 8 "foo.cl" 40 "gnu.cl""#)
        );
        assert_eq!(
            o.log,
            "foo.cl:102:2: error: here\n#error here\n ^\n\
             foo.cl:7:2: warning: there\n#warning there\n ^\n\
             1 warning and 1 error generated.\n"
        );
        // A macro-expanded #line, and errors.
        expands_to(
            "#define L 5 \"m.cl\"\n#line L\n__LINE__ __FILE__",
            "5 \"m.cl\"",
        );
        let o = run("#line x\n#line 1 x\n#line 99999999999\n#line 3 \"a\" b\n");
        assert_eq!(
            errors(&o),
            [
                "#line directive requires a simple digit sequence",
                "invalid filename for #line directive",
                "line number out of range",
            ]
        );
        assert!(o
            .log
            .contains("warning: extra tokens at end of #line directive"));
    }

    #[test]
    fn error_and_warning_directives() {
        let o = run("#warning don't   do  this\n#error\n");
        assert_eq!(errors(&o), ["#error"]);
        // The message is the line's text; the apostrophe is no error here.
        assert!(
            o.log.contains("<source>:1:2: warning: don't   do  this"),
            "{}",
            o.log
        );
    }

    #[test]
    fn include_embedded_headers() {
        let headers = [
            ("a.h", "#pragma once\nint a;\n"),
            (
                "b.h",
                "#ifndef B_H\n#define B_H\nint b;\n#include \"a.h\"\n#endif\n",
            ),
            ("c.h", "int c = __LINE__; const char *n = __FILE__;\n"),
        ];
        let src = "#include \"a.h\"\n#include <b.h>\n#include \"b.h\"\n#include \"a.h\"\n\
                   #define HDR <c.h>\n#include HDR\n#define Q \"c.h\"\n#include Q\nend";
        let o = run_with(src, &BuildOptions::default(), &DeviceCaps::full(), &headers);
        assert_eq!(o.log, "");
        assert_eq!(
            norm(&o.text),
            norm(
                r#"int a; int b; int c = 1; const char *n = "c.h"; int c = 1; const char *n = "c.h"; end"#
            )
        );
        let o = run_with(
            "x\n  #include \"missing.h\"\ny\n#include\n#include foo\n",
            &BuildOptions::default(),
            &DeviceCaps::full(),
            &headers,
        );
        assert_eq!(
            errors(&o),
            [
                "'missing.h' file not found",
                "expected \"FILENAME\" or <FILENAME>",
                "expected \"FILENAME\" or <FILENAME>",
            ]
        );
        assert!(
            o.log
                .starts_with("<source>:2:12: error: 'missing.h' file not found"),
            "{}",
            o.log
        );
        assert_eq!(norm(&o.text), "x y");
    }

    #[test]
    fn include_depth_is_limited() {
        let headers = [("self.h", "#include \"self.h\"\nx\n")];
        let o = run_with(
            "#include \"self.h\"\n",
            &BuildOptions::default(),
            &DeviceCaps::full(),
            &headers,
        );
        assert_eq!(errors(&o), ["#include nested too deeply"]);
        assert_eq!(o.text.split_whitespace().count(), MAX_INCLUDE_DEPTH);
    }

    #[test]
    fn include_from_directories() {
        let root = std::env::temp_dir().join(format!("clvulkan-pp-{}", std::process::id()));
        let inc = root.join("inc");
        let sub = inc.join("sub");
        std::fs::create_dir_all(&sub).expect("temp dir");
        std::fs::write(inc.join("top.h"), "int top;\n#include \"sub/inner.h\"\n").expect("write");
        std::fs::write(sub.join("inner.h"), "int inner;\n#include \"sibling.h\"\n").expect("write");
        std::fs::write(sub.join("sibling.h"), "#pragma once\nint sibling;\n").expect("write");
        std::fs::write(root.join("other.h"), "int other;\n").expect("write");
        std::fs::write(inc.join("bad.h"), "#error from disk\n").expect("write");
        let options = BuildOptions {
            include_dirs: vec![inc.clone(), root.clone()],
            ..BuildOptions::default()
        };
        let headers = [("top.h", "int embedded_wins;\n")];
        let o = run_with(
            "#include <top.h>\n#include \"sub/inner.h\"\n#include <other.h>\n#include \"bad.h\"\n",
            &options,
            &DeviceCaps::full(),
            &[],
        );
        assert_eq!(errors(&o), ["from disk"]);
        let bad = inc.join("bad.h").display().to_string();
        assert!(
            o.log.starts_with(&format!("{bad}:1:2: error: from disk")),
            "{}",
            o.log
        );
        assert_eq!(
            norm(&o.text),
            "int top ; int inner ; int sibling ; int inner ; int other ;"
        );
        // Embedded headers are searched first.
        let o = run_with(
            "#include <top.h>\n",
            &options,
            &DeviceCaps::full(),
            &headers,
        );
        assert_eq!(norm(&o.text), "int embedded_wins ;");
        let _ = std::fs::remove_dir_all(&root);
    }

    fn pragmas(o: &Out) -> Vec<String> {
        o.tokens
            .iter()
            .filter(|t| t.kind == TokenKind::Pragma)
            .map(|t| t.text.to_string())
            .collect()
    }

    #[test]
    fn pragma_tokens() {
        let src = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n\
                   #pragma   OPENCL  FP_CONTRACT   ON\n\
                   #define N 4\n#pragma unroll N\n#pragma unroll\n#pragma nounroll\n\
                   #pragma STDC FENV_ACCESS ON\n#pragma weird stuff\n#pragma\n#pragma OPENCL SELECT_ROUNDING_MODE rte\n\
                   _Pragma(\"OPENCL EXTENSION all : disable\")\n\
                   #define LOOP _Pragma(\"unroll 2\") for\nLOOP (;;);\n";
        let o = run(src);
        assert_eq!(o.log, "");
        assert_eq!(
            pragmas(&o),
            [
                "OPENCL EXTENSION cl_khr_fp64 : enable",
                "OPENCL FP_CONTRACT ON",
                "unroll 4",
                "unroll",
                "nounroll",
                "OPENCL EXTENSION all : disable",
                "unroll 2",
            ]
        );
        assert_eq!(o.tokens.len(), 7 + 6 + 1);
        assert_eq!(o.tokens[0].location.offset, 0);
        let text = o.text;
        assert!(
            text.starts_with("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"),
            "{text}"
        );
        assert!(text.ends_with("#pragma unroll 2\nfor (;;);"), "{text}");
        let o = run("_Pragma(1)\n_Pragma\n");
        assert_eq!(
            errors(&o),
            [
                "_Pragma takes a parenthesized string literal",
                "_Pragma takes a parenthesized string literal"
            ]
        );
    }

    #[test]
    fn predefined_macros() {
        let probe = "__OPENCL_VERSION__ __OPENCL_C_VERSION__ CL_VERSION_1_0 CL_VERSION_1_1 \
                     CL_VERSION_1_2 CL_VERSION_2_0 CL_VERSION_3_0 __ENDIAN_LITTLE__ __STDC__ \
                     __STDC_HOSTED__ __IMAGE_SUPPORT__ __FAST_RELAXED_MATH__ FP_FAST_FMA \
                     FP_FAST_FMAF __opencl_c_int64 __opencl_c_images cl_khr_fp64 \
                     cl_khr_byte_addressable_store __EMBEDDED_PROFILE__";
        let o = run(probe);
        assert_eq!(o.log, "");
        assert_eq!(
            o.text,
            "300 120 100 110 120 200 300 1 1 0 __IMAGE_SUPPORT__ __FAST_RELAXED_MATH__ \
             FP_FAST_FMA FP_FAST_FMAF __opencl_c_int64 __opencl_c_images 1 1 \
             __EMBEDDED_PROFILE__"
        );
        // Feature macros only for OpenCL C 3.0.
        let caps = DeviceCaps {
            image_support: true,
            float64: true,
            int64: false,
            ..DeviceCaps::full()
        };
        let o3 = BuildOptions::parse("-cl-std=CL3.0 -cl-fast-relaxed-math").expect("options");
        let o = run_with(probe, &o3, &caps, &[]);
        assert_eq!(
            o.text,
            "300 300 100 110 120 200 300 1 1 0 1 1 FP_FAST_FMA FP_FAST_FMAF \
             __opencl_c_int64 1 1 1 1"
        );
        let o2 = BuildOptions::parse("-cl-std=CL2.0").expect("options");
        let o = run_with(
            "__OPENCL_C_VERSION__ __opencl_c_fp64 cl_khr_fp64",
            &o2,
            &caps,
            &[],
        );
        assert_eq!(o.text, "200 __opencl_c_fp64 1");
        // cl_ext_float_atomics: the extension everywhere, its features in
        // OpenCL C 3.0 only.
        let probe = "cl_ext_float_atomics __opencl_c_ext_fp32_global_atomic_add \
                     __opencl_c_ext_fp64_local_atomic_min_max \
                     __opencl_c_ext_fp16_global_atomic_add";
        let o = run_with(probe, &o2, &caps, &[]);
        assert_eq!(
            o.text,
            "1 __opencl_c_ext_fp32_global_atomic_add __opencl_c_ext_fp64_local_atomic_min_max \
             __opencl_c_ext_fp16_global_atomic_add"
        );
        let o = run_with(probe, &o3, &caps, &[]);
        assert_eq!(o.text, "1 1 1 __opencl_c_ext_fp16_global_atomic_add");
        expands_to(
            "__kernel_exec(64, float4) void k() {}",
            "__kernel __attribute__((work_group_size_hint(64, 1, 1))) \
             __attribute__((vec_type_hint(float4))) void k() {}",
        );
        expands_to("kernel_exec(8, int) void k() {}", "__kernel __attribute__((work_group_size_hint(8, 1, 1))) __attribute__((vec_type_hint(int))) void k() {}");
    }

    #[test]
    fn dynamic_macros() {
        let o = run("__LINE__\n\n__LINE__ __FILE__ __COUNTER__ __COUNTER__\n__DATE__ __TIME__");
        let t: Vec<&str> = o.tokens.iter().map(|t| &*t.text).collect();
        assert_eq!(&t[..5], ["1", "3", "\"<source>\"", "0", "1"]);
        assert_eq!(t[5].len(), 13, "{}", t[5]);
        assert_eq!(t[6].len(), 10, "{}", t[6]);
        assert_eq!(o.tokens[6].kind, TokenKind::StringLiteral);
        // `__LINE__` in a macro body is the line of the use.
        expands_to("#define L __LINE__\n\nL", "3");
    }

    #[test]
    fn command_line_macros_in_order() {
        let o = run_opts(
            "X Y Z F(3) __OPENCL_VERSION__ W",
            "-DX=2 -DY -UX -D'F(a)=a*2' -DZ= -U__OPENCL_VERSION__ -DW='\"s t\"'",
        );
        assert_eq!(o.log, "");
        assert_eq!(norm(&o.text), norm("X 1 3*2 __OPENCL_VERSION__ \"s t\""));
        // Redefining a predefined macro warns, like clang.
        let o = run_opts("CL_VERSION_1_0", "-DCL_VERSION_1_0=7");
        assert_eq!(o.text, "7");
        assert!(
            o.log
                .contains("<command line>:1:9: warning: 'CL_VERSION_1_0' macro redefined"),
            "{}",
            o.log
        );
        let o = run_opts("", "-D'F(=1'");
        assert_eq!(errors(&o), ["invalid token in macro parameter list"]);
    }

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
    fn tokens_to_string_keeps_tokens_apart() {
        let o = run("#define P +\n#define E\nP+ -E- a/E/b x P\n#define CAT(a,b) a b\nCAT(1,x)");
        assert_eq!(o.text, "+ + - - a/ /b x + 1 x");
        assert_eq!(norm(&o.text).split(' ').count(), o.tokens.len() - 1);
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
    fn cached_predefines_do_not_leak_between_builds() {
        let prelude = PreludeCache::default();
        let run = |src: &str, options: &str| {
            let options = BuildOptions::parse(options).expect("options");
            run_in(&prelude, src, &options, &DeviceCaps::full(), &[])
        };
        let expands_to = |src: &str, expected: &str| {
            let o = run(src, "");
            assert_eq!(o.log, "", "unexpected diagnostics for {src:?}");
            assert_eq!(norm(&o.text), norm(expected), "source: {src:?}");
        };
        // The second of each pair reuses the first's cached macro table.
        for _ in 0..2 {
            expands_to("__OPENCL_VERSION__ CL_VERSION_1_2", "300 120");
        }
        let cached = prelude.0.lock().expect("cache").clone();
        assert!(cached.is_some(), "the first build fills the cache");
        // `#undef` and `-D` change this build's copy only.
        let o = run("#undef __OPENCL_VERSION__\n__OPENCL_VERSION__", "");
        assert_eq!(norm(&o.text), "__OPENCL_VERSION__");
        let o = run("__ENDIAN_LITTLE__", "-D __ENDIAN_LITTLE__=7 -w");
        assert_eq!(norm(&o.text), "7");
        expands_to("__OPENCL_VERSION__ __ENDIAN_LITTLE__", "300 1");
        let now = prelude.0.lock().expect("cache").clone();
        assert!(
            cached.zip(now).is_some_and(|(a, b)| Arc::ptr_eq(&a, &b)),
            "builds with the same predefines keep the table"
        );
        // Other options, other predefines, in alternation.
        for _ in 0..2 {
            let o = run("__OPENCL_C_VERSION__", "-cl-std=CL3.0");
            assert_eq!(norm(&o.text), "300");
            let o = run("__OPENCL_C_VERSION__", "-cl-std=CL2.0");
            assert_eq!(norm(&o.text), "200");
        }
        // A build that stopped in the middle of an expansion leaves no
        // predefined macro disabled for the next.
        let o = run("#define F(x) __OPENCL_VERSION__ x\nF(", "");
        assert!(!errors(&o).is_empty());
        expands_to("__OPENCL_VERSION__", "300");
        // The notes of redefinitions still point into `<built-in>`.
        let o = run("#define __ENDIAN_LITTLE__ 2\n", "");
        assert!(o.log.contains("<built-in>:"), "{}", o.log);
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
