// expect: 5:44: error: half' is not allowed
// device: no cl_khr_fp16
// half values need cl_khr_fp16, which the device lacks (pointers to half
// are fine).
__kernel void k(__global float *data, half scale)
{
    data[get_global_id(0)] *= vload_half(0, &scale);
}
