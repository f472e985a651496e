// Kernels of tests/multi_device.rs: each element depends on its old value
// and its index, so a stale or misplaced buffer gives a wrong result.
__kernel void scale_add(__global int *data, int k) {
    size_t i = get_global_id(0);
    data[i] = data[i] * k + (int)i;
}

__kernel void sum_into(__global int *out, __global const int *a, __global const int *b) {
    size_t i = get_global_id(0);
    out[i] = a[i] + b[i];
}
