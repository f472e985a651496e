//! The roots the analysis's [`Provenance`]s name in the function being
//! lowered: each origin's own root (a variable's storage, a parameter's
//! root in this specialisation, a program-scope object) seen as its view
//! asks, through the same casts the expressions make (`views.rs`,
//! `cast_memory.rs`).

use crate::analysis::provenance::{Origin, Provenance, View};
use crate::diagnostic::Location;
use crate::hir::LocalId;
use crate::lower::builder::{Failed, LResult, ModuleBuilder};
use crate::lower::function::{FnBuilder, Slot};
use crate::lower::pointers::Root;
use crate::types::{Scalar, Type};

impl ModuleBuilder<'_> {
    /// The roots pointer variable `variable` of `fb`'s function may hold.
    pub(in crate::lower) fn variable_roots(
        &mut self,
        fb: &FnBuilder,
        variable: LocalId,
    ) -> Vec<Root> {
        let facts = self.analysis.function(fb.hir);
        let roots = facts.map_or(&[][..], |f| f.pointers.variable(variable));
        self.concrete_roots(fb, roots)
    }

    /// The roots the pointers `fb`'s function returns may have.
    pub(in crate::lower) fn return_roots(&mut self, fb: &FnBuilder) -> Vec<Root> {
        let facts = self.analysis.function(fb.hir);
        let roots = facts.map_or(&[][..], |f| f.pointers.returns.as_slice());
        self.concrete_roots(fb, roots)
    }

    /// Each of `roots` once. A root that cannot be made (an unsupported
    /// cast, say) is left out without a word: the expression that gives it
    /// reports the problem where it is written, and then nothing is stored.
    pub(super) fn concrete_roots(&mut self, fb: &FnBuilder, roots: &[Provenance]) -> Vec<Root> {
        let location = fb.source.span.location();
        self.quietly(|mb| {
            let mut out = Vec::with_capacity(roots.len());
            for p in roots {
                // What a shared place holds: the kernel's set for it.
                if let Origin::Shared(shared) = p.origin {
                    for root in mb.shared_roots_in(fb, shared) {
                        if !out.contains(&root) {
                            out.push(root);
                        }
                    }
                    continue;
                }
                if let Ok(root) = mb.concrete_root(fb, p, location) {
                    if !out.contains(&root) {
                        out.push(root);
                    }
                }
            }
            out
        })
    }

    /// The roots an integer converted to a pointer to `to` may name in a
    /// kernel (see `integer_pointers.rs`): null first, then each object a
    /// pointer converted to an integer points into, seen as `to`; as the
    /// analysis lists them. A root that cannot be made is reported.
    pub(in crate::lower) fn decoded_roots(
        &mut self,
        fb: &FnBuilder,
        to: &Type,
        location: Location,
    ) -> LResult<Vec<Root>> {
        let facts = self.analysis.function(fb.hir);
        let escaped = facts.map_or(&[][..], |f| f.pointers.escaped.as_slice());
        let mut roots = vec![Root::Null];
        for p in escaped {
            let p = Provenance {
                view: p.view.cast_to(*to),
                ..p.clone()
            };
            let root = self.concrete_root(fb, &p, location)?;
            if !roots.contains(&root) {
                roots.push(root);
            }
        }
        Ok(roots)
    }

    fn concrete_root(
        &mut self,
        fb: &FnBuilder,
        p: &Provenance,
        location: Location,
    ) -> LResult<Root> {
        let (own, element) = match p.origin {
            Origin::Null => return Ok(Root::Null),
            Origin::Param(i) => {
                let param = *fb.source.params.get(i).ok_or(Failed)?;
                let root = *fb.param_roots.get(&param).ok_or(Failed)?;
                let element = self.pointee(&fb.local(param).ty).ok_or(Failed)?.ty;
                (root, element)
            }
            Origin::Local(local) => {
                let ty = fb.local(local).ty;
                let element = self.element_of(&ty);
                let root = match fb.slots.get(&local) {
                    Some(&Slot::Variable(v)) => Root::Private(v, element.is_some()),
                    Some(&Slot::Workgroup(g)) => Root::Global(g),
                    _ => return Err(Failed),
                };
                (root, element.unwrap_or(ty))
            }
            Origin::Global(global) => {
                let ty = self.program.globals[global].ty;
                if self.globals_block.offset(global).is_some() {
                    self.block_root(global, location)?
                } else {
                    let root = Root::Global(self.program_global(global, location)?);
                    (root, self.element_of(&ty).unwrap_or(ty))
                }
            }
            Origin::Str(ref bytes, ty) => {
                let root = Root::Global(self.string_literal_global(bytes, &ty, location)?);
                (root, Type::Scalar(Scalar::Char))
            }
            Origin::Shared(..) => {
                return Err(self.error(
                    location,
                    "converting a pointer read from a struct member or an array of pointers to an integer and back is not supported yet by this translator",
                ))
            }
            Origin::Block(pointee) => {
                let (unit, _) = self.pointee_unit(&pointee, location)?;
                (Root::Global(self.globals_view(&unit, location)?), unit)
            }
        };
        match p.view {
            View::Natural => Ok(own),
            View::Untyped => self.cast_root(Some(fb.hir), own, &element, &Type::Void, location),
            View::As(to) if to == element => Ok(own),
            View::As(to) => self.cast_root(Some(fb.hir), own, &element, &to, location),
        }
    }
}
