// options: -cl-std=CLC++
// expect: 6:1: error: a member after base 'Padded', which C++ compilers may place in the base's tail padding, is not supported
// A C++ compiler may put `d` in Padded's tail padding (it does where
// Padded is no C++03 POD); clvulkan refuses rather than guess.
struct Padded { int a; char c; Padded() : a(1), c(2) {} };
struct Tail : Padded { char d; };
__kernel void k(__global int *out)
{
    out[0] = sizeof(Tail);
}
