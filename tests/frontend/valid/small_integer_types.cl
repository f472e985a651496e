// 8- and 16-bit integer types: char/uchar/short/ushort arithmetic with
// integer promotion, explicit narrowing casts, short2/ushort4 vectors and
// character literals.
__kernel void small_ints(__global const char *text, __global short *deltas,
                         __global ushort4 *packed, __global uchar *upper)
{
    const int i = get_global_id(0);
    const char c = text[i];
    upper[i] = (c >= 'a' && c <= 'z') ? (uchar)(c - 'a' + 'A') : (uchar)c;
    const short d = (short)(text[i + 1] - c);
    deltas[i] = d;
    const short2 s = (short2)(d, (short)-d);
    const ushort4 u = (ushort4)(as_ushort2(s), (ushort)0xffff, (ushort)(c & 0x7f));
    packed[i] = u + (ushort4)(1);
    const uchar wrap = (uchar)(upper[i] + 1);
    upper[i] += wrap;
}
