// expect: 7:7: error: is not assignable
// Arrays cannot be assigned as a whole.
__kernel void k(__global float *out)
{
    float a[4] = { 1.0f, 2.0f, 3.0f, 4.0f };
    float b[4];
    b = a;
    out[get_global_id(0)] = b[0];
}
