// Particle system with a struct of vectors shared with the host (same
// layout as a C struct of cl_float4), integrated with gravity and a floor.
typedef struct {
    float4 pos;
    float4 vel;
} Particle;

typedef struct {
    float4 gravity;
    float dt;
    float damping;
    int count;
    int pad;
} SimParams;

__kernel void integrate(__global Particle *particles, const SimParams params)
{
    const int i = get_global_id(0);
    if (i >= params.count)
        return;
    Particle p = particles[i];
    p.vel += params.gravity * params.dt;
    p.pos += p.vel * params.dt;
    if (p.pos.y < 0.0f) {
        p.pos.y = -p.pos.y;
        p.vel.y = -p.vel.y * params.damping;
    }
    particles[i] = p;
}

__kernel void kinetic_energy(__global const Particle *particles, __global float *energy)
{
    const int i = get_global_id(0);
    __global const Particle *p = &particles[i];
    energy[i] = 0.5f * p->pos.w * dot(p->vel.xyz, p->vel.xyz);
}
