// expect: 6:31: error: member reference base type
// '.' on a scalar float.
__kernel void k(__global float *data)
{
    const float v = data[0];
    data[get_global_id(0)] = v.value;
}
