// expect: 6:32: error: expected ')'
// A for header is missing its closing parenthesis.
__kernel void prefix(__global int *data, const int n)
{
    int acc = 0;
    for (int k = 0; k < n; k++ {
        acc += data[k];
        data[k] = acc;
    }
}
