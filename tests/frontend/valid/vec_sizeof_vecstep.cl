// Compile-time queries: sizeof, vec_step and __alignof__ on vectors (float3
// has 4-component size and alignment), in array sizes and static checks.
typedef int static_assert_float3_size[sizeof(float3) == 16 ? 1 : -1];
typedef int static_assert_vec_step[vec_step(float3) == 4 ? 1 : -1];

__kernel void layout_queries(__global int *out)
{
    const int i = get_global_id(0);
    float8 tmp[2];
    out[i * 8 + 0] = sizeof(float4);
    out[i * 8 + 1] = vec_step(float3);
    out[i * 8 + 2] = vec_step(tmp[0]);
    out[i * 8 + 3] = __alignof__(float4);
    out[i * 8 + 4] = sizeof tmp;
    out[i * 8 + 5] = sizeof(uchar16) / sizeof(uchar);
    out[i * 8 + 6] = vec_step(int);
    out[i * 8 + 7] = sizeof(size_t) + sizeof(ptrdiff_t);
}
