// options: -cl-std=CL2.0
// OpenCL 2.0 generic address space: helpers taking unqualified pointers are
// called with __global, __local and __private arguments alike.
float sum3(const float *p)
{
    return p[0] + p[1] + p[2];
}

void scale_in_place(float *p, int n, float s)
{
    for (int i = 0; i < n; i++)
        p[i] *= s;
}

int *pick(int *a, int *b, int first)
{
    return first ? a : b;
}

__kernel void generic_users(__global float *g, __local float *l, __global int *gi)
{
    const int i = get_global_id(0);
    const int lid = get_local_id(0);
    float priv[3] = { 1.0f, 2.0f, 3.0f };
    l[lid] = g[i];
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    float r = sum3(priv) + sum3(&g[i]);
    if (lid + 2 < get_local_size(0))
        r += sum3(l + lid);
    scale_in_place(priv, 3, 2.0f);
    scale_in_place(g + i, 1, 0.5f);
    int local_copy = gi[i];
    int *chosen = pick(&gi[i], &local_copy, i & 1);
    *chosen += 1;
    g[i] = r + priv[0];
}
