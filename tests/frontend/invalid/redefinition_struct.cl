// expect: 4:8: error: redefinition of 'Body'
// A struct tag defined twice.
struct Body { float4 pos; };
struct Body { float4 pos; float mass; };

__kernel void k(__global struct Body *b)
{
    b[get_global_id(0)].pos = (float4)(0.0f);
}
