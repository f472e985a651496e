// options: -cl-std=CLC++
// `auto` locals and `using` aliases, at file and block scope.
using real = float;
using IntPtr = __global int *;
struct P { int a; };
using PP = P;
__kernel void k(__global int *o, __global const real *f)
{
    using Idx = int;
    Idx i = 1;
    IntPtr q = o;
    PP p = { 3 };
    auto r = f[0];
    auto c = 'a';
    auto b = i < 4;
    auto v = (float4)(1.0f);
    static_assert(sizeof(c) == 1 && sizeof(b) == 1 && sizeof(v) == 16, "deduced types");
    q[0] = i + p.a + (int)r + c + b;
}
