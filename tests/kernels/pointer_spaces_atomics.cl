// options: -cl-std=CL2.0
// Atomics through pointers cast from another type: on __local float
// memory (a variable and an argument), __local uint memory as int, and
// private memory of any type (each work-item's own).

void add_bits(volatile local int *p, int v) { atomic_add(p, v); }

kernel void cast_atomics(global const float *in, global uint *out,
                         local float *floats_arg) {
    local float floats[4];
    local uint counters[2];
    int l = get_local_id(0);
    int g = get_global_id(0);
    if (l < 4) floats[l] = 0.0f;
    if (l < 2) counters[l] = 100;
    if (l == 0) floats_arg[0] = 1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    // One winner sets floats[0] to its id as bits; every other attempt
    // fails.
    atomic_cmpxchg((volatile local int *)floats, 0, l + 1);
    // Integer sums on float words, directly and through a helper.
    atomic_add((volatile local uint *)&floats[1], 3);
    add_bits((volatile local int *)floats + 2, l);
    atomic_or((volatile local uint *)floats_arg, 1u << (l & 15));
    atomic_max((volatile local uint *)(floats + 3), (uint)(l * 7 % 13));
    atomic_sub((volatile local int *)counters, 2);
    atomic_fetch_add((volatile local atomic_int *)&counters[1], -1);
    barrier(CLK_LOCAL_MEM_FENCE);
    int group = get_group_id(0);
    if (l == 0) {
        out[8 * group] = as_uint(floats[0]);
        out[8 * group + 1] = as_uint(floats[1]);
        out[8 * group + 2] = as_uint(floats[2]);
        out[8 * group + 3] = as_uint(floats[3]);
        out[8 * group + 4] = as_uint(floats_arg[0]);
        out[8 * group + 5] = counters[0];
        out[8 * group + 6] = counters[1];
    }
}

// Private memory: atomics through casts and on private atomics, as plain
// read-modify-writes of the work-item's own memory.
kernel void private_atomics(global const float *in, global uint *out) {
    int g = get_global_id(0);
    float pf[2] = {in[2 * g], in[2 * g + 1]};
    uint words[2] = {(uint)g, 5u};
    int old0 = atomic_fetch_add((volatile atomic_int *)pf, 1);
    int old1 = atomic_fetch_xor_explicit((volatile atomic_int *)&pf[1], 0x80000000,
                                         memory_order_relaxed, memory_scope_work_item);
    int expected = 5;
    bool swapped = atomic_compare_exchange_strong((volatile atomic_int *)&words[1],
                                                  &expected, -7);
    int expected2 = 1234;
    bool failed = atomic_compare_exchange_weak((volatile atomic_int *)words, &expected2, 0);
    uint m = atomic_fetch_min((volatile atomic_uint *)words, 3u);
    float f = atomic_exchange((volatile atomic_float *)&pf[0], 2.5f);
    out[8 * g] = (uint)old0;
    out[8 * g + 1] = (uint)old1;
    out[8 * g + 2] = as_uint(pf[0]);
    out[8 * g + 3] = as_uint(pf[1]);
    out[8 * g + 4] = words[0];
    out[8 * g + 5] = words[1];
    out[8 * g + 6] = (uint)swapped | (uint)failed << 1 | (uint)expected2 << 2;
    out[8 * g + 7] = m + as_uint(f);
}
