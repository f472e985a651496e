//! `printf`: each call appends a record to the kernel's printf buffer, a
//! storage buffer the runtime binds and formats on the host when the
//! launch completes (see [`crate::printf`] for the record layout).
//!
//! The buffer's first word counts the words that records have claimed; a
//! record that no longer fits is dropped and the call returns -1, as the
//! spec allows once the buffer is full.
//!
//! `%s` of a string known at compile time (a literal, a `__constant` char
//! array or table of strings with a constant initializer) becomes text of
//! the format, or where a ternary or a table row chooses among such
//! strings at run time, an index into the format's strings. Any other
//! string is read at run time through its `char` pointer: its length
//! first (up to `MAX_STRING_BYTES`), to claim the record's words, then its
//! bytes into the record.

use crate::ast::AddressSpace;
use crate::diagnostic::Location;
use crate::hir::{self, ExprId, ExprKind as H};
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::expressions::Value;
use crate::lower::function::FnBuilder;
use crate::lower::naga_types::naga_scalar;
use crate::lower::pointers::PointerValue;
use crate::printf::{
    pad_string, parse_format, FormatPiece, PrintfFormat, PrintfScalar, PrintfValue,
    MAX_STRING_BYTES,
};
use crate::reflect::PrintfReflection;
use crate::types::{Scalar, Type};
use naga::{BinaryOperator as B, Handle, Span};

/// The printf state: the buffer, made by the kernel's first `printf`.
#[derive(Default)]
pub(super) struct Printf {
    buffer: Option<PrintfBuffer>,
}

impl Printf {
    /// What the runtime needs to read the buffer back, if the kernel
    /// calls `printf`.
    pub(super) fn reflection(&mut self) -> Option<PrintfReflection> {
        self.buffer.take().map(|p| PrintfReflection {
            binding: p.binding,
            formats: p.formats,
        })
    }
}

/// The kernel's printf buffer, seen as an atomic counter and as words.
struct PrintfBuffer {
    pub binding: u32,
    counter: Handle<naga::GlobalVariable>,
    words: Handle<naga::GlobalVariable>,
    /// The formats of the calls lowered so far; a record starts with its
    /// index here.
    pub formats: Vec<PrintfFormat>,
}

/// What is known at compile time of the string a `%s` argument points at.
enum StringTree {
    Known(Vec<u8>),
    /// `condition ? a : b` of strings known at compile time.
    Pick(ExprId, Box<StringTree>, Box<StringTree>),
    /// `table[row]` of a `__constant` table of strings.
    Row(ExprId, Vec<Vec<u8>>),
}

/// How one argument of a `printf` call travels.
enum RecordArg {
    Value(ExprId),
    /// `%s` of one of several strings known at compile time.
    ChosenString(StringTree),
    /// `%s` of a string read at run time through a `char` pointer.
    ReadString(ExprId, Scalar),
}

/// A run of a record's words: one word, or the bytes of a string read at
/// run time (its byte count then its words).
enum RecordPart {
    Word(Handle<naga::Expression>),
    String {
        pointer: PointerValue,
        scalar: Scalar,
        count: Handle<naga::Expression>,
    },
}

