// The replay driver's mutation: a pointer initialized from a pointer to
// another type (a warning, as in clang) kept the other pointee's values
// under the new type, and naga rejected the arithmetic on them.
kernel void k(global long *o) {
    long s[4] = { 1, 2, 3, 4 };
    int *q = s + 3;
    int one = 1;
    o[0] = one + *q;
}
