// expect: 7:32: error: invalid operands to binary expression
// expect: 7:32: error: float
// Bitwise operators need integer operands; as_uint is needed.
__kernel void k(__global float *data, __global uint *bits)
{
    const float v = data[get_global_id(0)];
    bits[get_global_id(0)] = v & 0x7fffffffu;
}
