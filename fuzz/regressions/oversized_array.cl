// The replay driver's mutation: a private array of 34 GB, which C takes,
// was lowered with its length cut to 32 bits, and naga rejected its layout.
kernel void k(global uchar *o) {
    uchar v[0x7fffffff9];
    v[1] = 2;
    o[0] = v[1];
}
