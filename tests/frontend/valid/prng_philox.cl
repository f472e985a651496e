// Counter-based random numbers (a Philox-2x32-style round function): a
// struct of uint2 state, mul_hi, 10 rounds in a loop, and conversion of the
// result to floats in [0, 1).
typedef struct {
    uint2 counter;
    uint key;
} PhiloxState;

#define PHILOX_M 0xD256D193u
#define PHILOX_W 0x9E3779B9u

uint2 philox_round(uint2 ctr, uint key)
{
    const uint hi = mul_hi(PHILOX_M, ctr.x);
    const uint lo = PHILOX_M * ctr.x;
    return (uint2)(hi ^ key ^ ctr.y, lo);
}

__kernel void philox_uniform(__global float2 *out, const uint seed, const uint offset)
{
    PhiloxState st;
    st.counter = (uint2)(get_global_id(0) + offset, 0u);
    st.key = seed;
    for (int r = 0; r < 10; ++r) {
        st.counter = philox_round(st.counter, st.key);
        st.key += PHILOX_W;
    }
    out[get_global_id(0)] = convert_float2(st.counter >> 8) * (1.0f / 16777216.0f);
}
