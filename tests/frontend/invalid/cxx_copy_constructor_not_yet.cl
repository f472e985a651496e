// options: -cl-std=CLC++
// expect: 7:3: error: copy constructors other than ones copying each member
// Copies are bitwise until a copy constructor can run for each: one that
// does more than copy each member is an error, never skipped.
struct C {
  int n;
  C(const C &other) : n(other.n + 1) {}
  C(int v) : n(v) {}
};
__kernel void k(__global int *out) { C a(1); C b = a; out[0] = b.n; }
