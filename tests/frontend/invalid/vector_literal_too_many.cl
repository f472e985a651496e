// expect: 7:35: error: too many elements in vector initialization (expected 4 elements, have 6)
// An int4 literal built from an int4 and an int2.
__kernel void k(__global int4 *out)
{
    const int4 a = (int4)(1, 2, 3, 4);
    const int2 b = (int2)(5, 6);
    out[get_global_id(0)] = (int4)(a, b);
}
