//! `printf` output: the buffer a launch of a kernel with `printf` calls
//! binds, and the host side that turns its records into text when the
//! launch completes (`translator::printf` describes the records).
//!
//! The formatting follows C's `printf` for every conversion OpenCL C
//! allows, so the output reads as it does on other implementations.

use std::io::Write;
use std::sync::Arc;

use translator::printf::{
    pad_string, string_words, Conversion, FormatPiece, Length, PrintfFormat, PrintfScalar,
    MAX_STRING_BYTES,
};

use crate::core::buffer_pool::Lease;
use crate::core::device::Device;
use crate::core::error::VkResultExt;
use crate::core::event::HostCompletion;
use crate::core::CLResult;
use crate::vulkan::{self, Placement};

/// `CL_DEVICE_PRINTF_BUFFER_SIZE`: the full profile's minimum.
pub const PRINTF_BUFFER_BYTES: usize = 1 << 20;

/// A printf buffer for one launch, recycled, its counter zeroed, and the
/// completion that prints what the launch wrote.
pub fn printf_buffer(
    device: &Device,
    formats: Vec<PrintfFormat>,
) -> CLResult<(Arc<Lease>, HostCompletion)> {
    // Host-visible: the GPU's writes reach it directly, and the host reads
    // it once when the launch completes.
    let buffer = device.lease(Placement::Readback, PRINTF_BUFFER_BYTES as u64)?;
    buffer.buffer().write(0, &[0; 4]).or_out_of_resources()?;
    let records = buffer.clone();
    let print: HostCompletion = Box::new(move || {
        let text = render(&claimed_words(records.buffer())?, &formats);
        if !text.is_empty() {
            let mut stdout = std::io::stdout().lock();
            // Output is best effort: a closed stdout must not fail the launch.
            let _ = stdout.write_all(text.as_bytes());
            let _ = stdout.flush();
        }
        Ok(())
    });
    Ok((buffer, print))
}

/// The counter and the words the launch claimed after it: only what was
/// written is read, not the whole megabyte.
fn claimed_words(buffer: &vulkan::Buffer) -> CLResult<Vec<u32>> {
    let mut counter = [0u8; 4];
    buffer.read(0, &mut counter).or_out_of_resources()?;
    let claimed = u32::from_le_bytes(counter) as usize;
    let words = (1 + claimed).min(PRINTF_BUFFER_BYTES / 4);
    let mut bytes = vec![0u8; words * 4];
    buffer.read(0, &mut bytes).or_out_of_resources()?;
    Ok(bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect())
}

/// The text of the records in `words` (the whole buffer: the counter, then
/// the records).
pub fn render(words: &[u32], formats: &[PrintfFormat]) -> String {
    let claimed = words.first().map_or(0, |&n| n as usize);
    let records = &words[1..(1 + claimed).min(words.len())];
    let mut out = String::new();
    let mut at = 0;
    while let Some(&index) = records.get(at) {
        let Some(format) = formats.get(index as usize) else {
            break;
        };
        let Some(len) = format.record_len(&records[at + 1..]) else {
            // Claimed, but past the end of the buffer: dropped.
            break;
        };
        let end = at + len;
        let record = &records[at + 1..end];
        format_record(&mut out, format, record);
        at = end;
    }
    out
}

/// A decoded argument element.
#[derive(Clone, Copy, Debug)]
enum Value {
    Int(i64),
    UInt(u64),
    Float(f64),
}

impl Value {
    fn read(scalar: PrintfScalar, words: &[u32]) -> Value {
        let wide = || u64::from(words[0]) | u64::from(words[1]) << 32;
        match scalar {
            PrintfScalar::Int32 => Value::Int(i64::from(words[0] as i32)),
            PrintfScalar::UInt32 => Value::UInt(u64::from(words[0])),
            PrintfScalar::Int64 => Value::Int(wide() as i64),
            PrintfScalar::UInt64 => Value::UInt(wide()),
            PrintfScalar::Float32 => Value::Float(f64::from(f32::from_bits(words[0]))),
            PrintfScalar::Float64 => Value::Float(f64::from_bits(wide())),
            // Read by `string_argument`, never here.
            PrintfScalar::StringIndex | PrintfScalar::StringBytes => Value::UInt(0),
        }
    }

