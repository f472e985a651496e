// Structs shared with the host: a buffer of particles (float4 members,
// then scalars, laid out as the host compiler does) and a struct passed by
// value, plus a private struct copy.
typedef struct {
    float4 pos;
    float4 vel;
    float mass;
    int id;
} Particle;

typedef struct {
    float dt;
    float damping;
    int steps;
} Params;

__kernel void structs(__global Particle *particles, Params params)
{
    size_t i = get_global_id(0);
    Particle p = particles[i];
    for (int s = 0; s < params.steps; s++) {
        p.pos += p.vel * params.dt;
        p.vel *= params.damping;
    }
    p.mass = p.mass * 2.0f;
    p.id = -p.id;
    particles[i] = p;
    particles[i].vel.w = (float)params.steps;
}
