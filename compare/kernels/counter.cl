// The launch-cost kernels: one work-item adds to a counter, so every launch
// does observable work (the count proves that all launches ran) while
// costing next to nothing on the device.
__kernel void bump(__global uint *counter)
{
    if (get_global_id(0) == 0)
        counter[0] += 1u;
}

__kernel void add_arg(__global uint *counter, const uint value)
{
    if (get_global_id(0) == 0)
        counter[0] += value;
}
