// expect: 3:25: error: 'reqd_work_group_size' attribute must be greater than 0
// A required work-group size of zero: reported at the attribute name.
__kernel __attribute__((reqd_work_group_size(0, 1, 1)))
void k(__global float *data)
{
    data[get_global_id(0)] = 0.0f;
}
