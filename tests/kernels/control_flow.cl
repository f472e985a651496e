// Loops, branches, integer arithmetic and work-item queries over int and uint
// buffers: out[i] = sum of (i + k) for k < i % 8, negated for odd i; flags[i]
// counts how many of the first 10 even numbers divide i.
__kernel void control_flow(__global int *out, __global uint *flags)
{
    uint gid = get_global_id(0);
    uint total = get_global_size(0);
    int acc = 0;
    for (int k = 0; k < (int)(gid % 8u); ++k) {
        acc += (int)gid + k;
    }
    if (gid & 1)
        acc = -acc;
    else if (gid == total - 1)
        acc = 12345;
    out[gid] = acc;

    uint count = 0;
    int d = 2;
    while (d <= 20) {
        if (gid % d == 0)
            count++;
        d += 2;
    }
    do {
        count <<= 1;
    } while (0);
    flags[gid] = count >> 1;
}
