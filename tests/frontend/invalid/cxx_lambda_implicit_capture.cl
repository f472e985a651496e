// options: -cl-std=CLC++
// expect: 7:37: error: variable 'base' cannot be implicitly captured in a lambda with no capture-default specified
// A lambda reaches the enclosing function's variables only through its
// captures.
__kernel void k(__global int *out) {
  int base = 10;
  auto add = [](int x) { return x + base; };
  out[0] = add(1);
}
