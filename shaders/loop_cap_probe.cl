// The probe of whether the driver cuts loops short (layer/src/core/loop_cap.rs):
// one work-item counts to `n` in a loop. Mesa 22.3's lavapipe stops an
// invocation's loops after 65,535 iterations in all and carries on after
// the loop, so there the count falls short of an `n` past that.

__kernel void count_to(__global uint *out, uint n)
{
    uint count = 0;
    for (uint i = 0; i < n; i++)
        count++;
    out[0] = count;
}
