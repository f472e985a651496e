//! What the runtime needs to know to launch a kernel: its arguments, where
//! each one goes (a storage-buffer binding or bytes in the push constants),
//! and the fixed push-constant header through which the runtime passes the
//! NDRange to the kernel.

/// The push-constant header that precedes POD arguments. Every kernel has it,
/// so the runtime writes it without looking at the kernel.
///
/// `group_offset` is the id of this dispatch's first work-group: a launch
/// with more groups than one Vulkan dispatch allows
/// (`maxComputeWorkGroupCount`) runs as several dispatches, each one told
/// where it starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct PushConstantHeader {
    pub global_offset: [u32; 3],
    pub work_dim: u32,
    pub global_size: [u32; 3],
    pub group_offset: [u32; 3],
}

impl PushConstantHeader {
    pub const SIZE: u32 = 40;
    /// Byte offsets of the fields, for the lowering of work-item functions.
    pub const GLOBAL_OFFSET: u32 = 0;
    pub const WORK_DIM: u32 = 12;
    pub const GLOBAL_SIZE: u32 = 16;
    pub const GROUP_OFFSET: u32 = 28;

    pub fn to_bytes(&self) -> [u8; Self::SIZE as usize] {
        let words = self
            .global_offset
            .iter()
            .chain(std::iter::once(&self.work_dim))
            .chain(&self.global_size)
            .chain(&self.group_offset);
        let mut out = [0u8; Self::SIZE as usize];
        for (chunk, w) in out.chunks_exact_mut(4).zip(words) {
            chunk.copy_from_slice(&w.to_le_bytes());
        }
        out
    }
}

/// The address space of a pointer argument (`CL_KERNEL_ARG_ADDRESS_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddressQualifier {
    Global,
    Constant,
    Local,
    Private,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// A `__global` or `__constant` pointer: a storage buffer at `binding` of
    /// descriptor set 0. `clSetKernelArg` takes a `cl_mem` (or NULL).
    Buffer { binding: u32 },
    /// A by-value argument copied into the push constants at `offset`.
    Pod { offset: u32, size: u32 },
    /// A `__local` pointer: `clSetKernelArg` gives a size in bytes and no
    /// value. The memory is an array of `size / element_size` elements of
    /// `stride` bytes each in workgroup memory; it is the `index`-th such
    /// argument (see `Kernel::spirv`).
    Local {
        index: u32,
        element_size: u32,
        stride: u32,
    },
    /// An image (`image2d_t` ...): binding `binding` of descriptor set
    /// [`crate::image::IMAGE_DESCRIPTOR_SET`], bound as
    /// `KernelReflection::images[binding]`, and its
    /// [`crate::image::ImageInfo`] block at `info_offset` in the launch
    /// block. `clSetKernelArg` takes a `cl_mem` image of type `dim`. The
    /// kernel reads the block's size words 0..4 from the launch block and
    /// its format words 4..8 from its specialisation,
    /// [`crate::Specialization::image_formats`]`[binding]`.
    Image {
        binding: u32,
        info_offset: u32,
        dim: crate::image::ImageDim,
        depth: bool,
        access: crate::image::ImageAccess,
    },
    /// A `sampler_t`: its [`crate::image::sampler`] word at `offset` in the
    /// launch block. `clSetKernelArg` takes a `cl_sampler`. The kernel
    /// reads the word from its specialisation, not the launch block: the
    /// `n`-th sampler argument in argument order is
    /// [`crate::Specialization::samplers`]`[n]`.
    Sampler { offset: u32 },
}

/// One kernel argument, with the `-cl-kernel-arg-info` facts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelArg {
    pub name: String,
    /// The type as written, e.g. `float*` or `uint`.
    pub type_name: String,
    pub address: AddressQualifier,
    /// `CL_KERNEL_ARG_TYPE_CONST`, `_RESTRICT`, `_VOLATILE` bits.
    pub is_const: bool,
    pub is_restrict: bool,
    pub is_volatile: bool,
    pub kind: ArgKind,
}

/// Where a kernel's `printf` records go and how to format them: a storage
/// buffer at `binding` whose first `u32` counts the words after it that
/// records claimed (see [`crate::printf`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrintfReflection {
    pub binding: u32,
    pub formats: Vec<crate::printf::PrintfFormat>,
}

