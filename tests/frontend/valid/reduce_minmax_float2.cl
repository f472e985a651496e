// Min/max reduction carried as a float2 (x = min, y = max), with fmin/fmax
// and the INFINITY and MAXFLOAT macros from the OpenCL C header.
__kernel void minmax(__global const float *data, const int n,
                     __global float2 *group_result,
                     __local float2 *scratch)
{
    const int lid = get_local_id(0);
    float2 mm = (float2)(INFINITY, -MAXFLOAT);
    for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
        const float v = data[i];
        mm.x = fmin(mm.x, v);
        mm.y = fmax(mm.y, v);
    }
    scratch[lid] = mm;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s) {
            const float2 other = scratch[lid + s];
            scratch[lid] = (float2)(fmin(scratch[lid].x, other.x),
                                    fmax(scratch[lid].y, other.y));
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        group_result[get_group_id(0)] = scratch[0];
}
