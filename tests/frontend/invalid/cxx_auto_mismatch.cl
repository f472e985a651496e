// options: -cl-std=CLC++
// expect: 6:5: error: 'auto' deduced as
// One `auto` deduces one type for all its declarators.
__kernel void k(__global int *out)
{
    auto u = 1u, big = 1ul << 40;
    out[0] = u;
}
