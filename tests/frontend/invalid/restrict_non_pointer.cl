// expect: 5:5: error: restrict requires a pointer
// restrict only qualifies pointers: reported at the qualifier.
__kernel void k(__global float *data)
{
    restrict float v = data[0];
    data[get_global_id(0)] = v;
}
