//! The address-space functions of generic pointers (OpenCL C 6.15.9):
//! `to_global`, `to_local` and `to_private`, which give the pointer back
//! where it points into the named space and NULL where it does not, and
//! `get_fence`, the fence flags that order accesses through it.
//!
//! A generic pointer's space is known from its root: a buffer (storage
//! space) is `__global`, a workgroup variable `__local`, a function's
//! variable `__private`. Where the root is chosen at run time, so is the
//! answer: the position in the root set maps to a position in a set of
//! the kept roots and null, or to a fence value.

use crate::ast::AddressSpace;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::expressions::{Operand, Value};
use crate::lower::function::FnBuilder;
use crate::lower::pointers::chosen::table_lookup;
use crate::lower::pointers::{Choice, PointerValue, Root, Target};
use naga::Handle;

/// `CLK_LOCAL_MEM_FENCE` and `CLK_GLOBAL_MEM_FENCE` (OpenCL C 6.15.9).
const LOCAL_MEM_FENCE: u32 = 1;
const GLOBAL_MEM_FENCE: u32 = 2;

fn literal(fb: &mut Emitter, v: u32) -> Handle<naga::Expression> {
    fb.add(naga::Expression::Literal(naga::Literal::U32(v)))
}

impl ModuleBuilder<'_> {
    /// The address space `root` points into; `None` for null and for
    /// `__constant` memory, which no generic pointer reaches.
    fn root_space(&self, root: Root) -> Option<AddressSpace> {
        match root {
            Root::Global(g) => match self.module.global_variables[g].space {
                naga::AddressSpace::Storage { .. } => Some(AddressSpace::Global),
                naga::AddressSpace::WorkGroup => Some(AddressSpace::Local),
                naga::AddressSpace::Private | naga::AddressSpace::Function => {
                    Some(AddressSpace::Private)
                }
                _ => None,
            },
            Root::Private(..) | Root::Argument { .. } => Some(AddressSpace::Private),
            Root::Cast(base) => self.root_space(self.memory.cast_base_root(base)),
            Root::Null => None,
        }
    }

    /// `to_global(p)`, `to_local(p)` or `to_private(p)`: `p` where its root
    /// is in `space`, else NULL.
    pub(in crate::lower) fn address_space_cast(
        &mut self,
        fb: &mut FnBuilder,
        space: AddressSpace,
        arg: Operand,
    ) -> LResult<Value> {
        let p = self.pointer(fb, arg)?;
        let roots = self.roots_of(p.target);
        let kept: Vec<bool> = roots
            .iter()
            .map(|&r| self.root_space(r) == Some(space))
            .collect();
        if kept.iter().all(|&k| k) {
            return Ok(Value::Pointer(p));
        }
        // Null is address 0: its index is 0 too, or it would compare
        // unequal to NULL.
        let zero = literal(fb, 0);
        let null = PointerValue::fixed(Root::Null, zero);
        let Target::Chosen(choice) = p.target else {
            return Ok(Value::Pointer(null));
        };
        if !kept.contains(&true) {
            return Ok(Value::Pointer(null));
        }
        let mut narrowed = vec![Root::Null];
        narrowed.extend(roots.iter().zip(&kept).filter(|(_, &k)| k).map(|(&r, _)| r));
        let positions: Vec<u32> = roots
            .iter()
            .zip(&kept)
            .map(|(r, &k)| match k {
                true => narrowed.iter().position(|x| x == r).unwrap_or(0) as u32,
                false => 0,
            })
            .collect();
        let which = table_lookup(fb, choice.which, &positions);
        let is_null = fb.binary(naga::BinaryOperator::Equal, which, zero);
        let index = fb.select(is_null, zero, p.index);
        let set = self.root_set(narrowed);
        Ok(Value::Pointer(PointerValue {
            target: Target::Chosen(Choice { set, which }),
            index,
        }))
    }

    /// `get_fence(p)`: `CLK_GLOBAL_MEM_FENCE` or `CLK_LOCAL_MEM_FENCE` for
    /// the space `p` points into, 0 for private memory and null (SPIR-V's
    /// `OpGenericPtrMemSemantics` gives no storage bits there either).
    pub(in crate::lower) fn fence_of(
        &mut self,
        fb: &mut FnBuilder,
        arg: Operand,
    ) -> LResult<Handle<naga::Expression>> {
        let p = self.pointer(fb, arg)?;
        let fences: Vec<u32> = self
            .roots_of(p.target)
            .into_iter()
            .map(|r| match self.root_space(r) {
                Some(AddressSpace::Global) => GLOBAL_MEM_FENCE,
                Some(AddressSpace::Local) => LOCAL_MEM_FENCE,
                _ => 0,
            })
            .collect();
        Ok(match p.target {
            Target::Fixed(_) => literal(fb, fences[0]),
            Target::Chosen(choice) => table_lookup(fb, choice.which, &fences),
        })
    }
}
