// expect: 6:30: error: invalid argument type 'float' to unary expression
// ~ needs an integer operand.
__kernel void k(__global float *data)
{
    const float v = data[get_global_id(0)];
    data[get_global_id(0)] = ~v;
}
