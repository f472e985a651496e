//! Source files, locations and clang-style diagnostics.
//!
//! Every stage reports into one [`Diagnostics`] list instead of stopping at
//! the first problem, so a build log shows all errors at once. Locations are
//! physical byte offsets; `#line` directives are recorded per file and applied
//! only when a location is rendered.

use std::fmt::Write as _;

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// A physical position: a file and a byte offset into its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Location {
    pub file: u32,
    pub offset: u32,
}

impl Location {
    pub fn new(file: FileId, offset: usize) -> Self {
        Location {
            file: file.0,
            offset: offset as u32,
        }
    }
}

/// A range of source text in one file, `start..end` (byte offsets), and
/// the `caret` in it where diagnostics about it point, as clang has a
/// node's range and its location: the operator of a binary expression,
/// the name of a declaration, else the start. Every node of the checked
/// program carries one.
///
/// What a macro expansion supplies stands for the whole invocation, as
/// clang's expansion ranges do: in `x < MAX(a, b)` the range ends after
/// the `)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub file: u32,
    pub start: u32,
    pub end: u32,
    /// `start <= caret <= end`.
    pub caret: u32,
}

impl Span {
    /// `start..end` in the file of `caret`, which lies in it.
    pub fn new(caret: Location, start: u32, end: u32) -> Self {
        debug_assert!(start <= caret.offset && caret.offset <= end);
        Span {
            file: caret.file,
            start,
            end,
            caret: caret.offset,
        }
    }

    /// The empty span at `at`.
    pub fn at(at: Location) -> Self {
        Span {
            file: at.file,
            start: at.offset,
            end: at.offset,
            caret: at.offset,
        }
    }

    /// Where diagnostics about the node point: the caret.
    pub fn location(self) -> Location {
        Location {
            file: self.file,
            offset: self.caret,
        }
    }

    /// This span with its caret at `at`, widened to hold it; this span
    /// as it is when `at` is in another file.
    pub fn with_caret(self, at: Location) -> Span {
        if at.file != self.file {
            return self;
        }
        Span {
            start: self.start.min(at.offset),
            end: self.end.max(at.offset),
            caret: at.offset,
            ..self
        }
    }

    /// From this span's start to `other`'s end, when both are in one file
    /// and in that order; else this span.
    pub fn to(self, other: Span) -> Span {
        if other.file == self.file && other.end >= self.start {
            Span {
                end: other.end,
                ..self
            }
        } else {
            self
        }
    }
}

impl From<Location> for Span {
    fn from(at: Location) -> Self {
        Span::at(at)
    }
}

impl From<Span> for Location {
    fn from(span: Span) -> Self {
        span.location()
    }
}

/// A `#line` directive: from `physical_line` on (1-based, the line after the
/// directive), lines are numbered from `presumed_line` and named `name`.
#[derive(Clone, Debug)]
pub struct LineDirective {
    pub physical_line: u32,
    pub presumed_line: u32,
    pub name: Option<String>,
}

/// One source text: the program source, a `-I` header or an embedded header.
#[derive(Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    /// Built on the first line/column query: only diagnostics and `__LINE__`
    /// need it, and most builds have none of either.
    line_starts: std::cell::OnceCell<Vec<u32>>,
    pub line_directives: Vec<LineDirective>,
}

impl SourceFile {
    fn new(name: String, text: String) -> Self {
        SourceFile {
            name,
            text,
            line_starts: std::cell::OnceCell::new(),
            line_directives: Vec::new(),
        }
    }

    fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| {
            // A byte search rather than a per-byte filter.
            let mut line_starts = Vec::with_capacity(self.text.len() / 32 + 1);
            line_starts.push(0);
            let bytes = self.text.as_bytes();
            let mut at = 0;
            while let Some(k) = crate::lexer::find_byte(&bytes[at..], b'\n') {
                at += k + 1;
                line_starts.push(at as u32);
            }
            line_starts
        })
    }

    /// 1-based physical line and column (in bytes) of `offset`.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let line_starts = self.line_starts();
        let line = line_starts.partition_point(|&s| s <= offset) - 1;
        (line as u32 + 1, offset - line_starts[line] + 1)
    }

    /// The text of 1-based physical line `line`, without its newline.
    pub fn line_text(&self, line: u32) -> &str {
        let line_starts = self.line_starts();
        let start = line_starts[line as usize - 1] as usize;
        let end = line_starts
            .get(line as usize)
            .map_or(self.text.len(), |&e| e as usize);
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }
}

/// All source texts of one build.
#[derive(Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

/// A location as a reader sees it, after `#line` directives.
#[derive(Debug, PartialEq, Eq)]
pub struct PresumedLocation<'a> {
    pub name: &'a str,
    pub line: u32,
    pub column: u32,
    pub line_text: &'a str,
}

