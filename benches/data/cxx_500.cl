// A 500-line templated C++ for OpenCL program (issue 22's build-time
// figure): tests/kernels' application-style kernels, lambdas, traits,
// range-for and namespaces in one unit. Options: -cl-std=CLC++.
// Application-style C++ for OpenCL kernels (issue 22): a templated
// work-group reduction, a complex-number class in an FFT, sorting with
// comparator functors and lambdas, and a small vector/matrix library in a
// particle step. tests/cxx_applications.rs checks each against a host
// reference.

template <typename T> struct Plus {
    static constexpr T identity() { return T(0); }
    T operator()(T a, T b) const { return a + b; }
};
template <typename T> struct Max {
    static T identity() { return -1000000; }
    T operator()(T a, T b) const { return a > b ? a : b; }
};

template <typename T, typename Op>
T reduce_group(__local T *scratch, T value, Op op) {
    const uint l = get_local_id(0);
    const uint n = get_local_size(0);
    scratch[l] = value;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint stride = n / 2; stride > 0; stride /= 2) {
        if (l < stride)
            scratch[l] = op(scratch[l], scratch[l + stride]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    T result = scratch[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return result;
}

template <typename T, typename Op>
T reduce_range(const __global T *in, uint count, Op op) {
    T acc = Op::identity();
    for (uint i = get_global_id(0); i < count; i += get_global_size(0))
        acc = op(acc, in[i]);
    return acc;
}

kernel void reduce(global const float *f, global const int *k, uint count,
                   global float *fsum, global int *imax) {
    local float fs[64];
    local int is[64];
    float s = reduce_group(fs, reduce_range(f, count, Plus<float>()), Plus<float>());
    int m = reduce_group(is, reduce_range(k, count, Max<int>()), Max<int>{});
    if (get_local_id(0) == 0) {
        fsum[get_group_id(0)] = s;
        imax[get_group_id(0)] = m;
    }
}

template <typename T>
class complex {
public:
    T re, im;
    complex() = default;
    constexpr complex(T r, T i = T(0)) : re(r), im(i) {}
    complex operator+(complex o) const { return complex(re + o.re, im + o.im); }
    complex operator-(complex o) const { return complex(re - o.re, im - o.im); }
    complex operator*(complex o) const {
        return complex(re * o.re - im * o.im, re * o.im + im * o.re);
    }
    complex conj() const { return {re, -im}; }
    T norm() const { return re * re + im * im; }
};

template <typename T> complex<T> polar(T angle) {
    T c;
    T s = sincos(angle, &c);
    return complex<T>(c, s);
}

template <typename T> void swap(T &a, T &b) {
    T t = a;
    a = b;
    b = t;
}

constexpr uint reverse_bits(uint x, int bits) {
    uint r = 0;
    for (int i = 0; i < bits; i++) {
        r = (r << 1) | (x & 1);
        x >>= 1;
    }
    return r;
}

template <typename T, int LOG2N>
void fft(complex<T> (&data)[1 << LOG2N]) {
    constexpr int N = 1 << LOG2N;
    for (uint i = 0; i < N; i++) {
        uint j = reverse_bits(i, LOG2N);
        if (j > i)
            swap(data[i], data[j]);
    }
    for (int len = 2; len <= N; len <<= 1) {
        const T step = T(-2) * M_PI_F / len;
        for (int start = 0; start < N; start += len) {
            for (int k = 0; k < len / 2; k++) {
                complex<T> w = polar(step * k);
                complex<T> u = data[start + k];
                complex<T> v = data[start + k + len / 2] * w;
                data[start + k] = u + v;
                data[start + k + len / 2] = u - v;
            }
        }
    }
}

kernel void fft16(global const float2 *in, global float2 *out, global float *power) {
    size_t g = get_global_id(0);
    complex<float> x[16];
    for (int i = 0; i < 16; i++)
        x[i] = complex<float>(in[g * 16 + i].x, in[g * 16 + i].y);
    fft<float, 4>(x);
    float total = 0;
    for (int i = 0; i < 16; i++) {
        out[g * 16 + i] = (float2)(x[i].re, x[i].im);
        total += (x[i] * x[i].conj()).re;
    }
    power[g] = total;
}

struct Less {
    template <typename T> bool operator()(const T &a, const T &b) const { return a < b; }
};
struct Greater {
    bool operator()(int a, int b) const { return a > b; }
};
struct ByAbsThenValue {
    bool operator()(int a, int b) const {
        int x = abs(a), y = abs(b);
        return x != y ? x < y : a < b;
    }
};

template <typename T, int N, typename Compare>
void insertion_sort(T (&keys)[N], Compare less) {
    for (int i = 1; i < N; i++) {
        T key = keys[i];
        int j = i - 1;
        while (j >= 0 && less(key, keys[j])) {
            keys[j + 1] = keys[j];
            j--;
        }
        keys[j + 1] = key;
    }
}

template <typename T, typename Compare>
void bitonic_sort_local(__local T *data, uint n, Compare less) {
    uint l = get_local_id(0);
    for (uint size = 2; size <= n; size <<= 1) {
        for (uint stride = size / 2; stride > 0; stride >>= 1) {
            uint partner = l ^ stride;
            if (partner > l) {
                bool ascending = (l & size) == 0;
                T a = data[l], b = data[partner];
                if (less(b, a) == ascending) {
                    data[l] = b;
                    data[partner] = a;
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
}

kernel void sort_rows(global const int *in, global int *out, int order) {
    size_t g = get_global_id(0);
    int keys[16];
    for (int i = 0; i < 16; i++)
        keys[i] = in[g * 16 + i];
    switch (order) {
    case 0: insertion_sort(keys, Less()); break;
    case 1: insertion_sort(keys, Greater{}); break;
    case 2: insertion_sort(keys, ByAbsThenValue()); break;
    default: {
        const int pivot = order;
        insertion_sort(keys, [pivot](int a, int b) {
            return (a % pivot) != (b % pivot) ? (a % pivot) < (b % pivot) : a < b;
        });
    }
    }
    for (int i = 0; i < 16; i++)
        out[g * 16 + i] = keys[i];
}

kernel void sort_group(global float *data) {
    local float tile[64];
    uint l = get_local_id(0);
    size_t g = get_global_id(0);
    tile[l] = data[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    bitonic_sort_local(tile, get_local_size(0), Less{});
    data[g] = tile[l];
}

namespace phys {
struct vec3 {
    float x, y, z;
    vec3() : x(0), y(0), z(0) {}
    vec3(float x_, float y_, float z_) : x(x_), y(y_), z(z_) {}
    explicit vec3(float s) : x(s), y(s), z(s) {}
    vec3 operator+(const vec3 &o) const { return vec3(x + o.x, y + o.y, z + o.z); }
    vec3 operator-(const vec3 &o) const { return {x - o.x, y - o.y, z - o.z}; }
    vec3 operator*(float s) const { return vec3(x * s, y * s, z * s); }
    vec3 &operator+=(const vec3 &o) { x += o.x; y += o.y; z += o.z; return *this; }
    vec3 operator-() const { return vec3(-x, -y, -z); }
    float dot(const vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
    float length2() const { return dot(*this); }
    static vec3 load(const __global float *p, size_t i) { return vec3(p[3 * i], p[3 * i + 1], p[3 * i + 2]); }
    void store(__global float *p, size_t i) const { p[3 * i] = x; p[3 * i + 1] = y; p[3 * i + 2] = z; }
};
inline vec3 operator*(float s, const vec3 &v) { return v * s; }

struct mat3 {
    vec3 rows[3];
    vec3 operator*(const vec3 &v) const { return vec3(rows[0].dot(v), rows[1].dot(v), rows[2].dot(v)); }
    static mat3 rotation_z(float c, float s) {
        mat3 m;
        m.rows[0] = vec3(c, -s, 0.0f);
        m.rows[1] = vec3(s, c, 0.0f);
        m.rows[2] = vec3(0.0f, 0.0f, 1.0f);
        return m;
    }
};

template <typename Force>
struct Integrator {
    Force force;
    float dt;
    void step(vec3 &pos, vec3 &vel) const {
        vec3 a = force(pos, vel);
        vel += a * dt;
        pos += dt * vel;
    }
};
} // namespace phys

struct Spring {
    float k, damping;
    phys::vec3 operator()(const phys::vec3 &p, const phys::vec3 &v) const {
        return -p * k - v * damping;
    }
};

using namespace phys;

kernel void particle_step(global float *pos, global float *vel, global float *energy,
                          float dt, float c, float s, int steps) {
    size_t i = get_global_id(0);
    vec3 p = vec3::load(pos, i);
    vec3 v = vec3::load(vel, i);
    Integrator<Spring> integ{Spring{2.0f, 0.1f}, dt};
    for (int n = 0; n < steps; n++)
        integ.step(p, v);
    const mat3 r = mat3::rotation_z(c, s);
    p = r * p;
    v = r * v;
    p.store(pos, i);
    v.store(vel, i);
    energy[i] = 0.5f * v.length2() + 0.5f * integ.force.k * p.length2();
}
// C++ lambda expressions (tests/cxx_for_opencl.rs).

template <typename F> int apply3(F f) { return f(1) + f(2) + f(3); }

__kernel void lambdas(__global int *p, __global float *q) {
  int base = 10;
  // By copy, listed: the lambda keeps the value it was made with.
  auto add = [base](int x) { return x + base; };
  base = 1000;
  p[0] = add(5);                               // 15
  p[1] = apply3(add);                          // 36, through a template
  auto twice = [](float x) -> float { return 2 * x; };
  q[0] = twice(1.25f);                         // 2.5
  int k = 3;
  auto mul = [=](int x) { return x * k + base; };
  p[2] = mul(4);                               // 1012
  p[3] = [](int a, int b) { return a * b; }(6, 7);  // 42
  // A lambda without captures has one byte, one with an int four.
  p[4] = sizeof(twice) * 10 + sizeof(add);     // 14
  auto none = [] { return 9; };
  p[5] = none();
  // A global pointer captured by copy writes where it points.
  __global int *out = p;
  auto put = [out](int i, int v) { out[i] = v; };
  put(6, 77);
  // Lambdas in lambdas.
  auto outer = [k](int x) {
    auto inner = [k](int y) { return y * k; };
    return inner(x) + 1;
  };
  p[7] = outer(5);                             // 16
}

__kernel void references(__global int *p) {
  // By reference: the lambda changes the variables it names.
  int sum = 0, calls = 0;
  auto add = [&](int x) { sum += x; calls++; };
  add(3);
  add(4);
  int scale = 2;
  auto scaled = [&scale, sum](int x) { return x * scale + sum; };
  scale = 10;                     // seen through the reference
  p[0] = sum;                     // 7
  p[1] = calls;                   // 2
  p[2] = scaled(1);               // 1 * 10 + 7
  // A reference capture of a reference, and one in a nested lambda.
  int &alias = sum;
  auto bump = [&alias] { alias += 100; };
  bump();
  auto outer = [&]() { auto inner = [&] { sum += 1000; }; inner(); };
  outer();
  p[3] = sum;                     // 1107
}

// Generic lambdas: each `auto` parameter a template parameter of the call
// operator, an instance for each call's argument types, called directly,
// through `auto` variables and through templates.
template <typename F> int apply_pair(F f, int a, int b) { return f(a, b); }
template <typename T, int N, typename C> void sort_by(T (&keys)[N], C before) {
    for (int i = 1; i < N; i++) {
        T key = keys[i];
        int j = i - 1;
        while (j >= 0 && before(key, keys[j])) {
            keys[j + 1] = keys[j];
            j--;
        }
        keys[j + 1] = key;
    }
}

__kernel void generic_lambdas(__global int *p, int m) {
    auto add = [](auto a, auto b) { return a + b; };
    auto scaled = [m](auto x) { return x * m; };
    auto descending = [](const auto &a, const auto &b) { return a > b; };
    int keys[5] = {4, 1, 5, 2, 3};
    sort_by(keys, descending);
    p[0] = add(1, 2);
    p[1] = (int)(add(1.5f, 2.25f) * 100);
    p[2] = scaled(4) + (int)(scaled(0.5f) * 10);
    p[3] = apply_pair(add, 7, 8);
    p[4] = keys[0] * 10000 + keys[1] * 1000 + keys[2] * 100 + keys[3] * 10 + keys[4];
    p[5] = [](auto v) { return v * 2; }(21);
}
// C++ member types and the traits built on them (tests/cxx_classes.rs).

struct S { typedef float value_type; using index_type = int; value_type v; index_type i;
  value_type twice() const { value_type t = v * 2; return t; } };
template <typename T> struct Box { typedef T value_type; T v; value_type get() const { return v; } };
template <typename C> typename C::value_type first(C c) { typename C::value_type x = c.get(); return x; }
template <bool B, typename T = void> struct enable_if {};
template <typename T> struct enable_if<true, T> { typedef T type; };
template <typename T> struct is_float { static constexpr bool value = false; };
template <> struct is_float<float> { static constexpr bool value = true; };
__kernel void traits(__global float *out) {
  S s = {2.5f, 3};
  S::value_type a = s.twice();
  Box<int>::value_type b = 7;
  Box<float> bx = {1.5f};
  out[0] = a + b + s.i;              // 5 + 7 + 3 = 15
  out[1] = first(bx);                // 1.5
  enable_if<true, float>::type e = 4.0f;
  out[2] = e + (is_float<float>::value ? 10 : 0) + (is_float<int>::value ? 100 : 0);  // 14
}

// SFINAE: each `half_of` is a candidate only where its `enable_if` has a
// `type`.
template <typename T> typename enable_if<is_float<T>::value, T>::type half_of(T x) { return x / 2; }
template <typename T> typename enable_if<!is_float<T>::value, T>::type half_of(T x) { return x >> 1; }

__kernel void sfinae(__global float *f, __global int *p) {
  f[0] = half_of(5.0f);
  p[0] = half_of(9);
}

// Alias templates, `enable_if_t` among them.
template <bool B, typename T = void> using enable_if_t = typename enable_if<B, T>::type;
template <typename T> using IntBox = Box<int>;
template <typename T> using Ptr = T *;
template <typename T> enable_if_t<(sizeof(T) > 2), T> bigger(T x) { return x + 1; }

__kernel void aliases(__global int *p) {
  Box<int> b = {3};
  IntBox<float> c = b;
  Ptr<int> q = &c.v;
  p[0] = *q + bigger(10);
}

// Explicit specializations of a function template, with its arguments
// written and deduced from the parameters.
template <typename T> T rescaled(T x) { return x * 2; }
template <> float rescaled<float>(float x) { return x * 10; }
template <> int rescaled(int x) { return x + 1000; }

__kernel void function_specializations(__global float *f, __global int *p) {
  f[0] = rescaled(1.5f);
  p[0] = rescaled(3);
  p[1] = (int)rescaled(2.0);
}
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
