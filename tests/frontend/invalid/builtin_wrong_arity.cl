// expect: 5:30: error: too many arguments to function call 'sqrt', expected 1, have 2
// sqrt takes one argument: reported at the callee.
__kernel void k(__global float *data)
{
    data[get_global_id(0)] = sqrt(data[0], data[1]);
}
