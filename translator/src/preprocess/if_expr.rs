//! The constant expressions of `#if` and `#elif`, once macro-expanded:
//! C99 6.10.1 integer arithmetic in `intmax_t` and `uintmax_t`, with
//! short-circuiting, and the values of integer and character constants.

use super::PpTok;
use crate::diagnostic::{Diagnostics, Location};
use crate::lexer::Interner;
use crate::token::{Punct, TokenKind};

/// Parenthesis / `?:` nesting in `#if` expressions (recursion bound).
const MAX_EXPR_DEPTH: u32 = 256;

/// The truth of the `#if` expression `toks` (macro-expanded, `defined`
/// done), whose line ends at `end`; `None` when it is malformed or cannot
/// be evaluated (reported). In C++ (`cxx`), `true` is 1 (C++17 [cpp.cond]).
pub(super) fn evaluate(
    toks: &[PpTok],
    end: Location,
    diags: &mut Diagnostics,
    interner: &Interner,
    cxx: bool,
) -> Option<bool> {
    let mut e = Eval {
        toks,
        pos: 0,
        depth: 0,
        end,
        diags,
        interner,
        cxx,
    };
    let v = e.expr(true).ok()?;
    if let Some(t) = toks.get(e.pos) {
        let message = if t.is_punct(Punct::RParen) {
            "unexpected ')' in preprocessor expression"
        } else if t.is_punct(Punct::Colon) {
            "unexpected ':' in preprocessor expression"
        } else {
            "token is not a valid binary operator in a preprocessor subexpression"
        };
        e.diags.error(t.location, message);
        return None;
    }
    Some(v.truth())
}

/// An `intmax_t` or `uintmax_t` value (C99 6.10.1p4).
#[derive(Clone, Copy, Debug)]
struct Value {
    bits: u64,
    unsigned: bool,
}

impl Value {
    fn signed(v: i64) -> Self {
        Value {
            bits: v as u64,
            unsigned: false,
        }
    }

    fn from_bool(b: bool) -> Self {
        Value::signed(i64::from(b))
    }

    fn truth(self) -> bool {
        self.bits != 0
    }
}

struct Eval<'t, 'd> {
    toks: &'t [PpTok],
    pos: usize,
    depth: u32,
    /// Where "expected value" points when the line runs out.
    end: Location,
    diags: &'d mut Diagnostics,
    interner: &'d Interner,
    cxx: bool,
}

impl Eval<'_, '_> {
    fn fail<T>(&mut self, at: Location, message: impl Into<String>) -> Result<T, ()> {
        self.diags.error(at, message);
        Err(())
    }

    fn peek_punct(&self) -> Option<(Punct, Location)> {
        let t = self.toks.get(self.pos)?;
        match t.kind {
            TokenKind::Punct(p) => Some((p, t.location)),
            _ => None,
        }
    }

    fn eat(&mut self, p: Punct) -> bool {
        if self.peek_punct().is_some_and(|(q, _)| q == p) {
            self.pos += 1;
            return true;
        }
        false
    }

    fn enter(&mut self) -> Result<(), ()> {
        self.depth += 1;
        if self.depth > MAX_EXPR_DEPTH {
            let at = self.toks.get(self.pos).map_or(self.end, |t| t.location);
            return self.fail(at, "preprocessor expression nested too deeply");
        }
        Ok(())
    }

    /// `live` is false in operands that short-circuiting skips: they are
    /// parsed and typed, but cannot fail or warn.
    fn expr(&mut self, live: bool) -> Result<Value, ()> {
        self.enter()?;
        let mut v = self.conditional(live)?;
        while self.eat(Punct::Comma) {
            v = self.conditional(live)?;
        }
        self.depth -= 1;
        Ok(v)
    }

    fn conditional(&mut self, live: bool) -> Result<Value, ()> {
        let c = self.binary(1, live)?;
        if !self.eat(Punct::Question) {
            return Ok(c);
        }
        let a = self.expr(live && c.truth())?;
        if !self.eat(Punct::Colon) {
            let at = self.toks.get(self.pos).map_or(self.end, |t| t.location);
            return self.fail(at, "expected ':' in preprocessor expression");
        }
        self.enter()?;
        let b = self.conditional(live && !c.truth())?;
        self.depth -= 1;
        let v = if c.truth() { a } else { b };
        Ok(Value {
            bits: v.bits,
            unsigned: a.unsigned || b.unsigned,
        })
    }