impl ModuleBuilder<'_> {
    pub(super) fn printf(
        &mut self,
        fb: &mut FnBuilder,
        args: &[ExprId],
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let Some(bytes) = args.first().and_then(|&f| string_literal(fb, f)) else {
            return Err(self.error(
                location,
                "printf formats other than string literals are not supported yet by this translator",
            ));
        };
        let text = String::from_utf8_lossy(bytes.strip_suffix(&[0]).unwrap_or(bytes));
        let parsed = parse_format(&text).map_err(|e| self.error(location, e.0))?;
        // `%s` of a string known now becomes text. `%p` becomes `%#lx` of
        // the pointer's address (see `pointer_conversion`).
        let mut pieces = Vec::new();
        let mut values = Vec::new();
        let mut rest = args[1..].iter().copied();
        for piece in parsed {
            let FormatPiece::Conversion(conversion) = &piece else {
                pieces.push(piece);
                continue;
            };
            let Some(arg) = rest.next() else {
                return Err(self.error(location, "more '%' conversions than printf arguments"));
            };
            if conversion.conversion == 's' {
                match self.string_tree(fb, arg) {
                    Some(StringTree::Known(s)) => {
                        let s = String::from_utf8_lossy(until_nul(&s));
                        pieces.push(FormatPiece::Text(pad_string(&s, conversion)));
                        continue;
                    }
                    Some(tree) => values.push(RecordArg::ChosenString(tree)),
                    None => match self.pointee(&fb.expr(arg).ty).map(|p| p.ty) {
                        Some(Type::Scalar(s @ (Scalar::Char | Scalar::UChar))) => {
                            values.push(RecordArg::ReadString(arg, s))
                        }
                        _ => {
                            let node = fb.expr(arg);
                            let ty = self.display(&node.ty);
                            return Err(self.error(
                                node.span,
                                format!("'%s' needs a pointer to char, not '{ty}'"),
                            ));
                        }
                    },
                }
                pieces.push(piece);
                continue;
            }
            if conversion.conversion == 'p' {
                pieces.push(FormatPiece::Conversion(pointer_conversion(conversion)));
            } else {
                pieces.push(piece);
            }
            values.push(RecordArg::Value(arg));
        }
        // Extra arguments are evaluated, as C does, and not printed.
        for extra in rest {
            self.expr(fb, extra)?;
        }
        let mut parts = Vec::new();
        let mut kinds = Vec::new();
        let mut strings = Vec::new();
        for arg in values {
            let arg = match arg {
                RecordArg::Value(arg) => arg,
                RecordArg::ChosenString(tree) => {
                    parts.push(RecordPart::Word(self.string_index(
                        fb,
                        &tree,
                        &mut strings,
                    )?));
                    kinds.push(PrintfValue {
                        scalar: PrintfScalar::StringIndex,
                        lanes: 1,
                    });
                    continue;
                }
                RecordArg::ReadString(arg, scalar) => {
                    let pointer = self.pointer(fb, arg)?;
                    let at = fb.expr(arg).span.location();
                    let count = self.string_length(fb, pointer, scalar, at)?;
                    parts.push(RecordPart::String {
                        pointer,
                        scalar,
                        count,
                    });
                    kinds.push(PrintfValue {
                        scalar: PrintfScalar::StringBytes,
                        lanes: 1,
                    });
                    continue;
                }
            };
            let mut words = Vec::new();
            let node = fb.expr(arg);
            if self.pointee(&node.ty).is_some() {
                let (object, byte) = self.address_operand(fb, arg)?;
                words.extend([byte, object]);
                kinds.push(PrintfValue {
                    scalar: PrintfScalar::UInt64,
                    lanes: 1,
                });
            } else {
                let value = self.plain(fb, arg)?;
                let at = node.span.location();
                kinds.push(self.printf_words(fb, value, &node.ty, &mut words, at)?);
            }
            parts.extend(words.into_iter().map(RecordPart::Word));
        }
        let buffer = self.printf_buffer();
        let format = PrintfFormat {
            pieces,
            args: kinds,
            strings,
        };
        let record_words = format.record_words() as u32;
        let index = buffer.formats.len() as u32;
        buffer.formats.push(format);
        let (counter, data) = (buffer.counter, buffer.words);

        let mut claim = fb.add(naga::Expression::Literal(naga::Literal::U32(record_words)));
        for part in &parts {
            if let RecordPart::String { count, .. } = part {
                let words = string_words_of(fb, *count);
                claim = fb.binary(B::Add, claim, words);
            }
        }
        let u32_scalar = naga::Scalar::U32;
        let base = fb.add(naga::Expression::GlobalVariable(counter));
        let count_pointer = fb.add(naga::Expression::AccessIndex { base, index: 0 });
        let start = self.atomic_statement(
            fb,
            count_pointer,
            u32_scalar,
            naga::AtomicFunction::Add,
            claim,
        );
        // Word 0 is the counter: records start at word 1.
        let data_base = fb.add(naga::Expression::GlobalVariable(data));
        let length = fb.add(naga::Expression::ArrayLength(data_base));
        let end = fb.binary(B::Add, start, claim);
        let fits = fb.binary(B::Less, end, length);

        fb.blocks.push(naga::Block::new());
        let written = self.write_record(fb, data, start, index, parts, location);
        let accept = fb.blocks.pop().expect("printf record block");
        written?;
        fb.push(naga::Statement::If {
            condition: fits,
            accept,
            reject: naga::Block::new(),
        });
        let (ok, full) = (
            fb.add(naga::Expression::Literal(naga::Literal::I32(0))),
            fb.add(naga::Expression::Literal(naga::Literal::I32(-1))),
        );
        Ok(fb.select(fits, ok, full))
    }

    /// Writes a record claimed at word `start` of the data (past the
    /// counter): the format index, then `parts` in order.
    fn write_record(
        &mut self,
        fb: &mut FnBuilder,
        data: Handle<naga::GlobalVariable>,
        start: Handle<naga::Expression>,
        format_index: u32,
        parts: Vec<RecordPart>,
        location: Location,
    ) -> LResult<()> {
        let one = fb.add(naga::Expression::Literal(naga::Literal::U32(1)));
        // The next word is `base + offset`: strings move `base` by a count
        // known only at run time.
        let mut base = fb.binary(B::Add, start, one);
        let mut offset = 0u32;
        let format_index = fb.add(naga::Expression::Literal(naga::Literal::U32(format_index)));
        for part in std::iter::once(RecordPart::Word(format_index)).chain(parts) {
            let at = offset_by(fb, base, offset);
            match part {
                RecordPart::Word(word) => {
                    store_word(fb, data, at, word);
                    offset += 1;
                }
                RecordPart::String {
                    pointer,
                    scalar,
                    count,
                } => {
                    store_word(fb, data, at, count);
                    let first = fb.binary(B::Add, at, one);
                    self.copy_string(fb, data, first, pointer, scalar, count, location)?;
                    let words = string_words_of(fb, count);
                    base = fb.binary(B::Add, first, words);
                    offset = 0;
                }
            }
        }
        Ok(())
    }

    /// What is known at compile time of the string `e` points at: string
    /// literals, `__constant` arrays initialised by a constant list, and
    /// ternaries choosing among them.
    fn string_tree(&self, fb: &FnBuilder, e: ExprId) -> Option<StringTree> {
        crate::stack::guard(|| {
            let e = fb.expr(e);
            let is_table = |ty: &Type| matches!(self.element_of(ty), Some(Type::Array(..)));
            match e.kind {
                H::Str(ref bytes) => Some(StringTree::Known(bytes.clone())),
                H::Decay(inner) | H::PointerCast(inner) => self.string_tree(fb, inner),
                H::Conditional(condition, a, b) => Some(StringTree::Pick(
                    condition,
                    Box::new(self.string_tree(fb, a)?),
                    Box::new(self.string_tree(fb, b)?),
                )),
                H::Global(id) => match self.constant_strings(id)?.as_slice() {
                    [one] if !is_table(&e.ty) => Some(StringTree::Known(one.clone())),
                    _ => None,
                },
                // A row of a `__constant` table of strings.
                H::Index(table, row) => match fb.expr(table) {
                    hir::Expr {
                        kind: H::Global(id),
                        ty,
                        ..
                    } if is_table(ty) => Some(StringTree::Row(row, self.constant_strings(*id)?)),
                    _ => None,
                },
                _ => None,
            }
        })
    }

    /// The strings of `__constant` char array `id` initialised by a
    /// constant list: one, or one per row of a two-dimensional array, each
    /// up to its first NUL (a row without one prints whole).
    fn constant_strings(&self, id: hir::GlobalId) -> Option<Vec<Vec<u8>>> {
        let global = &self.program.globals[id];
        if global.space != AddressSpace::Constant {
            return None;
        }
        let types = &self.program.types;
        let is_char = |t: Type| matches!(t, Type::Scalar(Scalar::Char | Scalar::UChar));
        let (rows, row_len) = match global.ty {
            Type::Array(elem, rows) => match types[elem] {
                Type::Array(c, row_len) if is_char(types[c]) => (rows, row_len),
                c if is_char(c) => (1, rows),
                _ => return None,
            },
            _ => return None,
        };
        let exprs = &self.program.global_exprs;
        let H::InitList(items) = &exprs[global.init?].kind else {
            return None;
        };
        let mut bytes = vec![0u8; (rows * row_len) as usize];
        for &(ref path, value) in items {
            let at = match path.as_slice() {
                [i] if rows == 1 => *i,
                [r, i] => r * row_len + i,
                _ => return None,
            };
            let H::Int(bits) = exprs[value].kind else {
                return None;
            };
            *bytes.get_mut(at as usize)? = bits as u8;
        }
        Some(
            bytes
                .chunks(row_len.max(1) as usize)
                .map(|row| until_nul(row).to_vec())
                .collect(),
        )
    }

    /// The index into `strings` of the string `tree` chooses, adding its
    /// strings there.
    fn string_index(
        &mut self,
        fb: &mut FnBuilder,
        tree: &StringTree,
        strings: &mut Vec<String>,
    ) -> LResult<Handle<naga::Expression>> {
        Ok(match tree {
            StringTree::Known(bytes) => {
                let s = String::from_utf8_lossy(until_nul(bytes)).into_owned();
                let index = match strings.iter().position(|known| *known == s) {
                    Some(i) => i,
                    None => {
                        strings.push(s);
                        strings.len() - 1
                    }
                };
                fb.add(naga::Expression::Literal(naga::Literal::U32(index as u32)))
            }
            &StringTree::Row(row, ref rows) => {
                // The rows in order from `first`, so the row's number picks
                // one (clamped: past the table is undefined in C).
                let first = strings.len() as u32;
                strings.extend(rows.iter().map(|r| String::from_utf8_lossy(r).into_owned()));
                let row = self.plain(fb, row)?;
                let row = fb.add(naga::Expression::As {
                    expr: row,
                    kind: naga::ScalarKind::Uint,
                    convert: Some(4),
                });
                let last = fb.add(naga::Expression::Literal(naga::Literal::U32(
                    rows.len().saturating_sub(1) as u32,
                )));
                let row = fb.math(naga::MathFunction::Min, row, Some(last));
                let first = fb.add(naga::Expression::Literal(naga::Literal::U32(first)));
                fb.binary(B::Add, first, row)
            }
            &StringTree::Pick(condition, ref a, ref b) => {
                let condition = self.condition(fb, condition)?;
                let a = self.string_index(fb, a, strings)?;
                let b = self.string_index(fb, b, strings)?;
                fb.select(condition, a, b)
            }
        })
    }

    /// Byte `i` (a `u32`) of the string at `pointer` (to `scalar`, `char`
    /// or `uchar`), as a `u32`.
    fn string_byte(
        &mut self,
        fb: &mut FnBuilder,
        pointer: PointerValue,
        i: Handle<naga::Expression>,
        scalar: Scalar,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let index = fb.binary(B::Add, pointer.index, i);
        let place = self.element_place(fb, pointer.at(index), &Type::Scalar(scalar), location)?;
        let Value::Plain(value) = self.load(fb, place, location)? else {
            return Err(self.error(
                location,
                "internal compiler error: a char read as a pointer",
            ));
        };
        let bits = if naga_scalar(scalar).kind == naga::ScalarKind::Sint {
            bit_cast(fb, value, naga::ScalarKind::Uint)
        } else {
            value
        };
        let mask = fb.add(naga::Expression::Literal(naga::Literal::U32(0xff)));
        Ok(fb.binary(B::And, bits, mask))
    }

    /// The bytes before the first NUL of the string at `pointer`, at most
    /// `MAX_STRING_BYTES`: a loop reading them one at a time.
    fn string_length(
        &mut self,
        fb: &mut FnBuilder,
        pointer: PointerValue,
        scalar: Scalar,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let length = self.u32_local(fb, "printf_string_length");
        fb.blocks.push(naga::Block::new());
        let body = (|| {
            let i = load_local(fb, length);
            let max = fb.add(naga::Expression::Literal(naga::Literal::U32(
                MAX_STRING_BYTES,
            )));
            let full = fb.binary(B::GreaterEqual, i, max);
            break_if(fb, full);
            let byte = self.string_byte(fb, pointer, i, scalar, location)?;
            let zero = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
            let end = fb.binary(B::Equal, byte, zero);
            break_if(fb, end);
            increment_local(fb, length, i);
            Ok(())
        })();
        let block = fb.blocks.pop().expect("string length loop");
        body?;
        fb.push(naga::Statement::Loop {
            body: block,
            continuing: naga::Block::new(),
            break_if: None,
        });
        Ok(load_local(fb, length))
    }

    /// Copies the `count` bytes of the string at `pointer` into the data
    /// words from `first` on, four to a word, the last word's spare bytes
    /// zero.
    #[allow(clippy::too_many_arguments)]
    fn copy_string(
        &mut self,
        fb: &mut FnBuilder,
        data: Handle<naga::GlobalVariable>,
        first: Handle<naga::Expression>,
        pointer: PointerValue,
        scalar: Scalar,
        count: Handle<naga::Expression>,
        location: Location,
    ) -> LResult<()> {
        let words = string_words_of(fb, count);
        let word_index = self.u32_local(fb, "printf_string_word");
        fb.blocks.push(naga::Block::new());
        let body = (|| {
            let w = load_local(fb, word_index);
            let done = fb.binary(B::GreaterEqual, w, words);
            break_if(fb, done);
            let four = fb.add(naga::Expression::Literal(naga::Literal::U32(4)));
            let first_byte = fb.binary(B::Multiply, w, four);
            // Here `count` > 0; bytes past it are read at its last (never
            // past the object) and dropped.
            let one = fb.add(naga::Expression::Literal(naga::Literal::U32(1)));
            let last = fb.binary(B::Subtract, count, one);
            let mut word = None;
            for k in 0..4u32 {
                let k_lit = fb.add(naga::Expression::Literal(naga::Literal::U32(k)));
                let i = fb.binary(B::Add, first_byte, k_lit);
                let clamped = fb.math(naga::MathFunction::Min, i, Some(last));
                let byte = self.string_byte(fb, pointer, clamped, scalar, location)?;
                let inside = fb.binary(B::Less, i, count);
                let zero = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
                let byte = fb.select(inside, byte, zero);
                let shift = fb.add(naga::Expression::Literal(naga::Literal::U32(8 * k)));
                let byte = fb.binary(B::ShiftLeft, byte, shift);
                word = Some(match word {
                    Some(acc) => fb.binary(B::InclusiveOr, acc, byte),
                    None => byte,
                });
            }
            let at = fb.binary(B::Add, first, w);
            store_word(fb, data, at, word.expect("four bytes"));
            increment_local(fb, word_index, w);
            Ok(())
        })();
        let block = fb.blocks.pop().expect("string copy loop");
        body?;
        fb.push(naga::Statement::Loop {
            body: block,
            continuing: naga::Block::new(),
            break_if: None,
        });
        Ok(())
    }

    /// A new `u32` local of the function, set to zero here.
    fn u32_local(&mut self, fb: &mut FnBuilder, name: &str) -> Handle<naga::LocalVariable> {
        let ty = self.u32_type();
        let local = fb.function.local_variables.append(
            naga::LocalVariable {
                name: Some(name.into()),
                ty,
                init: None,
            },
            Span::UNDEFINED,
        );
        let pointer = fb.add(naga::Expression::LocalVariable(local));
        let zero = fb.add(naga::Expression::Literal(naga::Literal::U32(0)));
        fb.push(naga::Statement::Store {
            pointer,
            value: zero,
        });
        local
    }

    /// Appends the words of `value` (of type `ty`) to `words`.
    fn printf_words(
        &mut self,
        fb: &mut FnBuilder,
        value: Handle<naga::Expression>,
        ty: &Type,
        words: &mut Vec<Handle<naga::Expression>>,
        location: Location,
    ) -> LResult<PrintfValue> {
        let (scalar, lanes) = match ty {
            Type::Scalar(s) => (*s, 1),
            Type::Vector(s, n) => (*s, *n),
            Type::Pointer(_) => {
                return Err(self.error(
                    location,
                    "printing a pointer with a conversion other than '%p' is not supported by this translator",
                ))
            }
            _ => {
                return Err(self.error(
                    location,
                    format!(
                        "printf of '{}' is not supported yet by this translator",
                        self.display(ty)
                    ),
                ))
            }
        };
        let kind = match scalar {
            Scalar::Char | Scalar::Short | Scalar::Int => PrintfScalar::Int32,
            Scalar::Bool | Scalar::UChar | Scalar::UShort | Scalar::UInt => PrintfScalar::UInt32,
            Scalar::Long => PrintfScalar::Int64,
            Scalar::ULong => PrintfScalar::UInt64,
            Scalar::Float => PrintfScalar::Float32,
            Scalar::Double => PrintfScalar::Float64,
            // Printed as the (exactly) widened float.
            Scalar::Half => PrintfScalar::Float32,
        };
        for lane in 0..lanes {
            let mut element = fb.lane(value, lanes, lane);
            if scalar == Scalar::Half {
                element = fb.add(naga::Expression::As {
                    expr: element,
                    kind: naga::ScalarKind::Float,
                    convert: Some(4),
                });
            }
            let bits = match kind {
                PrintfScalar::UInt32 if scalar == Scalar::Bool => {
                    let (one, zero) = (
                        fb.add(naga::Expression::Literal(naga::Literal::U32(1))),
                        fb.add(naga::Expression::Literal(naga::Literal::U32(0))),
                    );
                    fb.select(element, one, zero)
                }
                PrintfScalar::Int32 | PrintfScalar::UInt32 | PrintfScalar::Float32 => {
                    bit_cast(fb, element, naga::ScalarKind::Uint)
                }
                _ => {
                    let wide = bit_cast(fb, element, naga::ScalarKind::Uint);
                    let low = fb.add(naga::Expression::As {
                        expr: wide,
                        kind: naga::ScalarKind::Uint,
                        convert: Some(4),
                    });
                    let shift = fb.add(naga::Expression::Literal(naga::Literal::U32(32)));
                    let high = fb.binary(B::ShiftRight, wide, shift);
                    words.push(low);
                    fb.add(naga::Expression::As {
                        expr: high,
                        kind: naga::ScalarKind::Uint,
                        convert: Some(4),
                    })
                }
            };
            words.push(bits);
        }
        Ok(PrintfValue {
            scalar: kind,
            lanes,
        })
    }

    /// The printf buffer, made at the kernel's first `printf`: one binding
    /// past the kernel's others, seen as `atomic<u32>` (the counter) and as
    /// `u32` words.
    fn printf_buffer(&mut self) -> &mut PrintfBuffer {
        if self.printf.buffer.is_none() {
            let binding = self.interface.take_binding();
            let u32_ty = self.u32_type();
            let atomic = self.add_type(naga::TypeInner::Atomic(naga::Scalar::U32));
            let mut view = |name: &str, base: Handle<naga::Type>| {
                let array = self.add_type(naga::TypeInner::Array {
                    base,
                    size: naga::ArraySize::Dynamic,
                    stride: 4,
                });
                self.module.global_variables.append(
                    naga::GlobalVariable {
                        name: Some(name.into()),
                        space: naga::AddressSpace::Storage {
                            access: naga::StorageAccess::LOAD | naga::StorageAccess::STORE,
                        },
                        binding: Some(naga::ResourceBinding { group: 0, binding }),
                        ty: array,
                        init: None,
                        memory_decorations: naga::MemoryDecorations::empty(),
                    },
                    Span::UNDEFINED,
                )
            };
            let counter = view("printf_counter", atomic);
            let words = view("printf_words", u32_ty);
            self.printf.buffer = Some(PrintfBuffer {
                binding,
                counter,
                words,
                formats: Vec::new(),
            });
        }
        self.printf.buffer.as_mut().expect("made above")
    }
}

