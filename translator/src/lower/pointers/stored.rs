//! Pointers stored in objects: elements of arrays of pointers, members of
//! structs and unions that are pointers (or arrays of them), and pointer
//! variables whose address is taken.
//!
//! Such a pointer is a *stored pointer*, a `vec2<u32>` in the pointer's 8
//! bytes: its element index and its root's position in the root set of
//! where it is stored. The analysis gives the sets
//! ([`crate::analysis::provenance::Stored`]): an array of pointers has its
//! own, as a pointer variable does; a record's pointer member has one per
//! kernel, shared by every value of the record type, so a struct can be
//! copied, passed to helpers and returned as a plain naga value; and the
//! pointers of one type that pointers to pointers reach (`*pp`, `p` in
//! `pp = &p`) share one per kernel, so `*pp` reads any of them alike, in
//! the kernel or in a helper given `&p`. Every set starts with the null
//! pointer, so a zeroed pointer (`View v = {0}`, a member a list leaves
//! out) is null.
//!
//! A kernel's set may name its private variables, which other functions
//! cannot reach: a helper that reads such a place is a build error.

use crate::analysis::provenance::{self, Origin, Shared, Stored};
use crate::diagnostic::Location;
use crate::hir::{ExprId, FunctionId, LocalId};
use crate::lexer::FxHashMap;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::expressions::Value;
use crate::lower::function::FnBuilder;
use crate::lower::pointers::{Choice, Place, PointerValue, Root, Target};
use crate::types::Type;
use naga::Handle;

/// The root set of where a pointer is stored (an index into
/// `ModuleBuilder::root_sets`, whose first root is null).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::lower) struct StoredRoots(usize);

/// The kernel's sets of shared places' roots, made as the kernel starts.
#[derive(Default)]
pub(in crate::lower) struct MemberSets {
    /// The kernel whose module this is.
    entry: Option<FunctionId>,
    sets: FxHashMap<Shared, StoredRoots>,
}

static NO_CELLS: std::sync::LazyLock<crate::lexer::FxHashSet<LocalId>> =
    std::sync::LazyLock::new(Default::default);

/// Whether `root` is private memory of the function that names it.
fn is_private(mb: &ModuleBuilder, root: Root) -> bool {
    match root {
        Root::Private(..) | Root::Argument { .. } => true,
        Root::Cast(b) => is_private(mb, mb.memory.cast_base_root(b)),
        Root::Global(_) | Root::Null => false,
    }
}

