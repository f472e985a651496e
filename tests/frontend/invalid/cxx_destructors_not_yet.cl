// options: -cl-std=CLC++
// expect: 7:3: error: destructors are not supported by clvulkan's C++ for OpenCL yet, which takes the language's C subset
// A C++ feature clvulkan lacks is one clear error at its first use, not a
// cascade of C syntax errors (clang accepts this file).
class Counter { int n;
  Counter() { n = 0; }
  ~Counter() { n = -1; }
public:
  int get() const { return n; }
};
__kernel void k(__global int *out) { out[0] = 0; }
