// options: -cl-std=CLC++
// expect: 4:60: error: unary fold expression has empty expansion for operator '+' with no fallback value
// A unary fold over no elements has a value only for &&, || and ','.
template <typename... Ts> int sum(Ts... xs) { return (xs + ...); }
__kernel void k(__global int *out) { out[0] = sum(); }
