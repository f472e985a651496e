// options: -cl-std=CLC++
// C++ for OpenCL namespaces (tests/cxx_namespaces.rs): qualified names,
// nesting, reopening, using-directives and -declarations, aliases, and
// the classes, templates, enums and typedefs of a namespace.

int twice(int x) { return 2 * x; }
constant int scale = 1000;

namespace geo {
constant int scale = 10;
// A namespace's own `twice` hides the global one inside it, and is not
// an overload of it.
float twice(float x) { return x + x + 0.5f; }
int scaled(int x) { return x * scale; }
int global_twice(int x) { return ::twice(x); }

struct Point {
  int x, y;
  Point(int x, int y) : x(x), y(y) {}
  int dot(Point o) const;
  // A member named like a namespace member hides it in the class.
  int scale() const { return x * 3; }
  int scaled() const { return scale() + y; }
};

typedef float real;
using coordinate = int;
enum Axis { X_AXIS = 1, Y_AXIS = 2 };
enum class Turn { Left = 5, Right = 7 };

template <typename T> T larger(T a, T b) { return a > b ? a : b; }
template <typename T> struct Box {
  T v;
  T get() const { return v; }
};

namespace inner {
int depth() { return 2; }
// Unqualified names look outward: geo::scaled, then the global scope.
int call_outer(int x) { return scaled(x) + depth(); }
}
}

// Defined outside the namespace, by qualified names.
int geo::Point::dot(Point o) const { return x * o.x + y * o.y; }

// Reopened: one namespace, two bodies.
namespace geo {
int reopened() { return inner::depth() + scale; }
}

// C++17's nested definition.
namespace outer::middle {
int value() { return 42; }
}

namespace {
int hidden_helper(int x) { return x - 1; }
}

namespace g = geo::inner;

__kernel void qualified(__global int *out, __global float *f) {
  out[0] = geo::scaled(4);                  // 40
  out[1] = twice(4);                        // 8, the global one
  out[2] = geo::global_twice(5);            // 10
  geo::Point p(2, 3);
  geo::Point q = geo::Point(4, 5);
  out[3] = p.dot(q);                        // 23
  out[4] = p.scaled();                      // 9
  out[5] = geo::inner::call_outer(3);       // 32
  out[6] = geo::reopened();                 // 12
  out[7] = outer::middle::value();          // 42
  out[8] = hidden_helper(10);               // 9
  out[9] = g::depth();                      // 2
  out[10] = geo::X_AXIS + geo::Y_AXIS * 10; // 21
  out[11] = (int)geo::Turn::Right;          // 7
  geo::coordinate c = 6;
  out[12] = geo::larger<int>(c, 3) + geo::larger(1, 2);  // 8
  geo::Box<int> b = {11};
  out[13] = b.get();                        // 11
  out[14] = ::scale + geo::scale;           // 1010
  geo::real r = 1.5f;
  f[0] = geo::twice(r);                     // 3.5
  f[1] = (float)twice(3);                   // 6
}

__kernel void usings(__global int *out) {
  {
    using namespace geo;
    // A local hides the namespace's member.
    int scale = 3;
    out[0] = scaled(scale);                 // 30
    out[1] = inner::depth();                // 2
  }
  using geo::inner::depth;
  out[2] = depth();                         // 2
  using namespace outer::middle;
  out[3] = value();                         // 42
}

// Out-of-class member functions see their class's members before the
// namespace's names of the same spelling.
namespace a { int v(int x) { return x; } }
struct Plain { int v; int get() const; };
int Plain::get() const { return v; }
namespace b {
struct T { int w; int get() const; };
constant int w = 5;
struct Fwd;
struct Fwd { int a; };
typedef struct Fwd Alias;
}
int b::T::get() const { return w; }

__kernel void members(__global int *out) {
  Plain s = {3};
  b::T t = {4};
  out[0] = s.get();                         // 3, not a::v
  out[1] = t.get();                         // 4, not b::w
  b::Alias f = {6};
  struct b::Fwd g = {7};
  out[2] = f.a + g.a + b::w;                // 18
  // An unscoped enum's enumerators, through the enum and without it.
  out[3] = geo::Axis::Y_AXIS * 10 + geo::X_AXIS; // 21
}
