// options: -cl-std=CLC++
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

// `mutable`: a member a `const` object's member functions may change, and
// a lambda whose call operator changes its copies.
struct HitCounter {
    int value;
    mutable int hits;
    int get() const {
        hits++;
        return value;
    }
};

__kernel void mutables(__global int *p) {
    const HitCounter c = {7, 0};
    int a = c.get() + c.get();
    int n = 0;
    auto counter = [n]() mutable { n += 1; return n; };
    counter();
    p[0] = a * 100 + c.hits * 10 + counter();
    p[1] = n;
}

// Generic lambdas capturing by reference: each instance takes the
// captured variables as the others do.
kernel void generic_reference_captures(global const int *in, global int *out, global float *fout) {
    int total = in[0];
    float ftotal = 0;
    auto add = [&total](auto x) { total += x; };
    add(in[1]);
    add(2.75f);
    out[0] = total;
    auto both = [&](auto x) { total += x; ftotal += x; };
    both(in[2]);
    both(0.5f);
    out[1] = total;
    fout[0] = ftotal;
}
