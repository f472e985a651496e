// expect: 9:7: error: assigning to
// expect: 9:7: error: int4
// expect: 9:7: error: incompatible type
// Vector types never convert implicitly: int4 = float4 needs
// convert_int4.
__kernel void k(__global const float4 *in, __global int4 *out)
{
    int4 i;
    i = in[get_global_id(0)];
    out[get_global_id(0)] = i;
}
