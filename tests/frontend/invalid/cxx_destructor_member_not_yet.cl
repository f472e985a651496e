// options: -cl-std=CLC++
// expect: 9:22: error: objects of a class with a destructor ('Counter') as members are not supported
// clvulkan runs destructors of local objects only: a member whose class
// has one is a clear error rather than an object never destroyed (clang
// accepts this file).
class Counter { int n;
  ~Counter() { n = -1; }
};
struct Box { Counter c; int v; };
__kernel void k(__global int *out) { out[0] = 0; }
