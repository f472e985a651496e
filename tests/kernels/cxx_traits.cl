// options: -cl-std=CLC++
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
template <typename T> T scaled(T x) { return x * 2; }
template <> float scaled<float>(float x) { return x * 10; }
template <> int scaled(int x) { return x + 1000; }

__kernel void function_specializations(__global float *f, __global int *p) {
  f[0] = scaled(1.5f);
  p[0] = scaled(3);
  p[1] = (int)scaled(2.0);
}
