// options: -cl-std=CLC++
// `const` and `constexpr` integers with constant initialisers are
// constant expressions in C++ (array sizes, case labels, static_assert).
const int N = 4;
constexpr int M = N * 2;
__constant uint K = (uchar)300;
static_assert(M == 8 && K == 44, "program-scope constants");
__kernel void k(__global int *out, int v)
{
    const int L = 3;
    constexpr short S = -1;
    int a[N + L];
    static_assert(sizeof(a) == 28, "seven ints");
    static_assert(S == -1 && (ushort)S == 65535);
    switch (v) {
    case L: out[0] = 1; break;
    case M: out[0] = 2; break;
    }
    a[0] = v;
    out[1] = a[0];
}
