//! Program-scope `__global` variables (OpenCL C 3.0 s6.8): one object per
//! program, shared by every work-item of every kernel and kept from one
//! launch to the next. They all lie in one block, a storage buffer that
//! the runtime owns per program and device and fills with the initial
//! bytes computed here; each kernel that uses one binds the block at a
//! binding of its own (`KernelReflection::program_globals`).
//!
//! A variable is reached exactly as `*(T *)(block + offset)` would be
//! through a buffer argument: a typed view of the block (see `views.rs`)
//! and an element index. That index counts elements of the view's type,
//! so each variable starts at a multiple of the size of its *unit*: its
//! type, or for an array its innermost element type (arrays are indexed
//! flat, `m[i][j]` as element `i * columns + j`). Pointer variables of the
//! block are in `program_pointers.rs`.

use crate::ast::AddressSpace;
use crate::diagnostic::Location;
use crate::hir::{self, ExprId, ExprKind as H};
use crate::lexer::FxHashMap;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::expressions::Operand;
use crate::lower::function::FnBuilder;
use crate::lower::pointers::{program_pointers, Place, PointerValue, Root};
use crate::types::{Scalar, Type, Types};
use naga::Handle;

/// Where each program-scope `__global` variable of a program lies.
#[derive(Debug, Default)]
pub(in crate::lower) struct GlobalsBlock {
    /// Byte offset of each `__global` variable; `__constant` ones have none.
    offsets: FxHashMap<hir::GlobalId, u64>,
    size: u64,
}

impl GlobalsBlock {
    /// The block of `program`'s `__global` variables for a device with
    /// `address_bits`-bit pointers. Variables whose unit size is a power of
    /// two come first, larger units first: each of them then starts where
    /// the one before it ends, so a program with only such variables (the
    /// usual case: scalars, vectors, most structs) has a block of just
    /// their sizes added up. The others (a 12-byte struct) follow, padded.
    pub(in crate::lower) fn layout(program: &hir::Program) -> Self {
        let types = &program.types;
        let unit_size = |ty: Type| types.size(unit_of(types, ty)).unwrap_or(1).max(1);
        let mut order: Vec<hir::GlobalId> = program
            .globals
            .iter()
            .filter(|(_, g)| g.space == AddressSpace::Global)
            .map(|(id, _)| id)
            .collect();
        order.sort_by_key(|&id| {
            let unit = unit_size(program.globals[id].ty);
            (!unit.is_power_of_two(), std::cmp::Reverse(unit))
        });
        let mut offsets = FxHashMap::default();
        let mut end = 0u64;
        for id in order {
            let ty = program.globals[id].ty;
            let offset = end.next_multiple_of(unit_size(ty));
            end = offset + types.size(ty).unwrap_or(0);
            offsets.insert(id, offset);
        }
        GlobalsBlock { offsets, size: end }
    }

    /// Bytes the block takes; 0 when the program has no such variables.
    pub(in crate::lower) fn size(&self) -> u64 {
        self.size
    }

    /// The offset of global `id` when it lives in the block.
    pub(in crate::lower) fn offset(&self, id: hir::GlobalId) -> Option<u64> {
        self.offsets.get(&id).copied()
    }
}

/// The type a variable of `ty` is addressed in: the innermost element of
/// an array, else the type itself.
fn unit_of(types: &Types, ty: Type) -> Type {
    types.innermost_element(ty)
}

/// How many units an object of `ty` holds.
fn units_in(types: &Types, ty: Type) -> u64 {
    match ty {
        Type::Array(elem, n) => n * units_in(types, types[elem]),
        _ => 1,
    }
}

