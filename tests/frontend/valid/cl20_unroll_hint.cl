// options: -cl-std=CL2.0
// The OpenCL 2.0 opencl_unroll_hint attribute on loops, with and without a
// factor, and a blocked loop using ndrange-independent work-item queries.
__kernel void unroll_hints(__global const float *in, __global float *out, const int n)
{
    const int i = get_global_id(0);
    float acc = 0.0f;
    __attribute__((opencl_unroll_hint(4)))
    for (int k = 0; k < 16; k++)
        acc += in[(i + k) % n];
    __attribute__((opencl_unroll_hint))
    for (int k = 0; k < 4; k++)
        acc *= 0.5f;
    out[i] = acc;
}
