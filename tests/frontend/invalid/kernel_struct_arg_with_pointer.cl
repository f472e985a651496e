// expect: 8:22: error: struct kernel parameters may not contain pointers
// A struct passed by value to a kernel cannot carry pointers.
typedef struct {
    __global float *data;
    int count;
} View;

__kernel void k(View view)
{
    if (get_global_id(0) < view.count)
        view.data[get_global_id(0)] = 0.0f;
}
