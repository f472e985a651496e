// options: -cl-std=CLC++
// Seed 004's deduction of address spaces by auto and decltype
// (tests/cxx_for_opencl.rs).

__kernel void deduction(__global int *out) {
  __local int i;
  if (get_local_id(0) == 0) i = 7;
  barrier(CLK_LOCAL_MEM_FENCE);
  constexpr int c = 1;
  __constant auto cai = c;
  auto aii = cai;
  auto *ptr = &i;
  auto *&refptr = ptr;
  decltype(i) *ii = &i;
  decltype(aii) copy = aii + 1;
  decltype(c + 2) three = c + 2;
  *refptr += 1;
  out[0] = *ptr + *ii + copy + three + cai;     // 8 + 8 + 2 + 3 + 1 = 22
  __global int *g = out;
  auto *gp = g + 1;
  *gp = 5;
  const int arr[2] = {3, 4};
  auto *cp = arr;
  out[2] = cp[1];
}

// Structured bindings of a class's members, by copy and by reference.
struct Split { int whole; float part; };
Split split(int a) { Split s = {a, a * 0.5f}; return s; }

__kernel void bindings(__global float *out) {
  auto [n, part] = split(7);
  Split s = {1, 2.0f};
  auto &[x, y] = s;
  x = 10;
  auto [u, v] = s;
  u = 1000;
  out[0] = n + part;
  out[1] = s.whole + y;
  out[2] = s.whole + v;
}
