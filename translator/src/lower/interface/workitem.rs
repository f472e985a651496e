//! Work-item functions (`get_global_id` and the rest) and
//! synchronisation (`barrier`, the fences).

use crate::builtins::Builtin;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::expressions::Operand;
use crate::lower::function::FnBuilder;
use naga::Handle;

impl ModuleBuilder<'_> {
    /// `barrier(flags)` and the fences. The flags are CLK_LOCAL_MEM_FENCE
    /// (workgroup memory) and CLK_GLOBAL_MEM_FENCE (buffers); flags that are
    /// not a constant order both.
    pub(in crate::lower) fn barrier(&mut self, fb: &mut FnBuilder, b: Builtin, args: &[Operand]) {
        let flags = args.first().and_then(|&a| fb.int_constant(a)).unwrap_or(3);
        let mut barrier = naga::Barrier::empty();
        if flags & 1 != 0 {
            barrier |= naga::Barrier::WORK_GROUP;
        }
        if flags & 2 != 0 {
            barrier |= naga::Barrier::STORAGE;
        }
        let statement = match b {
            Builtin::Barrier | Builtin::WorkGroupBarrier => {
                naga::Statement::ControlBarrier(barrier)
            }
            _ => naga::Statement::MemoryBarrier(barrier),
        };
        fb.push(statement);
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
