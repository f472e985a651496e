// expect: 6:5: error: should not return a value
// return with a value in a void function: reported at 'return'.
void store(__global float *p, float v)
{
    p[0] = v;
    return v;
}

__kernel void k(__global float *data)
{
    store(data, 1.0f);
}
