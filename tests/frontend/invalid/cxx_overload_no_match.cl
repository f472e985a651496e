// options: -cl-std=CLC++
// expect: 6:10: error: no matching function for call to 'g'
int g(long x) { return 10; }
int g(double x) { return 20; }
__kernel void k(__global int *o, __global float4 *v)
{ o[0] = g(v[0]); }
