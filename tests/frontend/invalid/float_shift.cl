// expect: 7:32: error: invalid operands to binary expression
// expect: 7:32: error: float
// Shifts need integer operands.
__kernel void k(__global float *data)
{
    const float v = data[get_global_id(0)];
    data[get_global_id(0)] = v << 2;
}
