// Integers converted to pointers in every way a kernel computes them:
// conversions of conversions, intptr_t round trips, pointers kept in
// integer variables assigned at run time and in integer arrays, chosen
// between buffers, aligned with masks, returned by helpers.

uintptr_t address_of(global int *p, int k) { return (uintptr_t)(p + k); }

kernel void integer_pointers(global int *a, global int *b, global int *out) {
    int i = get_global_id(0);
    local float shared[64];
    float priv[4] = {1.5f, 2.5f, 3.5f, 4.5f};
    shared[get_local_id(0)] = (float)i * 0.5f;
    barrier(CLK_LOCAL_MEM_FENCE);
    // A conversion of a conversion, then moved.
    out[8 * i] = ((global int *)(uintptr_t)a + i)[0];
    // intptr_t round trip, arithmetic on the integer.
    intptr_t s = (intptr_t)b;
    s += 4 * i;
    out[8 * i + 1] = *(global int *)s;
    // Kept in an integer array, chosen per work-item.
    uintptr_t table[2];
    table[0] = (uintptr_t)a;
    table[1] = (uintptr_t)b;
    out[8 * i + 2] = ((global int *)table[i & 1])[i];
    // Assigned at run time on different paths.
    uintptr_t u = 0;
    if (i % 3 == 0) u = (uintptr_t)(b + 1);
    else u = address_of(a, 2);
    out[8 * i + 3] = *(global int *)u;
    // Aligned down with a mask: a 16-byte boundary of `a`.
    uintptr_t aligned = ((uintptr_t)(a + i)) & ~(uintptr_t)15;
    out[8 * i + 4] = *(global int *)aligned;
    // __local and private memory through integers.
    uintptr_t l = (uintptr_t)shared;
    l += sizeof(float) * ((get_local_id(0) + 1) % get_local_size(0));
    out[8 * i + 5] = (int)(*(local float *)l * 2.0f);
    ulong p = (ulong)&priv[1];
    p += 4 * (i & 1);
    *(float *)p += 10.0f;
    out[8 * i + 6] = (int)(priv[1] + priv[2]);
    // Null stays null: reads give zero.
    uintptr_t none = (i > 1000) ? (uintptr_t)a : 0;
    global int *n = (global int *)none;
    out[8 * i + 7] = n == 0;
}
