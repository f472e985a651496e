// Moving a buffer between the devices of one context: `produce` writes a
// pattern of each element's index and a seed on one device; `consume`
// reads every element on the other and counts those that differ, so each
// move is checked on the device it arrived at, and no implementation can
// get away with moving only the part a kernel touches.
#define PATTERN(i, seed) ((uint)(i) * 2654435761u + (seed))

__kernel void produce(__global uint *x, const uint seed)
{
    const size_t i = get_global_id(0);
    x[i] = PATTERN(i, seed);
}

__kernel void consume(__global const uint *x, const uint seed, __global uint *bad)
{
    const size_t i = get_global_id(0);
    if (x[i] != PATTERN(i, seed))
        atomic_inc(bad);
}
