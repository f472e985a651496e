// expect: 6:29: error: recursion is not supported in OpenCL
// OpenCL C forbids recursion (one of the language's restrictions); clang
// does not check it, so the wording is ours. Reported at the recursive call.
int factorial(int n)
{
    return n <= 1 ? 1 : n * factorial(n - 1);
}

__kernel void k(__global int *data)
{
    data[get_global_id(0)] = factorial(data[get_global_id(0)]);
}
