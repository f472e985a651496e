// expect: 5:29: error: no matching function for call to 'convert_int4'
// convert_int4 needs a 4-component source.
__kernel void k(__global float2 *in, __global int4 *out)
{
    out[get_global_id(0)] = convert_int4(in[get_global_id(0)]);
}
