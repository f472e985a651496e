// options: -cl-std=CLC++
// The C subset of C++ for OpenCL 1.0, with C++'s rules: tags are type
// names, `true`/`false`/`nullptr` are keywords, `#if true` holds, and
// `extern "C"` declares as a C unit would.
struct Pair { int a; float b; };
enum Colour { Red, Green = 5 };
#if true && __cplusplus >= 201703L && __OPENCL_CPP_VERSION__ == 100
#define CXX_OK 1
#endif
#ifdef __cplusplus
extern "C" {
#endif
int first(Pair p) { return p.a; }
#ifdef __cplusplus
}
#endif
extern "C" int second(Pair p) { return (int)p.b; }
__kernel void k(__global int *out, __global const int *in)
{
    Pair p = { in[0], 2.5f };
    Colour c = Green;
    bool t = true;
    __global const int *q = nullptr;
    out[0] = first(p) + second(p) + c + t + CXX_OK;
    out[1] = q == nullptr;
    out[2] = alignof(Pair);
}
