// options: -cl-std=CLC++
// Variadic function templates (issue 22): parameter packs deduced from
// calls or given, expanded in calls, template arguments, braced lists and
// constructor arguments; fold expressions; `sizeof...`; recursion that
// ends in a non-variadic overload or in `if constexpr`; forwarding
// references; generic lambdas with `auto...`.

template <typename T> struct remove_ref { typedef T type; };
template <typename T> struct remove_ref<T &> { typedef T type; };
template <typename T> T &&forward(typename remove_ref<T>::type &t) { return static_cast<T &&>(t); }

// Recursion to a non-variadic overload, which partial ordering prefers
// for one argument.
template <typename T> T sum(T x) { return x; }
template <typename T, typename... Rest> T sum(T x, Rest... rest) { return x + sum(rest...); }

// Recursion that `if constexpr` ends.
template <typename T, typename... Rest> T total(T first, Rest... rest) {
  if constexpr (sizeof...(rest) > 0)
    return first + total(rest...);
  else
    return first;
}

template <typename... Ts> int count(Ts... xs) { return sizeof...(Ts) * 100 + sizeof...(xs); }
template <typename... Ts> auto right_sub(Ts... xs) { return (xs - ...); }
template <typename... Ts> auto left_sub(Ts... xs) { return (... - xs); }
template <typename... Ts> int product_from(int init, Ts... xs) { return (init * ... * xs); }
template <typename... Ts> bool all(Ts... xs) { return (xs && ...); }
template <typename T, typename... Ts> bool any_of(T v, Ts... xs) { return ((v == xs) || ...); }
template <typename T> T square(T x) { return x * x; }
template <typename... Ts> int sum_of_squares(Ts... xs) { return sum(square(xs)...); }
template <typename T, typename... Ts> T cast_sum(Ts... xs) { return sum(static_cast<T>(xs)...); }
template <typename... Ts> void store(__global int *out, Ts... xs) { int i = 0; ((out[i++] = xs), ...); }
template <typename... Ts> void bump(Ts &...xs) { ((xs += 1), ...); }

int digits(int a, int b, int c) { return a * 100 + b * 10 + c; }
template <typename... Ts> int relay(Ts &&...args) { return digits(forward<Ts>(args)...); }
template <typename... Ts> int sum_const_refs(const Ts &...args) { return (args + ... + 0); }
template <typename... Ts> int type_count() { return sizeof...(Ts); }
template <typename... Ts> int pass_on(Ts... xs) { return type_count<Ts...>() * 1000 + relay<Ts...>(xs...); }

// A return type its body deduces, outside templates too.
auto twice(int x) { return 2 * x; }

struct Point { int x, y; Point(int a, int b) : x(a), y(b) {} };
struct Vec2 { float x, y; };
Vec2 operator+(Vec2 a, Vec2 b) { return Vec2{a.x + b.x, a.y + b.y}; }
template <typename... Ts> Vec2 add_all(Ts... vs) { return (vs + ...); }
template <typename... Ts> int array_of(Ts... xs) {
  int t[] = {xs...};
  int s = 0;
  for (int v : t) s = s * 10 + v;
  return s * 10 + (int)(sizeof(t) / sizeof(int));
}
template <typename... Ts> int points(Ts... xs) {
  Point p{xs...};
  Point q(xs...);
  return p.x * 100 + q.y * 10 + Point(xs...).x;
}

__kernel void variadic(__global const int *in, __global const float *fin, __global int *out,
                       __global float *fout) {
  int a = in[0], b = in[1], c = in[2], d = in[3];  // 1, 2, 3, 4
  out[0] = sum(a, b, c, d);
  out[1] = total(a, b, c, d, 5);
  out[2] = count(a, fin[0], 'c');
  out[3] = count();
  out[4] = right_sub(10 * a, b, c);   // 10 - (2 - 3)
  out[5] = left_sub(10 * a, b, c);    // (10 - 2) - 3
  out[6] = product_from(10, b, c);
  out[7] = all(a, b, 0) + 2 * all() + 4 * all(a, b);
  out[8] = any_of(c, a, b, c) + 2 * any_of(7, a, b, c);
  out[9] = sum_of_squares(a, b, c);
  out[10] = cast_sum<int>(fin[0], fin[1], 3.9);
  store(out + 11, d, c, b);
  int x = a, y = b, z = 10;
  float w = fin[1];
  bump(x, y, z, w);
  out[14] = digits(x, y, z);
  fout[0] = w;
  out[15] = relay(a, b, 3);
  out[16] = sum_const_refs(a, b, c, d);
  out[17] = pass_on(d, c, b);
  out[18] = array_of(c, a, b);
  out[19] = points(d, c);
  Vec2 v = add_all(Vec2{fin[0], fin[1]}, Vec2{1, 2}, Vec2{10, 20});
  fout[1] = v.x;
  fout[2] = v.y;
  fout[3] = sum(fin[0], b, fin[1]);  // float + (int)(2 + 2.25f)
  auto product = [](auto... xs) { return (xs * ... * 1); };
  out[20] = product(b, c, d);
  out[21] = type_count<>() + twice(d);
}

// Variadic class templates: a tuple declared alone and defined by its
// specializations, recursion through `Tuple<Rest...>`, a type list, and
// deduction from an instance's pack. Variadic member templates.
template <typename... Ts> struct Tuple;
template <> struct Tuple<> { static constexpr int size = 0; };
template <typename T, typename... Rest> struct Tuple<T, Rest...> {
  static constexpr int size = 1 + sizeof...(Rest);
  T head;
  Tuple<Rest...> tail;
};
template <typename... Ts> struct TypeList { static constexpr int count = sizeof...(Ts); };
template <typename... Ts> int count_of(TypeList<Ts...>) { return sizeof...(Ts) * 10; }
template <typename T> T tuple_sum(Tuple<T> t) { return t.head; }
template <typename T, typename U, typename... Rest> T tuple_sum(Tuple<T, U, Rest...> t) {
  return t.head + tuple_sum(t.tail);
}
struct Accumulator {
  int total;
  template <typename... Ts> void add(Ts... xs) { total += (xs + ... + 0); }
  template <typename T, typename... Ts> T first(T x, Ts...) const { return x; }
};

__kernel void variadic_classes(__global const int *in, __global int *out, __global float *fout) {
  Tuple<int, float, int> t;
  t.head = in[0];
  t.tail.head = in[1] * 1.25f;
  t.tail.tail.head = in[2];
  out[0] = Tuple<int, float, int>::size * 10 + Tuple<>::size;
  out[1] = t.head + t.tail.tail.head;
  fout[0] = t.tail.head;
  out[2] = TypeList<int, char, float, int>::count + count_of(TypeList<int, int>());
  out[3] = sizeof(Tuple<int, int, int>);
  out[4] = sizeof(Tuple<char, int, char>);
  Tuple<int, int, int> u;
  u.head = in[0];
  u.tail.head = in[1];
  u.tail.tail.head = in[2];
  out[5] = tuple_sum(u);
  Accumulator a;
  a.total = 0;
  a.add(in[0], in[1], in[2]);
  a.add();
  a.add(10);
  out[6] = a.total;
  out[7] = a.first(in[2], 1.0f, 'c');
}
