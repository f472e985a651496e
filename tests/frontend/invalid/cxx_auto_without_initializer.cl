// options: -cl-std=CLC++
// expect: 5:10: error: declaration of variable 'x' with deduced type
__kernel void k(__global int *out)
{
    auto x;
    out[0] = 1;
}
