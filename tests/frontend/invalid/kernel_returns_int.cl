// expect: 3:14: error: kernel must have void return type
// A kernel that returns a value: reported at the kernel name.
__kernel int count_positive(__global const float *data)
{
    return data[get_global_id(0)] > 0.0f;
}
