// expect: 3:26: error: multiple address spaces specified for type
// Two address-space qualifiers on one type: reported at the second.
__kernel void k(__global __local float *p)
{
    p[0] = 0.0f;
}
