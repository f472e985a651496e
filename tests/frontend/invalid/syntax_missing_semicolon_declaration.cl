// expect: 6:31: error: expected ';' at end of declaration
// A local declaration lacks its ';'.
__kernel void scale(__global float *data, const float factor)
{
    const int i = get_global_id(0);
    float v = data[i] * factor
    data[i] = v;
}
