// expect: 3:17: error: kernel must have void return type
// A kernel declared to return a vector.
__kernel float4 load(__global const float4 *data)
{
    return data[get_global_id(0)];
}
