// A designated empty struct member given a plain value: brace elision
// into it took nothing and `Checker::fill` looped for ever.
struct E {}; struct A { struct E e; int x; };
kernel void k(global int *o) { struct A a = { .e = 1 }; o[0] = a.x; }
