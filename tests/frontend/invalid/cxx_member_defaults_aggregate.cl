// options: -cl-std=CLC++
// expect: 7:7: error: aggregate initialization of 'P', a class with default member initializers, is not supported
// C++14 keeps such a class an aggregate; clvulkan does not yet.
struct P { int x = 1, y = 2; };
__kernel void k(__global int *out)
{
    P p{5};
    out[0] = p.x + p.y;
}
