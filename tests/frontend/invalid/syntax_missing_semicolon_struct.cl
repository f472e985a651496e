// expect: 6:2: error: expected ';' after struct
// A struct definition lacks the ';' after its closing brace.
struct Body {
    float4 pos;
    float4 vel;
}

__kernel void step(__global struct Body *bodies, const float dt)
{
    const int i = get_global_id(0);
    bodies[i].pos += bodies[i].vel * dt;
}
