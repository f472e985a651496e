// Narrow stores through casts of __local kernel arguments of wider
// elements (float, float4, int2, double), directly and through an address
// a helper returned: every work-item writes a byte or short of elements
// that other work-items write the other bytes of, at once.

local float *same_floats(local float *p) { return p; }

kernel void narrow_local_args(global uint *out, local float *f, local float4 *f4,
                              local int2 *i2) {
    int l = get_local_id(0);
    int g = get_global_id(0);
    int n = get_local_size(0);
    // n bytes and n shorts of floats, n bytes of float4s, n shorts of int2s.
    f[l] = 1.5f * l;
    f[l + n] = -2.25f * l;
    if (l < n / 4) f4[l] = (float4)(l, l + 0.5f, -l, 7.0f);
    if (l < n / 2) i2[l] = (int2)(l * 1000, -l);
    barrier(CLK_LOCAL_MEM_FENCE);
    ((local uchar *)f)[l] = (uchar)(l * 7 + 1);
    ((local short *)same_floats(f + n))[l] = (short)(l * 300 - 5000);
    ((local char *)f4)[l] = (char)(l - 60);
    ((local ushort *)(local void *)i2)[l] = (ushort)(l * 999);
    barrier(CLK_LOCAL_MEM_FENCE);
    int group = g - l;
    // 2n words of floats, n/4 float4s (n words), n/2 int2s (n words).
    for (int k = l; k < 2 * n; k += n) out[4 * group + k] = as_uint(f[k]);
    if (l < n / 4) vstore4(as_uint4(f4[l]), 0, out + 4 * group + 2 * n + 4 * l);
    if (l < n / 2) vstore2(as_uint2(i2[l]), 0, out + 4 * group + 3 * n + 2 * l);
}
