// options: -cl-std=CL1.2
// expect: 7:13: error: use of undeclared identifier 'memory_order_relaxed'
// The memory-order constants arrive with OpenCL C 2.0; the fence flags
// are there from 1.0, and a kernel may declare its own names like them.
__kernel void k(__global int *out)
{
    int o = memory_order_relaxed;
    int CLK_GLOBAL_MEM_FENCE = 3;
    out[0] = o + CLK_LOCAL_MEM_FENCE + CLK_GLOBAL_MEM_FENCE;
}