impl ModuleBuilder<'_> {
    /// The naga type of a stored pointer: index and root position.
    pub(in crate::lower) fn stored_pointer_type(&mut self) -> Handle<naga::Type> {
        self.returned_pointer_type()
    }

    /// A root set for stored pointers: null first, then `roots`.
    fn stored_set(&mut self, roots: Vec<Root>) -> StoredRoots {
        let mut set = vec![Root::Null];
        set.extend(roots.into_iter().filter(|r| *r != Root::Null));
        StoredRoots(self.root_set(set))
    }

    /// Makes the kernel's shared sets from the analysis's facts of the
    /// kernel (`fb`, whose locals have their slots): each place's own
    /// roots, then those of the places it is given (`Origin::Shared`).
    pub(in crate::lower) fn make_member_sets(&mut self, fb: &FnBuilder) {
        if self.memory.members.entry.is_some() {
            return;
        }
        self.memory.members.entry = Some(fb.hir);
        let Some(facts) = self.analysis.function(fb.hir) else {
            return;
        };
        let members = &facts.pointers.shared;
        let mut concrete: FxHashMap<Shared, Vec<Root>> = FxHashMap::default();
        for (&key, roots) in members {
            let own: Vec<_> = roots
                .iter()
                .filter(|p| !matches!(p.origin, Origin::Shared(..)))
                .cloned()
                .collect();
            let own = self.concrete_roots(fb, &own);
            concrete.insert(key, own);
        }
        // Members given other members' pointers: until nothing more flows.
        loop {
            let mut changed = false;
            for (&key, roots) in members {
                for p in roots {
                    let Origin::Shared(from) = p.origin else {
                        continue;
                    };
                    let more = concrete.get(&from).cloned().unwrap_or_default();
                    let set = concrete.entry(key).or_default();
                    for r in more {
                        if !set.contains(&r) {
                            set.push(r);
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        // In the order the analysis found them, for the same module each
        // build.
        let keys: Vec<Shared> = members.keys().copied().collect();
        for key in keys {
            let set = self.stored_set(concrete[&key].clone());
            self.memory.members.sets.insert(key, set);
        }
    }

    /// The roots shared place `shared` may hold, in `fb`'s function (null
    /// first; the kernel's private variables only in the kernel).
    pub(in crate::lower) fn shared_roots_in(&self, fb: &FnBuilder, shared: Shared) -> Vec<Root> {
        let Some(&StoredRoots(set)) = self.memory.members.sets.get(&shared) else {
            // Never given a pointer: null, as `shared_set` says.
            return vec![Root::Null];
        };
        let in_kernel = self.memory.members.entry == Some(fb.hir);
        (self.memory.root_sets[set].iter().copied())
            .filter(|&r| in_kernel || !is_private(self, r))
            .collect()
    }

    /// The root set of where the pointer place `e` is stored.
    fn stored_roots(
        &mut self,
        fb: &FnBuilder,
        e: ExprId,
        location: Location,
    ) -> LResult<StoredRoots> {
        match provenance::stored_place(fb.source, self.cells(fb), e) {
            Some(Stored::Local(array)) => match fb.stored.get(&array) {
                Some(&roots) => Ok(roots),
                None => Err(self.internal_error(fb, array)),
            },
            Some(Stored::Shared(shared)) => self.shared_set(fb, shared, location),
            None => Err(self.error(
                location,
                "this pointer is stored where the translator cannot follow it yet (a pointer reached through another pointer)",
            )),
        }
    }

    /// The root set of shared place `shared` in `fb`'s function.
    pub(in crate::lower) fn shared_set(
        &mut self,
        fb: &FnBuilder,
        shared: Shared,
        location: Location,
    ) -> LResult<StoredRoots> {
        let Some(&set) = self.memory.members.sets.get(&shared) else {
            // Never given a pointer: null.
            return Ok(self.stored_set(Vec::new()));
        };
        let in_kernel = self.memory.members.entry == Some(fb.hir);
        let private = (self.memory.root_sets[set.0].iter()).any(|&r| is_private(self, r));
        if !in_kernel && private {
            let what = match shared {
                Shared::Member(record, field) => {
                    let name = self.display(&Type::Record(record));
                    let member = &self.program.names[self.record(record).fields[field].name];
                    format!("member '{member}' of '{name}'")
                }
                Shared::Cell(ty) => {
                    format!(
                        "the '{}' a pointer to a pointer reaches here",
                        self.display(&ty)
                    )
                }
            };
            return Err(self.error(
                location,
                format!("{what} holds a pointer to a private variable of the kernel, which this function cannot reach: pointers to private memory stored in structs, or reached through pointers to pointers, are supported only in the kernel that declares the memory"),
            ));
        }
        Ok(set)
    }

    /// The root set of local array of pointers `array` (or pointer
    /// variable whose address is taken, a cell), from the analysis.
    pub(in crate::lower) fn array_set(
        &mut self,
        fb: &FnBuilder,
        array: LocalId,
    ) -> LResult<StoredRoots> {
        let location = fb.local(array).span.location();
        match provenance::stored_cell(self.program, fb.source, self.cells(fb), array) {
            Some(shared) => self.shared_set(fb, shared, location),
            None => {
                let roots = self.variable_roots(fb, array);
                Ok(self.stored_set(roots))
            }
        }
    }

    /// The pointer variables and arrays of pointers of `fb`'s function
    /// whose address is taken.
    pub(in crate::lower) fn cells<'b>(
        &self,
        fb: &FnBuilder<'b>,
    ) -> &'b crate::lexer::FxHashSet<LocalId>
    where
        Self: 'b,
    {
        self.analysis
            .function(fb.hir)
            .map(|f| &f.pointers.cells)
            .unwrap_or(&NO_CELLS)
    }

    /// `place` (memory holding a stored pointer, or several by a root
    /// chosen at run time) as a pointer place for `e`.
    pub(in crate::lower) fn stored_pointer_place(
        &mut self,
        fb: &FnBuilder,
        e: ExprId,
        place: Place,
        location: Location,
    ) -> LResult<Place> {
        let roots = self.stored_roots(fb, e, location)?;
        self.wrap_stored(fb, place, roots, location)
    }

    /// The error for a pointer in a record held as a byte image.
    pub(in crate::lower) fn pointer_in_bytes(
        &mut self,
        location: Location,
    ) -> crate::lower::builder::Failed {
        self.error(
            location,
            "a pointer member of a union, or of a struct held as bytes (one with char, short, bool or half members, a packed one, or one whose member's address is taken), is not supported yet by this translator",
        )
    }

    /// Whether naga pointer `pointer` points into a buffer or program
    /// data (`__global` or `__constant` memory: any module variable but
    /// `__local` memory's), which outlives the launch.
    fn in_buffer(&self, fb: &FnBuilder, pointer: Handle<naga::Expression>) -> bool {
        let mut at = pointer;
        loop {
            match fb.function.expressions[at] {
                naga::Expression::Access { base, .. }
                | naga::Expression::AccessIndex { base, .. } => at = base,
                naga::Expression::GlobalVariable(g) => {
                    return self.module.global_variables[g].space != naga::AddressSpace::WorkGroup
                }
                _ => return false,
            }
        }
    }

    fn wrap_stored(
        &mut self,
        fb: &FnBuilder,
        place: Place,
        roots: StoredRoots,
        location: Location,
    ) -> LResult<Place> {
        match place {
            Place::Memory(pointer) if self.in_buffer(fb, pointer) => Err(self.error(
                location,
                "a pointer stored in __global or __constant memory is not supported: it outlives the launch, and another kernel (or the host) cannot know which buffer it points into; a Vulkan buffer has an address only through bufferDeviceAddress (PhysicalStorageBuffer pointers), which naga, the SPIR-V writer, cannot express",
            )),
            Place::Memory(pointer) => Ok(Place::Stored { pointer, roots }),
            Place::Chosen {
                which,
                candidates,
                ty,
            } => {
                let mut wrapped = Vec::with_capacity(candidates.len());
                for c in candidates {
                    wrapped.push(self.wrap_stored(fb, c, roots, location)?);
                }
                Ok(Place::Chosen {
                    which,
                    candidates: wrapped,
                    ty,
                })
            }
            Place::Null(ty) => Ok(Place::Null(ty)),
            Place::Bytes(_) => Err(self.pointer_in_bytes(location)),
            _ => Err(self.error(
                location,
                "a pointer stored in memory seen through a pointer cast (or through the address of a pointer member) is not supported yet by this translator",
            )),
        }
    }

    /// The pointer stored at `pointer`.
    pub(in crate::lower) fn load_stored(
        &mut self,
        fb: &mut FnBuilder,
        pointer: Handle<naga::Expression>,
        roots: StoredRoots,
    ) -> PointerValue {
        let stored = fb.add(naga::Expression::Load { pointer });
        self.decode_stored(fb, stored, roots)
    }

    /// The pointer a stored pointer value `stored` holds.
    pub(in crate::lower) fn decode_stored(
        &mut self,
        fb: &mut FnBuilder,
        stored: Handle<naga::Expression>,
        roots: StoredRoots,
    ) -> PointerValue {
        let index = fb.add(naga::Expression::AccessIndex {
            base: stored,
            index: 0,
        });
        let target = match self.memory.root_sets[roots.0].as_slice() {
            &[only] => Target::Fixed(only),
            _ => {
                let which = fb.add(naga::Expression::AccessIndex {
                    base: stored,
                    index: 1,
                });
                Target::Chosen(Choice {
                    set: roots.0,
                    which,
                })
            }
        };
        PointerValue { target, index }
    }

    /// `value` as a stored pointer of root set `roots`.
    pub(in crate::lower) fn encode_stored(
        &mut self,
        fb: &mut FnBuilder,
        value: PointerValue,
        roots: StoredRoots,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let Some(position) = self.position_in(fb, value.target, roots.0) else {
            return Err(self.error(
                location,
                "this pointer may point into memory that a pointer stored in a struct member or an array of pointers cannot hold here (a helper function's private variable): not supported yet by this translator",
            ));
        };
        let ty = self.stored_pointer_type();
        Ok(fb.add(naga::Expression::Compose {
            ty,
            components: vec![value.index, position],
        }))
    }

    /// Stores pointer `value` at `pointer`, a stored pointer of `roots`.
    pub(in crate::lower) fn store_stored(
        &mut self,
        fb: &mut FnBuilder,
        pointer: Handle<naga::Expression>,
        roots: StoredRoots,
        value: Value,
        location: Location,
    ) -> LResult<()> {
        let Value::Pointer(value) = value else {
            return Err(self.error(
                location,
                "internal compiler error: a pointer member given no pointer",
            ));
        };
        let value = self.encode_stored(fb, value, roots, location)?;
        fb.push(naga::Statement::Store { pointer, value });
        Ok(())
    }
}
