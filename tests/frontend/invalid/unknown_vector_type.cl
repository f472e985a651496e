// expect: 3:1: error: unknown type name 'float5'
// There is no 5-component vector type (a helper's return type).
float5 widen(float4 v)
{
    return 0;
}

__kernel void k(__global float *data)
{
    data[get_global_id(0)] = 0.0f;
}
