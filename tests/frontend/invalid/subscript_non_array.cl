// expect: 6:31: error: subscripted value is not an array, pointer, or vector
// Subscripting a scalar: reported at the '['.
__kernel void k(__global float *data)
{
    const float v = data[0];
    data[get_global_id(0)] = v[1];
}
