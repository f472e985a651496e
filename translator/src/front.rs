//! The front end's driver: one source through [`preprocess`], [`parse`]
//! and [`check`] into a [`FrontEnd`] (the checked program, its
//! diagnostics and the files they point into), all on the calling thread.
//!
//! The whole source is preprocessed first; the parser then hands over one
//! external declaration at a time and each is checked at once, so that a
//! declaration's tree is freed before the next is parsed. Diagnostics come
//! out in stage order: the preprocessor's, then the parser's, then the
//! checker's.
//!
//! [`preprocess`]: crate::preprocess
//! [`parse`]: crate::parse
//! [`check`]: crate::check

use std::rc::Rc;

use crate::caps::DeviceCaps;
use crate::check::UnitChecker;
use crate::diagnostic::{Diagnostics, SourceMap, ERROR_LIMIT};
use crate::lexer::{CompactToken, Interner};
use crate::options::BuildOptions;
use crate::parse::Parser;
use crate::preprocess::{self, PreludeCache, PreprocessInput};
use crate::{hir, BuildError};

/// The result of preprocessing, parsing and checking one source.
pub(crate) struct FrontEnd {
    pub sources: SourceMap,
    pub diags: Diagnostics,
    pub program: hir::Program,
}

impl FrontEnd {
    /// Runs the front end on `source`, named `file_name` in diagnostics,
    /// with the predefined macros' table kept in `prelude`.
    pub fn run(
        prelude: &PreludeCache,
        file_name: &str,
        source: &str,
        options: &BuildOptions,
        caps: &DeviceCaps,
    ) -> Self {
        Self::run_with_headers(prelude, file_name, source, options, caps, &[], |_, _, _| {})
    }

    /// [`FrontEnd::run`] with embedded headers, showing the preprocessed
    /// tokens to `see_tokens` before they are parsed.
    pub fn run_with_headers(
        prelude: &PreludeCache,
        file_name: &str,
        source: &str,
        options: &BuildOptions,
        caps: &DeviceCaps,
        embedded_headers: &[(&str, &str)],
        see_tokens: impl FnOnce(&[CompactToken], &Interner, &SourceMap),
    ) -> Self {
        let mut sources = SourceMap::default();
        let main = sources.add(file_name, source);
        let mut diags = Diagnostics::default();
        diags.suppress_warnings = options.suppress_warnings;
        diags.warnings_are_errors = options.warnings_are_errors;
        let input = PreprocessInput {
            options,
            caps,
            embedded_headers,
            prelude,
        };
        let (tokens, interner) =
            preprocess::preprocess_compact(&mut sources, main, &input, &mut diags);
        see_tokens(&tokens, &interner, &sources);
        let mut parser = Parser::new(
            tokens,
            Rc::new(interner.into_spellings()),
            diags.with_same_settings(),
            options.cxx.is_some(),
        );
        let mut check_diags = diags.with_same_settings();
        let mut checker = UnitChecker::new(options, caps, &mut check_diags);
        while let Some(item) = parser.next_item() {
            // C++'s qualified names are spellings the parser adds.
            checker.set_spellings(parser.spellings());
            checker.item(&item);
            // Past the log's error limit nothing more would be shown: stop
            // there, as clang does, rather than check the rest of a source
            // that may be all errors.
            let errors = diags.error_count() + parser.error_count() + checker.error_count();
            if errors > ERROR_LIMIT {
                break;
            }
        }
        let program = checker.finish();
        diags.append(parser.into_diagnostics());
        diags.append(check_diags);
        FrontEnd {
            sources,
            diags,
            program,
        }
    }

