// expect: 8:22: error: no member named 'velocity'
// A struct member that does not exist: reported at the member name.
typedef struct { float4 pos; float4 vel; } Particle;

__kernel void k(__global Particle *p, const float dt)
{
    const int i = get_global_id(0);
    p[i].pos += p[i].velocity * dt;
}
