//! OpenCL C's types as the checker and the lowering see them, the built-in
//! type names, and sizes and alignments (OpenCL C 6.1: 3-vectors take the
//! size and alignment of 4-vectors; every built-in type is aligned to its
//! size).

use crate::ast::{self, AddressSpace};
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scalar {
    Bool,
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    Half,
    Float,
    Double,
}

impl Scalar {
    /// Size in bytes in memory (`bool` has no defined size in buffers; it is
    /// 1 as in clang).
    pub fn size(self) -> u32 {
        use Scalar::*;
        match self {
            Bool | Char | UChar => 1,
            Short | UShort | Half => 2,
            Int | UInt | Float => 4,
            Long | ULong | Double => 8,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, Scalar::Half | Scalar::Float | Scalar::Double)
    }

    pub fn is_integer(self) -> bool {
        !self.is_float()
    }

    pub fn is_signed(self) -> bool {
        use Scalar::*;
        matches!(self, Char | Short | Int | Long) || self.is_float()
    }

    /// C's integer conversion rank (C99 6.3.1.1).
    pub fn rank(self) -> u32 {
        use Scalar::*;
        match self {
            Bool => 0,
            Char | UChar => 1,
            Short | UShort => 2,
            Int | UInt => 3,
            Long | ULong => 4,
            Half => 10,
            Float => 11,
            Double => 12,
        }
    }

    pub fn to_unsigned(self) -> Scalar {
        use Scalar::*;
        match self {
            Char => UChar,
            Short => UShort,
            Int => UInt,
            Long => ULong,
            s => s,
        }
    }

    /// The signed integer of the same size, the element type of vector
    /// comparison results.
    pub fn to_signed_int(self) -> Scalar {
        match self.size() {
            1 => Scalar::Char,
            2 => Scalar::Short,
            4 => Scalar::Int,
            _ => Scalar::Long,
        }
    }

    pub fn name(self) -> &'static str {
        use Scalar::*;
        match self {
            Bool => "bool",
            Char => "char",
            UChar => "uchar",
            Short => "short",
            UShort => "ushort",
            Int => "int",
            UInt => "uint",
            Long => "long",
            ULong => "ulong",
            Half => "half",
            Float => "float",
            Double => "double",
        }
    }
}

/// The element types vectors may have, by name: the table behind
/// `float4`, `uchar16`, ...
const VECTOR_ELEMENTS: &[(&str, Scalar)] = &[
    ("char", Scalar::Char),
    ("uchar", Scalar::UChar),
    ("short", Scalar::Short),
    ("ushort", Scalar::UShort),
    ("int", Scalar::Int),
    ("uint", Scalar::UInt),
    ("long", Scalar::Long),
    ("ulong", Scalar::ULong),
    ("half", Scalar::Half),
    ("float", Scalar::Float),
    ("double", Scalar::Double),
];

pub const VECTOR_WIDTHS: [u8; 5] = [2, 3, 4, 8, 16];

/// Types that exist in the language but that the translator does not
/// support yet: named so the checker can say so instead of "unknown type".
const OPAQUE_TYPES: &[&str] = &[
    "image1d_t",
    "image1d_array_t",
    "image1d_buffer_t",
    "image2d_t",
    "image2d_array_t",
    "image2d_depth_t",
    "image2d_array_depth_t",
    "image3d_t",
    "sampler_t",
    "event_t",
    "queue_t",
    "clk_event_t",
    "reserve_id_t",
    "ndrange_t",
];

/// What a built-in type name that is not a C keyword means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltinName {
    Scalar(Scalar),
    /// `size_t` and friends: their width depends on the device.
    SizeType {
        signed: bool,
    },
    Vector(Scalar, u8),
    Opaque,
}

