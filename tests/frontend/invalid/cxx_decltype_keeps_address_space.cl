// options: -cl-std=CLC++
// expect: 8:15: error: '__local' variable cannot have an initializer
// Seed 004: `decltype(i)` of a `__local int i` is `__local int`, so `j`
// is a `__local` variable too.
__kernel void k(__global int *out)
{
  __local int i;
  decltype(i) j = 1;
  out[0] = j;
}
