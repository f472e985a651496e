// options: -cl-std=CLC++
// expect: 8:12: error: use of placement new requires explicit declaration
// Placement new needs the program's 'operator new(size_t, void *)'.
struct S { int a; S(int x) : a(x) {} };
__kernel void k(__global int *out)
{
    S s(1);
    S *q = new (&s) S(5);
    out[0] = q->a;
}
