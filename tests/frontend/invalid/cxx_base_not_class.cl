// options: -cl-std=CLC++
// expect: 4:18: error: expected class name
// Only classes are bases.
struct Derived : int { int x; };
__kernel void k(__global int *out)
{
    out[0] = 1;
}
