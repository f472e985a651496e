// BLAS isamax: index of the element with the largest magnitude, reduced in
// __local memory as (value, index) pairs held in a struct.
typedef struct {
    float value;
    int index;
} MaxPair;

MaxPair better(MaxPair a, MaxPair b)
{
    if (b.value > a.value || (b.value == a.value && b.index < a.index))
        return b;
    return a;
}

__kernel void isamax(const int n, __global const float *x,
                     __global int *group_index, __global float *group_value)
{
    __local MaxPair pairs[256];
    const int lid = get_local_id(0);
    MaxPair best;
    best.value = -1.0f;
    best.index = 0;
    for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
        MaxPair candidate = { fabs(x[i]), i };
        best = better(best, candidate);
    }
    pairs[lid] = best;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            pairs[lid] = better(pairs[lid], pairs[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        group_index[get_group_id(0)] = pairs[0].index;
        group_value[get_group_id(0)] = pairs[0].value;
    }
}
