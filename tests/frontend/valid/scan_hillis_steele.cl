// Inclusive prefix sum within a work-group (Hillis-Steele), double-buffered
// in __local memory with a ping-pong index.
#define N_MAX 512

__kernel void scan_inclusive(__global const int *in, __global int *out)
{
    __local int buf[2 * N_MAX];
    const int lid = get_local_id(0);
    const int n = get_local_size(0);
    const int gid = get_global_id(0);
    int pout = 0, pin = 1;
    buf[lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int offset = 1; offset < n; offset *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (lid >= offset)
            buf[pout * n + lid] = buf[pin * n + lid] + buf[pin * n + lid - offset];
        else
            buf[pout * n + lid] = buf[pin * n + lid];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[gid] = buf[pout * n + lid];
}
