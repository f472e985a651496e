// expect: 7:12: error: pointers to functions are not allowed
// OpenCL C has no function pointers: reported at the '*'.
float twice(float v) { return 2.0f * v; }

__kernel void k(__global float *data)
{
    float (*op)(float);
    data[get_global_id(0)] = twice(1.0f);
}
