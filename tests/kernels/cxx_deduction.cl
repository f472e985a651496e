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

// Friend functions, `alignas`, `constexpr` functions in constant expressions,
// `__remove_address_space`, partial specializations on address spaces,
// multiple inheritance and scoped enumerations.
struct Vec2 {
    float x, y;
    friend Vec2 operator*(float s, Vec2 v) { return {s * v.x, s * v.y}; }
    friend float inner(Vec2 a, Vec2 b);
    friend class Unused;
};
float inner(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }

constexpr int square(int x) { return x * x; }
constexpr uint reversed_bits(uint x, int bits) {
    uint r = 0;
    for (int i = 0; i < bits; i++) {
        r = (r << 1) | (x & 1);
        x >>= 1;
    }
    return r;
}
constexpr int log2_of(int n) { return n <= 1 ? 0 : 1 + log2_of(n / 2); }
static_assert(square(3) == 9 && reversed_bits(1, 4) == 8, "constexpr functions");

template <typename T> struct space_of { static constexpr int value = 0; };
template <typename T> struct space_of<__global T> { static constexpr int value = 1; };
template <typename T> struct space_of<__local T> { static constexpr int value = 2; };
template <typename T> int bump(T *p) {
    typename __remove_address_space<T>::type copy = *p;
    copy += 1;
    *p = copy;
    return space_of<T>::value;
}

struct alignas(16) Aligned { float x; };
struct Padded { char c; alignas(8) int v; };
struct Left { int l; };
struct Right { int r; };
struct Both : Left, Right { int b; };
enum class Mode : int { Off = 0, Fast = 2, Exact = 3 };

kernel void language_features(global int *out) {
    local int shared[1];
    if (get_local_id(0) == 0)
        shared[0] = 40;
    barrier(CLK_LOCAL_MEM_FENCE);
    Vec2 v{1.0f, 2.0f};
    Vec2 w = 3.0f * v;
    int table[square(2) + log2_of(64)];
    Both both;
    both.l = 1;
    both.r = 2;
    both.b = 3;
    Right &right = both;
    Mode mode = Mode::Exact;
    out[0] = (int)inner(w, v);
    out[1] = sizeof(table) / sizeof(int);
    out[2] = reversed_bits(6, 3) * 100 + log2_of(1024);
    out[3] = bump(out + 3) * 10;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        out[4] = bump(shared) * 1000 + shared[0];
    out[5] = right.r * 10 + (int)mode;
    out[6] = sizeof(Aligned) * 100 + sizeof(Padded) * 10 + __alignof__(Aligned);
}

// Rvalue references: std::move and std::forward written by hand, a
// temporary bound to a `T &&` and changed through it, forwarding
// references, and casts to references of a base.
template <typename T> T &&move_from(T &x) { return static_cast<T &&>(x); }
template <typename T> T &&forward_as(T &x) { return static_cast<T &&>(x); }
template <typename T> struct remove_reference { using type = T; };
template <typename T> struct remove_reference<T &> { using type = T; };
struct Buffer {
    int data[4];
    int size;
    Buffer() : size(0) {}
    void push(int v) { data[size++] = v; }
};
void drain(Buffer &&b, int *out) { *out = b.size; b.size = 0; }
int consume(int &&x) { x += 1; return x; }
template <typename T> int relay(T &&v) { return consume(forward_as<T>(v)); }
struct Tagged { int tag; };
struct Extended : Tagged { int extra; };
kernel void rvalue_references(global int *p) {
    Buffer b;
    b.push(5); b.push(6);
    int size;
    drain(move_from(b), &size);
    int y = 41;
    int &&r = y + 1;
    r += 100;
    Extended d; d.tag = 7; d.extra = 8;
    Tagged &base = static_cast<Tagged &>(d);
    p[0] = size * 10 + b.size;
    p[1] = consume(3) + consume(move_from(y)) * 100;
    p[2] = r;
    p[3] = base.tag + static_cast<Extended &&>(d).extra * 10;
    p[4] = relay(2) + y;
}

// Placement new (C++ for OpenCL has no allocating `new`; the program
// declares the allocation function, as it has no `<new>`), and a deleted
// copy constructor.
void *operator new(size_t, void *place) noexcept { return place; }

struct Cell {
  int value, twice;
  Cell(int v) : value(v), twice(2 * v) {}
  Cell(const Cell &) = delete;
};
struct Sample { int a; float f; };

__kernel void placement_new(__global int *out, __global float *fout) {
  Cell c(1);
  Cell *again = new (&c) Cell(out[0]);
  out[1] = again->value * 100 + c.twice;
  int *slot = new (out + 2) int(out[0] + 40);
  out[3] = *slot + 1;
  new (out + 4) int{7};
  new (out + 5) int();
  Sample p;
  Sample *q = new (&p) Sample{3, fout[0]};
  out[6] = q->a;
  fout[1] = p.f * 2;
  Cell *g = new ((__global void *)(out + 8)) Cell(out[0] + 4);
  out[7] = g->twice;
}

// A function template naming itself with explicit arguments in its body,
// its recursion ended by `if constexpr`.
template <int N> int factorial_times(int acc) {
  if constexpr (N > 1)
    return factorial_times<N - 1>(acc * N);
  else
    return acc;
}
template <int N> int power_of_two() {
  if constexpr (N == 0)
    return 1;
  else
    return 2 * power_of_two<N - 1>();
}

__kernel void explicit_recursion(__global int *out) {
  out[0] = factorial_times<5>(out[0]);
  out[1] = power_of_two<10>();
}

// `{...}` as a function's argument: an object of the parameter's type.
struct Duo { int a, b; };
struct Doubled { int x; Doubled(int v) : x(v * 2) {} };
int duo_sum(Duo d) { return d.a + d.b; }
int duo_product(const Duo &d) { return d.a * d.b; }
int doubled(Doubled d) { return d.x; }
struct Base100 { int base; int add(Duo d) const { return base + d.a + d.b; } };

__kernel void braced_arguments(__global int *out) {
  int seed = out[0];
  out[0] = duo_sum({seed, 2});
  out[1] = duo_product({3, seed});
  out[2] = doubled({seed});
  Base100 b{100};
  out[3] = b.add({seed, 1});
}
