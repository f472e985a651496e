// expect: 5:5: error: 'float' cannot be signed or unsigned
// unsigned applies to integer types only.
__kernel void k(__global float *data)
{
    unsigned float v = data[0];
    data[get_global_id(0)] = v;
}
