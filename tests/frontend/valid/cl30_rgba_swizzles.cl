// options: -cl-std=CL3.0
// OpenCL 3.0 rgba component names next to xyzw, on colour data in float4
// and uchar4, plus ordinary 1.2-style code compiled as OpenCL C 3.0.
__kernel void swap_red_blue(__global float4 *colours, __global uchar4 *bytes)
{
    const size_t i = get_global_id(0);
    float4 c = colours[i];
    c.rb = c.br;
    c.a = 1.0f;
    colours[i] = c;
    uchar4 b = bytes[i];
    bytes[i] = (uchar4)(b.bgr, b.a);
    barrier(CLK_GLOBAL_MEM_FENCE);
}
