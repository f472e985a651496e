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
    /// How many of `list` are errors.
    errors: usize,
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
        self.errors += usize::from(severity == Severity::Error);
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
            errors: 0,
            suppress_warnings: self.suppress_warnings,
            warnings_are_errors: self.warnings_are_errors,
        }
    }

    /// Adds `later`'s diagnostics after these.
    pub fn append(&mut self, later: Diagnostics) {
        self.errors += later.errors;
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
        let dropped = self.list.get(len..).unwrap_or(&[]);
        self.errors -= dropped
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        self.list.truncate(len);
    }

    pub fn has_errors(&self) -> bool {
        self.errors > 0
    }

    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.list.iter()
    }

    /// How many errors there are.
    pub fn error_count(&self) -> usize {
        self.errors
    }

    /// Renders the diagnostics clang-style: `file:line:col: error:
    /// message`, the source line, and a caret. As clang with its default
    /// `-ferror-limit=20`, the log stops after [`ERROR_LIMIT`] errors with
    /// "too many errors emitted"; past [`WARNING_LIMIT`] warnings, the
    /// rest are counted, not shown; a line longer than [`SNIPPET_WIDTH`]
    /// is shown as the part around the caret. So the log stays small
    /// whatever the source: each diagnostic reads its line from `sources`
    /// only as it is written.
    pub fn render(&self, sources: &SourceMap) -> String {
        let mut out = String::new();
        let (mut errors, mut warnings, mut hidden_warnings) = (0usize, 0usize, 0usize);
        // A note is shown with the diagnostic it belongs to.
        let mut showing = true;
        for d in &self.list {
            match d.severity {
                Severity::Error if errors == ERROR_LIMIT => {
                    out.push_str(
                        "fatal error: too many errors emitted, stopping now [-ferror-limit=]\n",
                    );
                    break;
                }
                Severity::Error => {
                    errors += 1;
                    showing = true;
                }
                Severity::Warning if warnings == WARNING_LIMIT => {
                    hidden_warnings += 1;
                    showing = false;
                }
                Severity::Warning => {
                    warnings += 1;
                    showing = true;
                }
                Severity::Note => {}
            }
            if showing {
                render_one(&mut out, d, sources);
            }
        }
        if hidden_warnings > 0 {
            let _ = writeln!(
                out,
                "note: {hidden_warnings} more warning{} not shown",
                plural(hidden_warnings)
            );
        }
        let warnings = warnings + hidden_warnings;
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

/// Errors a log shows before it stops: clang's default `-ferror-limit`.
pub const ERROR_LIMIT: usize = 20;

/// Warnings a log shows; the rest are only counted. clang has no such
/// limit, but it stops at its error limit where a build of ours goes on,
/// and a runtime keeps every program's log.
pub const WARNING_LIMIT: usize = 100;

/// The longest source line a diagnostic shows whole, in bytes; a longer
/// one is shown as this much around the caret, as clang does with
/// `-fmessage-length`.
pub const SNIPPET_WIDTH: usize = 200;

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Writes `d` with its source line and caret.
fn render_one(out: &mut String, d: &Diagnostic, sources: &SourceMap) {
    let Some(loc) = d.location else {
        let _ = writeln!(out, "{}: {}", d.severity.label(), d.message);
        return;
    };
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
    let (before, shown, after, caret) = snippet(p.line_text, p.column as usize - 1);
    let _ = writeln!(out, "{before}{shown}{after}");
    // Keep tabs so the caret lines up under the same column.
    let pad: String = before
        .bytes()
        .chain(shown.bytes().take(caret))
        .map(|b| if b == b'\t' { '\t' } else { ' ' })
        .collect();
    let _ = writeln!(out, "{pad}^");
}

/// The part of `line` a diagnostic shows for a caret `column` bytes in:
/// the whole line when it is short, else [`SNIPPET_WIDTH`] bytes around
/// the caret with `...` for what is cut. Returns the lead-in marker, the
/// shown text, the trailing marker and the caret's offset in the text.
fn snippet(line: &str, column: usize) -> (&'static str, &str, &'static str, usize) {
    // A column inside a character (a caret at one byte of it) counts
    // bytes like any other; only the cuts need character boundaries.
    let column = column.min(line.len());
    if line.len() <= SNIPPET_WIDTH {
        return ("", line, "", column);
    }
    let floor = |mut at: usize| {
        while !line.is_char_boundary(at) {
            at -= 1;
        }
        at
    };
    let start = floor(column.saturating_sub(SNIPPET_WIDTH / 2));
    let end = floor((start + SNIPPET_WIDTH).min(line.len()));
    let end = end.max(floor(column));
    let before = if start > 0 { "..." } else { "" };
    let after = if end < line.len() { "..." } else { "" };
    (before, &line[start..end], after, floor(column) - start)
}

/// clang's error for a name nothing declares. The parser gives a C++
/// namespace's members their qualified names (`parse/namespaces.rs`).
pub(crate) fn undeclared(name: &str) -> String {
    match name.rsplit_once("::") {
        Some((namespace, member)) => {
            format!("no member named '{member}' in namespace '{namespace}'")
        }
        None => format!("use of undeclared identifier '{name}'"),
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

    #[test]
    fn the_log_stops_at_the_error_limit_and_counts_hidden_warnings() {
        let mut map = SourceMap::default();
        let id = map.add("k.cl", "x;\n");
        let mut d = Diagnostics::default();
        for _ in 0..WARNING_LIMIT + 3 {
            d.warning(Location::new(id, 0), "w");
        }
        d.note(Location::new(id, 1), "belongs to a hidden warning");
        for i in 0..ERROR_LIMIT + 5 {
            d.error(Location::new(id, 0), format!("e{i}"));
        }
        assert_eq!(d.error_count(), ERROR_LIMIT + 5);
        let text = d.render(&map);
        assert_eq!(text.matches(": warning: w\n").count(), WARNING_LIMIT);
        assert!(!text.contains("belongs to a hidden warning"), "{text}");
        let last_shown = format!("error: e{}\n", ERROR_LIMIT - 1);
        assert!(text.contains(&last_shown), "{text}");
        assert!(
            !text.contains(&format!("error: e{ERROR_LIMIT}\n")),
            "{text}"
        );
        let tail = format!(
            "fatal error: too many errors emitted, stopping now [-ferror-limit=]\n\
             note: 3 more warnings not shown\n\
             {} warnings and {ERROR_LIMIT} errors generated.\n",
            WARNING_LIMIT + 3
        );
        assert!(text.ends_with(&tail), "{text}");
    }

    #[test]
    fn a_caret_inside_a_character_is_rendered() {
        // Found by fuzzing: a location at the second byte of a character.
        let mut map = SourceMap::default();
        let id = map.add("k.cl", "a \u{fffd}b\n");
        let mut d = Diagnostics::default();
        d.error(Location::new(id, 3), "inside");
        let text = d.render(&map);
        assert_eq!(
            text,
            "k.cl:1:4: error: inside\na \u{fffd}b\n   ^\n1 error generated.\n"
        );
    }

    #[test]
    fn a_long_line_is_shown_around_the_caret() {
        let mut map = SourceMap::default();
        let line = format!("{}\tmark{}", "a".repeat(5000), "é".repeat(3000));
        let id = map.add("k.cl", format!("{line}\n"));
        let mut d = Diagnostics::default();
        d.error(Location::new(id, 5001), "here");
        d.error(Location::new(id, 2), "start");
        let text = d.render(&map);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "k.cl:1:5002: error: here");
        // Cut on both sides, the caret under the `m` of `mark`.
        assert!(
            lines[1].starts_with("...a") && lines[1].ends_with("é..."),
            "{}",
            lines[1]
        );
        assert!(lines[1].len() <= SNIPPET_WIDTH + 6, "{}", lines[1].len());
        let caret = lines[2].len() - 1;
        assert_eq!(&lines[1][caret..caret + 4], "mark");
        assert_eq!(lines[2].matches('\t').count(), 1);
        // Near the start, only the end is cut.
        assert_eq!(lines[3], "k.cl:1:3: error: start");
        assert!(lines[4].starts_with("aaa") && lines[4].ends_with("..."));
        assert_eq!(lines[5], "  ^");
    }
}
