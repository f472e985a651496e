// expect: 7:11: error: redefinition of 'sum'
// A local variable declared twice in one scope.
__kernel void k(__global const float *in, __global float *out)
{
    float sum = 0.0f;
    const int i = get_global_id(0);
    float sum = in[i];
    out[i] = sum;
}
