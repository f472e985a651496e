// expect: 5:7: error: conflicting types for 'scale'
// A definition that does not match the earlier prototype.
float scale(float v, float s);

float scale(float v, int s)
{
    return v * s;
}

__kernel void k(__global float *data)
{
    data[get_global_id(0)] = scale(data[get_global_id(0)], 2);
}
