// options: -cl-std=CLC++
// C++'s range-based for over arrays (tests/cxx_for_opencl.rs).

struct P { int a, b; };
struct Three { int values[3]; };

__kernel void range_for(__global int *out, __global struct Three *g) {
  int arr[4] = {1, 2, 3, 4};
  int sum = 0;
  for (int v : arr) sum += v;                 // 10
  for (auto &v : arr) v *= 2;                 // 2 4 6 8
  int sum2 = 0;
  for (const auto v : arr) { if (v == 4) continue; if (v == 8) break; sum2 += v; }   // 2+6 = 8
  P ps[2] = {{1, 2}, {3, 4}};
  int s3 = 0;
  for (P p : ps) s3 += p.a * p.b;              // 2 + 12 = 14
  int grid[2][3] = {{1, 2, 3}, {4, 5, 6}};
  int s4 = 0;
  for (auto &row : grid) for (int x : row) s4 += x;   // 21
  __local int tile[8];
  for (auto &t : tile) t = 5;
  barrier(CLK_LOCAL_MEM_FENCE);
  int s5 = 0;
  for (int t : tile) s5 += t;                 // 40
  out[0] = sum; out[1] = arr[3]; out[2] = sum2; out[3] = s3; out[4] = s4; out[5] = s5;
  // Through a reference to a global array member: writes go there.
  for (auto &v : g->values) v += 1;
  int s6 = 0;
  for (const auto &v : g->values) s6 += v;
  out[6] = s6;                                // 1+2+3 + 3 = 9
  // The range is evaluated once: the body's change of `i` does not move
  // it to another row.
  int rows[3][2] = {{1, 2}, {3, 4}, {5, 6}};
  int i = 0, s7 = 0;
  for (int x : rows[i]) { s7 += x; i = 2; }
  out[7] = s7 * 10 + i;                       // 32
}

// Range-based `for` over objects whose `begin()` and `end()` give
// pointers: `const` overloads chosen by the object, a class template.
struct Span {
  __global int *first;
  int n;
  __global int *begin() { return first; }
  __global int *end() { return first + n; }
  __global const int *begin() const { return first; }
  __global const int *end() const { return first + n; }
};
template <typename T> struct View {
  T *first;
  int n;
  T *begin() const { return first; }
  T *end() const { return first + n; }
};

kernel void range_for_classes(global int *data, global float *floats, global int *out) {
  Span s{data, 4};
  for (auto &v : s) v *= 3;
  const Span &cs = s;
  int sum = 0;
  for (int v : cs) sum += v;
  out[0] = sum;
  View<__global float> view{floats + 1, 3};
  float total = 0;
  for (float x : view) total += x;
  out[1] = (int)total;
}
