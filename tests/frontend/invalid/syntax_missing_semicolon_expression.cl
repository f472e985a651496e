// expect: 7:31: error: expected ';' after expression
// A statement in a saxpy kernel lacks its ';': reported just after the
// last token of the expression.
__kernel void saxpy(const float alpha, __global const float *x, __global float *y)
{
    const int i = get_global_id(0);
    y[i] = alpha * x[i] + y[i]
    y[i] += 0.0f;
}
