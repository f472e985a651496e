//! Numeric and character literals: their values and types (C99 6.4.4 with
//! OpenCL C's `h` suffix and 64-bit `long`), and the two's-complement helpers
//! that keep constants exact across conversions.

use crate::types::Scalar;

/// An integer literal's value and type: the first of the C99 6.4.4.1 list
/// that can represent it (decimal: signed types only, unless suffixed `u`).
pub fn parse_int(text: &str) -> Result<(u64, Scalar), String> {
    let lower = text.to_ascii_lowercase();
    let digits_end = lower.trim_end_matches(['u', 'l']).len();
    let (digits, suffix) = lower.split_at(digits_end);
    let unsigned = suffix.contains('u');
    let long = suffix.contains('l');
    if suffix.len() > 3 || suffix.matches('u').count() > 1 {
        return Err(format!(
            "invalid suffix '{}' on integer constant",
            &text[digits_end..]
        ));
    }
    let (radix, body) = if let Some(hex) = digits.strip_prefix("0x") {
        (16, hex)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (10, digits)
    };
    let value = u64::from_str_radix(body, radix).map_err(|_| {
        if body.is_empty() || body.chars().any(|c| !c.is_digit(radix)) {
            format!("invalid digit in integer constant '{text}'")
        } else {
            format!("integer literal '{text}' is too large to be represented in any integer type")
        }
    })?;
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
        (false, true, true) => &[Scalar::Long, Scalar::ULong],
        (false, true, false) => &[Scalar::Long, Scalar::ULong],
        (true, true, _) => &[Scalar::ULong],
    };
    let ty = candidates
        .iter()
        .copied()
        .find(|&s| fits(s))
        .unwrap_or(Scalar::ULong);
    Ok((value, ty))
}

/// A floating literal's value and type: `f` float, `h` half, no suffix
/// double, or float when the device has no doubles (OpenCL C 6.1.1.1).
pub fn parse_float(text: &str, has_double: bool) -> Result<(f64, Scalar), String> {
    let lower = text.to_ascii_lowercase();
    let is_hex = lower.starts_with("0x");
    let (body, ty) = if let Some(b) = lower
        .strip_suffix('f')
        .filter(|_| !is_hex || lower.contains('p'))
    {
        (b, Scalar::Float)
    } else if let Some(b) = lower.strip_suffix('h') {
        (b, Scalar::Half)
    } else if let Some(b) = lower.strip_suffix('l') {
        (
            b,
            if has_double {
                Scalar::Double
            } else {
                Scalar::Float
            },
        )
    } else {
        (
            lower.as_str(),
            if has_double {
                Scalar::Double
            } else {
                Scalar::Float
            },
        )
    };
    let value = if is_hex {
        parse_hex_float(&body[2..])
    } else {
        body.parse::<f64>().ok()
    }
    .ok_or_else(|| format!("invalid floating constant '{text}'"))?;
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

/// A character constant's value (`'a'`, `'\n'`, `'\x41'`, `'\101'`), as
/// an `int` holding a signed `char`.
pub fn parse_char(text: &str) -> Result<i32, String> {
    let inner = text
        .strip_prefix('\'')
        .and_then(|t| t.strip_suffix('\''))
        .ok_or_else(|| format!("invalid character constant {text}"))?;
    let mut chars = inner.chars();
    let value = match chars.next() {
        Some('\\') => {
            let rest: String = chars.collect();
            let v = match rest.as_str() {
                "n" => 10,
                "t" => 9,
                "r" => 13,
                "0" => 0,
                "a" => 7,
                "b" => 8,
                "f" => 12,
                "v" => 11,
                "\\" => 92,
                "'" => 39,
                "\"" => 34,
                "?" => 63,
                r if r.starts_with('x') => u32::from_str_radix(&r[1..], 16)
                    .map_err(|_| format!("invalid escape in {text}"))?,
                r => u32::from_str_radix(r, 8)
                    .map_err(|_| format!("unknown escape sequence in {text}"))?,
            };
            return Ok(v as u8 as i8 as i32);
        }
        Some(c) if chars.next().is_none() && c.is_ascii() => c as u32,
        _ => {
            return Err(format!(
                "character constant {text} must be one ASCII character"
            ))
        }
    };
    Ok(value as u8 as i8 as i32)
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
        assert!(parse_int("08").is_err());
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
        assert_eq!(sign_extend(0xFFFF_FFFF, Scalar::Int), -1);
        assert_eq!(wrap(-1, Scalar::UChar), 255);
    }
}
