//! Separate compilation (`clCompileProgram` / `clLinkProgram`): a source is
//! preprocessed (with embedded headers) and checked, and kept as a *unit*:
//! the preprocessed text, written so that every token stays on its original
//! line and column, with `#line` markers where the file or line changes.
//!
//! The translator inlines every function into its kernel, so linking is
//! building the concatenation of units: a function called in one unit and
//! defined in another resolves like a prototype followed by a definition,
//! and a diagnostic in the linked program still names the original file,
//! line and column. Each unit's text starts with its language's pragma
//! (`crate::language`), so C and C++ units keep their own rules.

use crate::diagnostic::SourceMap;
use crate::language;
use crate::preprocess::would_merge;
use crate::token::{Token, TokenKind};
use crate::{BuildError, BuildOptions, DeviceCaps, FrontEnd, Program, Session, MAIN_FILE_NAME};

/// A compiled object: checked, preprocessed text ready to be linked, and
/// the compile log (warnings).
#[derive(Clone, Debug)]
pub struct CompiledUnit {
    pub text: String,
    pub log: String,
}

/// Largest gap between two lines bridged with blank lines instead of a
/// `#line` marker.
const MAX_BLANK_LINES: u32 = 8;

/// Preprocesses and checks `source` with `options`, resolving `#include`
/// against `headers` (`(include name, text)`) first. Errors come back as
/// [`BuildError::Compile`] with the full clang-style log.
pub fn compile_unit(
    source: &str,
    options: &str,
    caps: &DeviceCaps,
    headers: &[(&str, &str)],
) -> Result<CompiledUnit, BuildError> {
    Session::new().compile_unit(source, options, caps, headers)
}

/// Links `units` into an executable: their concatenation built with
/// `options`, where struct, union and enum definitions that several units
/// repeat identically (a header they share) are one definition. A function
/// called but defined in no unit, or defined in two, is an error at the
/// line and column of the call or the second definition.
pub fn link(units: &[&str], options: &str, caps: &DeviceCaps) -> Result<Program, BuildError> {
    Session::new().link(units, options, caps)
}

/// Links `units` into a library: checked together as [`link`] does, but
/// calls may stay unresolved until the final link. The library's text is
/// the units' concatenation.
pub fn link_library(
    units: &[&str],
    options: &str,
    caps: &DeviceCaps,
) -> Result<CompiledUnit, BuildError> {
    Session::new().link_library(units, options, caps)
}

impl Session {
    /// [`compile_unit`] in this session.
    pub fn compile_unit(
        &self,
        source: &str,
        options: &str,
        caps: &DeviceCaps,
        headers: &[(&str, &str)],
    ) -> Result<CompiledUnit, BuildError> {
        let options = BuildOptions::parse(options).map_err(BuildError::InvalidOptions)?;
        let mut text = String::new();
        let front = FrontEnd::run_with_headers(
            &self.prelude,
            MAIN_FILE_NAME,
            source,
            &options,
            caps,
            headers,
            |tokens, interner, sources| {
                let tokens: Vec<_> = interner.tokens(tokens).collect();
                text = language::unit_marker(options.cxx.is_some()).to_owned();
                text.push_str(&unit_text(&tokens, sources));
            },
        );
        let log = front.log()?;
        Ok(CompiledUnit { text, log })
    }

    /// [`link`] in this session.
    pub fn link(
        &self,
        units: &[&str],
        options: &str,
        caps: &DeviceCaps,
    ) -> Result<Program, BuildError> {
        let options = linking_options(options)?;
        self.build_named(MAIN_FILE_NAME, &units.concat(), &options, caps)
    }

    /// [`link_library`] in this session.
    pub fn link_library(
        &self,
        units: &[&str],
        options: &str,
        caps: &DeviceCaps,
    ) -> Result<CompiledUnit, BuildError> {
        let options = linking_options(options)?;
        let text = units.concat();
        let front = FrontEnd::run(&self.prelude, MAIN_FILE_NAME, &text, &options, caps);
        let log = front.log()?;
        Ok(CompiledUnit { text, log })
    }
}

fn linking_options(options: &str) -> Result<BuildOptions, BuildError> {
    let mut options = BuildOptions::parse(options).map_err(BuildError::InvalidOptions)?;
    options.linking = true;
    Ok(options)
}

/// Where the writer is: the presumed file and line, and the next column.
struct Cursor {
    file: String,
    line: u32,
    column: u32,
}

