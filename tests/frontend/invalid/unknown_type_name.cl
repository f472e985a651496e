// expect: 3:26: error: unknown type name 'flaot'
// A misspelt type name in a kernel parameter.
__kernel void k(__global flaot *data)
{
    data[get_global_id(0)] *= 2.0f;
}
