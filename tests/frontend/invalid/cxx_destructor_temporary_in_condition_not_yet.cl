// options: -cl-std=CLC++
// expect: 9:12: error: objects of a class with a destructor ('Guard') as temporaries in conditions and loop headers are not supported
// A temporary is destroyed at the end of its full-expression; clvulkan
// runs that for statements, declarations and 'return', not yet after a
// condition, so one there is a clear error rather than an object never
// destroyed (clang accepts this file).
struct Guard { int v; Guard(int x) : v(x) {} ~Guard() { v = 0; } bool ok() const { return v > 0; } };
__kernel void k(__global int *out) {
  if (Guard(out[0]).ok())
    out[1] = 1;
}
