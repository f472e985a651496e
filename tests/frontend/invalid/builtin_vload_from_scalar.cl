// expect: 6:29: error: no matching function for call to 'vload4'
// vload4 reads from a pointer, not a value.
__kernel void k(__global float *data, __global float4 *out)
{
    const float x = data[0];
    out[get_global_id(0)] = vload4(0, x);
}
