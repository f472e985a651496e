// Doubles (cl_khr_fp64), long indices and an unsuffixed literal, which is a
// double constant on devices that report cl_khr_fp64.
__kernel void double_scale(__global double *x, double a, __global long *idx)
{
    size_t i = get_global_id(0);
    long j = (long)i * 3 - 1;
    x[i] = x[i] * a + 0.5;
    idx[i] = j;
}
