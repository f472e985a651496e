// expect: 6:5: error: 'default' statement not in switch statement
// A default label outside any switch.
__kernel void k(__global int *data)
{
    for (int i = 0; i < 4; i++) {
    default:
        data[i] = 0;
    }
}
