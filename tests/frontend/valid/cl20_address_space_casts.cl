// options: -cl-std=CL2.0
// Named address-space conversions from generic pointers (to_global,
// to_local, to_private), explicit __generic, and OpenCL 2.0 work-item
// functions (get_local_linear_id, get_enqueued_local_size).
int classify(__generic int *p)
{
    if (to_global(p) != NULL)
        return 1;
    if (to_local(p) != NULL)
        return 2;
    if (to_private(p) != NULL)
        return 3;
    return 0;
}

__kernel void where_is_it(__global int *g, __local int *l, __global int *out)
{
    int p = 0;
    const size_t lin = get_local_linear_id();
    l[lin] = (int)get_enqueued_local_size(0);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_linear_id()] = classify(g) * 100 + classify(l + lin) * 10 + classify(&p);
}
