// options: -cl-std=CL2.0
// OpenCL 2.0 program-scope variables in the global address space: counters
// and tables that persist across kernel launches, static globals, and a
// global pointer variable initialised to one of them.
__global int launch_count = 0;
global float running_total;
static __global uint histogram[16];
__global float4 palette[4] = { (float4)(1.0f, 0.0f, 0.0f, 1.0f), (float4)(0.0f, 1.0f, 0.0f, 1.0f),
                               (float4)(0.0f, 0.0f, 1.0f, 1.0f), (float4)(1.0f) };
__global uint *global_hist_ptr = histogram;

__kernel void count_launch(void)
{
    if (get_global_id(0) == 0)
        launch_count++;
}

__kernel void accumulate(__global const float *v, __global float4 *colours)
{
    const size_t i = get_global_id(0);
    if (i == 0)
        running_total += v[0];
    global_hist_ptr[i % 16] = (uint)launch_count;
    colours[i] = palette[i % 4] * v[i];
}
