// options: -cl-std=CLC++
// expect: 4:7: error: functions that differ only in their return type cannot be overloaded
int q(int a);
float q(int a);
__kernel void k(__global int *o) { o[0] = 1; }
