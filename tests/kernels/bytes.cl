// char/uchar/short buffers through the 32-bit word view: neighbouring
// work-items write adjacent bytes (the byte-store race test), and signed
// values are sign-extended on load.
__kernel void bytes(__global const uchar *in, __global uchar *out,
                    __global const char *signed_in, __global short *wide)
{
    size_t i = get_global_id(0);
    out[i] = (uchar)(in[i] * 3 + 1);
    wide[i] = (short)(signed_in[i] * 100);
}
