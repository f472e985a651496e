//! The sub-group built-ins a kernel reads: Vulkan's `SubgroupSize`,
//! `SubgroupLocalInvocationId` and `SubgroupId`. They are entry-point
//! inputs only of kernels that call a sub-group function, since declaring
//! one needs the device's subgroup capability, and are copied to private
//! globals as the kernel starts, as the work-item ids are, so that the
//! functions it calls read them too.

use crate::lower::builder::ModuleBuilder;
use naga::{Handle, Span};

impl ModuleBuilder<'_> {
    /// The private global that holds sub-group built-in `which`, made on
    /// first use.
    pub(in crate::lower) fn sub_group_input(
        &mut self,
        which: naga::BuiltIn,
    ) -> Handle<naga::GlobalVariable> {
        let inputs = &self.interface.sub_group_inputs;
        if let Some(&(_, global)) = inputs.iter().find(|(b, _)| *b == which) {
            return global;
        }
        let ty = self.u32_type();
        let global = self.private_global(&format!("{which:?}"), ty);
        self.interface.sub_group_inputs.push((which, global));
        global
    }

    /// Adds the sub-group inputs the kernel read as arguments of its entry
    /// point `function`, stored in their globals before its body.
    pub(super) fn bind_sub_group_inputs(&mut self, function: &mut naga::Function) {
        if self.interface.sub_group_inputs.is_empty() {
            return;
        }
        let ty = self.u32_type();
        let mut stores = naga::Block::new();
        for &(which, global) in &self.interface.sub_group_inputs {
            let index = function.arguments.len() as u32;
            function.arguments.push(naga::FunctionArgument {
                name: None,
                ty,
                binding: Some(naga::Binding::BuiltIn(which)),
            });
            let value = (function.expressions)
                .append(naga::Expression::FunctionArgument(index), Span::UNDEFINED);
            let pointer = (function.expressions)
                .append(naga::Expression::GlobalVariable(global), Span::UNDEFINED);
            stores.push(naga::Statement::Store { pointer, value }, Span::UNDEFINED);
        }
        let body = std::mem::replace(&mut function.body, stores);
        function.body.extend_block(body);
    }
}
