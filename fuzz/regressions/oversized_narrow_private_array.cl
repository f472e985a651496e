// Under i32::MAX bytes in C, four times that in private memory's 32-bit
// lanes: naga could not lay it out.
kernel void k(global uchar *o) {
    uchar v[0x7ffffff9];
    v[1] = 2;
    o[0] = v[1];
}