    /// The rendered log, or the build error when there are errors.
    pub fn log(&self) -> Result<String, BuildError> {
        let log = self.diags.render(&self.sources);
        if self.diags.has_errors() {
            Err(BuildError::Compile { log })
        } else {
            Ok(log)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::FrontEnd;
    use crate::caps::DeviceCaps;
    use crate::diagnostic::Span;
    use crate::options::BuildOptions;
    use crate::preprocess::PreludeCache;

    const SOURCE: &str = "#define TWICE(x) ((x) * 2)
int helper(int a) { return a + 1; }
__kernel void k(__global float *out, int n)
{
    int i = get_global_id(0);
    float4 v = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    if (i < n && (i & 1) == 0)
        out[i] = v.x * (float)helper(i) + TWICE(n);
    for (int j = 0; j < n; j++) { out[j] += 1.0f; }
}
";

    /// Past the error limit the front end stops checking: a source of
    /// 5,000 wrong declarations reports one error more than the log shows.
    #[test]
    fn the_front_end_stops_past_the_error_limit() {
        let source: String = (0..5_000)
            .map(|i| format!("int f{i}(void) {{ return nothing; }}\n"))
            .collect();
        let front = FrontEnd::run(
            &PreludeCache::default(),
            "k.cl",
            &source,
            &BuildOptions::default(),
            &DeviceCaps::full(),
        );
        assert_eq!(
            front.diags.error_count(),
            crate::diagnostic::ERROR_LIMIT + 1
        );
    }

    /// Every node of the checked program spans the text it was checked
    /// from, its caret inside, where diagnostics about it point.
    #[test]
    fn hir_spans_cover_their_source_text() {
        let front = FrontEnd::run(
            &PreludeCache::default(),
            "k.cl",
            SOURCE,
            &BuildOptions::default(),
            &DeviceCaps::full(),
        );
        assert!(!front.diags.has_errors(), "{}", front.log().unwrap_err());
        let text = |s: Span| {
            assert_eq!(s.file, 0);
            assert!(s.start <= s.caret && s.caret <= s.end, "{s:?}");
            &SOURCE[s.start as usize..s.end as usize]
        };
        let caret = |s: Span| &SOURCE[s.caret as usize..];
        let mut exprs = Vec::new();
        let mut stmts = Vec::new();
        let mut locals = Vec::new();
        let mut functions = Vec::new();
        for (_, f) in front.program.functions.iter() {
            functions.push(text(f.span));
            exprs.extend(f.exprs.iter().map(|(_, e)| (text(e.span), caret(e.span))));
            stmts.extend(f.stmts.iter().map(|(_, s)| (text(s.span), caret(s.span))));
            locals.extend(f.locals.iter().map(|(_, l)| (text(l.span), caret(l.span))));
        }
        assert_eq!(
            functions,
            ["helper(int a)", "k(__global float *out, int n)"]
        );
        assert!(exprs.iter().all(|(t, _)| !t.is_empty()), "{exprs:?}");
        let has = |list: &[(&str, &str)], text: &str, caret: &str| {
            assert!(
                list.iter().any(|&(t, c)| t == text && c.starts_with(caret)),
                "no {text:?} with its caret at {caret:?} in {list:#?}"
            );
        };
        has(&exprs, "a + 1", "+ 1");
        has(&exprs, "get_global_id(0)", "(0)");
        has(&exprs, "(float4)(1.0f, 2.0f, 3.0f, 4.0f)", "(float4)");
        has(&exprs, "i < n && (i & 1) == 0", "&& (i");
        // Parentheses belong to the operand they hold.
        has(&exprs, "(i & 1)", "& 1)");
        has(
            &exprs,
            "out[i] = v.x * (float)helper(i) + TWICE(n)",
            "= v.x",
        );
        has(&exprs, "out[i]", "[i]");
        has(&exprs, "v.x", ".x");
        // A call to a program function: the caret at its name.
        has(&exprs, "helper(i)", "helper(i)");
        has(&exprs, "(float)helper(i)", "(float)");
        // What a macro expansion made spans the invocation.
        has(&exprs, "TWICE(n)", "TWICE(n)");
        has(&exprs, "j++", "++");
        has(&exprs, "out[j] += 1.0f", "+= 1.0f");
        has(&stmts, "return a + 1;", "return");
        // A declaration's statement, the caret at the variable.
        has(&stmts, "int i = get_global_id(0);", "i = ");
        has(
            &stmts,
            "if (i < n && (i & 1) == 0)\n        out[i] = v.x * (float)helper(i) + TWICE(n);",
            "if",
        );
        has(
            &stmts,
            "out[i] = v.x * (float)helper(i) + TWICE(n);",
            "out[i]",
        );
        has(
            &stmts,
            "for (int j = 0; j < n; j++) { out[j] += 1.0f; }",
            "for",
        );
        has(&stmts, "{ out[j] += 1.0f; }", "{");
        // Declarators, the caret at the name.
        has(&locals, "a", "a)");
        has(&locals, "*out", "out,");
        has(&locals, "n", "n)");
        has(&locals, "v", "v =");
        has(&locals, "j", "j = 0");
    }
}
