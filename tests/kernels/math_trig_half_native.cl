// half_sin/cos/tan within 8192 ulp over their domain |x| <= 2^16, and
// native_sin/cos/tan (implementation-defined accuracy) range-reduced
// everywhere: a driver's sin without range reduction was a million ulp
// off at 72.26.

__kernel void half_native(__global const float *x, __global float *y) {
    size_t i = get_global_id(0);
    size_t n = get_global_size(0);
    float v = x[i];
    y[i] = half_sin(v);
    y[n + i] = half_cos(v);
    y[2 * n + i] = half_tan(v);
    y[3 * n + i] = native_sin(v);
    y[4 * n + i] = native_cos(v);
    y[5 * n + i] = native_tan(v);
}
