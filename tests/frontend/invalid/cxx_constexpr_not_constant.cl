// options: -cl-std=CLC++
// expect: 5:19: error: constexpr variable 'c' must be initialized by a constant expression
__kernel void k(__global int *out, int v)
{
    constexpr int c = v;
    out[0] = c;
}
