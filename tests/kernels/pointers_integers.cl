// Integers computed from pointers and converted back: in the same
// expression, a buffer pointer moved by a byte count, seen as another type,
// moved forward then back, a __local pointer moved by a count read at run
// time; through variables that keep their value; and 0 as the null
// pointer. out[i] is computed on the host.
__kernel void integer_pointers(__global int *out, __global const float *in)
{
    int i = get_global_id(0);
    int lid = get_local_id(0);
    __local int scratch[64];
    __global int *mine = (__global int *)((uintptr_t)out + i * sizeof(int));
    __global const uint *bits = (__global const uint *)(uintptr_t)in;
    __global const float *back =
        (__global const float *)((size_t)(in + 8) - 8 * sizeof(float));
    __local int *slot = (__local int *)((uintptr_t)scratch + sizeof(int) * (63 - lid));
    *slot = i * 3;
    barrier(CLK_LOCAL_MEM_FENCE);
    __global int *none = (__global int *)0;
    uintptr_t base = (uintptr_t)in;
    size_t element = base + i * sizeof(float);
    float twice = *(__global const float *)element * 2.0f;
    // The loop's counter changes only in its step, after each use.
    float window = 0.0f;
    for (int k = 0; k < 3; k++) {
        uintptr_t at = (uintptr_t)(in + ((i + k) & 255));
        window += *(__global const float *)at;
    }
    *mine = (int)bits[i] + (int)back[i] + scratch[63 - lid] + (none == 0) + (int)twice
          + (int)window;
}
