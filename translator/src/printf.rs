//! `printf` formats (OpenCL C 6.15.14): the format string parsed into
//! literal text and conversion specifications, and how each argument
//! travels from the kernel to the host.
//!
//! A kernel appends one record per `printf` call to a buffer: the call's
//! format index, then each argument as 32-bit words laid out by its
//! [`PrintfValue`]. The runtime formats the records on the host when the
//! launch completes, with the same [`FormatPiece`]s, so the kernel never
//! formats text and the two sides cannot disagree about the layout.

use std::fmt;

/// One part of a format string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatPiece {
    /// Text printed as is (`%%` already turned into `%`).
    Text(String),
    Conversion(Conversion),
}

/// `%[flags][width][.precision][vn][length]conversion`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Conversion {
    /// Any of `-+ #0`, as written.
    pub flags: String,
    pub width: Option<u32>,
    pub precision: Option<u32>,
    /// `vn`: the argument is an n-element vector, printed comma-separated.
    pub vector: Option<u8>,
    pub length: Length,
    /// One of `diouxXfFeEgGaAcsp`.
    pub conversion: char,
}

/// The length modifier: the size of the integer (or, for vectors, of
/// each element) the conversion reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Length {
    #[default]
    Default,
    /// `hh`: char.
    Char,
    /// `h`: short (or half, for vectors).
    Short,
    /// `hl`: int or float, only with a vector specifier.
    Int,
    /// `l`: long or double.
    Long,
}

/// How one scalar (or vector element) argument is carried: its kind
/// decides the number of 32-bit words (1, or 2 for 64-bit values, low word
/// first) and how the host reads them back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrintfScalar {
    /// Sign-extended to 32 bits (char, short, int).
    Int32,
    /// Zero-extended to 32 bits (uchar, ushort, uint, bool).
    UInt32,
    Int64,
    UInt64,
    Float32,
    Float64,
    /// `%s` of one of several strings known at compile time, chosen at run
    /// time (`c ? "yes" : "no"`): one word, an index into
    /// [`PrintfFormat::strings`].
    StringIndex,
    /// `%s` of a string read at run time: one word counting its bytes (at
    /// most [`MAX_STRING_BYTES`]), then the bytes, four to a word in
    /// little-endian order, in as many more words as they need.
    StringBytes,
}

/// The most bytes of a string read at run time that `%s` prints: a string
/// not terminated within them is cut there. It bounds the kernel's loop
/// and the record; a record that does not fit the rest of the buffer is
/// dropped whole, as any other.
pub const MAX_STRING_BYTES: u32 = 1024;

/// Words holding `bytes` bytes of a string read at run time.
pub fn string_words(bytes: u32) -> u32 {
    bytes.div_ceil(4)
}

impl PrintfScalar {
    pub fn words(self) -> usize {
        match self {
            PrintfScalar::Int64 | PrintfScalar::UInt64 | PrintfScalar::Float64 => 2,
            _ => 1,
        }
    }
}

/// One argument: its element kind and its number of elements (1 for a
/// scalar).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrintfValue {
    pub scalar: PrintfScalar,
    pub lanes: u8,
}

impl PrintfValue {
    pub fn words(self) -> usize {
        self.scalar.words() * usize::from(self.lanes)
    }
}

/// One `printf` call site of a program: its parsed format (with `%s` of
/// a string known at compile time already spliced in) and what each
/// remaining argument is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PrintfFormat {
    pub pieces: Vec<FormatPiece>,
    pub args: Vec<PrintfValue>,
    /// The strings a [`PrintfScalar::StringIndex`] argument chooses from.
    pub strings: Vec<String>,
}

impl PrintfFormat {
    /// 32-bit words of one record that are known at compile time: the
    /// format index, then the arguments, less the bytes of strings read at
    /// run time (see [`PrintfFormat::record_len`]).
    pub fn record_words(&self) -> usize {
        1 + self.args.iter().map(|a| a.words()).sum::<usize>()
    }

    /// The words of a record whose arguments start at `args` (the words
    /// after the format index): [`PrintfFormat::record_words`] plus the
    /// bytes of its run-time strings, or `None` where they run past the
    /// end of `args`.
    pub fn record_len(&self, args: &[u32]) -> Option<usize> {
        let mut at = 0;
        for arg in &self.args {
            if arg.scalar == PrintfScalar::StringBytes {
                let bytes = (*args.get(at)?).min(MAX_STRING_BYTES);
                at += string_words(bytes) as usize;
            }
            at += arg.words();
        }
        (at <= args.len()).then_some(1 + at)
    }
}

/// A string for `%s`, with its width, precision and `-` flag applied.
pub fn pad_string(s: &str, conversion: &Conversion) -> String {
    let s: String = match conversion.precision {
        Some(p) => s.chars().take(p as usize).collect(),
        None => s.to_string(),
    };
    let width = conversion.width.unwrap_or(0) as usize;
    let pad = width.saturating_sub(s.chars().count());
    if conversion.flags.contains('-') {
        format!("{s}{}", " ".repeat(pad))
    } else {
        format!("{}{s}", " ".repeat(pad))
    }
}

/// Why a format string is invalid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError(pub String);

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

const CONVERSIONS: &str = "diouxXfFeEgGaAcsp";