impl SourceMap {
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push(SourceFile::new(name.into(), text.into()));
        FileId(self.files.len() as u32 - 1)
    }

    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn file_mut(&mut self, id: FileId) -> &mut SourceFile {
        &mut self.files[id.0 as usize]
    }

    pub fn presumed(&self, loc: Location) -> PresumedLocation<'_> {
        let file = &self.files[loc.file as usize];
        let (line, column) = file.line_col(loc.offset);
        let line_text = file.line_text(line);
        let directive = file
            .line_directives
            .iter()
            .rev()
            .find(|d| d.physical_line <= line);
        let (name, line) = match directive {
            Some(d) => (
                d.name.as_deref().unwrap_or(&file.name),
                d.presumed_line + (line - d.physical_line),
            ),
            None => (file.name.as_str(), line),
        };
        PresumedLocation {
            name,
            line,
            column,
            line_text,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

impl Severity {
    fn label(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    /// `None` for problems with no place in the source (build options).
    pub location: Option<Location>,
    pub message: String,
}

/// The diagnostics of one build, in the order they were found.
#[derive(Debug, Default)]
pub struct Diagnostics {
    list: Vec<Diagnostic>,
    /// `-w`: drop warnings.
    pub suppress_warnings: bool,
    /// `-Werror`: report warnings as errors.
    pub warnings_are_errors: bool,
}

impl Diagnostics {
    pub fn error(&mut self, location: impl Into<Location>, message: impl Into<String>) {
        self.push(Severity::Error, Some(location.into()), message.into());
    }

    pub fn warning(&mut self, location: impl Into<Location>, message: impl Into<String>) {
        self.push(Severity::Warning, Some(location.into()), message.into());
    }

    pub fn note(&mut self, location: impl Into<Location>, message: impl Into<String>) {
        self.push(Severity::Note, Some(location.into()), message.into());
    }

    pub fn push(&mut self, severity: Severity, location: Option<Location>, message: String) {
        let severity = match severity {
            Severity::Warning if self.suppress_warnings => return,
            Severity::Warning if self.warnings_are_errors => Severity::Error,
            s => s,
        };
        self.list.push(Diagnostic {
            severity,
            location,
            message,
        });
    }

    /// An empty list reporting under the same `-w` and `-Werror` settings,
    /// for a stage that reports on its own (possibly on another thread)
    /// before its list is [appended](Diagnostics::append).
    pub fn with_same_settings(&self) -> Self {
        Diagnostics {
            list: Vec::new(),
            suppress_warnings: self.suppress_warnings,
            warnings_are_errors: self.warnings_are_errors,
        }
    }

    /// Adds `later`'s diagnostics after these.
    pub fn append(&mut self, later: Diagnostics) {
        if self.list.is_empty() {
            self.list = later.list;
        } else {
            self.list.extend(later.list);
        }
    }

    /// How many diagnostics there are, for [`Diagnostics::truncate`].
    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Drops what was reported after `len`: for a tentative check whose
    /// result is discarded.
    pub fn truncate(&mut self, len: usize) {
        self.list.truncate(len);
    }

    pub fn has_errors(&self) -> bool {
        self.list.iter().any(|d| d.severity == Severity::Error)
    }

    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.list.iter()
    }

    /// Renders every diagnostic clang-style:
    /// `file:line:col: error: message`, the source line, and a caret.
    pub fn render(&self, sources: &SourceMap) -> String {
        let mut out = String::new();
        for d in &self.list {
            match d.location {
                Some(loc) => {
                    let p = sources.presumed(loc);
                    let _ = writeln!(
                        out,
                        "{}:{}:{}: {}: {}",
                        p.name,
                        p.line,
                        p.column,
                        d.severity.label(),
                        d.message
                    );
                    let _ = writeln!(out, "{}", p.line_text);
                    // Keep tabs so the caret lines up under the same column.
                    let pad: String = p
                        .line_text
                        .bytes()
                        .take(p.column as usize - 1)
                        .map(|b| if b == b'\t' { '\t' } else { ' ' })
                        .collect();
                    let _ = writeln!(out, "{pad}^");
                }
                None => {
                    let _ = writeln!(out, "{}: {}", d.severity.label(), d.message);
                }
            }
        }
        let errors = self
            .list
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        let warnings = self
            .list
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count();
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        match (warnings, errors) {
            (0, 0) => {}
            (w, 0) => {
                let _ = writeln!(out, "{w} warning{} generated.", plural(w));
            }
            (0, e) => {
                let _ = writeln!(out, "{e} error{} generated.", plural(e));
            }
            (w, e) => {
                let _ = writeln!(
                    out,
                    "{w} warning{} and {e} error{} generated.",
                    plural(w),
                    plural(e)
                );
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_clang_style_with_caret_and_line_directive() {
        let mut map = SourceMap::default();
        let id = map.add("k.cl", "int a;\n  int b = ;\n#line 40 \"x.h\"\nc;\n");
        map.file_mut(id).line_directives.push(LineDirective {
            physical_line: 4,
            presumed_line: 40,
            name: Some("x.h".into()),
        });
        let mut d = Diagnostics::default();
        d.error(Location::new(id, 17), "expected expression");
        d.warning(Location::new(id, 34), "odd");
        let text = d.render(&map);
        assert_eq!(
            text,
            "k.cl:2:11: error: expected expression\n  int b = ;\n          ^\n\
             x.h:40:1: warning: odd\nc;\n^\n1 warning and 1 error generated.\n"
        );
    }
}
