// options: -cl-std=CL1.2
// expect: 7:13: error: use of undeclared identifier 'memory_order_relaxed'
// The memory-order constants arrive with OpenCL C 2.0; the fence flags
// are there from 1.0.
__kernel void k(__global int *out)
{
    int o = memory_order_relaxed;
    out[0] = o + CLK_LOCAL_MEM_FENCE + CLK_GLOBAL_MEM_FENCE;
}
