// options: -cl-std=CL2.0
// Atomics on float and double objects in __local memory: a __local
// atomic_float, a __local float array, and a __local double array given as
// an argument. Every work-item of a group adds into the group's sums by
// compare-exchange and swaps its value into one of a few slots; the first
// work-items write out what the group left behind.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

#define SLOTS 8

// A helper given the object by a generic pointer, called on __local and on
// __global memory: atomics reach each the same way as in the kernel.
static void add_float(volatile atomic_float *sum, float value) {
    float expected = atomic_load_explicit(sum, memory_order_relaxed);
    while (!atomic_compare_exchange_weak(sum, &expected, expected + value)) {
    }
}

__kernel void local_sums(__global const float *in, __global float *swapped,
                         __global float *slots_left, __global float *float_sums,
                         __global double *double_sums, __local double *double_sum,
                         volatile __global atomic_float *total) {
    __local atomic_float sum;
    __local float slots[SLOTS];
    size_t l = get_local_id(0);
    size_t g = get_group_id(0);
    float value = in[get_global_id(0)];
    if (l == 0) {
        atomic_init(&sum, 0.5f);
        // A plain store into memory that atomics also use.
        double_sum[0] = 1e12;
    }
    if (l < SLOTS) {
        slots[l] = -1000.0f - (float)(g * SLOTS + l);
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    add_float(&sum, value);
    volatile __local atomic_double *dsum = (volatile __local atomic_double *)double_sum;
    double expected = atomic_load(dsum);
    while (!atomic_compare_exchange_strong_explicit(dsum, &expected, expected + (double)value * 0.5,
                                                    memory_order_relaxed, memory_order_relaxed)) {
    }
    swapped[get_global_id(0)] = atomic_xchg(&slots[l % SLOTS], value);
    barrier(CLK_LOCAL_MEM_FENCE);

    if (l < SLOTS) {
        // A plain read of memory that atomics also use.
        slots_left[g * SLOTS + l] = slots[l];
    }
    if (l == 0) {
        add_float(total, atomic_load(&sum));
        float_sums[g] = atomic_load(&sum);
        double_sums[g] = double_sum[0];
    }
}

// atomic_store, atomic_load and atomic_exchange on each work-item's own
// element of a __local atomic_float array given as an argument.
__kernel void local_store_load_exchange(__global float *out, __local atomic_float *objects) {
    size_t l = get_local_id(0);
    size_t i = get_global_id(0);
    atomic_store(&objects[l], (float)i * 0.5f);
    float loaded = atomic_load_explicit(&objects[l], memory_order_acquire, memory_scope_work_group);
    float old = atomic_exchange(&objects[l], -loaded);
    out[i] = loaded + 2.0f * old + atomic_load(&objects[l]);
}

// A __local float array that atomics use, reached in the other ways too:
// work-group copies in and out, vload4, and a read through a uint pointer.
__kernel void local_words_other_accesses(__global const float *in, __global float *out,
                                         __global float *old, __global uint *bits) {
    __local float buf[64];
    size_t l = get_local_id(0);
    size_t base = get_group_id(0) * 64;
    event_t copied_in = async_work_group_copy(buf, in + base, 64, 0);
    wait_group_events(1, &copied_in);
    float4 block = vload4(l / 4, buf);
    barrier(CLK_LOCAL_MEM_FENCE);
    old[base + l] = atomic_xchg(&buf[l], block.x + block.w);
    barrier(CLK_LOCAL_MEM_FENCE);
    bits[base + l] = ((__local uint *)buf)[(l + 1) % 64];
    event_t copied_out = async_work_group_copy(out + base, buf, 64, 0);
    wait_group_events(1, &copied_out);
}
