// expect: 6:23: error: use of undeclared identifier 'work_group_reduce_add'
// Work-group collective functions are OpenCL C 2.0; the default is
// OpenCL C 1.2.
__kernel void k(__global int *data)
{
    const int total = work_group_reduce_add(data[get_global_id(0)]);
    data[get_global_id(0)] = total;
}
