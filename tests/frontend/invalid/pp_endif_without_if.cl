// expect: 7:2: error: #endif without #if
// A stray #endif.
__kernel void k(__global float *data)
{
    data[get_global_id(0)] = 1.0f;
}
#endif
