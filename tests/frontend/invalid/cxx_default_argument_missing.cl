// options: -cl-std=CLC++
// expect: 3:22: error: missing default argument on parameter 'b'
int f(int a = 1, int b) { return a + b; }
__kernel void k(__global int *out) { out[0] = f(1, 2); }
