//! The directive lines: reading them, dispatching on the directive's name,
//! and running `#define`, `#undef`, `#line`, `#error`, `#warning` and the
//! pragmas (`#pragma` and `_Pragma`). Conditional inclusion and `#include`
//! have modules of their own.

use std::sync::Arc;

use super::macros::{pieces_of, Macro, MacroKind, NOT_PARAM};
use super::{Mode, PpTok, Preprocessor};
use crate::diagnostic::{FileId, LineDirective, Location};
use crate::lexer::{self, CompactToken, SPACE};
use crate::token::{Punct, TokenKind};

/// Extensions clang accepts in `#pragma OPENCL EXTENSION` that no device
/// of ours reports (image, vendor and sub-group extensions): naming one
/// is not an error of the kernel, only something this device ignores.
const PRAGMA_EXTENSIONS_ELSEWHERE: &[&str] = &[
    "cl_khr_3d_image_writes",
    "cl_khr_depth_images",
    "cl_khr_gl_msaa_sharing",
    "cl_khr_mipmap_image",
    "cl_khr_mipmap_image_writes",
    "cl_khr_srgb_image_writes",
    "cl_khr_subgroups",
    "cl_amd_media_ops",
    "cl_amd_media_ops2",
    "cl_intel_subgroups",
    "cl_intel_subgroups_short",
    "cl_intel_device_side_avc_motion_estimation",
    "cl_arm_integer_dot_product_int8",
    "cl_arm_integer_dot_product_accumulate_int8",
    "cl_arm_integer_dot_product_accumulate_int16",
    "cl_arm_integer_dot_product_accumulate_saturate_int8",
    "cl_clang_storage_class_specifiers",
];

impl Preprocessor<'_> {
    /// The rest of the current line, as one copy of the file's tokens.
    pub(super) fn read_line(&mut self, report: bool) -> Vec<PpTok> {
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

    pub(super) fn skip_line(&mut self) {
        if let Some(f) = self.files.last_mut() {
            f.skip_line(true, self.diags);
        }
    }

    pub(super) fn next_line_token(&mut self) -> Option<PpTok> {
        let f = self.files.last_mut()?;
        f.next_in_line(true, self.diags)
    }

    pub(super) fn extra_tokens(&mut self, directive: &str) {
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
    pub(super) fn directive(&mut self, hash: PpTok, mode: Mode) -> Option<PpTok> {
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
        match word {
            "define" => {
                let line = self.read_line(true);
                self.define(&line, name.location);
            }
            "undef" => self.undef(&name),
            "include" => self.include_directive(&name, mode),
            "if" => self.if_directive(&name),
            "ifdef" => self.ifdef_directive(&name, "ifdef"),
            "ifndef" => self.ifdef_directive(&name, "ifndef"),
            "elif" => self.elif_directive(&name),
            "else" => self.else_directive(&name),
            "endif" => self.endif_directive(&name),
            "line" => self.line_directive(&name, None),
            "error" => self.message_directive(&name, "error"),
            "warning" => self.message_directive(&name, "warning"),
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

    /// `#error` or `#warning` (`word`): the rest of the line is the
    /// message.
    fn message_directive(&mut self, name: &PpTok, word: &str) {
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
        if word == "error" {
            self.diags.error(name.location, message);
        } else {
            self.diags.warning(name.location, message);
        }
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
            } else if !old.same_definition(&m)
                && !super::prelude::HEADER_MACROS.contains(&self.text(&name))
            {
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

    /// A pragma body (the tokens after `pragma`): `once` is honoured, the
    /// ones later stages need become a Pragma token, the rest vanish.
    fn pragma(&mut self, body: Vec<PpTok>, location: Location) -> Option<PpTok> {
        let first = body.first()?;
        if first.kind != TokenKind::Identifier {
            return None;
        }
        let word = self.text(first);
        let keep = match word {
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
            // A link's language markers (`crate::language`), which only
            // the translator writes.
            "clvulkan" => self.options.linking,
            _ => false,
        };
        if !keep {
            return None;
        }
        let is_opencl = word == "OPENCL";
        let verbatim = is_opencl || word == "clvulkan";
        if is_opencl && body.get(1).is_some_and(|t| self.is_ident(t, "EXTENSION")) {
            self.check_extension_pragma(&body);
        }
        let mut body = body.into_iter();
        let mut text = String::new();
        // `OPENCL EXTENSION cl_khr_fp64` must keep the extension's name,
        // which is itself a macro; an unroll count may be a macro.
        let toks: Vec<PpTok> = if verbatim {
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
            len: 0,
        })
    }

    /// `OPENCL EXTENSION name : behavior` names an extension this device
    /// supports, `all`, or one that another device could: otherwise clang's
    /// warnings, so `-Werror` rejects the kernel as clang does. An extension
    /// that needs no pragma (or does not exist) is unknown to clang too.
    fn check_extension_pragma(&mut self, body: &[PpTok]) {
        let (Some(name), Some(behavior)) = (body.get(2), body.get(4)) else {
            return;
        };
        if name.kind != TokenKind::Identifier || behavior.kind != TokenKind::Identifier {
            return;
        }
        let name_text = self.text(name).to_owned();
        let enable = self.text(behavior) == "enable";
        if name_text == "all" {
            if enable {
                self.diags
                    .warning(behavior.location, "expected 'disable' - ignoring");
            }
            return;
        }
        let caps = self.caps;
        if caps.extensions().contains(&name_text.as_str())
            || PRAGMA_EXTENSIONS_ELSEWHERE.contains(&name_text.as_str())
        {
            return;
        }
        let message = if crate::caps::DeviceCaps::full()
            .extensions()
            .contains(&name_text.as_str())
        {
            format!("unsupported OpenCL extension '{name_text}' - ignoring")
        } else {
            format!("OpenCL extension '{name_text}' unknown or does not require pragma - ignoring")
        };
        self.diags.warning(name.location, message);
    }

    /// C99 6.10.9 `_Pragma ( string-literal )`.
    pub(super) fn pragma_operator(&mut self, at: &PpTok, mode: Mode) -> Option<PpTok> {
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
        let text = unescape_string(string);
        let (toks, errors) = lexer::lex_compact(&text, FileId(location.file), &mut self.interner);
        for e in &errors {
            self.diags.push(e.severity(), Some(location), e.message());
        }
        let body = toks.into_iter().map(|t| PpTok { location, ..t }).collect();
        self.pragma(body, location)
    }
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

#[cfg(test)]
mod tests {
    use crate::preprocess::testing::{errors, expands_to, norm, run, Out};

    #[track_caller]
    fn expands_to_with_errors(src: &str, expected: &str) {
        let o = run(src);
        assert!(o.diags.has_errors());
        assert_eq!(norm(&o.text), norm(expected));
    }
    use crate::token::TokenKind;

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
}
