// expect: 3:2: error: invalid preprocessing directive
// A misspelt directive.
#pragme unroll
__kernel void k(__global float *data)
{
    data[get_global_id(0)] = 1.0f;
}
