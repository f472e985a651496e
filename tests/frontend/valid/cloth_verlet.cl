// Cloth simulation with Verlet integration on float3 positions stored as
// packed floats (vload3/vstore3), plus a distance-constraint kernel.
__kernel void verlet(__global float *pos, __global float *prev,
                     const float3 accel, const float dt2, const int count)
{
    const int i = get_global_id(0);
    if (i >= count)
        return;
    const float3 p = vload3(i, pos);
    const float3 q = vload3(i, prev);
    const float3 next = p + (p - q) * 0.99f + accel * dt2;
    vstore3(p, i, prev);
    vstore3(next, i, pos);
}

__kernel void satisfy_constraint(__global float *pos, __global const int2 *links,
                                 const float rest_length, const int count)
{
    const int i = get_global_id(0);
    if (i >= count)
        return;
    const int2 l = links[i];
    float3 a = vload3(l.x, pos);
    float3 b = vload3(l.y, pos);
    const float3 delta = b - a;
    const float len = length(delta);
    const float3 corr = delta * (0.5f * (len - rest_length) / fmax(len, 1e-6f));
    a += corr;
    b -= corr;
    vstore3(a, l.x, pos);
    vstore3(b, l.y, pos);
}
