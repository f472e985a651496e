// A NULL cl_mem argument reads as a null pointer: comparisons with 0 and
// between two null arguments hold, in the kernel and in a helper, and a
// pointer reached from it is not null.

static int is_null(__global const int *p) { return p == 0; }

__kernel void null_args(__global const int *maybe, __global int *out,
                        __global const int *also_maybe)
{
    size_t i = get_global_id(0);
    int flags = 0;
    if (maybe == 0)
        flags |= 1;
    if (!also_maybe)
        flags |= 2;
    if (maybe == also_maybe)
        flags |= 4;
    if (is_null(maybe))
        flags |= 8;
    if (out == 0 || !out)
        flags |= 16;
    if (maybe + 1 != 0)
        flags |= 32;
    out[2 * i] = flags;
    out[2 * i + 1] = maybe ? maybe[i] : -1;
}