    fn as_i64(self) -> i64 {
        match self {
            Value::Int(v) => v,
            Value::UInt(v) => v as i64,
            Value::Float(v) => v as i64,
        }
    }

    fn as_f64(self) -> f64 {
        match self {
            Value::Int(v) => v as f64,
            Value::UInt(v) => v as f64,
            Value::Float(v) => v,
        }
    }
}

fn format_record(out: &mut String, format: &PrintfFormat, mut words: &[u32]) {
    let mut args = format.args.iter();
    for piece in &format.pieces {
        match piece {
            FormatPiece::Text(text) => out.push_str(text),
            FormatPiece::Conversion(conversion) => {
                let Some(arg) = args.next() else {
                    return;
                };
                if let Some((text, used)) = string_argument(format, arg.scalar, words) {
                    out.push_str(&pad_string(&text, conversion));
                    words = &words[used.min(words.len())..];
                    continue;
                }
                let (value, rest) = words.split_at(arg.words().min(words.len()));
                words = rest;
                let step = arg.scalar.words();
                let elements: Vec<String> = value
                    .chunks_exact(step)
                    .map(|w| format_value(conversion, Value::read(arg.scalar, w)))
                    .collect();
                out.push_str(&elements.join(","));
            }
        }
    }
}

/// The text of a `%s` argument at the start of `words` and the words it
/// takes; `None` for arguments of other kinds.
fn string_argument(
    format: &PrintfFormat,
    scalar: PrintfScalar,
    words: &[u32],
) -> Option<(String, usize)> {
    let first = words.first().copied().unwrap_or(0);
    match scalar {
        PrintfScalar::StringIndex => Some((
            format
                .strings
                .get(first as usize)
                .cloned()
                .unwrap_or_default(),
            1,
        )),
        PrintfScalar::StringBytes => {
            let count = first.min(MAX_STRING_BYTES);
            let bytes: Vec<u8> = words[1.min(words.len())..]
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .take(count as usize)
                .collect();
            Some((
                String::from_utf8_lossy(&bytes).into_owned(),
                1 + string_words(count) as usize,
            ))
        }
        _ => None,
    }
}

/// One value as `conversion` prints it.
fn format_value(c: &Conversion, value: Value) -> String {
    let flag = |f: char| c.flags.contains(f);
    match c.conversion {
        'd' | 'i' => {
            let v = truncate_signed(value.as_i64(), c.length);
            let sign = if v < 0 {
                "-"
            } else if flag('+') {
                "+"
            } else if flag(' ') {
                " "
            } else {
                ""
            };
            let digits = integer_digits(v.unsigned_abs().to_string(), c.precision);
            pad(c, sign, "", &digits, c.precision.is_none())
        }
        'u' | 'o' | 'x' | 'X' => {
            let v = truncate_unsigned(value.as_i64() as u64, c.length);
            let text = match c.conversion {
                'u' => v.to_string(),
                'o' => format!("{v:o}"),
                'x' => format!("{v:x}"),
                _ => format!("{v:X}"),
            };
            let mut digits = integer_digits(text, c.precision);
            let prefix = match c.conversion {
                'x' if flag('#') && v != 0 => "0x",
                'X' if flag('#') && v != 0 => "0X",
                'o' if flag('#') && !digits.starts_with('0') => {
                    digits.insert(0, '0');
                    ""
                }
                _ => "",
            };
            pad(c, "", prefix, &digits, c.precision.is_none())
        }
        'c' => pad(
            c,
            "",
            "",
            &char::from(value.as_i64() as u8).to_string(),
            false,
        ),
        _ => format_float(c, value.as_f64()),
    }
}

