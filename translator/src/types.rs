//! OpenCL C's types as the checker and the lowering see them, the built-in
//! type names, and sizes and alignments (OpenCL C 6.1: 3-vectors take the
//! size and alignment of 4-vectors; every built-in type is aligned to its
//! size).

use crate::ast::{self, AddressSpace};
use crate::hir::{Names, Symbol};
use crate::image::{ImageAccess, ImageDim};
use naga::{Arena, Handle, Span, UniqueArena};

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
const VECTOR_ELEMENTS: &[(&str, Scalar)] = VECTOR_ELEMENTS_BY_NAME;

/// The scalar types that have vectors, by the name written for them.
pub const VECTOR_ELEMENTS_BY_NAME: &[(&str, Scalar)] = &[
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

/// Types the language names whose values the translator cannot hold yet
/// (or that have no values at all): the checker says so by name instead of
/// "unknown type". The table behind [`Opaque::name`] and the lookup.
const OPAQUE_TYPES: &[(&str, Opaque)] = &[
    ("image1d_t", ImageType::read_only(ImageDim::D1, false)),
    (
        "image1d_array_t",
        ImageType::read_only(ImageDim::D1Array, false),
    ),
    (
        "image1d_buffer_t",
        ImageType::read_only(ImageDim::D1Buffer, false),
    ),
    ("image2d_t", ImageType::read_only(ImageDim::D2, false)),
    (
        "image2d_array_t",
        ImageType::read_only(ImageDim::D2Array, false),
    ),
    ("image2d_depth_t", ImageType::read_only(ImageDim::D2, true)),
    (
        "image2d_array_depth_t",
        ImageType::read_only(ImageDim::D2Array, true),
    ),
    ("image3d_t", ImageType::read_only(ImageDim::D3, false)),
    ("sampler_t", Opaque::Sampler),
    ("event_t", Opaque::Event),
    ("queue_t", Opaque::Queue),
    ("clk_event_t", Opaque::ClkEvent),
    ("reserve_id_t", Opaque::ReserveId),
    ("ndrange_t", Opaque::Ndrange),
];

/// An opaque built-in type (see `OPAQUE_TYPES`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opaque {
    /// An image type with the access qualifier it was declared with
    /// (`read_only` when none was written): `__read_only image2d_t` and
    /// `__write_only image2d_t` are different types, as in clang.
    Image(ImageType),
    /// A `sampler_t`, held as its [`crate::image::sampler`] word.
    Sampler,
    /// The events of the work-group copies, which the lowering holds as a
    /// `uint` (they complete at once).
    Event,
    Queue,
    ClkEvent,
    ReserveId,
    Ndrange,
}

impl Opaque {
    /// The type's name without an access qualifier.
    pub fn name(self) -> &'static str {
        let unqualified = match self {
            Opaque::Image(image) => Opaque::Image(ImageType {
                access: ImageAccess::ReadOnly,
                ..image
            }),
            other => other,
        };
        OPAQUE_TYPES
            .iter()
            .find(|(_, o)| *o == unqualified)
            .map_or("<opaque>", |(name, _)| name)
    }

    pub fn image(self) -> Option<ImageType> {
        match self {
            Opaque::Image(image) => Some(image),
            _ => None,
        }
    }
}

/// An image type: its dimensionality, whether it is a depth image, and its
/// access qualifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImageType {
    pub dim: ImageDim,
    pub depth: bool,
    pub access: ImageAccess,
}

impl ImageType {
    const fn read_only(dim: ImageDim, depth: bool) -> Opaque {
        Opaque::Image(ImageType {
            dim,
            depth,
            access: ImageAccess::ReadOnly,
        })
    }

    /// The qualifier as clang spells it in types.
    pub fn access_spelling(self) -> &'static str {
        match self.access {
            ImageAccess::ReadOnly => "__read_only",
            ImageAccess::WriteOnly => "__write_only",
            ImageAccess::ReadWrite => "__read_write",
        }
    }
}