    fn binary(&mut self, min_prec: u8, live: bool) -> Result<Value, ()> {
        let mut lhs = self.unary(live)?;
        while let Some((op, at)) = self.peek_punct() {
            let Some(prec) = precedence(op) else {
                break;
            };
            if prec < min_prec {
                break;
            }
            self.pos += 1;
            let rhs_live = match op {
                Punct::AmpAmp => live && lhs.truth(),
                Punct::PipePipe => live && !lhs.truth(),
                _ => live,
            };
            let rhs = self.binary(prec + 1, rhs_live)?;
            lhs = self.apply(op, lhs, rhs, live, at)?;
        }
        Ok(lhs)
    }

    fn overflow(&mut self, live: bool, at: Location) {
        if live {
            self.diags
                .warning(at, "integer overflow in preprocessor expression");
        }
    }

    fn apply(
        &mut self,
        op: Punct,
        l: Value,
        r: Value,
        live: bool,
        at: Location,
    ) -> Result<Value, ()> {
        use Punct::*;
        let unsigned = l.unsigned || r.unsigned;
        let (a, b) = (l.bits, r.bits);
        let (sa, sb) = (a as i64, b as i64);
        let value = |bits: u64| Value { bits, unsigned };
        Ok(match op {
            AmpAmp => Value::from_bool(l.truth() && r.truth()),
            PipePipe => Value::from_bool(l.truth() || r.truth()),
            EqEq => Value::from_bool(a == b),
            NotEq => Value::from_bool(a != b),
            Lt | Gt | Le | Ge => {
                let ord = if unsigned { a.cmp(&b) } else { sa.cmp(&sb) };
                Value::from_bool(match op {
                    Lt => ord.is_lt(),
                    Gt => ord.is_gt(),
                    Le => ord.is_le(),
                    _ => ord.is_ge(),
                })
            }
            Pipe => value(a | b),
            Caret => value(a ^ b),
            Amp => value(a & b),
            Plus | Minus | Star if unsigned => value(match op {
                Plus => a.wrapping_add(b),
                Minus => a.wrapping_sub(b),
                _ => a.wrapping_mul(b),
            }),
            Plus | Minus | Star => {
                let r = match op {
                    Plus => sa.checked_add(sb),
                    Minus => sa.checked_sub(sb),
                    _ => sa.checked_mul(sb),
                };
                match r {
                    Some(v) => Value::signed(v),
                    None => {
                        self.overflow(live, at);
                        Value::signed(match op {
                            Plus => sa.wrapping_add(sb),
                            Minus => sa.wrapping_sub(sb),
                            _ => sa.wrapping_mul(sb),
                        })
                    }
                }
            }
            Slash | Percent => {
                if b == 0 {
                    if !live {
                        return Ok(value(0));
                    }
                    let what = if op == Slash { "division" } else { "remainder" };
                    return self.fail(at, format!("{what} by zero in preprocessor expression"));
                }
                if unsigned {
                    value(if op == Slash { a / b } else { a % b })
                } else {
                    if sa == i64::MIN && sb == -1 {
                        self.overflow(live, at);
                    }
                    Value::signed(if op == Slash {
                        sa.wrapping_div(sb)
                    } else {
                        sa.wrapping_rem(sb)
                    })
                }
            }
            Shl | Shr => {
                // The result has the left operand's type; an out-of-range
                // count is undefined in C, and gives 0 (or -1) here.
                let count = if r.unsigned || sb >= 0 { b } else { u64::MAX };
                let bits = if count >= 64 {
                    if op == Shr && !l.unsigned && sa < 0 {
                        u64::MAX
                    } else {
                        0
                    }
                } else if op == Shl {
                    a << count
                } else if l.unsigned {
                    a >> count
                } else {
                    (sa >> count) as u64
                };
                Value {
                    bits,
                    unsigned: l.unsigned,
                }
            }
            _ => Value::signed(0),
        })
    }

    fn unary(&mut self, live: bool) -> Result<Value, ()> {
        // Prefix operators are applied iteratively: `- - - ... 1` must not
        // recurse once per operator.
        let mut ops = Vec::new();
        while let Some((p, at)) = self.peek_punct() {
            if !matches!(p, Punct::Plus | Punct::Minus | Punct::Tilde | Punct::Bang) {
                break;
            }
            ops.push((p, at));
            self.pos += 1;
        }
        let mut v = self.primary(live)?;
        for (op, at) in ops.into_iter().rev() {
            v = match op {
                Punct::Minus => {
                    if !v.unsigned && v.bits == i64::MIN as u64 {
                        self.overflow(live, at);
                    }
                    Value {
                        bits: v.bits.wrapping_neg(),
                        unsigned: v.unsigned,
                    }
                }
                Punct::Tilde => Value {
                    bits: !v.bits,
                    unsigned: v.unsigned,
                },
                Punct::Bang => Value::from_bool(!v.truth()),
                _ => v,
            };
        }
        Ok(v)
    }

