//! The layout engine: the one place that decides sizes, alignments and
//! member offsets of structs and unions, following the C rules as GCC and
//! clang apply them, with OpenCL's built-in type sizes (3-vectors take the
//! room of 4) and the `aligned`/`packed` attributes (OpenCL C 6.11.1):
//!
//! - `aligned(n)` on a member or a record only increases alignment, unless
//!   the member is also `packed`;
//! - `packed` on a record packs every member; on a member, that member;
//! - a typedef's own alignment (set by `aligned` on the typedef, which may
//!   decrease it) replaces the natural alignment of members of that type.
//!
//! Host and device share buffers of these types, so the result must be
//! byte-identical to the host compiler's: `translator/tests/layout.rs`
//! compares it with the system C compiler on the Khronos host types.

use crate::ast::RecordKind;
use crate::hir::Symbol;
use crate::types::{Field, Type, Types};

/// `__attribute__((aligned))` without a value: the largest alignment of any
/// OpenCL type (`long16`, `double16`).
pub const MAX_ALIGNMENT: u64 = 128;

/// One member as declared, with the attributes that affect its placement.
#[derive(Clone, Debug)]
pub struct FieldSpec {
    pub name: Symbol,
    pub ty: Type,
    /// The alignment of the member's type when it names a typedef declared
    /// with `aligned` (which may be below the natural alignment).
    pub type_align: Option<u64>,
    /// `aligned(n)` on the member.
    pub aligned: Option<u64>,
    /// `packed` on the member.
    pub packed: bool,
}

/// Attributes of the record type itself.
#[derive(Clone, Copy, Debug, Default)]
pub struct RecordAttributes {
    pub aligned: Option<u64>,
    pub packed: bool,
    /// A C++ class: an empty one still takes a byte (C++17 [intro.object]),
    /// where GNU C's empty struct takes none.
    pub cxx: bool,
}

/// A record's layout.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub fields: Vec<Field>,
    pub size: u64,
    pub align: u64,
}

/// Lays out a record, or names the first member whose type has no size
/// (void, an incomplete record, an unsized array).
pub fn layout_record(
    kind: RecordKind,
    members: &[FieldSpec],
    attributes: RecordAttributes,
    types: &Types,
) -> Result<Layout, Symbol> {
    let mut fields = Vec::with_capacity(members.len());
    let mut end = 0u64;
    let mut align = 1u64;
    for m in members {
        let size = types.size(m.ty).ok_or(m.name)?;
        let natural = m.type_align.or_else(|| types.align(m.ty)).unwrap_or(1);
        let mut field_align = if m.packed || attributes.packed {
            1
        } else {
            natural
        };
        if let Some(n) = m.aligned {
            field_align = field_align.max(n);
        }
        let offset = match kind {
            RecordKind::Struct => end.next_multiple_of(field_align),
            RecordKind::Union => 0,
        };
        end = end.max(offset + size);
        align = align.max(field_align);
        fields.push(Field {
            name: m.name,
            ty: m.ty,
            offset,
            align: field_align,
        });
    }
    if let Some(n) = attributes.aligned {
        align = align.max(n);
    }
    let size = match end.next_multiple_of(align) {
        0 if attributes.cxx => align,
        size => size,
    };
    Ok(Layout {
        fields,
        size,
        align,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Scalar;

    fn member(name: &str, ty: Type) -> FieldSpec {
        let name = crate::hir::Names::default().intern(name);
        FieldSpec {
            name,
            ty,
            type_align: None,
            aligned: None,
            packed: false,
        }
    }

    fn offsets(l: &Layout) -> Vec<u64> {
        l.fields.iter().map(|f| f.offset).collect()
    }

    #[test]
    fn natural_layout_with_three_vectors_as_four() {
        let members = [
            member("a", Type::Scalar(Scalar::Char)),
            member("v", Type::Vector(Scalar::Float, 3)),
            member("s", Type::Scalar(Scalar::Short)),
        ];
        let l = layout_record(
            RecordKind::Struct,
            &members,
            RecordAttributes::default(),
            &Types::new(64),
        )
        .unwrap();
        assert_eq!(offsets(&l), [0, 16, 32]);
        assert_eq!((l.size, l.align), (48, 16));
    }

    #[test]
    fn packed_member_follows_immediately() {
        // The seed's `struct foo { char a; int x[2] __attribute__((packed)); }`.
        let mut types = Types::new(64);
        let mut x = member("x", types.array(Type::INT, 2));
        x.packed = true;
        let members = [member("a", Type::Scalar(Scalar::Char)), x];
        let l = layout_record(
            RecordKind::Struct,
            &members,
            RecordAttributes::default(),
            &types,
        )
        .unwrap();
        assert_eq!(offsets(&l), [0, 1]);
        assert_eq!((l.size, l.align), (9, 1));
    }

    #[test]
    fn aligned_only_increases_unless_packed() {
        let mut types = Types::new(64);
        let mut x = member("x", types.array(Type::INT, 2));
        x.aligned = Some(8);
        let l = layout_record(
            RecordKind::Struct,
            &[x.clone()],
            RecordAttributes::default(),
            &types,
        )
        .unwrap();
        assert_eq!((l.size, l.align), (8, 8));
        x.aligned = Some(2);
        let l = layout_record(
            RecordKind::Struct,
            &[x.clone()],
            RecordAttributes::default(),
            &types,
        )
        .unwrap();
        assert_eq!(l.align, 4);
        x.packed = true;
        let l = layout_record(
            RecordKind::Struct,
            &[x],
            RecordAttributes::default(),
            &types,
        )
        .unwrap();
        assert_eq!(l.align, 2);
    }

    #[test]
    fn unions_overlap_and_round_up() {
        let mut types = Types::new(64);
        let members = [
            member("c", types.array(Type::Scalar(Scalar::Char), 5)),
            member("i", Type::INT),
        ];
        let attributes = RecordAttributes {
            aligned: Some(16),
            ..RecordAttributes::default()
        };
        let l = layout_record(RecordKind::Union, &members, attributes, &types).unwrap();
        assert_eq!(offsets(&l), [0, 0]);
        assert_eq!((l.size, l.align), (16, 16));
    }
}
