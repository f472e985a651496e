// options: -cl-std=CLC++
// expect: 6:5: error: overloading 'f' on an enum type against its underlying type is not supported
// Enums are their underlying integers here, so the two would be one function.
enum class Color { Red, Green };
int f(Color c) { return 1; }
int f(int i) { return 2; }
__kernel void k(__global int *out) { out[0] = f(Color::Green) + f(3); }
