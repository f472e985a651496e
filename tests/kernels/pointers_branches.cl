// A pointer variable given different buffers on different paths, and a
// helper whose pointer parameter is reassigned.

void bump(__global float *p, __global float *q, int use_q) {
    if (use_q)
        p = q;
    p[0] += 1.0f;
}

__kernel void branches(__global float *a, __global float *b, __global float *c,
                       __global const int *mode, __global float *out) {
    int i = get_global_id(0);
    __global float *p;
    if (mode[i] == 0)
        p = a;
    else if (mode[i] == 1)
        p = b;
    else
        p = c;
    p += i;
    out[i] = *p * 2.0f;
    p[0] = (float)i;
    bump(a + i, c + i, mode[i] == 2);
}
