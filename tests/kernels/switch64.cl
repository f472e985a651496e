// switch on long and ulong: labels that fit 32 bits (and values whose low
// 32 bits match a label but which are out of the 32-bit range), labels that
// do not fit, shared labels, fall-through and a default in the middle.
// out[i] is computed on the host the same way.
__kernel void switch64(__global const long *in, __global int *out)
{
    int i = get_global_id(0);
    long v = in[i];
    int acc = 0;
    switch (v) {
    case -1:
    case 3:
        acc += 1;
        /* fall through */
    case 7:
        acc += 10;
        break;
    default:
        acc += 100;
        /* fall through */
    case 2147483647L:
        acc += 1000;
        break;
    case -2147483647L - 1:
        acc += 5;
    }
    ulong u = (ulong)v;
    switch (u) {
    case 0x100000003UL:
        acc += 20000;
        /* fall through */
    case 3:
        acc += 30000;
        break;
    case 0xffffffffffffffffUL:
        acc += 40000;
        break;
    default:
        acc += 50000;
    }
    switch (u) {
    case 7:
        acc += 600000;
        break;
    case 4294967295UL:
        acc += 700000;
        break;
    }
    out[i] = acc;
}
