// vload_half, vloada_half, vstore_half[_rte|_rtz|_rtp|_rtn] and
// vstorea_half* of every width on __local, private and __constant memory
// reached through pointer casts of other types: no cl_khr_fp16 needed.
// tests/pointer_spaces.rs mirrors each store.

// Halfs 1.0, 2.0, -0.5, 65504, 2^-24, -3.0, 0.333, 1024 as words.
constant uint half_table[4] = {0x40003c00u, 0x7bffb800u, 0xc2000001u, 0x64003555u};

// Work-items in pairs share the words of `pairs` (8 per pair), each
// writing every other half with one scalar store per rounding mode, so a
// store that lost the neighbour's half would show. `vectors` is 32 words
// per work-item, written by the vector forms over a known pattern. Both
// go to `out_words` (36 words per work-item), the values read back to
// `out` (80 per work-item).
kernel void half_memory(global const float *in, global uint *out_words,
                        global float *out, local uint *pairs, local uint *vectors) {
    int l = get_local_id(0);
    int g = get_global_id(0);
    int pair = l >> 1, parity = l & 1;
    for (int k = 0; k < 32; k++)
        vectors[32 * l + k] = 0x5a5a0000u | (uint)(k * 0x101);
    local half *p = (local half *)(pairs + 8 * pair);
    global const float *x = in + 32 * g;
    vstore_half(x[0], parity, p);
    vstore_half_rte(x[1], 2 + parity, p);
    vstore_half_rtz(x[2], 4 + parity, p);
    vstore_half_rtp(x[3], 6 + parity, p);
    vstore_half_rtn(x[4], 8 + parity, p);
    vstore_half_rtz(x[5], 10 + parity, p);
    vstore_half_rtp(x[6], 12 + parity, p);
    vstore_half_rtn(x[7], 14 + parity, p);
    local half *v = (local half *)vectors + 64 * l;
    vstore_half2(vload2(0, x), 0, v);
    vstorea_half2_rte(vload2(0, x + 2), 1, v);
    vstore_half3_rtz(vload3(0, x + 4), 2, v);
    vstorea_half3_rtp(vload3(0, x + 7), 3, v);
    vstore_half4_rtn(vload4(0, x + 10), 4, v);
    vstore_half8_rtp(vload8(0, x + 14), 3, v);
    vstorea_half4_rtz(vload4(0, x + 22), 8, v);
    vstore_half16(vload16(0, x + 16), 2, v + 4);
    vstorea_half8_rtn(vload8(0, x + 8), 7, v);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 4; k++)
        out_words[g * 36 + k] = pairs[8 * pair + 4 * parity + k];
    for (int k = 0; k < 32; k++)
        out_words[g * 36 + 4 + k] = vectors[32 * l + k];

    global float *o = out + 80 * g;
    o[0] = vload_half(parity, p);
    o[1] = vload_half(15, p);
    vstore4(vload_half4(0, v), 0, o + 2);
    vstore3(vloada_half3(3, v), 0, o + 6);
    vstore8(vload_half8(3, v), 0, o + 9);
    vstore16(vload_half16(2, v + 4), 0, o + 17);
    vstore2(vloada_half2(1, v), 0, o + 33);
    vstore8(vloada_half8(7, v), 0, o + 54);
    vstore16(vloada_half16(3, (local half *)vectors + 64 * l), 0, o + 64);
    constant half *t = (constant half *)half_table;
    o[35] = vload_half(g & 7, t);
    vstore4(vloada_half4(1, t), 0, o + 36);
    vstore2(vload_half2(g & 3, t), 0, o + 40);
    ushort priv[8] = {0x3c00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600, 0x4700, 0x4800};
    vstore_half2_rtz(vload2(0, x + 8), 3, (half *)priv);
    vstore_half_rtp(x[9] * 3.0f, 1, (half *)priv);
    uint words[2] = {0x11112222u, 0x33334444u};
    vstorea_half3_rtn(vload3(0, x + 29), 0, (half *)words);
    vstore4(vload_half4(1, (half *)priv), 0, o + 42);
    vstore4(vloada_half4(0, (half *)priv), 0, o + 46);
    o[50] = as_float(words[1]);
    o[51] = as_float(words[0]);
    vstore2(vload_half2(1, (private half *)words), 0, o + 52);
    o[62] = as_float((uint)priv[1] | ((uint)priv[7] << 16));
    o[63] = as_float((uint)priv[6] | ((uint)priv[0] << 16));
}
