// options: -cl-std=CLC++
// C++ for OpenCL classes with member functions (tests/cxx_classes.rs).

struct Counter {
  int count;
  int step;
  void add() { count += step; }
  // Calls a member function declared above and one declared below.
  void add_n(int n) { for (int i = 0; i < n; i++) add(); reset_step_if(n > 100); }
  int get() const { return count; }
  int twice() const { return this->get() * 2; }
  // Seed 004: overloads on the address space of `this`.
  int where() __global { return 1; }
  int where() __local { return 2; }
  int where() { return 3; }
  int scaled(int k = 10) const { return count * k; }
  void bump(int &out) { out += count; }
  void reset_step_if(bool b) { if (b) step = 0; }
};

class Vec2 {
public:
  float x, y;
  float dot(Vec2 o) const { return x * o.x + y * o.y; }
  Vec2 scaled(float k) const { Vec2 r = {x * k, y * k}; return r; }
};

// Members shadowed by parameters and locals, and a global the class's
// member hides.
int total = 1000;
struct Shadow {
  int total;
  int value;
  int sum(int value) const { return total + value; }
  int member_value() const { int total = 7; return total + this->total + value; }
};

// Member functions declared in the class and defined outside it.
struct Accumulator {
  float sum;
  int n;
  void push(float v);
  float mean() const;
  float mean_or(float otherwise) const __global;
};

void Accumulator::push(float v) { sum += v; n++; }
float Accumulator::mean() const { return n ? sum / n : 0.0f; }
float Accumulator::mean_or(float otherwise) const __global { return n ? mean() : otherwise; }

kernel void out_of_class(global float *out, global Accumulator *g) {
  Accumulator a = {0.0f, 0};
  for (int i = 1; i <= 4; i++)
    a.push((float)i);
  out[0] = a.mean();
  out[1] = g->mean_or(-1.0f);
  g->push(6.0f);
  out[2] = g->mean_or(-1.0f);
}

