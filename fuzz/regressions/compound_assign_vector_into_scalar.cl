// The replay driver's mutation: a compound assignment whose result is a
// vector, into a scalar, reached the lowering and naga rejected the IR.
kernel void k(global float *o, global float2 *p) {
  float x = o[0];
  x *= p[0];
  o[0] = x;
}
