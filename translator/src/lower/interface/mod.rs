//! The kernel interface: what a kernel's module shares with the runtime
//! (argument bindings, the push-constant header, the work-item built-ins,
//! the program globals' block, the printf buffer's binding).

mod kernel;
pub(in crate::lower) mod program_globals;
mod workitem;

use naga::Handle;

pub(in crate::lower) struct BuiltinVars {
    pub(in crate::lower) global_id: Handle<naga::GlobalVariable>,
    pub(in crate::lower) local_id: Handle<naga::GlobalVariable>,
    pub(in crate::lower) group_id: Handle<naga::GlobalVariable>,
    /// The work-group size, as constants that `Kernel::spirv` sets per
    /// launch: launches may be split into several dispatches (more groups
    /// than one dispatch allows), so `NumWorkGroups` is not the NDRange's.
    pub(in crate::lower) local_size: [Handle<naga::Constant>; 3],
    /// The enqueued work-group size, likewise: larger than `local_size` in
    /// the last groups of a non-uniform NDRange.
    pub(in crate::lower) enqueued_size: [Handle<naga::Constant>; 3],
}