    fn primary(&mut self, live: bool) -> Result<Value, ()> {
        let Some(t) = self.toks.get(self.pos) else {
            return self.fail(self.end, "expected value in expression");
        };
        let at = t.location;
        self.pos += 1;
        match t.kind {
            TokenKind::IntLiteral => match parse_int(self.interner.get(t.sym)) {
                Ok((v, too_big)) => {
                    if too_big && live {
                        self.diags.warning(
                            at,
                            "integer literal is too large to be represented in a signed \
                             integer type, interpreting as unsigned",
                        );
                    }
                    Ok(v)
                }
                Err(message) => self.fail(at, message),
            },
            TokenKind::CharLiteral => match parse_char(self.interner.get(t.sym)) {
                Ok(v) => Ok(Value::signed(v)),
                Err(message) => self.fail(at, message),
            },
            TokenKind::FloatLiteral => {
                self.fail(at, "floating point literal in preprocessor expression")
            }
            // Identifiers left after expansion (keywords included) are 0,
            // but for C++'s `true`.
            TokenKind::Identifier => Ok(Value::from_bool(
                self.cxx && self.interner.get(t.sym) == "true",
            )),
            TokenKind::Punct(Punct::LParen) => {
                let v = self.expr(live)?;
                if !self.eat(Punct::RParen) {
                    let at = self.toks.get(self.pos).map_or(self.end, |t| t.location);
                    return self.fail(at, "expected ')' in preprocessor expression");
                }
                Ok(v)
            }
            _ => self.fail(at, "invalid token at start of a preprocessor expression"),
        }
    }
}

fn precedence(p: Punct) -> Option<u8> {
    use Punct::*;
    Some(match p {
        PipePipe => 1,
        AmpAmp => 2,
        Pipe => 3,
        Caret => 4,
        Amp => 5,
        EqEq | NotEq => 6,
        Lt | Gt | Le | Ge => 7,
        Shl | Shr => 8,
        Plus | Minus => 9,
        Star | Slash | Percent => 10,
        _ => return None,
    })
}

/// An integer literal's value, and whether a decimal literal without `u`
/// only fits as unsigned (worth a warning).
fn parse_int(text: &str) -> Result<(Value, bool), String> {
    let b = text.as_bytes();
    let (radix, start) = match b {
        [b'0', b'x' | b'X', ..] => (16u64, 2),
        [b'0', b'b' | b'B', ..] => (2, 2),
        [b'0', ..] => (8, 1),
        _ => (10, 0),
    };
    let digits_len = b[start..]
        .iter()
        .take_while(|c| {
            if radix == 16 {
                c.is_ascii_hexdigit()
            } else {
                c.is_ascii_digit()
            }
        })
        .count();
    let digits = &text[start..start + digits_len];
    let suffix = &text[start + digits_len..];
    if start == 2 && digits.is_empty() {
        return Err(format!(
            "invalid suffix '{}' on integer constant",
            &text[1..]
        ));
    }
    let mut v: u64 = 0;
    for c in digits.chars() {
        let d = u64::from(c.to_digit(16).unwrap_or(0));
        if d >= radix {
            let kind = if radix == 8 { "octal" } else { "binary" };
            return Err(format!("invalid digit '{c}' in {kind} constant"));
        }
        v = v
            .checked_mul(radix)
            .and_then(|v| v.checked_add(d))
            .ok_or("integer literal is too large to be represented in any integer type")?;
    }
    let (u, rest) = if let Some(r) = suffix.strip_prefix(['u', 'U']) {
        (true, r)
    } else if let Some(r) = suffix.strip_suffix(['u', 'U']) {
        (true, r)
    } else {
        (false, suffix)
    };
    if !matches!(rest, "" | "l" | "L" | "ll" | "LL") {
        return Err(format!("invalid suffix '{suffix}' on integer constant"));
    }
    let too_big = v > i64::MAX as u64;
    Ok((
        Value {
            bits: v,
            unsigned: u || too_big,
        },
        too_big && !u && radix == 10,
    ))
}

