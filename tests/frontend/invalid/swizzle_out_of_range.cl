// expect: 7:30: error: vector component access exceeds type
// expect: 7:30: error: float2
// A float2 has no .w component: reported at the '.'.
__kernel void k(__global float2 *uv, __global float *out)
{
    const float2 t = uv[get_global_id(0)];
    out[get_global_id(0)] = t.w;
}
