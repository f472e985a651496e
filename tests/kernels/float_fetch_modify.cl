// options: -cl-std=CL2.0
// cl_ext_float_atomics: atomic_fetch_add, _sub, _min and _max (and their
// _explicit forms) on atomic_float and atomic_double in __global and
// __local memory. Every work-item records the value its atomic returned.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

#ifndef cl_ext_float_atomics
#error "cl_ext_float_atomics is not defined"
#endif

// Each work-item adds 1: the values returned are 0 .. n-1, once each. The
// subtraction takes away what `back` says, leaving `sum` at n - total.
__kernel void add_sub_global(volatile __global atomic_float *sum, __global float *old,
                             volatile __global atomic_float *down,
                             __global const float *back) {
    size_t i = get_global_id(0);
    old[i] = atomic_fetch_add(sum, 1.0f);
    atomic_fetch_sub_explicit(down, back[i], memory_order_relaxed);
}

// The same in __local memory, and the group's count added into a __global
// total with an order and a scope.
__kernel void add_local(__global float *old, __global float *group_sums,
                        volatile __global atomic_float *total) {
    __local atomic_float sum;
    size_t l = get_local_id(0);
    if (l == 0) {
        atomic_init(&sum, 0.0f);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    old[get_global_id(0)] =
        atomic_fetch_add_explicit(&sum, 1.0f, memory_order_acq_rel, memory_scope_work_group);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        float s = atomic_load(&sum);
        group_sums[get_group_id(0)] = s;
        atomic_fetch_add_explicit(total, s, memory_order_release, memory_scope_device);
    }
}

// Work-item i folds in[i] into slot i % slots of `mins` and `maxs`.
__kernel void min_max_global(volatile __global atomic_float *mins,
                             volatile __global atomic_float *maxs, __global const float *in,
                             __global float *old_min, __global float *old_max, uint slots) {
    size_t i = get_global_id(0);
    old_min[i] = atomic_fetch_min(&mins[i % slots], in[i]);
    old_max[i] = atomic_fetch_max_explicit(&maxs[i % slots], in[i], memory_order_relaxed);
}

// Each group folds its inputs into a __local minimum and maximum that start
// from `start[0]` and `start[1]`.
__kernel void min_max_local(__global const float *in, __global const float *start,
                            __global float *old_min, __global float *old_max,
                            __global float *group_min, __global float *group_max) {
    __local atomic_float lo, hi;
    size_t l = get_local_id(0);
    size_t i = get_global_id(0);
    if (l == 0) {
        atomic_init(&lo, start[0]);
        atomic_init(&hi, start[1]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    old_min[i] = atomic_fetch_min_explicit(&lo, in[i], memory_order_seq_cst);
    old_max[i] = atomic_fetch_max(&hi, in[i]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        group_min[get_group_id(0)] = atomic_load(&lo);
        group_max[get_group_id(0)] = atomic_load(&hi);
    }
}

// A helper given the object by a generic pointer, on __local and __global
// memory.
static float add_twice(volatile atomic_float *object, float value) {
    atomic_fetch_add(object, value);
    return atomic_fetch_sub(object, -value);
}

__kernel void add_through_generic(volatile __global atomic_float *total) {
    __local atomic_float sum;
    if (get_local_id(0) == 0) {
        atomic_init(&sum, 0.0f);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    add_twice(&sum, 1.0f);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        add_twice(total, atomic_load(&sum));
    }
}

#ifdef cl_khr_fp64
__kernel void add_double(volatile __global atomic_double *sum, __global double *old,
                         __global double *local_old, __global double *group_sums,
                         __local double *local_sum) {
    size_t l = get_local_id(0);
    size_t i = get_global_id(0);
    volatile __local atomic_double *lsum = (volatile __local atomic_double *)local_sum;
    if (l == 0) {
        atomic_init(lsum, 0.0);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    old[i] = atomic_fetch_add(sum, 1.0);
    local_old[i] = atomic_fetch_sub_explicit(lsum, -1.0, memory_order_relaxed);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        group_sums[get_group_id(0)] = atomic_load(lsum);
    }
}

__kernel void min_max_double(volatile __global atomic_double *mins,
                             volatile __global atomic_double *maxs, __global const double *in,
                             __global double *old_min, __global double *old_max, uint slots,
                             __global double *group_min, __global double *group_max) {
    __local atomic_double lo, hi;
    size_t i = get_global_id(0);
    size_t l = get_local_id(0);
    if (l == 0) {
        atomic_init(&lo, in[i]);
        atomic_init(&hi, in[i]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    old_min[i] = atomic_fetch_min(&mins[i % slots], in[i]);
    old_max[i] = atomic_fetch_max_explicit(&maxs[i % slots], in[i], memory_order_acq_rel,
                                           memory_scope_device);
    atomic_fetch_min(&lo, in[i]);
    atomic_fetch_max(&hi, in[i]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        group_min[get_group_id(0)] = atomic_load(&lo);
        group_max[get_group_id(0)] = atomic_load(&hi);
    }
}
#endif
