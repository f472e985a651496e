// options: -cl-std=CL2.0
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// The output-pointer built-ins writing __local double8/double16.

kernel void local_outputs_double(global const double *in, global double *out) {
    local double8 ip8[4];
    local int8 e8[4];
    local double16 ip16[4];
    int l = get_local_id(0);
    int g = get_global_id(0);
    double8 x = vload8(g, in);
    double16 y = vload16(g, in);
    double8 fr = fract(x, &ip8[l]);
    double8 mant = frexp(x, &e8[l]);
    double16 mf = modf(y, &ip16[l]);
    barrier(CLK_LOCAL_MEM_FENCE);
    global double *o = out + g * 64;
    vstore8(fr, 0, o);
    vstore8(ip8[l], 1, o);
    vstore8(mant, 2, o);
    vstore8(convert_double8(e8[l]), 3, o);
    vstore16(mf, 2, o);
    vstore16(ip16[l], 3, o);
}
