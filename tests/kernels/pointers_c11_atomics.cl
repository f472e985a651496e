// options: -cl-std=CL2.0
// OpenCL 2.0 atomics through a pointer chosen per work-item.

__kernel void select_c11_atomics(__global const int *in, __global atomic_int *even,
                                 __global atomic_int *odd, __global int *old_values) {
    int i = get_global_id(0);
    int v = in[i];
    __global atomic_int *counter = (v & 1) ? odd : even;
    old_values[i] = atomic_fetch_add_explicit(counter, v, memory_order_relaxed);
    atomic_fetch_max(counter + 1, v);
}
