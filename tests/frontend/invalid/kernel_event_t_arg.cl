// expect: 3:47: error: cannot be used as the type of a kernel parameter
// event_t is a device-side type only.
__kernel void k(__global float *data, event_t ev)
{
    wait_group_events(1, &ev);
}
