// options: -cl-std=CLC++
// expect: 6:10: error: initializing '__generic int*' with an expression of incompatible type '__generic void*'
// C++ converts no `void *` to another pointer type by itself, unlike C.
__kernel void k(__global int *out)
{
    int *p = (void *)out;
    out[0] = p != nullptr;
}
