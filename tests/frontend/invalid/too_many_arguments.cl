// expect: 8:39: error: too many arguments to function call, expected 2, have 3
// A helper called with an extra argument: reported at the first extra
// argument.
float blend(float a, float b) { return 0.5f * (a + b); }

__kernel void k(__global float *data)
{
    data[0] = blend(data[1], data[2], data[3]);
}
