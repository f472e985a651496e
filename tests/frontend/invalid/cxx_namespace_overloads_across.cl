// options: -cl-std=CLC++
// expect: 9:14: error: overloads that span namespaces (here 'twice', through a using-directive) are not supported
// C++ would overload the global `twice` and `maths::twice` together here;
// clvulkan says so rather than call one of them.
int twice(int x) { return 2 * x; }
namespace maths { float twice(float x) { return x + x; } }
using namespace maths;
__kernel void k(__global int *out) {
    out[0] = twice(3);
}