fn truncate_signed(v: i64, length: Length) -> i64 {
    match length {
        Length::Char => i64::from(v as i8),
        Length::Short => i64::from(v as i16),
        Length::Long => v,
        Length::Default | Length::Int => i64::from(v as i32),
    }
}

fn truncate_unsigned(v: u64, length: Length) -> u64 {
    match length {
        Length::Char => u64::from(v as u8),
        Length::Short => u64::from(v as u16),
        Length::Long => v,
        Length::Default | Length::Int => u64::from(v as u32),
    }
}

/// Integer digits with C's precision: at least that many, and none at all
/// for a zero with precision 0.
fn integer_digits(digits: String, precision: Option<u32>) -> String {
    match precision {
        Some(0) if digits == "0" => String::new(),
        Some(p) if digits.len() < p as usize => {
            format!("{}{digits}", "0".repeat(p as usize - digits.len()))
        }
        _ => digits,
    }
}

/// `sign`, `prefix` and `body` padded to the width: spaces on the left, on
/// the right with `-`, or zeros after the prefix with `0` where allowed.
fn pad(c: &Conversion, sign: &str, prefix: &str, body: &str, zero_allowed: bool) -> String {
    let width = c.width.unwrap_or(0) as usize;
    let len = sign.len() + prefix.len() + body.chars().count();
    let fill = width.saturating_sub(len);
    if c.flags.contains('-') {
        format!("{sign}{prefix}{body}{}", " ".repeat(fill))
    } else if c.flags.contains('0') && zero_allowed {
        format!("{sign}{prefix}{}{body}", "0".repeat(fill))
    } else {
        format!("{}{sign}{prefix}{body}", " ".repeat(fill))
    }
}

fn format_float(c: &Conversion, v: f64) -> String {
    let flag = |f: char| c.flags.contains(f);
    let upper = c.conversion.is_ascii_uppercase();
    let sign = if v.is_sign_negative() {
        "-"
    } else if flag('+') {
        "+"
    } else if flag(' ') {
        " "
    } else {
        ""
    };
    if !v.is_finite() {
        let text = if v.is_nan() { "nan" } else { "inf" };
        let text = if upper {
            text.to_uppercase()
        } else {
            text.to_owned()
        };
        return pad(c, sign, "", &text, false);
    }
    let a = v.abs();
    let alternate = flag('#');
    let (prefix, body) = match c.conversion.to_ascii_lowercase() {
        'f' => ("", fixed(a, c.precision.unwrap_or(6), alternate)),
        'e' => ("", scientific(a, c.precision.unwrap_or(6), alternate)),
        'g' => ("", general(a, c.precision.unwrap_or(6), alternate)),
        _ => ("0x", hexadecimal(a, c.precision)),
    };
    let (prefix, body) = if upper {
        (prefix.to_uppercase(), body.to_uppercase())
    } else {
        (prefix.to_owned(), body)
    };
    pad(c, sign, &prefix, &body, true)
}

fn fixed(a: f64, precision: u32, alternate: bool) -> String {
    let mut s = format!("{a:.*}", precision as usize);
    if alternate && precision == 0 {
        s.push('.');
    }
    s
}

