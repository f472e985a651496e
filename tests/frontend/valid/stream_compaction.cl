// Stream compaction with a global counter: atomic_inc returns the old value,
// which becomes the output slot. Predicates on uint keys.
__kernel void compact_nonzero(__global const uint *keys,
                              __global const float *values,
                              const uint n,
                              __global uint *out_keys,
                              __global float *out_values,
                              __global uint *counter)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    const uint key = keys[i];
    if (key != 0u) {
        const uint slot = atomic_inc(counter);
        out_keys[slot] = key;
        out_values[slot] = values[i];
    }
}