/// A program's program-scope `__global` variables (OpenCL C 3.0 s6.8):
/// one block of `size` bytes per program and device, shared by every
/// launch of every kernel of the program, that starts out as `initial`
/// (the initializers, zero elsewhere; `size` rounded up to whole 32-bit
/// words, which is how much memory the block needs). `size` is 0 when the
/// program has none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProgramGlobals {
    pub size: u64,
    pub initial: Vec<u8>,
}

impl KernelReflection {
    /// The push-constant bytes the kernel's pipeline declares.
    pub fn pipeline_push_constant_size(&self) -> u32 {
        match self.launch_block_binding {
            Some(_) => 0,
            None => self.push_constant_size,
        }
    }
}

impl KernelArg {
    /// The size `clSetKernelArg` must be given for this argument: a host
    /// `cl_mem` handle for buffers.
    pub fn expected_size(&self) -> usize {
        match self.kind {
            ArgKind::Buffer { .. } => std::mem::size_of::<*const ()>(),
            ArgKind::Pod { size, .. } => size as usize,
            // Any non-zero size: it is the amount of memory wanted.
            ArgKind::Local { .. } => 0,
            ArgKind::Image { .. } | ArgKind::Sampler { .. } => std::mem::size_of::<*const ()>(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelReflection {
    pub name: String,
    pub args: Vec<KernelArg>,
    /// Size of the launch block: the header plus POD arguments.
    pub push_constant_size: u32,
    /// Where the launch block lives when it does not fit the device's push
    /// constants: this read-only storage-buffer binding, whose contents are
    /// laid out exactly as the push constants would be. `None`: push
    /// constants.
    pub launch_block_binding: Option<u32>,
    /// The printf buffer and the formats of the kernel's `printf` calls,
    /// when it has any.
    pub printf: Option<PrintfReflection>,
    /// The storage-buffer binding of the program's block of program-scope
    /// `__global` variables ([`ProgramGlobals`]), when the kernel uses any
    /// of them.
    pub program_globals: Option<u32>,
    /// Number of storage-buffer bindings (0..n) in descriptor set 0.
    pub storage_buffers: u32,
    /// The descriptors of set [`crate::image::IMAGE_DESCRIPTOR_SET`]:
    /// binding `b` is `images[b]`. Empty when the kernel has no image
    /// arguments (the set is not declared then).
    pub images: Vec<crate::image::ImageDescriptor>,
    /// Whether an NDRange may end in smaller work-groups (OpenCL C 2.0 and
    /// later, unless built with `-cl-uniform-work-group-size`).
    pub non_uniform_work_groups: bool,
    /// `__attribute__((reqd_work_group_size(x, y, z)))`.
    pub required_work_group_size: Option<[u32; 3]>,
    /// `intel_reqd_sub_group_size(n)`: the sub-group size the kernel was
    /// written for, which is the device's (the build checks it).
    pub required_sub_group_size: Option<u32>,
    /// The kernel's attributes as written, for `CL_KERNEL_ATTRIBUTES`.
    pub attributes: String,
    /// Where in the launch block the null flags of the buffer arguments
    /// start: one bit per buffer binding `b` (bit `b % 32` of the `u32`
    /// `b / 32` words on), set when the argument is a NULL `cl_mem`.
    /// `None`: the kernel has no buffer arguments.
    pub null_buffer_flags: Option<u32>,
    /// Where in the launch block each buffer binding `b`'s allocation and
    /// origin are (two `u32`s at `8 b` bytes on): the first binding set to
    /// the same buffer or a region of it, and the argument's byte origin in
    /// that buffer (a sub-buffer's). `None`: the kernel compares or
    /// subtracts no buffer pointers, or has no buffer arguments.
    pub buffer_aliases: Option<u32>,
    /// The binding of the loop status buffer, on a device whose driver may
    /// cut loops short (`DeviceCaps::loop_guard`): one `u32` the runtime
    /// zeroes before the launch, which the kernel sets to non-zero when a
    /// loop ended without taking one of its exits. `None`: the kernel has
    /// no loops, or the device needs no guard.
    pub loop_status: Option<u32>,
}
