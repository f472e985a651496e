// expect: 6:20: error: static assertion expression is not an integral constant expression
// The condition must be a constant; the error points where it starts.
__kernel void k(__global int *out)
{
    int v = 1;
    _Static_assert(v == 1, "v");
    out[0] = v;
}