pub fn lookup_builtin_type_name(name: &str) -> Option<BuiltinName> {
    // Only vector names end in a digit, and they are most of the built-in
    // type names a kernel writes: straight to them.
    if name.ends_with(|c: char| c.is_ascii_digit()) {
        return vector_type_name(name);
    }
    match name {
        "uchar" => return Some(BuiltinName::Scalar(Scalar::UChar)),
        "ushort" => return Some(BuiltinName::Scalar(Scalar::UShort)),
        "uint" => return Some(BuiltinName::Scalar(Scalar::UInt)),
        "ulong" => return Some(BuiltinName::Scalar(Scalar::ULong)),
        "size_t" | "uintptr_t" => return Some(BuiltinName::SizeType { signed: false }),
        "ptrdiff_t" | "intptr_t" => return Some(BuiltinName::SizeType { signed: true }),
        // Enum and flag types of the synchronisation built-ins.
        "cl_mem_fence_flags" => return Some(BuiltinName::Scalar(Scalar::UInt)),
        "memory_order" | "memory_scope" => return Some(BuiltinName::Scalar(Scalar::Int)),
        // OpenCL C 2.0 atomic types, checked as their value types; the
        // checker rejects them before 2.0.
        "atomic_int" | "atomic_flag" => return Some(BuiltinName::Scalar(Scalar::Int)),
        "atomic_uint" => return Some(BuiltinName::Scalar(Scalar::UInt)),
        "atomic_long" => return Some(BuiltinName::Scalar(Scalar::Long)),
        "atomic_ulong" => return Some(BuiltinName::Scalar(Scalar::ULong)),
        "atomic_float" => return Some(BuiltinName::Scalar(Scalar::Float)),
        "atomic_double" => return Some(BuiltinName::Scalar(Scalar::Double)),
        "atomic_size_t" | "atomic_uintptr_t" => {
            return Some(BuiltinName::SizeType { signed: false })
        }
        "atomic_ptrdiff_t" | "atomic_intptr_t" => {
            return Some(BuiltinName::SizeType { signed: true })
        }
        _ => {}
    }
    if OPAQUE_TYPES.contains(&name) {
        return Some(BuiltinName::Opaque);
    }
    None
}

/// `float4`, `uchar16`, ...: an element type name and a vector width.
fn vector_type_name(name: &str) -> Option<BuiltinName> {
    let digits = name.trim_end_matches(|c: char| c.is_ascii_digit());
    let width: u8 = name[digits.len()..].parse().ok()?;
    if !VECTOR_WIDTHS.contains(&width) {
        return None;
    }
    VECTOR_ELEMENTS
        .iter()
        .find(|(n, _)| *n == digits)
        .map(|&(_, s)| BuiltinName::Vector(s, width))
}

pub fn is_builtin_type_name(name: &str) -> bool {
    lookup_builtin_type_name(name).is_some()
}

/// Is `ty` written as a plain vector type name (for vector literals) or a
/// typedef name (which the checker resolves)? `spellings` spells its names.
pub fn is_vector_type_name(ty: &ast::TypeName, spellings: &[Rc<str>]) -> bool {
    if !ty.declarator.derived.is_empty() {
        return false;
    }
    match &ty.specs.ty {
        ast::TypeSpec::Builtin(name) => {
            matches!(
                lookup_builtin_type_name(&spellings[name.0 as usize]),
                Some(BuiltinName::Vector(..))
            )
        }
        ast::TypeSpec::Typedef(_) => true,
        _ => false,
    }
}

/// A type without top-level qualifiers.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    Void,
    Scalar(Scalar),
    Vector(Scalar, u8),
    Pointer(Rc<Pointee>),
    Array(Rc<Type>, u64),
    Record(Rc<Record>),
    /// A type the translator knows by name but cannot compile yet.
    Unsupported(Rc<str>),
}

/// What a pointer points to: the type, its qualifiers and its address space.
#[derive(Clone, Debug, PartialEq)]
pub struct Pointee {
    pub ty: Type,
    pub is_const: bool,
    pub is_volatile: bool,
    pub space: AddressSpace,
    /// `__attribute__((endian(host)))` on the pointer: the data is in the
    /// host's byte order (the same as the device's on every target so far).
    pub endian_host: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub name: Rc<str>,
    pub ty: Type,
    pub offset: u64,
}

/// A struct or union type. Two records are the same type when they have
/// the same `id` (one per definition or forward declaration of a tag).
#[derive(Clone, Debug)]
pub struct Record {
    pub kind: ast::RecordKind,
    pub name: Rc<str>,
    pub id: u32,
    /// False for a declared but not (yet) defined tag.
    pub complete: bool,
    pub fields: Vec<Field>,
    pub size: u64,
    pub align: u64,
}