kernel void methods(global int *out, global Counter *g, global float *f) {
  local Counter l;
  if (get_local_id(0) == 0) {
    l.count = 5;
    l.step = 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  Counter c = {1, 2};
  c.add();
  c.add_n(3);
  out[0] = c.get();
  out[1] = c.twice();
  out[2] = g->where();
  out[3] = l.where();
  out[4] = c.where();
  out[5] = c.scaled();
  out[6] = c.scaled(3);
  g->add();
  out[7] = g[0].get();
  int acc = 100;
  c.bump(acc);
  out[8] = acc;
  Counter *p = &c;
  out[9] = p->get();
  Shadow s = {20, 3};
  out[10] = s.sum(5);
  out[11] = s.member_value();
  // A generic pointer to a __local object calls the generic overload.
  generic Counter *gp = &l;
  out[12] = gp->where();
  Vec2 a = {1.0f, 2.0f}, b = {3.0f, 4.0f};
  f[0] = a.dot(b);
  f[1] = a.scaled(2.0f).dot(b);
}

// Constructors: default, converting, with several arguments, with member
// initializers, defined outside the class; members of class type
// constructed first; temporaries; direct initialisation of a scalar.
struct Vec3 {
  float x, y, z;
  Vec3() : x(0.0f), y(0.0f), z(0.0f) {}
  Vec3(float v) : x(v), y(v), z(v) {}
  Vec3(float a, float b, float c) : x(a), y(b), z(c) {}
  float sum() const { return x + y + z; }
  Vec3 plus(Vec3 o) const { return Vec3(x + o.x, y + o.y, z + o.z); }
};

struct Particle {
  Vec3 pos;
  Vec3 vel;
  int id;
  Particle(int i) : vel(1.0f, 2.0f, 3.0f), id(i) { pos.x = (float)i; }
  void step() { pos = pos.plus(vel); }
};

class Range {
  int lo, hi;
public:
  explicit Range(int n);
  int size() const { return hi - lo; }
};
Range::Range(int n) : lo(2), hi(n) {}

kernel void ctors(global float *f, global int *out) {
  Vec3 a;
  Vec3 b(2.0f);
  Vec3 c(1.0f, 2.0f, 3.0f);
  Vec3 d = {4.0f, 5.0f, 6.0f};
  Vec3 e = 7.0f;
  Vec3 g = c;
  f[0] = a.sum();
  f[1] = b.sum();
  f[2] = c.sum();
  f[3] = d.sum();
  f[4] = e.sum();
  f[5] = g.sum();
  f[6] = Vec3(1.0f, 1.0f, 1.0f).plus(c).sum();
  Particle p(5);
  p.step();
  p.step();
  f[7] = p.pos.x;
  f[8] = p.pos.sum();
  out[0] = p.id;
  Range r(10);
  out[1] = r.size();
  int direct(42);
  out[2] = direct;
}

// Operators: members (one defined outside the class, one returning a
// reference), functions of the program, unary and subscript.
struct Complex {
  float re, im;
  Complex(float r, float i) : re(r), im(i) {}
  Complex operator+(Complex o) const { return Complex(re + o.re, im + o.im); }
  Complex operator*(Complex o) const;
  Complex operator-() const { return Complex(-re, -im); }
  Complex &operator+=(Complex o) { re += o.re; im += o.im; return *this; }
  bool operator==(Complex o) const { return re == o.re && im == o.im; }
  float operator[](int i) const { return i == 0 ? re : im; }
};
Complex Complex::operator*(Complex o) const {
  return Complex(re * o.re - im * o.im, re * o.im + im * o.re);
}
// A function of the program, for a left operand of another type.
Complex operator*(float k, Complex c) { return Complex(k * c.re, k * c.im); }
bool operator!=(Complex a, Complex b) { return !(a == b); }

kernel void operators(global float *out, global int *flags) {
  Complex a(1.0f, 2.0f), b(3.0f, -1.0f);
  Complex s = a + b;
  Complex p = a * b;
  Complex n = -a;
  Complex k = 2.0f * a;
  a += b;
  out[0] = s.re; out[1] = s.im;
  out[2] = p.re; out[3] = p.im;
  out[4] = n[0]; out[5] = n[1];
  out[6] = k.re; out[7] = k.im;
  out[8] = a.re; out[9] = a.im;
  flags[0] = a == s;
  flags[1] = a != s;
  flags[2] = p == b;
}

// Function templates: deduced from values, references and pointers, given
// explicitly, with two parameters, calling each other, on vectors.
template <typename T> T maximum(T a, T b) { return a > b ? a : b; }
template <typename T> void swap_values(T &a, T &b) { T t = a; a = b; b = t; }
template <typename T> T sum_of(const global T *p, int n) {
  T s = 0;
  for (int i = 0; i < n; i++) s += p[i];
  return s;
}
template <typename T, typename U> T convert_to(U u) { return (T)u; }
template <typename T> T twice(T x) { return x + x; }
template <typename T> T quadruple(T x) { return twice(twice(x)); }

kernel void templates(global int *ints, global float *floats, global const int *data) {
  ints[0] = maximum(3, 9);
  floats[0] = maximum(2.5f, -1.0f);
  int a = 1, b = 2;
  swap_values(a, b);
  ints[1] = a * 10 + b;
  ints[2] = sum_of(data, 4);
  ints[3] = convert_to<int>(7.9f);
  floats[1] = maximum<float>(1, 2.5f);
  ints[4] = quadruple(5);
  float4 v = twice((float4)(1.0f, 2.0f, 3.0f, 4.0f));
  floats[2] = v.w;
}

// C++ casts: static_cast, reinterpret_cast and functional casts.
kernel void casts(global int *out, global float *f) {
  float x = 7.75f;
  out[0] = static_cast<int>(x);
  out[1] = int(x) + int(2.5f);
  f[0] = float(3) / 2.0f;
  global float *p = reinterpret_cast<global float *>(out + 2);
  *p = 0.25f;
  out[3] = uint(-1) == 0xffffffffu;
  f[1] = static_cast<float>(out[0]) + 0.5f;
}

// Class templates: members, constructors and member functions of each
// instance, the template's own name inside it, an array member, an
// instance as a deduced function template parameter and as a temporary.
template <typename T> struct Pair {
  T first, second;
  Pair(T a, T b) : first(a), second(b) {}
  T sum() const { return first + second; }
  Pair swapped() const { return Pair(second, first); }
  T larger() const;
};

template <typename T> struct Stack4 {
  T items[4];
  int size;
  Stack4() : size(0) {}
  void push(T v) { items[size++] = v; }
  T pop() { return items[--size]; }
};

template <typename T> T pair_total(Pair<T> p) { return p.sum(); }

template <typename T> struct Wrap { T v; };

kernel void class_templates(global int *ints, global float *floats) {
  Pair<int> a(3, 4);
  Pair<float> b(1.5f, 2.0f);
  ints[0] = a.sum();
  floats[0] = b.sum();
  Pair<int> c = a.swapped();
  ints[1] = c.first * 10 + c.second;
  Stack4<int> s;
  s.push(5);
  s.push(7);
  int top = s.pop();
  int next = s.pop();
  ints[2] = top * 10 + next;
  ints[3] = pair_total(Pair<int>(10, 20));
  ints[4] = Pair<int>(1, 2).sum();
  // `>>` closes two lists.
  Stack4<Wrap<int>> wraps;
  Wrap<int> w = {8};
  wraps.push(w);
  wraps.push(w);
  ints[5] = wraps.pop().v + wraps.size * 9;
}

// Static member functions: called through the class, an object and from
// member functions, defined outside the class, of a class template.
struct MathUtil {
  int bias;
  static int square(int x) { return x * x; }
  static float lerp(float a, float b, float t);
  int biased_square(int x) const { return square(x) + bias; }
  int via_class(int x) const { return MathUtil::square(x) - bias; }
};
float MathUtil::lerp(float a, float b, float t) { return a + (b - a) * t; }

template <typename T> struct Limits {
  static T clamp_to(T v, T lo, T hi) { return v < lo ? lo : (v > hi ? hi : v); }
};

kernel void statics(global int *ints, global float *floats) {
  ints[0] = MathUtil::square(7);
  MathUtil m = {5};
  ints[1] = m.biased_square(3);
  ints[2] = m.via_class(4);
  ints[3] = m.square(6);
  floats[0] = MathUtil::lerp(1.0f, 3.0f, 0.25f);
  ints[4] = Limits<int>::clamp_to(15, 0, 10);
}

// if constexpr in a function template.
// Each branch holds only for some T: the others are not checked.
template <typename T> T halve(T x) {
  if constexpr (sizeof(T) == 4) {
    return x * 0.5f;
  } else if constexpr (sizeof(T) == 2) {
    return x >> 1;
  } else {
    return x / 2;
  }
}

kernel void if_constexpr(global long *longs, global float *floats) {
  floats[0] = halve(5.0f);
  longs[0] = halve(-7L);
  longs[1] = halve((short)9);
}

// Integer template parameters: given, in array bounds and sizes, deduced
// from a class template's instance.
template <int N> int times(int x) { return x * N; }
template <typename T, int N> struct Array {
  T items[N];
  int size() const { return N; }
  T sum() const {
    T s = 0;
    for (int i = 0; i < N; i++) s += items[i];
    return s;
  }
};
template <typename T, int N> T first_of(Array<T, N> a) { return a.items[0] + N; }

kernel void non_type(global int *ints) {
  ints[0] = times<3>(7);
  ints[1] = times<(2 > 1) + 1>(10);
  Array<int, 4> a = {{1, 2, 3, 4}};
  ints[2] = a.sum();
  ints[3] = a.size() + sizeof(Array<short, 6>);
  ints[4] = first_of(a);
}

// Scoped enums and fixed underlying types, in case labels and sizeof.
enum class Mode { Add, Scale = 10, Clamp };
enum class Small : uchar { Low = 1, High = 200 };
enum Plain : short { Minus = -5, Plus = 5 };

int apply(Mode m, int x) {
  switch (m) {
  case Mode::Add: return x + 1;
  case Mode::Scale: return x * 10;
  default: return x > 100 ? 100 : x;
  }
}

kernel void scoped_enums(global int *ints) {
  ints[0] = apply(Mode::Add, 5);
  ints[1] = apply(Mode::Scale, 5);
  ints[2] = apply(Mode::Clamp, 500);
  ints[3] = (int)Mode::Clamp;
  ints[4] = (int)Small::High + sizeof(Small);
  ints[5] = Minus + Plain::Plus * 2;
}

// A template's body calls the functions visible where it is defined, as
// C++ looks them up: not the better overload declared after it.
int pick(float x) { return 1; }
template <typename T> int call_pick(T x) { return pick(x); }
int pick(int x) { return 2; }

kernel void template_lookup(global int *ints) {
  ints[0] = call_pick(1);
  ints[1] = pick(1);
}

// Default template arguments, also from earlier parameters.
template <typename T = int, int N = 4> struct Row {
  T a[N];
  int size() const { return N; }
};
// Overloads the `convert_to` above: a call's conversions choose between
// the two templates' instances.
template <typename T, typename U = T> U convert_to(T x) { return (U)(x * 2); }
template <int N = 3> int times_or_3(int x) { return N * x; }
template <typename T, int N = sizeof(T)> int width(T x) { return N; }

kernel void template_defaults(global int *ints, global float *floats) {
  Row<> a;
  Row<float> b;
  Row<char, 2> c;
  ints[0] = a.size() * 100 + b.size() * 10 + c.size();
  ints[1] = sizeof(a) + sizeof(b) + sizeof(c);
  floats[0] = convert_to(2.5f) + convert_to<float, int>(2.5f);
  ints[2] = times_or_3(2) + times_or_3<5>(2);
  ints[3] = width(1.0) + width((short)1);
}

// Base classes: members and member functions reached through them, a
// member function hiding a base's, an empty base, base initializers,
// and derived-to-base conversions of objects, pointers and references.
struct Shape {
  float scale;
  float scaled(float x) const { return x * scale; }
  int id() const { return 1; }
};
struct Named { int tag; int get_tag() const { return tag; } };
// An empty base takes no room (never called: the translator has no
// empty objects).
struct Empty { int one() const { return 1; } };
struct Square : Shape, public Named, Empty {
  float side;
  Square(float s, float k, int t) : side(s) { scale = k; tag = t; }
  float area() const { return scaled(side * side); }
  int id() const { return 2 + Shape::id(); }      // hides Shape::id
};
struct Base2 { int v; Base2(int x) : v(x * 10) {} int value() const { return v; } };
struct Derived2 : Base2 { int w; Derived2(int a, int b) : Base2(a), w(b) {} int sum() const { return v + w; } };
float total_area(const Shape &s, float x) { return s.scaled(x); }
int tag_of(const Named *n) { return n->get_tag(); }
int which(Shape s) { return 1; }
int which(int x) { return 2; }
kernel void inheritance(global float *f, global int *p) {
  Square sq(3.0f, 2.0f, 7);
  f[0] = sq.area();                 // 18
  f[1] = sq.scaled(1.5f);           // 3
  f[2] = total_area(sq, 4.0f);      // 8
  p[0] = sq.get_tag() + tag_of(&sq) * 10;   // 77
  p[1] = sq.id() * 10 + 1;          // 31
  Shape copy = sq;
  p[2] = (int)copy.scale + which(sq) * 10;   // 12
  Derived2 d(4, 5);
  p[3] = d.sum() + d.value();       // 45 + 40 = 85
  p[4] = sizeof(Square) * 100 + sizeof(Derived2);   // 12*100 + 8
  Shape *sp = &sq;
  p[5] = (int)sp->scale;            // 2
}

// Function objects: `operator()`, overloaded, called directly, as a
// member, and by a function template.
struct Scale { float k; float operator()(float x) const { return x * k; } };
struct Adder {
  int bias;
  int operator()(int a, int b) const { return a + b + bias; }
  int operator()(int a) const { return a + 100; }
};
template <typename F> float apply_twice(F f, float x) { return f(f(x)); }
struct Holder { Scale s; float run(float x) const { return s(x) + 1.0f; } };

kernel void functors(global float *f, global int *p) {
  Scale s = {3.0f};
  f[0] = s(2.0f);
  f[1] = apply_twice(s, 1.0f);
  Holder h = {{2.0f}};
  f[2] = h.run(4.0f);
  Adder add = {10};
  p[0] = add(2, 3) + add(1);
}

// Static data members: constants usable in constant expressions, a
// program-scope variable in __global (seed 004), a class template's;
// and a call statement qualified by its class.
struct Config {
  static constexpr int N = 4;
  static const int M = N * 2;
  static int counter;
  int data[N];
  int total() const { int t = 0; for (int i = 0; i < N; i++) t += data[i]; return t + M; }
  void bump() const { counter += 1; }
  static void bump_static() { counter += 1; }
};
template <typename T> struct Traits { static constexpr int size = sizeof(T); };
kernel void static_data(global int *out) {
  Config c = {{1, 2, 3, 4}};
  int arr[Config::M];
  arr[Config::M - 1] = 5;
  c.bump(); c.bump();
  Config::counter += 10;
  out[0] = c.total();                        // 10 + 8 = 18
  out[1] = arr[7] + Config::N;               // 9
  out[2] = Config::counter;                  // 12
  out[3] = Traits<double>::size + Traits<short>::size;  // 10
  Config::bump_static();
  out[4] = Config::counter;                  // 13
}

// Destructors: run at the end of each object's scope, last declared
// first, and before a return, break or continue leaves it.
struct Logger {
  __global int *log;
  int id;
  Logger(__global int *l, int i) : log(l), id(i) { log[0] += 1; }
  ~Logger() { int n = log[1]; log[2 + n] = id; log[1] = n + 1; }
};
struct Quiet { int v; ~Quiet(); };
Quiet::~Quiet() {}
int early(__global int *log, int x) {
  Logger a(log, 10);
  if (x > 0) {
    Logger b(log, 20);
    return x * 2;           // destroys b then a
  }
  Logger c(log, 30);
  return x;                 // destroys c then a
}
kernel void destructors(global int *log, global int *out) {
  {
    Logger l1(log, 1);
    Logger l2(log, 2);
  }                                   // 2, 1
  out[0] = early(log, 1);             // 20, 10
  out[1] = early(log, -1);            // 30, 10
  for (int i = 0; i < 3; i++) {
    Logger loop(log, 100 + i);
    if (i == 1) continue;             // 101
    if (i == 2) break;                // 102
  }                                   // 100 at body end for i = 0
  Logger last(log, 7);
  Quiet q = {1};
}                                     // 7

// Class template specializations: explicit, partial on 'T *' and on
// another template's instance, and on an integer (recursion ended by
// 'Fact<0>').
template <typename T> struct Kind { static constexpr int id = 0; int pad; int kind() const { return 1; } };
template <> struct Kind<float> { static constexpr int id = 10; int pad; int kind() const { return 2; } };
template <typename T> struct Kind<T *> { static constexpr int id = 20 + sizeof(T); int pad; int kind() const { return 3; } };
template <typename T> struct Duo { T a, b; };
template <typename T> struct Kind<Duo<T>> { static constexpr int id = 40 + sizeof(T); int pad; int kind() const { return 4; } };
template <int N> struct Fact { static constexpr int value = N * Fact<N - 1>::value; };
template <> struct Fact<0> { static constexpr int value = 1; };
template <typename T> int kind_of() { Kind<T> t; return t.kind() * 100 + Kind<T>::id; }
kernel void specializations(global int *out) {
  out[0] = kind_of<int>();           // 100
  out[1] = kind_of<float>();         // 210
  out[2] = kind_of<short *>();       // 322
  out[3] = kind_of<Duo<double>>();  // 448
  out[4] = Fact<5>::value;           // 120
}

// Increment and decrement operators: prefix members returning a reference,
// a postfix member (with its int), and a function of the program.
struct Tally {
  int n;
  Tally &operator++() { n += 1; return *this; }
  Tally operator++(int) { Tally old = *this; n += 1; return old; }
  Tally &operator--() { n -= 10; return *this; }
};
struct Doubling { int v; };
Doubling &operator++(Doubling &w) { w.v *= 2; return w; }
kernel void increments(global int *out) {
  Tally c = {5};
  ++c;                       // 6
  Tally before = c++;      // before 6, c 7
  --c;                       // -3
  Doubling w = {3};
  ++w; ++w;                  // 12
  out[0] = c.n; out[1] = before.n; out[2] = (++c).n; out[3] = w.v;   // -3, 6, -2, 12
}

// Copy constructors that copy each member, in the class and outside it:
// the bitwise copies C++'s implicit ones are.
struct Triple {
  float x, y, z;
  Triple(float a, float b, float c) : x(a), y(b), z(c) {}
  Triple(const Triple &o) : x(o.x), y(o.y), z(o.z) {}
  Triple operator+(Triple o) const { return Triple(x + o.x, y + o.y, z + o.z); }
};
struct Counted { int n; Counted(int k) : n(k) {} Counted(const Counted &o); };
Counted::Counted(const Counted &o) : n(o.n) {}
kernel void copies(global float *out) {
  Triple a(1, 2, 3);
  Triple b = a;
  Triple c(a);
  Triple d = b + c;
  Counted e(4);
  Counted f = e;
  out[0] = d.x + d.y + d.z + f.n;   // 12 + 4
}

// A copy assignment operator that assigns each member: assignments stay
// the bitwise ones it does.
struct Assigned {
  int a;
  float b;
  Assigned &operator=(const Assigned &o) { a = o.a; b = o.b; return *this; }
};

kernel void assignments(global float *out) {
  Assigned x = {1, 2.5f};
  Assigned y = {0, 0};
  y = x;
  out[0] = y.a + y.b;
}

// Static data members defined outside their class, with initializers.
struct Stats {
  static int total;
  static float scale;
  int v;
  void add() const { total += v; }
};
int Stats::total = 100;
float Stats::scale = 0.5f;

kernel void static_definitions(global float *out) {
  Stats s = {7};
  s.add();
  out[0] = Stats::total * Stats::scale;
}

// Conversion functions: where a float or a bool is wanted, through a
// call's argument and casts.
struct Fixed {
  int raw;
  operator float() const { return raw / 256.0f; }
};
struct Flag { int v; operator bool() const { return v != 0; } };
float doubled(float x) { return 2 * x; }
kernel void conversions(global float *out) {
  Fixed f = {384};
  float a = f;                 // 1.5
  float b = doubled(f);          // 3
  int c = (int)f;              // 1
  out[0] = a + b + c;          // 5.5
  out[1] = static_cast<float>(f) * 2;   // 3
  Flag g = {2};
  bool on = g;
  out[2] = on ? 1.0f : 0.0f;
}

// `operator bool` in conditions and under `!`.
kernel void truth(global int *p) {
  Flag f = {3};
  Flag z = {0};
  int n = 0;
  if (f) n += 1;
  if (z) n += 10;
  while (z) {}
  p[0] = n + (f ? 100 : 0) + (!z ? 1000 : 0);
}

// Member function templates: deduced from each call, through objects,
// `operator()`, a static one, one calling another by its plain name, and
// one taking a reference to an array.
struct LessThan {
    template <typename T> bool operator()(const T &a, const T &b) const { return a < b; }
};
struct Scaler {
    float by;
    template <typename T> T apply(T x) const { return x * by; }
    template <typename T, int N> T sum(const T (&xs)[N]) const {
        T s = 0;
        for (int i = 0; i < N; i++)
            s += apply(xs[i]);
        return s;
    }
    template <typename T> static T twice(T x) { return x + x; }
};
template <typename C> int first_by(int a, int b, C c) { return c(a, b) ? a : b; }

kernel void member_templates(global int *out, float by) {
    LessThan less;
    Scaler s{by};
    float xs[3] = {1, 2, 3};
    out[0] = first_by(3, 9, LessThan{}) + first_by(9, 3, less) * 10;
    out[1] = 10 * less(1.5f, 2.5f) + less(7u, 2u);
    out[2] = s.apply(3.0f) + s.apply(4) * 100;
    out[3] = s.sum(xs);
    out[4] = 10 * (Scaler::twice(5) + s.twice(1.25f));
}

// Default member initializers: in the default constructor C++ declares
// for them, in constructors that name no initializer of the member, in
// class templates, members of class type and arrays of objects.
struct Tallied {
  int total = 5;
  float scale{2.5f};
  template <typename... Ts> void add(Ts... xs) { total += (xs + ... + 0); }
};
struct DefaultPair {
  int a = 1, b = 2;
  DefaultPair(int x) : b(x) {}
  DefaultPair() {}
};
template <typename T> struct DefaultBox { T v = T(7); T w{}; };
struct Nested { Tallied t; int k = 3; };

__kernel void member_defaults(__global const int *in, __global int *out, __global float *fout) {
  Tallied a;
  a.add(in[0], in[1], in[2]);
  out[0] = a.total;
  fout[0] = a.scale;
  DefaultPair p(in[3]), q;
  out[1] = p.a * 100 + p.b * 10 + q.b;
  DefaultBox<int> h;
  out[2] = h.v * 10 + h.w;
  DefaultBox<float> hf;
  fout[1] = hf.v;
  Nested n;
  out[3] = n.t.total * 10 + n.k;
  Tallied many[2];
  out[4] = many[1].total + Tallied().total + Tallied{}.total;
}

// Member function templates of class templates, deduced and with
// explicit arguments (`b.as<int>()`, `b.template as<int>()`), variadic,
// and taking a lambda with a return type the body deduces.
template <typename T> struct Cell {
  T v;
  template <typename U> U as() const { return static_cast<U>(v); }
  template <typename U> T plus(U u) const { return v + static_cast<T>(u); }
  template <typename... Us> T scaled(Us... us) const { return (v * ... * us); }
  template <typename F> auto apply(F f) const { return f(v); }
};

__kernel void member_templates_of_class_templates(__global const int *in, __global int *out,
                                                  __global float *fout) {
  Cell<int> b{in[0]};
  Cell<float> c{in[1] * 1.25f};
  out[0] = b.plus(2.75f);
  fout[0] = c.plus(1);
  out[1] = c.as<int>();
  fout[1] = b.template as<float>() / 2;
  out[2] = b.scaled(2, 5);
  out[3] = b.apply([](int x) { return x * 7; });
}
