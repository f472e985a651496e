//! Conditional inclusion: `#if`, `#ifdef`, `#ifndef`, `#elif`, `#else` and
//! `#endif`, skipping the groups not taken (where only conditional
//! directives are looked at), and the `defined` operator.

use super::if_expr;
use super::{Mode, PpTok, Preprocessor};
use crate::diagnostic::Location;
use crate::lexer::SPACE;
use crate::token::{Punct, TokenKind};

pub(super) struct Cond {
    /// The directive name of the opening `#if` (where clang reports an
    /// unterminated conditional).
    pub(super) location: Location,
    /// Some group of this conditional has been taken.
    taken: bool,
    seen_else: bool,
}

impl Preprocessor<'_> {
    pub(super) fn if_directive(&mut self, name: &PpTok) {
        let taken = self.eval_condition(name);
        self.enter_conditional(name.location, taken);
    }

    /// `#ifdef` or `#ifndef`, as `word` says.
    pub(super) fn ifdef_directive(&mut self, name: &PpTok, word: &str) {
        let taken = match self.next_line_token() {
            None => {
                self.diags.error(name.location, "macro name missing");
                false
            }
            Some(t) if t.kind == TokenKind::Identifier => {
                self.extra_tokens(word);
                self.macro_of(t.sym).is_some() == (word == "ifdef")
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

    /// `#elif` read in a taken group: the rest of the conditional is
    /// skipped.
    pub(super) fn elif_directive(&mut self, name: &PpTok) {
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

    /// `#else` read in a taken group: its own group is skipped.
    pub(super) fn else_directive(&mut self, name: &PpTok) {
        match self.current_cond() {
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
        }
    }

    pub(super) fn endif_directive(&mut self, name: &PpTok) {
        if self.files.last_mut().and_then(|f| f.conds.pop()).is_none() {
            self.diags.error(name.location, "#endif without #if");
        }
        self.extra_tokens("endif");
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
                self.interner.get(name.sym)
            } else {
                ""
            };
            match word {
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
        let cxx = self.options.cxx.is_some();
        if_expr::evaluate(&toks, last, self.diags, &self.interner, cxx).unwrap_or(false)
    }

    /// `defined X` / `defined ( X )` in an `#if` line.
    pub(super) fn defined_operator(&mut self, at: &PpTok) -> Option<PpTok> {
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
            len: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::preprocess::testing::{errors, expands_to, run};

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
}
