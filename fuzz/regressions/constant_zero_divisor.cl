// The replay driver's mutation: integer division and remainder by a
// constant zero (undefined, as in C) made naga reject the module.
kernel void k(global int *o, global uint4 *v) {
    o[0] = o[1] % 0 + o[2] / 0;
    v[0] = v[1] / (uint4)(1, 0, 2, 3);
}
