//! The punctuators, digraphs included: the longest at a place in the text.

use crate::token::Punct;

/// The longest punctuator at the start of `s`, and its length in bytes.
/// Dispatches on the first byte: this runs for every punctuator of a source.
#[inline]
pub fn punct_at(s: &[u8]) -> Option<(Punct, usize)> {
    use Punct::*;
    let at = |i: usize| s.get(i).copied().unwrap_or(0);
    let (a, b) = (at(0), at(1));
    // `x` or, followed by `=`, `x=`.
    let or_assign = |one: Punct, assign: Punct| {
        if b == b'=' {
            (assign, 2)
        } else {
            (one, 1)
        }
    };
    Some(match a {
        b'(' => (LParen, 1),
        b')' => (RParen, 1),
        b',' => (Comma, 1),
        b';' => (Semicolon, 1),
        b'[' => (LBracket, 1),
        b']' => (RBracket, 1),
        b'{' => (LBrace, 1),
        b'}' => (RBrace, 1),
        b'~' => (Tilde, 1),
        b'?' => (Question, 1),
        b'.' => {
            if b == b'.' && at(2) == b'.' {
                (Ellipsis, 3)
            } else {
                (Dot, 1)
            }
        }
        b'=' => or_assign(Assign, EqEq),
        b'!' => or_assign(Bang, NotEq),
        b'*' => or_assign(Star, StarAssign),
        b'/' => or_assign(Slash, SlashAssign),
        b'^' => or_assign(Caret, CaretAssign),
        b'+' => match b {
            b'+' => (PlusPlus, 2),
            _ => or_assign(Plus, PlusAssign),
        },
        b'-' => match b {
            b'-' => (MinusMinus, 2),
            b'>' => (Arrow, 2),
            _ => or_assign(Minus, MinusAssign),
        },
        b'&' => match b {
            b'&' => (AmpAmp, 2),
            _ => or_assign(Amp, AmpAssign),
        },
        b'|' => match b {
            b'|' => (PipePipe, 2),
            _ => or_assign(Pipe, PipeAssign),
        },
        b'<' => match b {
            b'<' if at(2) == b'=' => (ShlAssign, 3),
            b'<' => (Shl, 2),
            b'=' => (Le, 2),
            b':' => (LBracket, 2),
            b'%' => (LBrace, 2),
            _ => (Lt, 1),
        },
        b'>' => match b {
            b'>' if at(2) == b'=' => (ShrAssign, 3),
            b'>' => (Shr, 2),
            b'=' => (Ge, 2),
            _ => (Gt, 1),
        },
        b'#' => match b {
            b'#' => (HashHash, 2),
            _ => (Hash, 1),
        },
        b':' => match b {
            b'>' => (RBracket, 2),
            _ => (Colon, 1),
        },
        b'%' => match b {
            b':' if at(2) == b'%' && at(3) == b':' => (HashHash, 4),
            b':' => (Hash, 2),
            b'>' => (RBrace, 2),
            _ => or_assign(Percent, PercentAssign),
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::punct_at;
    use crate::token::Punct;

    #[test]
    fn every_punctuator_round_trips() {
        for p in Punct::ALL {
            assert_eq!(
                punct_at(p.spelling().as_bytes()),
                Some((p, p.spelling().len())),
                "{p:?}"
            );
        }
    }
}
