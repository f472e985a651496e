// expect: 7:23: error: invalid operands to binary expression
// expect: 7:23: error: float
// % is not defined on floating types; fmod is.
__kernel void k(__global float *data, const float period)
{
    const int i = get_global_id(0);
    data[i] = data[i] % period;
}
