// options: -cl-std=CLC++
// expect: 6:14: error: member initializer 'y' does not name a non-static data member or base class
// clang's error for a member initializer naming no member.
struct S {
  int x;
  S(int v) : y(v) {}
};
__kernel void k(__global int *out) { S s(1); out[0] = s.x; }
