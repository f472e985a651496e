// expect: 6:9: error: 'break' statement not in loop or switch statement
// break with no enclosing loop or switch.
__kernel void k(__global float *data)
{
    if (data[0] < 0.0f)
        break;
    data[get_global_id(0)] = 1.0f;
}
