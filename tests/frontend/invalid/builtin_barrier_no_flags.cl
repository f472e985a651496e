// expect: 6:13: error: too few arguments to function call
// barrier needs its fence flags: reported at the ')'.
__kernel void k(__global float *data, __local float *tmp)
{
    tmp[get_local_id(0)] = data[get_global_id(0)];
    barrier();
    data[get_global_id(0)] = tmp[0];
}
