// Type qualifiers as real kernels use them: const values and pointers,
// restrict, volatile, __constant buffers and const pointers to const data,
// plus the unprefixed address-space keywords.
__kernel void qualified(global const float *restrict in,
                        global float *restrict out,
                        constant float *coeffs,
                        const int n,
                        volatile global int *progress,
                        local float *scratch)
{
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);
    const float *const unused_private = 0;
    global const float *const row = in + (gid / n) * n;
    const float c0 = coeffs[0];
    scratch[lid] = row[gid % n] * c0;
    barrier(CLK_LOCAL_MEM_FENCE);
    volatile int spins = 0;
    spins++;
    out[gid] = scratch[lid] + scratch[(lid + 1) % get_local_size(0)] + (unused_private == 0 ? 0.0f : 1.0f);
    if (lid == 0)
        atomic_add(progress, 1 + spins - 1);
}
