//! `printf`: each call appends a record to the kernel's printf buffer, a
//! storage buffer the runtime binds and formats on the host when the
//! launch completes (see [`crate::printf`] for the record layout).
//!
//! The buffer's first word counts the words that records have claimed; a
//! record that no longer fits is dropped and the call returns -1, as the
//! spec allows once the buffer is full.

use super::*;
use crate::printf::{parse_format, FormatPiece, PrintfFormat, PrintfScalar, PrintfValue};
use naga::BinaryOperator as B;

/// The kernel's printf buffer, seen as an atomic counter and as words.
pub(super) struct PrintfBuffer {
    pub binding: u32,
    counter: Handle<naga::GlobalVariable>,
    words: Handle<naga::GlobalVariable>,
    /// The formats of the calls lowered so far; a record starts with its
    /// index here.
    pub formats: Vec<PrintfFormat>,
}

impl ModuleBuilder<'_> {
    pub(super) fn printf(
        &mut self,
        fb: &mut FnBuilder,
        args: &[Expr],
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let Some(bytes) = args.first().and_then(string_literal) else {
            return Err(self.error(
                location,
                "printf formats other than string literals are not supported yet by this translator",
            ));
        };
        let text = String::from_utf8_lossy(bytes.strip_suffix(&[0]).unwrap_or(bytes));
        let parsed = parse_format(&text).map_err(|e| self.error(location, e.0))?;
        // `%s` of a string literal is known now: it becomes text. `%p`
        // becomes `%#lx` of the pointer's address (see `pointer_conversion`).
        let mut pieces = Vec::new();
        let mut values = Vec::new();
        let mut rest = args[1..].iter();
        for piece in parsed {
            let FormatPiece::Conversion(conversion) = &piece else {
                pieces.push(piece);
                continue;
            };
            let Some(arg) = rest.next() else {
                return Err(self.error(location, "more '%' conversions than printf arguments"));
            };
            if conversion.conversion == 's' {
                let Some(s) = string_literal(arg) else {
                    return Err(self.error(
                        arg.location,
                        "'%s' needs a string literal argument in this translator",
                    ));
                };
                let s = String::from_utf8_lossy(s.strip_suffix(&[0]).unwrap_or(s));
                pieces.push(FormatPiece::Text(pad_string(&s, conversion)));
                continue;
            }
            if conversion.conversion == 'p' {
                pieces.push(FormatPiece::Conversion(pointer_conversion(conversion)));
            } else {
                pieces.push(piece);
            }
            values.push(arg);
        }
        // Extra arguments are evaluated, as C does, and not printed.
        for extra in rest {
            self.expr(fb, extra)?;
        }
        let mut words = Vec::new();
        let mut kinds = Vec::new();
        for arg in values {
            if arg.ty.pointee().is_some() {
                let (object, byte) = self.address_operand(fb, arg)?;
                words.extend([byte, object]);
                kinds.push(PrintfValue {
                    scalar: PrintfScalar::UInt64,
                    lanes: 1,
                });
                continue;
            }
            let value = self.plain(fb, arg)?;
            kinds.push(self.printf_words(fb, value, &arg.ty, &mut words, arg.location)?);
        }
        let buffer = self.printf_buffer();
        let format = PrintfFormat {
            pieces,
            args: kinds,
        };
        let record_words = format.record_words() as u32;
        let index = buffer.formats.len() as u32;
        buffer.formats.push(format);
        let (counter, data) = (buffer.counter, buffer.words);

        let u32_scalar = naga::Scalar::U32;
        let base = fb.add(naga::Expression::GlobalVariable(counter));
        let count_pointer = fb.add(naga::Expression::AccessIndex { base, index: 0 });
        let claim = fb.add(naga::Expression::Literal(naga::Literal::U32(record_words)));
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
        let one = fb.add(naga::Expression::Literal(naga::Literal::U32(1)));
        let first = fb.binary(B::Add, start, one);
        let format_index = fb.add(naga::Expression::Literal(naga::Literal::U32(index)));
        for (i, word) in std::iter::once(format_index).chain(words).enumerate() {
            let offset = fb.add(naga::Expression::Literal(naga::Literal::U32(i as u32)));
            let at = fb.binary(B::Add, first, offset);
            let base = fb.add(naga::Expression::GlobalVariable(data));
            let pointer = fb.add(naga::Expression::Access { base, index: at });
            fb.push(naga::Statement::Store {
                pointer,
                value: word,
            });
        }
        let accept = fb.blocks.pop().expect("printf record block");
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
                        ty.display()
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
        if self.printf.is_none() {
            let binding = self.next_binding;
            self.next_binding += 1;
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
            self.printf = Some(PrintfBuffer {
                binding,
                counter,
                words,
                formats: Vec::new(),
            });
        }
        self.printf.as_mut().expect("made above")
    }
}

/// The bytes of a string literal, seen through the array-to-pointer
/// decay and casts the checker wraps it in.
fn string_literal(e: &Expr) -> Option<&[u8]> {
    match &e.kind {
        H::Str(bytes) => Some(bytes),
        H::Decay(inner) | H::PointerCast(inner) => string_literal(inner),
        _ => None,
    }
}

/// `value`'s bits as an integer of `kind` and the same width.
fn bit_cast(
    fb: &mut FnBuilder,
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

/// A string for `%s`, with its width, precision and `-` flag applied.
fn pad_string(s: &str, conversion: &crate::printf::Conversion) -> String {
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
