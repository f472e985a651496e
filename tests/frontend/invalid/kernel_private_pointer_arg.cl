// expect: 4:45: error: pointer arguments to kernel functions must reside in '__global', '__constant' or '__local' address space
// A kernel pointer argument without an address space points to private
// memory, which the host cannot pass.
__kernel void k(__global float *out, float *in)
{
    out[get_global_id(0)] = in[get_global_id(0)];
}
