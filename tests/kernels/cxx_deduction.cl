// options: -cl-std=CLC++
// Seed 004's deduction of address spaces by auto and decltype
// (tests/cxx_for_opencl.rs).

__kernel void deduction(__global int *out) {
  __local int i;
  if (get_local_id(0) == 0) i = 7;
  barrier(CLK_LOCAL_MEM_FENCE);
  constexpr int c = 1;
  __constant auto cai = c;
  auto aii = cai;
  auto *ptr = &i;
  auto *&refptr = ptr;
  decltype(i) *ii = &i;
  decltype(aii) copy = aii + 1;
  decltype(c + 2) three = c + 2;
  *refptr += 1;
  out[0] = *ptr + *ii + copy + three + cai;     // 8 + 8 + 2 + 3 + 1 = 22
  __global int *g = out;
  auto *gp = g + 1;
  *gp = 5;
  const int arr[2] = {3, 4};
  auto *cp = arr;
  out[2] = cp[1];
}

// Structured bindings of a class's members, by copy and by reference.
struct Split { int whole; float part; };
Split split(int a) { Split s = {a, a * 0.5f}; return s; }

__kernel void bindings(__global float *out) {
  auto [n, part] = split(7);
  Split s = {1, 2.0f};
  auto &[x, y] = s;
  x = 10;
  auto [u, v] = s;
  u = 1000;
  out[0] = n + part;
  out[1] = s.whole + y;
  out[2] = s.whole + v;
}

// Initialization forms: `T{...}` temporaries and `T x{...}` declarations,
// `S()` value-initialising an aggregate, `return {...}`, `= default`
// constructors, arrays of objects default-constructed element by element,
// and references to arrays whose element type and length are deduced.
struct Counted {
    int id;
    Counted() : id(next()) {}
    Counted(int i) : id(i) {}
    static int next() { return 7; }
};
struct Plain { int a; float b; };
struct Holder {
    Counted parts[3];
    Plain plain;
};
struct Pair {
    int first, second;
    Pair() = default;
    Pair(int f, int s) : first(f), second(s) {}
    Pair swapped() const { return {second, first}; }
};
template <typename T, int N> int fill(T (&items)[N], T from) {
    for (int i = 0; i < N; i++)
        items[i] = from + i;
    return N;
}
template <typename T, int N> T total(const T (&items)[N]) {
    T sum = 0;
    for (const auto &x : items)
        sum += x;
    return sum;
}

kernel void initialization(global int *out, int seed) {
    local int shared[5];
    Plain zero = Plain();
    Plain given = Plain{3, 0.5f};
    Pair p{seed, 2};
    Pair q = Pair{4, 5}.swapped();
    Holder h;
    Counted list[2] = {Counted(1), Counted(2)};
    int row[4];
    int n = fill(row, seed);
    if (get_local_id(0) == 0)
        fill(shared, 100);
    barrier(CLK_LOCAL_MEM_FENCE);
    auto &alias = row;
    alias[0] += 1000;
    out[0] = zero.a + (int)(zero.b * 10) + given.a + (int)(given.b * 10);
    out[1] = p.first * 10 + p.second;
    out[2] = q.first * 10 + q.second;
    out[3] = h.parts[0].id + h.parts[1].id * 10 + h.parts[2].id * 100;
    out[4] = list[0].id * 10 + list[1].id;
    out[5] = n * 10000 + total(row);
    out[6] = total(shared);
}
