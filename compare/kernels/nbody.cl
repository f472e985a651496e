// One N-body step (all pairs, softened gravity). Positions are float4 with
// the mass in w. Each work-group stages 256 bodies at a time in __local
// memory.
#define TILE 256

__kernel void nbody_step(__global const float4 *pos, __global const float4 *vel,
                         __global float4 *pos_out, __global float4 *vel_out,
                         const int n, const float dt, const float soft2)
{
    __local float4 tile[TILE];
    const int i = get_global_id(0);
    const int lid = get_local_id(0);
    const float4 p = pos[i];
    float ax = 0.0f;
    float ay = 0.0f;
    float az = 0.0f;
    for (int base = 0; base < n; base += TILE) {
        tile[lid] = pos[base + lid];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < TILE; j++) {
            const float4 q = tile[j];
            const float dx = q.x - p.x;
            const float dy = q.y - p.y;
            const float dz = q.z - p.z;
            const float dist2 = dx * dx + dy * dy + dz * dz + soft2;
            const float inv = rsqrt(dist2);
            const float s = q.w * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float4 v = vel[i];
    v.x += ax * dt;
    v.y += ay * dt;
    v.z += az * dt;
    float4 np = p;
    np.x += v.x * dt;
    np.y += v.y * dt;
    np.z += v.z * dt;
    pos_out[i] = np;
    vel_out[i] = v;
}
