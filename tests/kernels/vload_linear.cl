// options: -cl-std=CL2.0
// vloadn/vstoren at element-aligned addresses (seed 003): vload3 touches
// exactly three elements at p + offset * 3; uchar vectors go through the
// word view. Also the linear work-item ids of a 2-D range.
__kernel void vload_linear(__global const float *in, __global float *out,
                           __global const uchar *bytes, __global uchar *bytes_out,
                           __global uint *ids)
{
    size_t i = get_global_linear_id();
    // Offsets one element apart: vector-misaligned, element-aligned.
    float3 a = vload3(i, in + 1);
    float2 b = vload2(0, in + 3 * i);
    vstore3(a * 2.0f, i, out);
    uchar4 c = vload4(i, bytes + 1);
    vstore4(c + (uchar4)(1, 2, 3, 4), i, bytes_out);
    vstore2((uint2)((uint)get_local_linear_id(), (uint)(b.y == in[3 * i + 1])), i, ids);
}
