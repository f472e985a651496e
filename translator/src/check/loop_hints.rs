//! Loop unrolling hints: `#pragma unroll`, `#pragma unroll N`,
//! `#pragma nounroll` and `__attribute__((opencl_unroll_hint[(N)]))`,
//! carried to the loop statement that follows them, where `unroll` reads
//! them. A hint before anything but a loop is dropped with no diagnostic
//! (clang rejects it; kernels written for other compilers put such pragmas
//! where those accept them).

use super::attributes::attribute_name;
use super::Checker;
use crate::ast;
use crate::hir::UnrollHint;

/// The hint a pragma's text asks for, or `None` for another pragma. A
/// count that is no integer literal (a macro the preprocessor already
/// expanded to one is fine) asks for nothing.
pub(super) fn pragma_hint(text: &str) -> Option<UnrollHint> {
    let mut words = text.split_whitespace();
    match words.next()? {
        "nounroll" => Some(UnrollHint::Never),
        "unroll" => {
            // `unroll 4`, `unroll (4)` and `unroll(4)` all arrive here as
            // words the preprocessor spaced.
            let count: String = words.filter(|w| !matches!(*w, "(" | ")")).collect();
            if count.is_empty() {
                return Some(UnrollHint::Full);
            }
            Some(match crate::literal::parse_int(&count) {
                Ok((n, _)) => count_hint(n),
                Err(_) => UnrollHint::Unspecified,
            })
        }
        _ => None,
    }
}

/// The hint of an unroll count: one copy keeps the loop, and zero is no
/// count at all (clang rejects it).
fn count_hint(n: u64) -> UnrollHint {
    match n {
        0 => UnrollHint::Unspecified,
        1 => UnrollHint::Never,
        n => UnrollHint::Count(u32::try_from(n).unwrap_or(u32::MAX)),
    }
}

impl Checker<'_> {
    /// Notes `opencl_unroll_hint` among a statement's attributes for the
    /// loop they are written on.
    pub(super) fn note_unroll_attribute(&mut self, attributes: &[ast::Attribute]) {
        for a in attributes {
            let written = self.spelling(a.name);
            if attribute_name(&written) != "opencl_unroll_hint" {
                continue;
            }
            self.loop_hint = match a.args.first() {
                None => UnrollHint::Full,
                Some(e) => match self.const_int(e) {
                    Some(n) if n >= 0 => count_hint(u64::try_from(n).unwrap_or(u64::MAX)),
                    _ => UnrollHint::Unspecified,
                },
            };
        }
    }

    /// The hint written just before the statement being checked, which
    /// no later statement sees.
    pub(super) fn take_loop_hint(&mut self) -> UnrollHint {
        std::mem::take(&mut self.loop_hint)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pragmas_read_as_hints() {
        assert_eq!(pragma_hint("unroll"), Some(UnrollHint::Full));
        assert_eq!(pragma_hint("unroll 4"), Some(UnrollHint::Count(4)));
        assert_eq!(pragma_hint("unroll ( 8 )"), Some(UnrollHint::Count(8)));
        assert_eq!(pragma_hint("unroll 1"), Some(UnrollHint::Never));
        assert_eq!(pragma_hint("unroll 0x10u"), Some(UnrollHint::Count(16)));
        assert_eq!(pragma_hint("unroll N"), Some(UnrollHint::Unspecified));
        assert_eq!(pragma_hint("nounroll"), Some(UnrollHint::Never));
        assert_eq!(pragma_hint("OPENCL FP_CONTRACT OFF"), None);
    }
}