/// The bytes of a string literal, seen through the array-to-pointer
/// decay and casts the checker wraps it in.
fn string_literal<'a>(fb: &FnBuilder<'a>, e: ExprId) -> Option<&'a [u8]> {
    match fb.expr(e).kind {
        H::Str(ref bytes) => Some(bytes),
        H::Decay(inner) | H::PointerCast(inner) => string_literal(fb, inner),
        _ => None,
    }
}

/// A string's bytes up to its first NUL, which `%s` stops at.
fn until_nul(bytes: &[u8]) -> &[u8] {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    &bytes[..end]
}

/// `value`'s bits as an integer of `kind` and the same width.
fn bit_cast(
    fb: &mut Emitter,
    value: Handle<naga::Expression>,
    kind: naga::ScalarKind,
) -> Handle<naga::Expression> {
    fb.add(naga::Expression::As {
        expr: value,
        kind,
        convert: None,
    })
}

/// `%p` as the host prints it: a pointer has no machine address here, so
/// it travels as a 64-bit number, the identity of the object it points
/// into (high 32 bits, see `ModuleBuilder::object_identity`) and its byte
/// offset there (low 32 bits), printed as hexadecimal with `0x` as glibc
/// prints `%p`, except that null prints `0` (glibc: `(nil)`). Pointers into
/// one object print their distance apart.
fn pointer_conversion(conversion: &crate::printf::Conversion) -> crate::printf::Conversion {
    let mut flags = conversion.flags.replace('#', "");
    flags.push('#');
    crate::printf::Conversion {
        flags,
        width: conversion.width,
        precision: None,
        vector: None,
        length: crate::printf::Length::Long,
        conversion: 'x',
    }
}