impl ModuleBuilder<'_> {
    /// The block's initial contents: each variable's initializer at its
    /// offset, zero elsewhere. `None` when an initializer is not a
    /// constant this translator can evaluate (reported).
    pub(in crate::lower) fn globals_initial_bytes(
        &mut self,
        block: &GlobalsBlock,
    ) -> Option<Vec<u8>> {
        // Whole words: the block is also seen as `u32` words.
        let mut bytes = vec![0u8; block.size.next_multiple_of(4) as usize];
        let mut complete = true;
        for (id, global) in self.program.globals.iter() {
            let (Some(offset), Some(init)) = (block.offset(id), global.init) else {
                continue;
            };
            if let Type::Pointer(_) = global.ty {
                let offset_of = |id| block.offset(id);
                let wide = self.type_size(&global.ty) == Some(8);
                match program_pointers::initial_pointer(self.program, init, &offset_of) {
                    Some((value, tag)) if tag == 0 || wide => {
                        let at = offset as usize;
                        bytes[at..at + 4].copy_from_slice(&(value as u32).to_le_bytes());
                        if wide {
                            bytes[at + 4..at + 8].copy_from_slice(&tag.to_le_bytes());
                        }
                    }
                    _ => {
                        self.error(
                            self.program.global_exprs[init].span,
                            "a program-scope pointer variable can only be initialised with the address of a program-scope __global or __constant variable (or null) in this translator",
                        );
                        complete = false;
                    }
                }
                continue;
            }
            complete &= self
                .constant_object_bytes(&global.ty, init, offset as usize, &mut bytes)
                .is_ok();
        }
        complete.then_some(bytes)
    }

    /// Whether `e` names a variable of the block.
    pub(in crate::lower) fn block_place_of(&self, e: &hir::Expr) -> bool {
        self.in_block(e).is_some()
    }

    /// The block variable `e` names, if it names one.
    fn in_block(&self, e: &hir::Expr) -> Option<hir::GlobalId> {
        match e.kind {
            H::Global(id) if self.globals_block.offset(id).is_some() => Some(id),
            _ => None,
        }
    }

    /// The view of the block whose elements are `unit`; the block's binding
    /// is taken on first use, past the kernel's others.
    pub(in crate::lower) fn globals_view(
        &mut self,
        unit: &Type,
        location: Location,
    ) -> LResult<Handle<naga::GlobalVariable>> {
        let Some((binding, first)) = self.interface.globals_view else {
            let binding = self.interface.take_binding();
            let view = self.block_view(binding, unit, None, location)?;
            self.interface.globals_view = Some((binding, view));
            return Ok(view);
        };
        match self.memory.view_of(first, unit) {
            Some(view) => Ok(view),
            None => self.block_view(binding, unit, Some(first), location),
        }
    }

    fn block_view(
        &mut self,
        binding: u32,
        unit: &Type,
        first: Option<Handle<naga::GlobalVariable>>,
        location: Location,
    ) -> LResult<Handle<naga::GlobalVariable>> {
        let access = naga::StorageAccess::LOAD | naga::StorageAccess::STORE;
        self.buffer_view("program_globals", binding, access, unit, first, location)
    }

    /// A pointer to the first unit of block variable `id`.
    fn block_pointer(
        &mut self,
        fb: &mut FnBuilder,
        id: hir::GlobalId,
        location: Location,
    ) -> LResult<PointerValue> {
        crate::stack::guard(|| {
            let (root, unit) = self.block_root(id, location)?;
            let offset = self.globals_block.offset(id).unwrap_or(0);
            let size = self.type_size(&unit).unwrap_or(1).max(1);
            let index = fb.add(naga::Expression::Literal(naga::Literal::U32(
                (offset / size) as u32,
            )));
            Ok(PointerValue::fixed(root, index))
        })
    }

    /// The root pointers to block variable `id` have (the view of the
    /// block in its unit), and the unit.
    pub(in crate::lower) fn block_root(
        &mut self,
        id: hir::GlobalId,
        location: Location,
    ) -> LResult<(Root, Type)> {
        let global = &self.program.globals[id];
        let unit = unit_of(&self.program.types, global.ty);
        if let Type::Pointer(_) = unit {
            return Err(self.error(
                location,
                "pointers to program-scope pointer variables and arrays of them are not supported yet by this translator",
            ));
        }
        let view = self.globals_view(&unit, location)?;
        Ok((Root::Global(view), unit))
    }

    /// The place of block variable `id`, named by `e` (not an array:
    /// those are indexed through [`Self::block_elements`]).
    pub(in crate::lower) fn block_place(
        &mut self,
        fb: &mut FnBuilder,
        id: hir::GlobalId,
        e: &hir::Expr,
    ) -> LResult<Place> {
        if let Type::Array(..) = e.ty {
            return Err(self.error(
                e.span,
                "internal compiler error: a program-scope __global array used as a whole",
            ));
        }
        if let Some(p) = self.pointee(&e.ty) {
            // Its first word (see `program_pointers.rs`).
            let view = self.globals_view(&Type::Scalar(Scalar::UInt), e.span.location())?;
            let offset = self.globals_block.offset(id).unwrap_or(0);
            let base = fb.add(naga::Expression::GlobalVariable(view));
            let index = fb.add(naga::Expression::Literal(naga::Literal::U32(
                (offset / 4) as u32,
            )));
            let tag = (self.type_size(&e.ty) == Some(8)).then(|| {
                let index = fb.add(naga::Expression::Literal(naga::Literal::U32(
                    (offset / 4) as u32 + 1,
                )));
                fb.add(naga::Expression::Access { base, index })
            });
            let slot = program_pointers::BlockPointerSlot {
                word: fb.add(naga::Expression::Access { base, index }),
                tag,
                constants: crate::analysis::provenance::pointee_may_be_constant(p.space),
            };
            return Ok(Place::BlockPointer {
                slot,
                pointee: p.ty,
            });
        }
        let p = self.block_pointer(fb, id, e.span.location())?;
        self.element_place(fb, p, &e.ty, e.span.location())
    }

    /// For an expression of array type that lies in the block (a variable,
    /// or a row of one): a pointer to its first unit. `None` when `e` is
    /// not in the block.
    fn block_elements(&mut self, fb: &mut FnBuilder, id: ExprId) -> LResult<Option<PointerValue>> {
        crate::stack::guard(|| {
            let e = fb.expr(id);
            if let Some(global) = self.in_block(e) {
                return self.block_pointer(fb, global, e.span.location()).map(Some);
            }
            let H::Index(base, index) = e.kind else {
                return Ok(None);
            };
            if !fb.expr(base).ty.is_array() {
                return Ok(None);
            }
            let Some(p) = self.block_elements(fb, base)? else {
                return Ok(None);
            };
            let row = self.index_value(fb, index)?;
            let units = fb.add(naga::Expression::Literal(naga::Literal::U32(units_in(
                &self.program.types,
                e.ty,
            )
                as u32)));
            let skipped = fb.binary(naga::BinaryOperator::Multiply, row, units);
            let index = fb.binary(naga::BinaryOperator::Add, p.index, skipped);
            Ok(Some(p.at(index)))
        })
    }

    /// `array[index]` for an array in the block: the element's place, or
    /// `None` when the array is not in the block.
    pub(in crate::lower) fn block_index_place(
        &mut self,
        fb: &mut FnBuilder,
        array: ExprId,
        index: ExprId,
        element: &Type,
        location: Location,
    ) -> LResult<Option<Place>> {
        if let Some(pointee) = self.pointee(element) {
            return self.block_pointer_element(fb, array, index, element, *pointee, location);
        }
        let Some(p) = self.block_element_pointer(fb, array, index, element, location)? else {
            return Ok(None);
        };
        self.element_place(fb, p, element, location).map(Some)
    }

    /// `array[index]` for a program-scope array of pointers in the block:
    /// a pointer held as a program-scope pointer variable is
    /// (`program_pointers.rs`), in words `size / 4` apart.
    fn block_pointer_element(
        &mut self,
        fb: &mut FnBuilder,
        array: ExprId,
        index: ExprId,
        element: &Type,
        pointee: crate::types::Pointee,
        location: Location,
    ) -> LResult<Option<Place>> {
        let Some(id) = self.in_block(fb.expr(array)) else {
            return Ok(None);
        };
        let offset = self.globals_block.offset(id).unwrap_or(0);
        let words = self.type_size(element).unwrap_or(8) / 4;
        let view = self.globals_view(&Type::Scalar(Scalar::UInt), location)?;
        let base = fb.add(naga::Expression::GlobalVariable(view));
        let i = self.index_value(fb, index)?;
        let stride = fb.add(naga::Expression::Literal(naga::Literal::U32(words as u32)));
        let skipped = fb.binary(naga::BinaryOperator::Multiply, i, stride);
        let first = fb.add(naga::Expression::Literal(naga::Literal::U32(
            (offset / 4) as u32,
        )));
        let word = fb.binary(naga::BinaryOperator::Add, first, skipped);
        let tag = (words == 2).then(|| {
            let one = fb.add(naga::Expression::Literal(naga::Literal::U32(1)));
            let index = fb.binary(naga::BinaryOperator::Add, word, one);
            fb.add(naga::Expression::Access { base, index })
        });
        let slot = program_pointers::BlockPointerSlot {
            word: fb.add(naga::Expression::Access { base, index: word }),
            tag,
            constants: crate::analysis::provenance::pointee_may_be_constant(pointee.space),
        };
        Ok(Some(Place::BlockPointer {
            slot,
            pointee: pointee.ty,
        }))
    }

    /// `&array[index]` for an array in the block, or `None` when the array
    /// is not in the block.
    pub(in crate::lower) fn block_element_pointer(
        &mut self,
        fb: &mut FnBuilder,
        array: ExprId,
        index: impl Into<Operand>,
        element: &Type,
        location: Location,
    ) -> LResult<Option<PointerValue>> {
        let Some(first) = self.block_elements(fb, array)? else {
            return Ok(None);
        };
        let i = self.index_value(fb, index)?;
        let units = fb.add(naga::Expression::Literal(naga::Literal::U32(units_in(
            &self.program.types,
            *element,
        )
            as u32)));
        let skipped = fb.binary(naga::BinaryOperator::Multiply, i, units);
        let index = fb.binary(naga::BinaryOperator::Add, first.index, skipped);
        let p = first.at(index);
        let unit = unit_of(&self.program.types, *element);
        if unit == *element {
            return Ok(Some(p));
        }
        // A row of a multi-dimensional array: its own view of the block.
        self.cast_pointer(fb, p, &unit, element, location).map(Some)
    }

    /// `array` decayed to a pointer to its first element, for an array in
    /// the block; `None` when it is not in the block.
    pub(in crate::lower) fn block_decay(
        &mut self,
        fb: &mut FnBuilder,
        array: ExprId,
    ) -> LResult<Option<PointerValue>> {
        let node = fb.expr(array);
        let Some(element) = self.element_of(&node.ty) else {
            return Ok(None);
        };
        let zero = Operand::Int(0, Type::UINT);
        self.block_element_pointer(fb, array, zero, &element, node.span.location())
    }

    /// `&e` for block variable `id`, named by `e`; an array gives a
    /// pointer to its first element, as it does for other arrays.
    pub(in crate::lower) fn block_address(
        &mut self,
        fb: &mut FnBuilder,
        id: hir::GlobalId,
        e: ExprId,
    ) -> LResult<PointerValue> {
        let node = fb.expr(e);
        if let Type::Array(..) = node.ty {
            if let Some(p) = self.block_decay(fb, e)? {
                return Ok(p);
            }
        }
        self.block_pointer(fb, id, node.span.location())
    }
}
