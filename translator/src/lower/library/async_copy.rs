//! `async_work_group_copy`, `async_work_group_strided_copy`,
//! `wait_group_events` and `prefetch` (OpenCL C 6.15.11).
//!
//! Vulkan has no asynchronous copy engine inside a dispatch, so the
//! work-group copies cooperatively and at once: work-item `l` (the local
//! linear id) copies elements `l`, `l + size`, ... The copy is complete
//! when every work-item has done its part, which `wait_group_events` (a
//! work-group barrier over both memories) guarantees, as the spec requires
//! waiting before the data is used. An event is a `uint` that means
//! nothing; `prefetch` is a hint and does nothing.

use crate::ast::AddressSpace;
use crate::builtins::Builtin;
use crate::diagnostic::Location;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::expressions::{Operand, Value};
use crate::lower::function::FnBuilder;
use crate::lower::pointers::PointerValue;
use crate::types::Type;
use naga::Span;

impl ModuleBuilder<'_> {
    pub(super) fn async_copy(
        &mut self,
        fb: &mut FnBuilder,
        b: Builtin,
        args: &[Operand],
        location: Location,
    ) -> LResult<Value> {
        let strided = b == Builtin::AsyncWorkGroupStridedCopy;
        let element = self.pointee_of(fb, args[0]).map_or(Type::Void, |p| p.ty);
        let dst = self.pointer(fb, args[0])?;
        let src = self.pointer(fb, args[1])?;
        let count = self.index_value(fb, args[2])?;
        // The stride steps through the global side, whichever it is.
        let stride = if strided {
            Some(self.index_value(fb, args[3])?)
        } else {
            None
        };
        let dst_is_local = self
            .pointee_of(fb, args[0])
            .is_some_and(|p| p.space == AddressSpace::Local);
        let (dst_stride, src_stride) = if dst_is_local {
            (None, stride)
        } else {
            (stride, None)
        };
        // The event argument may have side effects; its value is unused.
        self.expr(fb, args[args.len() - 1])?;

        let u32_ty = self.u32_type();
        let first = self.builtin(fb, Builtin::LocalLinearId, &[], &Type::UINT, location)?;
        let counter = fb.function.local_variables.append(
            naga::LocalVariable {
                name: Some("copy_index".into()),
                ty: u32_ty,
                init: None,
            },
            Span::UNDEFINED,
        );
        let counter_ptr = fb.add(naga::Expression::LocalVariable(counter));
        fb.push(naga::Statement::Store {
            pointer: counter_ptr,
            value: first,
        });

        fb.blocks.push(naga::Block::new());
        let body = (|| {
            let pointer = fb.add(naga::Expression::LocalVariable(counter));
            let i = fb.add(naga::Expression::Load { pointer });
            let done = fb.binary(naga::BinaryOperator::GreaterEqual, i, count);
            let mut exit = naga::Block::new();
            exit.push(naga::Statement::Break, Span::UNDEFINED);
            fb.push(naga::Statement::If {
                condition: done,
                accept: exit,
                reject: naga::Block::new(),
            });
            let at = |fb: &mut Emitter, p: PointerValue, stride: Option<_>| {
                let step = match stride {
                    Some(s) => fb.binary(naga::BinaryOperator::Multiply, i, s),
                    None => i,
                };
                p.at(fb.binary(naga::BinaryOperator::Add, p.index, step))
            };
            let from = at(fb, src, src_stride);
            let to = at(fb, dst, dst_stride);
            let from = self.element_place(fb, from, &element, location)?;
            let value = self.load(fb, from, location)?;
            let to = self.element_place(fb, to, &element, location)?;
            self.store(fb, to, value, location, None)
        })();
        let body = (fb.blocks.pop().expect("copy loop body"), body);
        body.1?;

        fb.blocks.push(naga::Block::new());
        let size = {
            let local = self.interface.local_size();
            let [x, y, z] = local.map(|c| fb.add(naga::Expression::Constant(c)));
            let xy = fb.binary(naga::BinaryOperator::Multiply, x, y);
            fb.binary(naga::BinaryOperator::Multiply, xy, z)
        };
        let pointer = fb.add(naga::Expression::LocalVariable(counter));
        let i = fb.add(naga::Expression::Load { pointer });
        let next = fb.binary(naga::BinaryOperator::Add, i, size);
        fb.push(naga::Statement::Store {
            pointer,
            value: next,
        });
        let continuing = fb.blocks.pop().expect("copy loop continuing");
        fb.push(naga::Statement::Loop {
            body: body.0,
            continuing,
            break_if: None,
        });
        Ok(Value::Plain(
            fb.add(naga::Expression::Literal(naga::Literal::U32(0))),
        ))
    }

    /// `wait_group_events`: every work-item's part of every copy is done
    /// and visible after a work-group barrier over local and global memory.
    pub(super) fn wait_group_events(&mut self, fb: &mut FnBuilder) {
        fb.push(naga::Statement::ControlBarrier(
            naga::Barrier::WORK_GROUP | naga::Barrier::STORAGE,
        ));
    }
}
