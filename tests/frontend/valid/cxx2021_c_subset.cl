// options: -cl-std=CLC++2021
// C++ for OpenCL 2021 builds on OpenCL C 3.0: its version macro, and the
// feature macros of the device.
#if __OPENCL_CPP_VERSION__ != __CL_CPP_VERSION_2021__ || defined(__OPENCL_C_VERSION__)
#error "C++ for OpenCL 2021's macros"
#endif
__kernel void k(__global int *out)
{
#ifdef __opencl_c_generic_address_space
    int x = 3;
    int *p = &x;
    out[0] = *p;
#endif
    out[1] = sizeof('a') + sizeof(out[0] < out[1]);
}
