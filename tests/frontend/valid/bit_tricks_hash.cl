// Hashing and bit manipulation as used in hash tables and procedural noise:
// a 32-bit finaliser, xorshift, FNV-1a over bytes, and 64-bit mixing.
uint hash32(uint x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

ulong mix64(ulong z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9UL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebUL;
    return z ^ (z >> 31);
}

__kernel void hashes(__global const uchar *bytes, const uint stride,
                     __global uint *h32, __global ulong *h64)
{
    const uint i = get_global_id(0);
    uint fnv = 2166136261u;
    for (uint k = 0; k < stride; ++k) {
        fnv ^= bytes[i * stride + k];
        fnv *= 16777619u;
    }
    uint state = hash32(i) | 1u;
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    h32[i] = fnv ^ state ^ (~state & 0xffu) ^ (i % 3u == 0 ? 0x55aa55aau : 0u);
    h64[i] = mix64(((ulong)fnv << 32) | state);
}
