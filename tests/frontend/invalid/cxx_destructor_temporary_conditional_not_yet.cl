// options: -cl-std=CLC++
// expect: 9:30: error: objects of a class with a destructor ('Guard') as temporaries in operands of '?:', '&&' and '||' are not supported
// A temporary in an operand that may not be evaluated would need a flag
// saying whether to destroy it; clvulkan has none yet, so one is a clear
// error rather than an object destroyed without having been made (clang
// accepts this file).
struct Guard { int v; Guard(int x) : v(x) {} ~Guard() { v = 0; } int get() const { return v; } };
__kernel void k(__global int *out) {
  out[1] = out[0] > 0 ? Guard(2).get() : 0;
}
