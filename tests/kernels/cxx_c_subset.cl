// options: -cl-std=CLC++
// C++ for OpenCL's C subset where its rules differ from OpenCL C's: each
// slot holds a value that C would compute differently (tests/cxx_for_opencl.rs).
struct Pair { int a; float b; };
enum Colour { Red, Green = 5 };

#ifdef __cplusplus
extern "C" {
#endif
int sum(Pair p) { return p.a + (int)p.b; }
#ifdef __cplusplus
}
#endif

#if true
#define IF_TRUE 1
#else
#define IF_TRUE 0
#endif

__kernel void differences(__global int *out, __global const int *in)
{
    int lo = in[0], hi = in[1];
    Pair p = { lo, 2.5f };           // a tag is a type name
    Colour c = Green;
    out[0] = sizeof('a');            // 1: a char literal is a char (C: 4)
    out[1] = sizeof(lo < hi);        // 1: a comparison is a bool (C: 4)
    out[2] = sizeof(!lo);            // 1
    out[3] = sizeof(lo && hi);       // 1
    out[4] = sizeof(true);           // 1: a keyword (C: the macro 1, 4)
    out[5] = (lo < hi) + (hi > lo);  // 2: bools promote to int
    out[6] = sum(p);                 // lo + 2
    out[7] = c;                      // 5
    out[8] = IF_TRUE;                // 1: `#if true` holds (C: 0)
    out[9] = __OPENCL_CPP_VERSION__; // 100
    __global const int *none = nullptr;
    out[10] = none == nullptr;       // 1
    bool flag = hi;                  // any non-zero value is true
    out[11] = flag;                  // 1
    char ch = '\xff';
    out[12] = ch == '\xff';          // 1: both are char -1
    out[13] = (int)'\xff';           // -1
    int4 v = (int4)(lo, hi, lo, hi);
    int4 mask = v < (int4)(hi);      // vectors still compare to lane masks
    out[14] = mask.x;                // -1 when lo < hi
    out[15] = mask.y;                // 0
}

// `const` and `constexpr` integers with constant initialisers are
// constant expressions: array sizes, case labels, static_assert.
const int Width = 4;
constexpr int Twice = Width * 2;
__constant uint Wrapped = (uchar)300;
static_assert(Twice == 8 && Wrapped == 44, "program-scope constants");

constexpr int triple(int x) { return 3 * x; }

__kernel void constants(__global int *out, __global const int *in)
{
    const int extra = 3;
    constexpr short minus_one = -1;
    int cells[Width + extra];
    static_assert(sizeof(cells) == 7 * sizeof(int), "an array of 7");
    for (int i = 0; i < Width + extra; i++)
        cells[i] = i;
    int v = in[0];
    int picked;
    switch (v) {
    case extra: picked = 30; break;          // 3
    case Twice: picked = 80; break;          // 8
    case (ushort)minus_one: picked = 65535; break;
    default: picked = -1;
    }
    out[0] = picked;
    out[1] = cells[Width + extra - 1] + triple(v);
}

// `auto` deduces a local's type from its initialiser; `using` names a type.
using Count = uint;
__kernel void deduced(__global int *out, __global const float *in)
{
    using Wide = ulong;
    auto scale = in[0] * 2.0f;        // float
    auto big = (Wide)1 << 40;         // ulong
    auto letter = 'a';                // char
    auto less = scale < 1.0f;         // bool
    auto where = out;                 // __global int *
    Count n = 3;
    where[0] = (int)scale;
    where[1] = (int)(big >> 38);
    where[2] = sizeof(letter) + sizeof(less) + sizeof(big) + sizeof(scale);
    where[3] = less + n;
}

// Lvalue references: parameters (also to pointers), locals, and const
// references to values (held in a temporary), into every address space.
void bump(int &x) { x += 1; }
int twice(const int &x) { return 2 * x; }
void swap_ptrs(__global int *&a, __global int *&b) { __global int *t = a; a = b; b = t; }
float sum3(const float4 &v) { return v.x + v.y + v.z; }

__kernel void references(__global int *o, __global int *p, __local int *l)
{
    l[0] = 5;
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = o[0];
    bump(v);                        // private
    int &r = v;
    r *= 10;
    bump(o[1]);                     // global
    bump(l[0]);                     // local
    __global int *a = o, *b = p;
    swap_ptrs(a, b);
    const int &c = 7;               // a temporary
    const long &w = v;              // a converted temporary
    int cells[3] = { 1, 2, 3 };
    int &last = cells[2];
    last = 9;
    o[2] = v + twice(3) + twice(v) + c + (int)w + a[0]
         + (int)sum3((float4)(1.0f, 2.0f, 3.0f, 4.0f));
    o[3] = cells[2] + sizeof(r);
    o[4] = l[0];
    o[5] = v;
}

// Default arguments (constants), on a definition or on a prototype.
int scale(int x, int k = 2, int b = -1) { return k * x + b; }
float blend(float a, float t = 0.25f, float shift = -1.5f) { return a * t + shift; }
int add_wrapped(int x, uchar y = 300);
int add_wrapped(int x, uchar y) { return x + y; }

__kernel void defaults(__global int *o, __global float *f)
{
    o[0] = scale(5);
    o[1] = scale(5, 3);
    o[2] = scale(5, 3, 4);
    o[3] = add_wrapped(1);
    f[0] = blend(2.0f);
}

// Overloading: the parameters the arguments convert to best, with
// promotions before conversions, references, and default arguments.
int pick(int x) { return 1; }
int pick(float x) { return 2; }
int pick(__global int *p) { return 3; }
int pick(int a, int b) { return 4; }
int bind(int &x) { return 100; }
int bind(const float &x) { return 200; }
int with_default(int a, int b = 5) { return a + b; }
int with_default(float a) { return -1; }

__kernel void overloads(__global int *o)
{
    int i = 1;
    char c = 2;
    short s = 3;
    float x = 1.5f;
    o[0] = pick(i);
    o[1] = pick(x);
    o[2] = pick(o);
    o[3] = pick(i, i);
    o[4] = pick(c);                 // char promotes to int
    o[5] = pick(s);
    o[6] = bind(i);
    o[7] = bind(x);
    o[8] = with_default(1);
    o[9] = with_default(1.0f);
    o[10] = pick(true);             // bool promotes to int
}
