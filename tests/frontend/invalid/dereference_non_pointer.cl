// expect: 6:30: error: indirection requires pointer operand
// Unary * on an int.
__kernel void k(__global int *data)
{
    const int offset = data[0];
    data[get_global_id(0)] = *offset;
}
