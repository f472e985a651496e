//! What a macro is (its kind, replacement list and parameters, prepared
//! for substitution), the macro table, and the built-in macros whose
//! values the preprocessor makes (`__FILE__`, `__LINE__`, `__DATE__`,
//! `__TIME__`, `__COUNTER__`).

use std::sync::Arc;

use super::{PpTok, Preprocessor};
use crate::diagnostic::Location;
use crate::lexer::SPACE;
use crate::token::TokenKind;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Builtin {
    File,
    Line,
    Date,
    Time,
    Counter,
}

#[derive(Debug, PartialEq)]
pub(super) enum MacroKind {
    Object,
    /// `params` (symbols) ends with the variadic one (`__VA_ARGS__` or a GNU
    /// name) when `variadic`.
    Function {
        params: Vec<u32>,
        variadic: bool,
    },
    Builtin(Builtin),
}

pub(super) const NOT_PARAM: u32 = u32::MAX;

/// A stretch of a replacement list, for substitution without `#`/`##`.
#[derive(Debug, Clone, Copy)]
pub(super) enum Piece {
    /// `body[start..end]`, none of them a parameter.
    Tokens { start: u32, end: u32 },
    /// A use of parameter `param` at `body[at]`, whose leading-space flag
    /// its argument's first token takes.
    Param { param: u32, at: u32 },
}

/// The [`Piece`]s of `body` (whose parameter indices are `param_of`) and
/// the parameters it uses in order of first use.
pub(super) fn pieces_of(body: &[PpTok], param_of: &[u32]) -> (Vec<Piece>, Vec<u32>) {
    let mut pieces = Vec::new();
    let mut used = Vec::new();
    let mut run_start = 0;
    for (k, &p) in param_of.iter().enumerate() {
        if p == NOT_PARAM {
            continue;
        }
        if run_start < k {
            pieces.push(Piece::Tokens {
                start: run_start as u32,
                end: k as u32,
            });
        }
        pieces.push(Piece::Param {
            param: p,
            at: k as u32,
        });
        if !used.contains(&p) {
            used.push(p);
        }
        run_start = k + 1;
    }
    if run_start < body.len() {
        pieces.push(Piece::Tokens {
            start: run_start as u32,
            end: body.len() as u32,
        });
    }
    (pieces, used)
}

#[derive(Debug)]
pub(super) struct Macro {
    pub(super) name: u32,
    pub(super) kind: MacroKind,
    /// The replacement list; of the flags only [`SPACE`] is set.
    pub(super) body: Vec<PpTok>,
    /// Per body token: the index of the parameter it names, or `NOT_PARAM`.
    pub(super) param_of: Vec<u32>,
    /// The body has `#` or `##` operators: substitution takes the slow path.
    pub(super) has_ops: bool,
    /// The body as runs of plain tokens and parameter uses, in body order:
    /// what substitution without operators walks, a run at a time.
    pub(super) pieces: Vec<Piece>,
    /// The parameters the body uses, each once, in order of first use: the
    /// arguments to pre-expand.
    pub(super) used_params: Vec<u32>,
    pub(super) location: Location,
}

impl Macro {
    pub(super) fn params(&self) -> (usize, bool) {
        match &self.kind {
            MacroKind::Function { params, variadic } => (params.len(), *variadic),
            _ => (0, false),
        }
    }

    /// C99 6.10.3p2: same parameters, same tokens, same whitespace
    /// separation.
    pub(super) fn same_definition(&self, other: &Macro) -> bool {
        self.kind == other.kind
            && self.body.len() == other.body.len()
            && self
                .body
                .iter()
                .zip(&other.body)
                .enumerate()
                .all(|(i, (a, b))| {
                    a.kind == b.kind && a.sym == b.sym && (i == 0 || a.space() == b.space())
                })
    }
}

