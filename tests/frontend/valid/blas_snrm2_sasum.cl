// BLAS level 1 norms: per-work-group partial sums of |x| and x^2 written to
// two outputs; the host finishes with sqrt. Uses fabs, hypot-free scaling.
#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void snrm2_sasum(const int n, __global const float *x,
                 __global float *abs_sums, __global float *sq_sums)
{
    __local float sa[WG];
    __local float sq[WG];
    const int lid = get_local_id(0);
    float a = 0.0f, q = 0.0f;
    for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
        const float v = x[i];
        a += fabs(v);
        q = fma(v, v, q);
    }
    sa[lid] = a;
    sq[lid] = q;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = WG / 2; s > 0; s /= 2) {
        if (lid < s) {
            sa[lid] += sa[lid + s];
            sq[lid] += sq[lid + s];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        abs_sums[get_group_id(0)] = sa[0];
        sq_sums[get_group_id(0)] = sqrt(sq[0]);
    }
}