/// Parses a format string per OpenCL C 6.15.14.2.
pub fn parse_format(format: &str) -> Result<Vec<FormatPiece>, FormatError> {
    let mut pieces = Vec::new();
    let mut text = String::new();
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            text.push(c);
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            text.push('%');
            continue;
        }
        let mut spec = Conversion::default();
        while let Some(&f) = chars.peek() {
            if !"-+ #0".contains(f) {
                break;
            }
            spec.flags.push(f);
            chars.next();
        }
        spec.width = number(&mut chars);
        if chars.peek() == Some(&'.') {
            chars.next();
            spec.precision = Some(number(&mut chars).unwrap_or(0));
        }
        if chars.peek() == Some(&'v') {
            chars.next();
            let n = number(&mut chars);
            match n {
                Some(n @ (2 | 3 | 4 | 8 | 16)) => spec.vector = Some(n as u8),
                _ => {
                    return Err(FormatError(
                        "invalid vector size in printf format: 2, 3, 4, 8 or 16".into(),
                    ))
                }
            }
        }
        spec.length = match chars.peek() {
            Some('h') => {
                chars.next();
                match chars.peek() {
                    Some('h') => {
                        chars.next();
                        Length::Char
                    }
                    Some('l') => {
                        chars.next();
                        Length::Int
                    }
                    _ => Length::Short,
                }
            }
            Some('l') => {
                chars.next();
                Length::Long
            }
            _ => Length::Default,
        };
        if spec.length == Length::Int && spec.vector.is_none() {
            return Err(FormatError(
                "the 'hl' length modifier in printf is only valid with a vector specifier".into(),
            ));
        }
        spec.conversion = match chars.next() {
            Some(c) if CONVERSIONS.contains(c) => c,
            Some(c) => {
                return Err(FormatError(format!(
                    "invalid conversion specifier '{c}' in printf format"
                )))
            }
            None => return Err(FormatError("incomplete conversion in printf format".into())),
        };
        if spec.vector.is_some() && "csp".contains(spec.conversion) {
            return Err(FormatError(format!(
                "'%{}' cannot print a vector",
                spec.conversion
            )));
        }
        if !text.is_empty() {
            pieces.push(FormatPiece::Text(std::mem::take(&mut text)));
        }
        pieces.push(FormatPiece::Conversion(spec));
    }
    if !text.is_empty() {
        pieces.push(FormatPiece::Text(text));
    }
    Ok(pieces)
}

fn number(chars: &mut std::iter::Peekable<std::str::Chars>) -> Option<u32> {
    let mut value: Option<u32> = None;
    while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
        chars.next();
        value = Some(value.unwrap_or(0).saturating_mul(10).saturating_add(d));
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conversion(p: &FormatPiece) -> &Conversion {
        match p {
            FormatPiece::Conversion(c) => c,
            FormatPiece::Text(t) => panic!("text {t:?}"),
        }
    }

    #[test]
    fn pieces_flags_width_precision_vectors_lengths() {
        let pieces = parse_format("a %% b%-08.3f|%v4hlf|%lu%hhx%#5.0e%s").expect("valid");
        assert_eq!(pieces[0], FormatPiece::Text("a % b".into()));
        let f = conversion(&pieces[1]);
        assert_eq!(
            (f.flags.as_str(), f.width, f.precision, f.conversion),
            ("-0", Some(8), Some(3), 'f')
        );
        let v = conversion(&pieces[3]);
        assert_eq!(
            (v.vector, v.length, v.conversion),
            (Some(4), Length::Int, 'f')
        );
        assert_eq!(conversion(&pieces[5]).length, Length::Long);
        assert_eq!(conversion(&pieces[6]).length, Length::Char);
        let e = conversion(&pieces[7]);
        assert_eq!((e.flags.as_str(), e.precision), ("#", Some(0)));
        assert_eq!(conversion(&pieces[8]).conversion, 's');
    }

    #[test]
    fn invalid_formats_are_errors() {
        for bad in ["%", "%y", "%v5f", "%hlf", "%v4s", "%5.2"] {
            assert!(parse_format(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn record_lengths_count_run_time_string_bytes() {
        let value = |scalar| PrintfValue { scalar, lanes: 1 };
        let format = PrintfFormat {
            pieces: parse_format("%s %s %ld").expect("valid"),
            args: vec![
                value(PrintfScalar::StringBytes),
                value(PrintfScalar::StringIndex),
                value(PrintfScalar::Int64),
            ],
            strings: vec!["a".into()],
        };
        // index; count 5 + 2 words; string index; two words.
        assert_eq!(format.record_words(), 1 + 1 + 1 + 2);
        assert_eq!(format.record_len(&[5, 0, 0, 0, 1, 2]), Some(7));
        assert_eq!(format.record_len(&[0, 0, 1, 2]), Some(5));
        // Its bytes run past the end.
        assert_eq!(format.record_len(&[9, 0, 0, 0, 0]), None);
        // A count beyond the bound reads as the bound.
        let bound = string_words(MAX_STRING_BYTES) as usize;
        let mut long = vec![u32::MAX];
        long.resize(1 + bound + 3, 0);
        assert_eq!(format.record_len(&long), Some(1 + long.len()));
    }
}
