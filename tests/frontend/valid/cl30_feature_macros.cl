// options: -cl-std=CL3.0
// OpenCL 3.0 style: optional features tested with __opencl_c_* macros, each
// with a fallback, as portable 3.0 code is written.
#ifdef __opencl_c_fp64
typedef double acc_t;
#else
typedef float acc_t;
#endif

#ifdef __opencl_c_generic_address_space
float first(const float *p) { return p[0]; }
#else
float first(__global const float *p) { return p[0]; }
#endif

__kernel void portable_sum(__global const float *in, __global float *out, const int n)
{
    acc_t s = 0;
    for (int i = 0; i < n; i++)
        s += in[i];
#ifdef __opencl_c_work_group_collective_functions
    s = work_group_reduce_add(s);
#endif
    if (get_global_id(0) == 0)
        out[0] = (float)s + first(in) * 0.0f;
#if defined(__opencl_c_int64)
    out[1] = (float)(ulong)n;
#endif
}
