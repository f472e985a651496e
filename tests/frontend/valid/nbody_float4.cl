// All-pairs N-body step: positions in float4 (w = mass), tiles of bodies
// cached in __local memory, softened inverse distance with rsqrt.
__kernel void nbody_step(__global const float4 *pos_old,
                         __global float4 *pos_new,
                         __global float4 *vel,
                         __local float4 *cache,
                         const int n, const float dt, const float eps2)
{
    const int gid = get_global_id(0);
    const int lid = get_local_id(0);
    const int lsz = get_local_size(0);
    const float4 p = pos_old[gid];
    float4 acc = (float4)(0.0f);

    for (int tile = 0; tile < n / lsz; tile++) {
        cache[lid] = pos_old[tile * lsz + lid];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < lsz; j++) {
            const float4 q = cache[j];
            float4 d = q - p;
            d.w = 0.0f;
            const float dist2 = dot(d, d) + eps2;
            const float inv = rsqrt(dist2);
            const float s = q.w * inv * inv * inv;
            acc = mad((float4)(s), d, acc);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float4 v = vel[gid] + acc * dt;
    float4 np = p + v * dt;
    np.w = p.w;
    pos_new[gid] = np;
    vel[gid] = v;
}
