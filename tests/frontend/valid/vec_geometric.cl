// Geometric built-ins on float3/float4: dot, cross, length, normalize,
// distance and fast_ variants, as in ray tracing and shading kernels.
__kernel void shade(__global const float4 *normals, __global const float4 *points,
                    const float4 light_pos, __global float *intensity)
{
    const int i = get_global_id(0);
    const float3 n = normalize(normals[i].xyz);
    const float3 to_light = light_pos.xyz - points[i].xyz;
    const float d = length(to_light);
    const float3 l = to_light / d;
    const float diffuse = fmax(dot(n, l), 0.0f);
    const float3 h = fast_normalize(l + (float3)(0.0f, 0.0f, 1.0f));
    const float spec = pown(fmax(dot(n, h), 0.0f), 16);
    const float3 t = cross(n, l);
    const float atten = 1.0f / (1.0f + distance(light_pos, points[i]) + fast_length(t));
    intensity[i] = (diffuse + spec) * atten;
}
