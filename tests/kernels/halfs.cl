// half storage without cl_khr_fp16: vload_half widens, vstore_half rounds
// to nearest even; vload_half4 and vstorea_half3 (4-aligned) too.
__kernel void halfs(__global const half *in, __global half *out, __global float *widened)
{
    size_t i = get_global_id(0);
    float x = vload_half(i, in);
    widened[i] = x;
    vstore_half(x * 3.0f, i, out);
}

__kernel void halfs4(__global const half *in, __global float *sums, __global half *out3)
{
    size_t i = get_global_id(0);
    float4 v = vload_half4(i, in);
    sums[i] = v.x + v.y + v.z + v.w;
    vstorea_half3(v.xyz, i, out3);
}
