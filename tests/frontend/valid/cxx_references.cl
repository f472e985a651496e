// options: -cl-std=CLC++
// Lvalue references: parameters (also to pointers), locals, and const
// references bound to values (a temporary).
void bump(int &x) { x += 1; }
int twice(const int &x) { return 2 * x; }
void swap_ptrs(__global int *&a, __global int *&b) { __global int *t = a; a = b; b = t; }
float sum3(const float4 &v) { return v.x + v.y + v.z; }
__kernel void k(__global int *o, __global int *p, __local int *l)
{
    int v = o[0];
    bump(v);
    int &r = v;
    r *= 10;
    bump(o[1]);
    bump(l[0]);
    __global int *a = o, *b = p;
    swap_ptrs(a, b);
    const int &c = 7;
    const long &w = v;
    o[2] = v + twice(3) + twice(v) + c + (int)w + a[0] + (int)sum3((float4)(1.0f, 2.0f, 3.0f, 4.0f));
}
