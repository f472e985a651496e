// y = alpha * x + y, with a float scalar argument.
kernel void saxpy(float alpha, global const float *x, global float *y)
{
    int i = get_global_id(0);
    y[i] = alpha * x[i] + y[i];
}
