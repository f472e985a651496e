// Helpers given pointers into the caller's private variables and arrays:
// out-parameters, arrays updated in place, a pointer forwarded to another
// helper, and one chosen at run time between two arrays.

void add_to(float *acc, float v) {
    *acc += v;
}

void scale(float *v, int n, float f) {
    for (int k = 0; k < n; k++)
        v[k] *= f;
}

float sum(const float *v, int n) {
    float s = 0.0f;
    for (int k = 0; k < n; k++)
        s += v[k];
    return s;
}

void scale_and_total(float *v, int n, float f, float *total) {
    scale(v, n, f);
    add_to(total, sum(v, n));
}

int same(const float *a, const float *b) {
    return a == b;
}

__kernel void private_args(__global const float *in, __global float *out) {
    int i = get_global_id(0);
    float first[4], second[4];
    for (int k = 0; k < 4; k++) {
        first[k] = in[i * 4 + k];
        second[k] = (float)k;
    }
    float total = 0.0f;
    add_to(&total, 1.0f);
    scale_and_total(first, 4, 2.0f, &total);
    float *chosen = (i & 1) ? first : second;
    scale(chosen + 1, 2, 3.0f);
    float flags = (float)(same(first, first) + 2 * same(first, second) + 4 * same(chosen, second));
    out[i * 6 + 0] = total;
    out[i * 6 + 1] = sum(first, 4);
    out[i * 6 + 2] = sum(second, 4);
    out[i * 6 + 3] = first[1];
    out[i * 6 + 4] = second[2];
    out[i * 6 + 5] = flags;
}

// Helpers returning pointers: into the caller's private variables (chosen
// at run time), into a buffer, and null.
float *pick(float *a, float *b, int first) {
    return first ? a : b;
}

__global float *row_of(__global float *m, int r) {
    if (r < 0)
        return 0;
    return m + r * 2;
}

__kernel void returned_pointers(__global float *m, __global float *out) {
    int i = get_global_id(0);
    float x = 1.0f, y = 2.0f;
    *pick(&x, &y, i & 1) += 10.0f;
    __global float *r = row_of(m, i);
    r[1] = r[0] + x * 100.0f + y;
    out[i] = (row_of(m, -1) == 0) ? 1.0f : 0.0f;
}
