// expect: 7:9: error: 'continue' statement not in loop statement
// continue inside a switch that is not in a loop.
__kernel void k(__global int *data)
{
    switch (data[0]) {
    case 0:
        continue;
    default:
        data[get_global_id(0)] = 1;
    }
}
