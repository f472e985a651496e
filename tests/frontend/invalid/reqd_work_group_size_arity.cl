// expect: 3:25: error: 'reqd_work_group_size' attribute requires exactly 3 arguments
// reqd_work_group_size always takes three dimensions.
__kernel __attribute__((reqd_work_group_size(64, 1)))
void k(__global float *data)
{
    data[get_global_id(0)] = 0.0f;
}
