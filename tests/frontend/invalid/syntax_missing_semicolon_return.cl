// expect: 5:17: error: expected ';' after return statement
// A helper's return statement lacks its ';'.
float square(float v)
{
    return v * v
}

__kernel void squares(__global float *data)
{
    data[get_global_id(0)] = square(data[get_global_id(0)]);
}
