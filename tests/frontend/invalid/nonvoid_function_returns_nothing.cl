// expect: 6:9: error: should return a value
// return without a value in a non-void function.
float safe_div(float a, float b)
{
    if (b == 0.0f)
        return;
    return a / b;
}

__kernel void k(__global float *data)
{
    data[get_global_id(0)] = safe_div(1.0f, data[get_global_id(0)]);
}
