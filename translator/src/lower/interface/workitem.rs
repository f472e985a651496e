//! Work-item functions (`get_global_id` and the rest) and
//! synchronisation (`barrier`, the fences).

use crate::builtins::Builtin;
use crate::diagnostic::Location;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::expressions::Operand;
use crate::lower::function::FnBuilder;
use crate::reflect::PushConstantHeader;
use crate::types::Type;
use naga::Handle;

impl ModuleBuilder<'_> {
    /// The work-item functions: ids, sizes and offsets from the SPIR-V
    /// built-ins, the push-constant header and the work-group size
    /// constants.
    pub(in crate::lower) fn work_item_function(
        &mut self,
        fb: &mut FnBuilder,
        b: Builtin,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let pc = self.interface.push_constants.expect("push constants");
        let vars = self.interface.builtins.as_ref().expect("builtins");
        let load_global = |fb: &mut Emitter, g: Handle<naga::GlobalVariable>| {
            let pointer = fb.add(naga::Expression::GlobalVariable(g));
            fb.add(naga::Expression::Load { pointer })
        };
        let enqueued_size = vars.enqueued_size;
        let (global_id, local_id, group_id, local_size) = (
            vars.global_id,
            vars.local_id,
            vars.group_id,
            vars.local_size,
        );
        if b == Builtin::WorkDim {
            let base = fb.add(naga::Expression::GlobalVariable(pc));
            let pointer = fb.add(naga::Expression::AccessIndex {
                base,
                index: PushConstantHeader::WORK_DIM / 4,
            });
            return Ok(fb.add(naga::Expression::Load { pointer }));
        }
        let uvec3 = self.uvec3_type();
        let header_vector = |fb: &mut Emitter, byte_offset: u32| {
            let mut components = Vec::new();
            for i in 0..3 {
                let base = fb.add(naga::Expression::GlobalVariable(pc));
                let pointer = fb.add(naga::Expression::AccessIndex {
                    base,
                    index: byte_offset / 4 + i,
                });
                components.push(fb.add(naga::Expression::Load { pointer }));
            }
            fb.add(naga::Expression::Compose {
                ty: uvec3,
                components,
            })
        };
        // The work-group sizes, from the constants `Kernel::spirv` sets:
        // this group's, and the enqueued one that ids and group counts are
        // measured in (they differ in the last groups of a non-uniform
        // NDRange).
        let size_vector = |fb: &mut Emitter, constants: [Handle<naga::Constant>; 3]| {
            let components = constants
                .map(|c| fb.add(naga::Expression::Constant(c)))
                .to_vec();
            fb.add(naga::Expression::Compose {
                ty: uvec3,
                components,
            })
        };
        let local_vector = |fb: &mut Emitter| size_vector(fb, local_size);
        let enqueued_vector = |fb: &mut Emitter| size_vector(fb, enqueued_size);
        if matches!(b, Builtin::GlobalLinearId | Builtin::LocalLinearId) {
            let (id, size) = if b == Builtin::LocalLinearId {
                (load_global(fb, local_id), local_vector(fb))
            } else {
                // The id within the NDRange, without the global offset.
                let id = load_global(fb, global_id);
                let groups = header_vector(fb, PushConstantHeader::GROUP_OFFSET);
                let enqueued = enqueued_vector(fb);
                let first = fb.binary(naga::BinaryOperator::Multiply, groups, enqueued);
                let id = fb.binary(naga::BinaryOperator::Add, id, first);
                (id, header_vector(fb, PushConstantHeader::GLOBAL_SIZE))
            };
            let part = |fb: &mut Emitter, v, i| {
                fb.add(naga::Expression::AccessIndex { base: v, index: i })
            };
            let (x, y, z) = (part(fb, id, 0), part(fb, id, 1), part(fb, id, 2));
            let (sx, sy) = (part(fb, size, 0), part(fb, size, 1));
            // x + sx * (y + sy * z)
            let zy = fb.binary(naga::BinaryOperator::Multiply, sy, z);
            let yz = fb.binary(naga::BinaryOperator::Add, y, zy);
            let row = fb.binary(naga::BinaryOperator::Multiply, sx, yz);
            let linear = fb.binary(naga::BinaryOperator::Add, x, row);
            return self.convert(fb, linear, &Type::UINT, ty, location);
        }
        // A constant dimension below 3 (nearly every call) needs only its
        // own component: one header word and one size constant instead of
        // three of each, which keeps the IR (and the driver's work) small.
        if let Some(d) = fb.int_constant(args[0]) {
            if d < 3 {
                let d = d as u32;
                let header_word = |fb: &mut Emitter, byte_offset: u32| {
                    let base = fb.add(naga::Expression::GlobalVariable(pc));
                    let pointer = fb.add(naga::Expression::AccessIndex {
                        base,
                        index: byte_offset / 4 + d,
                    });
                    fb.add(naga::Expression::Load { pointer })
                };
                let component = |fb: &mut Emitter, g: Handle<naga::GlobalVariable>| {
                    let base = fb.add(naga::Expression::GlobalVariable(g));
                    let pointer = fb.add(naga::Expression::AccessIndex { base, index: d });
                    fb.add(naga::Expression::Load { pointer })
                };
                let size = |fb: &mut Emitter, c: [Handle<naga::Constant>; 3]| {
                    fb.add(naga::Expression::Constant(c[d as usize]))
                };
                use naga::BinaryOperator as Op;
                let value = match b {
                    Builtin::GlobalId => {
                        let id = component(fb, global_id);
                        let group = header_word(fb, PushConstantHeader::GROUP_OFFSET);
                        let enqueued = size(fb, enqueued_size);
                        let first = fb.binary(Op::Multiply, group, enqueued);
                        let offset = header_word(fb, PushConstantHeader::GLOBAL_OFFSET);
                        let base = fb.binary(Op::Add, first, offset);
                        fb.binary(Op::Add, id, base)
                    }
                    Builtin::LocalId => component(fb, local_id),
                    Builtin::GroupId => {
                        let id = component(fb, group_id);
                        let group = header_word(fb, PushConstantHeader::GROUP_OFFSET);
                        fb.binary(Op::Add, id, group)
                    }
                    Builtin::GlobalSize => header_word(fb, PushConstantHeader::GLOBAL_SIZE),
                    Builtin::GlobalOffset => header_word(fb, PushConstantHeader::GLOBAL_OFFSET),
                    Builtin::LocalSize => size(fb, local_size),
                    Builtin::EnqueuedLocalSize => size(fb, enqueued_size),
                    Builtin::NumGroups => {
                        let global = header_word(fb, PushConstantHeader::GLOBAL_SIZE);
                        let enqueued = size(fb, enqueued_size);
                        let one = fb.add(naga::Expression::Literal(naga::Literal::U32(1)));
                        let less_one = fb.binary(Op::Subtract, enqueued, one);
                        let rounded = fb.binary(Op::Add, global, less_one);
                        fb.binary(Op::Divide, rounded, enqueued)
                    }
                    _ => return Err(self.error(location, "internal error: unhandled built-in")),
                };
                return self.convert(fb, value, &Type::UINT, ty, location);
            }
        }
        let (vector, out_of_range) = match b {
            Builtin::GlobalId => {
                // (group_offset + WorkGroupId) * enqueued + LocalInvocationId
                // + global_offset, with GlobalInvocationId covering the
                // dispatch-relative part (a dispatch of smaller groups has
                // one group in that dimension, so it is LocalInvocationId).
                let id = load_global(fb, global_id);
                let groups = header_vector(fb, PushConstantHeader::GROUP_OFFSET);
                let enqueued = enqueued_vector(fb);
                let first = fb.binary(naga::BinaryOperator::Multiply, groups, enqueued);
                let offset = header_vector(fb, PushConstantHeader::GLOBAL_OFFSET);
                let base = fb.binary(naga::BinaryOperator::Add, first, offset);
                (fb.binary(naga::BinaryOperator::Add, id, base), 0)
            }
            Builtin::LocalId => (load_global(fb, local_id), 0),
            Builtin::GroupId => {
                let id = load_global(fb, group_id);
                let groups = header_vector(fb, PushConstantHeader::GROUP_OFFSET);
                (fb.binary(naga::BinaryOperator::Add, id, groups), 0)
            }
            Builtin::GlobalSize => (header_vector(fb, PushConstantHeader::GLOBAL_SIZE), 1),
            Builtin::GlobalOffset => (header_vector(fb, PushConstantHeader::GLOBAL_OFFSET), 0),
            Builtin::LocalSize => (local_vector(fb), 1),
            Builtin::EnqueuedLocalSize => (enqueued_vector(fb), 1),
            Builtin::NumGroups => {
                // Rounded up: a non-uniform NDRange ends in a smaller group.
                let size = header_vector(fb, PushConstantHeader::GLOBAL_SIZE);
                let enqueued = enqueued_vector(fb);
                let one = fb.add(naga::Expression::Literal(naga::Literal::U32(1)));
                let ones = fb.add(naga::Expression::Splat {
                    size: naga::VectorSize::Tri,
                    value: one,
                });
                let less_one = fb.binary(naga::BinaryOperator::Subtract, enqueued, ones);
                let rounded = fb.binary(naga::BinaryOperator::Add, size, less_one);
                (
                    fb.binary(naga::BinaryOperator::Divide, rounded, enqueued),
                    1,
                )
            }
            _ => return Err(self.error(location, "internal error: unhandled built-in")),
        };
        let component = self.dimension(fb, vector, args[0], out_of_range)?;
        self.convert(fb, component, &Type::UINT, ty, location)
    }

    /// `barrier(flags)` and the fences. The flags are CLK_LOCAL_MEM_FENCE
    /// (workgroup memory) and CLK_GLOBAL_MEM_FENCE (buffers); flags that are
    /// not a constant order both.
    pub(in crate::lower) fn barrier(&mut self, fb: &mut FnBuilder, b: Builtin, args: &[Operand]) {
        let flags = args.first().and_then(|&a| fb.int_constant(a)).unwrap_or(3);
        let mut barrier = naga::Barrier::empty();
        if flags & 1 != 0 {
            barrier |= naga::Barrier::WORK_GROUP;
        }
        // CLK_IMAGE_MEM_FENCE orders image memory as the global one (see
        // `work_item_fence`).
        if flags & 6 != 0 {
            barrier |= naga::Barrier::STORAGE;
        }
        match b {
            Builtin::Barrier | Builtin::WorkGroupBarrier => {
                fb.push(naga::Statement::ControlBarrier(barrier));
            }
            _ => self.memory_barrier(fb, barrier),
        }
    }

    /// A fence over the memories in `barrier`, where the driver keeps
    /// fences apart from control barriers (`DeviceCaps::ordered_atomics`):
    /// lavapipe suspends a work-group's invocations at every memory
    /// barrier as at `barrier()`, and one reached by some work-items only
    /// (a fence inside a loop they leave at different iterations, as the
    /// OpenCL-CTS's `atomic_flag` test has) ends the work-group with
    /// work-items unfinished. There the fence is left out, as ordered
    /// atomics are: a work-group's invocations run on one thread, and
    /// x86's locked instructions order the atomics in hardware.
    fn memory_barrier(&mut self, fb: &mut FnBuilder, barrier: naga::Barrier) {
        if !barrier.is_empty() && self.caps.ordered_atomics {
            fb.push(naga::Statement::MemoryBarrier(barrier));
        }
    }

    /// `atomic_work_item_fence(flags, order, scope)` (OpenCL C 6.15.12.1):
    /// a memory barrier over the memories `flags` names, as `mem_fence`
    /// makes it. A relaxed fence orders nothing, and one of
    /// `memory_scope_work_item` only orders a work-item's own accesses,
    /// which need no fence here: both emit nothing.
    /// Operands that are not constants order as `memory_order_seq_cst`
    /// over both memories at device scope, the strongest fence. The
    /// barrier's scope is the memory's own (work-group for `__local`,
    /// device for buffers), at least the scope asked for wherever the
    /// memory can be seen.
    pub(in crate::lower) fn work_item_fence(
        &mut self,
        fb: &mut FnBuilder,
        args: &[Operand],
    ) -> LResult<()> {
        let mut constant = |fb: &mut FnBuilder, a: Operand, default: u64| -> LResult<u64> {
            match fb.int_constant(a) {
                Some(v) => Ok(v),
                None => {
                    // Evaluated for its side effects, as C does.
                    self.plain(fb, a)?;
                    Ok(default)
                }
            }
        };
        let flags = constant(fb, args[0], 3)?;
        let order = constant(fb, args[1], 5)?;
        let scope = constant(fb, args[2], 2)?;
        // memory_order_relaxed, memory_scope_work_item (except over images,
        // whose fence orders a work-item's own `read_write` image accesses).
        if order == 0 || (scope == 0 && flags & 4 == 0) {
            return Ok(());
        }
        let mut barrier = naga::Barrier::empty();
        if flags & 1 != 0 {
            barrier |= naga::Barrier::WORK_GROUP;
        }
        if flags & 2 != 0 {
            barrier |= naga::Barrier::STORAGE;
        }
        // CLK_IMAGE_MEM_FENCE: images are device memory, and in a kernel
        // with images every device-scope fence also orders image memory
        // (`spirv_images::fences_order_images`).
        if flags & 4 != 0 {
            barrier |= naga::Barrier::STORAGE;
        }
        self.memory_barrier(fb, barrier);
        Ok(())
    }

    /// Component `dim` of a `uvec3`, or `default` for a dimension >= 3
    /// (OpenCL C 6.15.1).
    pub(in crate::lower) fn dimension(
        &mut self,
        fb: &mut FnBuilder,
        vector: Handle<naga::Expression>,
        dim: Operand,
        default: u32,
    ) -> LResult<Handle<naga::Expression>> {
        if let Some(d) = fb.int_constant(dim) {
            return Ok(if d < 3 {
                fb.add(naga::Expression::AccessIndex {
                    base: vector,
                    index: d as u32,
                })
            } else {
                fb.add(naga::Expression::Literal(naga::Literal::U32(default)))
            });
        }
        let d = self.plain(fb, dim)?;
        let two = fb.add(naga::Expression::Literal(naga::Literal::U32(2)));
        let clamped = fb.add(naga::Expression::Math {
            fun: naga::MathFunction::Min,
            arg: d,
            arg1: Some(two),
            arg2: None,
            arg3: None,
        });
        let value = fb.add(naga::Expression::Access {
            base: vector,
            index: clamped,
        });
        let three = fb.add(naga::Expression::Literal(naga::Literal::U32(3)));
        let in_range = fb.binary(naga::BinaryOperator::Less, d, three);
        let fallback = fb.add(naga::Expression::Literal(naga::Literal::U32(default)));
        Ok(fb.add(naga::Expression::Select {
            condition: in_range,
            accept: value,
            reject: fallback,
        }))
    }
}
