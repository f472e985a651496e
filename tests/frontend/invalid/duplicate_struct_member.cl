// expect: 6:12: error: duplicate member 'pos'
// A struct with two members of the same name.
typedef struct {
    float4 pos;
    float4 vel;
    float3 pos;
} Particle;

__kernel void k(__global Particle *p)
{
    p[get_global_id(0)].vel = (float4)(0.0f);
}
