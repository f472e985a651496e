// expect: 6:5: error: 'case' statement not in switch statement
// A case label outside any switch.
__kernel void k(__global int *data)
{
    if (data[0] > 0) {
    case 1:
        data[get_global_id(0)] = 1;
    }
}
