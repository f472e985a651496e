#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// Narrow stores through a cast of a __local double argument.

kernel void narrow_local_double(global ulong *out, local double *d) {
    int l = get_local_id(0);
    int n = get_local_size(0);
    if (l < n / 4) d[l] = 0.1 * l - 3.0;
    barrier(CLK_LOCAL_MEM_FENCE);
    // The top short of each double keeps the value.
    if ((l & 3) != 3) ((local short *)d)[l] = (short)(l * 77 - 900);
    barrier(CLK_LOCAL_MEM_FENCE);
    int group = get_global_id(0) - l;
    if (l < n / 4) out[group / 4 + l] = as_ulong(d[l]);
}
