// expect: 6:13: error: use of undeclared identifier 'CLK_LOCAL_FENCE'
// A misspelt memory-fence flag.
__kernel void k(__global float *data, __local float *tmp)
{
    tmp[get_local_id(0)] = data[get_global_id(0)];
    barrier(CLK_LOCAL_FENCE);
    data[get_global_id(0)] = tmp[0];
}
