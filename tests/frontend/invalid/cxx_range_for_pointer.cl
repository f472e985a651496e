// options: -cl-std=CLC++
// expect: 6:16: error: invalid range expression of type
// A pointer has no length: only arrays are ranges.
__kernel void k(__global int *out)
{
    for (int v : out) out[0] += v;
}
