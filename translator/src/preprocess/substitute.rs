//! Substitution: a macro's replacement list for one invocation, with its
//! arguments pre-expanded and put in place, `#` (stringizing) and `##`
//! (pasting) applied.

use super::expand::{Args, PLACEMARKER};
use super::macros::{Macro, MacroKind, Piece, NOT_PARAM};
use super::{PpTok, Preprocessor};
use crate::diagnostic::FileId;
use crate::lexer::{self, SPACE};
use crate::token::{Punct, TokenKind};

/// Tokens all expansions may produce together (intermediate ones count).
/// `#define` chains can double the output per line, and a build must fail
/// instead of eating all memory; real kernels stay far below a million.
const MAX_EXPANDED_TOKENS: usize = 1 << 20;

/// What `substitute` knows about an argument's pre-expansion.
#[derive(Clone)]
pub(super) enum PreExpanded {
    Unknown,
    /// Expansion would not change it: use the argument as it is.
    Same,
    Done(Vec<PpTok>),
}

impl Preprocessor<'_> {
    /// The replacement list of `m` for one invocation, arguments substituted
    /// and `#`/`##` applied, ready to be rescanned: last token first, the
    /// order a context reads in.
    /// `name` stands for the whole invocation (see [`CompactToken::len`]),
    /// and so does every token the replacement list itself supplies.
    ///
    /// [`CompactToken::len`]: crate::lexer::CompactToken::len
    pub(super) fn substitute(&mut self, m: &Macro, args: &Args, name: &PpTok) -> Vec<PpTok> {
        // By value: the loops below then keep it in registers.
        let site = *name;
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
                        out.extend(run.iter().rev().map(|t| t.at(site)));
                    }
                    Piece::Param { param, at } => {
                        let t = &m.body[at as usize];
                        let Some(arg) = args.get(param as usize) else {
                            out.push(t.at(site));
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
                out.push(t.at(site));
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
            self.halt(site.location, "macro expansion produced too many tokens");
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

    fn placemarker(&self, site: PpTok) -> PpTok {
        PpTok {
            sym: self.names.empty,
            kind: TokenKind::Identifier,
            flags: PLACEMARKER,
            ..site
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
        site: PpTok,
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
            (vec![rt.at(site)], j + 1)
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
    fn paste(&mut self, lhs: PpTok, rhs: PpTok, site: PpTok, out: &mut Vec<PpTok>) {
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
        let file = FileId(site.location.file);
        let (toks, errors) = lexer::lex_compact(&text, file, &mut self.interner);
        if let ([t], true) = (toks.as_slice(), errors.is_empty()) {
            out.push(PpTok {
                sym: t.sym,
                kind: t.kind,
                flags: lhs.flags & SPACE,
                ..site
            });
            return;
        }
        self.diags.error(
            site.location,
            format!("pasting formed '{text}', an invalid preprocessing token"),
        );
        out.push(lhs);
        out.push(rhs);
    }

    /// `# param`: the argument's spelling as a string literal.
    fn stringize(&mut self, arg: &[PpTok], site: PpTok, leading_space: bool) -> PpTok {
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
            sym: self.interner.sym(&s),
            kind: TokenKind::StringLiteral,
            flags: u8::from(leading_space),
            ..site
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::caps::DeviceCaps;
    use crate::options::BuildOptions;
    use crate::preprocess::testing::{errors, expands_to, norm, run, run_with};

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
}
