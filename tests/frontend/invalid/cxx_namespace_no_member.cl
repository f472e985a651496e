// options: -cl-std=CLC++
// expect: 7:14: error: no member named 'halve' in namespace 'maths'
// A qualified name finds only what its namespace declares.
namespace maths { int twice(int x) { return x + x; } }
__kernel void k(__global int *out)
{
    out[0] = maths::halve(4);
}
