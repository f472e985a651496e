//! C types as naga types: in registers, in host-visible memory (the
//! host's layout) and in private or workgroup memory (32-bit lanes for
//! `char`/`short`).

use crate::diagnostic::Location;
use crate::lower::builder::{Failed, LResult, ModuleBuilder};
use crate::lower::expressions::wide;
use crate::types::{Record, Scalar, Type};
use naga::{Handle, Span};

pub(super) fn naga_scalar(s: Scalar) -> naga::Scalar {
    match s {
        Scalar::Bool => naga::Scalar::BOOL,
        Scalar::Char | Scalar::Short | Scalar::Int => naga::Scalar::I32,
        Scalar::UChar | Scalar::UShort | Scalar::UInt => naga::Scalar::U32,
        Scalar::Long => naga::Scalar::I64,
        Scalar::ULong => naga::Scalar::U64,
        Scalar::Half => naga::Scalar::F16,
        Scalar::Float => naga::Scalar::F32,
        Scalar::Double => naga::Scalar::F64,
    }
}

pub(super) fn vector_size(n: u8) -> Option<naga::VectorSize> {
    match n {
        2 => Some(naga::VectorSize::Bi),
        3 => Some(naga::VectorSize::Tri),
        4 => Some(naga::VectorSize::Quad),
        _ => None,
    }
}

