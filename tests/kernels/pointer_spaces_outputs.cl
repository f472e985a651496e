// options: -cl-std=CL2.0
// The output-pointer built-ins writing into __local float8/float16 arrays
// and through global pointers implicitly converted to generic ones.

kernel void local_outputs(global const float *in, global float *out) {
    local float8 ip8[8], e8f[8];
    local int8 e8[8], q8[8], s8[8];
    local float16 ip16[8], c16[8];
    int l = get_local_id(0);
    int g = get_global_id(0);
    float8 x = vload8(g, in);
    float16 y = vload16(g, in);
    float8 fr = fract(x, &ip8[l]);
    float8 mant = frexp(x, &e8[l]);
    float16 mf = modf(y, &ip16[l]);
    float16 sn = sincos(y, &c16[l]);
    float8 rq = remquo(x, (float8)(0.75f), &q8[l]);
    float8 lg = lgamma_r(x, &s8[l]);
    barrier(CLK_LOCAL_MEM_FENCE);
    global float *o = out + g * 128;
    vstore8(fr, 0, o);
    vstore8(ip8[l], 1, o);
    vstore8(mant, 2, o);
    vstore8(convert_float8(e8[l]), 3, o);
    vstore16(mf, 2, o);
    vstore16(ip16[l], 3, o);
    vstore16(sn, 4, o);
    vstore16(c16[l], 5, o);
    vstore8(rq, 12, o);
    vstore8(convert_float8(q8[l]), 13, o);
    vstore8(lg, 14, o);
    vstore8(convert_float8(s8[l]), 15, o);
}

// Each global pointer converts implicitly to the generic one the built-in
// takes.
kernel void generic_outputs(global const float *in, global float2 *ip,
                            global int2 *e, global float2 *c, global float2 *out) {
    int g = get_global_id(0);
    float2 x = vload2(g, in);
    global float2 *ipg = ip + g;
    float2 a = fract(x, ipg);
    float2 b = frexp(x, e + g);
    float2 s = sincos(x, c + g);
    out[3 * g] = a;
    out[3 * g + 1] = b;
    out[3 * g + 2] = s;
}

// Output pointers of another type convert, as clang converts them (with
// its incompatible-pointer warning for `float *`, silently for `void *`).
kernel void converted_outputs(global const float *in, global float *ip,
                              global void *e, global float2 *out) {
    int g = get_global_id(0);
    float2 x = vload2(g, in);
    out[2 * g] = fract(x, ip + 2 * g);
    out[2 * g + 1] = frexp(x, (global int *)e + 2 * g);
    float2 m = modf(x, (global void *)(out + 2 * g + 1));
    out[2 * g] += m;
}