/// `d.ddde±XX`: Rust's `{:e}` rounds exactly as C does; only the exponent
/// is written differently.
fn scientific(a: f64, precision: u32, alternate: bool) -> String {
    let s = format!("{a:.*e}", precision as usize);
    let (mantissa, exponent) = s.split_once('e').unwrap_or((&s, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let dot = if alternate && precision == 0 { "." } else { "" };
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{mantissa}{dot}e{sign}{:02}", exponent.unsigned_abs())
}

/// `%g`: `%e` or `%f` by the exponent, trailing zeros removed unless `#`.
fn general(a: f64, precision: u32, alternate: bool) -> String {
    let p = precision.max(1);
    let rounded = format!("{a:.*e}", (p - 1) as usize);
    let exponent: i32 = rounded
        .split_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    let mut s = if exponent < -4 || exponent >= p as i32 {
        scientific(a, p - 1, alternate)
    } else {
        fixed(a, (p as i32 - 1 - exponent) as u32, alternate)
    };
    if !alternate {
        let (number, suffix) = match s.find('e') {
            Some(i) => (s[..i].to_owned(), s[i..].to_owned()),
            None => (s.clone(), String::new()),
        };
        let number = if number.contains('.') {
            number
                .trim_end_matches('0')
                .trim_end_matches('.')
                .to_owned()
        } else {
            number
        };
        s = number + &suffix;
    }
    s
}

/// `%a` without the `0x`: `h.hhhp±d`, exact unless a precision rounds it.
fn hexadecimal(a: f64, precision: Option<u32>) -> String {
    if a == 0.0 {
        let digits = precision.map_or(String::new(), |p| "0".repeat(p as usize));
        let dot = if digits.is_empty() { "" } else { "." };
        return format!("0{dot}{digits}p+0");
    }
    let bits = a.to_bits();
    let biased = (bits >> 52) as i32;
    let (mut lead, mut fraction, exponent) = if biased == 0 {
        (0u64, bits & ((1 << 52) - 1), -1022)
    } else {
        (1u64, bits & ((1 << 52) - 1), biased - 1023)
    };
    let mut digits = 13usize;
    if let Some(p) = precision.map(|p| p as usize).filter(|&p| p < 13) {
        // Round to `p` hex digits, half to even.
        let drop = 4 * (13 - p) as u32;
        let kept = fraction >> drop;
        let rest = fraction & ((1u64 << drop) - 1);
        let half = 1u64 << (drop - 1);
        let mut rounded = kept + u64::from(rest > half || (rest == half && kept & 1 == 1));
        if rounded >> (4 * p) != 0 {
            lead += 1;
            rounded &= (1u64 << (4 * p)) - 1;
        }
        fraction = rounded;
        digits = p;
    } else if let Some(p) = precision {
        fraction <<= 4 * p.saturating_sub(13).min(3);
        digits = 13 + (p as usize - 13).min(3);
    }
    let mut hex = if digits == 0 {
        String::new()
    } else {
        format!("{fraction:0digits$x}")
    };
    if precision.is_none() {
        hex = hex.trim_end_matches('0').to_owned();
    }
    let dot = if hex.is_empty() { "" } else { "." };
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{lead}{dot}{hex}p{sign}{}", exponent.unsigned_abs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use translator::printf::{parse_format, PrintfValue};

    /// Formats one value as `spec` does.
    fn one(spec: &str, value: Value) -> String {
        let pieces = parse_format(spec).expect("valid format");
        let FormatPiece::Conversion(c) = &pieces[0] else {
            panic!("no conversion in {spec}");
        };
        format_value(c, value)
    }

    #[test]
    fn integers_as_c_prints_them() {
        let cases = [
            ("%d", Value::Int(-42), "-42"),
            ("%5d", Value::Int(42), "   42"),
            ("%-5d|", Value::Int(42), "42   "),
            ("%05d", Value::Int(-42), "-0042"),
            ("%+d", Value::Int(7), "+7"),
            ("% d", Value::Int(7), " 7"),
            ("%.3d", Value::Int(7), "007"),
            ("%.0d", Value::Int(0), ""),
            ("%u", Value::Int(-1), "4294967295"),
            ("%lu", Value::Int(-1), "18446744073709551615"),
            ("%hhd", Value::Int(300), "44"),
            ("%hu", Value::Int(-1), "65535"),
            ("%x", Value::UInt(255), "ff"),
            ("%#X", Value::UInt(255), "0XFF"),
            ("%#o", Value::UInt(8), "010"),
            ("%08.3x", Value::UInt(10), "     00a"),
            ("%c", Value::Int(65), "A"),
            ("%ld", Value::Int(i64::MIN), "-9223372036854775808"),
        ];
        for (spec, value, expected) in cases {
            assert_eq!(one(spec, value), expected, "{spec}");
        }
    }

    #[test]
    fn floats_as_c_prints_them() {
        let cases = [
            ("%f", 1.5, "1.500000"),
            ("%.2f", -2.675, "-2.67"),
            ("%8.3f", 1.23456, "   1.235"),
            ("%-8.1f|", 3.0, "3.0     "),
            ("%08.2f", -3.5, "-0003.50"),
            ("%.0f", 2.5, "2"),
            ("%#.0f", 2.0, "2."),
            ("%e", 12345.678, "1.234568e+04"),
            ("%E", 0.00012, "1.200000E-04"),
            ("%.2e", 0.0, "0.00e+00"),
            ("%g", 100000.0, "100000"),
            ("%g", 1000000.0, "1e+06"),
            ("%g", 0.0001, "0.0001"),
            ("%g", 0.00001, "1e-05"),
            ("%g", 1.5, "1.5"),
            ("%.3g", 1.23456, "1.23"),
            ("%#g", 1.5, "1.50000"),
            ("%G", 1e-10, "1E-10"),
            ("%a", 1.0, "0x1p+0"),
            ("%a", 0.5, "0x1p-1"),
            ("%a", 10.0, "0x1.4p+3"),
            ("%.2a", 1.0 / 3.0, "0x1.55p-2"),
            ("%A", 255.0, "0X1.FEP+7"),
            ("%f", f64::INFINITY, "inf"),
            ("%F", f64::NEG_INFINITY, "-INF"),
            ("%5.1f", f64::NAN, "  nan"),
            ("%+.1f", 0.0, "+0.0"),
            ("%.1f", -0.0, "-0.0"),
        ];
        for (spec, value, expected) in cases {
            assert_eq!(one(spec, Value::Float(value)), expected, "{spec}");
        }
    }

    #[test]
    fn records_in_a_buffer_with_vectors_and_a_dropped_record() {
        let format = PrintfFormat {
            strings: Vec::new(),
            pieces: parse_format("i=%d v=%v2hlf\n").expect("valid"),
            args: vec![
                PrintfValue {
                    scalar: PrintfScalar::Int32,
                    lanes: 1,
                },
                PrintfValue {
                    scalar: PrintfScalar::Float32,
                    lanes: 2,
                },
            ],
        };
        let (a, b) = (1.5f32.to_bits(), (-2.0f32).to_bits());
        // Two records of four words, and a third claimed past the end.
        let words = [12, 0, 7, a, b, 0, (-3i32) as u32, b, a];
        assert_eq!(
            render(&words, std::slice::from_ref(&format)),
            "i=7 v=1.500000,-2.000000\ni=-3 v=-2.000000,1.500000\n"
        );
    }

    #[test]
    fn string_records_chosen_read_and_dropped() {
        let format = PrintfFormat {
            pieces: parse_format("%s=%-4s|%.2s|%d\n").expect("valid"),
            args: vec![
                PrintfValue {
                    scalar: PrintfScalar::StringIndex,
                    lanes: 1,
                },
                PrintfValue {
                    scalar: PrintfScalar::StringBytes,
                    lanes: 1,
                },
                PrintfValue {
                    scalar: PrintfScalar::StringBytes,
                    lanes: 1,
                },
                PrintfValue {
                    scalar: PrintfScalar::Int32,
                    lanes: 1,
                },
            ],
            strings: vec!["no".into(), "yes".into()],
        };
        let word = |b: &[u8; 4]| u32::from_le_bytes(*b);
        let records = [
            // index, "yes"; "ab" (1 word); "hello" (2 words); 7
            0,
            1,
            2,
            word(b"ab\0\0"),
            5,
            word(b"hell"),
            word(b"o\0\0\0"),
            7,
            // index, "no"; "" (no word); "xyz"; -1
            0,
            0,
            0,
            3,
            word(b"xyz\0"),
            u32::MAX,
            // Claimed, but its second string runs past the end.
            0,
            1,
            0,
            9,
        ];
        let mut words = vec![records.len() as u32];
        words.extend(records);
        assert_eq!(
            render(&words, std::slice::from_ref(&format)),
            "yes=ab  |he|7\nno=    |xy|-1\n"
        );
    }
}
