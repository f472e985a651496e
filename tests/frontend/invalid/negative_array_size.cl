// expect: 6:16: error: declared as an array with a negative size
// A negative array size from a macro.
#define TILE (8 - 16)
__kernel void k(__global float *data)
{
    float tile[TILE];
    data[get_global_id(0)] = 0.0f;
}
