// Barriers inside a loop made by a backward goto that every work-item of
// the group takes together (uniform, as OpenCL requires of a loop around
// a barrier), with a divergent goto loop of each work-item's own before
// the barriers, and a divergent forward goto after them.
kernel void ring(global int *out, local int *ring) {
    int lid = (int)get_local_id(0), n = (int)get_local_size(0);
    int v = (int)get_global_id(0) * 3;
    int round = 0, extra;
next_round:
    extra = 0;
tweak:
    if (extra < (lid & 3)) {
        extra++;
        v += 1;
        goto tweak;
    }
    ring[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = ring[(lid + 1) % n] * 2 + round;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (++round < 5)
        goto next_round;
    if (lid & 1)
        goto done;
    v = -v;
done:
    out[get_global_id(0)] = v;
}
