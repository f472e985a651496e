// half as a storage format only (no cl_khr_fp16 needed): vload_half and
// vstore_half with rounding modes, and the vector forms vload_half4 and
// vstorea_half4.
__kernel void half_io(__global const half *in, __global half *out,
                      __global float *as_float, const float scale)
{
    const int i = get_global_id(0);
    const float v = vload_half(i, in);
    as_float[i] = v;
    vstore_half(v * scale, i, out);
    vstore_half_rtz(v, i + 1, out);
}

__kernel void half4_io(__global const half *in, __global half *out)
{
    const int i = get_global_id(0);
    float4 v = vload_half4(i, in);
    v = v * v;
    vstorea_half4(v, i, out);
}
