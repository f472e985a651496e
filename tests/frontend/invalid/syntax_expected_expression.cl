// expect: 5:17: error: expected expression
// An initializer is empty.
__kernel void fill(__global int *out)
{
    int value = ;
    out[get_global_id(0)] = value;
}
