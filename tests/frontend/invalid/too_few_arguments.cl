// expect: 7:37: error: too few arguments to function call, expected 3, have 2
// A helper called with a missing argument: reported at the ')'.
float lerp3(float a, float b, float t) { return mix(a, b, t); }

__kernel void k(__global float *data)
{
    data[0] = lerp3(data[1], data[2]);
}
