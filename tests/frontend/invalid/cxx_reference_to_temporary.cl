// options: -cl-std=CLC++
// expect: 6:10: error: non-const lvalue reference to type 'int' cannot bind to a temporary of type 'int'
void bump(int &x) { x += 1; }
__kernel void k(__global int *out)
{
    bump(out[0] + 1);
}
