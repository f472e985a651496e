//! How each record is held by the lowering, decided once per program: as
//! a naga struct, or as a byte image (unions, members narrower than 32
//! bits, packed layouts whose scalars are not aligned to their size, and
//! records containing such, and records a member of which has its
//! address taken in a variable, see [`addressed_members`], and records
//! whose objects outside buffers are seen through a pointer cast, see
//! [`cast_records`]). Asked for
//! every access and type of the lowering, this was walked anew each time through every nested member,
//! which made 400 nested structs take ten seconds to build.

use crate::ast::AddressSpace;
use crate::hir;
use crate::lexer::FxHashSet;
use crate::types::{Record, Type, Types};
use naga::Handle;

/// What the lowering asks of a record.
#[derive(Clone, Copy, Debug, Default)]
pub struct RecordFacts {
    /// Values of the record are held as byte images.
    pub image: bool,
    /// The size of the largest scalar in it (1 when it has none).
    pub largest_scalar: u64,
}

/// [`RecordFacts`] of every record of a program, by handle.
#[derive(Debug, Default)]
pub struct Records {
    facts: Vec<Option<RecordFacts>>,
}

impl Records {
    /// The facts of every record of `program`.
    pub fn of(program: &hir::Program) -> Self {
        let types = &program.types;
        let mut records = Records {
            facts: vec![None; types.records().count()],
        };
        let mut addressed = addressed_members(program);
        addressed.extend(cast_records(program));
        for (r, _) in types.records() {
            records.compute(types, r, &addressed);
        }
        records
    }

    pub fn get(&self, r: Handle<Record>) -> RecordFacts {
        self.facts
            .get(r.index())
            .copied()
            .flatten()
            .unwrap_or_default()
    }

    /// Whether values of `ty` are held as byte images.
    pub fn is_image(&self, types: &Types, ty: Type) -> bool {
        match types.innermost_element(ty) {
            Type::Record(r) => self.get(r).image,
            _ => false,
        }
    }

    /// The size of the largest scalar in `ty`.
    pub fn largest_scalar(&self, types: &Types, ty: Type) -> u64 {
        match types.innermost_element(ty) {
            Type::Scalar(s) | Type::Vector(s, _) => u64::from(s.size()),
            Type::Record(r) => self.get(r).largest_scalar,
            _ => 1,
        }
    }

    /// The facts of `r`, after those of the records among its members
    /// (which a record's handle may come after: `struct B;` then `struct
    /// A {...}; struct B { struct A a; };`). A record cannot hold itself,
    /// so this ends; it recurses as deep as records nest.
    fn compute(
        &mut self,
        types: &Types,
        r: Handle<Record>,
        addressed: &FxHashSet<Handle<Record>>,
    ) -> RecordFacts {
        if let Some(facts) = self.facts[r.index()] {
            return facts;
        }
        // Seen: a cycle (which the checker rejects) ends here.
        self.facts[r.index()] = Some(RecordFacts::default());
        crate::stack::guard(|| {
            let record = &types[r];
            for field in &record.fields {
                if let Type::Record(inner) = types.innermost_element(field.ty) {
                    self.compute(types, inner, addressed);
                }
            }
            let largest = |f: &crate::types::Field| self.largest_scalar(types, f.ty);
            let largest_scalar = record.fields.iter().map(largest).max().unwrap_or(1);
            // naga's structs need every scalar aligned to its size, in the
            // record and in arrays of it (packed records may not be).
            let naturally_aligned = record.size.is_multiple_of(largest_scalar)
                && record
                    .fields
                    .iter()
                    .all(|f| f.offset.is_multiple_of(largest(f)));
            let narrow = |f: &crate::types::Field| match types.innermost_element(f.ty) {
                Type::Scalar(s) | Type::Vector(s, _) => s.size() < 4,
                _ => false,
            };
            // naga has no empty struct: an empty C++ class (a function
            // object) is its one byte. GNU C's `struct {}` has none and
            // stays a named error in the lowering.
            let image = record.kind == crate::ast::RecordKind::Union
                || (record.fields.is_empty() && record.size > 0)
                || addressed.contains(&r)
                || !naturally_aligned
                || record
                    .fields
                    .iter()
                    .any(|f| narrow(f) || self.is_image(types, f.ty));
            let facts = RecordFacts {
                image,
                largest_scalar,
            };
            self.facts[r.index()] = Some(facts);
            facts
        })
    }
}

