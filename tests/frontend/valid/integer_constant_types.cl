// Integer constant expressions keep C's types (C99 6.6, 6.3.1): each line
// is an array whose size is negative, an error, if the constant is wrong.
#define ASSERT(name, cond) typedef char name[(cond) ? 1 : -1]
ASSERT(cast_wraps, (uchar)300 == 44);
ASSERT(cast_to_signed_char, (char)200 == -56);
ASSERT(cast_to_bool, (bool)256 == 1);
ASSERT(unsigned_comparison, !(-1 < 0u));
ASSERT(unsigned_wraps, 0u - 1 == 4294967295u);
ASSERT(unsigned_division, (uint)-1 / 2 == 2147483647);
ASSERT(long_is_wide, (long)1 << 40 == 1099511627776L);
ASSERT(ulong_above_long, 0x8000000000000000ul > 0);
ASSERT(int_minus_unsigned, (1 - 2u) > 0);
ASSERT(long_and_uint, -1L < 1u);
ASSERT(float_literal_cast, (int)3.75f == 3);
ASSERT(char_promotes, (char)127 + 1 == 128);
ASSERT(shift_signed, (-8 >> 1) == -4);
ASSERT(size_is_unsigned, -1 < sizeof(int) ? 0 : 1);
enum { E = (uchar)257 };
ASSERT(enumerator, E == 1);

__kernel void k(__global int *out, int x)
{
    switch (x) {
    case (uchar)300: out[0] = 1; break;
    case (char)200: out[0] = 2; break;
    default: out[0] = 3;
    }
}
