// options: -cl-std=CLC++
// C++'s `static_assert`, with and without a message (C++17).
struct Pair { int a; float b; };
static_assert(sizeof(Pair) == 8, "two 4-byte members");
static_assert(alignof(Pair) == 4);
__kernel void k(__global int *out)
{
    static_assert(sizeof('a') == 1 && sizeof(true) == 1, "C++ literals");
    out[0] = 1;
}
