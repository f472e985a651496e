//! `#include`: the header name, found among the embedded headers, then (for
//! `"..."`) beside the including file, then in the `-I` directories (an
//! absolute name is opened as given); each
//! file is read once per build, and `#pragma once` is honoured.

use std::path::{Path, PathBuf};

use super::{Mode, PpTok, Preprocessor};
use crate::diagnostic::{FileId, Location};
use crate::lexer::Interner;
use crate::token::{Punct, TokenKind};

/// Deepest `#include` nesting, as in clang.
const MAX_INCLUDE_DEPTH: usize = 200;

impl Preprocessor<'_> {
    pub(super) fn include_directive(&mut self, directive: &PpTok, mode: Mode) {
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
        // An absolute name is its own and only place (C99 6.10.2 leaves the
        // search to the implementation; every compiler opens it as given).
        let absolute = Path::new(name).is_absolute();
        let candidates: Vec<PathBuf> = if absolute {
            vec![PathBuf::from(name)]
        } else {
            own_dir
                .iter()
                .chain(&options.include_dirs)
                .map(|dir| dir.join(name))
                .collect()
        };
        for path in candidates {
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

#[cfg(test)]
mod tests {
    use super::MAX_INCLUDE_DEPTH;
    use crate::caps::DeviceCaps;
    use crate::options::BuildOptions;
    use crate::preprocess::testing::{errors, norm, run_with};

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
}
