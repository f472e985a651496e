//! Macro expansion: the stack of contexts that replacements are read from,
//! which macros are disabled and which names are painted blue, reading a
//! function-like macro's arguments, and expanding a token list on its own
//! (arguments, and the lines of `#if`, `#include` and `#line`).

use std::sync::Arc;

use super::macros::{Macro, MacroKind};
use super::{FileState, Mode, PpTok, Preprocessor};
use crate::diagnostic::Location;
use crate::lexer;
use crate::token::{Punct, TokenKind};

/// Deepest nesting of macro invocations inside macro arguments; each level
/// is a recursion of the expander, so this bounds the native stack.
const MAX_ARG_NESTING: u32 = 200;

/// Live expansion contexts. Each macro can be live once, so this only
/// guards against absurd chains of distinct macros.
const MAX_CONTEXTS: usize = 10_000;

/// Painted blue: named a disabled macro when read, so never expands.
const BLUE: u8 = 4;

/// A C99 placemarker (an empty `##` operand); never leaves `substitute`.
pub(super) const PLACEMARKER: u8 = 8;

impl PpTok {
    fn is_blue(&self) -> bool {
        self.flags & BLUE != 0
    }

    /// This token of a replacement list, placed at the invocation `site`.
    #[inline]
    pub(super) fn at(&self, site: PpTok) -> PpTok {
        PpTok {
            location: site.location,
            len: site.len,
            ..*self
        }
    }

    /// This macro name, standing for its invocation through `rparen`.
    fn through(&self, rparen: &PpTok) -> PpTok {
        let mut site = *self;
        if rparen.location.file == self.location.file {
            let end = rparen.end().max(self.end());
            site.len = lexer::token_len((end - self.location.offset) as usize);
        }
        site
    }

    pub(super) fn is_placemarker(&self) -> bool {
        self.flags & PLACEMARKER != 0
    }
}

pub(super) struct Context {
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
pub(super) struct Args {
    pub(super) toks: Vec<PpTok>,
    /// `toks[ends[k - 1]..ends[k]]` is argument `k`.
    ends: Vec<usize>,
    /// The variadic argument was left out entirely (not just empty), which
    /// is when GNU `, ## __VA_ARGS__` drops the comma.
    pub(super) va_omitted: bool,
}

impl Args {
    pub(super) fn len(&self) -> usize {
        self.ends.len()
    }

