// expect: 5:10: error: variable has incomplete type 'void'
// A variable of type void.
__kernel void k(__global float *data)
{
    void nothing;
    data[get_global_id(0)] = 0.0f;
}
