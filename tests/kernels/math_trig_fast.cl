// options: -cl-fast-relaxed-math
// Under -cl-fast-relaxed-math the trigonometric built-ins may use the
// hardware's functions; half_* always may.

__kernel void fast(__global const float *x, __global float *y) {
    size_t i = get_global_id(0);
    size_t n = get_global_size(0);
    float v = x[i];
    y[i] = sin(v);
    y[n + i] = cos(v);
    y[2 * n + i] = tan(v);
    y[3 * n + i] = half_sin(v);
    y[4 * n + i] = half_cos(v);
    y[5 * n + i] = half_tan(v);
    y[6 * n + i] = asin(v * 0.25f);
    y[7 * n + i] = acos(v * 0.25f);
    y[8 * n + i] = atan(v);
    y[9 * n + i] = atan2(v, 1.5f);
}
