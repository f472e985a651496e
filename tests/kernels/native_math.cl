// rsqrt (OpenCL's 2 ulp, which Vulkan's InverseSqrt meets) and the
// native_* functions (accuracy implementation-defined), on scalars and
// vectors; the host compares with a tolerance that fits each.
__kernel void native_math(__global const float4 *x, __global float4 *out)
{
    int i = get_global_id(0);
    float4 v = x[i];
    out[8 * i + 0] = rsqrt(v);
    out[8 * i + 1] = native_sqrt(v) + native_rsqrt(v);
    out[8 * i + 2] = native_exp(v * 0.1f) + native_exp2(v * 0.1f);
    out[8 * i + 3] = native_log(v) + native_log2(v);
    out[8 * i + 4] = native_sin(v) + native_cos(v);
    out[8 * i + 5] = native_recip(v) + native_divide(v, (float4)(3.0f));
    out[8 * i + 6] = native_exp10(v * 0.1f) + native_log10(v);
    out[8 * i + 7] = (float4)(native_powr(v.x, 0.5f), native_tan(v.y * 0.1f), rsqrt(v.z), native_sqrt(v.w));
}
