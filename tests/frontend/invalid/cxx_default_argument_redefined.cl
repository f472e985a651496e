// options: -cl-std=CLC++
// expect: 4:18: error: redefinition of default argument
int f(int a, int b = 1);
int f(int a, int b = 1) { return a + b; }
__kernel void k(__global int *out) { out[0] = f(1); }
