// C11's `_Static_assert`, which clang takes in OpenCL C, at file and block
// scope, with constants of C's types.
_Static_assert(sizeof(int) == 4, "int is 32 bits");
_Static_assert((uchar)300 == 44, "casts wrap " "as C does");
__kernel void k(__global int *out)
{
    _Static_assert(sizeof(float4) == 16, "float4");
    out[0] = 1;
}
