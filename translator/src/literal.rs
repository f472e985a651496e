//! Numeric and character literals: their values and types (C99 6.4.4 with
//! OpenCL C's `h` suffix and 64-bit `long`), and the two's-complement helpers
//! that keep constants exact across conversions.

use crate::types::Scalar;

/// A malformed literal: what is wrong and where, as a byte offset into the
/// literal's spelling (clang points at the offending suffix or digit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiteralError {
    pub offset: u32,
    pub message: String,
}

impl LiteralError {
    fn at(offset: usize, message: String) -> Self {
        LiteralError {
            offset: offset as u32,
            message,
        }
    }
}

/// An integer literal's value and type: the first of the C99 6.4.4.1 list
/// that can represent it (decimal: signed types only, unless suffixed `u`).
pub fn parse_int(text: &str) -> Result<(u64, Scalar), LiteralError> {
    if let Some(value) = small_decimal(text) {
        return Ok((value, Scalar::Int));
    }
    let lower = text.to_ascii_lowercase();
    let (radix, prefix) = if lower.starts_with("0x") {
        (16, 2)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, 1)
    } else {
        (10, 0)
    };
    // Digits run to the first character no radix-16 number could use, so
    // that `09` is a bad octal digit rather than a suffix.
    let digits_end = prefix
        + lower[prefix..]
            .bytes()
            .take_while(|b| {
                if radix == 16 {
                    b.is_ascii_hexdigit()
                } else {
                    b.is_ascii_digit()
                }
            })
            .count();
    let (digits, suffix) = (&lower[prefix..digits_end], &lower[digits_end..]);
    if !matches!(suffix, "" | "u" | "l" | "ul" | "lu" | "ll" | "ull" | "llu") {
        return Err(LiteralError::at(
            digits_end,
            format!(
                "invalid suffix '{}' on integer constant",
                &text[digits_end..]
            ),
        ));
    }
    let unsigned = suffix.contains('u');
    let long = suffix.contains('l');
    if radix == 8 {
        if let Some(bad) = digits.bytes().position(|b| b > b'7') {
            return Err(LiteralError::at(
                prefix + bad,
                format!(
                    "invalid digit '{}' in octal constant",
                    digits.as_bytes()[bad] as char
                ),
            ));
        }
    }
    if digits.is_empty() && radix == 16 {
        return Err(LiteralError::at(
            0,
            format!("invalid integer constant '{text}'"),
        ));
    }
    let value = if digits.is_empty() {
        0
    } else {
        u64::from_str_radix(digits, radix).map_err(|_| {
            LiteralError::at(
                0,
                format!(
                    "integer literal '{text}' is too large to be represented in any integer type"
                ),
            )
        })?
    };
    let fits = |s: Scalar| match s {
        Scalar::Int => value <= i32::MAX as u64,
        Scalar::UInt => value <= u32::MAX as u64,
        Scalar::Long => value <= i64::MAX as u64,
        _ => true,
    };
    let candidates: &[Scalar] = match (unsigned, long, radix == 10) {
        (false, false, true) => &[Scalar::Int, Scalar::Long, Scalar::ULong],
        (false, false, false) => &[Scalar::Int, Scalar::UInt, Scalar::Long, Scalar::ULong],
        (true, false, _) => &[Scalar::UInt, Scalar::ULong],
        (false, true, _) => &[Scalar::Long, Scalar::ULong],
        (true, true, _) => &[Scalar::ULong],
    };
    let ty = candidates
        .iter()
        .copied()
        .find(|&s| fits(s))
        .unwrap_or(Scalar::ULong);
    Ok((value, ty))
}

/// The value of a plain decimal literal of at most 9 digits (no leading
/// zero, no suffix): nearly every literal of a kernel, always an `int`, and
/// worth a path that allocates nothing.
fn small_decimal(text: &str) -> Option<u64> {
    let b = text.as_bytes();
    if b.is_empty() || b.len() > 9 || (b[0] == b'0' && b.len() > 1) {
        return None;
    }
    b.iter().try_fold(0u64, |v, &c| {
        c.is_ascii_digit().then(|| v * 10 + u64::from(c - b'0'))
    })
}