/// The tokens as text that lexes back to the same tokens at the same
/// presumed locations (columns of tokens produced by macro expansion
/// excepted: they all sit at the expansion site).
fn unit_text(tokens: &[Token], sources: &SourceMap) -> String {
    let mut out = String::with_capacity(tokens.len() * 6);
    let mut cursor: Option<Cursor> = None;
    let mut previous: Option<&Token> = None;
    for token in tokens {
        match token.kind {
            TokenKind::Eof => continue,
            TokenKind::Pragma => {
                if !out.is_empty() && !out.ends_with('\n') {
                    out.push('\n');
                }
                out.push_str("#pragma ");
                out.push_str(&token.text);
                out.push('\n');
                // The pragma took a line of its own: the next token needs a
                // marker to be back on its line.
                cursor = None;
                previous = None;
                continue;
            }
            _ => {}
        }
        let at = sources.presumed(token.location);
        let same_file = cursor.as_ref().is_some_and(|c| c.file == at.name);
        match &mut cursor {
            Some(c) if same_file && c.line == at.line => {
                let glued = previous.is_some_and(|p| token.leading_space || would_merge(p, token));
                if c.column < at.column {
                    pad(&mut out, c, at.column);
                } else if glued || c.column > at.column {
                    out.push(' ');
                    c.column += 1;
                }
            }
            Some(c) if same_file && at.line > c.line && at.line - c.line <= MAX_BLANK_LINES => {
                for _ in c.line..at.line {
                    out.push('\n');
                }
                c.line = at.line;
                c.column = 1;
                pad(&mut out, c, at.column);
            }
            _ => {
                if !out.is_empty() && !out.ends_with('\n') {
                    out.push('\n');
                }
                out.push_str(&format!("#line {} \"{}\"\n", at.line, escape(at.name)));
                let mut c = Cursor {
                    file: at.name.to_owned(),
                    line: at.line,
                    column: 1,
                };
                pad(&mut out, &mut c, at.column);
                cursor = Some(c);
            }
        }
        out.push_str(&token.text);
        if let Some(c) = &mut cursor {
            c.column += token.text.len() as u32;
        }
        previous = Some(token);
    }
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

fn pad(out: &mut String, cursor: &mut Cursor, column: u32) {
    while cursor.column < column {
        out.push(' ');
        cursor.column += 1;
    }
}

/// A file name as a string literal body for `#line`.
fn escape(name: &str) -> String {
    name.replace('\\', "\\\\").replace('"', "\\\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caps() -> DeviceCaps {
        DeviceCaps::full()
    }

    #[test]
    fn unit_keeps_lines_and_columns() {
        let source = "#define N 4\n\n  kernel void k(global int *p) {\n    p[0] = N;\n}\n";
        let unit = compile_unit(source, "", &caps(), &[]).expect("compiles");
        let lines: Vec<&str> = unit.text.lines().collect();
        assert_eq!(lines[0], "#pragma clvulkan language C");
        assert_eq!(lines[1], "#line 3 \"<source>\"");
        assert_eq!(lines[2], "  kernel void k(global int *p) {");
        assert_eq!(lines[3], "    p[0] = 4;");
        assert_eq!(lines[4], "}");
    }

    #[test]
    fn embedded_headers_and_diagnostics_point_at_origin() {
        let headers = [("h.h", "int twice(int x);\n\n#define K 2\n")];
        let source = "#include \"h.h\"\nkernel void k(global int *p) { p[0] = twice(K); }\n";
        let unit = compile_unit(source, "", &caps(), &headers).expect("compiles");
        assert!(unit.text.contains("#line 1 \"h.h\""), "{}", unit.text);
        // Linking with a unit whose definition has an error reports the
        // error at the definition's own line and column.
        let other = compile_unit("int twice(int x) {\n  return x * 2;\n}\n", "", &caps(), &[])
            .expect("compiles");
        link(&[&unit.text, &other.text], "", &caps()).expect("links");
        let broken = "\nint twice(int x) {\n  return x * y;\n}\n";
        let broken = compile_unit(broken, "", &caps(), &[]);
        match broken {
            Err(BuildError::Compile { log }) => assert!(log.contains("<source>:3:14"), "{log}"),
            other => panic!("expected an error: {other:?}"),
        }
    }

    #[test]
    fn link_reports_undefined_and_duplicate_functions_at_their_lines() {
        let user = compile_unit(
            "int f(int);\nkernel void k(global int *p) {\n  p[0] = f(1);\n}\n",
            "",
            &caps(),
            &[],
        )
        .expect("compiles");
        match link(&[&user.text], "", &caps()) {
            Err(BuildError::Compile { log }) => {
                assert!(log.contains("<source>:3:10"), "{log}");
                assert!(log.contains("never defined"), "{log}");
            }
            other => panic!("expected an error: {other:?}"),
        }
        let def = compile_unit("int f(int x) { return x; }\n", "", &caps(), &[]).expect("ok");
        match link(&[&user.text, &def.text, &def.text], "", &caps()) {
            Err(BuildError::Compile { log }) => {
                assert!(log.contains("redefinition of 'f'"), "{log}")
            }
            other => panic!("expected an error: {other:?}"),
        }
    }

    #[test]
    fn shared_header_types_are_one_definition_when_linked() {
        let header = "typedef struct { int a; float b; } pair;\nstruct node { int v; struct { int x; } inner; };\nenum colour { RED, GREEN = 4, BLUE };\nint sum(pair p);\n";
        let headers = [("shared.h", header)];
        let user = compile_unit(
            "#include \"shared.h\"\nkernel void k(global int *out) {\n  pair p = { 1, 2.0f };\n  struct node n; n.v = BLUE;\n  out[0] = sum(p) + n.v;\n}\n",
            "",
            &caps(),
            &headers,
        )
        .expect("compiles");
        let defs = compile_unit(
            "#include \"shared.h\"\nint sum(pair p) { return p.a + (int)p.b + GREEN; }\n",
            "",
            &caps(),
            &headers,
        )
        .expect("compiles");
        link(&[&user.text, &defs.text], "", &caps()).expect("links");
        link_library(&[&user.text, &defs.text], "", &caps()).expect("library");
        // Without linking rules, the same text is a redefinition.
        assert!(crate::build(&format!("{}{}", user.text, defs.text), "", &caps()).is_err());
        // Different members under one tag stay an error.
        let other = compile_unit("struct node { float v; };\n", "", &caps(), &[]).expect("ok");
        match link(&[&user.text, &defs.text, &other.text], "", &caps()) {
            Err(BuildError::Compile { log }) => {
                assert!(
                    log.contains("redefinition of 'node' with different members"),
                    "{log}"
                )
            }
            other => panic!("expected an error: {other:?}"),
        }
        // So does an enumerator with another value.
        let other = compile_unit("enum hue { RED = 9 };\n", "", &caps(), &[]).expect("ok");
        assert!(link(&[&user.text, &defs.text, &other.text], "", &caps()).is_err());
    }
}