impl PartialEq for Record {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Type {
    pub const BOOL: Type = Type::Scalar(Scalar::Bool);
    pub const INT: Type = Type::Scalar(Scalar::Int);
    pub const UINT: Type = Type::Scalar(Scalar::UInt);
    pub const FLOAT: Type = Type::Scalar(Scalar::Float);

    pub fn scalar(&self) -> Option<Scalar> {
        match *self {
            Type::Scalar(s) => Some(s),
            _ => None,
        }
    }

    /// The element type of a scalar or a vector.
    pub fn element(&self) -> Option<Scalar> {
        match *self {
            Type::Scalar(s) | Type::Vector(s, _) => Some(s),
            _ => None,
        }
    }

    pub fn is_arithmetic(&self) -> bool {
        matches!(self, Type::Scalar(_) | Type::Vector(..))
    }

    pub fn is_integer(&self) -> bool {
        self.element().is_some_and(Scalar::is_integer)
    }

    pub fn pointee(&self) -> Option<&Pointee> {
        match self {
            Type::Pointer(p) => Some(p),
            _ => None,
        }
    }

    /// `sizeof`, with 3-vectors the size of 4-vectors (OpenCL C 6.1.5).
    pub fn size(&self, address_bits: u32) -> Option<u64> {
        Some(match self {
            // An opaque handle that only lives in private memory (arrays of
            // events are common); the lowering holds it as a `uint`.
            Type::Unsupported(name) if &**name == "event_t" => 4,
            Type::Void | Type::Unsupported(_) => return None,
            Type::Scalar(s) => s.size() as u64,
            Type::Vector(s, n) => s.size() as u64 * storage_lanes(*n) as u64,
            Type::Pointer(_) => address_bits as u64 / 8,
            Type::Array(t, n) => t.size(address_bits)? * n,
            Type::Record(r) if !r.complete => return None,
            Type::Record(r) => r.size,
        })
    }

    /// Alignment: built-in types are aligned to their size.
    pub fn align(&self, address_bits: u32) -> Option<u64> {
        Some(match self {
            Type::Array(t, _) => t.align(address_bits)?,
            Type::Record(r) => r.align,
            t => t.size(address_bits)?,
        })
    }

    pub fn display(&self) -> String {
        match self {
            Type::Void => "void".into(),
            Type::Scalar(s) => s.name().into(),
            Type::Vector(s, n) => format!("{}{n}", s.name()),
            Type::Pointer(p) => {
                let space = match p.space {
                    AddressSpace::Global => "__global ",
                    AddressSpace::Constant => "__constant ",
                    AddressSpace::Local => "__local ",
                    AddressSpace::Private => "",
                    AddressSpace::Generic => "__generic ",
                };
                let c = if p.is_const { "const " } else { "" };
                format!("{space}{c}{}*", p.ty.display())
            }
            Type::Array(t, n) => format!("{}[{n}]", t.display()),
            Type::Record(r) => {
                let keyword = match r.kind {
                    ast::RecordKind::Struct => "struct",
                    ast::RecordKind::Union => "union",
                };
                if r.name.is_empty() {
                    format!("{keyword} (anonymous)")
                } else {
                    format!("{keyword} {}", r.name)
                }
            }
            Type::Unsupported(n) => n.to_string(),
        }
    }
}

/// Lanes a vector occupies in memory: 3-vectors are stored as 4.
pub fn storage_lanes(n: u8) -> u8 {
    if n == 3 {
        4
    } else {
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_names_and_vector_sizes() {
        assert_eq!(
            lookup_builtin_type_name("float4"),
            Some(BuiltinName::Vector(Scalar::Float, 4))
        );
        assert_eq!(
            lookup_builtin_type_name("uchar16"),
            Some(BuiltinName::Vector(Scalar::UChar, 16))
        );
        assert_eq!(lookup_builtin_type_name("float5"), None);
        assert_eq!(lookup_builtin_type_name("bool2"), None);
        assert_eq!(Type::Vector(Scalar::Float, 3).size(64), Some(16));
        assert_eq!(Type::Vector(Scalar::Short, 3).align(64), Some(8));
        assert_eq!(Type::Vector(Scalar::Long, 16).size(64), Some(128));
    }
}
