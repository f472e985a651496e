// expect: 5:34: error: invalid suffix 'fl' on floating constant
// A floating literal with a suffix OpenCL C does not have.
__kernel void scale(__global float *data)
{
    data[get_global_id(0)] *= 1.5fl;
}
