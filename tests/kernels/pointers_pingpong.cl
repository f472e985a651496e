// Ping-pong: two pointers swapped in a loop, over buffers, private arrays
// and __local arrays.

__kernel void pingpong_buffers(__global float *a, __global float *b, int steps) {
    int i = get_global_id(0);
    __global float *src = a;
    __global float *dst = b;
    for (int s = 0; s < steps; s++) {
        dst[i] = src[i] * 2.0f + (float)s;
        __global float *tmp = src;
        src = dst;
        dst = tmp;
    }
    // The latest values, wherever they are, go to a.
    a[i] = src[i];
}

__kernel void pingpong_private(__global const float *in, __global float *out) {
    int i = get_global_id(0);
    float first[8], second[8];
    for (int k = 0; k < 8; k++)
        first[k] = in[i * 8 + k];
    float *src = first, *dst = second;
    for (int s = 0; s < 5; s++) {
        for (int k = 0; k < 8; k++)
            dst[k] = src[k] + 0.5f * src[(k + 1) & 7];
        float *t = src;
        src = dst;
        dst = t;
    }
    for (int k = 0; k < 8; k++)
        out[i * 8 + k] = src[k];
}

__kernel void pingpong_local(__global const int *in, __global int *out, int steps) {
    __local int x[64];
    __local int y[64];
    int l = get_local_id(0);
    int g = get_global_id(0);
    __local int *src = x;
    __local int *dst = y;
    src[l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = 0; s < steps; s++) {
        dst[l] = src[l] + src[(l + 1) & 63];
        barrier(CLK_LOCAL_MEM_FENCE);
        __local int *t = dst;
        dst = src;
        src = t;
    }
    out[g] = src[l];
}
