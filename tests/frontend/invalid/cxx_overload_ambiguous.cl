// options: -cl-std=CLC++
// expect: 6:43: error: call to 'g' is ambiguous
// An int converts as well to long as to double: neither is better.
int g(long x) { return 10; }
int g(double x) { return 20; }
__kernel void k(__global int *o) { o[0] = g(1); }
