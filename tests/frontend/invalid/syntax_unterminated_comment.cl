// expect: 6:5: error: unterminated /* comment
// A block comment is never closed.
__kernel void negate(__global float *data)
{
    const int i = get_global_id(0);
    /* flip the sign
    data[i] = -data[i];
}