/// A floating literal's value and type: `f` float, `h` half, no suffix
/// double, or float when the device has no doubles (OpenCL C 6.1.1.1).
pub fn parse_float(text: &str, has_double: bool) -> Result<(f64, Scalar), LiteralError> {
    let lower = text.to_ascii_lowercase();
    let is_hex = lower.starts_with("0x");
    // The numeric part: mantissa digits and '.', then an exponent.
    let b = lower.as_bytes();
    let mut end = if is_hex { 2 } else { 0 };
    while end < b.len()
        && (b[end] == b'.'
            || if is_hex {
                b[end].is_ascii_hexdigit()
            } else {
                b[end].is_ascii_digit()
            })
    {
        end += 1;
    }
    if end < b.len() && b[end] == if is_hex { b'p' } else { b'e' } {
        end += 1;
        if end < b.len() && (b[end] == b'+' || b[end] == b'-') {
            end += 1;
        }
        while end < b.len() && b[end].is_ascii_digit() {
            end += 1;
        }
    }
    let default = if has_double {
        Scalar::Double
    } else {
        Scalar::Float
    };
    let ty = match &lower[end..] {
        "" | "l" => default,
        "f" => Scalar::Float,
        "h" => Scalar::Half,
        _ => {
            return Err(LiteralError::at(
                end,
                format!("invalid suffix '{}' on floating constant", &text[end..]),
            ))
        }
    };
    let body = &lower[..end];
    let value = if is_hex {
        parse_hex_float(&body[2..])
    } else {
        body.parse::<f64>().ok()
    }
    .ok_or_else(|| LiteralError::at(0, format!("invalid floating constant '{text}'")))?;
    Ok((value, ty))
}

/// `1.8p3` style (after `0x`): mantissa in hex, binary exponent.
fn parse_hex_float(body: &str) -> Option<f64> {
    let (mantissa, exponent) = body.split_once('p')?;
    let exponent: i32 = exponent.parse().ok()?;
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int_part.is_empty() && frac_part.is_empty() {
        return None;
    }
    let mut value = 0f64;
    for c in int_part.chars() {
        value = value * 16.0 + c.to_digit(16)? as f64;
    }
    let mut scale = 1.0 / 16.0;
    for c in frac_part.chars() {
        value += c.to_digit(16)? as f64 * scale;
        scale /= 16.0;
    }
    Some(value * 2f64.powi(exponent))
}

/// The bytes of a character or string literal's body, escapes resolved
/// (C99 6.4.4.4): simple escapes, octal (up to three digits) and hex.
fn unescape(body: &str, literal: &str) -> Result<Vec<u8>, LiteralError> {
    let bytes = body.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        let Some(&e) = bytes.get(i + 1) else {
            return Err(LiteralError::at(
                0,
                format!("unterminated escape sequence in {literal}"),
            ));
        };
        i += 2;
        let simple = match e {
            b'n' => Some(b'\n'),
            b't' => Some(b'\t'),
            b'r' => Some(b'\r'),
            b'a' => Some(7),
            b'b' => Some(8),
            b'f' => Some(12),
            b'v' => Some(11),
            b'\\' | b'\'' | b'"' | b'?' => Some(e),
            _ => None,
        };
        if let Some(b) = simple {
            out.push(b);
        } else if e == b'x' {
            let digits = bytes[i..]
                .iter()
                .take_while(|b| b.is_ascii_hexdigit())
                .count();
            let text = std::str::from_utf8(&bytes[i..i + digits]).unwrap_or("");
            let v = u32::from_str_radix(text, 16).map_err(|_| {
                LiteralError::at(
                    0,
                    format!("\\x used with no following hex digits in {literal}"),
                )
            })?;
            out.push(v as u8);
            i += digits;
        } else if (b'0'..=b'7').contains(&e) {
            let mut v = u32::from(e - b'0');
            let mut n = 1;
            while n < 3 && i < bytes.len() && (b'0'..=b'7').contains(&bytes[i]) {
                v = v * 8 + u32::from(bytes[i] - b'0');
                i += 1;
                n += 1;
            }
            out.push(v as u8);
        } else {
            return Err(LiteralError::at(
                0,
                format!("unknown escape sequence '\\{}' in {literal}", e as char),
            ));
        }
    }
    Ok(out)
}

