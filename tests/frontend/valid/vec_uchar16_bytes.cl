// Byte shuffling with uchar16: hex selectors up to .sf/.sF, .lo.lo chains,
// vload16/vstore16, and a byte-swap of four big-endian words.
__kernel void bytes16(__global const uchar *src, __global uchar *dst,
                      __global uint *checksums)
{
    const int i = get_global_id(0);
    const uchar16 b = vload16(i, src);
    uchar16 swapped;
    swapped.s0123 = b.s3210;
    swapped.s4567 = b.s7654;
    swapped.s89ab = b.sBA98;
    swapped.scdef = b.sFEDC;
    vstore16(swapped, i, dst);

    const uchar4 first = b.lo.lo;
    const uchar8 upper = b.hi;
    const uint4 wide = convert_uint4(first) + convert_uint4(upper.even);
    checksums[i] = wide.x + wide.y + wide.z + wide.w + b.sf + b.SA;
}
