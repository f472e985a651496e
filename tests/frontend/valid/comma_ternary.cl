// Expression-level constructs: comma operators in for loops, nested
// ternaries, compound assignments of every kind, pre/post increments, and
// a two-index reversal loop.
__kernel void reverse_and_classify(__global int *data, const int n, __global int *classes)
{
    if (get_global_id(0) != 0)
        return;
    int i, j;
    for (i = 0, j = n - 1; i < j; ++i, --j) {
        const int t = data[i];
        data[i] = data[j];
        data[j] = t;
    }
    for (int k = 0; k < n; k++) {
        const int v = data[k];
        classes[k] = v < 0 ? -1 : v == 0 ? 0 : v < 100 ? 1 : 2;
    }
    int acc = 1;
    acc += 3; acc -= 1; acc *= 5; acc /= 2; acc %= 7;
    acc <<= 2; acc >>= 1; acc &= 0xff; acc |= 0x100; acc ^= 0x3;
    int x = (acc++, acc--, ++acc);
    classes[0] += x + (j = 2, j * 3);
}
