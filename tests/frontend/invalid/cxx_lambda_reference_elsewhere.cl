// options: -cl-std=CLC++
// expect: 5:42: error: calls of a lambda capturing the private variable 'sum' by reference outside the function that made it are not supported
// The pointer model follows a private variable into a call only from the
// function that declares it (clang accepts this file).
template <typename F> void twice(F f) { f(); f(); }
__kernel void k(__global int *out) {
  int sum = 0;
  twice([&] { sum += 1; });
  out[0] = sum;
}
