// options: -cl-std=CL2.0
// The exact built-ins: integer functions on int, uint, char and uchar;
// common, geometric and relational functions on float4. The host
// recomputes every result (integers exactly, floats within rounding).
__kernel void int_library(__global const int *a, __global const int *b, __global int *out)
{
    int i = get_global_id(0);
    int x = a[i], y = b[i];
    uint ux = (uint)x, uy = (uint)y;
    char cx = (char)x, cy = (char)y;
    uchar ucx = (uchar)x, ucy = (uchar)y;
    int k = 16 * i;
    out[k + 0] = clamp(x, -1000, 1000);
    out[k + 1] = (int)abs(x);
    out[k + 2] = (int)abs_diff(x, y);
    out[k + 3] = hadd(x, y);
    out[k + 4] = rhadd(x, y);
    out[k + 5] = add_sat(x, y);
    out[k + 6] = sub_sat(x, y);
    out[k + 7] = (int)add_sat(ux, uy);
    out[k + 8] = (int)sub_sat(ux, uy);
    out[k + 9] = mul_hi(x, y);
    out[k + 10] = (int)mul_hi(ux, uy);
    out[k + 11] = rotate(x, y);
    out[k + 12] = clz(x) + 100 * ctz(x) + 10000 * popcount(x);
    out[k + 13] = add_sat(cx, cy) + 1000 * sub_sat(ucx, ucy);
    out[k + 14] = clz(ucx) + 100 * ctz(cy) + 10000 * popcount(cx);
    out[k + 15] = (int)rotate(ucx, (uchar)y) + 1000 * (int)abs(cx) + 1000000 * mul_hi(cx, cy);
}

__kernel void float_library(__global const float4 *a, __global const float4 *b,
                            __global float4 *f, __global int4 *r)
{
    int i = get_global_id(0);
    float4 x = a[i], y = b[i];
    f[6 * i + 0] = clamp(x, -1.0f, 1.0f);
    f[6 * i + 1] = mix(x, y, 0.25f);
    f[6 * i + 2] = step(0.5f, x) + smoothstep(-1.0f, 1.0f, y);
    f[6 * i + 3] = sign(x);
    f[6 * i + 4] = (float4)(dot(x, y), dot(x.xy, y.xy), degrees(x.z), radians(y.w));
    f[6 * i + 5] = cross(x, y);
    r[4 * i + 0] = isequal(x, y) + 2 * isnotequal(x, y) + 4 * isgreater(x, y) + 8 * islessgreater(x, y);
    r[4 * i + 1] = isnan(x) + 2 * isinf(x) + 4 * isfinite(x) + 8 * isnormal(x) + 16 * signbit(x);
    r[4 * i + 2] = (int4)(any(isless(x, y)), all(isless(x, y)), select(7, 9, i & 1), bitselect(0x0f0f, 0x7070, 0x00ff));
    r[4 * i + 3] = select((int4)(1, 2, 3, 4), (int4)(5, 6, 7, 8), isgreater(x, y));
}
