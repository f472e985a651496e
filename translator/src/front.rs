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
use crate::diagnostic::{Diagnostics, SourceMap};
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
        );
        let mut check_diags = diags.with_same_settings();
        let mut checker = UnitChecker::new(options, caps, &mut check_diags);
        checker.set_spellings(parser.spellings());
        while let Some(item) = parser.next_item() {
            checker.item(&item);
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
