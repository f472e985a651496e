// expect: 5:19: error: '__local' variable cannot have an initializer
// __local variables cannot be initialized at their declaration.
__kernel void k(__global float *out)
{
    __local float total = 0.0f;
    out[get_global_id(0)] = total;
}