/// A character constant's value: `char` is signed, multi-character
/// constants pack bytes big-end first into an `int` (as clang does).
fn parse_char(text: &str) -> Result<i64, String> {
    let (prefix, rest) = if let Some(r) = text.strip_prefix("u8") {
        ("u8", r)
    } else if let Some(r) = text.strip_prefix(['L', 'u', 'U']) {
        (&text[..1], r)
    } else {
        ("", text)
    };
    // An unterminated constant was already reported by the lexer.
    let Some(body) = rest.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')) else {
        return Ok(0);
    };
    let wide = matches!(prefix, "L" | "u" | "U");
    let mut units: Vec<u32> = Vec::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            if wide {
                units.push(c as u32);
            } else {
                let mut buf = [0u8; 4];
                units.extend(c.encode_utf8(&mut buf).bytes().map(u32::from));
            }
            continue;
        }
        let Some(e) = chars.next() else {
            break;
        };
        let v = match e {
            'n' => 10,
            't' => 9,
            'v' => 11,
            'b' => 8,
            'r' => 13,
            'f' => 12,
            'a' => 7,
            'x' => {
                let mut v: u32 = 0;
                let mut any = false;
                while let Some(d) = chars.peek().and_then(|c| c.to_digit(16)) {
                    v = v.wrapping_mul(16).wrapping_add(d);
                    any = true;
                    chars.next();
                }
                if !any {
                    return Err("\\x used with no following hex digits".into());
                }
                v
            }
            'u' | 'U' => {
                let n = if e == 'u' { 4 } else { 8 };
                let mut v: u32 = 0;
                for _ in 0..n {
                    match chars.peek().and_then(|c| c.to_digit(16)) {
                        Some(d) => {
                            v = v.wrapping_mul(16).wrapping_add(d);
                            chars.next();
                        }
                        None => return Err("incomplete universal character name".into()),
                    }
                }
                v
            }
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                v
            }
            other => other as u32,
        };
        units.push(v);
    }
    let Some(&last) = units.last() else {
        return Err("empty character constant".into());
    };
    Ok(match prefix {
        "L" => i64::from(last as i32),
        "u" => i64::from(last as u16),
        "U" => i64::from(last),
        "u8" => i64::from(last as u8),
        _ if units.len() == 1 => i64::from(last as u8 as i8),
        _ => {
            let packed = units.iter().fold(0u32, |acc, &u| (acc << 8) | (u & 0xff));
            i64::from(packed as i32)
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::preprocess::testing::{errors, expands_to, run, Out};

    fn cond(expr: &str) -> (bool, Out) {
        let o = run(&format!("#if {expr}\nyes\n#else\nno\n#endif\n"));
        let v = match o.text.trim() {
            "yes" => true,
            "no" => false,
            other => panic!("#if {expr}: {other:?}"),
        };
        (v, o)
    }

    #[track_caller]
    fn is_true(expr: &str) {
        let (v, o) = cond(expr);
        assert_eq!(o.log, "", "#if {expr}");
        assert!(v, "#if {expr} should be true");
    }

    #[track_caller]
    fn is_false(expr: &str) {
        let (v, o) = cond(expr);
        assert_eq!(o.log, "", "#if {expr}");
        assert!(!v, "#if {expr} should be false");
    }

    #[test]
    fn if_arithmetic() {
        is_true("1");
        is_false("0");
        is_true("1 + 2 * 3 == 7");
        is_true("(1 + 2) * 3 == 9");
        is_true("10 % 3 == 1 && -7 / 2 == -3 && -7 % 2 == -1");
        is_true("1 << 4 == 16 && 256 >> 4 == 16 && -16 >> 2 == -4");
        is_true("(1 << 63) < 0");
        is_true("-9223372036854775807 - 1 < 0");
        is_true("0x7fffffffffffffff > 0 && 0x10 == 16 && 017 == 15 && 0b101 == 5");
        is_true("~0 == -1 && !0 == 1 && !5 == 0 && -(-3) == +3");
        is_true("(5 & 3) == 1 && (5 | 3) == 7 && (5 ^ 3) == 6");
        is_true("1 < 2 && 2 <= 2 && 3 > 2 && 3 >= 3 && 1 != 2");
        is_true("(1, 2) == 2");
        is_true("0 ? 1 : 0 ? 2 : 3");
        is_true("(1 ? 2 : 3) == 2 && (0 ? 2 : 3) == 3");
        is_true("10L == 10 && 10ul == 10u && 3LL == 3");
        // Unknown identifiers, keywords and uninvoked function-like macros
        // are 0.
        is_false("UNKNOWN");
        is_true("UNKNOWN == 0 && int == 0");
    }

    #[test]
    fn if_unsigned_semantics() {
        is_true("-1 > 0u");
        is_false("-1 > 0");
        is_true("~0u == 18446744073709551615u");
        is_true("0u - 1 > 0");
        // `?:` takes the unsigned type of either branch.
        is_true("(1 ? -1 : 0u) > 0");
        is_true("-1 / 2u == 9223372036854775807");
        is_true("(-1u >> 63) == 1 && (-1 >> 63) == -1");
        is_true("18446744073709551615u == -1");
        // Too big for intmax_t: unsigned, with clang's warning.
        let (v, o) = cond("18446744073709551615 == -1");
        assert!(v);
        assert!(
            o.log.contains("warning: integer literal is too large"),
            "{}",
            o.log
        );
        assert!(!o.diags.has_errors());
        let (_, o) = cond("9223372036854775807 + 1");
        assert!(o
            .log
            .contains("warning: integer overflow in preprocessor expression"));
    }

    #[test]
    fn if_char_constants() {
        is_true("'a' == 97 && '\\n' == 10 && '\\0' == 0 && '\\x41' == 65 && '\\101' == 65");
        is_true("'\\377' < 0 && '\\xff' == -1");
        is_true("L'\\xff' == 255 && u'x' == 120 && U'\\U0001F600' == 0x1F600");
        is_true("'ab' == 0x6162 && '\\'' == 39 && '\"' == 34");
        let (_, o) = cond("''");
        assert_eq!(errors(&o), ["empty character constant"]);
    }

    #[test]
    fn if_short_circuit_and_division_by_zero() {
        is_false("0 && 1 / 0");
        is_true("1 || 1 / 0");
        is_true("1 ? 2 : 1 / 0");
        is_true("0 ? 1 % 0 : 3");
        let (v, o) = cond("1 / 0");
        assert!(!v);
        assert_eq!(errors(&o), ["division by zero in preprocessor expression"]);
        assert!(o.log.starts_with("<source>:1:7: error:"), "{}", o.log);
        let (_, o) = cond("1 % (2 - 2)");
        assert_eq!(errors(&o), ["remainder by zero in preprocessor expression"]);
    }

    #[test]
    fn if_defined() {
        let src = "#define X\n#define F(a) a\n\
                   #if defined X && defined(F) && !defined Y && !defined ( Z )\nok\n#endif\n\
                   #define D defined(X)\n#if D\nok2\n#endif\n\
                   #if defined __FILE__ && defined __LINE__\nok3\n#endif";
        expands_to(src, "ok ok2 ok3");
        let o = run("#if defined\n#endif\n#if defined(X\n#endif\n#if defined 3\n#endif\n");
        assert_eq!(
            errors(&o),
            [
                "macro name missing",
                "missing ')' after 'defined'",
                "macro name must be an identifier"
            ]
        );
    }

    #[test]
    fn if_errors() {
        let cases = [
            ("", "#if with no expression"),
            ("1 +", "expected value in expression"),
            ("(1", "expected ')' in preprocessor expression"),
            ("1.0", "floating point literal in preprocessor expression"),
            (
                "\"s\"",
                "invalid token at start of a preprocessor expression",
            ),
            ("08", "invalid digit '8' in octal constant"),
            (
                "1 2",
                "token is not a valid binary operator in a preprocessor subexpression",
            ),
            ("1 ? 2", "expected ':' in preprocessor expression"),
            ("1)", "unexpected ')' in preprocessor expression"),
            (
                "1 = 1",
                "token is not a valid binary operator in a preprocessor subexpression",
            ),
            ("1x", "invalid suffix 'x' on integer constant"),
            ("0x", "invalid suffix 'x' on integer constant"),
            (
                "99999999999999999999",
                "integer literal is too large to be represented in any integer type",
            ),
        ];
        for (expr, message) in cases {
            let (v, o) = cond(expr);
            assert!(!v, "#if {expr}");
            assert_eq!(errors(&o), [message], "#if {expr}");
        }
        let o = run("#define E\n#if E\n#endif\n");
        assert_eq!(errors(&o), ["expected value in expression"]);
    }
}
