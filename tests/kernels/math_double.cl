// The NaN-aware min/max family on double (the rest of the double library is
// tested by math_double_accuracy.rs): fmin, fmax, min, max, maxmag, minmag,
// rint per pair.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void k_double(__global const double *x, __global const double *y, __global double *out)
{
    size_t i = get_global_id(0);
    double a = x[i], b = y[i];
    __global double *r = out + 7 * i;
    r[0] = fmin(a, b);
    r[1] = fmax(a, b);
    r[2] = min(a, b);
    r[3] = max(a, b);
    r[4] = maxmag(a, b);
    r[5] = minmag(a, b);
    r[6] = rint(a);
}
