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

// Byte buffers of any size (the large moves): each byte becomes a mix of
// its old value, its index and the round's seed, so a byte that did not
// move, or moved to the wrong place, is wrong afterwards.
uchar mixed(uchar old, uint i, uint seed) {
    uint h = (i ^ seed) * 2654435761u;
    return (uchar)(old * 3u + (h >> 24));
}

__kernel void mix(__global uchar *data, uint n, uint seed) {
    uint i = get_global_id(0);
    if (i < n) {
        data[i] = mixed(data[i], i, seed);
    }
}

// Counts into `bad` the bytes of `data` that differ from `expected`,
// the host's model of it.
__kernel void count_differences(__global const uchar *data, __global const uchar *expected,
                                uint n, __global uint *bad) {
    uint i = get_global_id(0);
    if (i < n && data[i] != expected[i]) {
        atomic_inc(bad);
    }
}
