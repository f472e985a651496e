// expect: 6:37: error: too few elements in vector initialization (expected 4 elements, have 3)
// A float4 literal with three components: reported at the '(' of the
// component list.
__kernel void k(__global float4 *out)
{
    out[get_global_id(0)] = (float4)(1.0f, 2.0f, 3.0f);
}
