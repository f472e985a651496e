// expect: 6:35: error: called object type
// Calling an int variable: clang reports it at the '('.
__kernel void k(__global int *data)
{
    const int scale = data[0];
    data[get_global_id(0)] = scale(2);
}
