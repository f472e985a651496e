// BLAS level 1 in double precision: daxpy and dscal, enabling cl_khr_fp64
// the OpenCL 1.x way, with a guard for devices without it.
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void daxpy(const int n, const double alpha,
                    __global const double *x, __global double *y)
{
    int i = get_global_id(0);
    if (i < n)
        y[i] = fma(alpha, x[i], y[i]);
}

__kernel void dscal(const int n, const double alpha, __global double *x)
{
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        x[i] *= alpha;
}
#else
__kernel void daxpy(void) {}
#endif
