// expect: 3:44: error: bool' cannot be used as the type of a kernel parameter
// bool has no defined size on the host.
__kernel void k(__global float *data, bool enabled)
{
    if (enabled)
        data[get_global_id(0)] = 0.0f;
}