/// What a built-in type name that is not a C keyword means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltinName {
    Scalar(Scalar),
    /// `size_t` and friends: their width depends on the device.
    SizeType {
        signed: bool,
    },
    Vector(Scalar, u8),
    Opaque(Opaque),
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
    OPAQUE_TYPES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, o)| BuiltinName::Opaque(o))
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
pub fn is_vector_type_name(ty: &ast::TypeName, spellings: &crate::lexer::Spellings) -> bool {
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

/// A type without top-level qualifiers: a small value whose compound
/// parts (pointees, array elements, records) are interned in the program's
/// [`Types`], so that types are `Copy`, compare in O(1), and can cross
/// threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    Scalar(Scalar),
    Vector(Scalar, u8),
    Pointer(Handle<Pointee>),
    /// An array of the element type and length.
    Array(Handle<Type>, u64),
    Record(Handle<Record>),
    /// A type the translator knows by name but cannot compile yet.
    Opaque(Opaque),
    /// The placeholder type of an expression that had an error: accepted
    /// everywhere, reported nowhere.
    Error,
}

/// What a pointer points to: the type, its qualifiers and its address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
    pub name: Symbol,
    pub ty: Type,
    pub offset: u64,
    /// Its alignment in the record (`aligned` and `packed` applied), what
    /// `__alignof__(s.field)` is.
    pub align: u64,
}

/// A struct or union type. Each definition or forward declaration of a tag
/// is one record, so two record types are the same when their handles are.
#[derive(Clone, Debug)]
pub struct Record {
    pub kind: ast::RecordKind,
    /// Empty for an anonymous record.
    pub name: Symbol,
    /// False for a declared but not (yet) defined tag.
    pub complete: bool,
    pub fields: Vec<Field>,
    pub size: u64,
    pub align: u64,
}

impl Type {
    pub const BOOL: Type = Type::Scalar(Scalar::Bool);
    pub const CHAR: Type = Type::Scalar(Scalar::Char);
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

    pub fn is_pointer(&self) -> bool {
        matches!(self, Type::Pointer(_))
    }

    pub fn is_array(&self) -> bool {
        matches!(self, Type::Array(..))
    }

    pub fn is_error(&self) -> bool {
        matches!(self, Type::Error)
    }

    pub fn image(&self) -> Option<ImageType> {
        match self {
            Type::Opaque(o) => o.image(),
            _ => None,
        }
    }

    pub fn is_integer_scalar(&self) -> bool {
        self.scalar().is_some_and(Scalar::is_integer)
    }

    pub fn is_sampler(&self) -> bool {
        matches!(self, Type::Opaque(Opaque::Sampler))
    }
}

/// The program's compound types, each held once: pointees and array
/// elements are interned (equal ones share a handle), records are one entry
/// per tag definition and are completed in place. Sizes and alignments are
/// for one device, whose address width is fixed at creation.
#[derive(Debug)]
pub struct Types {
    pointees: UniqueArena<Pointee>,
    elements: UniqueArena<Type>,
    records: Arena<Record>,
    address_bits: u32,
}

impl Types {
    pub fn new(address_bits: u32) -> Self {
        Types {
            pointees: UniqueArena::new(),
            elements: UniqueArena::new(),
            records: Arena::new(),
            address_bits,
        }
    }

    /// Width of pointers, `size_t` and `ptrdiff_t` on the device.
    pub fn address_bits(&self) -> u32 {
        self.address_bits
    }

    pub fn pointer(&mut self, pointee: Pointee) -> Type {
        Type::Pointer(self.pointees.insert(pointee, Span::UNDEFINED))
    }

    pub fn array(&mut self, element: Type, len: u64) -> Type {
        Type::Array(self.elements.insert(element, Span::UNDEFINED), len)
    }

    pub fn add_record(&mut self, record: Record) -> Handle<Record> {
        self.records.append(record, Span::UNDEFINED)
    }

    pub fn record_mut(&mut self, r: Handle<Record>) -> &mut Record {
        self.records.get_mut(r)
    }

    /// Every record, in the order their tags were declared.
    pub fn records(&self) -> impl Iterator<Item = (Handle<Record>, &Record)> {
        self.records.iter()
    }

    pub fn pointee(&self, ty: Type) -> Option<&Pointee> {
        match ty {
            Type::Pointer(p) => Some(&self.pointees[p]),
            _ => None,
        }
    }