/// A character constant's value (`'a'`, `'\n'`, `'\x41'`, `'\101'`), as
/// an `int` holding a signed `char`.
pub fn parse_char(text: &str) -> Result<i32, LiteralError> {
    let inner = text
        .strip_prefix('\'')
        .and_then(|t| t.strip_suffix('\''))
        .ok_or_else(|| LiteralError::at(0, format!("invalid character constant {text}")))?;
    match unescape(inner, text)?.as_slice() {
        [b] if b.is_ascii() || inner.starts_with('\\') => Ok(*b as i8 as i32),
        _ => Err(LiteralError::at(
            0,
            format!("character constant {text} must be one ASCII character"),
        )),
    }
}

/// A string literal's bytes, without quotes or the terminating zero.
pub fn parse_string(text: &str) -> Result<Vec<u8>, LiteralError> {
    let inner = text
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .ok_or_else(|| LiteralError::at(0, format!("invalid string literal {text}")))?;
    unescape(inner, text)
}

/// The value of `bits` read as type `s` (two's complement, sign-extended).
pub fn sign_extend(bits: u64, s: Scalar) -> i64 {
    let width = s.size() * 8;
    if width >= 64 {
        return bits as i64;
    }
    let shift = 64 - width;
    if s.is_signed() {
        ((bits << shift) as i64) >> shift
    } else {
        (bits & ((1u64 << width) - 1)) as i64
    }
}

/// `value` converted to integer type `s` (modular), as bits.
pub fn wrap(value: i64, s: Scalar) -> u64 {
    if s == Scalar::Bool {
        return (value != 0) as u64;
    }
    let width = s.size() * 8;
    if width >= 64 {
        value as u64
    } else {
        value as u64 & ((1u64 << width) - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_literal_types() {
        assert_eq!(parse_int("42"), Ok((42, Scalar::Int)));
        assert_eq!(parse_int("0xFFFFFFFF"), Ok((0xFFFF_FFFF, Scalar::UInt)));
        assert_eq!(parse_int("4294967295"), Ok((4294967295, Scalar::Long)));
        assert_eq!(parse_int("10u"), Ok((10, Scalar::UInt)));
        assert_eq!(parse_int("010"), Ok((8, Scalar::Int)));
        assert_eq!(parse_int("1UL"), Ok((1, Scalar::ULong)));
        assert!(parse_int("0x").is_err());
        assert_eq!(
            parse_int("08").unwrap_err().message,
            "invalid digit '8' in octal constant"
        );
        let e = parse_int("10uu").unwrap_err();
        assert_eq!(
            (e.offset, e.message.as_str()),
            (2, "invalid suffix 'uu' on integer constant")
        );
        let e = parse_float("1.5fl", true).unwrap_err();
        assert_eq!(
            (e.offset, e.message.as_str()),
            (3, "invalid suffix 'fl' on floating constant")
        );
    }

    #[test]
    fn float_literals() {
        assert_eq!(parse_float("1.5f", true), Ok((1.5, Scalar::Float)));
        assert_eq!(parse_float("2.0", true), Ok((2.0, Scalar::Double)));
        assert_eq!(parse_float("2.0", false), Ok((2.0, Scalar::Float)));
        assert_eq!(parse_float("0x1.8p1f", false), Ok((3.0, Scalar::Float)));
        assert_eq!(parse_float("1e3", true), Ok((1000.0, Scalar::Double)));
    }

    #[test]
    fn chars_and_wrapping() {
        assert_eq!(parse_char("'a'"), Ok(97));
        assert_eq!(parse_char("'\\n'"), Ok(10));
        assert_eq!(parse_char("'\\xff'"), Ok(-1));
        assert_eq!(parse_char("'\\101'"), Ok(65));
        assert_eq!(parse_string("\"a\\tb\\0\\x41\""), Ok(b"a\tb\0A".to_vec()));
        assert_eq!(sign_extend(0xFFFF_FFFF, Scalar::Int), -1);
        assert_eq!(wrap(-1, Scalar::UChar), 255);
    }
}