impl Preprocessor<'_> {
    pub(super) fn define_builtins(&mut self) {
        for (name, b) in [
            ("__FILE__", Builtin::File),
            ("__LINE__", Builtin::Line),
            ("__DATE__", Builtin::Date),
            ("__TIME__", Builtin::Time),
            ("__COUNTER__", Builtin::Counter),
        ] {
            let name = self.interner.sym(name);
            let m = Macro {
                name,
                kind: MacroKind::Builtin(b),
                body: Vec::new(),
                param_of: Vec::new(),
                has_ops: false,
                pieces: Vec::new(),
                used_params: Vec::new(),
                location: Location::default(),
            };
            self.insert_macro(name, Arc::new(m));
        }
    }

    pub(super) fn insert_macro(&mut self, name: u32, m: Arc<Macro>) {
        let i = name as usize;
        if i >= self.macros.len() {
            self.macros.resize(i + 1, None);
            self.disabled.resize(i + 1, false);
        }
        self.macros[i] = Some(m);
    }

    /// The macro named by symbol `name`, if any.
    #[inline]
    pub(super) fn macro_of(&self, name: u32) -> Option<&Arc<Macro>> {
        self.macros.get(name as usize)?.as_ref()
    }

    pub(super) fn note_defined_here(&mut self, m: &Macro) {
        if !matches!(m.kind, MacroKind::Builtin(_)) {
            let name = self.interner.get(m.name);
            self.diags
                .note(m.location, format!("macro '{name}' defined here"));
        }
    }

    pub(super) fn builtin_token(&mut self, b: Builtin, name: &PpTok) -> PpTok {
        let location = name.location;
        let (kind, sym) = match b {
            Builtin::File => {
                let p = self.sources.presumed(location);
                (TokenKind::StringLiteral, self.interner.sym(&quote(p.name)))
            }
            Builtin::Line => {
                let line = self.sources.presumed(location).line;
                (TokenKind::IntLiteral, self.interner.sym(&line.to_string()))
            }
            Builtin::Counter => {
                let n = self.counter;
                self.counter += 1;
                (TokenKind::IntLiteral, self.interner.sym(&n.to_string()))
            }
            Builtin::Date | Builtin::Time => {
                let (date, time) = match self.date_time {
                    Some(dt) => dt,
                    None => {
                        let (d, t) = date_time_now();
                        let dt = (self.interner.sym(&d), self.interner.sym(&t));
                        *self.date_time.insert(dt)
                    }
                };
                let sym = if b == Builtin::Date { date } else { time };
                (TokenKind::StringLiteral, sym)
            }
        };
        PpTok {
            location,
            sym,
            kind,
            flags: name.flags & SPACE,
            len: name.len,
        }
    }
}

/// `s` as a C string literal.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// `__DATE__` and `__TIME__` as string literals, in UTC: there is no time
/// zone database to consult without a dependency.
fn date_time_now() -> (String, String) {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Howard Hinnant's civil_from_days.
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let name = MONTHS.get(month as usize - 1).copied().unwrap_or("Jan");
    let rem = secs % 86_400;
    (
        format!("\"{name} {day:>2} {year}\""),
        format!("\"{:02}:{:02}:{:02}\"", rem / 3600, rem / 60 % 60, rem % 60),
    )
}

#[cfg(test)]
mod tests {
    use crate::preprocess::testing::{expands_to, run};
    use crate::token::TokenKind;

    #[test]
    fn dynamic_macros() {
        let o = run("__LINE__\n\n__LINE__ __FILE__ __COUNTER__ __COUNTER__\n__DATE__ __TIME__");
        let t: Vec<&str> = o.tokens.iter().map(|t| &*t.text).collect();
        assert_eq!(&t[..5], ["1", "3", "\"<source>\"", "0", "1"]);
        assert_eq!(t[5].len(), 13, "{}", t[5]);
        assert_eq!(t[6].len(), 10, "{}", t[6]);
        assert_eq!(o.tokens[6].kind, TokenKind::StringLiteral);
        // `__LINE__` in a macro body is the line of the use.
        expands_to("#define L __LINE__\n\nL", "3");
    }
}
