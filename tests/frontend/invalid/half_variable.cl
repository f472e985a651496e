// expect: 6:10: error: half' is not allowed
// device: no cl_khr_fp16
// A half variable needs cl_khr_fp16, which the device lacks.
__kernel void k(__global const half *in, __global float *out)
{
    half h;
    out[get_global_id(0)] = vload_half(get_global_id(0), in);
}
