// Float atomic add emulated with atomic_cmpxchg on the bit pattern (a
// widespread idiom before native float atomics), plus atomic_min/max and
// atomic_xchg on global ints.
void atomic_add_float(volatile __global float *addr, float v)
{
    union { uint u; float f; } old_val, new_val;
    do {
        old_val.f = *addr;
        new_val.f = old_val.f + v;
    } while (atomic_cmpxchg((volatile __global uint *)addr, old_val.u, new_val.u) != old_val.u);
}

__kernel void scatter_add(__global const int *index, __global const float *value,
                          volatile __global float *bins, volatile __global int *stats)
{
    const int i = get_global_id(0);
    atomic_add_float(&bins[index[i]], value[i]);
    atomic_min(&stats[0], index[i]);
    atomic_max(&stats[1], index[i]);
    atomic_xchg(&stats[2], i);
    atomic_or(&stats[3], 1 << (i & 31));
    atomic_dec(&stats[4]);
}
