// expect: 4:2: error: TILE_SIZE must be defined
// An #error directive fires because the configuration macro is missing.
#ifndef TILE_SIZE
#error TILE_SIZE must be defined
#endif
__kernel void k(__global float *data)
{
    data[get_global_id(0)] = 1.0f;
}
