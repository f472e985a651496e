// expect: 6:5: error: 'atomic_inc'
// The 1.1 atomic functions take int or uint pointers (clang: "call to
// 'atomic_inc' is ambiguous"; "no matching function" is as good).
__kernel void k(__global float *counter)
{
    atomic_inc(counter);
}
