// BLAS level 1: y = alpha * x + y with strided access and an offset, the way
// clBLAS-style libraries lay out their vector arguments.
__kernel void saxpy(const int n,
                    const float alpha,
                    __global const float *restrict x, const int offx, const int incx,
                    __global float *restrict y, const int offy, const int incy)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const float xv = x[offx + i * incx];
    y[offy + i * incy] = mad(alpha, xv, y[offy + i * incy]);
}