/// `base + offset` (`offset` known now).
fn offset_by(
    fb: &mut Emitter,
    base: Handle<naga::Expression>,
    offset: u32,
) -> Handle<naga::Expression> {
    if offset == 0 {
        return base;
    }
    let offset = fb.add(naga::Expression::Literal(naga::Literal::U32(offset)));
    fb.binary(B::Add, base, offset)
}

/// Stores `word` at word `at` of the printf data.
fn store_word(
    fb: &mut Emitter,
    data: Handle<naga::GlobalVariable>,
    at: Handle<naga::Expression>,
    word: Handle<naga::Expression>,
) {
    let base = fb.add(naga::Expression::GlobalVariable(data));
    let pointer = fb.add(naga::Expression::Access { base, index: at });
    fb.push(naga::Statement::Store {
        pointer,
        value: word,
    });
}

/// The words holding `count` (a `u32`) bytes, as `string_words` counts
/// them.
fn string_words_of(fb: &mut Emitter, count: Handle<naga::Expression>) -> Handle<naga::Expression> {
    let three = fb.add(naga::Expression::Literal(naga::Literal::U32(3)));
    let two = fb.add(naga::Expression::Literal(naga::Literal::U32(2)));
    let rounded = fb.binary(B::Add, count, three);
    fb.binary(B::ShiftRight, rounded, two)
}

fn load_local(fb: &mut Emitter, local: Handle<naga::LocalVariable>) -> Handle<naga::Expression> {
    let pointer = fb.add(naga::Expression::LocalVariable(local));
    fb.add(naga::Expression::Load { pointer })
}

/// Stores `value + 1` to `local`.
fn increment_local(
    fb: &mut Emitter,
    local: Handle<naga::LocalVariable>,
    value: Handle<naga::Expression>,
) {
    let one = fb.add(naga::Expression::Literal(naga::Literal::U32(1)));
    let next = fb.binary(B::Add, value, one);
    let pointer = fb.add(naga::Expression::LocalVariable(local));
    fb.push(naga::Statement::Store {
        pointer,
        value: next,
    });
}

/// Leaves the enclosing loop when `condition` holds.
fn break_if(fb: &mut Emitter, condition: Handle<naga::Expression>) {
    let mut exit = naga::Block::new();
    exit.push(naga::Statement::Break, Span::UNDEFINED);
    fb.push(naga::Statement::If {
        condition,
        accept: exit,
        reject: naga::Block::new(),
    });
}
