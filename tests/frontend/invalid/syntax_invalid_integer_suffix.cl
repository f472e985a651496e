// expect: 5:33: error: invalid suffix 'uu' on integer constant
// An integer literal with a bad suffix: the caret is on the suffix.
__kernel void offset(__global int *data)
{
    data[get_global_id(0)] += 42uu;
}
