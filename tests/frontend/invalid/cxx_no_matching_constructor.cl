// options: -cl-std=CLC++
// expect: 8:42: error: no matching constructor for initialization of '__private V'
// A class with constructors is made only through one of them.
struct V {
  float x, y;
  V(float a, float b) : x(a), y(b) {}
};
__kernel void k(__global float *out) { V v(1.0f); out[0] = v.x; }
