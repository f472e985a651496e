//! SPIR-V for the tests, assembled by hand so the tests need neither the
//! translator nor a shader compiler. To change one, save its assembly (the
//! text block in its doc comment) as `shader.spvasm`, run
//! `spirv-as --target-env spv1.3 shader.spvasm -o shader.spv` and
//! `spirv-val --target-env vulkan1.2 shader.spv`, and paste the words.

/// Local size 4: `dst[i] = src[i] * factor + addend` with `src` at binding 0,
/// `dst` at binding 1 and push constants `{ factor: u32, addend: u32 }`.
///
/// ```text
/// ; dst[i] = src[i] * params.factor + params.addend, i = GlobalInvocationId.x
///                OpCapability Shader
///                OpMemoryModel Logical GLSL450
///                OpEntryPoint GLCompute %main "main" %global_id
///                OpExecutionMode %main LocalSize 4 1 1
///                OpDecorate %global_id BuiltIn GlobalInvocationId
///                OpDecorate %words ArrayStride 4
///                OpMemberDecorate %Words 0 Offset 0
///                OpDecorate %Words Block
///                OpDecorate %src DescriptorSet 0
///                OpDecorate %src Binding 0
///                OpDecorate %dst DescriptorSet 0
///                OpDecorate %dst Binding 1
///                OpMemberDecorate %Params 0 Offset 0
///                OpMemberDecorate %Params 1 Offset 4
///                OpDecorate %Params Block
///        %void = OpTypeVoid
///     %void_fn = OpTypeFunction %void
///        %uint = OpTypeInt 32 0
///       %uint3 = OpTypeVector %uint 3
/// %input_uint3 = OpTypePointer Input %uint3
///   %global_id = OpVariable %input_uint3 Input
///       %words = OpTypeRuntimeArray %uint
///       %Words = OpTypeStruct %words
/// %storage_words = OpTypePointer StorageBuffer %Words
///         %src = OpVariable %storage_words StorageBuffer
///         %dst = OpVariable %storage_words StorageBuffer
///      %Params = OpTypeStruct %uint %uint
/// %push_params = OpTypePointer PushConstant %Params
///      %params = OpVariable %push_params PushConstant
/// %storage_uint = OpTypePointer StorageBuffer %uint
///   %push_uint = OpTypePointer PushConstant %uint
///      %uint_0 = OpConstant %uint 0
///      %uint_1 = OpConstant %uint 1
///        %main = OpFunction %void None %void_fn
///       %entry = OpLabel
///         %gid = OpLoad %uint3 %global_id
///           %i = OpCompositeExtract %uint %gid 0
///     %src_ptr = OpAccessChain %storage_uint %src %uint_0 %i
///       %value = OpLoad %uint %src_ptr
///  %factor_ptr = OpAccessChain %push_uint %params %uint_0
///      %factor = OpLoad %uint %factor_ptr
///  %addend_ptr = OpAccessChain %push_uint %params %uint_1
///      %addend = OpLoad %uint %addend_ptr
///     %product = OpIMul %uint %value %factor
///      %result = OpIAdd %uint %product %addend
///     %dst_ptr = OpAccessChain %storage_uint %dst %uint_0 %i
///                OpStore %dst_ptr %result
///                OpReturn
///                OpFunctionEnd
/// ```
pub(crate) const MULTIPLY_ADD: &[u32] = &[
    0x07230203, 0x00010300, 0x00070000, 0x00000020, 0x00000000, 0x00020011, 0x00000001, 0x0003000e,
    0x00000000, 0x00000001, 0x0006000f, 0x00000005, 0x00000001, 0x6e69616d, 0x00000000, 0x00000002,
    0x00060010, 0x00000001, 0x00000011, 0x00000004, 0x00000001, 0x00000001, 0x00040047, 0x00000002,
    0x0000000b, 0x0000001c, 0x00040047, 0x00000003, 0x00000006, 0x00000004, 0x00050048, 0x00000004,
    0x00000000, 0x00000023, 0x00000000, 0x00030047, 0x00000004, 0x00000002, 0x00040047, 0x00000005,
    0x00000022, 0x00000000, 0x00040047, 0x00000005, 0x00000021, 0x00000000, 0x00040047, 0x00000006,
    0x00000022, 0x00000000, 0x00040047, 0x00000006, 0x00000021, 0x00000001, 0x00050048, 0x00000007,
    0x00000000, 0x00000023, 0x00000000, 0x00050048, 0x00000007, 0x00000001, 0x00000023, 0x00000004,
    0x00030047, 0x00000007, 0x00000002, 0x00020013, 0x00000008, 0x00030021, 0x00000009, 0x00000008,
    0x00040015, 0x0000000a, 0x00000020, 0x00000000, 0x00040017, 0x0000000b, 0x0000000a, 0x00000003,
    0x00040020, 0x0000000c, 0x00000001, 0x0000000b, 0x0004003b, 0x0000000c, 0x00000002, 0x00000001,
    0x0003001d, 0x00000003, 0x0000000a, 0x0003001e, 0x00000004, 0x00000003, 0x00040020, 0x0000000d,
    0x0000000c, 0x00000004, 0x0004003b, 0x0000000d, 0x00000005, 0x0000000c, 0x0004003b, 0x0000000d,
    0x00000006, 0x0000000c, 0x0004001e, 0x00000007, 0x0000000a, 0x0000000a, 0x00040020, 0x0000000e,
    0x00000009, 0x00000007, 0x0004003b, 0x0000000e, 0x0000000f, 0x00000009, 0x00040020, 0x00000010,
    0x0000000c, 0x0000000a, 0x00040020, 0x00000011, 0x00000009, 0x0000000a, 0x0004002b, 0x0000000a,
    0x00000012, 0x00000000, 0x0004002b, 0x0000000a, 0x00000013, 0x00000001, 0x00050036, 0x00000008,
    0x00000001, 0x00000000, 0x00000009, 0x000200f8, 0x00000014, 0x0004003d, 0x0000000b, 0x00000015,
    0x00000002, 0x00050051, 0x0000000a, 0x00000016, 0x00000015, 0x00000000, 0x00060041, 0x00000010,
    0x00000017, 0x00000005, 0x00000012, 0x00000016, 0x0004003d, 0x0000000a, 0x00000018, 0x00000017,
    0x00050041, 0x00000011, 0x00000019, 0x0000000f, 0x00000012, 0x0004003d, 0x0000000a, 0x0000001a,
    0x00000019, 0x00050041, 0x00000011, 0x0000001b, 0x0000000f, 0x00000013, 0x0004003d, 0x0000000a,
    0x0000001c, 0x0000001b, 0x00050084, 0x0000000a, 0x0000001d, 0x00000018, 0x0000001a, 0x00050080,
    0x0000000a, 0x0000001e, 0x0000001d, 0x0000001c, 0x00060041, 0x00000010, 0x0000001f, 0x00000006,
    0x00000012, 0x00000016, 0x0003003e, 0x0000001f, 0x0000001e, 0x000100fd, 0x00010038,
];