/// Records with a member whose address is taken in a variable (`s.arr`
/// decayed, `&s.x`, `&s.arr[i]`, `&a[i].inner.x` for a private,
/// `__local` or program-scope `__constant` `s` or array `a`), or through a
/// pointer (`&p->x`) to a record of a type whose objects in such a
/// variable have their address taken (`p` may point there). A pointer
/// into such a variable reads and writes its bytes through a cast base
/// (`lower/pointers/cast_memory.rs`), which needs the variable held as
/// words: an image. A member reached through a pointer into a buffer needs
/// nothing, as buffers have a view per type; which memory a pointer
/// reaches is not known here, so every object of such a record is an image.
fn addressed_members(program: &hir::Program) -> FxHashSet<Handle<Record>> {
    use hir::ExprKind as H;
    let types = &program.types;
    let mut out = FxHashSet::default();
    // Records reached through a pointer on the way to a member whose
    // address is taken, by the record the pointer points to.
    let mut through_pointers: Vec<(Handle<Record>, Vec<Handle<Record>>)> = Vec::new();
    // Records of objects in variables whose address is taken.
    let mut pointed = FxHashSet::default();
    for (_, f) in program.functions.iter() {
        for (_, e) in f.exprs.iter() {
            let (H::Decay(object) | H::AddressOf(object)) = e.kind else {
                continue;
            };
            // Down the places to the variable, noting each record passed.
            let mut records = Vec::new();
            let mut at = object;
            let in_variable = loop {
                match f.exprs[at].kind {
                    H::Member(base, _) => {
                        if let Type::Record(r) = f.exprs[base].ty {
                            records.push(r);
                        }
                        at = base;
                    }
                    H::Index(base, _) if !f.exprs[base].ty.is_pointer() => at = base,
                    H::Local(_) => break true,
                    // A program-scope `__constant` variable is a variable of
                    // the module too; `__global` ones are in the block,
                    // which has a view per type as buffers do.
                    H::Global(g) => break program.globals[g].space == AddressSpace::Constant,
                    H::Deref(_) | H::Index(..) => {
                        if let (Type::Record(outer), false) = (f.exprs[at].ty, records.is_empty()) {
                            through_pointers.push((outer, std::mem::take(&mut records)));
                        }
                        break false;
                    }
                    _ => break false,
                }
            };
            if in_variable {
                if let Type::Record(r) = types.innermost_element(f.exprs[object].ty) {
                    pointed.insert(r);
                }
                out.extend(records);
            }
        }
    }
    for (outer, records) in through_pointers {
        if pointed.contains(&outer) {
            out.extend(records);
        }
    }
    out
}

/// Records whose objects in `__local`, `__constant` or private memory a
/// pointer cast sees as another type (`(uchar *)&s`, a `void *` to it):
/// the cast pointer reads and writes their bytes with the host's layout
/// through a cast base (`lower/pointers/cast_memory.rs`), which needs
/// the object held as words, an image. Buffers have a view per type and
/// need nothing.
fn cast_records(program: &hir::Program) -> FxHashSet<Handle<Record>> {
    let types = &program.types;
    let mut out = FxHashSet::default();
    for (_, f) in program.functions.iter() {
        for (_, e) in f.exprs.iter() {
            let hir::ExprKind::PointerCast(inner) = e.kind else {
                continue;
            };
            let Some(from) = types.pointee(f.exprs[inner].ty) else {
                continue;
            };
            if from.space == crate::ast::AddressSpace::Global {
                continue;
            }
            if types.pointee(e.ty).map(|to| to.ty) == Some(from.ty) {
                continue;
            }
            if let Type::Record(r) = types.innermost_element(from.ty) {
                out.insert(r);
            }
        }
    }
    out
}
