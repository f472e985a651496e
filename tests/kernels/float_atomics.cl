// options: -cl-std=CL2.0
// Atomics on float and double objects: atomic_xchg (OpenCL 1.1), and the
// OpenCL 2.0 store, load, exchange and compare-exchange on atomic_float and
// atomic_double, which float addition by compare-exchange builds on.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

// Every work-item swaps its value into one of `slots` places: what comes
// back and what is left is a permutation of what went in.
__kernel void exchange(volatile __global float *slots, __global const float *in,
                       __global float *out, uint count) {
    size_t i = get_global_id(0);
    out[i] = atomic_xchg(&slots[i % count], in[i]);
}

__kernel void add_by_cas(volatile __global atomic_float *sum, __global const float *in) {
    size_t i = get_global_id(0);
    float expected = atomic_load_explicit(sum, memory_order_relaxed);
    while (!atomic_compare_exchange_weak(sum, &expected, expected + in[i])) {
    }
}

__kernel void add_double_by_cas(volatile __global atomic_double *sum,
                                __global const double *in) {
    size_t i = get_global_id(0);
    double expected = atomic_load(sum);
    while (!atomic_compare_exchange_strong(sum, &expected, expected + in[i])) {
    }
}

// Each work-item's own object: store, load, exchange.
__kernel void store_load_exchange(volatile __global atomic_float *objects,
                                  __global float *out) {
    size_t i = get_global_id(0);
    atomic_store(&objects[i], (float)i * 0.5f);
    float loaded = atomic_load_explicit(&objects[i], memory_order_acquire);
    float old = atomic_exchange(&objects[i], -loaded);
    out[i] = loaded + 2.0f * old;
}

// The same on atomic_int with acquire-release order: lavapipe lost updates
// when the order was a fence inside the loop.
__kernel void add_int_by_cas(volatile __global atomic_int *sum, __global const float *in) {
    size_t i = get_global_id(0);
    int expected = atomic_load_explicit(sum, memory_order_acquire);
    while (!atomic_compare_exchange_weak_explicit(sum, &expected, expected + (int)in[i],
                                                  memory_order_acq_rel, memory_order_acquire)) {
    }
}