    /// The element type of an array.
    pub fn array_element(&self, ty: Type) -> Option<Type> {
        match ty {
            Type::Array(e, _) => Some(self.elements[e]),
            _ => None,
        }
    }

    /// `ty` with arrays of arrays looked through to their innermost
    /// element.
    pub fn innermost_element(&self, mut ty: Type) -> Type {
        while let Type::Array(e, _) = ty {
            ty = self.elements[e];
        }
        ty
    }

    /// `sizeof`, with 3-vectors the size of 4-vectors (OpenCL C 6.1.5).
    pub fn size(&self, ty: Type) -> Option<u64> {
        Some(match ty {
            // An opaque handle that only lives in private memory (arrays of
            // events are common); the lowering holds it as a `uint`.
            Type::Opaque(Opaque::Event) => 4,
            Type::Void | Type::Opaque(_) | Type::Error => return None,
            Type::Scalar(s) => s.size() as u64,
            Type::Vector(s, n) => s.size() as u64 * storage_lanes(n) as u64,
            Type::Pointer(_) => self.address_bits as u64 / 8,
            // A loop over the dimensions: arrays nest as deep as declarators
            // and typedefs make them. A size past `u64` has none.
            Type::Array(..) => {
                let (mut count, mut t) = (1u64, ty);
                while let Type::Array(e, n) = t {
                    count = count.checked_mul(n)?;
                    t = self.elements[e];
                }
                self.size(t)?.checked_mul(count)?
            }
            Type::Record(r) if !self.records[r].complete => return None,
            Type::Record(r) => self.records[r].size,
        })
    }

    /// Alignment: built-in types are aligned to their size.
    pub fn align(&self, ty: Type) -> Option<u64> {
        Some(match ty {
            Type::Array(..) => self.align(self.innermost_element(ty))?,
            Type::Record(r) => self.records[r].align,
            t => self.size(t)?,
        })
    }

    /// The type as clang spells it in diagnostics; `names` spells record
    /// tags.
    pub fn display(&self, ty: Type, names: &Names) -> String {
        crate::stack::guard(|| match ty {
            Type::Void => "void".into(),
            Type::Scalar(s) => s.name().into(),
            Type::Vector(s, n) => format!("{}{n}", s.name()),
            Type::Pointer(p) => {
                let p = &self.pointees[p];
                let space = match p.space {
                    AddressSpace::Global => "__global ",
                    AddressSpace::Constant => "__constant ",
                    AddressSpace::Local => "__local ",
                    AddressSpace::Private => "",
                    AddressSpace::Generic => "__generic ",
                };
                let c = if p.is_const { "const " } else { "" };
                format!("{space}{c}{}*", self.display(p.ty, names))
            }
            Type::Array(e, n) => format!("{}[{n}]", self.display(self.elements[e], names)),
            Type::Record(r) => {
                let r = &self.records[r];
                let keyword = match r.kind {
                    ast::RecordKind::Struct => "struct",
                    ast::RecordKind::Union => "union",
                };
                match &names[r.name] {
                    "" => format!("{keyword} (anonymous)"),
                    name => format!("{keyword} {name}"),
                }
            }
            Type::Opaque(Opaque::Image(image)) => {
                format!(
                    "{} {}",
                    image.access_spelling(),
                    Opaque::Image(image).name()
                )
            }
            Type::Opaque(o) => o.name().to_string(),
            Type::Error => "<error>".to_string(),
        })
    }
}

impl std::ops::Index<Handle<Pointee>> for Types {
    type Output = Pointee;
    fn index(&self, p: Handle<Pointee>) -> &Pointee {
        &self.pointees[p]
    }
}

impl std::ops::Index<Handle<Type>> for Types {
    type Output = Type;
    fn index(&self, e: Handle<Type>) -> &Type {
        &self.elements[e]
    }
}

impl std::ops::Index<Handle<Record>> for Types {
    type Output = Record;
    fn index(&self, r: Handle<Record>) -> &Record {
        &self.records[r]
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
        let types = Types::new(64);
        assert_eq!(types.size(Type::Vector(Scalar::Float, 3)), Some(16));
        assert_eq!(types.align(Type::Vector(Scalar::Short, 3)), Some(8));
        assert_eq!(types.size(Type::Vector(Scalar::Long, 16)), Some(128));
    }
}