    pub(super) fn get(&self, k: usize) -> Option<&[PpTok]> {
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
    /// The `)` that closed the list, once read.
    rparen: Option<PpTok>,
}

impl ArgReader {
    /// Adds `t` to `args`; true when it is the `)` closing the list.
    #[inline(always)]
    fn take(&mut self, mut t: PpTok, args: &mut Args, disabled: &[bool]) -> bool {
        match t.kind {
            TokenKind::Punct(Punct::LParen) => self.depth += 1,
            TokenKind::Punct(Punct::RParen) => {
                if self.depth == 0 {
                    self.rparen = Some(t);
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

impl Preprocessor<'_> {
    fn recycle_args(&mut self, mut args: Args) {
        if self.args_pool.len() < 64 && args.toks.capacity() <= 4096 {
            args.toks.clear();
            args.ends.clear();
            args.va_omitted = false;
            self.args_pool.push(args);
        }
    }

    /// Moves the innermost context's tokens up to the next one that could
    /// start an expansion (a macro name or `_Pragma`) straight to `out`:
    /// most of a replacement list is such tokens. The context reads from
    /// its end, so that run is its tail, copied in one piece.
    pub(super) fn copy_context_run(&mut self, out: &mut Vec<PpTok>) {
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

    /// The next token with no macro expansion: from the innermost live
    /// context, else from the current file (running directives on the way).
    /// `None` at a barrier, or at the end of input (`Mode::Top`) or of the
    /// current file (`Mode::Args`).
    #[inline]
    pub(super) fn next_unexpanded(&mut self, mode: Mode) -> Option<PpTok> {
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
    pub(super) fn next_expanded(&mut self, mode: Mode) -> Option<PpTok> {
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
                    if let Some((args, rparen)) = self.collect_args(&m, &t) {
                        let body = self.substitute(&m, &args, &t.through(&rparen));
                        self.recycle_args(args);
                        self.push_macro_context(m.name, body, t.location);
                    }
                }
            }
        }
    }

    /// Reads a function-like macro's arguments after its `(`, unexpanded,
    /// and the `)` that closes them. `None` (reported) when the list is
    /// unterminated or the count is wrong.
    fn collect_args(&mut self, m: &Macro, name: &PpTok) -> Option<(Args, PpTok)> {
        let (nparams, variadic) = m.params();
        let mut args = self.args_pool.pop().unwrap_or_default();
        let mut reader = ArgReader {
            depth: 0,
            // The commas from here on belong to the variadic argument.
            last_split: if variadic { nparams - 1 } else { usize::MAX },
            paint: self.live_macros > 0,
            rparen: None,
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
        let rparen = reader.rparen.unwrap_or(*name);
        args.ends.push(args.toks.len());
        if nparams == 0 {
            if args.len() == 1 && args.toks.is_empty() {
                return Some((Args::default(), rparen));
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
        Some((args, rparen))
    }

    /// Whether expanding `toks` on their own could change them.
    pub(super) fn needs_expansion(&self, toks: &[PpTok]) -> bool {
        toks.iter().any(|t| {
            t.kind == TokenKind::Identifier && !t.is_blue() && self.macro_of(t.sym).is_some()
        })
    }

    /// Fully expands `toks` as if they were the rest of the input (macro
    /// arguments, `#include`/`#line`/`#if` lines). In `if_mode`, `defined`
    /// is evaluated; `None` when that went wrong (reported).
    pub(super) fn expand_tokens(&mut self, toks: Vec<PpTok>, if_mode: bool) -> Option<Vec<PpTok>> {
        if !if_mode && !self.needs_expansion(&toks) {
            return Some(toks);
        }
        self.expand_isolated(toks, if_mode)
    }

    /// [`Self::expand_tokens`] without the check for work to do.
    pub(super) fn expand_isolated(
        &mut self,
        mut toks: Vec<PpTok>,
        if_mode: bool,
    ) -> Option<Vec<PpTok>> {
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
}

#[cfg(test)]
mod tests {
    use super::PpTok;
    use crate::caps::DeviceCaps;
    use crate::diagnostic::{Diagnostics, SourceMap};
    use crate::options::BuildOptions;
    use crate::preprocess::testing::{errors, expands_to, norm, run, run_with};
    use crate::preprocess::{preprocess_compact, PreludeCache, PreprocessInput};
    use crate::token::Token;

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
    fn expanded_tokens_stand_for_the_whole_invocation() {
        let src = "#define ONE 1\n#define P(x) (x + ONE)\n#define Q P\nONE P( a ) Q(b)";
        let mut sources = SourceMap::default();
        let main = sources.add("<source>", src);
        let input = PreprocessInput {
            options: &BuildOptions::default(),
            caps: &DeviceCaps::full(),
            embedded_headers: &[],
            prelude: &PreludeCache::default(),
        };
        let mut diags = Diagnostics::default();
        let (tokens, interner) = preprocess_compact(&mut sources, main, &input, &mut diags);
        let text = |t: &PpTok| &src[t.location.offset as usize..t.end() as usize];
        let got: Vec<_> = tokens[..tokens.len() - 1]
            .iter()
            .map(|t| (interner.get(t.sym), text(t)))
            .collect();
        let (p, q) = ("P( a )", "Q(b)");
        assert_eq!(
            got,
            [
                ("1", "ONE"),
                ("(", p),
                ("a", "a"),
                ("+", p),
                ("1", p),
                (")", p),
                ("(", q),
                ("b", "b"),
                ("+", q),
                ("1", q),
                (")", q),
            ]
        );
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
}