impl ModuleBuilder<'_> {
    pub(super) fn add_type(&mut self, inner: naga::TypeInner) -> Handle<naga::Type> {
        self.module
            .types
            .insert(naga::Type { name: None, inner }, Span::UNDEFINED)
    }

    /// A naga array of `count` elements `stride` bytes apart, standing
    /// for `ty`. naga lays out types of at most `i32::MAX` bytes, and sizes
    /// here are 32-bit; C takes larger arrays (`uchar v[0x7ffffff9]`, four
    /// times larger again in private memory's 32-bit lanes), which no
    /// device holds, so they are a build error.
    fn array(
        &mut self,
        ty: &Type,
        base: Handle<naga::Type>,
        stride: u32,
        count: u64,
        location: Location,
    ) -> LResult<naga::TypeInner> {
        if count == 0 {
            return Err(self.error(location, "arrays must not be empty"));
        }
        let bytes = u64::from(stride).checked_mul(count);
        let size = bytes
            .filter(|&bytes| bytes <= i32::MAX as u64)
            .and_then(|_| u32::try_from(count).ok())
            .and_then(std::num::NonZeroU32::new)
            .ok_or_else(|| self.too_large(ty, bytes, location))?;
        Ok(naga::TypeInner::Array {
            base,
            size: naga::ArraySize::Constant(size),
            stride,
        })
    }

    fn too_large(&mut self, ty: &Type, bytes: Option<u64>, location: Location) -> Failed {
        let size = bytes.map_or_else(|| "more than 2^64".into(), |b| b.to_string());
        let message = format!(
            "type '{}' is too large: it takes {size} bytes here, and this translator takes objects of at most {} bytes",
            self.display(ty),
            i32::MAX
        );
        self.error(location, message)
    }

    /// The naga type of a value of `ty` held in a register.
    pub(super) fn value_type(
        &mut self,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Type>> {
        crate::stack::guard(|| {
            if self.is_image(ty) {
                return Ok(self.image_type(ty));
            }
            let inner = match ty {
                Type::Scalar(s) => naga::TypeInner::Scalar(naga_scalar(*s)),
                Type::Vector(s, n) => match vector_size(*n) {
                    Some(size) => naga::TypeInner::Vector {
                        size,
                        scalar: naga_scalar(*s),
                    },
                    None if wide::is_wide(ty) => return Ok(self.wide_type(*s, *n)),
                    None => {
                        return Err(self.error(
                            location,
                            format!(
                                "{n}-component vectors are not supported yet by this translator"
                            ),
                        ))
                    }
                },
                Type::Array(elem, n) => {
                    let elem = &self.program.types[*elem];
                    let base = match elem {
                        // An array of pointers holds them as stored pointers.
                        Type::Pointer(_) => self.stored_pointer_type(),
                        _ => self.value_type(elem, location)?,
                    };
                    let stride = self.storage_stride(elem, location)?;
                    self.array(ty, base, stride, *n, location)?
                }
                Type::Record(r) => return self.record_type(*r, location),
                // Events of the work-group copies, which complete at once.
                Type::Opaque(crate::types::Opaque::Event) => {
                    naga::TypeInner::Scalar(naga::Scalar::U32)
                }
                // A sampler is its `crate::image::sampler` word.
                Type::Opaque(crate::types::Opaque::Sampler) => {
                    naga::TypeInner::Scalar(naga::Scalar::U32)
                }
                t => {
                    return Err(self.error(
                        location,
                        format!(
                            "values of type '{}' are not supported yet by this translator",
                            self.display(t)
                        ),
                    ))
                }
            };
            Ok(self.add_type(inner))
        })
    }

    /// A struct as a naga struct with the host's member offsets (from the
    /// layout engine), so it can live in buffers shared with the host.
    /// Unions and structs with members narrower than 32 bits are byte
    /// images instead (see `records.rs`) and do not come here.
    fn record_type(
        &mut self,
        r: Handle<Record>,
        location: Location,
    ) -> LResult<Handle<naga::Type>> {
        let handle = r;
        let r = self.record(r);
        if r.size > i32::MAX as u64 {
            return Err(self.too_large(&Type::Record(handle), Some(r.size), location));
        }
        if r.kind == crate::ast::RecordKind::Union {
            return Err(self.error(
                location,
                "internal compiler error: a union must be held as a byte image",
            ));
        }
        if r.fields.is_empty() {
            // A GNU C extension clang accepts; naga has no empty struct.
            return Err(self.error(
                location,
                "empty structs are not supported yet by this translator",
            ));
        }
        let mut members = Vec::with_capacity(r.fields.len());
        for field in &r.fields {
            let ty = self.memory_type(&field.ty, location)?;
            let name = &self.program.names[field.name];
            members.push(naga::StructMember {
                name: (!name.is_empty()).then(|| name.to_string()),
                ty,
                binding: None,
                offset: field.offset as u32,
            });
        }
        Ok(self.add_type(naga::TypeInner::Struct {
            members,
            span: r.size as u32,
        }))
    }

    /// The naga type of `ty` where its bytes are the host's (struct
    /// members, buffer elements): no 32-bit lanes for narrow types.
    fn memory_type(&mut self, ty: &Type, location: Location) -> LResult<Handle<naga::Type>> {
        crate::stack::guard(|| match ty {
            Type::Scalar(s) | Type::Vector(s, _) if s.size() < 4 => Err(self.error(
                location,
                format!(
                    "struct members of type '{}' are not supported yet by this translator",
                    self.display(ty)
                ),
            )),
            // A pointer member is held as a stored pointer (`stored.rs`),
            // in the pointer's 8 bytes.
            Type::Pointer(_) => Ok(self.stored_pointer_type()),
            Type::Array(elem, n) => {
                let elem = &self.program.types[*elem];
                let base = self.memory_type(elem, location)?;
                let stride = self.type_size(elem).unwrap_or(4) as u32;
                let inner = self.array(ty, base, stride, *n, location)?;
                Ok(self.add_type(inner))
            }
            _ => self.value_type(ty, location),
        })
    }

    /// The stride of `ty` in private or workgroup arrays, which no host
    /// sees: `char`/`short` values live in 32-bit lanes there.
    pub(super) fn storage_stride(&mut self, ty: &Type, location: Location) -> LResult<u32> {
        let widened = |s: Scalar| u32::from(naga_scalar(s).width);
        match ty {
            Type::Scalar(s) => Ok(widened(*s)),
            Type::Vector(s, n) => Ok(widened(*s) * u32::from(crate::types::storage_lanes(*n))),
            _ => self.type_size(ty).map(|s| s as u32).ok_or_else(|| {
                let ty = self.display(ty);
                self.error(location, format!("type '{ty}' has no size"))
            }),
        }
    }

    /// The element type of a buffer argument: only types whose memory layout
    /// naga can express directly (32/64-bit scalars and 2/3/4-vectors of
    /// them) for now; narrower types need the word view.
    pub(super) fn buffer_element_type(
        &mut self,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Type>> {
        if let Type::Scalar(s) | Type::Vector(s, _) = ty {
            if s.size() < 4 {
                // The word view: each u32 holds 4 chars/bools or 2
                // shorts/halfs.
                return Ok(self.u32_type());
            }
        }
        if self.is_image(ty) {
            // The word view, as for `char` buffers.
            return Ok(self.u32_type());
        }
        if let Type::Record(_) = ty {
            return self.memory_type(ty, location);
        }
        let ok = match ty {
            Type::Scalar(s) | Type::Vector(s, _) => s.size() >= 4 && *s != Scalar::Bool,
            _ => false,
        };
        if !ok {
            return Err(self.error(
                location,
                format!(
                    "buffers of '{}' are not supported yet by this translator",
                    self.display(ty)
                ),
            ));
        }
        self.value_type(ty, location)
    }

    pub(super) fn u32_type(&mut self) -> Handle<naga::Type> {
        self.add_type(naga::TypeInner::Scalar(naga::Scalar::U32))
    }

    pub(super) fn uvec3_type(&mut self) -> Handle<naga::Type> {
        self.add_type(naga::TypeInner::Vector {
            size: naga::VectorSize::Tri,
            scalar: naga::Scalar::U32,
        })
    }

    pub(super) fn private_global(
        &mut self,
        name: &str,
        ty: Handle<naga::Type>,
    ) -> Handle<naga::GlobalVariable> {
        self.module.global_variables.append(
            naga::GlobalVariable {
                name: Some(name.into()),
                space: naga::AddressSpace::Private,
                binding: None,
                ty,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            Span::UNDEFINED,
        )
    }
}
