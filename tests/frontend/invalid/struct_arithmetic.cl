// expect: 9:26: error: invalid operands to binary expression
// Structs have no arithmetic operators.
typedef struct { float4 pos; float4 vel; } Particle;

__kernel void k(__global Particle *p)
{
    const Particle a = p[0];
    const Particle b = p[1];
    const Particle c = a + b;
    p[get_global_id(0)] = c;
}
