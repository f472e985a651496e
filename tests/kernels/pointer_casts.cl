// One buffer seen through several pointee types: float data read as
// float4 (a vectorised copy), bytes of a uint buffer read through a uchar
// view, uints written through a uchar4 view, and a round trip through
// void *. The host recomputes every output.
float sum4(__global const float4 *v, int i) { return v[i].x + v[i].y + v[i].z + v[i].w; }

__kernel void pointer_casts(__global const float *in,
                            __global float *sums,
                            __global uint *words,
                            __global int *bytes_out)
{
    int i = get_global_id(0);
    __global const float4 *in4 = (__global const float4 *)in;
    sums[i] = sum4(in4, i) + in4[i].y;

    __global uchar *bytes = (__global uchar *)words;
    bytes_out[i] = bytes[4 * i] + bytes[4 * i + 3];

    __global void *raw = (__global void *)words;
    __global uchar4 *quads = (__global uchar4 *)raw;
    uchar4 q = quads[i];
    quads[i] = q.wzyx;
}
