// expect: 9:7: error: from incompatible type
// expect: 9:7: error: int
// Assigning an int to a struct.
typedef struct { float4 pos; float4 vel; } Particle;

__kernel void k(__global Particle *p)
{
    Particle q;
    q = 0;
    p[get_global_id(0)] = q;
}
