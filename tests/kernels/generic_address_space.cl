// options: -cl-std=CL3.0
// Generic pointers whose address space is known only at run time, and the
// address-space functions on them (OpenCL C 6.15.9).

#ifndef __opencl_c_generic_address_space
#error "__opencl_c_generic_address_space is not defined"
#endif

// Which space a helper's unqualified (generic) parameter points into.
int space_of(int *p)
{
    return (to_global(p) ? 1 : 0) | (to_local(p) ? 2 : 0) | (to_private(p) ? 4 : 0);
}

// Work-item i points a generic pointer at global, local or private memory
// by i % 3, and records what each function says of it; then writes
// through the one non-null result, so that a result that pointed at the
// wrong object would show.
kernel void classify(global int *out, global int *data, local int *scratch)
{
    int i = get_global_id(0);
    int l = get_local_id(0);
    int mine = 1000 + i;
    scratch[l] = 2000 + i;
    barrier(CLK_LOCAL_MEM_FENCE);

    int *g;
    switch (i % 3) {
    case 0: g = data + i; break;
    case 1: g = scratch + l; break;
    default: g = &mine; break;
    }
    global int *gp = to_global(g);
    local int *lp = to_local(g);
    private int *pp = to_private(g);
    out[8 * i + 0] = gp != 0;
    out[8 * i + 1] = lp != 0;
    out[8 * i + 2] = pp != 0;
    out[8 * i + 3] = get_fence(g);
    out[8 * i + 4] = space_of(g);
    if (gp)
        *gp += 1;
    if (lp)
        *lp += 1;
    if (pp)
        *pp += 1;
    // What the pointer reads after the write through its own space.
    out[8 * i + 5] = *g;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[8 * i + 6] = scratch[l];
    out[8 * i + 7] = mine;
}

// Roots known at compile time: the answers are constants, and to_* of a
// pointer into another space is NULL.
kernel void fixed(global int *out, local int *scratch)
{
    int x = 7;
    int *g = out;
    int *l = scratch;
    int *p = &x;
    out[0] = to_global(g) == out;
    out[1] = to_local(g) == 0;
    out[2] = to_private(g) == 0;
    out[3] = to_local(l) == scratch;
    out[4] = to_global(l) == 0;
    out[5] = to_private(p) == &x;
    out[6] = to_global(p) == 0 && to_local(p) == 0;
    out[7] = get_fence(g);
    out[8] = get_fence(l);
    out[9] = get_fence(p);
    out[10] = space_of(g) | space_of(l) << 4 | space_of(p) << 8;
    out[11] = to_global((int *)0) == 0;
}
