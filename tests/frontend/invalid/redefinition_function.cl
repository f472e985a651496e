// expect: 4:7: error: redefinition of 'lerp'
// A helper function defined twice.
float lerp(float a, float b, float t) { return a + (b - a) * t; }
float lerp(float a, float b, float t) { return mad(b - a, t, a); }

__kernel void k(__global float *data)
{
    data[get_global_id(0)] = lerp(0.0f, 1.0f, data[get_global_id(0)]);
}
