// Pointers chosen per work-item at run time, from the data: a ternary
// between buffers, between private arrays and between __local arrays;
// stores through a chosen pointer; comparisons and differences.

float weigh(__global const float *p, int n) {
    return p[0] + 2.0f * p[n];
}

__kernel void select_buffers(__global const float *a, __global const float *b,
                             __global const float *c, __global const int *pick,
                             __global float *even, __global float *odd,
                             __global float *out, __global int *facts) {
    int i = get_global_id(0);
    int n = get_global_size(0);
    int k = pick[i];
    __global const float *src = k == 0 ? a : (k == 1 ? b : c);
    // A load, a helper call and pointer arithmetic through the choice.
    const __global float *next = src + 1;
    out[i] = src[i] * 3.0f + weigh(src + i, (i + 1 < n) ? 1 : 0) + next[i];
    // A store through a choice between output buffers.
    __global float *dst = (i & 1) ? odd : even;
    dst[i] = src[i];
    // Comparisons: the same object and offset, or not.
    int f = 0;
    f |= (src == a) << 0;
    f |= (src == b) << 1;
    f |= (src != c) << 2;
    f |= (next - src == 1) << 3;
    f |= (next > src) << 4;
    f |= (src + i == &src[i]) << 5;
    facts[i] = f;
}

__kernel void select_private(__global const int *in, __global int *out) {
    int i = get_global_id(0);
    int lo[4], hi[4];
    for (int j = 0; j < 4; j++) {
        lo[j] = in[i] + j;
        hi[j] = in[i] * 10 + j;
    }
    int *p = (in[i] & 1) ? hi : lo;
    p[i & 3] += 100;
    out[i] = lo[0] + lo[1] + lo[2] + lo[3] + 2 * (hi[0] + hi[1] + hi[2] + hi[3]) + p[3];
}

__kernel void select_local(__global const float *in, __global float *out) {
    __local float x[64];
    __local float y[64];
    int l = get_local_id(0);
    int g = get_global_id(0);
    x[l] = in[g];
    y[l] = -in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    __local float *p = (in[g] > 0.5f) ? x : y;
    out[g] = p[63 - l];
}

// Atomics through a pointer chosen per work-item: histograms of the even
// and the odd values, and each one's maximum in its last slot.
__kernel void select_atomics(__global const int *in, __global int *even_hist,
                             __global int *odd_hist) {
    int i = get_global_id(0);
    int v = in[i];
    __global int *h = (v & 1) ? odd_hist : even_hist;
    atomic_inc(&h[(v >> 1) & 7]);
    atomic_max(h + 8, v);
}

// Null pointers: a variable that is null or not by the data, a ternary
// with NULL, a helper given NULL; pointers converted to integers.
float value_or(__global const float *p, float fallback) {
    return p ? *p : fallback;
}

__kernel void select_null(__global const float *a, __global float *out,
                          __global ulong *addr) {
    int i = get_global_id(0);
    __global const float *p = NULL;
    if (a[i] > 0.0f)
        p = a + i;
    __global const float *q = (i & 1) ? a : 0;
    out[i] = value_or(p, -1.0f) + (q == NULL ? 100.0f : 0.0f) + value_or(0, 1000.0f);
    addr[i] = (ulong)p;
}
