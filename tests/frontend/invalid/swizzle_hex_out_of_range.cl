// expect: 6:48: error: vector component access exceeds type
// expect: 6:48: error: float4
// A float4 has no .s7 component.
__kernel void k(__global float4 *v, __global float *out)
{
    out[get_global_id(0)] = v[get_global_id(0)].s7;
}
