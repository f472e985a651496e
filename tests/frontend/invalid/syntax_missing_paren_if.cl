// expect: 7:25: error: expected ')'
// An if condition is missing its closing parenthesis: the caret is on the
// token where ')' was expected.
__kernel void threshold(__global float *data, const float limit)
{
    const int i = get_global_id(0);
    if (data[i] > limit {
        data[i] = limit;
    }
}
