// Pointer arithmetic as parsers and packers do it: walking __global
// pointers, ptrdiff_t differences, pointer comparisons, intptr_t/uintptr_t
// round trips, and pointers into private arrays.
__kernel void pack_nonnegative(__global const int *begin, __global const int *end,
                               __global int *out, __global long *written)
{
    if (get_global_id(0) != 0)
        return;
    __global int *dst = out;
    for (__global const int *p = begin; p < end; ++p) {
        if (*p >= 0)
            *dst++ = *p;
    }
    const ptrdiff_t count = dst - out;
    written[0] = (long)count;
    written[1] = (long)(end - begin);
    int scratch[4] = { 1, 2, 3, 4 };
    int *q = scratch + 3;
    int *first = &scratch[0];
    const int last = *q--;
    written[2] = last + *q + (q > first ? q[-1] : 0);
    const uintptr_t addr = (uintptr_t)first;
    const intptr_t back = (intptr_t)addr;
    written[3] = back == (intptr_t)first;
}
