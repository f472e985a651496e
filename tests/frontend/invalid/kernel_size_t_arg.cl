// expect: 3:46: error: cannot be used as the type of a kernel parameter
// size_t differs between host and device.
__kernel void k(__global float *data, size_t count)
{
    if (get_global_id(0) < count)
        data[get_global_id(0)] = 0.0f;
}
