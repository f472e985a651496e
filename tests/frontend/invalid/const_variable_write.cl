// expect: 6:11: error: cannot assign to variable 'limit' with const-qualified type
// Assigning to a const local.
__kernel void k(__global float *data)
{
    const float limit = 1.0f;
    limit = data[0];
    data[get_global_id(0)] = limit;
}
