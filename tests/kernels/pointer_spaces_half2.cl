#pragma OPENCL EXTENSION cl_khr_fp16 : enable
// __local and private half2 arrays seen through pointer casts: as halfs,
// as floats (their bits), and written through the casts.

kernel void half2_casts(global const ushort *in, global uint *out) {
    local half2 h2array[32];
    int l = get_local_id(0);
    int g = get_global_id(0);
    int n = get_local_size(0);
    h2array[l] = as_half2(vload2(g, in));
    barrier(CLK_LOCAL_MEM_FENCE);
    local half *h = (local half *)h2array;
    // The neighbour's high half and this one's low half, as bits.
    half hi = h[2 * ((l + 1) % n) + 1];
    half lo = h[2 * l];
    barrier(CLK_LOCAL_MEM_FENCE);
    // Writes through the cast: each work-item its own high half.
    h[2 * l + 1] = lo + (half)1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    local float *f = (local float *)h2array;
    private half2 p2[4];
    for (int k = 0; k < 4; k++)
        p2[k] = as_half2(vload2(4 * g + k, in + 2 * 64));
    private float *pf = (private float *)p2;
    private half *ph = (private half *)p2;
    uint a = as_uint(pf[g & 3]);
    pf[1] = as_float(0x3c004000u);
    ph[6] = (half)-2.0f;
    out[8 * g] = as_ushort(hi);
    out[8 * g + 1] = as_ushort(lo);
    out[8 * g + 2] = as_uint(f[l]);
    out[8 * g + 3] = as_uint(h2array[l]);
    out[8 * g + 4] = a;
    out[8 * g + 5] = as_uint(p2[1]);
    out[8 * g + 6] = as_uint(p2[3]);
    out[8 * g + 7] = as_ushort(ph[(g & 7)]);
}
