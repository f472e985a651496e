// `global void *` kernel parameters, cast inside the kernel to the types
// they hold, explicitly and implicitly.

kernel void void_params(global void *floats, global void *ints, global const void *bytes) {
    int i = get_global_id(0);
    global float *f = (global float *)floats;
    global int *o = ints;
    const global uchar *b = bytes;
    o[i] = (int)(f[i] * 2.0f) + b[i] + ((global const ushort *)bytes)[i];
    f[i] = f[i] + 1.0f;
}
